"""Exponent algebra of the Xu & Ziyin 2025 phase diagram (``proofs_check.papers.xu_ziyin2025.scaling``) against spec
§4.1, §4.2, §4.5, §8.

Expected values are the spec's formulas, typed here (exact rationals via ``fractions.Fraction``).
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from derivations.derivation import Derivation
from derivations.proof import prove_zero
from proofs_check.papers.xu_ziyin2025 import scaling

NAMES = ("c_d", "c_u", "c_w", "c_gamma", "c_eta_u", "c_eta_w")


def spec_e_B(c_d, c_u, c_w, c_gamma, c_eta_u, c_eta_w):
    """Spec §4.1, typed in."""
    return -c_gamma - c_d - (c_u + c_w) / 2 - abs(c_eta_w - c_eta_u + c_u - c_w) / 2


def spec_boundary_gap(c_d, c_u, c_w, c_gamma, c_eta_u, c_eta_w):
    """Spec §4.2 boundary, right side minus left side."""
    return (c_eta_u + c_eta_w) / 2 - (c_gamma + c_d + max(c_eta_w + c_u, c_eta_u + c_w))


def random_exponents(rng: random.Random) -> dict[str, Fraction]:
    return {name: Fraction(rng.randint(-12, 12), rng.choice((1, 2, 3, 4))) for name in NAMES}


def test_derivation_is_recorded_and_every_step_is_exact():
    der = scaling.DERIVATION
    assert isinstance(der, Derivation)
    tags = [s.tag for s in der.steps]
    for tag in ("4.1.lln", "4.1.exponent", "4.1", "4.2.boundary", "4.5.abc", "8.abc", "4.1.balanced"):
        assert tag in tags
    checks = der.check()
    assert len(checks) == len(der.steps)
    assert all(c.proof.holds and c.proof.exact for c in checks), [(c.step.tag, c.proof) for c in checks]
    assert "law of large numbers" in " ".join(der.assumptions)
    assert r"\tag{4.1}" in der.latex()


def test_exponent_is_built_with_max_and_equals_the_spec_form_exactly():
    c_d, c_u, c_w, c_g, c_eu, c_ew = sp.symbols("c_d c_u c_w c_gamma c_eta_u c_eta_w", real=True)
    assert scaling.E_B_MAX.has(sp.Max) and not scaling.E_B_MAX.has(sp.Abs)
    printed = -c_g - c_d - (c_u + c_w) / 2 - sp.Abs(c_ew - c_eu + c_u - c_w) / 2
    assert prove_zero(scaling.E_B - printed).holds
    assert scaling.e_B() == scaling.E_B


def test_e_B_matches_the_spec_at_random_rational_exponents():
    rng = random.Random(7)
    for _ in range(300):
        c = random_exponents(rng)
        assert scaling.e_B(**c) == sp.Rational(spec_e_B(**c))
        assert scaling.E_B_MAX.xreplace({scaling.SYMBOLS[k]: sp.Rational(v) for k, v in c.items()}) == spec_e_B(**c)


@pytest.mark.parametrize(
    ("exponents", "expected"),
    [  # spec §4.3 at κ = d, η_u = η_w = 1
        ((1, 0, 0, Fraction(-1, 2), 0, 0), Fraction(-1, 2)),  # NTK
        ((1, 0, 0, -1, 0, 0), 0),  # mean-field / µP
        ((1, -1, -1, 0, 0, 0), 0),  # Xavier
        ((1, -1, 0, 0, 0, 0), -1),  # Kaiming fan-in
        ((1, -2, -2, 0, 0, 0), 1),  # small init
    ],
)
def test_e_B_of_the_standard_parametrizations(exponents, expected):
    c = dict(zip(NAMES, exponents, strict=True))
    assert scaling.e_B(**c) == sp.Rational(expected)
    assert scaling.e_B_value(**c) == float(expected)


def test_B_scales_as_kappa_to_the_e_B_numerically():
    """log B / log κ from the LLN form of B itself, at random Θ(1) prefactors, including both max branches."""
    rng = np.random.default_rng(3)
    quantities = [scaling.d, scaling.var_u, scaling.var_w, scaling.gamma, scaling.eta_u, scaling.eta_w]
    f = sp.lambdify([*quantities, scaling.a, scaling.b], scaling.B_LLN, "numpy")
    for c in itertools.product((0, 1), (-1, 0, 1), (-2, 0), (-1, 0), (0, 1), (-1, 0, 2)):
        prefactors = rng.uniform(0.5, 2.0, size=6)
        a, b = rng.uniform(0.5, 2.0, size=2)

        def B(kappa, c=c, prefactors=prefactors, a=a, b=b):
            return f(*(p * kappa**e for p, e in zip(prefactors, c, strict=True)), a, b)

        slope = (math.log(B(1e12)) - math.log(B(1e9))) / math.log(1e3)
        assert slope == pytest.approx(spec_e_B(*c), abs=1e-6), c


def test_phase_boundary_in_the_spec_form():
    c_d, c_u, c_w, c_g, c_eu, c_ew = sp.symbols("c_d c_u c_w c_gamma c_eta_u c_eta_w", real=True)
    lhs, rhs = c_g + c_d + sp.Max(c_ew + c_u, c_eu + c_w), (c_eu + c_ew) / 2
    assert prove_zero(scaling.PHASE_BOUNDARY.lhs - lhs).holds
    assert prove_zero(scaling.PHASE_BOUNDARY.rhs - rhs).holds
    rng = random.Random(11)
    for _ in range(300):
        c = random_exponents(rng)
        # e_B = rhs - lhs: zero exactly on the boundary, and the same sign off it
        assert scaling.e_B(**c) == sp.Rational(spec_boundary_gap(**c))
    on_boundary = {"c_d": 1, "c_u": 0, "c_w": 0, "c_gamma": -1, "c_eta_u": 0, "c_eta_w": 0}
    assert scaling.e_B(**on_boundary) == 0 and spec_boundary_gap(**on_boundary) == 0


def test_abc_symmetry_at_the_exponent_level():
    theta = scaling.vartheta
    c = {name: scaling.SYMBOLS[name] for name in NAMES}
    # u -> C u with C = κ^θ scales Var u by κ^{2θ}: the variance exponents shift by 2θ
    variance_map = {
        c["c_u"]: c["c_u"] + 2 * theta,
        c["c_w"]: c["c_w"] + 2 * theta,
        c["c_gamma"]: c["c_gamma"] - 2 * theta,
    }
    variance_map |= {c["c_eta_u"]: c["c_eta_u"] + 2 * theta, c["c_eta_w"]: c["c_eta_w"] + 2 * theta}
    assert variance_map == scaling.ABC_MAP
    assert prove_zero(scaling.E_B.xreplace(variance_map) - scaling.E_B).holds
    # spec §8's map (c_u, c_w -> +θ) applied to variance exponents shifts e_B by θ ...
    literal = {**variance_map, c["c_u"]: c["c_u"] + theta, c["c_w"]: c["c_w"] + theta}
    assert prove_zero(scaling.E_B.xreplace(literal) - scaling.E_B - theta).holds
    # ... and leaves it invariant when c_u, c_w are the exponents of the standard deviations
    s_u, s_w = sp.symbols("s_u s_w", real=True)
    in_std = scaling.E_B.xreplace({c["c_u"]: 2 * s_u, c["c_w"]: 2 * s_w})
    std_map = {s_u: s_u + theta, s_w: s_w + theta, c["c_gamma"]: c["c_gamma"] - 2 * theta}
    std_map |= {c["c_eta_u"]: c["c_eta_u"] + 2 * theta, c["c_eta_w"]: c["c_eta_w"] + 2 * theta}
    assert prove_zero(in_std.xreplace(std_map) - in_std).holds


def test_B_is_largest_at_balanced_learning_rates_by_sampling():
    """Spec §4.1: over η_u/η_w at fixed variances, B (LLN form) peaks at η_u σ_w² = η_w σ_u²."""
    rng = np.random.default_rng(5)
    symbols = [
        scaling.d,
        scaling.var_u,
        scaling.var_w,
        scaling.gamma,
        scaling.eta_u,
        scaling.eta_w,
        scaling.a,
        scaling.b,
    ]
    f = sp.lambdify(symbols, scaling.B_LLN, "numpy")
    for _ in range(50):
        d, vu, vw, g, a, b = rng.uniform(0.1, 10, size=6)
        ratios = np.exp(np.linspace(-6, 6, 2001))
        values = f(d, vu, vw, g, ratios, 1.0, a, b)
        best = ratios[np.argmax(values)]
        assert best == pytest.approx(vu / vw, rel=0.01)  # η_u/η_w = σ_u²/σ_w²
        assert np.max(values) == pytest.approx(b / (g * a * d * math.sqrt(vu * vw)), rel=1e-4)
        assert f(d, vu, vw, g, 3.0 * vu, 3.0 * vw, a, b) == pytest.approx(f(d, vu, vw, g, vu, vw, a, b))


def test_kappa_exponent_rules_and_errors():
    x, y = sp.symbols("x y", positive=True)
    cx, cy = sp.symbols("c_x c_y", real=True)
    exps = {x: cx, y: cy}
    assert scaling.kappa_exponent(3 * x**2 * y, exps) == 2 * cx + cy
    assert scaling.kappa_exponent(sp.sqrt(x) / y, exps) == cx / 2 - cy
    assert scaling.kappa_exponent(x + 2 * y, exps) == sp.Max(cx, cy)
    with pytest.raises(ValueError, match="no exponent"):
        scaling.kappa_exponent(sp.Symbol("z", positive=True), exps)
    with pytest.raises(ValueError, match="not positive"):
        scaling.kappa_exponent(-x, exps)
    with pytest.raises(ValueError, match="cannot"):
        scaling.kappa_exponent(sp.exp(x), exps)


def test_e_B_value_validation():
    full = dict.fromkeys(NAMES, 0.0)
    assert scaling.e_B_value(**full) == 0.0
    with pytest.raises(ValueError, match="c_eta_w"):
        scaling.e_B_value(**{k: v for k, v in full.items() if k != "c_eta_w"})
    with pytest.raises(ValueError, match="c_gamma"):
        scaling.e_B_value(**{**full, "c_gamma": float("nan")})
    with pytest.raises(TypeError, match="c_u"):  # a string is refused, never parsed
        scaling.e_B_value(**{**full, "c_u": "big"})
    with pytest.raises(ValueError, match="c_x"):
        scaling.e_B(c_x=1)
