"""What an integrator counts while it runs (:class:`Work`), for ``Trajectory.nsteps`` and ``Trajectory.nfev``."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Work"]


@dataclass
class Work:
    """A counter of an integrator's work, filled while it runs: the largest number of steps (``nsteps``) and of
    field evaluations (``nfev``) any one start of the batch took. ``nfev`` stays None for an integrator that does
    not evaluate the field (heyoka's Taylor method differentiates it instead)."""

    nsteps: int = 0
    nfev: int | None = None

    def record(self, nsteps: int, nfev: int | None = None) -> None:
        """Count one start's work (the counter keeps the largest over the starts).

        Arguments:
            nsteps: the steps the start took (>= 0).
            nfev: its field evaluations (>= 0), or None if the integrator evaluates none.

        Raises:
            ValueError: a count is negative.
        """
        if nsteps < 0 or (nfev is not None and nfev < 0):
            raise ValueError(f"work counts must be >= 0, got nsteps={nsteps}, nfev={nfev}")
        self.nsteps = max(self.nsteps, int(nsteps))
        if nfev is not None:
            self.nfev = max(self.nfev or 0, int(nfev))
