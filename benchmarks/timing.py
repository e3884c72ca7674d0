"""Timing shared by the benchmark scripts (``run.py``, ``authors.py``): runs interleaved on a shared machine."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

__all__ = ["interleaved"]


def interleaved(fs: Sequence[Callable[[], object]], repeats: int = 3) -> list[float]:
    """The fastest of ``repeats`` runs of each of ``fs``, run in turn, so that a change of load on a shared
    machine affects them alike."""
    times: list[list[float]] = [[] for _ in fs]
    for _ in range(repeats):
        for f, spent in zip(fs, times, strict=True):
            start = time.perf_counter()
            f()
            spent.append(time.perf_counter() - start)
    return [min(spent) for spent in times]
