"""Evaluators of the clocks a catalogue method derives (``derivations.catalogue``), one per kind of solution.

The Riccati clocks (``numerics.riccati``) and the implicit ones (``numerics.implicit``) have their own paths in
``numerics.closed_form``, tuned to them. Every other kind of clock solution registers a *compiler* here
(``register_clock``): called with the solution and an arithmetic, it returns a :class:`CompiledClock`, whose
``values`` give the clock symbols' values at the times from the evaluation environment (the initial values, the
parameters, the coordinates and the sums, as arrays with the units on the last axis).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import numpy as np

from .arithmetic import Arithmetic

__all__ = ["CompiledClock", "compile_clock", "register_clock", "registered"]


class CompiledClock(Protocol):
    """A compiled clock solution: ``names`` are the clock symbols it gives (as strings)."""

    @property
    def names(self) -> tuple[str, ...]: ...

    def values(self, env: Mapping[str, Any], t: np.ndarray, ctx: Arithmetic) -> dict[str, Any]:
        """Each clock symbol's values at the times ``t`` (shape (T, 1, 1)): arrays broadcasting to
        (T, batch, p) (or (T, batch, 1) for a clock shared by the units), in the arithmetic ``ctx``."""
        ...


_COMPILERS: dict[str, Callable[[Any, Arithmetic], CompiledClock]] = {}


def _qualified(kind: type) -> str:
    return f"{kind.__module__}.{kind.__qualname__}"


def _builtin() -> None:
    """Register the package's own evaluators (the quadrature clocks, ``numerics.quadrature``) on the first
    compilation: registering them at ``import numerics`` would import SymPy, which a closed form read from the
    disk cache never needs."""
    if _BUILTIN_DONE:
        return
    from derivations.quadrature import QuadratureSolution

    from .quadrature import compile_quadrature

    _BUILTIN_DONE.append(True)
    register_clock(QuadratureSolution, compile_quadrature)


_BUILTIN_DONE: list[bool] = []


def register_clock(kind: type | str, compiler: Callable[[Any, Arithmetic], CompiledClock]) -> None:
    """Register how to compile a kind of clock solution.

    Arguments:
        kind: the class of the solution (e.g. ``derivations.quadrature.QuadratureSolution``), or its qualified
            name (``"derivations.modes.AlignedModes"``), so that a numerics module registers its evaluator at
            import without importing the class's module (and SymPy).
        compiler: called with a solution of that class and an arithmetic, returns its ``CompiledClock``.

    Raises:
        TypeError: ``kind`` is not a class or a dotted name, or ``compiler`` is not callable.
        ValueError: another compiler is registered for ``kind``.
    """
    if isinstance(kind, str) and "." in kind:
        key = kind
    elif isinstance(kind, type):
        key = _qualified(kind)
    else:
        raise TypeError(f"kind must be a class or its qualified name 'module.Class', got {kind!r}")
    if not callable(compiler):
        raise TypeError(f"compiler must be callable, got {type(compiler).__name__}")
    known = _COMPILERS.get(key)
    if known is not None and known is not compiler:
        raise ValueError(f"a different compiler is already registered for {key}")
    _COMPILERS[key] = compiler


def registered(solution: object) -> bool:
    """Whether a compiler is registered for the class of ``solution``."""
    _builtin()
    return _qualified(type(solution)) in _COMPILERS


def compile_clock(solution: object, ctx: Arithmetic) -> CompiledClock:
    """The compiled form of ``solution`` in the arithmetic ``ctx``.

    Raises:
        ValueError: no compiler is registered for its class (the closed form cannot be evaluated numerically).
    """
    _builtin()
    compiler = _COMPILERS.get(_qualified(type(solution)))
    if compiler is None:
        raise ValueError(
            f"no numerical evaluator is registered for clocks of kind {type(solution).__name__} "
            "(numerics.clocks.register_clock)"
        )
    return compiler(solution, ctx)
