"""What ``numerics.trajectory`` returns: a mapping of arrays (states, quantities, ``"t"``), with the run's record.

It stays a ``dict`` (code that indexes it keeps working) and adds ``t``, the matrix weights of a model whose
states are rows of a matrix (``linear_network``'s ``W1_1 … W1_d`` as ``W1`` of shape (T, [batch,] d, p)), the
clock variables of a closed form (``clocks``), the ``method`` and ``stats`` (wall time and, where the method has
them, steps)."""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np

__all__ = ["Trajectory"]

_ROW = re.compile(r"^(?P<base>[A-Za-z]\w*?)_(?P<index>\d+)$")


class Trajectory(dict):
    """A trajectory: ``result["a"]`` as before, plus ``result.t``, ``result.clocks``, ``result.method``,
    ``result.stats``, and the stacked matrix states as attributes (``result.W1``)."""

    def __init__(
        self,
        arrays: Mapping[str, np.ndarray],
        state_names: tuple[str, ...],
        method: str,
        stats: Mapping[str, object],
        clocks: Mapping[str, np.ndarray] | None = None,
    ) -> None:
        super().__init__(arrays)
        self.state_names = state_names
        self.method = method
        self.stats = dict(stats)
        self.clocks = dict(clocks or {})

    @property
    def t(self) -> np.ndarray:
        """The times."""
        return self["t"]

    @property
    def matrices(self) -> dict[str, np.ndarray]:
        """States named ``<base>_<k>`` (rows of a matrix) stacked by base along a new axis before the units:
        ``W1_1 … W1_d`` of shape (T, [batch,] p) each give ``W1`` of shape (T, [batch,] d, p)."""
        rows: dict[str, list[tuple[int, str]]] = {}
        for name in self.state_names:
            match = _ROW.match(name)
            if match:
                rows.setdefault(match["base"], []).append((int(match["index"]), name))
        return {
            base: np.stack([self[name] for _, name in sorted(entries)], axis=-2)
            for base, entries in rows.items()
            if len(entries) > 1
        }

    def __getattr__(self, name: str) -> np.ndarray:
        if name.startswith("_"):
            raise AttributeError(name)
        matrices = self.matrices
        if name in matrices:
            return matrices[name]
        if name in self:
            return self[name]
        raise AttributeError(f"trajectory has no {name!r}; its arrays: {', '.join(self)}")
