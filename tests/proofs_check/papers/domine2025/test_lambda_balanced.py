"""The λ-balanced mode solution (spec models-nam2025.md §4) against the spec's explicit formulas, typed here
in mpmath, and its limits."""

from __future__ import annotations

import itertools

import mpmath
import pytest
import sympy as sp

from derivations import models
from proofs_check.papers.domine2025.lambda_balanced import (
    SYMBOLS,
    lambda_limits,
    mode_rho,
    theorem2,
    transition_function,
)

MODEL = models.get("lambda_balanced")


def spec_rho(S: mpmath.mpf, rho0: mpmath.mpf, lam: mpmath.mpf, t: mpmath.mpf) -> mpmath.mpf:
    """Spec §4: w(t) = (w+ - w- C e^{-Kt})/(1 - C e^{-Kt}), C = (w0 - w+)/(w0 - w-), rho = (l/4)(w - 1/w)."""
    ell = abs(lam)
    K, K0 = mpmath.sqrt(lam**2 + 4 * S**2), mpmath.sqrt(lam**2 + 4 * rho0**2)
    wp, wm, w0 = (2 * S + K) / ell, (2 * S - K) / ell, (2 * rho0 + K0) / ell
    C = (w0 - wp) / (w0 - wm)
    E = mpmath.exp(-K * t)
    w = (wp - wm * C * E) / (1 - C * E)
    return ell / 4 * (w - 1 / w)


CASES = [(1.5, 0.2, 0.8, 0.7), (0.4, 1.3, -2.0, 1.9), (2.0, -0.5, 0.05, 0.3), (-1.0, 0.6, 3.0, 2.5)]


def test_every_derivation_step_checks() -> None:
    derivation = theorem2()
    assert all(c.proof.holds and c.proof.exact for c in derivation.check())
    assert {"14", "F.1", "F.1 (w)", "Thm 2"} <= {s.tag for s in derivation.steps}


@pytest.mark.parametrize(("S", "rho0", "lam", "t"), CASES)
def test_mode_rho_is_the_spec_solution(S, rho0, lam, t) -> None:
    with mpmath.workdps(40):
        expr = mode_rho(*(sp.Float(mpmath.mpf(v), 40) for v in (S, rho0, abs(lam), t)))
        assert abs(sp.N(expr, 40) - sp.Float(spec_rho(*(mpmath.mpf(v) for v in (S, rho0, lam, t))), 40)) < 1e-30


@pytest.mark.parametrize(("S", "rho0", "lam", "t"), CASES)
def test_closed_form_states_give_the_spec_rho(S, rho0, lam, t) -> None:
    """The model's a(t) b(t) from its clock form, with a0, b0 the λ-balanced singular values of rho0."""
    cf = MODEL.closed_form
    with mpmath.workdps(40):
        K0 = mpmath.sqrt(mpmath.mpf(lam) ** 2 + 4 * mpmath.mpf(rho0) ** 2)
        a0, b0 = mpmath.sqrt((K0 - lam) / 2), mpmath.sqrt((K0 + lam) / 2)
        if rho0 < 0:
            a0 = -a0
        explicit = cf.explicit()
        values = {cf.init["a"]: a0, cf.init["b"]: b0, MODEL.symbol("S"): S, cf.t: t}
        product = (explicit["a"] * explicit["b"]).xreplace({k: sp.Float(mpmath.mpf(v), 40) for k, v in values.items()})
        expected = spec_rho(*(mpmath.mpf(v) for v in (S, rho0, lam, t)))
        assert abs(sp.N(product, 40) - sp.Float(expected, 40)) < 1e-30


def test_limits_are_proved_and_numerically_close() -> None:
    proofs = lambda_limits()
    assert proofs["zero"].holds and proofs["zero"].exact
    assert proofs["infinity"].holds and proofs["infinity"].exact
    with mpmath.workdps(40):
        S, rho0, t = mpmath.mpf(1.2), mpmath.mpf(0.1), mpmath.mpf(1.5)
        sigmoid = S * mpmath.exp(2 * S * t) / (mpmath.exp(2 * S * t) - 1 + S / rho0)
        assert abs(spec_rho(S, rho0, mpmath.mpf("1e-12"), t) - sigmoid) < 1e-10
        ell, tau = mpmath.mpf(10) ** 8, mpmath.mpf(0.7)
        lazy = S + (rho0 - S) * mpmath.exp(-tau)
        assert abs(spec_rho(S, rho0, ell, tau / ell) - lazy) < 1e-6


def test_transition_function_rises_from_zero_to_one() -> None:
    S, rho0, ell = sp.Rational(3, 2), sp.Rational(1, 5), sp.Rational(4, 5)
    values = [sp.N(transition_function(S, rho0, ell, sp.Rational(k, 4)), 30) for k in range(0, 41)]
    assert abs(values[0]) < 1e-25
    assert all(b > a for a, b in itertools.pairwise(values))
    assert 0.999 < values[-1] < 1


def test_clock_covers_the_zero_balanced_and_saddle_starts() -> None:
    """λ = 0 with a0 = -b0 (u0 = 0): c2 = 0, the linear branch of the clock; the state decays (saddle)."""
    cf = MODEL.closed_form
    (clock,) = cf.riccati.values()
    c2 = clock.c2.xreplace({cf.init["a"]: sp.Rational(1, 2), cf.init["b"]: -sp.Rational(1, 2)})
    assert c2 == 0
    assert SYMBOLS.ell.is_positive
