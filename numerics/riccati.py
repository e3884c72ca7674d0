"""Numerically stable evaluation of the Riccati engine's solution, in float64 and in mpmath.

The formula is the engine's own stable Möbius form (``derivations.riccati``), lambdified once for abstract
coefficients. It covers every branch (``c2 = 0``, double root, fixed point) by continuity and contains no
root of the quadratic; of ``alpha = (k + c1)/2`` and ``beta = (k - c1)/2`` the one without cancellation is
computed directly and the other from ``alpha * beta = -c2 c0``.
"""

from __future__ import annotations

import numbers
from functools import cache

import mpmath
import numpy as np
import sympy as sp

from derivations.riccati import ALPHA, BETA, riccati_solution

__all__ = ["riccati_mpmath", "riccati_numpy"]

C2, C1, C0, Y0, T = sp.symbols("c2 c1 c0 y0 t", real=True)
K = sp.Symbol("k", real=True)


def _phi1_numpy(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    small = np.abs(x) < 1e-8
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(small, 1 - x / 2, -np.expm1(-x) / np.where(small, 1.0, x))


def _phi1_mpmath(x: mpmath.mpf) -> mpmath.mpf:
    return mpmath.mpf(1) if x == 0 else -mpmath.expm1(-x) / x


@cache
def _compiled(backend: str) -> tuple[object, object]:
    """The engine's stable form and its rate split ``(alpha, beta) = ((k + c1)/2, (k - c1)/2)``, lambdified."""
    generic = riccati_solution(C2, C1, C0, Y0, T, branch="generic")
    to_k = {generic.k: K}
    modules = [{"phi1": _phi1_numpy}, "numpy"] if backend == "numpy" else [{"phi1": _phi1_mpmath}, "mpmath"]
    stable = sp.lambdify((C2, C0, Y0, T, K, ALPHA, BETA), generic.stable.xreplace(to_k), modules=modules)
    split = sp.lambdify((C1, K), [e.xreplace(to_k) for e in generic.rate_split()], modules=modules)
    return stable, split


def _discriminant(c2: object, c1: object, c0: object) -> object:
    delta = c1**2 - 4 * c2 * c0
    if np.any(delta < 0):
        raise ValueError(
            "c1**2 - 4 c2 c0 must be >= 0: Riccati coefficients with a negative discriminant (finite-time blow-up) "
            "are not supported"
        )
    return delta


def _check_before_blow_up(denominator: object) -> None:
    """``ValueError`` where the stable form's denominator ``e^{-kt} + tau (beta - c2 y0)``, 1 at t = 0 and monotone
    in t, is negative: the solution blew up before ``t``. (It is 0 only at the pole or, with ``beta = c2 y0``,
    where ``e^{-kt}`` underflows: there the form's limit is kept.)"""
    if np.any(denominator < 0):
        raise ValueError(
            "t must be before the blow-up of the solution (y0 beyond the repelling root): admissible t < t*"
        )


def _arguments(values: dict[str, object]) -> list[np.ndarray]:
    """The five arguments as float arrays, broadcast; ``TypeError``/``ValueError`` naming a bad one. Non-finite
    values propagate (as in numpy); ``t`` must be >= 0."""
    arrays = []
    for name, value in values.items():
        raw = np.asarray(value)
        if raw.dtype.kind not in "iuf":
            raise TypeError(f"{name} must be real numbers (int or float, no complex or bool), got dtype {raw.dtype}")
        arrays.append(raw.astype(float))
    try:
        arrays = np.broadcast_arrays(*arrays)
    except ValueError as exc:
        shapes = {name: np.shape(v) for name, v in values.items()}
        raise ValueError(f"c2, c1, c0, y0 and t must broadcast to one shape, got {shapes}") from exc
    if np.any(arrays[-1] < 0):
        raise ValueError("t must be >= 0 (admissible range: [0, inf))")
    return arrays


def riccati_numpy(c2: np.ndarray, c1: np.ndarray, c0: np.ndarray, y0: np.ndarray, t: np.ndarray) -> np.ndarray:
    """y(t) for ``y' = c2 y^2 + c1 y + c0``, broadcasting all arguments (float64; +inf past an overflow, NaN from
    NaN arguments). ``ValueError`` for a negative discriminant, ``t < 0`` or ``t`` past a blow-up."""
    c2, c1, c0, y0, t = _arguments({"c2": c2, "c1": c1, "c0": c0, "y0": y0, "t": t})
    stable, split = _compiled("numpy")
    with np.errstate(all="ignore"):
        k = np.sqrt(_discriminant(c2, c1, c0))
        alpha_direct, beta_direct = split(c1, k)
        big = np.where(c1 > 0, alpha_direct, beta_direct)
        small = np.where(big > 0, -c2 * c0 / np.where(big > 0, big, 1.0), 0.0)
        alpha, beta = np.where(c1 > 0, big, small), np.where(c1 > 0, small, big)
        _check_before_blow_up(np.exp(-k * t) + t * _phi1_numpy(k * t) * (beta - c2 * y0))
        return stable(c2, c0, y0, t, k, alpha, beta)


def riccati_mpmath(c2: mpmath.mpf, c1: mpmath.mpf, c0: mpmath.mpf, y0: mpmath.mpf, t: mpmath.mpf) -> mpmath.mpf:
    """The same solution for scalar real numbers, in mpmath at the current ``mpmath.mp.dps``."""
    names = ("c2", "c1", "c0", "y0", "t")
    c2, c1, c0, y0, t = (_real_mpf(name, v) for name, v in zip(names, (c2, c1, c0, y0, t), strict=True))
    if t < 0:
        raise ValueError("t must be >= 0 (admissible range: [0, inf))")
    k = mpmath.sqrt(_discriminant(c2, c1, c0))
    stable, split = _compiled("mpmath")
    alpha_direct, beta_direct = split(c1, k)
    big = alpha_direct if c1 > 0 else beta_direct
    small = -c2 * c0 / big if big > 0 else mpmath.mpf(0)
    alpha, beta = (big, small) if c1 > 0 else (small, big)
    _check_before_blow_up(mpmath.exp(-k * t) + t * _phi1_mpmath(k * t) * (beta - c2 * y0))
    return stable(c2, c0, y0, t, k, alpha, beta)


def _real_mpf(name: str, value: object) -> mpmath.mpf:
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, mpmath.mpf)):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    value = mpmath.mpf(value) if not isinstance(value, mpmath.mpf) else value
    if not mpmath.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value
