"""Utility maximization of Algorithm 1 (spec §2–§3): dormant neurons align and accumulate utility S_i.

Two implementations of one interface (``maximize``, ``activate``, ``make_dormant``, ``accumulated``):
* :class:`LogCoordinateDormant` (linear activation, kappa = 2): the dormant flow theta' = eta B(r) theta is solved
  exactly in log coordinates (``log_modes``), so exponentially small components survive (spec §3 pitfall);
* :class:`SphereDormant` (kappa > 2, here the quadratic activation, kappa = 3): theta_bar and q = alpha/||theta||
  are integrated with Radau in rescaled time t~ = eta t alpha.
Thresholds are at norm 1: c_i = -log||theta_i(0)|| (kappa = 2), (||theta_i(0)||^{2-kappa} - 1)/(kappa - 2) otherwise.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import sparse
from scipy.integrate import solve_ivp

from ._budget import counted
from ._events import StopFalling
from .log_modes import LogModes, first_crossing, log_norm
from .two_layer import Network
from .validate import neuron_norms

__all__ = ["LogCoordinateDormant", "SphereDormant", "threshold_q", "thresholds"]

# neurons whose threshold time is within this (relative) tolerance of the exit time activate together
SIMULTANEOUS = 1e-9


def threshold_q(alpha: float, kappa: int) -> float:
    """The kappa > 2 threshold in the coordinate q = (alpha/||theta||)^{kappa-2}: its value at norm 1."""
    return alpha ** (kappa - 2)


def thresholds(norms: np.ndarray, kappa: int) -> np.ndarray:
    """c_i: the value of eta S_i at which ||theta_i|| reaches 1 (spec §2 norm equation)."""
    return -np.log(norms) if kappa == 2 else (norms ** (2.0 - kappa) - 1) / (kappa - 2)


class LogCoordinateDormant:
    """Dormant neurons of a linear-activation network; a re-dormant neuron keeps the balance of its init.

    A collapsed neuron is stored at norm 1 (S = c/eta) as the eigenvector e of its generator nearest to its direction
    plus the partner mode (e_a, -e_w) with coefficient (||a(0)||² - ||w(0)||²)/2, so that ||a||² - ||w||², conserved
    by GF, keeps its initial value: that exponentially small component decides when it flips sign (spec §4a, §5B).
    """

    def __init__(self, net: Network, theta0: np.ndarray, alpha: float, eta: float) -> None:
        self.net, self.eta, self.scale = net, eta, np.log(1 / alpha)
        self.c = net.Y.shape[1]
        norms = neuron_norms(theta0)
        self.log_norm0 = np.log(norms)
        # ||a||² - ||w||² as sign and log|.|, computed on theta / ||theta|| so that alpha² cannot underflow
        unit = theta0 / norms[:, None]
        balance = np.sum(unit[:, : self.c] ** 2, axis=1) - np.sum(unit[:, self.c :] ** 2, axis=1)
        self.imbalance_sign = np.sign(balance)
        with np.errstate(divide="ignore"):
            self.log_imbalance = np.log(np.abs(balance)) + 2 * self.log_norm0
        # with every neuron dormant f = 0 and the residual is Y
        self.modes = {i: LogModes.from_vector(theta, net.generator(net.Y, i)) for i, theta in enumerate(theta0)}

    def __len__(self) -> int:
        return len(self.modes)

    def maximize(self, r: np.ndarray, horizon: float) -> tuple[float, list[int]]:
        """Advance to the first threshold crossing: (rescaled duration, neurons at threshold); (inf, []) if there is
        none, (its rescaled time, []) if it lies beyond ``horizon``."""
        for i in self.modes:
            self.modes[i] = self.modes[i].rebased(self.net.generator(r, i))
        crossing = {i: first_crossing(m) for i, m in self.modes.items()}
        exit_time = min(crossing.values())
        if exit_time / self.scale > horizon:
            return exit_time / self.scale, []
        for i in self.modes:
            self.modes[i] = self.modes[i].advanced(exit_time)
        hits = [i for i, t in crossing.items() if t <= exit_time + SIMULTANEOUS * max(1.0, exit_time)]
        return exit_time / self.scale, hits

    def activate(self, i: int) -> np.ndarray:
        return self.modes.pop(i).direction()

    def make_dormant(self, j: int, direction: np.ndarray, r: np.ndarray) -> None:
        eigenvalues, vectors = np.linalg.eigh(self.net.generator(r, j))
        k = int(np.argmax(np.abs(vectors.T @ direction)))
        e = vectors[:, k] * np.sign(vectors[:, k] @ direction)
        if eigenvalues[k] == 0 or self.imbalance_sign[j] == 0:
            self.modes[j] = LogModes(e[:, None], np.zeros(1), np.ones(1), eigenvalues[k : k + 1])
            return
        partner = np.concatenate([e[: self.c], -e[self.c :]])
        self.modes[j] = LogModes(
            np.column_stack([e, partner]),
            np.array([0.0, self.log_imbalance[j] - np.log(2)]),
            np.array([1.0, self.imbalance_sign[j]]),
            np.array([eigenvalues[k], -eigenvalues[k]]),
        )

    def accumulated(self, S: np.ndarray) -> None:
        """Write S_i = (log||theta_i|| - log||theta_i(0)||)/eta of the dormant neurons into ``S``."""
        for i, m in self.modes.items():
            S[i] = (float(log_norm(m, 0.0)) - self.log_norm0[i]) / self.eta


def dormant_field(
    net: Network, r: np.ndarray, neurons: np.ndarray, unit: float
) -> Callable[[float, np.ndarray], np.ndarray]:
    """The flow of the dormant neurons ``neurons`` against the fixed residual r, over y = (directions theta (k x p,
    raveled), q (k)): each direction ascends its utility on the sphere at rate 1/q, and q falls at
    (kappa - 2) kappa U; time in units of 1/``unit``."""
    k, p, c = len(neurons), net.X.shape[1] + net.Y.shape[1], net.Y.shape[1]

    def field(_t: float, y: np.ndarray) -> np.ndarray:
        theta = y[: k * p].reshape(k, p)
        theta = theta / np.linalg.norm(theta, axis=1, keepdims=True)
        utility, grad_a, grad_w = net.utility_gradient(r, theta[:, :c], theta[:, c:], neurons)
        grad = np.hstack([grad_a, grad_w])
        tangent = grad - np.sum(grad * theta, axis=1, keepdims=True) * theta
        velocity = np.concatenate([(tangent / y[k * p :, None]).ravel(), -(net.kappa - 2) * net.kappa * utility])
        return velocity / unit

    return field


def neuron_blocks(k: int, p: int) -> sparse.csr_array:
    """The sparsity of the Jacobian of the dormant flow over y = (theta_1 … theta_k (p entries each), q_1 … q_k):
    each neuron's direction and q move against the fixed residual, independently of the other neurons, so the
    Jacobian is block diagonal, one (p + 1) x (p + 1) block per neuron. Radau then estimates it with p + 1 field
    evaluations (grouped finite differences) instead of k (p + 1), and factors it sparsely."""
    block = np.hstack([np.arange(k)[:, None] * p + np.arange(p), k * p + np.arange(k)[:, None]])  # (k, p + 1)
    rows, cols = np.repeat(block, p + 1, axis=1).ravel(), np.tile(block, (1, p + 1)).ravel()
    return sparse.csr_array((np.ones(len(rows)), (rows, cols)), shape=(k * (p + 1), k * (p + 1)))


class SphereDormant:
    """Dormant neurons for kappa > 2 in rescaled time t~ = eta t alpha^{kappa-2}, with q = (alpha/||theta||)^{kappa-2}:
    theta_bar' = P^perp grad U(theta_bar) / q and q' = -(kappa - 2) kappa U(theta_bar) (spec §2); the threshold
    (norm 1) is q = alpha^{kappa-2}. A collapsed neuron keeps its direction and re-enters at the threshold. Each
    utility phase evaluates the field at most ``max_evaluations`` times."""

    def __init__(self, net: Network, theta0: np.ndarray, alpha: float, eta: float, max_evaluations: int) -> None:
        self.net, self.eta, self.max_evaluations = net, eta, max_evaluations
        self.threshold = threshold_q(alpha, net.kappa)
        norms = neuron_norms(theta0)
        self.q0 = (alpha / norms) ** (net.kappa - 2)
        self.directions = {i: theta / n for i, (theta, n) in enumerate(zip(theta0, norms, strict=True))}
        self.q = {i: float(q) for i, q in enumerate(self.q0)}

    def __len__(self) -> int:
        return len(self.directions)

    def maximize(self, r: np.ndarray, horizon: float) -> tuple[float, list[int]]:
        """Integrate to the first threshold crossing: (rescaled duration, neurons at threshold); (inf, []) if every
        dormant utility is <= 0 at ``horizon`` without a crossing, (horizon, []) if some is still positive."""
        net, threshold = self.net, self.threshold
        neurons = np.array(sorted(self.directions))
        k, p, c = len(neurons), net.X.shape[1] + net.Y.shape[1], net.Y.shape[1]
        # time in units of 1/(the data's utility scale): the field is O(1) and the cost independent of the data's scale
        unit = net.utility_scale or 1.0

        field = dormant_field(net, r, neurons, unit)

        def event(j: int) -> StopFalling:
            def reached(_t: float, y: np.ndarray) -> float:
                return y[k * p + j] - threshold

            return StopFalling(reached)

        y0 = np.concatenate([np.ravel([self.directions[i] for i in neurons]), [self.q[i] for i in neurons]])
        events = [event(j) for j in range(k)]
        rhs = counted(field, self.max_evaluations, "utility maximization")
        sol = solve_ivp(
            rhs,
            (0, horizon * unit),
            y0,
            method="Radau",
            events=events,
            rtol=1e-10,
            atol=1e-13,
            jac_sparsity=neuron_blocks(k, p),
        )
        theta = sol.y[: k * p, -1].reshape(k, p)
        for j, i in enumerate(neurons):
            self.directions[i] = theta[j] / np.linalg.norm(theta[j])
            self.q[i] = float(sol.y[k * p + j, -1])
        if sol.status != 1:
            utility = net.utility_gradient(r, theta[:, :c], theta[:, c:], neurons)[0]
            return (float(horizon) if np.any(utility > 0) else np.inf), []
        return float(sol.t[-1] / unit), [int(i) for i in neurons if self.q[i] <= threshold * (1 + SIMULTANEOUS)]

    def activate(self, i: int) -> np.ndarray:
        self.q.pop(i)
        return self.directions.pop(i)

    def make_dormant(self, j: int, direction: np.ndarray, r: np.ndarray) -> None:
        self.directions[j], self.q[j] = direction, self.threshold

    def accumulated(self, S: np.ndarray) -> None:
        """Write S_i = (q_i(0) - q_i) / ((kappa - 2) eta alpha^{kappa-2}) of the dormant neurons into ``S``."""
        for i, q in self.q.items():
            S[i] = (self.q0[i] - q) / ((self.net.kappa - 2) * self.eta * self.threshold)
