"""Input checks of the AGF modules, public so that a setting written on top of ``numerics.agf`` (a paper's
diagonal, attention or modular-addition network) refuses bad input the same way: a bad value is a ``ValueError`` and
a bad type a ``TypeError``, each naming the parameter and its admissible range.

Each check takes the parameter's ``name`` (for the message) and its ``value`` and returns the value normalised
(``float``, ``int`` or a new float array)."""

from __future__ import annotations

import numbers

import numpy as np

from ..validation import finite_array

__all__ = ["count", "init_scale", "neuron_norms", "nonnegative", "open_unit", "positive", "real_array"]


def _real_number(name: str, value: object, admissible: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number in {admissible}, got {value!r}")
    return float(value)


def positive(name: str, value: object) -> float:
    """``value`` as a float; ``TypeError`` unless a real number (``bool`` refused), ``ValueError`` unless finite
    and > 0."""
    value = _real_number(name, value, "(0, inf)")
    if not (np.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite number > 0 (admissible range: (0, inf)), got {value!r}")
    return value


def nonnegative(name: str, value: object) -> float:
    """``value`` as a float; ``TypeError`` unless a real number (``bool`` refused), ``ValueError`` unless finite
    and >= 0."""
    value = _real_number(name, value, "[0, inf)")
    if not (np.isfinite(value) and value >= 0):
        raise ValueError(f"{name} must be >= 0 (admissible range: [0, inf)), got {value!r}")
    return value


def open_unit(name: str, value: object) -> float:
    """``value`` as a float; ``TypeError`` unless a real number (``bool`` refused), ``ValueError`` unless in the
    open interval (0, 1)."""
    value = _real_number(name, value, "(0, 1)")
    if not 0 < value < 1:
        raise ValueError(f"{name} must be in the open interval (0, 1), got {value!r}")
    return value


def init_scale(alpha: object) -> float:
    """The initialization scale ``alpha`` as a float: ``open_unit("alpha", alpha)``."""
    return open_unit("alpha", alpha)


def count(name: str, value: object, low: int = 1) -> int:
    """``value`` as an int; ``TypeError`` unless an integer (``bool`` refused), ``ValueError`` if below ``low``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= {low}, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def real_array(name: str, value: object, ndim: int | None = None) -> np.ndarray:
    """``value`` as a new float array (of ``ndim`` dimensions if given, else ``ValueError``); ``TypeError`` for
    ``None``, strings and complex input (its imaginary part would be dropped silently), ``ValueError`` for NaN or
    inf (``numerics.validation.finite_array``)."""
    if value is None or isinstance(value, (str, bytes)) or np.iscomplexobj(np.asarray(value)):
        raise TypeError(f"{name} must be an array of finite real numbers, got {type(value).__name__}")
    return finite_array(name, value, ndim=ndim)


def neuron_norms(theta: np.ndarray) -> np.ndarray:
    """The Euclidean norms of the rows of ``theta`` (last axis), without underflow for tiny rows (alpha down to
    ~1e-300): max|theta_i| ||theta_i / max|theta_i|||."""
    scale = np.max(np.abs(theta), axis=-1, keepdims=True)
    safe = np.where(scale > 0, scale, 1.0)
    return scale[..., 0] * np.linalg.norm(theta / safe, axis=-1)
