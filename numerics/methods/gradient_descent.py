"""``GradientDescent``: full-batch gradient descent on the network's weights, t = steps × lr."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..budget import MAX_STEPS, gd_steps
from ..integrate import gradient_descent
from ..matrix_field import flow_functions
from ..model_spec import ModelSpec
from ..validation import Inputs, positive_number
from ._base import Method, Solution, checked_max_steps

__all__ = ["GradientDescent"]


@dataclass(frozen=True, eq=False)
class GradientDescent(Method):
    """Gradient descent with learning rate ``lr`` (> 0): every time must be an integer multiple of ``lr`` (to a
    relative 1e-9), and ``t / lr`` at most ``max_steps`` (default ``MAX_STEPS["gd"]``)."""

    lr: float
    max_steps: int | None = None
    name: ClassVar[str] = "gd"
    default_max_steps: ClassVar[int] = MAX_STEPS["gd"]
    """The step budget when ``max_steps`` is None."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "lr", positive_number("lr", self.lr))
        checked_max_steps(self.max_steps, self.default_max_steps)

    def run(self, model: ModelSpec, inputs: Inputs, params: dict[str, object]) -> Solution:
        """Full-batch gradient descent with learning rate ``lr`` on the weights of ``model``, ``t / lr`` steps to
        each time ``t``.

        Arguments:
            model: the model's numeric specification.
            inputs: the validated times and initial states (arrays (batch, p)).
            params: the unit then shared parameter values by name.

        Returns:
            A :class:`Solution` with the float64 states (T, batch, p) after ``t / lr`` steps; ``steps`` and
            ``nfev`` are both the largest number of steps (one gradient evaluation per step).

        Raises:
            BudgetError: (a ``ValueError``) if ``t / lr`` exceeds the budget (``max_steps``, default
                :attr:`default_max_steps`), before the work.
            ValueError: unless every time is an integer multiple of ``lr`` (to a relative 1e-9).
            OverflowError: if the descent diverges beyond the float64 range (naming ``lr``).
        """
        steps = gd_steps(inputs.t, self.lr, checked_max_steps(self.max_steps, self.default_max_steps))
        states = gradient_descent(flow_functions(model), inputs.state, params, steps, self.lr)
        # one gradient (field) evaluation per step
        return Solution(states, steps=int(steps.max()), nfev=int(steps.max()))
