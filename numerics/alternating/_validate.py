"""Input checks shared by the AGF modules: every bad input is a ``ValueError`` naming the parameter."""

from __future__ import annotations

import numpy as np

from ..validation import finite_array

__all__ = ["finite_array", "init_scale", "neuron_norms", "positive"]


def init_scale(alpha: float) -> float:
    """The initialization scale alpha, admissible range (0, 1)."""
    if not (isinstance(alpha, (int, float, np.floating)) and 0 < alpha < 1):
        raise ValueError(f"alpha must be in the open interval (0, 1), got {alpha!r}")
    return float(alpha)


def neuron_norms(theta: np.ndarray) -> np.ndarray:
    """Row norms without underflow for tiny rows (alpha down to ~1e-300): max|theta_i| ||theta_i / max|theta_i|||."""
    scale = np.max(np.abs(theta), axis=-1, keepdims=True)
    safe = np.where(scale > 0, scale, 1.0)
    return scale[..., 0] * np.linalg.norm(theta / safe, axis=-1)


def positive(name: str, value: float) -> float:
    """A finite scalar > 0."""
    if not (isinstance(value, (int, float, np.floating)) and np.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite number > 0 (admissible range: (0, inf)), got {value!r}")
    return float(value)
