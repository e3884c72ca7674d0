"""Gradient flow of the two-layer network f(x) = sum_i a_i sigma(w_i^T x) itself, from a small initialization: the
ground truth that AGF (``numerics.agf``) is compared with at kappa = 3 (spec §5 agreement measures).

The loss is the AGF network's, (1/2n) sum ||y - f||² (``two_layer.Network``), and time is rescaled as in
``algorithm``: t~ = t alpha^{kappa-2} (kappa > 2) or t / log(1/alpha) (kappa = 2), so that AGF's jump times are O(1).
Integrated with LSODA (``METHOD``; rtol 1e-10, atol rtol alpha by default: the dormant neurons are O(alpha) and their
directions matter): it switches to BDF across the fast jumps, where the flow is stiff (rates ~ 1/alpha in rescaled
time), and stays explicit on the slow plateaus, which is 3-4x faster than Radau with a finite-difference Jacobian.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np
from scipy.integrate import solve_ivp

from ..validation import finite_array
from .ground_truth import Path
from .two_layer import ACTIVATIONS, Network
from .validate import init_scale, positive

__all__ = ["NetworkFlow", "two_layer_gradient_flow"]


class DenseSolution(Protocol):
    """What ``NetworkFlow`` reads of a ``solve_ivp(..., dense_output=True)`` result: ``sol(t)`` (n x T)."""

    sol: Callable[[np.ndarray], np.ndarray]


METHOD = "LSODA"
"""The scipy integrator of the flow."""


class NetworkFlow:
    """A dense GF solution: ``path`` (state = (a, w) flattened, loss), ``norms(t)`` (T x H) the neuron norms."""

    def __init__(self, net: Network, solution: DenseSolution, H: int, t_end: float) -> None:
        self.net, self.solution, self.H = net, solution, H
        self.path = Path(self.state, self.loss, t_end)

    def state(self, t: object) -> np.ndarray:
        return self.solution.sol(np.atleast_1d(np.asarray(t, dtype=float))).T

    def weights(self, t: object) -> tuple[np.ndarray, np.ndarray]:
        """(a: T x H x c, w: T x H x d)."""
        y = self.state(t)
        c = self.net.Y.shape[1]
        return y[:, : self.H * c].reshape(len(y), self.H, c), y[:, self.H * c :].reshape(len(y), self.H, -1)

    def loss(self, t: object) -> np.ndarray:
        return np.array([self.net.loss(a, w) for a, w in zip(*self.weights(t), strict=True)])

    def norms(self, t: object) -> np.ndarray:
        a, w = self.weights(t)
        return np.sqrt(np.sum(a**2, axis=2) + np.sum(w**2, axis=2))


def two_layer_gradient_flow(
    X: object,
    Y: object,
    a0: object,
    w0: object,
    alpha: float,
    t_end: float,
    activation: str = "quadratic",
    rtol: float = 1e-10,
) -> NetworkFlow:
    """GF of the network from (a0: H x c, w0: H x d) on data X (n x d), Y (n,) or (n x c), in rescaled time up to
    ``t_end`` (> 0); ``alpha`` in (0, 1) is the initialization scale that sets the time rescaling; ``rtol`` in
    (0, 1e-3] the relative tolerance (the absolute one is rtol alpha)."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
    alpha, t_end, rtol = init_scale(alpha), positive("t_end", t_end), positive("rtol", rtol)
    if rtol > 1e-3:
        raise ValueError(f"rtol must be in (0, 1e-3], got {rtol!r}")
    X = finite_array("X", X, ndim=2)
    Y = finite_array("Y", Y)
    Y = Y[:, None] if Y.ndim == 1 else Y
    a0 = finite_array("a0", a0)
    a0 = a0[:, None] if a0.ndim == 1 else a0
    w0 = finite_array("w0", w0, ndim=2)
    if len(Y) != len(X) or a0.shape != (len(w0), Y.shape[1]) or w0.shape[1] != X.shape[1]:
        raise ValueError(f"shapes: X {X.shape}, Y {Y.shape}, a0 {a0.shape}, w0 {w0.shape} do not match (n, d, c, H)")
    H, c = a0.shape
    net = Network(X, Y, activation, np.ones_like(w0, dtype=bool))
    neurons = np.arange(H)
    speed = alpha ** (net.kappa - 2) if net.kappa > 2 else 1 / np.log(1 / alpha)

    def field(_t: float, y: np.ndarray) -> np.ndarray:
        grad_a, grad_w = net.gradient(y[: H * c].reshape(H, c), y[H * c :].reshape(H, -1), neurons)
        return -np.concatenate([grad_a.ravel(), grad_w.ravel()]) / speed

    y0 = np.concatenate([a0.ravel(), w0.ravel()])
    sol = solve_ivp(field, (0, t_end), y0, method=METHOD, dense_output=True, rtol=rtol, atol=rtol * alpha)
    if not sol.success:
        raise RuntimeError(f"two_layer_gradient_flow: {METHOD} failed: {sol.message}")
    return NetworkFlow(net, sol, H, t_end)
