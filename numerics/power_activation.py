r"""The one-dimensional reduction of the power-activation flow (spec ``models-xu-ziyin2025.md`` §3).

With the common clock :math:`\tau(t) = \int_0^t\gamma E_\beta`, every neuron follows the same autonomous flow
:math:`du/d\tau = -\eta_u w^\beta`, :math:`dw/d\tau = -\eta_w\beta u w^{\beta-1}` (``derivations.power_activation``),
so :math:`(u_i, w_i)(\tau)` are known curves (the numerical :math:`F_i^{-1}`) and the whole flow is the scalar ODE

.. math:: \dot\tau = g(\tau) := \gamma\Big(\gamma a\sum_i u_i(\tau)\,w_i(\tau)^\beta - b\Big).

``reduced_trajectory`` solves it in two stages, each by DOP853 at rtol 1e-13:

1. the neuron curves in :math:`\sigma = \operatorname{sgn}(g(0))\,\tau \ge 0` (dense output), up to the first zero
   of :math:`g` (the fixed point :math:`\tau^*`) or up to :math:`\sigma_{\max} = |g(0)|\,t_{\max}`, a bound on
   :math:`|\tau(t_{\max})|` because :math:`|E_\beta| = \sqrt{2aL}` does not increase along gradient flow;
2. the scalar ODE :math:`\dot\sigma = |g|` in :math:`t`, with :math:`g` evaluated on the curves.

The scalar ODE is autonomous, so :math:`\tau(t)` is monotone and the curves are only needed on
:math:`[0, \sigma(t_{\max})]`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp
from scipy.optimize import OptimizeResult

from derivations.models.power_activation import V, a, b, eta_u, eta_w, gamma, power_activation, u, w
from derivations.power_activation import CLOCK_RATE, clock_field

from .budget import MAX_STEPS, BudgetError
from .validation import integer, validate

__all__ = ["reduced_trajectory"]

RTOL = 1e-13
DOP853_STAGES = 12
"""Field evaluations per DOP853 step, to count steps against ``max_steps``."""


@dataclass(frozen=True)
class _Compiled:
    """Lambdified per-neuron clock flow, summand of V, clock rate and output."""

    flow: Callable[..., list[np.ndarray]]
    summand: Callable[..., np.ndarray]
    rate: Callable[..., float]
    output: Callable[..., np.ndarray]


@cache
def _compiled(beta: int) -> _Compiled:
    model = power_activation(beta)
    field = clock_field(beta)
    return _Compiled(
        flow=sp.lambdify((u, w, eta_u, eta_w), [field[u], field[w]], "numpy"),
        summand=sp.lambdify((u, w), model.quantities["V"].expr, "numpy"),
        rate=sp.lambdify((V, gamma, a, b), CLOCK_RATE, "numpy"),
        output=sp.lambdify((V, gamma), model.quantities["output"].expr, "numpy"),
    )


def reduced_trajectory(
    beta: int,
    t: object,
    params: Mapping[str, object],
    init: Mapping[str, object],
    max_steps: int = MAX_STEPS["scipy"],
) -> dict[str, np.ndarray]:
    """States, clock and output of ``power_activation(beta)`` at times ``t`` from the one-dimensional reduction.

    Arguments:
        beta: the activation's exponent, an integer >= 1.
        t: the times (>= 0), a number or a 1-d array, as for ``numerics.trajectory``.
        params: the parameters ``gamma``, ``eta_u``, ``eta_w``, ``a``, ``b`` by name, without a batch axis.
        init: the initial states ``u`` and ``w``, each of shape (p,) (one start, no batch axis).
        max_steps: the step budget of each of the two DOP853 solves (an integer >= 1, default 10⁵), counted by
            field evaluations while solving.

    Returns:
        The arrays by name: ``u`` and ``w`` (T, p), ``tau`` (the common clock), ``output`` (= gamma V) and ``t``
        (T,).

    Raises:
        TypeError: for an argument of the wrong type, naming it (as ``numerics.trajectory`` validates its inputs).
        ValueError: for ``beta`` not an integer >= 1, ``max_steps`` < 1, inputs that ``numerics.trajectory``
            refuses (naming the argument and its admissible range), or inputs with a batch axis.
        BudgetError: (a ``ValueError``) if a DOP853 solve needs more than ``max_steps`` steps, naming it.
        OverflowError: if the result is beyond the float64 range.
    """
    model = power_activation(beta)
    max_steps = integer("max_steps", max_steps, 1)
    inputs = validate(model, t, params, init)
    if inputs.batched:
        raise ValueError(
            "reduced_trajectory takes one start and one parameter set: init arrays of shape (p,) and scalar shared "
            "parameters (no batch axis)"
        )
    fns, prm = _compiled(int(beta)), inputs.shared_params
    width = inputs.width
    y0 = np.concatenate([inputs.state["u"][0], inputs.state["w"][0]])

    def rate(y: np.ndarray) -> float:
        return float(fns.rate(np.sum(fns.summand(y[:width], y[width:])), prm["gamma"], prm["a"], prm["b"]))

    direction, t_max = np.sign(rate(y0)), float(inputs.t.max())
    with np.errstate(over="ignore", invalid="ignore"):
        if direction == 0 or t_max == 0:
            sigma = np.zeros_like(inputs.t)
            states = np.broadcast_to(y0, (len(sigma), 2 * width))
        else:
            curves = _neuron_curves(fns, prm, y0, direction, abs(rate(y0)) * t_max, rate, _Budget(max_steps))
            sigma = _clock(curves, direction, inputs.t, rate, _Budget(max_steps))
            states = curves.sol(sigma).T
        V_t = np.sum(fns.summand(states[:, :width], states[:, width:]), axis=-1)
        result = {
            "u": np.array(states[:, :width]),
            "w": np.array(states[:, width:]),
            "tau": direction * sigma,
            "output": np.asarray(fns.output(V_t, prm["gamma"]), dtype=float),
            "t": inputs.t,
        }
    if not all(np.all(np.isfinite(v)) for v in result.values()):
        raise OverflowError("reduced_trajectory: the result is beyond the float64 range for these init and params")
    return result


class _Budget:
    """At most ``max_steps × DOP853_STAGES`` field evaluations of one solve."""

    def __init__(self, max_steps: int) -> None:
        self.left, self.max_steps = max_steps * DOP853_STAGES, max_steps

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise BudgetError(
                f"reduced_trajectory: DOP853 needs more than max_steps = {self.max_steps} steps; pass a larger "
                "max_steps"
            )


def _neuron_curves(
    fns: _Compiled,
    prm: Mapping[str, float],
    y0: np.ndarray,
    direction: float,
    sigma_max: float,
    rate: Callable[[np.ndarray], float],
    budget: _Budget,
) -> OptimizeResult:
    """Every neuron's autonomous clock flow in sigma = direction * tau, stopped at the first zero of the rate."""
    width = len(y0) // 2

    def rhs(_sigma: float, y: np.ndarray) -> np.ndarray:
        budget.spend()
        return direction * np.concatenate(fns.flow(y[:width], y[width:], prm["eta_u"], prm["eta_w"]))

    def fixed_point(_sigma: float, y: np.ndarray) -> float:
        return rate(y)

    fixed_point.terminal = True  # type: ignore[attr-defined]
    scale = max(float(np.max(np.abs(y0))), 1e-300)
    return solve_ivp(
        rhs,
        (0.0, sigma_max),
        y0,
        method="DOP853",
        rtol=RTOL,
        atol=1e-16 * scale,
        dense_output=True,
        events=fixed_point,
    )


def _clock(
    curves: OptimizeResult,
    direction: float,
    times: np.ndarray,
    rate: Callable[[np.ndarray], float],
    budget: _Budget,
) -> np.ndarray:
    """sigma(t) from the scalar ODE sigma' = |g(sigma)| on the neuron curves; RuntimeError if it leaves them.

    Solved in the time s = t / t_max on [0, 1], so that a horizon near the float64 underflow (t_max ~ 1e-307)
    still has steps larger than the spacing of the numbers."""
    sigma_end = float(curves.t[-1])
    horizon = float(np.max(times))

    def rhs(_s: float, sigma: np.ndarray) -> list[float]:
        budget.spend()
        return [horizon * direction * rate(curves.sol(sigma[0]))]

    scaled = times / horizon
    order = np.unique(scaled)  # t_eval must increase strictly: repeated (or underflowed) times are one
    atol = 1e-16 * max(sigma_end, 1e-300)
    sol = solve_ivp(rhs, (0.0, 1.0), [0.0], method="DOP853", t_eval=order, rtol=RTOL, atol=atol)
    if not sol.success:
        raise RuntimeError(f"DOP853 failed on the clock equation: {sol.message}")
    sigma = sol.y[0, np.searchsorted(order, scaled)]
    # (the absolute 1e-300 covers subnormal clocks, whose spacing is not relative)
    if curves.status != 1 and np.max(sigma) > sigma_end * (1 + 1e-12) + 1e-300:
        raise RuntimeError(f"the neuron curves end at |tau| = {sigma_end} before the clock: {curves.message}")
    return sigma
