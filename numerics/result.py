"""What ``numerics.trajectory`` returns: a :class:`Trajectory`, the arrays of a run with named fields.

Its fields are the times ``t``, the ``states``, the derived ``quantities``, the closed form's ``clocks``, the
units it evaluated again with more digits (``out_of_range``), the ``method`` object and the run's ``stats``. It
is also a read-only mapping of the arrays by name (states, quantities and ``"t"``), so that ``result["a"]``,
iteration and ``.items()`` work as on a dict, and the matrix states of a model that declares them
(``ModelSpec.matrix_states``, e.g. ``linear_network``'s ``W1_1 … W1_d`` as ``W1`` of shape (T, [batch,] d, p))
are attributes (``result.W1``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .methods import Method

__all__ = ["Stats", "Trajectory"]


@dataclass(frozen=True)
class Stats(Mapping[str, object]):
    """The work of a run: wall time in ``seconds``, and where the method has them its ``steps`` (gradient
    descent) and field evaluations ``nfev``. Also a mapping of the fields that are set (``stats["seconds"]``)."""

    seconds: float
    steps: int | None = None
    nfev: int | None = None

    def _set(self) -> dict[str, object]:
        pairs = (("seconds", self.seconds), ("steps", self.steps), ("nfev", self.nfev))
        return {k: v for k, v in pairs if v is not None}

    def __getitem__(self, key: str) -> object:
        return self._set()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._set())

    def __len__(self) -> int:
        return len(self._set())


@dataclass(frozen=True, eq=False)
class Trajectory(Mapping[str, np.ndarray]):
    """A trajectory: arrays with time as the first axis, then batch (if the inputs had one), then units.

    ``method`` is the method object (``numerics.methods``); it compares equal to its name, so
    ``result.method == "closed_form"`` holds (``result.method.name`` is the string)."""

    t: np.ndarray
    states: dict[str, np.ndarray]
    quantities: dict[str, np.ndarray]
    method: Method
    stats: Stats
    clocks: dict[str, np.ndarray] = field(default_factory=dict)
    out_of_range: np.ndarray | None = None
    """The units (a boolean mask ([batch,] p)) of the float64 closed form evaluated again in mpmath, else None."""
    matrix_states: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Matrix name → the state names of its rows (``ModelSpec.matrix_states``)."""

    @property
    def state_names(self) -> tuple[str, ...]:
        """The state names, in model order."""
        return tuple(self.states)

    @property
    def matrices(self) -> dict[str, np.ndarray]:
        """The matrix states (``matrix_states``), each its row states stacked along a new axis before the units:
        ``W1_1 … W1_d`` of shape (T, [batch,] p) each give ``W1`` of shape (T, [batch,] d, p)."""
        return {name: self._matrix(name) for name in self.matrix_states}

    def _matrix(self, name: str) -> np.ndarray:
        return np.stack([self.states[row] for row in self.matrix_states[name]], axis=-2)

    def _arrays(self) -> dict[str, np.ndarray]:
        return {**self.states, **self.quantities, "t": self.t}

    def __getitem__(self, key: str) -> np.ndarray:
        if key in self.states:
            return self.states[key]
        if key in self.quantities:
            return self.quantities[key]
        if key == "t":
            return self.t
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._arrays())

    def __len__(self) -> int:
        return len(self._arrays())

    def __getattr__(self, name: str) -> np.ndarray:
        # only reached for names that are not fields: the matrix states, then any array by name
        if name.startswith("_") or name in ("states", "quantities", "matrix_states"):
            raise AttributeError(name)
        if name in self.matrix_states:
            return self._matrix(name)  # only the matrix asked for is stacked
        if name in self.states or name in self.quantities:
            return self[name]
        raise AttributeError(f"trajectory has no {name!r}; its arrays: {', '.join(self)}")
