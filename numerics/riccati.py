"""Numerically stable evaluation of the Riccati engine's solution, in float64 and in mpmath.

The formula is the engine's own stable Möbius form (``derivations.riccati``), lambdified once for abstract
coefficients. It covers every branch (``c2 = 0``, double root, fixed point) by continuity and contains no
root of the quadratic; of ``alpha = (k + c1)/2`` and ``beta = (k - c1)/2`` the one without cancellation is
computed directly and the other from ``alpha * beta = -c2 c0``.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np

from .arithmetic import Arithmetic, fp, mp, real_array
from .cache import Generated, artifact

if TYPE_CHECKING:
    import sympy as sp

__all__ = [
    "increment_form",
    "riccati_at",
    "riccati_increment",
    "riccati_mpmath",
    "riccati_numpy",
    "riccati_rates",
    "stable_forms",
]

COEFFICIENTS = ("c2", "c1", "c0", "y0", "t", "k", "q0")
"""Names of the abstract coefficients, the time, the rate and the start's rate of the lambdified forms."""


def _symbols() -> dict[str, sp.Symbol]:
    import sympy as sp

    return {name: sp.Symbol(name, real=True) for name in COEFFICIENTS}


def _phi1_numpy(x: np.ndarray) -> np.ndarray:
    """``(1 - e^{-x})/x = expm1(-x)/(-x)``, accurate to rounding down to the smallest ``x`` (expm1 keeps the
    digits), and 1 at 0."""
    negated = np.negative(real_array(x))
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.expm1(negated)
        value /= negated
    zero = negated == 0
    return np.where(zero, 1.0, value) if np.any(zero) else value


def _phi1_mpmath(x: mpmath.mpf) -> mpmath.mpf:
    return mpmath.mpf(1) if x == 0 else -mpmath.expm1(-x) / x


def increment_form() -> sp.Expr:
    """``y(t) - y0`` from the stable form: its numerator is ``tau q(y0)`` (``alpha - beta = c1``), so the
    increment is ``tau q0 / denominator`` with ``q0 = q(y0)`` the rate at the start, which a caller computes
    without cancellation; ``tau = t phi1(kt)``."""
    import sympy as sp

    from derivations.riccati import ALPHA, BETA, stable_form
    from derivations.special import phi1

    C2, C1, C0, Y0, T, K, Q0 = _symbols().values()
    decay, tau = sp.symbols("E tau")
    form = stable_form(C2, C0, Y0, T, K)
    pieces = {sp.exp(-K * T): decay, T * phi1(K * T): tau}
    numerator, denominator = sp.fraction(sp.together(form.subs(pieces) - Y0))
    rate = sp.cancel(sp.expand(numerator.xreplace({ALPHA: BETA + C1})) / tau)
    if sp.expand(rate - (C2 * Y0**2 + C1 * Y0 + C0)) != 0:
        raise RuntimeError(f"the stable form's increment is not tau q(y0): {rate}")
    return (tau * Q0 / denominator).xreplace({v: k for k, v in pieces.items()})


def stable_forms() -> list[sp.Expr]:
    """The expressions evaluated in ``riccati_numpy`` and ``riccati_increment``: the stable form, the rate split
    and the increment form."""
    from derivations.riccati import rate_split, stable_form

    C2, C1, C0, Y0, T, K, _ = _symbols().values()
    return [stable_form(C2, C0, Y0, T, K), *rate_split(C1, K), increment_form()]


def _compiled(ctx: Arithmetic) -> tuple[Generated, Generated, Generated]:
    """The engine's stable form, its rate split ``(alpha, beta) = ((k + c1)/2, (k - c1)/2)`` and its increment
    ``y - y0 = tau q0 / denominator`` (``increment_form``), lambdified in ``ctx`` (once, through the disk cache)."""
    return artifact("engine", f"riccati-{ctx.name}", lambda: _lambdified(ctx), tuple)


def _lambdified(ctx: Arithmetic) -> tuple[Generated, Generated, Generated]:
    import sympy as sp

    from derivations.riccati import ALPHA, BETA, rate_split, stable_form

    C2, C1, C0, Y0, T, K, Q0 = _symbols().values()
    # phi1 on arrays (machine numbers, vectorized) or on scalars (arbitrary precision, element by element)
    modules = [{"phi1": _phi1_numpy if ctx.machine else _phi1_mpmath}, ctx.modules]
    # cse: e^{-kt} and t phi1(kt) appear in the numerator and the denominator, computed once
    stable = sp.lambdify((C2, C0, Y0, T, K, ALPHA, BETA), stable_form(C2, C0, Y0, T, K), modules=modules, cse=True)
    split = sp.lambdify((C1, K), list(rate_split(C1, K)), modules=modules)
    increment = sp.lambdify((C2, Y0, T, K, BETA, Q0), increment_form(), modules=modules, cse=True)
    return Generated(stable), Generated(split), Generated(increment)


def _discriminant(c2: Any, c1: Any, c0: Any) -> Any:
    with np.errstate(over="ignore", invalid="ignore"):
        delta = c1**2 - 4 * c2 * c0
    if np.any(delta < 0):
        raise ValueError(
            "c1**2 - 4 c2 c0 must be >= 0: Riccati coefficients with a negative discriminant (finite-time blow-up) "
            "are not supported"
        )
    return delta


def _coefficients(values: Mapping[str, object]) -> list[np.ndarray]:
    """The arguments as float arrays; ``TypeError`` naming one that is not real (complex, boolean, non-numeric)."""
    arrays = []
    for name, value in values.items():
        raw = np.asarray(value)
        if raw.dtype.kind not in "iuf":
            raise TypeError(f"{name} must be real numbers (int or float, no complex or bool), got dtype {raw.dtype}")
        arrays.append(real_array(raw))
    return arrays


def _pole(k: Any, beta: Any, c2: Any, y0: Any, log1p: Callable[[Any], Any]) -> Any:
    """The solution's blow-up time (inf if none): the stable form's denominator ``e^{-kt} + tau m``,
    ``m = beta - c2 y0``, falls from 1 and vanishes only for ``m < 0``, at ``t* = log1p(k/(-m))/k`` (``-1/m`` for
    ``k = 0``; ``y0`` beyond the repelling root)."""
    m = beta - c2 * y0
    if not np.any(m < 0):
        return np.inf
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(m < 0, np.where(k > 0, log1p(k / -m) / np.where(k > 0, k, 1), -1 / m), np.inf)


def _before_blow_up(t: Any, pole: Any) -> None:
    """``ValueError`` unless every ``t`` is >= 0 and before the blow-up time ``pole`` (``_pole``)."""
    if np.any(t < 0):
        raise ValueError("t must be >= 0 (admissible range: [0, inf))")
    if np.any(t >= pole):
        raise ValueError("t must be before the blow-up of the solution (y0 beyond the repelling root), t < t*")


def riccati_numpy(c2: Any, c1: Any, c0: Any, y0: Any, t: Any) -> np.ndarray:
    """y(t) for ``y' = c2 y^2 + c1 y + c0``, broadcasting all arguments (float64; +inf past an overflow, NaN from
    NaN arguments).

    The rate and its split are computed at the coefficients' own shape (``riccati_rates``) and only the
    time-dependent part at the broadcast shape (``riccati_at``: a batch of starts times many times costs one pass
    per operation over the output).

    Arguments:
        c2, c1, c0: the Riccati coefficients, real numbers or arrays with ``c1**2 - 4 c2 c0 >= 0``.
        y0: the initial value y(0), a real number or array.
        t: the times (>= 0 and before any blow-up of the solution), a real number or array.

    Returns:
        The float64 array of y(t), of the arguments' broadcast shape.

    Raises:
        TypeError: if an argument is not real numbers (complex, boolean or non-numeric), naming it.
        ValueError: if the arguments' shapes do not broadcast, the discriminant ``c1**2 - 4 c2 c0`` is negative
            (finite-time blow-up for every start), ``t < 0``, or ``t`` is at or past the blow-up time of a start
            beyond the repelling root.
    """
    named = {"c2": c2, "c1": c1, "c0": c0, "y0": y0, "t": t}
    *coefficients, t = _coefficients(named)
    try:
        c2, c1, c0, y0 = np.broadcast_arrays(*coefficients)
        np.broadcast_shapes(c2.shape, t.shape)
    except ValueError as exc:
        shapes = {name: np.shape(v) for name, v in named.items()}
        raise ValueError(f"c2, c1, c0, y0 and t must broadcast to one shape, got {shapes}") from exc
    return riccati_at(riccati_rates(c2, c1, c0, y0), t)


def riccati_rates(c2: Any, c1: Any, c0: Any, y0: Any) -> tuple[Any, ...]:
    """The time-independent part of ``riccati_numpy`` for real arrays: ``(c2, c0, y0, k, alpha, beta, t*)``, of
    ``alpha = (k + c1)/2`` and ``beta = (k - c1)/2`` the one without cancellation computed directly and the other
    from ``alpha * beta = -c2 c0``, and the blow-up time ``t*``. ``ValueError`` for a negative discriminant."""
    c2, c1, c0, y0 = np.broadcast_arrays(*(real_array(v) for v in (c2, c1, c0, y0)))
    k = np.sqrt(_discriminant(c2, c1, c0))
    _, split, _ = _compiled(fp)
    with np.errstate(all="ignore"):
        alpha_direct, beta_direct = split(c1, k)
        big = np.where(c1 > 0, alpha_direct, beta_direct)
        small = np.where(big > 0, -c2 * c0 / np.where(big > 0, big, 1.0), 0.0)
        alpha, beta = np.where(c1 > 0, big, small), np.where(c1 > 0, small, big)
        return c2, c0, y0, k, alpha, beta, _pole(k, beta, c2, y0, np.log1p)


def riccati_at(rates: tuple[Any, ...], t: Any) -> np.ndarray:
    """``riccati_numpy`` from its time-independent part ``rates`` (``riccati_rates``) at the times ``t``
    (``ValueError`` for ``t < 0`` or at or past the blow-up)."""
    c2, c0, y0, k, alpha, beta, pole = rates
    _before_blow_up(t, pole)
    stable, _, _ = _compiled(fp)
    with np.errstate(all="ignore"):
        return real_array(stable(c2, c0, y0, t, k, alpha, beta))


def riccati_increment(c2: Any, c1: Any, c0: Any, y0: Any, t: Any, q0: Any) -> np.ndarray:
    """``y(t) - y0`` in float64 from the rate at the start ``q0 = q(y0)`` (given, so computed without
    cancellation): accurate to rounding relative to itself where ``y`` barely moves (``riccati_numpy`` minus
    ``y0`` would cancel there)."""
    c2, c1, c0, y0, q0 = np.broadcast_arrays(*(real_array(v) for v in (c2, c1, c0, y0, q0)))
    k = np.sqrt(_discriminant(c2, c1, c0))
    _, split, increment = _compiled(fp)
    with np.errstate(all="ignore"):
        alpha_direct, beta_direct = split(c1, k)
        big = np.where(c1 > 0, alpha_direct, beta_direct)
        small = np.where(big > 0, -c2 * c0 / np.where(big > 0, big, 1.0), 0.0)
        beta = np.where(c1 > 0, small, big)
        return real_array(increment(c2, y0, real_array(t), k, beta, q0))


def riccati_mpmath(c2: object, c1: object, c0: object, y0: object, t: object) -> mpmath.mpf:
    """The same solution as :func:`riccati_numpy` for scalar real numbers, in mpmath at the current
    ``mpmath.mp.dps``.

    Arguments:
        c2, c1, c0: the Riccati coefficients, finite real numbers (or ``mpmath.mpf``) with ``c1**2 - 4 c2 c0 >= 0``.
        y0: the initial value y(0), a finite real number (or ``mpmath.mpf``).
        t: the time (>= 0 and before any blow-up of the solution), a finite real number (or ``mpmath.mpf``).

    Returns:
        y(t) as an ``mpmath.mpf``.

    Raises:
        TypeError: if an argument is not a real number (``bool`` refused), naming it.
        ValueError: if an argument is not finite (naming it), the discriminant ``c1**2 - 4 c2 c0`` is negative,
            ``t < 0``, or ``t`` is at or past the blow-up time (``y0`` beyond the repelling root).
    """
    names = ("c2", "c1", "c0", "y0", "t")
    C2, C1, C0, Y0, T = (_real_mpf(name, v) for name, v in zip(names, (c2, c1, c0, y0, t), strict=True))
    k = mpmath.sqrt(_discriminant(C2, C1, C0))
    stable, split, _ = _compiled(mp)
    alpha_direct, beta_direct = split(C1, k)
    big = alpha_direct if C1 > 0 else beta_direct
    small = -C2 * C0 / big if big > 0 else mpmath.mpf(0)
    alpha, beta = (big, small) if C1 > 0 else (small, big)
    _before_blow_up(T, _pole(k, beta, C2, Y0, mpmath.log1p))
    return stable(C2, C0, Y0, T, k, alpha, beta)


def _real_mpf(name: str, value: object) -> Any:
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, mpmath.mpf)):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    number = value if isinstance(value, mpmath.mpf) else mpmath.mpf(value)
    if not mpmath.isfinite(number):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return number
