"""``MPMath``: the derived ODE integrated by ``mpmath.odefun`` (Taylor series) at ``dps`` digits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..arithmetic import Arithmetic, mp
from ..budget import MAX_DPS, MAX_STEPS, check_mpmath_budget
from ..integrate import integrate_mpmath
from ..matrix_field import flow_functions
from ..model_spec import ModelSpec
from ..validation import Inputs
from ..work import Work
from ._base import Method, Solution, checked_dps, checked_max_steps

__all__ = ["MPMath"]


@dataclass(frozen=True, eq=False)
class MPMath(Method):
    """``mpmath.odefun`` at ``dps`` digits (default 30, at most ``max_dps``), within ``max_steps`` Taylor steps
    counted at 30 digits for the whole call, summed over the batch of starts (default ``MAX_STEPS["mpmath"]``;
    estimated from the flow's rate at each start before the work and counted while integrating)."""

    dps: int = 30
    max_steps: int | None = None
    max_dps: int = MAX_DPS
    name: ClassVar[str] = "mpmath"
    default_max_steps: ClassVar[int] = MAX_STEPS["mpmath"]
    """The step budget when ``max_steps`` is None."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "dps", checked_dps(self.dps, self.max_dps, 30))
        checked_max_steps(self.max_steps, self.default_max_steps)

    @property
    def arithmetic(self) -> Arithmetic:
        return mp.at(self.dps)

    def run(self, model: ModelSpec, inputs: Inputs, params: dict[str, object]) -> Solution:
        """The flow of ``model`` integrated by ``mpmath.odefun`` at ``dps`` digits, the starts one after the other.

        Arguments:
            model: the model's numeric specification.
            inputs: the validated times and initial states (arrays (batch, p)).
            params: the unit then shared parameter values by name.

        Returns:
            A :class:`Solution` with the states as object arrays of ``mpmath.mpf`` (T, batch, p) and the Taylor
            steps and field evaluations counted.

        Raises:
            BudgetError: (a ``ValueError``) if the Taylor steps, counted at 30 digits and summed over the batch,
                exceed the budget (``max_steps``, default :attr:`default_max_steps`): estimated from the flow's rate
                before the work, and counted while integrating.
        """
        cm = flow_functions(model, mp)
        budget = checked_max_steps(self.max_steps, self.default_max_steps)
        check_mpmath_budget(cm, inputs.state, params, float(inputs.t.max()), budget, self.dps)
        work = Work()
        states = integrate_mpmath(cm, inputs.state, params, inputs.t, self.dps, budget, work=work)
        return Solution(states, steps=work.nsteps, nfev=work.nfev or 0)
