"""Terminal events of the AGF integrators, typed: ``solve_ivp`` reads ``terminal`` and ``direction`` as attributes of
the event function, which a plain function only gets by monkey-patching."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["StopFalling"]


@dataclass(frozen=True)
class StopFalling:
    """A ``solve_ivp`` event that stops the integration where ``function(t, y)`` crosses 0 from above."""

    function: Callable[[float, np.ndarray], float]
    terminal: bool = True
    direction: float = -1.0

    def __call__(self, t: float, y: np.ndarray) -> float:
        return self.function(t, y)
