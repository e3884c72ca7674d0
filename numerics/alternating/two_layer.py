"""Two-layer networks f(x) = sum_i a_i sigma(w_i^T x) on a finite data set (spec §1, §2).

Loss L = (1/2n) sum_n ||y_n - f(x_n)||², residual r = y - f (the negative output gradient of this loss), utility
U_i = (1/n) sum_n <a_i sigma(w_i^T x_n), r_n>. ``support`` masks the input coordinates each neuron may use
(a diagonal linear network is the linear network with support = identity, spec §4a).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ACTIVATIONS", "Network"]

# activation -> homogeneity degree kappa of a sigma(w^T x) (spec §1)
ACTIVATIONS = {"linear": 2, "quadratic": 3}


@dataclass(frozen=True)
class Network:
    """Data (X: n x d, Y: n x c), the activation and the support mask (H x d) of the neurons."""

    X: np.ndarray
    Y: np.ndarray
    activation: str
    support: np.ndarray

    @property
    def kappa(self) -> int:
        return ACTIVATIONS[self.activation]

    def sigma(self, z: np.ndarray) -> np.ndarray:
        return z if self.activation == "linear" else z**2

    def dsigma(self, z: np.ndarray) -> np.ndarray:
        return np.ones_like(z) if self.activation == "linear" else 2 * z

    def output(self, a: np.ndarray, w: np.ndarray) -> np.ndarray:
        """f(X) of shape (n, c) for neurons a (k x c), w (k x d)."""
        return self.sigma(self.X @ w.T) @ a

    def residual(self, a: np.ndarray, w: np.ndarray) -> np.ndarray:
        return self.Y - self.output(a, w)

    def loss(self, a: np.ndarray, w: np.ndarray) -> float:
        return float(np.sum(self.residual(a, w) ** 2) / (2 * len(self.X)))

    def gradient(self, a: np.ndarray, w: np.ndarray, neurons: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(dL/da, dL/dw) of the sub-network ``neurons`` (w-gradient masked by their support)."""
        z = self.X @ w.T
        r = self.Y - self.sigma(z) @ a
        n = len(self.X)
        grad_a = -self.sigma(z).T @ r / n
        grad_w = -((r @ a.T) * self.dsigma(z)).T @ self.X / n
        return grad_a, grad_w * self.support[neurons]

    def utility_gradient(
        self, r: np.ndarray, a: np.ndarray, w: np.ndarray, neurons: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(U, dU/da, dU/dw) per neuron against a fixed residual r (n x c)."""
        z = self.X @ w.T
        n = len(self.X)
        ar = r @ a.T
        utility = np.sum(ar * self.sigma(z), axis=0) / n
        grad_a = self.sigma(z).T @ r / n
        grad_w = (ar * self.dsigma(z)).T @ self.X / n
        return utility, grad_a, grad_w * self.support[neurons]

    def generator(self, r: np.ndarray, neuron: int) -> np.ndarray:
        """B with U = ½ theta^T B theta, theta = (a, w), for the linear activation: [[0, M], [M^T, 0]], M = E[r x^T]."""
        moment = (r.T @ self.X / len(self.X)) * self.support[neuron]
        c, d = moment.shape
        return np.block([[np.zeros((c, c)), moment], [moment.T, np.zeros((d, d))]])
