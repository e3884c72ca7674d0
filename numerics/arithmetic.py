"""Arithmetic contexts of the numerics (after mpmath's ``fp`` and ``mp``): one object per arithmetic.

A context says how numbers of its arithmetic are made (:meth:`Arithmetic.number`, :meth:`Arithmetic.numbers`),
how a lambdified function is generated and called on arrays (:attr:`Arithmetic.modules`, :meth:`Arithmetic.call`)
and at which precision it works (:meth:`Arithmetic.precision`); its :attr:`Arithmetic.name` is the stable text
that keys its compiled artifacts in the disk cache (``numerics.cache``). Two contexts are built in:

- :data:`fp`: float64 numpy arrays, vectorized (``machine``: a bounded exponent range, so the float64 code paths
  check finiteness, rescale and block their evaluations);
- :data:`mp`: object arrays of ``mpmath.mpf`` evaluated element by element at a working precision; ``mp.at(dps)``
  is the same arithmetic at ``dps`` digits.

A new arithmetic is one subclass of :class:`Arithmetic`. Code that outside callers reach still accepts the legacy
names ``"numpy"`` and ``"mpmath"``, resolved by :func:`arithmetic`.
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import mpmath
import numpy as np

__all__ = ["FP", "MP", "Arithmetic", "arithmetic", "fp", "mp", "mp_vectorize", "real_array", "to_mpf"]


def real_array(value: object) -> np.ndarray:
    """``value`` as a float64 array, or as a long double one if it is one (the closed form's extended-precision
    pass, ``numerics.closed_form``, runs the float64 code on long doubles)."""
    array = np.asarray(value)
    return array if array.dtype == np.longdouble else np.asarray(array, dtype=float)


def to_mpf(array: object) -> np.ndarray:
    """An object array of ``mpmath.mpf`` (exact conversion of float64 values; ``mpf`` entries are kept)."""
    values = np.asarray(array)
    converted: np.ndarray = np.frompyfunc(mpmath.mpf, 1, 1)(values if values.dtype == object else values.astype(float))
    return converted


def mp_vectorize(f: Callable[..., object]) -> Callable[..., Any]:
    """Broadcast a scalar mpmath callable over object arrays (keyword arguments), for any number of arguments.

    The arguments are broadcast together and ``f`` is called once per element: ``np.frompyfunc`` would cap the
    number of arguments at numpy's 64 operands, which a linear network of width 5 already exceeds.
    """

    def call(**values: object) -> Any:
        if not values:
            return np.asarray(f())
        names = list(values)
        arrays = np.broadcast_arrays(*(np.asarray(values[n], dtype=object) for n in names))
        out = np.empty(arrays[0].shape, dtype=object)
        for index in np.ndindex(out.shape):
            out[index] = f(**{n: a[index] for n, a in zip(names, arrays, strict=True)})
        return out if out.ndim else out[()]

    return call


class Arithmetic(ABC):
    """An arithmetic the numerics compute in. Subclasses set :attr:`name` (the disk cache's key text),
    :attr:`modules` (``sympy.lambdify``'s modules), :attr:`machine` and implement the conversions."""

    name: ClassVar[str]
    """Stable text naming the arithmetic in cache keys (``"numpy"``, ``"mpmath"``) and in messages."""
    modules: ClassVar[str]
    """The ``modules`` argument of ``sympy.lambdify`` for this arithmetic."""
    machine: ClassVar[bool]
    """Whether numbers are a machine type with a bounded exponent range, evaluated by vectorized numpy calls
    (then results are checked finite, scale-invariant quantities rescaled, long evaluations blocked, and the
    closed form runs its blocked float64 kernel); False for element-by-element arbitrary precision."""

    @abstractmethod
    def number(self, value: object) -> Any:
        """``value`` (a Python or numpy number) as a scalar of this arithmetic."""

    @abstractmethod
    def numbers(self, values: object) -> np.ndarray:
        """``values`` (an array or number) converted to an array of this arithmetic's numbers."""

    @abstractmethod
    def array(self, values: object) -> np.ndarray:
        """``values``, already numbers of this arithmetic, as an array (no conversion of its entries)."""

    @abstractmethod
    def call(self, f: Callable[..., object], arguments: dict[str, object]) -> Any:
        """``f(**arguments)`` on arrays: a lambdified function of this arithmetic applied element by element."""

    def zeros(self, n: int) -> np.ndarray:
        """An array of ``n`` zeros of this arithmetic."""
        return self.numbers(np.zeros(n))

    def env(self, values: dict[str, object]) -> dict[str, object]:
        """An environment of arrays and numbers (names to values) converted to this arithmetic."""
        return {k: (self.numbers(v) if isinstance(v, np.ndarray) else self.number(v)) for k, v in values.items()}

    @contextlib.contextmanager
    def precision(self) -> Iterator[None]:
        """A context in which this arithmetic works at its precision (nothing to set for machine numbers)."""
        yield

    def __repr__(self) -> str:
        return type(self).__name__.lower()


class FP(Arithmetic):
    """float64 numpy arrays (long double ones pass through: the closed form's extended pass)."""

    name = "numpy"
    modules = "numpy"
    machine = True

    def number(self, value: object) -> float:
        return float(value)  # type: ignore[arg-type]  # a number, by the contract of the caller

    def numbers(self, values: object) -> np.ndarray:
        return real_array(values)

    def array(self, values: object) -> np.ndarray:
        return real_array(values)

    def call(self, f: Callable[..., object], arguments: dict[str, object]) -> np.ndarray:
        with np.errstate(over="ignore"):
            return real_array(f(**arguments))

    def __repr__(self) -> str:
        return "fp"


@dataclass(frozen=True, repr=False)
class MP(Arithmetic):
    """Object arrays of ``mpmath.mpf`` at ``dps`` working digits (None: mpmath's current precision)."""

    dps: int | None = None
    name: ClassVar[str] = "mpmath"
    modules: ClassVar[str] = "mpmath"
    machine: ClassVar[bool] = False

    def at(self, dps: int | None) -> MP:
        """This arithmetic at ``dps`` working digits."""
        return MP(dps)

    def number(self, value: object) -> mpmath.mpf:
        return mpmath.mpf(value)

    def numbers(self, values: object) -> np.ndarray:
        return to_mpf(values)

    def array(self, values: object) -> np.ndarray:
        return np.asarray(values, dtype=object)

    def call(self, f: Callable[..., object], arguments: dict[str, object]) -> Any:
        return mp_vectorize(f)(**arguments)

    @contextlib.contextmanager
    def precision(self) -> Iterator[None]:
        if self.dps is None:
            yield
            return
        with mpmath.workdps(self.dps):
            yield

    def __repr__(self) -> str:
        return "mp" if self.dps is None else f"mp.at({self.dps})"


fp = FP()
"""float64 numpy arithmetic."""
mp = MP()
"""mpmath arithmetic at the current working precision; ``mp.at(dps)`` at ``dps`` digits."""

_LEGACY = {fp.name: fp, mp.name: mp}


def arithmetic(value: Arithmetic | str) -> Arithmetic:
    """The context ``value`` (returned as is), or the one of a legacy backend name (``"numpy"``: :data:`fp`,
    ``"mpmath"``: :data:`mp`).

    Raises:
        ValueError: for any other string; TypeError for anything else."""
    if isinstance(value, Arithmetic):
        return value
    if isinstance(value, str):
        if value in _LEGACY:
            return _LEGACY[value]
        raise ValueError(f"backend must be an Arithmetic or one of {list(_LEGACY)}, got {value!r}")
    raise TypeError(f"backend must be an Arithmetic or one of {list(_LEGACY)}, got {type(value).__name__}")
