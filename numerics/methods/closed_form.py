"""``ClosedForm``: the model's derived closed form, in float64 (lambdified numpy) or in mpmath at ``dps`` digits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import mpmath
import numpy as np

from ..arithmetic import Arithmetic, fp, mp, to_mpf
from ..budget import MAX_DPS
from ..closed_form import check_condition, closed_form_numpy, closed_form_state, compiled_closed_form
from ..model_spec import ModelSpec
from ..validation import Inputs
from ._base import Method, Solution, checked_dps

__all__ = ["DOUBLINGS", "EXACT_DIGITS", "GUARD_DIGITS", "ZERO_DIGITS", "ClosedForm"]


@dataclass(frozen=True, eq=False)
class ClosedForm(Method):
    """The derived closed form: float64 without ``dps`` (units that leave the float64-safe range evaluated again
    in mpmath, and with ``refine`` units whose settled value cancels re-evaluated at rising precision), or the
    same closed form in mpmath correct to ``dps`` digits (``dps <= max_dps``).

    ``refine=False`` (float64 only) keeps the float64 values of cancelling units (error up to eps times the
    cancellation factor), for sweeps where the refinement would dominate the cost."""

    refine: bool = True
    dps: int | None = None
    max_dps: int = MAX_DPS
    name: ClassVar[str] = "closed_form"

    def __post_init__(self) -> None:
        if not isinstance(self.refine, bool):
            raise TypeError(f"refine must be True or False, got {self.refine!r}")
        object.__setattr__(self, "dps", checked_dps(self.dps, self.max_dps))
        if not self.refine and self.dps is not None:
            raise ValueError("refine=False is only used by the float64 closed form (method='closed_form', no dps)")

    @property
    def arithmetic(self) -> Arithmetic:
        return fp if self.dps is None else mp.at(self.dps)

    def prepare(self, model: ModelSpec) -> None:
        """Compile ``model``'s closed form (through the disk cache) before the inputs are validated, so that a model
        without one is refused before any other work.

        Arguments:
            model: the model's numeric specification.

        Raises:
            ValueError: if ``derivations.solve`` found no closed form for ``model`` (quoting ``Unsolved``'s reason).
        """
        compiled_closed_form(model)  # ValueError quoting Unsolved.reason before any other work

    def run(self, model: ModelSpec, inputs: Inputs, params: dict[str, Any]) -> Solution:
        """The closed form of ``model`` at ``inputs.t``: lambdified numpy in float64 (units beyond the float64-safe
        range evaluated again in mpmath, cancelling units refined with ``refine``), or mpmath correct to ``dps``
        digits.

        Arguments:
            model: the model's numeric specification (it has a closed form: :meth:`prepare` checked it).
            inputs: the validated times and initial states (arrays (batch, p)).
            params: the unit then shared parameter values by name.

        Returns:
            A :class:`Solution` with the states (T, batch, p); in float64 also the sums and clocks the closed form
            evaluated and the ``out_of_range`` mask of units evaluated again in mpmath (then without sums and
            clocks); ``steps = nfev = 0``.

        Raises:
            ValueError: if ``params`` hit one of the derivation's divisions (naming the expression that must be
                nonzero) or a start lies off the set where the closed form holds (naming the condition).
            OverflowError: if a float64 value, evaluated again in mpmath, is beyond the float64 range.
            ArithmeticError: if the mpmath evaluation does not settle at the highest working precision.
        """
        # a formula evaluated at the times: no steps and no evaluation of the field (steps = nfev = 0)
        ccf = compiled_closed_form(model, fp if self.dps is None else mp)
        init_env: dict[str, Any] = {model.init_symbol(n): v for n, v in inputs.state.items()}
        check_condition(ccf, init_env, params)
        if self.dps is not None:
            return Solution(_exact_to(model, init_env, params, inputs.t, self.dps), steps=0, nfev=0)
        values = closed_form_numpy(ccf, {**init_env, **params}, inputs.t, self.refine)
        flagged = values.out_of_range
        if not np.any(flagged):
            return Solution(values.states, values.sums, values.clocks, flagged, steps=0, nfev=0)
        # the sums and clocks are dropped: the quantities are summed from the states re-evaluated in mpmath
        states = _in_extended_range(model, values.states, init_env, params, inputs.t, flagged)
        return Solution(states, out_of_range=flagged, steps=0, nfev=0)


ZERO_DIGITS = 640
"""A zero is believed from this working precision on: the rounding error of a sum of terms below 1.8e308 is then
below float64's smallest subnormal, so a nonzero float64 value cannot cancel to an exact 0 (at lower precisions a
sum of terms near 1e84 settling to 1e-84 does, at three precisions in a row)."""


def _agree(history: list[dict[str, np.ndarray]], name: str, digits: int) -> bool:
    """Whether the last two precisions agree on ``name`` (``digits``: the one before the last): to 1e-15 relative,
    or both 0 from ``ZERO_DIGITS`` on (a value that underflows float64, e.g. a unit decaying to 1e-2000, is 0
    however many digits are added)."""
    last, before = history[-1][name], history[-2][name]
    close = np.abs(last - before) <= 1e-15 * np.abs(last)
    zero = (last == 0) & (before == 0) & (digits >= ZERO_DIGITS)
    return bool(np.all(np.where(last == 0, zero, close)))


def _exact(
    model: ModelSpec,
    init_env: dict[str, Any],
    params_env: dict[str, Any],
    t: np.ndarray,
    dps: int,
    units: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """The closed form in mpmath at ``dps`` digits (object arrays of mpf, any exponent); ``units`` as in
    ``closed_form_state``."""
    ccf = compiled_closed_form(model, mp)
    ctx = mp.at(dps)
    with ctx.precision():
        env = ctx.env({**init_env, **params_env})
        return closed_form_state(ccf, env, to_mpf(t), ctx, None if units is None else list(units))


GUARD_DIGITS = 10
"""Working digits above the requested ``dps`` for the first mpmath evaluation of the closed form."""
DOUBLINGS = 7
"""How many times the working precision of the mpmath closed form is doubled before it gives up."""


def _exact_to(
    model: ModelSpec, init_env: dict[str, Any], params_env: dict[str, Any], t: np.ndarray, dps: int
) -> dict[str, np.ndarray]:
    """The closed form in mpmath correct to ``dps`` digits: evaluated at working precisions ``dps + GUARD_DIGITS``,
    then doubling, until two consecutive ones agree to ``10^-dps`` relative element by element (a sum that
    cancels, e.g. a start of 1e150 settling near 0, needs more working digits than it returns); a zero is believed
    from ``ZERO_DIGITS`` working digits on. ``ArithmeticError`` after ``DOUBLINGS`` doublings."""
    history: list[dict[str, np.ndarray]] = []
    digits = dps + GUARD_DIGITS
    for _ in range(DOUBLINGS + 1):
        history.append(_exact(model, init_env, params_env, t, digits))
        with mp.at(digits).precision():
            if len(history) >= 2 and all(_agree_to(history, n, dps, digits // 2) for n in model.state_names):
                return history[-1]
        digits *= 2
    raise ArithmeticError(
        f"the closed form of {model.name} does not settle to {dps} digits at {digits // 2} working digits here"
    )


def _agree_to(history: list[dict[str, np.ndarray]], name: str, dps: int, digits: int) -> bool:
    """``_agree`` for mpmath values at ``dps`` digits (``digits``: the precision before the last)."""
    tolerance = mpmath.mpf(10) ** -dps
    for x, y in zip(np.ravel(history[-1][name]), np.ravel(history[-2][name]), strict=True):
        if (x == 0 and (y != 0 or digits < ZERO_DIGITS)) or (x != 0 and abs(x - y) > tolerance * abs(x)):
            return False
    return True


def _in_extended_range(
    model: ModelSpec,
    states: dict[str, np.ndarray],
    init_env: dict[str, Any],
    params_env: dict[str, Any],
    t: np.ndarray,
    flagged: np.ndarray,
) -> dict[str, np.ndarray]:
    """The units (``flagged``, batch x p) whose float64 evaluation left the safe range, evaluated again in mpmath
    (whose exponent range is unbounded; each start's sums and clocks from all its units) and rounded to float64;
    ``OverflowError`` if a value is beyond float64."""
    # the states are the caller's own fresh arrays: the rows are written into them in place (no copy)
    out = {name: np.asarray(states[name], dtype=float) for name in model.state_names}
    for row in np.flatnonzero(np.any(flagged, axis=-1)):
        units = np.flatnonzero(flagged[row])
        pick = {
            k: (v[row : row + 1] if isinstance(v, np.ndarray) and v.ndim == 2 else v) for k, v in params_env.items()
        }
        start = {k: v[row : row + 1] for k, v in init_env.items() if isinstance(v, np.ndarray)}
        rounded = _settled(model, start, pick, t, units)
        for name in model.state_names:
            if not np.all(np.isfinite(rounded[name])):
                raise OverflowError(
                    f"the closed form of {model.name} reaches values beyond the float64 range (|x| > 1.8e308) for "
                    f"{name}: evaluate it with dps=30 for mpmath numbers"
                )
            out[name][:, row, units] = rounded[name][:, 0, :]
    return out


EXACT_DIGITS = (20, 40, 80, 160, 320, 640, 1280)
"""Working precisions tried, in turn, for starts whose float64 evaluation left the safe range."""


def _settled(
    model: ModelSpec, init: dict[str, Any], params: dict[str, Any], t: np.ndarray, units: np.ndarray
) -> dict[str, np.ndarray]:
    """The closed form rounded to float64 from mpmath at rising precisions (``EXACT_DIGITS``) until consecutive
    ones agree to 1e-15 relative, element by element (a value that cancels needs more digits; a zero is believed
    from ``ZERO_DIGITS`` on). ``ArithmeticError`` if the highest precision still does not settle."""
    history: list[dict[str, np.ndarray]] = []
    for step, digits in enumerate(EXACT_DIGITS):
        exact = _exact(model, init, params, t, digits, units)
        with mp.at(digits).precision():
            history.append({n: np.array([float(x) for x in np.ravel(v)]).reshape(v.shape) for n, v in exact.items()})
        if len(history) >= 2 and all(_agree(history, n, EXACT_DIGITS[step - 1]) for n in model.state_names):
            return history[-1]
    raise ArithmeticError(
        f"the closed form of {model.name} does not settle to float64 accuracy at {EXACT_DIGITS[-1]} digits here; "
        "use dps= for mpmath numbers"
    )
