"""What every solution method of ``numerics.trajectory`` is (after diffrax's solver objects): a small frozen
dataclass owning its options, their validation and its budget, and a :meth:`Method.run` that solves the flow.

A method compares equal to its registered name (``GradientDescent(lr=0.1) == "gd"``), so that code comparing
``Trajectory.method`` with a string keeps working; two method objects are equal if they are of one class with
equal options.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from ..arithmetic import Arithmetic, fp
from ..model_spec import ModelSpec
from ..validation import Inputs, integer

__all__ = ["Method", "Solution", "checked_dps", "checked_max_steps"]


@dataclass(frozen=True)
class Solution:
    """What :meth:`Method.run` returns: the ``states`` (name → (T, batch, p)), any ``sums`` over the units it
    evaluated along the way (name → (T, batch, 1); the quantities then need not sum them), the ``clocks`` of a
    closed form (name → (T, batch, 1 or p)), the units re-evaluated with more digits (``out_of_range``, a
    (batch, p) mask, or None) and the work counted (``steps``, ``nfev``, None where the method has none)."""

    states: dict[str, np.ndarray]
    sums: dict[str, np.ndarray] = field(default_factory=dict)
    clocks: dict[str, np.ndarray] = field(default_factory=dict)
    out_of_range: np.ndarray | None = None
    steps: int | None = None
    nfev: int | None = None


class Method(ABC):
    """A solution method. Subclasses are frozen dataclasses whose fields are their options (validated in
    ``__post_init__``, a ``TypeError`` or ``ValueError`` naming the option), with a registered :attr:`name`."""

    name: ClassVar[str]
    """The method's name, the string shorthand of ``trajectory(method=...)``."""

    @property
    def options(self) -> dict[str, object]:
        """The method's options by name, as validated (its dataclass fields: ``{"lr": 0.1, "max_steps": None}``
        for ``GradientDescent(0.1)``)."""
        return dict(zip((f.name for f in dataclasses.fields(self)), _options(self), strict=True))  # type: ignore[arg-type]

    @property
    def arithmetic(self) -> Arithmetic:
        """The arithmetic of the result (:data:`numerics.arithmetic.fp` unless the method has ``dps``)."""
        return fp

    def prepare(self, model: ModelSpec) -> None:
        """Checks of the model before the inputs are validated (e.g. that a closed form exists); none by
        default."""
        return None

    @abstractmethod
    def run(self, model: ModelSpec, inputs: Inputs, params: dict[str, object]) -> Solution:
        """The flow of ``model`` from the validated ``inputs`` (``params``: unit then shared parameter values by
        name) at ``inputs.t``, within the method's budget (``BudgetError`` beyond it)."""

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return other == self.name
        if not isinstance(other, Method) or type(other) is not type(self):
            return NotImplemented
        return _options(self) == _options(other)

    def __hash__(self) -> int:
        # the hash of the name: equal to the hash of the string the method compares equal to
        return hash(self.name)

    def __str__(self) -> str:
        return self.name


def _options(method: Method) -> tuple[object, ...]:
    return tuple(getattr(method, f.name) for f in dataclasses.fields(method))  # type: ignore[arg-type]


def checked_dps(dps: object, max_dps: object, default: int | None = None) -> int | None:
    """``dps`` (``default`` if None) as an int in [15, ``max_dps``]; ``TypeError``/``ValueError`` naming it."""
    limit = integer("max_dps", max_dps, 15)
    return default if dps is None else integer("dps", dps, 15, limit)


def checked_max_steps(max_steps: object, default: int) -> int:
    """A method's step budget: ``default`` if ``max_steps`` is None, else ``max_steps`` as an int in [1, 2^62]
    (``TypeError``/``ValueError`` naming it)."""
    return default if max_steps is None else integer("max_steps", max_steps, 1, 2**62)
