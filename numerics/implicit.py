r"""Invert an implicit closed form :math:`t = F(y) - F(y_0)` (``derivations.separable``) on arrays.

Along :math:`\dot y = G(y)` the solution moves monotonically from :math:`y_0` towards the nearest real root of
:math:`G` in the direction of :math:`G(y_0)` and never reaches it, so :math:`h(y) = F(y) - F(y_0) - t` increases
from :math:`-t` to :math:`+\infty` on that interval: a bracketed root solve finds :math:`y(t)`
(``scipy.optimize.elementwise.find_root``, vectorized, in float64; ``mpmath.findroot`` by bisection at the
working precision). A start at a root of :math:`G` stays there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np

from .arithmetic import Arithmetic, fp, mp
from .compiled import lambdified
from .evaluate import apply

if TYPE_CHECKING:
    import sympy as sp

    from derivations.separable import ImplicitSolution

__all__ = ["CompiledImplicit", "check_conditioning", "implicit_mpmath", "implicit_numpy", "implicit_values"]


@dataclass(frozen=True)
class CompiledImplicit:
    """``antiderivative(y, …)``, ``rhs(y, …)`` and the ``fixed_points`` as compiled callables; ``y`` is the name
    of the variable and ``y0`` the compiled start."""

    y: str
    antiderivative: Callable[..., object]
    rhs: Callable[..., object]
    y0: Callable[..., object]
    fixed_points: tuple[Callable[..., object], ...]

    @classmethod
    def of(cls, solution: ImplicitSolution, ctx: Arithmetic | str) -> CompiledImplicit:
        """Compile ``solution`` in the arithmetic ``ctx`` (its radicals, e.g. a real cube root, substituted)."""
        import sympy as sp

        radicals = solution.radicals

        def compile_(expr: sp.Expr) -> Callable[..., object]:
            return lambdified(sp.sympify(expr, strict=True).xreplace(radicals), ctx)

        return cls(
            str(solution.y),
            compile_(solution.antiderivative),
            compile_(solution.rhs),
            compile_(solution.y0),
            tuple(compile_(r) for r in solution.fixed_points),
        )


def _target(implicit: CompiledImplicit, env: Mapping[str, Any], y0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The direction of motion and the nearest fixed point in it (``nan`` where the start is a fixed point)."""
    direction = np.sign(np.asarray(apply(implicit.rhs, {**env, implicit.y: y0}, fp), dtype=float))
    best = np.full(np.shape(direction), np.inf)
    for f in implicit.fixed_points:
        with np.errstate(invalid="ignore"):  # a quadratic factor's root is NaN where it is not real: no bracket
            point = np.broadcast_to(np.asarray(apply(f, env, fp), dtype=float), np.shape(direction))
        distance = (point - np.asarray(y0, dtype=float)) * direction
        best = np.where((distance > 0) & (distance < best), distance, best)
    if np.any(np.isinf(best) & (direction != 0)):
        raise ValueError(f"no fixed point bounds the motion of {implicit.y}: the solution leaves every bracket")
    return direction, best


def implicit_values(implicit: CompiledImplicit, env: Mapping[str, Any], t: np.ndarray, ctx: Arithmetic) -> np.ndarray:
    """y(t) in the arithmetic ``ctx``: vectorized (``implicit_numpy``) for machine numbers, element by element at
    the working precision (``implicit_mpmath``) otherwise."""
    return (implicit_numpy if ctx.machine else implicit_mpmath)(implicit, env, t)


def implicit_numpy(implicit: CompiledImplicit, env: Mapping[str, Any], t: np.ndarray) -> np.ndarray:
    """y(t) in float64 for every start in ``env`` (arrays broadcasting to (T, batch, p))."""
    y0 = np.asarray(apply(implicit.y0, env, fp), dtype=float)
    direction, distance = _target(implicit, env, y0)
    shape = np.broadcast_shapes(np.shape(t), np.shape(y0))
    y0, direction, distance, t = (np.broadcast_to(v, shape) for v in (y0, direction, distance, t))
    moving = direction != 0
    out = np.array(y0, dtype=float)
    if not np.any(moving):
        return out
    start = y0[moving]
    # the far end stops a few ulp short of the fixed point, where F is finite
    end = start + direction[moving] * distance[moving] * (1 - 8 * np.finfo(float).eps)
    fields = {k: (np.broadcast_to(v, shape)[moving] if isinstance(v, np.ndarray) else v) for k, v in env.items()}
    keys = [k for k, v in fields.items() if isinstance(v, np.ndarray)]
    constants = {k: v for k, v in fields.items() if not isinstance(v, np.ndarray)}

    def F(y: np.ndarray, columns: tuple[np.ndarray, ...]) -> np.ndarray:
        local = {**constants, **dict(zip(keys, columns, strict=True)), implicit.y: y}
        return np.asarray(apply(implicit.antiderivative, local, fp), dtype=float)

    columns = tuple(fields[k] for k in keys)
    F0 = F(start, columns)

    def h(y: np.ndarray, F0: np.ndarray, times: np.ndarray, *columns: np.ndarray) -> np.ndarray:
        return F(y, columns) - F0 - times

    with np.errstate(all="ignore"):
        beyond = h(end, F0, t[moving], *columns) <= 0
        # imported here: scipy.optimize costs a third of a second, and only implicit clocks need it
        from scipy.optimize.elementwise import find_root

        result = find_root(h, (start, end), args=(F0, t[moving], *columns))
        values = np.where(beyond, end, result.x)
        speed = np.asarray(
            apply(implicit.rhs, {**constants, **dict(zip(keys, columns, strict=True)), implicit.y: values}, fp),
            dtype=float,
        )
        lost = np.finfo(float).eps * (np.abs(F(values, columns)) + np.abs(F0)) * np.abs(speed)
        relative = np.max(lost / np.maximum(np.abs(values), np.abs(start)))
    check_conditioning(implicit.y, float(relative), 1e-10, 16)
    out[moving] = values
    return out


def check_conditioning(y: str, relative: float, limit: float, digits: int) -> None:
    """``ValueError`` when ``t = F(y) - F(y0)`` cancels so much that the clock ``y`` keeps fewer digits than promised
    (``relative`` is the estimated relative error at ``digits`` working digits, ``limit`` the promise); shared by
    the implicit and the quadrature clocks (``numerics.quadrature``)."""
    if not relative <= limit:
        needed = digits + int(np.ceil(np.log10(relative / limit))) + 5 if relative > 0 else digits + 20
        raise ValueError(
            f"the implicit closed form for {y} cancels at these parameters (estimated relative error "
            f"{relative:.2g} at {digits} digits): use trajectory(..., dps={max(needed, 30)}) or "
            "method='mpmath'/'scipy'"
        )


def implicit_mpmath(implicit: CompiledImplicit, env: Mapping[str, Any], t: np.ndarray) -> np.ndarray:
    """y(t) at the working mpmath precision, element by element (object arrays)."""
    y0 = np.asarray(apply(implicit.y0, env, mp), dtype=object)
    shape = np.broadcast_shapes(np.shape(t), np.shape(y0))
    fixed = [np.broadcast_to(np.asarray(apply(f, env, mp), dtype=object), shape) for f in implicit.fixed_points]
    rhs0 = np.broadcast_to(np.asarray(apply(implicit.rhs, {**env, implicit.y: y0}, mp), dtype=object), shape)
    out = np.empty(shape, dtype=object)
    arrays = {
        k: np.broadcast_to(np.asarray(v, dtype=object), shape) for k, v in env.items() if isinstance(v, np.ndarray)
    }
    scalars = {k: v for k, v in env.items() if not isinstance(v, np.ndarray)}
    y0 = np.broadcast_to(y0, shape)
    t = np.broadcast_to(np.asarray(t, dtype=object), shape)
    for index in np.ndindex(shape):
        local = {**scalars, **{k: v[index] for k, v in arrays.items()}}
        start, speed = y0[index], rhs0[index]
        if speed == 0 or t[index] == 0:
            out[index] = start
            continue
        real = [mpmath.re(p[index]) for p in fixed if mpmath.im(p[index]) == 0]  # a quadratic's roots where real
        ahead = [p for p in real if (p - start) * mpmath.sign(speed) > 0]
        if not ahead:
            raise ValueError(f"no fixed point bounds the motion of {implicit.y}: the solution leaves every bracket")
        target = min(ahead, key=lambda p: abs(p - start))

        def h(y: mpmath.mpf, local: dict = local) -> mpmath.mpf:
            return _at(implicit.antiderivative, implicit.y, y, local)

        F0 = h(start)
        end = target - (target - start) * mpmath.mpf(2) ** (-mpmath.mp.prec + 8)
        if h(end) - F0 <= t[index]:
            out[index] = end
            continue
        # bisection: robust next to the singular end, where the other bracketing methods stall
        y = mpmath.findroot(lambda y, F0=F0, ti=t[index]: h(y) - F0 - ti, (start, end), solver="bisect", verify=False)
        speed = _at(implicit.rhs, implicit.y, y, local)
        lost = mpmath.eps * (abs(h(y)) + abs(F0)) * abs(speed) / max(abs(y), abs(start))
        check_conditioning(implicit.y, float(lost), float(mpmath.mpf(10) ** (15 - mpmath.mp.dps)), mpmath.mp.dps)
        out[index] = y
    return out


def _at(f: Callable[..., object], name: str, value: Any, local: Mapping[str, Any]) -> Any:
    """A compiled function at ``name = value``, its other arguments from ``local``."""
    return f(**{n: (value if n == name else local[n]) for n in f.names})  # type: ignore[attr-defined]
