"""Cost minimization of Algorithm 1 (spec §3): GF of the active neurons to a critical point, with collapses.

Takes no time in the alpha -> 0 limit. An active neuron whose norm falls below ``collapse_tol`` has returned to the
origin (e.g. its output would have to change sign): it leaves the active set at once and GF continues without it.
"""

from __future__ import annotations

import numpy as np
from scipy.integrate import solve_ivp

from .two_layer import Network

__all__ = ["minimize_cost"]


def _gradient_flow(
    net: Network, a: np.ndarray, w: np.ndarray, idx: np.ndarray, gtol: float, collapse_tol: float, horizon: float
) -> list[int]:
    """One GF run of neurons ``idx`` (in place) until |grad L| <= gtol or a collapse; returns collapsed positions."""
    k, c = len(idx), a.shape[1]

    def field(_s: float, y: np.ndarray) -> np.ndarray:
        grad_a, grad_w = net.gradient(y[: k * c].reshape(k, c), y[k * c :].reshape(k, -1), idx)
        return -np.concatenate([grad_a.ravel(), grad_w.ravel()])

    def norm_event(j: int):
        def collapse(_s: float, y: np.ndarray) -> float:
            return np.sum(y[j * c : (j + 1) * c] ** 2) + np.sum(y[k * c :].reshape(k, -1)[j] ** 2) - collapse_tol**2

        collapse.terminal, collapse.direction = True, -1
        return collapse

    def converged(s: float, y: np.ndarray) -> float:
        return float(np.linalg.norm(field(s, y))) - gtol

    converged.terminal, converged.direction = True, -1
    y0 = np.concatenate([a[idx].ravel(), w[idx].ravel()])
    if np.linalg.norm(field(0.0, y0)) <= gtol:
        return []
    events = [*(norm_event(j) for j in range(k)), converged]
    sol = solve_ivp(field, (0, horizon), y0, method="LSODA", events=events, rtol=1e-10, atol=1e-13)
    a[idx], w[idx] = sol.y[: k * c, -1].reshape(k, c), sol.y[k * c :, -1].reshape(k, -1)
    fired = [j for j in range(k) if sol.t_events[j].size]
    if not fired and not sol.t_events[k].size:
        raise RuntimeError(f"cost minimization: gradient norm above gtol = {gtol} after time {horizon}")
    return fired


def minimize_cost(
    net: Network, a: np.ndarray, w: np.ndarray, active: list[int], gtol: float, collapse_tol: float, horizon: float
) -> dict[int, np.ndarray]:
    """GF of the active sub-network (a, w and ``active`` updated in place; dormant rows stay 0) to a critical point.

    Returns {collapsed neuron: its unit direction at collapse}.
    """
    collapsed: dict[int, np.ndarray] = {}
    while active:
        idx = np.array(active)
        fired = _gradient_flow(net, a, w, idx, gtol, collapse_tol, horizon)
        if not fired:
            break
        for j in fired:
            neuron = int(idx[j])
            theta = np.concatenate([a[neuron], w[neuron]])
            collapsed[neuron] = theta / np.linalg.norm(theta)
            a[neuron], w[neuron] = 0.0, 0.0
            active.remove(neuron)
    return collapsed
