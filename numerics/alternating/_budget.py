"""Evaluation budgets of the AGF integrators: no integration runs unbounded, whatever the data."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..budget import BudgetError

__all__ = ["counted"]

Field = Callable[[float, np.ndarray], np.ndarray]


def counted(field: Field, limit: int, what: str) -> Field:
    """``field``, raising a ``BudgetError`` that says how to raise the budget at its (limit + 1)-th evaluation."""
    calls = 0

    def wrapped(t: float, y: np.ndarray) -> np.ndarray:
        nonlocal calls
        calls += 1
        if calls > limit:
            raise BudgetError(
                f"{what}: more than max_evaluations = {limit} evaluations of the vector field; raise max_evaluations"
            )
        return field(t, y)

    return wrapped
