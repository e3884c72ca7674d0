"""What ``numerics.trajectory`` returns: a :class:`Trajectory`, the arrays of a run with named fields.

Its fields are the times ``t``, the ``states``, the derived ``quantities``, the closed form's ``clocks``, the
units it evaluated again with more digits (``out_of_range``), the ``method`` object and the run's ``stats``; as
for ``scipy.integrate.solve_ivp`` it says whether it succeeded (``success``, ``message``), the work counted
(``nsteps``, ``nfev``) and the method's ``options``, and :meth:`Trajectory.plot` draws it (matplotlib). It
is also a read-only mapping of the arrays by name (states, quantities and ``"t"``), so that ``result["a"]``,
iteration and ``.items()`` work as on a dict, and the matrix states of a model that declares them
(``ModelSpec.matrix_states``, e.g. ``linear_network``'s ``W1_1 … W1_d`` as ``W1`` of shape (T, [batch,] d, p))
are attributes (``result.W1``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .work import Work

if TYPE_CHECKING:
    from .methods import Method

__all__ = ["Stats", "Trajectory", "Work"]


@dataclass(frozen=True)
class Stats(Mapping[str, object]):
    """The work of a run: wall time in ``seconds``, and where the method has them its ``steps`` and field
    evaluations ``nfev``, each the largest over the batch's starts (see :attr:`Trajectory.nsteps` and
    :attr:`Trajectory.nfev` for what each method counts). Also a mapping of the fields that are set
    (``stats["seconds"]``)."""

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
    ``result.method == "closed_form"`` holds (``result.method.name`` is the string). ``success``, ``message``,
    ``nsteps``, ``nfev`` and ``options`` describe the run as ``scipy.integrate.solve_ivp``'s result does."""

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
    def success(self) -> bool:
        """Whether the run reached every requested time: always True, because a run that cannot (a budget
        exceeded, a value beyond float64, a closed form that does not apply) raises instead of returning (a
        ``BudgetError``, ``OverflowError`` or ``ValueError`` saying why), unlike ``solve_ivp``'s silent
        ``success=False``."""
        return True

    @property
    def nsteps(self) -> int | None:
        """The steps taken, the largest over the batch's starts: accepted DOP853 steps (``"scipy"``), Taylor steps
        of ``mpmath.odefun`` (``"mpmath"``), heyoka steps (``"taylor"``), gradient steps (``"gd"``, t/lr); 0 for
        the closed form, which takes none; None for a user's method that does not count."""
        return self.stats.steps

    @property
    def nfev(self) -> int | None:
        """The evaluations of the derived field, the largest over the batch's starts: DOP853's (12 per attempted
        step, 3 more for the dense output of each step that writes a time, and 2 at the start), ``mpmath.odefun``'s
        (one per Taylor coefficient, ``3 + int(1.5 dps)`` per Taylor step, and one at the start), one gradient per
        step of ``"gd"``; 0 for the closed form (it evaluates a formula, never the field); None for ``"taylor"``
        (heyoka differentiates the field, it does not evaluate it) and for a method that does not count."""
        return self.stats.nfev

    @property
    def options(self) -> dict[str, object]:
        """The options of the method that ran (``numerics.methods``), by name, as the method object holds them after
        validation; e.g. for ``"mpmath"``: ``{"dps": 30, "max_steps": None, "max_dps": 10000}``."""
        return self.method.options

    @property
    def message(self) -> str:
        """A one-line account of the run: the method, its options and the work counted, e.g.
        ``"scipy (max_steps=None): 41 steps, 511 field evaluations, 0.012 s"``."""
        options = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        work = [f"{self.nsteps} steps"] if self.nsteps is not None else []
        work += [f"{self.nfev} field evaluations"] if self.nfev is not None else []
        return f"{self.method.name} ({options}): " + ", ".join([*work, f"{self.stats.seconds:.3g} s"])

    def plot(self, quantities: Sequence[str] | None = None, ax: Any = None) -> Any:
        """Draw states or quantities against ``t`` with matplotlib (imported only here; it is optional).

        Every batch element and unit of an array is one curve, all curves of a name in one colour, each name in
        the legend as mathematics (``derivations.naming``: ``theta`` as :math:`\theta`); mpmath values are
        drawn as floats.

        Arguments:
            quantities: the names to draw (states, quantities, matrix entries' states), default every state.
            ax: a matplotlib ``Axes`` to draw on; default a new figure's.

        Returns:
            The ``Axes`` drawn on.

        Raises:
            ImportError: matplotlib is not installed (``pip install matplotlib``).
            TypeError: ``quantities`` is a single string or not a sequence of strings.
            ValueError: a name is not an array of this trajectory (the message lists them).
        """
        names = self._plotted(quantities)
        try:
            import matplotlib.pyplot as plt
        except ImportError as error:
            raise ImportError("Trajectory.plot needs matplotlib, which is optional: pip install matplotlib") from error
        from derivations.naming import symbol_latex

        if ax is None:
            _, ax = plt.subplots()
        t = np.asarray(self.t, dtype=float)
        for k, name in enumerate(names):
            values = np.asarray(self[name], dtype=float).reshape(len(t), -1)
            lines = ax.plot(t, values, color=f"C{k % 10}")
            lines[0].set_label(f"${symbol_latex(name)}$")
        ax.set_xlabel("$t$")
        ax.legend()
        return ax

    def _plotted(self, quantities: object) -> list[str]:
        if quantities is None:
            return list(self.states)
        if isinstance(quantities, str) or not isinstance(quantities, Sequence):
            raise TypeError(f"quantities must be a sequence of names (e.g. ['a', 'theta']), got {quantities!r}")
        names = list(quantities)
        unknown = [n for n in names if not isinstance(n, str) or n == "t" or n not in self]
        if unknown:
            admissible = [n for n in self if n != "t"]
            raise ValueError(f"quantities: {unknown} are not arrays of this trajectory; admissible: {admissible}")
        return names

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
