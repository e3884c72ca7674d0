"""Fast and high-precision numerics for the derived models: closed forms, integrators, gradient descent."""

from .riccati import riccati_mpmath, riccati_numpy
from .trajectory import trajectory

__all__ = ["riccati_mpmath", "riccati_numpy", "trajectory"]
