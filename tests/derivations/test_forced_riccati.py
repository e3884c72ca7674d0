"""The Bessel method for y' = c2 y^2 + c1 y + c0 + c3 e^{kt} (derivations.forced_riccati): what it matches and
refuses, its derivation proved exactly step by step, its solution against an independent 30-digit integration, and
wrong variants (the sign of c1, the rate k halved) refuted by the checks and by the integration."""

from __future__ import annotations

from dataclasses import replace

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations import solve
from derivations.catalogue import METHODS, ForcedRiccati, Riccati
from derivations.forced_riccati import (
    NU,
    S0,
    BesselSolution,
    bessel_solution,
    forcing_branch,
    match_forcing,
    reduce_orders,
)

t = sp.Symbol("t", nonnegative=True)
y = sp.Symbol("y", real=True)
a, b, mu = sp.symbols("a b mu", positive=True)
c = sp.Symbol("c", real=True)
RHS = -a * y**2 + c * y + b * sp.exp(-4 * mu * t)


@pytest.fixture(scope="module")
def abstract() -> BesselSolution:
    return bessel_solution(RHS, y, sp.S.One, t)


def test_the_method_sits_after_riccati() -> None:
    names = [m.name for m in METHODS]
    assert names.index("riccati-exponential-forcing") == names.index(Riccati.name) + 1
    assert isinstance(METHODS[names.index("riccati-exponential-forcing")], ForcedRiccati)


def test_match_reads_the_coefficients() -> None:
    k = sp.Symbol("k", real=True)
    found = match_forcing(3 * y**2 - 2 * y + 5 + 7 * sp.exp(k * t + 1), y, t)
    assert not isinstance(found, str)
    assert (found.c2, found.c1, found.c0, found.k) == (3, -2, 5, k)
    assert sp.simplify(found.c3 - 7 * sp.E) == 0


@pytest.mark.parametrize(
    ("rhs", "why"),
    [
        (sp.exp(-t) * y + y**2, "multiplies y"),
        (y**2 + sp.exp(t**2), "not linear in t"),
        (y**2 + t * sp.exp(t), "not through an exponential"),
        (y**2 + sp.exp(t) + sp.exp(2 * t), "several exponential rates"),
        (y + sp.exp(t), "linear equation"),
        (y**3 + sp.exp(t), "degree at most 2"),
        (y**2 + y, "no time-dependent forcing"),
    ],
)
def test_other_time_dependences_are_refused_with_a_reason(rhs, why) -> None:
    found = match_forcing(rhs, y, t)
    assert isinstance(found, str) and why in found


def test_the_branch_follows_the_sign_of_c2_c3() -> None:
    modified = match_forcing(-a * y**2 + b * sp.exp(t), y, t)
    ordinary = match_forcing(a * y**2 + b * sp.exp(t), y, t)
    unknown = match_forcing(c * y**2 + b * sp.exp(t), y, t)
    assert forcing_branch(modified, {}) == "modified"
    assert "ordinary Bessel" in forcing_branch(ordinary, {})
    assert "not decided" in forcing_branch(unknown, {})
    with pytest.raises(ValueError, match="ordinary Bessel"):
        bessel_solution(a * y**2 + b * sp.exp(t), y, sp.S.One, t)


def test_every_step_is_proved_exactly(abstract) -> None:
    checks = abstract.derivation.check()
    failing = [(c.step.key, c.proof.residual[:80]) for c in checks if not (c.proof.holds and c.proof.exact)]
    assert not failing
    keys = {c.step.key for c in checks}
    assert {"linearize", "shift", "bessel", "bessel_solutions", "general", "constants", "verified", "stable"} <= keys
    assert abstract.cases == {sp.Eq(b, 0): "unforced"}


def test_the_recurrences_reduce_to_two_orders_per_argument() -> None:
    x = sp.Symbol("x", positive=True)
    expr = sp.besseli(NU - 2, x) + sp.besseli(NU + 3, x) + sp.besselk(NU + 2, x) + sp.besselk(NU - 1, x)
    reduced, _ = reduce_orders(expr)
    orders = {f.args[0] for f in reduced.atoms(sp.besseli, sp.besselk)}
    assert len(orders) == 2


def _value(solution: BesselSolution, at: dict, time: float) -> mpmath.mpf:
    """The derived y(t) at the numbers ``at`` (nu and s0 from the solution's definitions), at 30 digits."""
    values = {s: sp.Float(v, 40) for s, v in at.items()}
    defined = {s: sp.sympify(e).xreplace(values) for s, e in solution.definitions.items()}
    expr = solution.solution.xreplace({**values, **defined, t: sp.Float(time, 40)})
    return mpmath.mpf(str(sp.N(expr, 35)))


def _integrated(at: dict, time: float) -> mpmath.mpf:
    """The equation y' = -a y^2 + c y + b e^{-4 mu t}, y(0) = 1, integrated at 30 digits (mpmath.odefun)."""
    A, B, C, M = (mpmath.mpf(at[s]) for s in (a, b, c, mu))
    f = mpmath.odefun(lambda s, u: -A * u**2 + C * u + B * mpmath.exp(-4 * M * s), 0, mpmath.mpf(1))
    return f(mpmath.mpf(time))


COEFFICIENTS = {
    "A": st.floats(0.1, 2.0),
    "B": st.floats(0.1, 2.0),
    "C": st.floats(-2.0, 2.0),
    "M": st.floats(0.1, 1.0),
    "T": st.floats(0.1, 3.0),
}


# each example is a 30-digit mpmath.odefun integration (about 1.5 s): two in the default suite, more in the slow step
@settings(max_examples=2, deadline=None)
@given(**COEFFICIENTS)
def test_the_derived_solution_agrees_with_integration(abstract, A, B, C, M, T) -> None:
    check_against_integration(abstract, A, B, C, M, T)


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(**COEFFICIENTS)
def test_the_derived_solution_agrees_with_integration_many(abstract, A, B, C, M, T) -> None:
    check_against_integration(abstract, A, B, C, M, T)


def check_against_integration(abstract: BesselSolution, A: float, B: float, C: float, M: float, T: float) -> None:
    at = {a: A, b: B, c: C, mu: M}
    with mpmath.workdps(30):
        assert abs(_value(abstract, at, T) - _integrated(at, T)) < mpmath.mpf(10) ** -25


def test_wrong_variants_are_refuted(abstract) -> None:
    """The sign of c1 flipped, or the rate k halved in the argument s(t): the solution no longer satisfies the
    equation (the exact check fails) and disagrees with the integration."""
    at = {a: 0.7, b: 0.9, c: 0.4, mu: 0.3}
    with mpmath.workdps(30):
        reference = _integrated(at, 1.2)
        assert abs(_value(abstract, at, 1.2) - reference) < mpmath.mpf(10) ** -25
        flipped = abstract.solution.xreplace({c: -c})
        halved = abstract.solution.xreplace({mu: mu / 2})
        for wrong in (flipped, halved):
            variant = BesselSolution(**{**abstract.__dict__, "solution": wrong})
            assert abs(_value(variant, at, 1.2) - reference) > mpmath.mpf(10) ** -6
    # exactly: the change of variables checked with the argument's rate halved (k^2 s0^2 / 4 = -4 c2 c3) fails
    (step,) = abstract.derivation.by_key("bessel")
    order, start = step.relations
    k, c2c3 = sp.Symbol("k", real=True), sp.Symbol("c2", real=True) * sp.Symbol("c3", real=True)
    assert sp.expand(start - (k**2 * S0**2 + 4 * c2c3)) == 0
    assert step.check().holds
    assert not replace(step, relations=(order, k**2 * S0**2 / 4 + 4 * c2c3)).check().holds


def test_weight_decay_is_solved_from_every_start() -> None:
    decay = solve("two_layer_scalar_decay")
    (clock,) = decay.clocks.values()
    assert isinstance(clock, BesselSolution)
    assert decay.condition == () and decay.general is None
    Z = sp.Symbol("Z", positive=True)
    S = sp.Symbol("S", real=True)
    decay_mu = sp.Symbol("mu", positive=True)
    assert sp.simplify(clock.k + 4 * decay_mu) == 0
    assert sp.simplify(clock.c1 - 2 * (S - Z * decay_mu) / Z) == 0
    assert clock.c0 == 0
    assert all(c.proof.holds and c.proof.exact for c in decay.derivation.check())
