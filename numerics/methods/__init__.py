"""The solution methods of ``numerics.trajectory``, one module each (after diffrax's solvers): a frozen dataclass
owning its options, their validation and its budget, with a ``run`` that solves the flow (``_base.Method``).

:data:`REGISTRY` maps each method's name (the string shorthand ``trajectory(method="gd", lr=0.1)``) to its class;
:func:`method_of` turns the shorthand into the object. Adding a method is one module defining a ``Method``
subclass and its line in :data:`REGISTRY` (or a call of :func:`register`).
"""

from __future__ import annotations

import dataclasses

from ..budget import MAX_DPS
from ..validation import integer
from ._base import Method, Solution
from .closed_form import ClosedForm
from .dop853 import DOP853
from .gradient_descent import GradientDescent
from .odefun import MPMath
from .taylor import Taylor

__all__ = [
    "DOP853",
    "REGISTRY",
    "ClosedForm",
    "GradientDescent",
    "MPMath",
    "Method",
    "Solution",
    "Taylor",
    "method_of",
    "register",
]

REGISTRY: dict[str, type[Method]] = {
    ClosedForm.name: ClosedForm,
    MPMath.name: MPMath,
    DOP853.name: DOP853,
    GradientDescent.name: GradientDescent,
    Taylor.name: Taylor,
}
"""Method name → class: the names ``trajectory`` accepts as ``method``."""


def register(cls: type[Method]) -> type[Method]:
    """Add ``cls`` to :data:`REGISTRY` under ``cls.name`` (usable as a class decorator); returns ``cls``.

    Raises:
        TypeError: unless ``cls`` is a dataclass subclass of :class:`Method`.
        ValueError: if another class holds the name."""
    if not (isinstance(cls, type) and issubclass(cls, Method) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"cls must be a dataclass subclass of numerics.methods.Method, got {cls!r}")
    if REGISTRY.get(cls.name, cls) is not cls:
        raise ValueError(f"cls: the method name {cls.name!r} is taken by {REGISTRY[cls.name].__name__}")
    REGISTRY[cls.name] = cls
    return cls


def _options_of(cls: type[Method]) -> dict[str, dataclasses.Field[object]]:
    return {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]  # registered: dataclasses


def method_of(
    method: Method | str,
    dps: object = None,
    lr: object = None,
    max_steps: object = None,
    max_dps: object = MAX_DPS,
    refine: object = True,
) -> Method:
    """The method object of ``trajectory``'s ``method`` argument: a :class:`Method` as it is, or a registered
    name with the shorthand options ``dps``, ``lr``, ``max_steps``, ``max_dps`` and ``refine`` (None, or True
    for ``refine``: not given) as the options of its class.

    Arguments:
        method: a ``Method`` object or a name in :data:`REGISTRY`.
        dps, lr, max_steps, max_dps, refine: shorthand options (``max_dps`` bounds ``dps``).

    Returns:
        The method object.

    Raises:
        ValueError: for an unknown name, an option the method does not take (naming it and the methods that
            do), a missing required option, or shorthand options next to a method object.
        TypeError: for an option of the wrong type (naming it)."""
    if not isinstance(refine, bool):
        raise TypeError(f"refine must be True or False, got {refine!r}")
    given = {name: v for name, v in (("dps", dps), ("lr", lr), ("max_steps", max_steps)) if v is not None}
    if not refine:
        given["refine"] = refine
    if isinstance(method, Method):
        if given:
            raise ValueError(
                f"{sorted(given)} given as keywords next to the method object method={method!r}: set them on it"
            )
        return method
    if not isinstance(method, str) or method not in REGISTRY:
        raise ValueError(f"method must be one of {tuple(REGISTRY)} or a numerics.methods.Method, got {method!r}")
    integer("max_dps", max_dps, 15)
    cls = REGISTRY[method]
    options = _options_of(cls)
    for name in given:
        if name not in options:
            users = [n for n, c in REGISTRY.items() if name in _options_of(c)]
            shown = "refine=False" if name == "refine" else name
            raise ValueError(f"{shown} is only used by the methods {users}, not {method!r}")
    if "max_dps" in options:
        given["max_dps"] = max_dps
    missing = [
        n for n, f in options.items() if n not in given and f.default is f.default_factory is dataclasses.MISSING
    ]
    if missing:
        raise ValueError(f"method={method!r} needs the options {missing} (see numerics.methods.{cls.__name__})")
    return cls(**given)
