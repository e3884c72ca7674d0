r"""The unaligned λ-balanced solution of Dominé et al. 2025 (Fukumizu 1998's :math:`QQ^\top`; spec
models-nam2025.md §4 and §8, ``Nico31415/LinearNetworkDynamics/qqt_lambda_balanced.py``).

Orientation: the paper's (Nam et al. eq 4), :math:`W_1 \in \mathbb R^{d\times p}`,
:math:`W_2 \in \mathbb R^{p\times c}`,
:math:`f(x) = W_2^\top W_1^\top x`, whitened input :math:`\Sigma_{xx} = I`, λ-balance
:math:`W_2W_2^\top - W_1^\top W_1 = \lambda I_p` (eq 14). The stacked weights are
:math:`Q = [W_1; W_2^\top] \in \mathbb R^{(d+c)\times p}` (the authors' :math:`[W_1^\top; W_2]` in their orientation
:math:`f = W_2W_1x`), so :math:`P = QQ^\top = [[W_1W_1^\top, W_1W_2], [W_2^\top W_1^\top, W_2^\top W_2]]` holds both
representations and, in its lower left block, the network map.

The derivation (:func:`unaligned_solution`), each step computed by SymPy from the previous object and each identity
decided in the free algebra (non-commuting symbols, ``derivations.matrix_flow``), for all sizes d, p, c:

1. the derived matrix flow at :math:`\Sigma_{xx} = I`, stacked, is :math:`\dot Q = FQ - \tfrac12 QQ^\top Q` with
   :math:`F = [[-\tfrac\lambda2 I_d, \Sigma_{xy}], [\Sigma_{yx}, \tfrac\lambda2 I_c]]` (the two blocks computed as
   block products, equal to the flow under the balance);
2. :math:`P = QQ^\top` obeys the matrix Riccati equation :math:`\dot P = FP + PF - P^2`;
3. its solution is :math:`P(t) = E\,Q_0M^{-1}Q_0^\top E` with :math:`E = e^{Ft}` and
   :math:`M = I_p + Q_0^\top K Q_0`, :math:`K = \int_0^t e^{2Fs}\,ds` (product rule with :math:`\dot E = FE = EF`,
   :math:`\dot M = Q_0^\top E^2Q_0`, :math:`\tfrac{d}{dt}M^{-1} = -M^{-1}\dot MM^{-1}`; :math:`P(0) = Q_0Q_0^\top`;
   :math:`K \succ 0` for t > 0, so :math:`M \succeq I_p` is invertible at every t ≥ 0);
4. the spectrum of F: :math:`F^2 = \mathrm{blockdiag}(\tfrac{\lambda^2}4 + \Sigma_{xy}\Sigma_{yx},
   \tfrac{\lambda^2}4 + \Sigma_{yx}\Sigma_{xy})`; on a singular pair :math:`(u, v, s)` of :math:`\Sigma_{xy}` F acts as
   :math:`[[-\lambda/2, s], [s, \lambda/2]]`, eigenvalues :math:`\pm\sqrt{s^2 + \lambda^2/4}` (``eigenvects``);
   on :math:`\ker\Sigma_{yx} \subset \mathbb R^d` as :math:`-\lambda/2` and on :math:`\ker\Sigma_{xy}` as
   :math:`\lambda/2`;
5. in F's eigenbasis :math:`E = O\,\mathrm{diag}(e^{\mu t})O^\top` and :math:`K = O\,\mathrm{diag}(k(\mu))O^\top`,
   :math:`k(\mu) = \int_0^t e^{2\mu s}ds` (``sympy.integrate``: :math:`(e^{2\mu t} - 1)/(2\mu)`, t at μ = 0).

``proofs_check.papers.domine2025.qqt`` evaluates step 5 (float64 or mpmath).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import sympy as sp

from derivations.derivation import Derivation
from derivations.matrix_flow import matrix_gradient_flow, noncommutative, reduce, transpose
from derivations.proof import Proof

__all__ = ["SYMBOLS", "eigenvalue_integral", "mode_eigenvalues", "time_derivative", "unaligned_solution"]


class UnalignedSymbols:
    """Non-commuting symbols of the blocks (``W_1^T`` the transpose of ``W_1``), and the commuting λ, s, μ, t."""

    W1, W1t, W2, W2t = sp.symbols("W_1 W_1^T W_2 W_2^T", commutative=False)
    Sxy, Syx = sp.symbols("Sigma_xy Sigma_yx", commutative=False)
    Q, Qt, P, F = sp.symbols("Q Q^T P F", commutative=False)
    Q0, Q0t, E, Minv = sp.symbols("Q_0 Q_0^T E M^-1", commutative=False)
    nu_x, nu_y = sp.symbols("n_x n_y", commutative=False)
    lam = sp.Symbol("lambda", real=True)
    s = sp.Symbol("s", positive=True)
    mu = sp.Symbol("mu", real=True)
    t = sp.Symbol("t", nonnegative=True)
    tau = sp.Symbol("tau", nonnegative=True)


SYMBOLS = UnalignedSymbols()


def _dot(name: str) -> sp.Symbol:
    return sp.Symbol(rf"\dot {name}", commutative=False)


def time_derivative(expr: sp.Expr, rates: Mapping[sp.Symbol, sp.Expr]) -> sp.Expr:
    """d/dt of a free-algebra expression by the product rule, order kept: each factor in ``rates`` is replaced in turn
    by its rate; factors not in ``rates`` are constant."""
    total = sp.S.Zero
    for term in sp.Add.make_args(sp.expand(expr)):
        scalars, factors = term.args_cnc()
        flat = [base for f in factors for base, power in [f.as_base_exp()] for _ in range(int(power))]
        for i, factor in enumerate(flat):
            if factor in rates:
                total += sp.Mul(*scalars) * sp.Mul(*flat[:i]) * rates[factor] * sp.Mul(*flat[i + 1 :])
    return sp.expand(total)


def _free_algebra_zero(residuals: list[sp.Expr], relations: Mapping[sp.Expr, sp.Expr], what: str) -> Proof:
    reduced = [reduce(r, relations) for r in residuals]
    nonzero = [r for r in reduced if r != 0]
    if nonzero:
        return Proof(False, "free-algebra reduction", True, residual=str(nonzero[0]))
    return Proof(True, f"free-algebra reduction ({what})", True)


def _generator() -> sp.Matrix:
    sym = SYMBOLS
    return sp.Matrix([[-sym.lam / 2, sym.Sxy], [sym.Syx, sym.lam / 2]])


def _stacked_flow() -> tuple[sp.Matrix, sp.Matrix]:
    r"""(:math:`\dot Q` from the derived matrix flow at :math:`\Sigma_{xx} = I`, blockwise;
    :math:`FQ - \tfrac12QQ^\top Q`
    as block products)."""
    sym = SYMBOLS
    flow = matrix_gradient_flow()
    table = {
        flow.W1: sym.W1,
        flow.W2: sym.W2,
        flow.Sxx: sp.S.One,
        flow.Sxy: sym.Sxy,
        sp.Transpose(flow.W1): sym.W1t,
        sp.Transpose(flow.W2): sym.W2t,
        sp.Transpose(flow.Sxy): sym.Syx,
        sp.Transpose(flow.Sxx): sp.S.One,
    }
    W1_dot = noncommutative(flow.field[flow.W1], table)
    W2t_dot = transpose(noncommutative(flow.field[flow.W2], table), table)
    Q = sp.Matrix([sym.W1, sym.W2t])
    Qt = sp.Matrix([[sym.W1t, sym.W2]])
    riccati = _generator() * Q - Q * (Qt * Q) / 2
    return sp.Matrix([W1_dot, W2t_dot]), riccati.applyfunc(sp.expand)


def mode_eigenvalues() -> list[sp.Expr]:
    """Eigenvalues of F on the plane of one singular pair (u, v, s) of Sigma_xy: of [[-lambda/2, s], [s, lambda/2]]."""
    sym = SYMBOLS
    block = sp.Matrix([[-sym.lam / 2, sym.s], [sym.s, sym.lam / 2]])
    return sorted((sp.simplify(value) for value, _, _ in block.eigenvects()), key=str)


def eigenvalue_integral() -> sp.Expr:
    """k(mu) = int_0^t exp(2 mu s) ds (sympy.integrate, a Piecewise with the mu = 0 branch)."""
    sym = SYMBOLS
    return sp.integrate(sp.exp(2 * sym.mu * sym.tau), (sym.tau, 0, sym.t))


@cache
def unaligned_solution() -> Derivation:
    """The recorded derivation of the module docstring (step keys ``Q``, ``Riccati``, ``QQT``, ``spectrum``)."""
    sym = SYMBOLS
    d = Derivation(
        "Dominé et al. 2025: the unaligned lambda-balanced solution P = Q Q^T",
        assumptions=(
            "paper orientation, Q = [W1; W2^T], Sigma_xx = I",
            "W2 W2^T - W1^T W1 = lambda I (eq 14), any sizes d, p, c",
        ),
    )
    balance = {sym.W2 * sym.W2t: sym.W1t * sym.W1 + sym.lam}
    flow, riccati = _stacked_flow()
    d.add(
        sp.Eq(sp.Matrix([_dot("W_1"), _dot("W_2^T")]), riccati, evaluate=False),
        "the blocks of Q' = F Q - Q Q^T Q / 2, equal to the derived flow under the balance",
        key="Q",
        verifier=lambda: _free_algebra_zero(list(flow - riccati), balance, "balance eq 14"),
    )
    Q_dot = sym.F * sym.Q - sym.Q * sym.Qt * sym.Q / 2
    Qt_dot = sym.Qt * sym.F - sym.Qt * sym.Q * sym.Qt / 2
    P = sym.Q * sym.Qt
    rhs = sym.F * sym.P + sym.P * sym.F - sym.P**2
    P_dot = time_derivative(P, {sym.Q: Q_dot, sym.Qt: Qt_dot})
    d.add(
        sp.Eq(_dot("P"), rhs),
        "P = Q Q^T differentiated by the product rule (F symmetric): the matrix Riccati equation",
        key="Riccati",
        verifier=lambda: _free_algebra_zero([P_dot - rhs.xreplace({sym.P: P})], {}, "product rule"),
    )
    solution = sym.E * sym.Q0 * sym.Minv * sym.Q0t * sym.E
    rates = {sym.E: sym.F * sym.E, sym.Minv: -sym.Minv * sym.Q0t * sym.E**2 * sym.Q0 * sym.Minv}
    d.add(
        sp.Eq(sym.P, solution),
        "E = exp(F t), M = I + Q0^T (int_0^t exp(2 F s) ds) Q0: E' = F E = E F, (M^-1)' = -M^-1 Q0^T E^2 Q0 M^-1",
        key="QQT",
        verifier=lambda: _free_algebra_zero(
            [time_derivative(solution, rates) - rhs.xreplace({sym.P: solution})],
            {sym.E * sym.F: sym.F * sym.E},
            "E F = F E",
        ),
    )
    F = _generator()
    square = (F * F).applyfunc(sp.expand)
    expected = sp.Matrix([[sym.lam**2 / 4 + sym.Sxy * sym.Syx, 0], [0, sym.lam**2 / 4 + sym.Syx * sym.Sxy]])
    d.add(
        sp.Eq(sp.Symbol("F^2", commutative=False), expected, evaluate=False),
        "F squared, block by block: the off-diagonal blocks cancel",
        key="spectrum",
        verifier=lambda: _free_algebra_zero(list(square - expected), {}, "block products"),
    )
    values = mode_eigenvalues()
    block = sp.Matrix([[-sym.lam / 2, sym.s], [sym.s, sym.lam / 2]])
    d.add(
        sp.Eq(sp.Symbol("mu_pm"), sp.Tuple(*values)),
        "on a singular pair (u, v, s) of Sigma_xy, F [a u; b v] = [(-lambda a/2 + s b) u; (s a + lambda b/2) v]",
        key="spectrum",
        verifier=lambda: _characteristic(block, values),
    )
    kernel_x = (F * sp.Matrix([sym.nu_x, 0])).applyfunc(sp.expand)
    kernel_y = (F * sp.Matrix([0, sym.nu_y])).applyfunc(sp.expand)
    d.add(
        sp.Eq(sp.Symbol("mu_0"), sp.Tuple(-sym.lam / 2, sym.lam / 2)),
        "on ker Sigma_yx in R^d (n_x) and ker Sigma_xy in R^c (n_y), the |d - c| further eigenvalues",
        key="spectrum",
        verifier=lambda: _free_algebra_zero(
            [
                *(kernel_x - sp.Matrix([-sym.lam * sym.nu_x / 2, 0])),
                *(kernel_y - sp.Matrix([0, sym.lam * sym.nu_y / 2])),
            ],
            {sym.Syx * sym.nu_x: 0, sym.Sxy * sym.nu_y: 0},
            "kernel vectors",
        ),
    )
    integral = eigenvalue_integral()
    d.add(
        sp.Eq(sp.Function("k")(sym.mu), integral),
        "K = int_0^t exp(2 F s) ds in F's eigenbasis, one eigenvalue mu at a time (sympy.integrate)",
        key="QQT",
        verifier=lambda: _integral_check(integral),
    )
    return d


def _characteristic(block: sp.Matrix, values: list[sp.Expr]) -> Proof:
    sym = SYMBOLS
    residuals = [sp.expand((block - v * sp.eye(2)).det()) for v in values]
    distinct = sp.simplify(values[0] - values[1]) != 0
    if (
        all(r == 0 for r in residuals)
        and distinct
        and sp.expand(values[0] * values[1] + sym.s**2 + sym.lam**2 / 4) == 0
    ):
        return Proof(True, "characteristic polynomial (two distinct roots, product -(s^2 + lambda^2/4))", True)
    return Proof(False, "characteristic polynomial", True, residual=str(residuals))


def _integral_check(integral: sp.Expr) -> Proof:
    """k' = exp(2 mu t), k(0) = 0 on both branches of the Piecewise."""
    sym = SYMBOLS
    branches = integral.args if isinstance(integral, sp.Piecewise) else ((integral, sp.true),)
    for expr, condition in branches:
        # the last branch of sympy's Piecewise (condition True) is the case mu = 0 that the others exclude
        at = {sym.mu: 0} if condition is sp.true and len(branches) > 1 else {}
        rate = sp.simplify(sp.diff(expr, sym.t) - sp.exp(2 * sym.mu * sym.t).xreplace(at))
        start = sp.simplify(expr.xreplace({sym.t: 0}))
        if rate != 0 or start != 0:
            return Proof(False, "differentiation", True, residual=str((rate, start)))
    return Proof(True, "differentiation and value at t = 0 of each branch", True)
