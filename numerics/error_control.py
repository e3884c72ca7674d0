r"""The mixed error control of the two Taylor-series integrators (``method="taylor"``, ``method="mpmath"``): each
state component is integrated in units of its own scale, so that a start of any magnitude keeps its digits.

Both step-size controls are absolute for a state of norm below 1 (heyoka: ``tol · max(1, ‖y‖∞)``;
``mpmath.odefun``: ``tol / |c_n|`` on the last Taylor coefficient). On the state itself a start of 1e-40 would
then be integrated to an absolute 1e-16, i.e. not at all (the saddle of the scalar network from ``a = 1e-40,
b = 0`` never left it), and one of 1e-66 by ``mpmath.odefun`` was off by 1e17. The integrators therefore
integrate :math:`u_i = y_i / s_i` with a scale :math:`s_i = 2^{e_i}` per component (exact to apply and to undo,
in every precision), kept within a factor of a few of :math:`|y_i|` (:class:`Scales`), so that the local error
of a step, ``tol`` in absolute terms on ``u``, is on the state

.. math:: \text{err}_i \le \text{atol}_i + \text{rtol}\,|y_i|, \qquad
          \text{atol}_i = \text{rtol}\; 2^{-b} M_{\text{unit}(i)},

up to a factor of a few, with ``rtol`` the type's tolerance (its epsilon, ``2^-b``) and :math:`M_{\text{unit}(i)}`
the largest :math:`|y_j|` that any component ``j`` of ``i``'s unit has reached so far: the floor is taken from
the trajectory itself, never a fixed number. So a tiny component is resolved relative to its own size, however
large the other units are (the saddle's tiny ``a`` and the ``b = 0`` it drives), and so is a unit that decays as
a whole (a deep chain settling like 1/t), down to the rounding level of its unit's largest value; only a
component crossing or approaching 0 while its unit stays large is resolved in absolute terms there.

A component that is exactly zero keeps its scale, at the start the smallest nonzero :math:`|y|` of its unit,
else of the start; a start that is zero everywhere takes the scales of the state that a first trial step
reaches (the distance it moves), else 1 (a start at rest).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import mpmath
import numpy as np

__all__ = ["GROWTH", "SHRINK", "Scales", "exponent", "initial_exponents"]

GROWTH = 2.0
"""``|u_i|`` above which a component's scale is raised (Taylor integrators check it after each step)."""
SHRINK = 0.25
"""``|u_i|`` below which a component's scale is lowered (unless it is at its floor)."""
_NONE = -(2**62)
"""The exponent of the largest value of a component that has been zero so far."""


def exponent(value: Any) -> int:
    """The binary exponent ``e`` of a nonzero ``value`` (float, ``np.longdouble`` or ``mpmath.mpf``) with
    ``|value| / 2^e`` in [1/2, 1)."""
    if isinstance(value, mpmath.mpf):
        return int(mpmath.frexp(value)[1])
    if isinstance(value, np.floating) and not isinstance(value, np.float64):
        return int(np.frexp(value)[1])
    return math.frexp(float(value))[1]


def initial_exponents(values: Sequence[Any], width: int) -> list[int] | None:
    """The scales' exponents of a start ``values`` (components packed by state then unit, ``width`` units; the
    unit of component ``k`` is ``k % width``): a nonzero component's own, a zero one's the smallest of its unit's
    nonzero components, else of the start's. None if the whole start is zero (the caller then takes them from a
    first trial step, and 0 if that stays at zero)."""
    own = [None if v == 0 else exponent(v) for v in values]
    known = [e for e in own if e is not None]
    if not known:
        return None
    smallest = min(known)
    by_unit: dict[int, int] = {}
    for k, e in enumerate(own):
        if e is not None:
            by_unit[k % width] = min(by_unit.get(k % width, e), e)
    return [e if e is not None else by_unit.get(k % width, smallest) for k, e in enumerate(own)]


class Scales:
    """The scales ``2^e_k`` of one start's components (packed by state then unit, ``width`` units) in a type of
    ``bits`` significant bits, whose exponents stay within ``limits`` (a scale's inverse must be representable).

    ``exponents`` are the current ones; :meth:`update` moves them after a step to the values reached, in scaled
    units, and returns the shifts to apply to those values (``u_k / 2^shift_k``, exact)."""

    def __init__(self, start: Sequence[int], values: Sequence[Any], width: int, bits: int, limits: tuple[int, int]):
        self.width, self.bits, self.limits = width, bits, limits
        self.exponents = np.clip(np.array(start, dtype=np.int64), *limits)
        self.largest = np.array([_NONE if v == 0 else exponent(v) for v in values], dtype=np.int64)
        self.units = np.arange(len(self.exponents)) % width
        self._set_lower()

    def floors(self) -> np.ndarray:
        """Per component, the exponent of its floor: ``bits`` below its unit's largest value so far."""
        unit_largest = np.full(self.width, _NONE, dtype=np.int64)
        np.maximum.at(unit_largest, self.units, self.largest)
        floors = unit_largest[self.units] - self.bits
        return np.where(unit_largest[self.units] == _NONE, self.exponents, floors)

    def _set_lower(self) -> None:
        # outside() runs after every step of heyoka's: the floors change only in update, so its thresholds are
        # kept from there (a scale at its floor never shrinks: threshold 0)
        self._lower = np.where(self.exponents > self.floors(), SHRINK, 0.0)
        self._lower_list = self._lower.tolist()

    def outside(self, sizes: np.ndarray | list[float]) -> bool:
        """Whether the scaled magnitudes ``sizes`` (floats; a list may hold signed values) call for new scales: one
        above :data:`GROWTH`, or a nonzero one below :data:`SHRINK` whose scale is above its floor (not finite: left
        to the integrator)."""
        if isinstance(sizes, list):  # a few Python floats (signed): numpy's per-call cost would be most of a step
            for value, low in zip(sizes, self._lower_list, strict=True):
                size = -value if value < 0 else value
                if (GROWTH < size < math.inf) or (0 < size < low):
                    return True
            return False
        above = (sizes > GROWTH) & (sizes < math.inf)
        return bool(above.any() or ((sizes < self._lower) & (sizes > 0)).any())

    def update(self, values: Sequence[Any]) -> np.ndarray:
        """New exponents for the scaled values ``values`` (floats or mpf): each nonzero component's own
        magnitude, at least its floor; a zero one keeps its scale. Returns the shifts ``new - old``."""
        moving = np.array([v != 0 and _finite(v) for v in values], dtype=bool)
        own = self.exponents + np.array([exponent(v) if m else 0 for v, m in zip(values, moving, strict=True)])
        self.largest = np.where(moving, np.maximum(self.largest, own), self.largest)
        target = np.where(moving, np.maximum(own, self.floors()), self.exponents)
        target = np.clip(target, *self.limits)
        shifts = target - self.exponents
        self.exponents = target
        self._set_lower()
        return shifts


def _finite(value: Any) -> bool:
    return bool(mpmath.isfinite(value)) if isinstance(value, mpmath.mpf) else bool(np.isfinite(value))
