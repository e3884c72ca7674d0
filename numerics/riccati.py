"""Numerically stable evaluation of the Riccati engine's solution, in float64 and in mpmath.

The formulas are the engine's own (``derivations.riccati``), lambdified once for abstract coefficients:
the uniform stable form for ``c2 != 0`` (and for ``c2 = 0`` with an attracting fixed point), the linear
branch for ``c2 = 0``, ``c1 > 0`` (whose fixed point repels), and the constant-rate branch for
``c2 = c1 = 0``. Of the two equal expressions of the attracting root, the one without cancellation is used.
"""

from __future__ import annotations

from functools import cache

import mpmath
import numpy as np
import sympy as sp

from derivations.riccati import riccati_solution

__all__ = ["riccati_mpmath", "riccati_numpy"]

C2, C1, C0, Y0, T = sp.symbols("c2 c1 c0 y0 t", real=True)
K, R = sp.symbols("k r", real=True)


def _phi1_numpy(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    small = np.abs(x) < 1e-8
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(small, 1 - x / 2, -np.expm1(-x) / np.where(small, 1.0, x))


def _phi1_mpmath(x: mpmath.mpf) -> mpmath.mpf:
    return mpmath.mpf(1) if x == 0 else -mpmath.expm1(-x) / x


@cache
def _formulas() -> dict[str, sp.Expr]:
    generic = riccati_solution(C2, C1, C0, Y0, T, branch="generic")
    linear = riccati_solution(0, C1, C0, Y0, T, branch="linear")
    constant = riccati_solution(0, 0, C0, Y0, T, branch="constant-rate")
    root_c1_positive, root_c1_nonpositive = generic.attracting_root_forms()
    return {
        "stable": generic.stable.xreplace({generic.r_plus: R, generic.k: K}),
        "root_c1_positive": root_c1_positive.xreplace({generic.k: K}),
        "root_c1_nonpositive": root_c1_nonpositive.xreplace({generic.k: K}),
        "linear": linear.solution,
        "constant": constant.solution,
    }


@cache
def _compiled(backend: str) -> dict[str, object]:
    modules = [{"phi1": _phi1_numpy}, "numpy"] if backend == "numpy" else [{"phi1": _phi1_mpmath}, "mpmath"]
    f = _formulas()
    return {
        "stable": sp.lambdify((C2, C0, Y0, T, K, R), f["stable"], modules=modules),
        "root_c1_positive": sp.lambdify((C2, C1, C0, K), f["root_c1_positive"], modules=modules),
        "root_c1_nonpositive": sp.lambdify((C2, C1, C0, K), f["root_c1_nonpositive"], modules=modules),
        "linear": sp.lambdify((C1, C0, Y0, T), f["linear"], modules=modules),
        "constant": sp.lambdify((C0, Y0, T), f["constant"], modules=modules),
    }


def riccati_numpy(c2: np.ndarray, c1: np.ndarray, c0: np.ndarray, y0: np.ndarray, t: np.ndarray) -> np.ndarray:
    """y(t) for ``y' = c2 y^2 + c1 y + c0``, broadcasting all arguments (float64)."""
    c2, c1, c0, y0, t = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (c2, c1, c0, y0, t)))
    delta = c1**2 - 4 * c2 * c0
    if np.any(delta < 0):
        raise ValueError("Riccati coefficients with negative discriminant (finite-time blow-up) are not supported")
    f = _compiled("numpy")
    k = np.sqrt(delta)
    with np.errstate(all="ignore"):
        root = np.where(c1 > 0, f["root_c1_positive"](c2, c1, c0, k), f["root_c1_nonpositive"](c2, c1, c0, k))
        stable = f["stable"](c2, c0, y0, t, k, root)
        linear = f["linear"](c1, c0, y0, t)
        constant = f["constant"](c0, y0, t)
    degenerate = c2 == 0
    out = np.where(degenerate & (c1 > 0), linear, stable)
    return np.where(degenerate & (c1 == 0), constant, out)


def riccati_mpmath(c2: mpmath.mpf, c1: mpmath.mpf, c0: mpmath.mpf, y0: mpmath.mpf, t: mpmath.mpf) -> mpmath.mpf:
    """The same solution for scalar mpmath numbers (at the current ``mpmath.mp.dps``)."""
    delta = c1**2 - 4 * c2 * c0
    if delta < 0:
        raise ValueError("Riccati coefficients with negative discriminant (finite-time blow-up) are not supported")
    f = _compiled("mpmath")
    if c2 == 0 and c1 == 0:
        return f["constant"](c0, y0, t)
    if c2 == 0 and c1 > 0:
        return f["linear"](c1, c0, y0, t)
    k = mpmath.sqrt(delta)
    root = f["root_c1_positive"](c2, c1, c0, k) if c1 > 0 else f["root_c1_nonpositive"](c2, c1, c0, k)
    return f["stable"](c2, c0, y0, t, k, root)
