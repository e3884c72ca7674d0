"""Cost minimization of Algorithm 1 (spec §3): GF of the active neurons to a critical point, with collapses.

Takes no time in the alpha -> 0 limit.

Critical point. GF stops when every active neuron is stationary on its sphere: |grad_j L| / |theta_j|^{kappa-1}, the
gradient of its utility U(theta_bar_j; r) against the residual, is at most ``tolerance`` (``agf``'s gtol times
the data's utility scale). A per-neuron test, since a neuron fitting a weak mode has a small norm, and the total
gradient would fall below any absolute threshold before that mode is fitted.

Collapse. GF conserves each neuron's imbalance (kappa - 1)|a_j|² - |w_j|², so its norm cannot fall below the floor
of ``Network.norm_floors`` (sqrt(2) alpha for the spec's DLN init); an absolute test ||theta_j|| < collapse_tol would
never fire once that floor exceeds collapse_tol (alpha > ~7e-4 in spec §5B). A neuron is near the origin when its
squared norm exceeds the floor by less than ``collapse_tol``² (linear activation: 2 min(|a_j|², |w_j|²), its output
a_j w_j^T has vanished), and it has collapsed if, moreover, the residual of the other active neurons gives it
utility <= 0: GF then pushes it to the floor (its output would have to change sign). A small neuron with positive
utility is fitting a weak mode and stays active. Collapsed neurons leave the active set at once and GF continues.

Convergence time. Near a minimum GF converges like exp(-lambda s), lambda the smallest curvature of L across the
orbits of the network's symmetries (the Hessian restricted to the row space of the output Jacobian J, since GF
moves only there). A weak mode (lambda ~ 1e-3 at d = c = H = 10) needs GF times far beyond any fixed horizon, so GF
runs in stages: each stage lasts log(stationarity / tolerance) / lambda, re-estimated at its start (and at least the
time already elapsed), within the budgets ``max_cost_time`` (GF time) and ``max_evaluations`` (of the field). BDF
receives the exact Hessian, so the slow final approach costs a few hundred steps whatever lambda (LSODA's switch to
its non-stiff method can stall when a weak mode sits beside strong ones). Its tolerance, rtol 1e-8, bounds the
error of the path: the end point is the critical point that the stationarity event certifies at ``tolerance``, but
whether a neuron collapses on the way depends on the path (rtol 1e-6, even with Radau, misses the collapse of spec
test B at alpha = 0.01). Against rtol 1e-10 (before issue 25): jump times within 3e-12 relative on tests A and B.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.integrate import solve_ivp

from ..budget import BudgetError
from ._budget import counted
from ._events import StopFalling
from .two_layer import Network
from .validate import neuron_norms

__all__ = ["minimize_cost", "relaxation_rate"]

# J's singular values below this fraction of the largest span symmetry directions (exactly 0 up to round-off)
_RANK_TOL = 1e-10


def relaxation_rate(net: Network, a: np.ndarray, w: np.ndarray, neurons: np.ndarray) -> float:
    """The smallest |eigenvalue| of the Hessian of L restricted to the row space of J (where GF moves; J's null space
    holds the symmetries): GF's slowest rate."""
    J = net.jacobian(a, w, neurons)
    _, singular, Vt = np.linalg.svd(J.reshape(-1, J.shape[-1]), full_matrices=False)
    basis = Vt[singular > _RANK_TOL * singular[0]]
    if not len(basis):
        return 0.0
    return float(np.min(np.abs(np.linalg.eigvalsh(basis @ net.hessian(a, w, neurons) @ basis.T))))


def stationarity(net: Network, a: np.ndarray, w: np.ndarray, neurons: np.ndarray) -> float:
    """max_j |grad_j L| / |theta_j|^{kappa-1} = max_j |grad U(theta_bar_j; r)|: 0 exactly at a critical point."""
    grad_a, grad_w = net.gradient(a, w, neurons)
    gradient = neuron_norms(np.hstack([grad_a, grad_w]))
    return float(np.max(gradient / neuron_norms(np.hstack([a, w])) ** (net.kappa - 1)))


def _gradient_flow(
    net: Network,
    a: np.ndarray,
    w: np.ndarray,
    idx: np.ndarray,
    tolerance: float,
    collapse_tol: float,
    budget: tuple[float, int],
) -> list[int]:
    """GF of neurons ``idx`` (in place) until stationarity <= tolerance or a collapse; returns the positions (in
    ``idx``) of the collapsed neurons. ``budget`` is (max_cost_time, max_evaluations)."""
    k, c = len(idx), a.shape[1]
    max_cost_time, max_evaluations = budget

    def unpack(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return y[: k * c].reshape(k, c), y[k * c :].reshape(k, -1)

    def field(_s: float, y: np.ndarray) -> np.ndarray:
        grad_a, grad_w = net.gradient(*unpack(y), idx)
        return -np.concatenate([grad_a.ravel(), grad_w.ravel()])

    def jacobian(_s: float, y: np.ndarray) -> np.ndarray:
        return -net.hessian(*unpack(y), idx)

    y = np.concatenate([a[idx].ravel(), w[idx].ravel()])
    levels = _EventLevels(net, idx, unpack, tolerance, collapse_tol)
    events = [StopFalling(levels.component(j)) for j in range(k + 1)]
    # a neuron may start collapsed (near its floor, with utility <= 0 since the last jump's changes)
    fired = [j for j in range(k) if events[j](0.0, y) <= 0]
    elapsed, done = 0.0, events[k](0.0, y) <= 0
    rhs = counted(field, max_evaluations, "cost minimization")
    while not (fired or done):
        remaining = _relaxation_time(net, *unpack(y), idx, tolerance)
        if elapsed >= max_cost_time:
            raise BudgetError(
                f"cost minimization: stationarity {stationarity(net, *unpack(y), idx):.3g} > gtol x utility scale = "
                f"{tolerance:.3g} after GF time {max_cost_time:.3g} (max_cost_time / curvature scale); the slowest "
                f"curvature predicts about {remaining:.3g} more: raise max_cost_time (or gtol, if it has stalled)"
            )
        end = min(max_cost_time, elapsed + max(remaining, elapsed))
        sol = solve_ivp(rhs, (elapsed, end), y, method="BDF", jac=jacobian, events=events, rtol=1e-8, atol=1e-13)
        y, elapsed = sol.y[:, -1], float(sol.t[-1])
        fired = [j for j in range(k) if sol.t_events[j].size]
        done = bool(sol.t_events[-1].size)
    a[idx], w[idx] = unpack(y)
    return fired


def _relaxation_time(net: Network, a: np.ndarray, w: np.ndarray, idx: np.ndarray, tolerance: float) -> float:
    """log(stationarity / tolerance) / lambda: the GF time to reach tolerance if the slowest rate governs."""
    rate = relaxation_rate(net, a, w, idx)
    return float(np.log(stationarity(net, a, w, idx) / tolerance) / rate) if rate > 0 else np.inf


def _utilities_of_the_rest(net: Network, a: np.ndarray, w: np.ndarray) -> np.ndarray:
    """U_j against the residual of the other neurons (a, w: the rows of the sub-network), for every j at once:
    <= 0 means GF drives neuron j to 0."""
    return net.utilities_of_the_rest(a, w)


class _EventLevels:
    """The k + 1 event functions of one GF run, evaluated together: for each neuron j, max(collapse margin -
    collapse_tol², U_j of the rest) (both conditions hold exactly when it falls below 0), then stationarity -
    tolerance. ``solve_ivp`` calls every event at the same state in turn; the levels are computed once per state
    (one pass over the data for all neurons) and reused."""

    def __init__(self, net: Network, idx: np.ndarray, unpack, tolerance: float, collapse_tol: float) -> None:
        self.net, self.idx, self.unpack = net, idx, unpack
        self.tolerance, self.collapse_floor = tolerance, collapse_tol**2
        self._state: np.ndarray | None = None
        self._levels = np.empty(0)

    def levels(self, y: np.ndarray) -> np.ndarray:
        if self._state is None or not np.array_equal(y, self._state):
            a_k, w_k = self.unpack(y)
            near = self.net.collapse_margins(a_k, w_k) - self.collapse_floor
            collapse = np.maximum(near, _utilities_of_the_rest(self.net, a_k, w_k))
            self._levels = np.append(collapse, stationarity(self.net, a_k, w_k, self.idx) - self.tolerance)
            self._state = np.array(y, copy=True)
        return self._levels

    def component(self, j: int) -> Callable[[float, np.ndarray], float]:
        return lambda _s, y: float(self.levels(y)[j])


def minimize_cost(
    net: Network,
    a: np.ndarray,
    w: np.ndarray,
    active: list[int],
    tolerance: float,
    collapse_tol: float,
    budget: tuple[float, int],
) -> dict[int, np.ndarray]:
    """GF of the active sub-network (a, w and ``active`` updated in place; dormant rows stay 0) to a critical point.

    ``budget`` = (max_cost_time, max_evaluations) bounds each GF run. Returns {collapsed neuron: its unit direction
    at collapse}. Every GF run ends with a collapse (one active neuron fewer) or convergence, so there are at most
    len(active) runs.
    """
    collapsed: dict[int, np.ndarray] = {}
    while active:
        idx = np.array(active)
        fired = _gradient_flow(net, a, w, idx, tolerance, collapse_tol, budget)
        if not fired:
            break
        for j in fired:
            neuron = int(idx[j])
            theta = np.concatenate([a[neuron], w[neuron]])
            collapsed[neuron] = theta / np.linalg.norm(theta)
            a[neuron], w[neuron] = 0.0, 0.0
            active.remove(neuron)
    return collapsed
