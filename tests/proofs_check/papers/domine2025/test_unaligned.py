"""The derivation of the unaligned λ-balanced solution (``proofs_check.papers.domine2025.unaligned``): every step
exact, and each step's
check refutes a wrong variant (a flipped sign of λ in F, the wrong balance, a wrong rate of M^{-1} or of E, another
kernel eigenvalue)."""

from __future__ import annotations

import sympy as sp

from proofs_check.papers.domine2025.unaligned import (
    SYMBOLS,
    _free_algebra_zero,
    _generator,
    _integral_check,
    _stacked_flow,
    eigenvalue_integral,
    mode_eigenvalues,
    time_derivative,
    unaligned_solution,
)

S = SYMBOLS


def test_every_step_is_exact() -> None:
    checks = unaligned_solution().check()
    assert len(checks) == 7
    assert all(c.proof.holds and c.proof.exact for c in checks), [(c.step.key, c.proof) for c in checks]
    assert {c.step.key for c in checks} == {"Q", "Riccati", "QQT", "spectrum"}


def test_the_stacked_flow_needs_the_balance_and_the_sign_of_lambda() -> None:
    flow, riccati = _stacked_flow()
    balance = {S.W2 * S.W2t: S.W1t * S.W1 + S.lam}
    assert _free_algebra_zero(list(flow - riccati), balance, "").holds
    assert not _free_algebra_zero(list(flow - riccati.subs(S.lam, -S.lam)), balance, "").holds
    assert not _free_algebra_zero(list(flow - riccati), {S.W2 * S.W2t: S.W1t * S.W1 - S.lam}, "").holds


def test_the_solution_needs_the_rates_of_its_factors() -> None:
    solution = S.E * S.Q0 * S.Minv * S.Q0t * S.E
    rhs = S.F * solution + solution * S.F - solution**2
    commute = {S.E * S.F: S.F * S.E}
    good = {S.E: S.F * S.E, S.Minv: -S.Minv * S.Q0t * S.E**2 * S.Q0 * S.Minv}
    assert _free_algebra_zero([time_derivative(solution, good) - rhs], commute, "").holds
    wrong_minv = {**good, S.Minv: S.Minv * S.Q0t * S.E**2 * S.Q0 * S.Minv}
    assert not _free_algebra_zero([time_derivative(solution, wrong_minv) - rhs], commute, "").holds
    slow_e = {**good, S.E: S.F * S.E / 2}
    assert not _free_algebra_zero([time_derivative(solution, slow_e) - rhs], commute, "").holds


def test_time_derivative_keeps_the_order_of_factors() -> None:
    A, B = sp.symbols("A B", commutative=False)
    assert time_derivative(A * B * A, {A: B}) == sp.expand(B * B * A + A * B * B)
    assert time_derivative(A**2, {A: B}) == sp.expand(B * A + A * B)


def test_spectrum_and_integral() -> None:
    assert [sp.simplify(v**2 - S.s**2 - S.lam**2 / 4) for v in mode_eigenvalues()] == [0, 0]
    F_nu = (_generator() * sp.Matrix([S.nu_x, 0])).applyfunc(sp.expand)
    on_kernel = {S.Syx * S.nu_x: 0}
    assert _free_algebra_zero(list(F_nu + sp.Matrix([S.lam * S.nu_x / 2, 0])), on_kernel, "").holds
    assert not _free_algebra_zero(list(F_nu - sp.Matrix([S.lam * S.nu_x / 2, 0])), on_kernel, "").holds
    integral = eigenvalue_integral()
    assert _integral_check(integral).holds
    assert not _integral_check(sp.Piecewise((integral.args[0][0] * 2, sp.Ne(S.mu, 0)), (S.t, True))).holds
