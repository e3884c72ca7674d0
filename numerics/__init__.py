"""Fast and high-precision numerics for the derived models: closed forms, integrators, gradient descent.

The public functions are imported on first use, so that ``import numerics`` stays cheap and a closed form found in
the disk cache (``numerics.cache``) is evaluated without importing SymPy.
"""

import sys
import types
from importlib import import_module

__all__ = ["agf", "phase", "reduced_trajectory", "riccati_mpmath", "riccati_numpy", "trajectory"]

_HOMES = {
    "agf": ".alternating",
    "phase": ".phase",
    "reduced_trajectory": ".power_activation",
    "riccati_mpmath": ".riccati",
    "riccati_numpy": ".riccati",
    "trajectory": ".trajectory",
}


def __getattr__(name: str) -> object:
    if name not in _HOMES:
        raise AttributeError(f"module 'numerics' has no attribute {name!r}")
    value = getattr(import_module(_HOMES[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Namespace(types.ModuleType):
    """Keeps a public function that shares its submodule's name (``numerics.phase``) when that submodule is
    imported: the import system would otherwise bind the module over the function."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _HOMES and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Namespace
