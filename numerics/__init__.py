"""Fast and high-precision numerics for the derived models: closed forms, integrators, gradient descent.

The public functions are imported on first use, so that ``import numerics`` stays cheap and a closed form found in
the disk cache (``numerics.cache``) is evaluated without importing SymPy.
"""

from importlib import import_module
from typing import TYPE_CHECKING

# the evaluators of the catalogue's clocks register at import (numerics.clocks); none imports SymPy
from . import bessel as _bessel  # noqa: F401
from . import modes as _modes  # noqa: F401

if TYPE_CHECKING:  # the static view of the lazy imports below, so that type checkers know the functions' signatures
    from ._trajectory import trajectory
    from .alternating import agf
    from .power_activation import reduced_trajectory
    from .riccati import riccati_mpmath, riccati_numpy

__all__ = [
    "DOP853",
    "ClosedForm",
    "GradientDescent",
    "MPMath",
    "Taylor",
    "agf",
    "reduced_trajectory",
    "riccati_mpmath",
    "riccati_numpy",
    "trajectory",
]

_HOMES = {
    "ClosedForm": ".methods",
    "DOP853": ".methods",
    "GradientDescent": ".methods",
    "MPMath": ".methods",
    "Taylor": ".methods",
    "agf": ".alternating",
    "reduced_trajectory": ".power_activation",
    "riccati_mpmath": ".riccati",
    "riccati_numpy": ".riccati",
    "trajectory": "._trajectory",
}


def __getattr__(name: str) -> object:
    if name not in _HOMES:
        raise AttributeError(f"module 'numerics' has no attribute {name!r}")
    value = getattr(import_module(_HOMES[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
