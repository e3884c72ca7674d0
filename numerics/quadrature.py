r"""Evaluate a quadrature clock (``derivations.quadrature.QuadratureSolution``): :math:`y(t)` from
:math:`t = \int_{y_0}^{y} dy/G(y)`.

The motion of :math:`y` is monotone from :math:`y_0` towards the *stop* :math:`y_*`, the nearest real root, in
the direction of :math:`G(y_0)`, of a factor of the stop polynomial at which :math:`G` vanishes (a root of a
radicand, a branch point, always counts; a root where only a conjugate of :math:`G` vanishes does not). The roots
are found numerically (``numpy.roots``, ``mpmath.polyroots``) and those where :math:`G` vanishes polished by
Newton's method on :math:`G` itself, not on the expanded polynomial.

Variable change. :math:`y = y_* - (y_* - y_0)e^{-s}`, :math:`s \in [0, \infty)`, turns the time into
:math:`t(s) = \int_0^s h`, :math:`h(\sigma) = (y_* - y)/G(y)`, whose integrand stays bounded at a simple stop
(:math:`h \to 1/|G'(y_*)|`, where :math:`1/G` has a logarithmic singularity that Gauss–Legendre on :math:`y`
would not resolve) and decays like :math:`e^{-s/2}` at a branch point; :math:`t(s)` is then smooth and
increasing, with :math:`t'(s) = h(s)` known exactly. In float64 (vectorized over the starts) the integral is
composite 20-point Gauss–Legendre on a uniform grid of :math:`s`, refined by doubling until two grids agree to
``1e-14``; :math:`s(t)` is found by a safeguarded Newton iteration inside the grid's panel holding :math:`t`. At
the working precision each start is integrated by ``mpmath.quad`` (tanh-sinh) between Newton iterates. The grid
ends four ulp short of :math:`y_*`, where the float64 solution has reached the stop; the rate, the stop and
the points are evaluated in long double, since the eliminated states inherit the relative accuracy of
:math:`y_* - y` (their squares vanish at the stop).

A branch point is reached in finite time: the eliminated state whose square vanishes there changes sign, which
the closed form does not follow, so a time beyond it is a ``ValueError``; so is a start at a branch point, a
motion that no stop bounds, and a solution that keeps fewer than ten digits in float64 (the conditioning check
of ``numerics.implicit``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np

from .arithmetic import Arithmetic, fp
from .compiled import lambdified
from .evaluate import apply
from .implicit import check_conditioning

if TYPE_CHECKING:
    import sympy as sp

    from derivations.quadrature import QuadratureSolution

__all__ = ["CompiledQuadrature", "compile_quadrature", "factored_radicands"]

NODES, WEIGHTS = np.polynomial.legendre.leggauss(20)
FIRST_PANELS = 32
MAX_PANELS = 16384
AGREEMENT = 1e-14
"""Relative agreement of two grids (one twice as fine) at which the float64 integral is accepted."""
PROMISE = 1e-10
LONG_EPS = float(np.finfo(np.longdouble).eps)
"""The relative accuracy promised in float64 (else ``ValueError``)."""


@dataclass(frozen=True)
class CompiledQuadrature:
    """The compiled parts of a quadrature clock: ``rhs`` (``G``) and ``slope`` (``G'``), the start ``y0``, the
    stop factors' coefficients in ``y`` (highest degree first) with whether each is a radicand (a branch point),
    the conjugates of ``G`` and the radicands."""

    y: str
    rhs: Callable[..., object]
    slope: Callable[..., object]
    y0: Callable[..., object]
    stops: tuple[tuple[Callable[..., object], ...], ...]
    branch: tuple[bool, ...]
    conjugates: tuple[Callable[..., object], ...]
    radicands: tuple[Callable[..., object], ...]
    float64: CompiledQuadrature | None = None
    """The same clock compiled in float64 (for an arbitrary-precision one: its starting points)."""

    @property
    def names(self) -> tuple[str, ...]:
        """``(y,)``."""
        return (self.y,)

    def values(self, env: Mapping[str, Any], t: np.ndarray, ctx: Arithmetic) -> dict[str, Any]:
        """``y`` at the times ``t`` (shape (T, 1, 1)), broadcast with the starts in ``env``."""
        return {self.y: (_values_numpy if ctx.machine else _values_mpmath)(self, env, t)}


def compile_quadrature(solution: QuadratureSolution, ctx: Arithmetic) -> CompiledQuadrature:
    """Compile ``solution`` in the arithmetic ``ctx`` (the compiler ``numerics.clocks`` registers for
    ``QuadratureSolution``)."""
    import sympy as sp

    y = solution.y
    stops = tuple(tuple(lambdified(sp.sympify(c), ctx) for c in sp.Poly(f, y).all_coeffs()) for f in solution.stops)
    branch = tuple(
        any(sp.expand(f - r) == 0 or sp.expand(f + r) == 0 for r in solution.radicands) for f in solution.stops
    )
    rhs = factored_radicands(solution.rhs, y)
    return CompiledQuadrature(
        str(y),
        lambdified(rhs, ctx),
        lambdified(sp.diff(rhs, y), ctx),
        lambdified(sp.sympify(solution.y0), ctx),
        stops,
        branch,
        tuple(lambdified(c, ctx) for c in solution.conjugates),
        tuple(lambdified(r, ctx) for r in solution.radicands),
        None if ctx.machine else compile_quadrature(solution, fp),
    )


def factored_radicands(expr: sp.Expr, variables: sp.Symbol | list[sp.Symbol]) -> sp.Expr:
    """``expr`` with each square root of a polynomial in ``variables`` (the clocks; ``y`` of a quadrature) written
    with its coefficients factored, e.g.
    ``sqrt(a1**2 - a1_0**2 + a2_0**2)`` as ``sqrt(a1**2 - (a1_0 - a2_0)*(a1_0 + a2_0))``: an eliminated state's
    square is ``y**2`` minus a conserved difference of squares, which evaluated as written loses everything to
    cancellation once ``y**2`` is below the rounding of the initial squares (at a balanced start the difference is
    exactly 0, the radicand ``y**2``, and ``G`` vanished or turned NaN near the stop ``y = 0``: the float64 chain
    with S < 0 was refused from every start)."""
    import sympy as sp

    ys = [variables] if isinstance(variables, sp.Symbol) else list(variables)

    def factored(root: sp.Pow) -> sp.Expr:
        if not root.base.free_symbols & set(ys) or not root.base.is_polynomial(*ys):
            return root
        poly = sp.Poly(root.base, *ys)
        return sp.sqrt(
            sp.Add(
                *(sp.factor(c) * sp.Mul(*(y**k for y, k in zip(ys, powers, strict=True))) for powers, c in poly.terms())
            )
        )

    return expr.replace(lambda e: e.is_Pow and e.exp == sp.S.Half, factored)


def _at(f: Callable[..., object], name: str, value: Any, local: Mapping[str, Any]) -> Any:
    """A compiled function at ``name = value``, its other arguments from ``local``."""
    return f(**{n: (value if n == name else local[n]) for n in f.names})  # type: ignore[attr-defined]


def _flat(env: Mapping[str, Any], shape: tuple[int, ...], dtype: type) -> dict[str, Any]:
    """The arrays of ``env`` broadcast to ``shape`` and flattened (scalars kept)."""
    return {
        k: (np.broadcast_to(np.asarray(v, dtype=dtype), shape).reshape(-1) if isinstance(v, np.ndarray) else v)
        for k, v in env.items()
        if k != "t"
    }


def _shape(env: Mapping[str, Any]) -> tuple[int, ...]:
    return np.broadcast_shapes(*(np.shape(v) for k, v in env.items() if k != "t" and isinstance(v, np.ndarray)))


# ---------------------------------------------------------------------------------------------------- float64


def _stop(q: CompiledQuadrature, local: dict[str, Any], y0: float, direction: float) -> tuple[float, bool]:
    """The stop ahead of ``y0`` (``direction`` the sign of G there) and whether it is a branch point."""
    found: list[tuple[float, bool]] = []
    for coefficients, branch in zip(q.stops, q.branch, strict=True):
        c = np.array([float(np.real(_call(f, local))) for f in coefficients])
        nonzero = np.flatnonzero(c)
        if len(nonzero) == 0 or nonzero[0] == len(c) - 1:
            continue
        for root in np.roots(c[nonzero[0] :]):
            if abs(root.imag) > 1e-6 * (1 + abs(root)):
                continue
            r = float(root.real)
            if branch:
                if (r - y0) * direction > 0:
                    found.append((r, True))
                continue
            polished = _polished(q, local, r)
            if polished is not None and (polished - y0) * direction > 0 and _zero_of_G(q, local, polished):
                found.append((polished, False))
    if not found:
        raise ValueError(f"no stop bounds the motion of {q.y} from {y0!r}: the quadrature has no end")
    return min(found, key=lambda item: abs(item[0] - y0))


def _call(f: Callable[..., object], local: Mapping[str, Any]) -> Any:
    return f(**{n: local[n] for n in f.names})  # type: ignore[attr-defined]


def _polished(q: CompiledQuadrature, local: dict[str, Any], r: float) -> Any:
    """``r`` refined by Newton's method on G in long double (None where G is not real there): the stop is where
    the eliminated states' squares vanish, whose relative accuracy the states inherit."""
    x = np.longdouble(r)
    with np.errstate(all="ignore"):
        for _ in range(12):
            g = np.longdouble(_at(q.rhs, q.y, x, local))
            slope = np.longdouble(_at(q.slope, q.y, x, local))
            if not (np.isfinite(g) and np.isfinite(slope)) or slope == 0:
                break
            step = g / slope
            x -= step
            if abs(step) <= 4 * np.finfo(np.longdouble).eps * max(abs(x), 1e-300):
                break
    return x if np.isfinite(x) else None


def _zero_of_G(q: CompiledQuadrature, local: dict[str, Any], r: float, tolerance: float = 1e-6) -> bool:
    """Whether G (not only a conjugate of it) vanishes at the root ``r`` of a stop factor."""
    with np.errstate(all="ignore"):
        g = abs(float(_at(q.rhs, q.y, r, local)))
        if not math.isfinite(g):
            return False
        others = [abs(float(_at(c, q.y, r, local))) for c in q.conjugates]
    return all(g <= tolerance * o for o in others if math.isfinite(o) and o > 0) or g == 0


def _points(y0: np.ndarray, end: np.ndarray, distance: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``y = y_* - D e^{-s}``, near the start as ``y0 - D expm1(-s)`` (no cancellation)."""
    decay = np.exp(-s)
    return np.where(decay > 0.5, y0 - distance * np.expm1(-s), end - distance * decay)


def _integrand(q, columns, y0, end, distance, s):
    """``h(s) = D e^{-s} / G(y(s))`` for arrays ``s`` of shape (B, n) (``columns`` the starts' values)."""
    y = _points(y0[:, None], end[:, None], distance[:, None], s)
    local = {**{k: (v[:, None] if isinstance(v, np.ndarray) else v) for k, v in columns.items()}, q.y: y}
    with np.errstate(all="ignore"):
        # in long double: near the stop G cancels (the eliminated states' squares vanish there), and the time
        # spent there fixes the distance to the stop, whose relative accuracy those states inherit
        g = np.asarray(_call(q.rhs, local))
        h = distance[:, None] * np.exp(-s) / g
    return np.asarray(h, dtype=float)


def _panel_integrals(q, columns, y0, end, distance, a, b) -> np.ndarray:
    """Gauss–Legendre of ``h`` over [a, b] for arrays a, b of shape (B, K): (B, K)."""
    half, middle = (b - a) / 2, (b + a) / 2
    nodes = middle[..., None] + half[..., None] * NODES
    B, K = a.shape
    h = _integrand(q, columns, y0, end, distance, nodes.reshape(B, -1)).reshape(B, K, len(NODES))
    if not np.all(np.isfinite(h) & (h > 0)):
        raise ValueError(f"the quadrature for {q.y} meets a zero or a non-real value of its rate before the stop")
    return half * np.sum(h * WEIGHTS, axis=-1)


def _grid(q, columns, y0, end, distance, s_max) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Panel boundaries (B, K + 1), cumulative times there (B, K + 1) and their error estimates (B, K + 1).

    Adaptive: a panel is halved while its 20-point Gauss–Legendre value and that of its two halves differ by more
    than its share of the allowed error. The allowed time error at a point is ``AGREEMENT`` *in y*, relative to the
    distance to the stop (down to 1e-6 of y): a time error dt moves y by G dt, and the eliminated states inherit
    the relative accuracy of y_* - y (their squares vanish at the stop). A panel's share is that of its width, of
    the smallest allowance at or after it, so that the running sum meets every later allowance; never below the
    rounding of the panel's value. Adaptive panels resolve the slow passage near a saddle (a kept state near 0
    with a small conserved difference), where h(s) has a narrow peak a uniform grid misses. The starts' grids are
    padded to one number of panels by halving their widest panels."""
    eps = np.finfo(float).eps
    grids = []
    for b in range(len(y0)):
        one = {k: (v[b : b + 1] if isinstance(v, np.ndarray) else v) for k, v in columns.items()}
        args = (one, y0[b : b + 1], end[b : b + 1], distance[b : b + 1])
        edges = np.linspace(0.0, float(s_max[b]), FIRST_PANELS + 1)
        while True:
            a, c = edges[:-1], edges[1:]
            middle = (a + c) / 2
            coarse = _panel_integrals(q, *args, a[None, :], c[None, :])[0]
            fine = (
                _panel_integrals(q, *args, a[None, :], middle[None, :])[0]
                + _panel_integrals(q, *args, middle[None, :], c[None, :])[0]
            )
            y = _points(y0[b : b + 1, None], end[b : b + 1, None], distance[b : b + 1, None], c[None, :])[0]
            with np.errstate(all="ignore"):
                speed = np.abs(np.asarray(_call(q.rhs, {**one, q.y: y}), dtype=float))
            size = np.maximum(np.abs(y), abs(float(y0[b])))
            allowed = AGREEMENT * np.maximum(np.abs(y - float(end[b])), 1e-6 * size) / np.maximum(speed, 1e-300)
            # no finer than the rounding of h: G cancels near the stop (long double, relative eps_ld |y|/|y - y_*|),
            # then rounded to float64; nor than the running time's own rounding (near the stop the relative
            # accuracy of y_* - y is then about s eps, s <= 36: far inside PROMISE)
            noise = np.abs(fine) * (eps + LONG_EPS * size / np.maximum(np.abs(y - float(end[b])), 1e-300 * size))
            allowed = np.maximum(allowed, 16 * (eps * np.cumsum(np.abs(fine)) + np.cumsum(noise)))
            allowed = np.minimum.accumulate(allowed[::-1])[::-1]  # the smallest allowance at or after each panel
            share = np.maximum(allowed * (c - a) / float(s_max[b]), 16 * noise)
            bad = np.abs(coarse - fine) > share
            if not np.any(bad):
                break
            if len(edges) - 1 + int(np.sum(bad)) > MAX_PANELS:
                raise ValueError(
                    f"the quadrature for {q.y} does not converge on {MAX_PANELS} panels: use trajectory(..., dps=30) "
                    "or method='mpmath'/'scipy'"
                )
            edges = np.sort(np.concatenate([edges, middle[bad]]))
        grids.append((edges, fine, np.abs(coarse - fine)))
    K = max(len(e) - 1 for e, _, _ in grids)
    rows = []
    for b, (edges, parts, errors) in enumerate(grids):
        one = {k: (v[b : b + 1] if isinstance(v, np.ndarray) else v) for k, v in columns.items()}
        args = (one, y0[b : b + 1], end[b : b + 1], distance[b : b + 1])
        while len(edges) - 1 < K:  # pad: halve the widest panels (more panels never cost accuracy)
            widths = np.diff(edges)
            widest = np.argsort(widths)[::-1][: K - (len(edges) - 1)]
            middle = (edges[widest] + edges[widest + 1]) / 2
            edges = np.sort(np.concatenate([edges, middle]))
            a, c = edges[:-1], edges[1:]
            parts = _panel_integrals(q, *args, a[None, :], c[None, :])[0]
            errors = np.concatenate([errors, np.zeros(len(middle))])  # the halves of an accepted panel
        rows.append((edges, np.concatenate([[0.0], np.cumsum(parts)]), np.concatenate([[0.0], np.cumsum(errors)])))
    return tuple(np.array([row[i] for row in rows]) for i in range(3))  # type: ignore[return-value]


def _values_numpy(q: CompiledQuadrature, env: Mapping[str, Any], t: np.ndarray) -> np.ndarray:
    """``y(t)`` in float64: (T, ...) broadcast with the starts."""
    shape = _shape({**env, "__y0": np.asarray(apply(q.y0, env, "numpy"), dtype=float)})
    columns = _flat(env, shape, float)
    # the columns are flat (one entry per start and unit): so is y0
    y0 = np.broadcast_to(np.asarray(_call(q.y0, columns), dtype=float), (math.prod(shape),)).copy()
    times = np.asarray(t, dtype=float).reshape(-1)
    out = np.broadcast_to(y0, (len(times), len(y0))).copy()
    with np.errstate(all="ignore"):
        for radicand in q.radicands:
            value = np.broadcast_to(np.asarray(_at(radicand, q.y, y0, columns), dtype=float), y0.shape)
            if np.any(value <= 0):
                raise ValueError(
                    f"init: an eliminated state starts at 0 (a branch point of the equation for {q.y}): the closed "
                    "form does not hold from there; use method='mpmath'/'scipy'"
                )
        speed = np.broadcast_to(np.asarray(_at(q.rhs, q.y, y0, columns), dtype=float), y0.shape)
    moving = np.flatnonzero(speed != 0)
    if len(moving) and np.any(times > 0):
        y = _moving(
            q,
            {k: (v[moving] if isinstance(v, np.ndarray) else v) for k, v in columns.items()},
            y0[moving],
            np.sign(speed[moving]),
            times,
        )
        out[:, moving] = y
    return _shaped(out, shape)


def _shaped(out: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The values (T, B) as (T, batch, p): the starts' shape ``shape`` is (1, batch, p) (its axis of times, of
    length 1, is the times' axis)."""
    inner = shape[1:] if shape and shape[0] == 1 else shape
    return out.reshape((out.shape[0], *inner))


def _moving(q, columns, y0, direction, times) -> np.ndarray:
    """``y`` at ``times`` (T,) for the moving starts ``y0`` (B,): (T, B)."""
    B = len(y0)
    end = np.empty(B, dtype=np.longdouble)
    branch = np.zeros(B, dtype=bool)
    for b in range(B):
        local = {k: (v[b] if isinstance(v, np.ndarray) else v) for k, v in columns.items()}
        end[b], branch[b] = _stop(q, local, float(y0[b]), float(direction[b]))
    y0 = y0.astype(np.longdouble)
    distance = end - y0
    scale = np.maximum(np.abs(end), np.abs(distance))
    s_max = np.asarray(np.log(np.abs(distance) / (4 * np.finfo(float).eps * scale)), dtype=float)
    edges, cumulative, error = _grid(q, columns, y0, end, distance, s_max)
    total = cumulative[:, -1]
    T = times[:, None] * np.ones((1, B))
    late = total < T
    if np.any(late & branch[None, :]):
        b = int(np.flatnonzero(np.any(late & branch[None, :], axis=0))[0])
        raise ValueError(
            f"an eliminated state reaches 0 at t = {total[b]:.6g} (a branch point of the equation for {q.y}, where "
            "its sign changes): the closed form holds only before; use method='mpmath'/'scipy' beyond"
        )
    # the panel holding each time, and Newton's iteration for s in it
    k = np.clip(np.sum(cumulative[None, :, :] <= T[:, :, None], axis=2) - 1, 0, edges.shape[1] - 2)
    rows = np.arange(B)[None, :]
    lo, hi = edges[rows, k], edges[rows, k + 1]
    start, base = lo.copy(), cumulative[rows, k]
    flat = (
        np.broadcast_to(y0, T.shape).reshape(-1),
        np.broadcast_to(end, T.shape).reshape(-1),
        np.broadcast_to(distance, T.shape).reshape(-1),
    )
    wide = {
        key: (np.broadcast_to(v, T.shape).reshape(-1) if isinstance(v, np.ndarray) else v) for key, v in columns.items()
    }

    def elapsed(s: np.ndarray) -> np.ndarray:
        part = _panel_integrals(q, wide, *flat, start.reshape(-1, 1), s.reshape(-1, 1))
        return base + part.reshape(T.shape)

    def rate(s: np.ndarray) -> np.ndarray:
        return _integrand(q, wide, *flat, s.reshape(-1, 1)).reshape(T.shape)

    s = np.clip(lo + (T - base) / rate(lo), lo, hi)
    for _ in range(60):
        f = elapsed(s) - T
        lo, hi = np.where(f < 0, s, lo), np.where(f < 0, hi, s)
        step = s - f / rate(s)
        inside = (step > lo) & (step < hi)
        new = np.where(inside, step, (lo + hi) / 2)
        done = np.abs(new - s) <= 4 * np.finfo(float).eps * np.maximum(s, 1.0)
        s = new
        if np.all(done):
            break
    s = np.where(late, edges[:, -1][None, :], s)
    y = np.asarray(_points(y0[None, :], end[None, :], distance[None, :], s), dtype=float)
    y = np.where(T == 0, np.asarray(y0, dtype=float)[None, :], y)
    y0 = np.asarray(y0, dtype=float)
    with np.errstate(all="ignore"):
        speed = np.abs(np.asarray(_at(q.rhs, q.y, y, wide_columns(columns, T.shape)), dtype=float))
    grid_error = error[rows, k] + error[rows, k + 1]
    lost = speed * (8 * np.finfo(float).eps * np.abs(T) + grid_error) + 2 * np.finfo(float).eps * np.abs(y)
    with np.errstate(all="ignore"):  # a start at y0 = 0 at t = 0: nothing lost, nothing to divide by
        relative = np.where(late | (T == 0), 0.0, lost / np.maximum(np.abs(y), np.abs(y0)[None, :]))
    check_conditioning(q.y, float(np.max(relative)), PROMISE, 16)
    return y


def wide_columns(columns: Mapping[str, Any], shape: tuple[int, ...]) -> dict[str, Any]:
    """The starts' columns (B,) broadcast to (T, B)."""
    return {k: (np.broadcast_to(v, shape) if isinstance(v, np.ndarray) else v) for k, v in columns.items()}


# ---------------------------------------------------------------------------------------------------- mpmath


def _stop_mp(q: CompiledQuadrature, local: dict[str, Any], y0: Any, direction: int) -> tuple[Any, bool]:
    """The stop ahead of ``y0`` at the working precision and whether it is a branch point."""
    tolerance = mpmath.mpf(10) ** (-mpmath.mp.dps // 3)
    found = []
    for coefficients, branch in zip(q.stops, q.branch, strict=True):
        c = [mpmath.mpf(_call(f, local)) for f in coefficients]
        while c and c[0] == 0:
            c = c[1:]
        if len(c) < 2:
            continue
        for root in _polyroots(c):
            if abs(mpmath.im(root)) > tolerance * (1 + abs(root)):
                continue
            r = mpmath.re(root)
            if branch:
                if (r - y0) * direction > 0:
                    found.append((r, True))
                continue
            try:
                r = mpmath.findroot(
                    lambda v: _at(q.rhs, q.y, v, local),
                    r,
                    df=lambda v: _at(q.slope, q.y, v, local),
                    solver="newton",
                    verify=False,
                )
            except (ZeroDivisionError, ValueError):
                continue
            # Newton may step where a radicand is negative (G complex there): a complex iterate is no stop, a
            # real one may still be an mpc with zero imaginary part (which has no ordering)
            if mpmath.im(r) != 0:
                continue
            r = mpmath.re(r)
            if (r - y0) * direction <= 0:
                continue
            g = abs(_at(q.rhs, q.y, r, local))
            others = [abs(_at(c_, q.y, r, local)) for c_ in q.conjugates]
            if g == 0 or all(g <= tolerance * o for o in others if o != 0):
                found.append((r, False))
    if not found:
        raise ValueError(f"no stop bounds the motion of {q.y} from {y0}: the quadrature has no end")
    return min(found, key=lambda item: abs(item[0] - y0))


def _polyroots(c: list[Any]) -> list[Any]:
    """The roots of the polynomial with coefficients ``c`` (highest first) at the working precision; Durand–Kerner
    may need more steps and guard digits on clustered roots (a ``ValueError`` if it still does not converge)."""
    for steps, extra in ((400, 4), (4000, 16)):
        try:
            return list(mpmath.polyroots(c, maxsteps=steps, extraprec=extra * mpmath.mp.prec))
        except mpmath.libmp.libhyper.NoConvergence:
            continue
    raise ValueError(f"the stop polynomial's roots ({len(c) - 1} of them) do not converge at {mpmath.mp.dps} digits")


def _values_mpmath(q: CompiledQuadrature, env: Mapping[str, Any], t: np.ndarray) -> np.ndarray:
    """``y(t)`` at the working precision, start by start (object arrays)."""
    y0_all = np.asarray(apply(q.y0, env, "mpmath"), dtype=object)
    shape = _shape({**env, "__y0": y0_all})
    columns = _flat(env, shape, object)
    y0s = np.broadcast_to(y0_all, shape).reshape(-1)
    times = [mpmath.mpf(v) for v in np.asarray(t, dtype=object).reshape(-1)]
    out = np.empty((len(times), len(y0s)), dtype=object)
    for b, y0 in enumerate(y0s):
        local = {k: (v[b] if isinstance(v, np.ndarray) else v) for k, v in columns.items()}
        out[:, b] = _one_mp(q, local, y0, times)
    return _shaped(out, shape)


def _one_mp(q: CompiledQuadrature, local: dict[str, Any], y0: Any, times: list[Any]) -> list[Any]:
    """``y`` at ``times`` for one start, at the working precision: Newton's iteration on ``s`` (module docstring)
    from the float64 solution where it exists, so that each time costs one quadrature from the previous time and
    one or two corrections over intervals of the float64 error's width."""
    if any(_at(r, q.y, y0, local) <= 0 for r in q.radicands):
        raise ValueError(
            f"init: an eliminated state starts at 0 (a branch point of the equation for {q.y}): the closed form does "
            "not hold from there; use method='mpmath'/'scipy'"
        )
    speed = _at(q.rhs, q.y, y0, local)
    if speed == 0:
        return [y0] * len(times)
    direction = 1 if speed > 0 else -1
    guesses = _float_guesses(q, local, y0, direction, times)
    dps = mpmath.mp.dps
    with mpmath.workdps(dps + 10):
        end, branch = _stop_mp(q, local, y0, direction)
        distance = end - y0
        scale = max(abs(end), abs(distance))
        s_max = mpmath.log(abs(distance) / (mpmath.mpf(2) ** (-mpmath.mp.prec + 40) * scale))
        tiny = mpmath.mpf(2) ** (-mpmath.mp.prec // 5)

        def point(s: Any) -> Any:
            return y0 - distance * mpmath.expm1(-s) if s < 1 else end - distance * mpmath.exp(-s)

        def h(s: Any) -> Any:
            return distance * mpmath.exp(-s) / _at(q.rhs, q.y, point(s), local)

        def integral(a: Any, b: Any) -> Any:
            if abs(b - a) <= tiny * max(1, abs(a)):
                # three-point Gauss-Legendre: its error (b - a)^7 h^(6) is below the working precision
                half, middle = (b - a) / 2, (b + a) / 2
                x = mpmath.sqrt(mpmath.mpf(3) / 5)
                return half * (5 * h(middle - half * x) + 8 * h(middle) + 5 * h(middle + half * x)) / 9
            pieces = max(1, int(mpmath.ceil(abs(b - a) / 2)))
            return mpmath.quad(h, mpmath.linspace(a, b, pieces + 1))

        if branch:
            # reached in finite time: refuse the times beyond before iterating towards them
            arrival = integral(mpmath.mpf(0), s_max)
            if max(times) > arrival:
                raise ValueError(
                    f"an eliminated state reaches 0 at t = {mpmath.nstr(arrival, 6)} (a branch point of the "
                    f"equation for {q.y}, where its sign changes): the closed form holds only before; use "
                    "method='mpmath'/'scipy' beyond"
                )
        s_now, t_now = mpmath.mpf(0), mpmath.mpf(0)
        values: dict[int, Any] = {}
        for index in sorted(range(len(times)), key=lambda i: times[i]):
            target = times[index]
            if target == 0:
                values[index] = y0
                continue
            lo, hi = s_now, s_max
            s, elapsed = s_now, t_now
            guess = guesses[index] if guesses is not None else None
            if guess is not None:
                away = (end - mpmath.mpf(guess)) / distance
                if 0 < away < 1:
                    s = min(max(-mpmath.log(away), s_now), s_max)
                    elapsed = t_now + integral(s_now, s)
            for _ in range(200):
                step = s + (target - elapsed) / h(s)
                new = step if lo < step < hi else (lo + hi) / 2
                new_elapsed = elapsed + integral(s, new)
                if new_elapsed < target:
                    lo = new
                else:
                    hi = new
                done = abs(new - s) <= mpmath.mpf(2) ** (-mpmath.mp.prec + 12) * max(1, abs(new))
                s, elapsed = new, new_elapsed
                if done or (s == s_max and elapsed < target):
                    break
            if s == s_max and elapsed < target:
                if branch:
                    raise ValueError(
                        f"an eliminated state reaches 0 at t = {mpmath.nstr(elapsed, 6)} (a branch point of the "
                        f"equation for {q.y}, where its sign changes): the closed form holds only before; use "
                        "method='mpmath'/'scipy' beyond"
                    )
                values[index] = point(s)
                continue
            s_now, t_now = s, elapsed
            values[index] = point(s)
        result = [values[i] for i in range(len(times))]
    return [+v for v in result]


def _float_guesses(
    q: CompiledQuadrature, local: dict[str, Any], y0: Any, direction: int, times: list[Any]
) -> list[float] | None:
    """The float64 solution at ``times`` (a starting point for the mpmath iteration), or None where float64
    cannot give one (out of range, ill-conditioned: the mpmath iteration then starts from the start)."""
    if q.float64 is None:
        return None
    try:
        columns = {k: np.array([float(v)]) for k, v in local.items()}
        with np.errstate(all="ignore"):
            y = _moving(
                q.float64,
                columns,
                np.array([float(y0)]),
                np.array([float(direction)]),
                np.array([float(t) for t in times]),
            )
    except (ValueError, OverflowError, TypeError, ZeroDivisionError):
        return None
    values = [float(v) for v in y[:, 0]]
    return values if all(math.isfinite(v) for v in values) else None
