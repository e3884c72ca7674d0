"""``Taylor``: heyoka's adaptive Taylor integrator of the derived ODE (optional extra ``[taylor]``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from ..arithmetic import Arithmetic, fp, mp
from ..budget import MAX_DPS, MAX_STEPS, check_taylor_budget
from ..compiled import compiled
from ..model_spec import ModelSpec
from ..taylor import integrate_taylor, sample_progress
from ..validation import Inputs
from ..work import Work
from ._base import Method, Solution, checked_dps, checked_max_steps

__all__ = ["Taylor"]


@dataclass(frozen=True, eq=False)
class Taylor(Method):
    """heyoka's Taylor integrator (``numerics.taylor``): float64 without ``dps``, long double up to its digits and
    MPFR above with it (``dps <= max_dps``); at most ``max_steps`` steps per start (default
    ``MAX_STEPS["taylor"]``; estimated before the work from the flow's rate and from a sample integration,
    ``budget.check_taylor_budget``, and counted)."""

    dps: int | None = None
    max_steps: int | None = None
    max_dps: int = MAX_DPS
    name: ClassVar[str] = "taylor"
    default_max_steps: ClassVar[int] = MAX_STEPS["taylor"]
    """The step budget when ``max_steps`` is None."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "dps", checked_dps(self.dps, self.max_dps))
        checked_max_steps(self.max_steps, self.default_max_steps)

    @property
    def arithmetic(self) -> Arithmetic:
        return fp if self.dps is None else mp.at(self.dps)

    def run(self, model: ModelSpec, inputs: Inputs, params: dict[str, object]) -> Solution:
        """The flow of ``model`` integrated by heyoka's adaptive Taylor method: float64 without ``dps``, long
        double or MPFR with it.

        Arguments:
            model: the model's numeric specification.
            inputs: the validated times and initial states (arrays (batch, p)).
            params: the unit then shared parameter values by name.

        Returns:
            A :class:`Solution` with the states (T, batch, p), floats without ``dps`` and ``mpmath.mpf`` objects
            with it, and the heyoka steps counted (``nfev`` None: heyoka evaluates Taylor coefficients, not the
            field).

        Raises:
            ImportError: if the optional dependency heyoka is not installed.
            BudgetError: (a ``ValueError``) if a start needs more steps than the budget (``max_steps``, default
                :attr:`default_max_steps`), estimated from the flow's rate before the work and counted.
            OverflowError: if a state stops being finite (beyond the type's range).
        """
        budget = checked_max_steps(self.max_steps, self.default_max_steps)
        ctx = self.arithmetic
        t_max = float(inputs.t.max())
        sample = partial(sample_progress, model.model, inputs.state, params, t_max, dps=self.dps)
        check_taylor_budget(compiled(model, ctx), inputs.state, params, t_max, budget, ctx, sample)
        work = Work()
        states = integrate_taylor(model.model, inputs.state, params, inputs.t, self.dps, budget, work=work)
        return Solution(states, steps=work.nsteps)
