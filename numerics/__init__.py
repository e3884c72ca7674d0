"""Fast and high-precision numerics for the derived models: closed forms, integrators, gradient descent."""

from .alternating import agf
from .phase import phase
from .power_activation import reduced_trajectory
from .riccati import riccati_mpmath, riccati_numpy
from .trajectory import trajectory

__all__ = ["agf", "phase", "reduced_trajectory", "riccati_mpmath", "riccati_numpy", "trajectory"]
