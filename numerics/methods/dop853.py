"""``DOP853``: SciPy's DOP853 at rtol 1e-13 on the derived flow, the batch as one vectorized system."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..budget import MAX_STEPS, check_dop853_budget
from ..integrate import integrate_scipy
from ..matrix_field import flow_functions
from ..model_spec import ModelSpec
from ..validation import Inputs
from ..work import Work
from ._base import Method, Solution, checked_max_steps

__all__ = ["DOP853"]


@dataclass(frozen=True, eq=False)
class DOP853(Method):
    """DOP853 in float64 (``numerics.dop853``), refused before the work if its steps, estimated from the flow's
    rate at the start, exceed ``max_steps`` (default ``MAX_STEPS["scipy"]``)."""

    max_steps: int | None = None
    name: ClassVar[str] = "scipy"
    default_max_steps: ClassVar[int] = MAX_STEPS["scipy"]
    """The step budget when ``max_steps`` is None."""

    def __post_init__(self) -> None:
        checked_max_steps(self.max_steps, self.default_max_steps)

    def run(self, model: ModelSpec, inputs: Inputs, params: dict[str, object]) -> Solution:
        """The flow of ``model`` integrated by DOP853 (rtol 1e-13), the batch as one vectorized system.

        Arguments:
            model: the model's numeric specification.
            inputs: the validated times and initial states (arrays (batch, p)).
            params: the unit then shared parameter values by name.

        Returns:
            A :class:`Solution` with the float64 states (T, batch, p) and the steps and field evaluations counted.

        Raises:
            BudgetError: (a ``ValueError``) if the steps estimated from the flow's rate at the start exceed the
                budget (``max_steps``, default :attr:`default_max_steps`), before the work.
            OverflowError: if the flow's rate at the start is beyond the float64 range.
        """
        cm = flow_functions(model)
        budget = checked_max_steps(self.max_steps, self.default_max_steps)
        check_dop853_budget(cm, inputs.state, params, float(inputs.t.max()), budget)
        work = Work()
        states = integrate_scipy(cm, inputs.state, params, inputs.t, work=work)
        return Solution(states, steps=work.nsteps, nfev=work.nfev or 0)
