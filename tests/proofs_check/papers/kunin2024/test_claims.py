"""The claims of ``kunin2024`` (single neuron, tied layer): each gets its expected status, and a wrong variant of each
(a flipped sign, a changed constant) is refuted by the same checker."""

from __future__ import annotations

import dataclasses

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import numerics
from derivations import models
from derivations.derivation import Derivation
from derivations.models.single_neuron import single_neuron
from proofs_check.checkers import derivation_verified
from proofs_check.outcome import Status
from proofs_check.paper import Experiment, Paper
from proofs_check.papers.kunin2024 import checks
from proofs_check.papers.kunin2024.claims import (
    PAPER,
    RATES,
    a,
    beta,
    delta,
    delta_c,
    eta_a,
    eta_w,
    nu,
    nu_0,
    nu_dot,
    s,
    t,
    w,
    z,
    z_dot,
)

EXPECTED = {
    "delta.conserved": Status.PROVED,
    "delta.package": Status.PROVED,
    "ratio.riccati": Status.PROVED,
    "nu.riccati": Status.PROVED,
    "nu.solution": Status.PROVED,
    "basins.invariant": Status.PROVED,
    "basins.sides": Status.NUMERIC,
    "closed_form.derivation": Status.PROVED,
    "closed_form.numeric": Status.NUMERIC,
    "limit": Status.NUMERIC,
    "tied.conserved": Status.PROVED,
    "tied.derivation": Status.PROVED,
    "tied.numeric": Status.NUMERIC,
}


def test_the_claims_are_declared() -> None:
    assert [c.id for c in PAPER.claims()] == [f"kunin2024.{k}" for k in EXPECTED]


@pytest.mark.parametrize("claim", list(EXPECTED))
def test_status(claim: str) -> None:
    outcome = PAPER[claim].check()
    assert outcome.status is EXPECTED[claim], outcome.detail


def _refuted(claim: str, statement: object) -> None:
    outcome = PAPER.variant(claim, statement).check()
    assert outcome.status is Status.REFUTED, outcome.detail


# ---------------------------------------------------------------- delta
@pytest.mark.parametrize("sign, factor", [(1, 1), (-1, 2)])  # eta_w a^2 + eta_a |w|^2; eta_w a^2 - 2 eta_a |w|^2
def test_a_wrong_delta_is_not_conserved(sign: int, factor: int) -> None:
    wrong = eta_w * a**2 + sign * factor * eta_a * sum(wk**2 for wk in w)
    _refuted("delta.conserved", sp.Eq(checks.rate(RATES, wrong), 0))


def test_the_wrong_normalization_is_refuted() -> None:
    # delta = eta_w a^2 - eta_a |w|^2 is eta_a eta_w delta_package, not eta_a / eta_w times it
    from proofs_check.papers.kunin2024.claims import delta_package

    paper_delta = eta_w * a**2 - eta_a * sum(wk**2 for wk in w)
    _refuted("delta.package", sp.Eq(paper_delta, eta_a / eta_w * delta_package, evaluate=False))


# ---------------------------------------------------------------- z = w / a
beta_z = sum(bk * zk for bk, zk in zip(beta, z, strict=True))


@pytest.mark.parametrize(
    "rhs",
    [
        lambda bk, zk: eta_w * bk + delta * zk - eta_a * beta_z * zk,  # flipped sign of delta
        lambda bk, zk: 2 * eta_w * bk - delta * zk - eta_a * beta_z * zk,  # changed constant
        lambda bk, zk: eta_a * bk - delta * zk - eta_w * beta_z * zk,  # the rates swapped
    ],
)
def test_a_wrong_riccati_is_refuted(rhs) -> None:
    _refuted("ratio.riccati", sp.Eq(sp.Matrix(z_dot), sp.Matrix([rhs(bk, zk) for bk, zk in zip(beta, z, strict=True)])))


# ---------------------------------------------------------------- nu = beta^T w / a and the authors' nu(t)
def test_a_wrong_nu_riccati_is_refuted() -> None:
    from proofs_check.papers.kunin2024.claims import b1_, b2_, delta_1

    _refuted("nu.riccati", sp.Eq(nu_dot, b1_**2 + b2_**2 + delta_1 * nu - nu**2))


@pytest.mark.parametrize("half", [sp.S.One, sp.Rational(1, 4)])
def test_a_wrong_nu_solution_is_refuted(half: sp.Expr) -> None:
    wrong = checks.nu_authors(t, delta_c, s, nu_0, half=half)
    statement = sp.Eq(
        sp.Matrix([sp.Derivative(wrong, t), wrong.subs(t, 0)]),
        sp.Matrix([s**2 - delta_c * wrong - wrong**2, nu_0]),
        evaluate=False,
    )
    _refuted("nu.solution", statement)


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(
    st.floats(0.3, 1.5),
    st.floats(-1.5, 1.5),
    st.floats(-1.5, 1.5),
    st.floats(0.2, 1.5),
    st.floats(-1.0, 1.0),
)
def test_nu_authors_is_the_30_digit_flow(a0: float, w10: float, w20: float, b1: float, b2: float) -> None:
    """The authors' nu(t) against beta^T w / a of 30-digit integration of the derived flow (a_0 > 0, as theirs)."""
    params = {"beta_1": b1, "beta_2": b2}
    init = {"a": np.array([a0]), "w_1": np.array([w10]), "w_2": np.array([w20])}
    times = [0.3, 1.0]
    flow = numerics.trajectory(models.get("single_neuron"), times, params, init, method="mpmath", dps=30)
    with mpmath.workdps(30):
        mp = {k: mpmath.mpf(v) for k, v in {"a": a0, "w_1": w10, "w_2": w20, "b1": b1, "b2": b2}.items()}
        values = {
            delta_c: mp["a"] ** 2 - mp["w_1"] ** 2 - mp["w_2"] ** 2,
            s: mpmath.sqrt(mp["b1"] ** 2 + mp["b2"] ** 2),
            nu_0: (mp["b1"] * mp["w_1"] + mp["b2"] * mp["w_2"]) / mp["a"],
        }
        for k, time in enumerate(times):
            exact = checks.nu_authors(sp.Float(time, 30), *(sp.Float(values[x], 30) for x in (delta_c, s, nu_0)))
            expected = complex(sp.N(exact, 30))  # artanh of an argument beyond 1 is complex, its tanh real
            state = {n: flow[n][k][0] for n in ("a", "w_1", "w_2")}
            reference = (mp["b1"] * state["w_1"] + mp["b2"] * state["w_2"]) / state["a"]
            assert abs(expected.imag) < 1e-20
            assert abs(expected.real - float(reference)) < 1e-12 * (1 + abs(float(reference)))


# ---------------------------------------------------------------- the basins of attraction
@pytest.mark.parametrize(
    "wrong",
    [
        lambda nu, lo, hi: -(nu - hi) * (nu - lo) / 2,  # a changed constant
        lambda nu, lo, hi: (nu - hi) * (nu - lo),  # a flipped sign
        lambda nu, lo, hi: -(nu - hi) * (nu - lo) + lo,  # a rate that does not vanish on the surface
    ],
)
def test_a_wrong_gap_rate_is_refuted(wrong) -> None:
    from proofs_check.papers.kunin2024.claims import nu_minus, nu_plus

    statement = PAPER["basins.invariant"].statement
    assert isinstance(statement, sp.Equality)
    _refuted("basins.invariant", sp.Eq(statement.lhs, wrong(nu, nu_minus, nu_plus)))


@pytest.mark.parametrize(
    "surface",
    [
        lambda d, n: (-d - np.sqrt(d * d + 4 * n)) / 4,
        lambda d, n: 1.5 * (-d - np.sqrt(d * d + 4 * n)) / 2,
        lambda d, n: (-d - np.sqrt(d * d + n)) / 2,
    ],
)
def test_a_wrong_surface_does_not_separate(surface) -> None:
    separates, detail = checks.basin_sides(surface)
    assert not separates, detail


def test_basin_sides_refuses_bad_input() -> None:
    from proofs_check.papers.kunin2024.claims import nu_surface

    with pytest.raises(TypeError, match="surface"):
        checks.basin_sides(0.5)  # type: ignore[arg-type]  # the wrong type is the point of the test
    with pytest.raises(ValueError, match="offset"):
        checks.basin_sides(nu_surface, offset=0.0)
    with pytest.raises(ValueError, match="no point"):
        checks.basin_sides(lambda d, n: (-d + np.sqrt(d * d + 4 * n)) / 2)


# ---------------------------------------------------------------- the closed forms
def _tampered(derivation: Derivation, key: str, shift: sp.Expr) -> Derivation:
    """A copy whose first step recorded under ``key`` has its residual shifted (a changed constant)."""
    steps = list(derivation.steps)
    index = next(i for i, step in enumerate(steps) if step.key == key)
    steps[index] = dataclasses.replace(steps[index], residual=steps[index].residual + shift)
    return Derivation(
        derivation.title, derivation.assumptions, derivation.relations, dict(derivation.definitions), steps
    )


def test_a_wrong_step_of_the_neuron_derivation_is_refuted() -> None:
    derivation = models.get("single_neuron").closed_form.derivation
    assert derivation_verified(derivation).status is Status.PROVED
    # the Riccati of z_w_1 with the constant beta_1 doubled
    wrong = _tampered(derivation, "ratio_riccati", -models.get("single_neuron").symbol("beta_1"))
    assert derivation_verified(wrong).status is Status.REFUTED


def test_a_wrong_step_of_the_tied_derivation_is_refuted() -> None:
    tied = models.get("tied_layer")
    wrong = _tampered(tied.closed_form.derivation, "conserved", tied.symbol("b") ** 2)
    assert derivation_verified(wrong).status is Status.REFUTED


def test_derivation_verified_refuses_a_non_derivation() -> None:
    with pytest.raises(TypeError, match="derivation"):
        derivation_verified("steps")  # type: ignore[arg-type]  # the wrong type is the point of the test


def _perturbed_closed_form(monkeypatch: pytest.MonkeyPatch, name: str, factor: float) -> None:
    """Make the closed form (only) see the parameter ``name`` times ``factor``: a changed constant."""
    original = numerics.trajectory

    def trajectory(model, times, params, init, method="closed_form", **kwargs):
        if method == "closed_form":
            params = {**params, name: np.asarray(params[name]) * factor}
        return original(model, times, params, init, method=method, **kwargs)

    monkeypatch.setattr(numerics, "trajectory", trajectory)


def _experiment(claim: str) -> Experiment:
    declared = PAPER[claim]
    assert isinstance(declared, Experiment)
    return declared


def _variant_experiment(claim: str, measure) -> Status:
    """The outcome of ``measure`` judged as the experiment ``claim`` is (same quantity and tolerance)."""
    original = _experiment(claim)
    paper = Paper("kunin2024_variant", "variant", ("A. Test",), "test", 2024)
    quantity = paper.symbol(original.quantity.name, nonnegative=True)
    variant = paper.experiment(claim, measure, quantity=quantity, tolerance=original.tolerance, where="test")
    return variant.check().status


@pytest.mark.parametrize(("claim", "parameter"), [("closed_form.numeric", "beta_1"), ("tied.numeric", "S")])
def test_a_wrong_closed_form_is_refuted(monkeypatch: pytest.MonkeyPatch, claim: str, parameter: str) -> None:
    _perturbed_closed_form(monkeypatch, parameter, 1.001)
    assert _variant_experiment(claim, _experiment(claim).measure) is Status.REFUTED


def test_the_wrong_limit_is_refuted() -> None:
    assert _variant_experiment("limit", lambda: checks.limit_error(sign=-1)) is Status.REFUTED
    # and the limit is not yet reached early on: the experiment measures the approach, not a constant
    assert _variant_experiment("limit", lambda: checks.limit_error(t=3.0)) is Status.REFUTED


def test_the_first_start_crosses_zero() -> None:
    """In 30-digit integration of the derived flow (independent of the closed form), a changes sign."""
    params, init = checks.closed_form_cases(2, False)[0]
    flow = numerics.trajectory(single_neuron(2), [0.0, 0.8], params, init, method="mpmath", dps=30)
    assert flow["a"][0][0] < 0 < flow["a"][1][0]
