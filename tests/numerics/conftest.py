"""Independent references for the numerics tests: the spec's closed forms typed in by hand, and the
high-precision integration of the derived flow (``reference_flow``).

Apart from ``reference_flow``, nothing here calls ``derivations`` or ``numerics``: these are the formulas of
``/work/shared/spec/models-nam2025.md`` (eqs 9, 10, 72–76 and §2 "general a ≠ b"), written out in NumPy
(float64) and in mpmath (any precision), so that they can serve as expected values.
The helpers are exposed through the session-scoped ``spec`` fixture (test modules cannot import each
other under ``--import-mode=importlib``).
"""

from __future__ import annotations

from types import SimpleNamespace

import mpmath
import numpy as np
import pytest

from numerics import taylor, trajectory

# --- float64 ----------------------------------------------------------------------------------------------


def linear_theta(theta0: np.ndarray, S: np.ndarray, lam: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Eq 10: theta_i(t) = S_i + (theta_i(0) - S_i) exp(-lam_i t); shape (T, p)."""
    t = np.asarray(t, dtype=float)[:, None]
    return S + (theta0 - S) * np.exp(-lam * t)


def sigmoid_product(ab0: np.ndarray, S: np.ndarray, lam: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Eq 9: a_i b_i (t) = S_i / (1 + (S_i / (a_i(0) b_i(0)) - 1) exp(-2 S_i lam_i t)); shape (T, p)."""
    t = np.asarray(t, dtype=float)[:, None]
    return S / (1 + (S / ab0 - 1) * np.exp(-2 * S * lam * t))


def riccati_gamma(P0: float, M0: float, S: float, Z: float, t: np.ndarray) -> np.ndarray:
    """Eqs 74–76: gamma = [gamma_+(1-gamma_-) - gamma_-(1-gamma_+) E] / [(1-gamma_-) - (1-gamma_+) E], E = e^{-2D0 t/Z}.

    Written with P0 = Sigma0 + S0 and M0 = Sigma0 - S0 (eq 75), so D0 = sqrt(S^2 + P0 M0), and
    gamma_± = (S ± D0)/P0 (eq 76) with the cancelling one of the two taken from gamma_+ gamma_- = -M0/P0
    (eq 76) -- the textbook way of computing the roots of a quadratic in floating point. D0 = 0 (S = 0 and
    M0 = 0, a double root of eq 87) is done by hand: gamma' = -P0 gamma^2 / Z, so gamma = 1/(1 + P0 t/Z).
    """
    t = np.asarray(t, dtype=float)
    D0 = np.sqrt(S**2 + P0 * M0)
    if D0 == 0:
        return 1 / (1 + P0 * t / Z)
    if S >= 0:
        gp = (S + D0) / P0
        gm = -M0 / (S + D0)
    else:
        gm = (S - D0) / P0
        gp = M0 / (D0 - S)
    E = np.exp(-2 * D0 * t / Z)
    return (gp * (1 - gm) - gm * (1 - gp) * E) / ((1 - gm) - (1 - gp) * E)


def scalar_state(a0: np.ndarray, b0: np.ndarray, S: float, Z: float, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Theorem 3 (eqs 72–76) for the width-p scalar network; a, b of shape (T, p)."""
    P0 = np.sum((a0 + b0) ** 2) / (2 * Z)  # Sigma0 + S0 (eq 75), as a sum of squares
    M0 = np.sum((a0 - b0) ** 2) / (2 * Z)  # Sigma0 - S0
    g = riccati_gamma(P0, M0, S, Z, t)[:, None]
    u, v = (a0 + b0) / 2, (a0 - b0) / 2
    return u * np.sqrt(g) + v / np.sqrt(g), u * np.sqrt(g) - v / np.sqrt(g)


def diagonal_state(
    a0: np.ndarray, b0: np.ndarray, S: np.ndarray, lam: np.ndarray, t: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Spec §2, general a ≠ b: each mode is Theorem 3 with p = 1, Z = 1, S = S_i and time lam_i t."""
    a, b = np.empty((len(t), len(a0))), np.empty((len(t), len(a0)))
    for i in range(len(a0)):
        ai, bi = scalar_state(a0[i : i + 1], b0[i : i + 1], S[i], 1.0, lam[i] * np.asarray(t, dtype=float))
        a[:, i], b[:, i] = ai[:, 0], bi[:, 0]
    return a, b


# --- mpmath -----------------------------------------------------------------------------------------------


def _mp(values: object) -> list[mpmath.mpf]:
    return [mpmath.mpf(float(x)) for x in np.ravel(values)]


def _gamma_mp(Sigma0: mpmath.mpf, S0: mpmath.mpf, S: mpmath.mpf, tau: mpmath.mpf) -> mpmath.mpf:
    """Eqs 74–76 verbatim (at the caller's precision), in the scaled time tau = t/Z.

    D0 = 0 (S = 0 and Sigma0 = S0, a double root of eq 87) is done by hand: gamma' = -(Sigma0 + S0) gamma^2."""
    D0 = mpmath.sqrt(S**2 + Sigma0**2 - S0**2)
    if D0 == 0:
        return 1 / (1 + (Sigma0 + S0) * tau)
    gp, gm = (S + D0) / (Sigma0 + S0), (S - D0) / (Sigma0 + S0)
    E = mpmath.exp(-2 * D0 * tau)
    return (gp * (1 - gm) - gm * (1 - gp) * E) / ((1 - gm) - (1 - gp) * E)


def scalar_state_mp(a0: np.ndarray, b0: np.ndarray, S: float, Z: float, t: np.ndarray, dps: int = 100) -> np.ndarray:
    """Theorem 3 at ``dps`` digits, from the exact values of the float64 inputs; object array (T, 2p) = [a, b]."""
    with mpmath.workdps(dps):
        A, B = _mp(a0), _mp(b0)
        S, Z = mpmath.mpf(float(S)), mpmath.mpf(float(Z))
        Sigma0 = sum(x * x + y * y for x, y in zip(A, B, strict=True)) / (2 * Z)
        S0 = sum(x * y for x, y in zip(A, B, strict=True)) / Z
        rows = []
        for time in _mp(t):
            r = mpmath.sqrt(_gamma_mp(Sigma0, S0, S, time / Z))
            a = [(x + y) / 2 * r + (x - y) / 2 / r for x, y in zip(A, B, strict=True)]
            b = [(x + y) / 2 * r - (x - y) / 2 / r for x, y in zip(A, B, strict=True)]
            rows.append(a + b)
        return np.array(rows, dtype=object)


def diagonal_state_mp(
    a0: np.ndarray, b0: np.ndarray, S: np.ndarray, lam: np.ndarray, t: np.ndarray, dps: int = 100
) -> np.ndarray:
    """Spec §2 general a ≠ b at ``dps`` digits; object array (T, 2p) = [a, b]."""
    p = len(a0)
    out = np.empty((len(t), 2 * p), dtype=object)
    with mpmath.workdps(dps):
        for i in range(p):
            lam_i = mpmath.mpf(float(lam[i]))
            # time lam_i * t, computed exactly at this precision
            for j, time in enumerate(_mp(t)):
                row = _scalar_unit_mp(a0[i], b0[i], S[i], lam_i * time, dps)
                out[j, i], out[j, p + i] = row
    return out


def _scalar_unit_mp(a0: float, b0: float, S: float, time: mpmath.mpf, dps: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    with mpmath.workdps(dps):
        A, B, S = mpmath.mpf(float(a0)), mpmath.mpf(float(b0)), mpmath.mpf(float(S))
        Sigma0, S0 = (A * A + B * B) / 2, A * B
        # gamma > 0 exactly; where it decays below 10^-dps the verbatim eq 74 can round it below 0
        r = mpmath.sqrt(max(_gamma_mp(Sigma0, S0, S, time), 0))
        decaying = (A - B) / 2 / r if A != B else 0  # a balanced unit has no decaying part, even where r rounds to 0
        return (A + B) / 2 * r + decaying, (A + B) / 2 * r - decaying


def linear_theta_mp(theta0: np.ndarray, S: np.ndarray, lam: np.ndarray, t: np.ndarray, dps: int = 60) -> np.ndarray:
    """Eq 10 at ``dps`` digits; object array (T, p)."""
    with mpmath.workdps(dps):
        th, Ss, ls = _mp(theta0), _mp(S), _mp(lam)
        return np.array(
            # eq 10 as x e^{-lam t} - s expm1(-lam t): no cancellation when |x| << |s| (e.g. x = 1e-56, s = 1)
            [
                [x * mpmath.exp(-lm * time) - s * mpmath.expm1(-lm * time) for x, s, lm in zip(th, Ss, ls, strict=True)]
                for time in _mp(t)
            ],
            dtype=object,
        )


# --- comparisons ------------------------------------------------------------------------------------------


def relative_error(got: object, expected: object, dps: int = 100) -> float:
    """max over times of max_i |got - expected| / ||expected|| (rows = times, columns = state components).

    Works for float and mpf object arrays alike (the difference is taken at ``dps`` digits). A row whose
    expected norm is zero is compared in absolute terms.
    """
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    worst = mpmath.mpf(0)
    with mpmath.workdps(dps):
        for g_row, e_row in zip(got.reshape(len(got), -1), expected.reshape(len(expected), -1), strict=True):
            diffs = [abs(mpmath.mpf(g) - mpmath.mpf(e)) for g, e in zip(g_row, e_row, strict=True)]
            if any(mpmath.isnan(d) or mpmath.isinf(d) for d in diffs):
                return float("inf")
            norm = mpmath.sqrt(sum(mpmath.mpf(e) ** 2 for e in e_row))
            worst = max(worst, max(diffs) / (norm if norm > 0 else 1))
    return float(worst)


def relative_error_np(got: np.ndarray, expected: np.ndarray) -> float:
    """``relative_error`` for float64 arrays (last axis = state components, any leading axes)."""
    got, expected = np.asarray(got, dtype=float), np.asarray(expected, dtype=float)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if not np.all(np.isfinite(got)):
        return float("inf")
    norm = np.linalg.norm(expected, axis=-1)
    err = np.max(np.abs(got - expected), axis=-1)
    return float(np.max(np.where(norm > 0, err / np.where(norm > 0, norm, 1.0), err)))


def state_matrix(result: dict, names: tuple[str, ...]) -> np.ndarray:
    """The state components of a trajectory result side by side: (T, [batch,] sum of widths)."""
    return np.concatenate([np.asarray(result[n]) for n in names], axis=-1)


class _Spec(SimpleNamespace):
    def __repr__(self) -> str:  # keep hypothesis' falsifying-example reports short
        return "spec"


@pytest.fixture(scope="session")
def spec() -> SimpleNamespace:
    """The spec's formulas (float64 and mpmath) and the comparison helpers."""
    return _Spec(
        linear_theta=linear_theta,
        sigmoid_product=sigmoid_product,
        riccati_gamma=riccati_gamma,
        scalar_state=scalar_state,
        diagonal_state=diagonal_state,
        scalar_state_mp=scalar_state_mp,
        diagonal_state_mp=diagonal_state_mp,
        linear_theta_mp=linear_theta_mp,
        relative_error=relative_error,
        relative_error_np=relative_error_np,
        state_matrix=state_matrix,
    )


# --- the high-precision integrator of the derived flow --------------------------------------------------------

# heyoka's MPFR Taylor integrator (optional extra [taylor]) reaches 30 digits ~100-300x faster than
# mpmath.odefun, so property tests against it can afford many more examples (test modules choose their
# max_examples by numerics.taylor.available(), at import)
REFERENCE_METHOD = "taylor" if taylor.available() else "mpmath"


@pytest.fixture(scope="session")
def reference_flow():
    """``trajectory`` by the high-precision integrator of the derived ODE (default 30 digits): heyoka's Taylor
    integrator in MPFR precision when heyoka is installed, else ``mpmath.odefun`` (the default reference)."""

    def flow(model: str, t: object, params: dict, init: dict, dps: int = 30) -> dict:
        return trajectory(model, t, params, init, method=REFERENCE_METHOD, dps=dps)

    flow.method = REFERENCE_METHOD
    return flow
