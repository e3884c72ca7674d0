"""``derivations.proof.prove_zero``: each exact method on a true identity, refusals of false ones, and the
labelling of numeric evidence (tooling notes §1, §5)."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations import numeric_evidence, phi1, prove_equal, prove_zero

x, y = sp.symbols("x y", real=True)
u = sp.Symbol("u", positive=True)
S, D, k, t = sp.symbols("S D k t", real=True)

TRUE_IDENTITIES = {
    "polynomial": ((x + y) ** 3 - (x**3 + 3 * x**2 * y + 3 * x * y**2 + y**3), "rational identity"),
    "rational": ((x**2 - 1) / (x - 1) - (x + 1), "rational identity"),
    "exp and its reciprocal": (sp.exp(x) / (1 + sp.exp(x)) - 1 / (1 + sp.exp(-x)), "rational identity"),
    "logistic ODE": (
        # p = S/(1 + c e^{-2St}) solves p' = 2 p (S - p), with c fixed
        sp.diff(S / (1 + y * sp.exp(-2 * S * t)), t)
        - 2 * S / (1 + y * sp.exp(-2 * S * t)) * (S - S / (1 + y * sp.exp(-2 * S * t))),
        "rational identity",
    ),
    "phi1 definition": (t * phi1(k * t) - (1 - sp.exp(-k * t)) / k, "rational identity"),
    "square roots": (
        (sp.sqrt(u) + sp.sqrt(y**2 + 1)) * (sp.sqrt(u) - sp.sqrt(y**2 + 1)) - (u - y**2 - 1),
        "Gröbner normal form",
    ),
    "nested root squared": (sp.sqrt(1 + sp.sqrt(u)) ** 2 - 1 - sp.sqrt(u), "rational identity"),
    "trigonometric": (sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1, "sympy.simplify"),
}


@pytest.mark.parametrize("name", list(TRUE_IDENTITIES))
def test_true_identities_are_proved_with_the_expected_method(name) -> None:
    expr, method = TRUE_IDENTITIES[name]
    proof = prove_zero(expr)
    assert proof.holds and proof.exact
    assert proof.method == method
    assert proof.residual == "0"
    assert bool(proof)


def test_relations_close_identities_in_an_algebraic_extension() -> None:
    """With D^2 = S^2 + 1: (D + S)(D - S) = 1 (Gröbner), but not = 2; and not without the relation."""
    relation = D**2 - (S**2 + 1)
    proof = prove_zero((D + S) * (D - S) - 1, relations=[relation])
    assert proof.holds and proof.exact and proof.method == "Gröbner normal form"
    assert not prove_zero((D + S) * (D - S) - 2, relations=[relation]).holds
    assert not prove_zero((D + S) * (D - S) - 1).holds
    # Riccati roots gamma_± = (S ± D)/P with D^2 = S^2 + P M solve P g^2 - 2 S g - M = 0
    P, M = sp.symbols("P M", positive=True)
    for sign in (1, -1):
        g = (S + sign * D) / P
        assert prove_zero(P * g**2 - 2 * S * g - M, relations=[D**2 - S**2 - P * M]).holds


def test_substitutions_are_applied_first_and_derivatives_done() -> None:
    f = sp.Function("f")
    assert prove_zero(sp.Derivative(f(t), t) - 2 * t, substitutions={f(t): t**2}).holds
    assert not prove_zero(sp.Derivative(f(t), t) - 2 * t, substitutions={f(t): t**3}).holds
    assert prove_equal(sp.exp(2 * x), y**2, substitutions={y: sp.exp(x)}).holds


FALSE_IDENTITIES = {
    "constant": sp.Integer(1),
    "linear": x + 1,
    "exp is not its Taylor polynomial": sp.exp(x) - 1 - x,
    "sqrt(x^2) is |x|, not x": sp.sqrt(x**2) - x,
    "square root is not linear": sp.sqrt(x**2 + 1) - (x + 1),
    "wrong branch of a root": sp.sqrt(u) ** 3 + u * sp.sqrt(u),
    "wrong logistic": sp.diff(S / (1 + y * sp.exp(-2 * S * t)), t)
    - S / (1 + y * sp.exp(-2 * S * t)) * (S - S / (1 + y * sp.exp(-2 * S * t))),
    "independent exponentials": sp.exp(x) * sp.exp(y) - sp.exp(x) - sp.exp(y),
}


@pytest.mark.parametrize("name", list(FALSE_IDENTITIES))
def test_false_identities_are_refused(name) -> None:
    proof = prove_zero(FALSE_IDENTITIES[name])
    assert not proof.holds
    assert not bool(proof)
    assert proof.exact  # no evidence requested: the exact methods simply did not close it
    assert proof.residual != "0"


@settings(max_examples=30)
@given(
    coefficients=st.lists(st.integers(-5, 5), min_size=3, max_size=3),
    perturbation=st.integers(-3, 3).filter(lambda n: n != 0),
)
def test_polynomial_identities_and_perturbations(coefficients, perturbation) -> None:
    """(c0 + c1 x + c2 x^2)^2 expanded by hand is proved; adding perturbation * x^k is refused."""
    c0, c1, c2 = coefficients
    square = (c0 + c1 * x + c2 * x**2) ** 2
    expanded = c0**2 + 2 * c0 * c1 * x + (c1**2 + 2 * c0 * c2) * x**2 + 2 * c1 * c2 * x**3 + c2**2 * x**4
    assert prove_zero(square - expanded).holds
    assert not prove_zero(square - expanded + perturbation * x ** (abs(perturbation) % 3)).holds


def test_numeric_evidence_is_labelled_inexact() -> None:
    # a true identity that none of the exact methods closes: atan(u) + atan(1/u) = pi/2 for u > 0
    expr = sp.atan(u) + sp.atan(1 / u) - sp.pi / 2
    assert not prove_zero(expr).holds  # exact methods alone fail
    proof = prove_zero(expr, evidence={u: (0.1, 10.0)})
    assert proof.holds
    assert proof.exact is False
    assert "numeric" in proof.method
    # false identity with evidence: refused, and still labelled as evidence
    proof = prove_zero(sp.atan(u) - sp.pi / 4, evidence={u: (0.1, 10.0)})
    assert not proof.holds and proof.exact is False
    # direct use
    ok = numeric_evidence(sp.exp(x) ** 2 - sp.exp(2 * x), {x: (-2.0, 2.0)})
    assert ok.holds and ok.exact is False
    bad = numeric_evidence(sp.exp(x) - 1 - x, {x: (0.5, 1.0)})
    assert not bad.holds and bad.exact is False
    with pytest.raises(ValueError, match="sampling interval"):
        numeric_evidence(x + y, {x: (0.0, 1.0)})


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"samples": 0}, ValueError, r"samples must be in \[1, "),
        ({"samples": -3}, ValueError, r"samples must be in"),
        ({"samples": 10**9}, ValueError, r"samples must be in"),
        ({"samples": 2.5}, TypeError, r"samples must be an integer"),
        ({"samples": True}, TypeError, r"samples must be an integer"),
        ({"dps": 5}, ValueError, r"dps must be in \[20, "),
        ({"dps": 10**6}, ValueError, r"dps must be in"),
        ({"dps": "40"}, TypeError, r"dps must be an integer"),
    ],
)
def test_numeric_evidence_refuses_a_vacuous_or_loose_test(options, error, match) -> None:
    """No points (``holds`` vacuously) or a tolerance ``10**-(dps - 10)`` above ``1e-10`` (at ``dps=5``, ``1e5``:
    a residual of order one would pass) are refused before any point is drawn."""
    with pytest.raises(error, match=match):
        numeric_evidence(sp.exp(x) - 1 - x, {x: (0.5, 1.0)}, **options)


def test_numeric_evidence_at_the_least_precision_still_refutes() -> None:
    """At the least admitted precision a false identity is refused, a true one accepted."""
    from derivations.proof import MIN_EVIDENCE_DPS

    bad = numeric_evidence(sp.exp(x) - 1 - x, {x: (0.5, 1.0)}, samples=1, dps=MIN_EVIDENCE_DPS)
    ok = numeric_evidence(sp.exp(x) ** 2 - sp.exp(2 * x), {x: (-2.0, 2.0)}, samples=1, dps=MIN_EVIDENCE_DPS)
    assert not bad.holds and ok.holds


def test_a_large_residual_is_shown_without_factoring() -> None:
    """``sympy.factor`` of a big multivariate residual can take minutes on one draw of its random evaluation
    points: past ``SIMPLIFY_BUDGET`` operations only the common factors are pulled out (a small one is factored)."""
    from derivations.proof import SIMPLIFY_BUDGET, _readable

    x = sp.symbols("x0:8", real=True)
    big = sp.expand(2 * x[0] * (sum(x) + 1) ** 4 * (x[1] - x[2] + 3))
    assert sp.count_ops(big) > SIMPLIFY_BUDGET
    shown = _readable(big)
    assert shown == sp.factor_terms(big) and shown != sp.factor(big)
    small = sp.expand((x[0] - x[1]) * (x[0] + 2))
    assert _readable(small) == sp.factor(small)
