r"""Evaluate the Bessel clocks of ``derivations.forced_riccati`` (:math:`\dot y = c_2y^2 + c_1y + c_0 + c_3e^{kt}`,
:math:`c_2c_3 \le 0`) in float64 and in mpmath.

The formula is the derivation's stable form (proved equal to the derived solution there),

.. math:: y = -\frac{(c_1 + \sigma k\nu) + kX_\sigma}{2c_2},\qquad
          X_\sigma = \frac{p\,r\,sI_{\nu+\sigma}/I_\nu + q\,sK_{\nu+\sigma}/K_\nu}{p\,r - q},\qquad
          r = \frac{I_\nu(s)K_\nu(s_0)}{I_\nu(s_0)K_\nu(s)},

:math:`s = s_0e^{kt/2}`, divided through by :math:`r` where :math:`s > s_0` so that the ratio in use is at most 1.
In float64 every Bessel function enters through the exponentially scaled ``scipy.special.ive``, ``kve`` (the scale
factors cancel in the ratios, and :math:`r` carries :math:`e^{2(s-s_0)}` explicitly): large arguments neither
overflow nor lose the ratio. Where a scaled value still under- or overflows (a large order at a small argument), those
entries are evaluated by the mpmath path at 30 digits. :math:`\sigma = -\operatorname{sign}(c_1k)` makes
:math:`c_1 + \sigma k\nu` the small one of :math:`c_1 \pm k\nu`, computed as :math:`4c_2c_0/(c_1 - \sigma k\nu)`.
The unforced entries (:math:`c_3 = 0`) are the constant-coefficient Riccati solution (``numerics.riccati``).

The float64 result comes with a first-order bound on its rounding error (the cancellations in :math:`p`, :math:`q`,
:math:`X` and :math:`y`); above ``FLOAT64_LIMIT`` the evaluation is refused with a ``ValueError`` that names the
precision to use instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np

from .arithmetic import Arithmetic
from .clocks import register_clock
from .compiled import Lambdified, lambdified
from .evaluate import apply
from .riccati import riccati_mpmath, riccati_numpy

if TYPE_CHECKING:
    from derivations.forced_riccati import BesselSolution

__all__ = ["FLOAT64_LIMIT", "CompiledBessel", "bessel_mpmath", "bessel_numpy", "compile_bessel"]

FLOAT64_LIMIT = 1e-11
"""Largest estimated relative rounding error of a float64 value accepted."""
NAMES = ("c2", "c1", "c0", "c3", "k", "y0")
"""The coefficients, in the order the evaluators take them."""
_FALLBACK_DPS = 30


@dataclass(frozen=True)
class CompiledBessel:
    """A compiled Bessel clock: the coefficients ``c2, c1, c0, c3, k`` and the start ``y0`` as callables of the
    evaluation environment; ``clock`` names the clock symbol."""

    clock: str
    coefficients: tuple[Lambdified, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """``(clock,)``."""
        return (self.clock,)

    def values(self, env: Mapping[str, Any], t: np.ndarray, ctx: Arithmetic) -> dict[str, Any]:
        """The clock at the times ``t`` (shape (T, 1, 1)) for the starts in ``env``: (T, batch, 1) or broadcastable."""
        values = [apply(f, env, ctx) for f in self.coefficients]
        if ctx.machine:
            c2, c1, c0, c3, k, y0 = values
            return {self.clock: bessel_numpy(c2, c1, c0, c3, k, y0, t)}
        return {self.clock: _elementwise(values, t)}


def compile_bessel(solution: BesselSolution, ctx: Arithmetic) -> CompiledBessel:
    """The compiled clock of ``solution`` in ``ctx`` (registered with ``numerics.clocks``)."""
    import sympy as sp

    exprs = (*solution.coefficients, solution.y0)
    return CompiledBessel(str(solution.y), tuple(lambdified(sp.sympify(e, strict=True), ctx) for e in exprs))


register_clock("derivations.forced_riccati.BesselSolution", compile_bessel)


@dataclass(frozen=True)
class _Functions:
    """The scaled Bessel functions and the exponential of one arithmetic (vectorized over arrays)."""

    ive: Callable[[Any, Any], Any]
    kve: Callable[[Any, Any], Any]
    exp: Callable[[Any], Any]


def _scipy() -> _Functions:
    # imported here: scipy.special is needed only by Bessel clocks
    from scipy import special

    return _Functions(special.ive, special.kve, np.exp)


def _mpmath() -> _Functions:
    def ive(nu: Any, x: Any) -> Any:
        return mpmath.besseli(nu, x) * mpmath.exp(-x)

    def kve(nu: Any, x: Any) -> Any:
        return mpmath.besselk(nu, x) * mpmath.exp(x)

    return _Functions(np.frompyfunc(ive, 2, 1), np.frompyfunc(kve, 2, 1), np.frompyfunc(mpmath.exp, 1, 1))


@dataclass(frozen=True)
class _Pieces:
    """The stable form's parts at each (time, start): ``y`` and the magnitudes the rounding bound needs."""

    y: Any
    denominator: Any
    bound: Any


def _stable(coefficients: tuple[Any, ...], t: Any, f: _Functions, where: Callable[..., Any], eps: float) -> _Pieces:
    """The stable form of the module docstring, in the arithmetic of ``f`` (``where`` selects elementwise), with a
    first-order bound on its relative rounding error for the unit roundoff ``eps``."""
    c2, c1, c0, c3, k, y0 = coefficients
    absolute = abs(k)
    nu = (c1 * c1 - 4 * c2 * c0) ** 0.5 / absolute
    s0 = 2 * (-c2 * c3) ** 0.5 / absolute
    s = s0 * f.exp(k * t / 2)
    sigma = where(c1 * k > 0, -1, 1)
    # of c1 -+ k nu the one that cancels is 4 c2 c0 over the other (their product is c1^2 - k^2 nu^2 = 4 c2 c0)
    big = c1 - sigma * k * nu
    small = where(big != 0, 4 * c2 * c0 / where(big != 0, big, 1), c1 + sigma * k * nu)
    plus, minus = where(sigma > 0, small, big), where(sigma > 0, big, small)  # c1 + k nu, c1 - k nu
    iv0, kv0 = f.ive(nu, s0), f.kve(nu, s0)
    # p = L_K(s0) - w0, q = L_I(s0) - w0 (derivations.forced_riccati.start_ratios)
    kr0, ir0 = s0 * f.kve(nu - 1, s0) / kv0, s0 * f.ive(nu + 1, s0) / iv0
    p = (minus + 2 * c2 * y0) / k - kr0
    q = (plus + 2 * c2 * y0) / k + ir0
    iv, kv = f.ive(nu, s), f.kve(nu, s)
    ri = s * f.ive(nu + sigma, s) / iv
    rk = s * f.kve(nu + sigma, s) / kv
    below = s <= s0
    # I_nu(s) K_nu(s0) / (I_nu(s0) K_nu(s)) where s <= s0, its reciprocal elsewhere: at most 1 either way
    ratio = where(below, (iv * kv0) / (iv0 * kv), (kv * iv0) / (kv0 * iv)) * f.exp(-2 * abs(s - s0))
    first, second = where(below, p * ratio, p), where(below, q, q * ratio)
    numerator = first * ri + second * rk
    denominator = first - second
    X = numerator / denominator
    top = small + k * X
    y = -top / (2 * c2)
    # first-order rounding: p and q cancel against w0, X's numerator and denominator against themselves, y's top
    in_pq = (abs(minus) + abs(2 * c2 * y0) + abs(k * kr0)) / abs(k * p) + (
        abs(plus) + abs(2 * c2 * y0) + abs(k * ir0)
    ) / abs(k * q)
    in_X = (abs(first * ri) + abs(second * rk)) / abs(numerator) + (abs(first) + abs(second)) / abs(denominator)
    bound = eps * (abs(small) + abs(k * X) * (8 + in_pq + in_X)) / abs(top) + 8 * eps
    return _Pieces(y, denominator, bound)


def _checked(coefficients: list[Any], t: Any) -> tuple[np.ndarray, ...]:
    """The coefficients and times as float arrays, or ``ValueError``/``TypeError`` naming the argument."""
    arrays = []
    for name, value in zip((*NAMES, "t"), (*coefficients, t), strict=True):
        raw = np.asarray(value)
        if raw.dtype.kind not in "iuf":
            raise TypeError(f"{name} must be real numbers (int or float), got dtype {raw.dtype}")
        array = np.asarray(raw, dtype=float)
        if not np.all(np.isfinite(array)):
            raise ValueError(f"{name} must be finite")
        arrays.append(array)
    c2, c1, c0, c3, k, y0, t = arrays
    if np.any(t < 0):
        raise ValueError("t must be >= 0")
    _admissible(c2, c1, c0, c3, k)
    return c2, c1, c0, c3, k, y0, t


def _admissible(c2: Any, c1: Any, c0: Any, c3: Any, k: Any) -> None:
    """``ValueError`` outside the derivation's assumptions."""
    if np.any(c2 == 0):
        raise ValueError("c2 must be non-zero (c2 = 0 is a linear equation, not covered by the Bessel form)")
    if np.any(k == 0):
        raise ValueError("k must be non-zero (no forcing rate)")
    if np.any(c1 * c1 - 4 * c2 * c0 < 0):
        raise ValueError("c1**2 - 4 c2 c0 must be >= 0 (an imaginary Bessel order is not supported)")
    if np.any(c2 * c3 > 0):
        raise ValueError("c2 c3 must be <= 0 (c2 c3 > 0: ordinary Bessel functions, a pole in finite time)")


def bessel_numpy(c2: Any, c1: Any, c0: Any, c3: Any, k: Any, y0: Any, t: Any) -> np.ndarray:
    """y(t) of ``y' = c2 y^2 + c1 y + c0 + c3 e^{k t}``, ``y(0) = y0``, in float64, broadcasting every argument.

    Arguments:
        c2, c1, c0, c3, k: the coefficients (``c2 != 0``, ``k != 0``, ``c2 c3 <= 0``, ``c1^2 >= 4 c2 c0``).
        y0: the start.
        t: the times (>= 0).

    Returns:
        y at the broadcast shape.

    Raises:
        TypeError: an argument is not real.
        ValueError: an argument outside the assumptions, a pole of y before ``t`` (the stable form's denominator
            changes sign), or a value whose estimated rounding error exceeds ``FLOAT64_LIMIT``.
    """
    c2, c1, c0, c3, k, y0, t = np.broadcast_arrays(*_checked([c2, c1, c0, c3, k, y0], t))
    out = np.empty(c2.shape)
    unforced = c3 == 0
    if np.any(unforced):
        out[unforced] = riccati_numpy(c2[unforced], c1[unforced], c0[unforced], y0[unforced], t[unforced])
    forced = ~unforced
    if not np.any(forced):
        return out
    args = tuple(v[forced] for v in (c2, c1, c0, c3, k, y0))
    with np.errstate(all="ignore"):
        pieces = _stable(args, t[forced], _scipy(), np.where, float(np.finfo(float).eps))
        values, bound = np.asarray(pieces.y, dtype=float), np.asarray(pieces.bound, dtype=float)
        lost = ~(np.isfinite(values) & np.isfinite(bound))
    if np.any(pieces.denominator[~lost] >= 0):
        raise ValueError("y has a pole before t (phi = e^{c1 t/2} psi vanishes): no finite solution there")
    if np.any(lost):
        # a scaled Bessel value under- or overflowed (a large order at a small argument): mpmath at 30 digits
        with mpmath.workdps(_FALLBACK_DPS):
            fallback = _elementwise([to[lost] for to in args], t[forced][lost])
        values[lost] = np.asarray(fallback, dtype=float)
        bound[lost] = 0.0
        if not np.all(np.isfinite(values[lost])):
            raise ValueError("y(t) is not representable in float64 here: use trajectory(..., dps=30)")
    worst = float(np.max(bound))
    if worst > FLOAT64_LIMIT:
        raise ValueError(
            f"the Bessel closed form cancels in float64 at these values (estimated relative error {worst:.2g}): "
            "use trajectory(..., dps=30) or method='mpmath'/'scipy'"
        )
    out[forced] = values
    return out


def _elementwise(coefficients: list[Any], t: Any) -> np.ndarray:
    """y(t) at the working mpmath precision for arrays of coefficients and times (object arrays), broadcast."""
    arrays = np.broadcast_arrays(*(np.asarray(v, dtype=object) for v in (*coefficients, t)))
    out = np.empty(arrays[0].shape, dtype=object)
    for index in np.ndindex(out.shape):
        out[index] = bessel_mpmath(*(a[index] for a in arrays))
    return out


def bessel_mpmath(c2: Any, c1: Any, c0: Any, c3: Any, k: Any, y0: Any, t: Any) -> Any:
    """The same solution for scalar real numbers at the current ``mpmath.mp.dps`` (evaluated with 10 guard digits;
    the same errors as ``bessel_numpy``, and ``ValueError`` at a pole).

    Arguments:
        c2, c1, c0, c3, k, y0, t: as for ``bessel_numpy``, scalars.

    Returns:
        y(t) as an ``mpmath.mpf``.
    """
    numbers = [mpmath.mpf(v) for v in (c2, c1, c0, c3, k, y0, t)]
    for name, value in zip((*NAMES, "t"), numbers, strict=True):
        if not mpmath.isfinite(value):
            raise ValueError(f"{name} must be finite")
    c2, c1, c0, c3, k, y0, t = numbers
    if t < 0:
        raise ValueError("t must be >= 0")
    _admissible(c2, c1, c0, c3, k)
    if c3 == 0:
        return riccati_mpmath(c2, c1, c0, y0, t)
    with mpmath.workdps(mpmath.mp.dps + 10):
        pieces = _stable((c2, c1, c0, c3, k, y0), t, _mpmath(), _select, float(mpmath.eps))
        if pieces.denominator >= 0:
            raise ValueError("y has a pole before t (phi = e^{c1 t/2} psi vanishes): no finite solution there")
        value = pieces.y
    return +value


def _select(condition: Any, yes: Any, no: Any) -> Any:
    """``np.where`` for scalars."""
    return yes if condition else no
