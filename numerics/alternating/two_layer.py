"""Two-layer networks f(x) = sum_i a_i sigma(w_i^T x) on a finite data set (spec §1, §2).

Loss L = (1/2n) sum_n ||y_n - f(x_n)||², residual r = y - f (the negative output gradient of this loss), utility
U_i = (1/n) sum_n <a_i sigma(w_i^T x_n), r_n>. ``support`` masks the input coordinates each neuron may use
(a diagonal linear network is the linear network with support = identity, spec §4a).

Parameters of a sub-network of k neurons are flattened as (a.ravel(), w.ravel()) (a: k x c, w: k x d). Since sigma
is homogeneous of degree kappa - 1, GF conserves each neuron's imbalance (kappa - 1)|a_i|² - |w_i|² (the two
layers' Euler identities give d|a_i|²/dt = d|w_i|²/dt / (kappa - 1)), which bounds its norm from below.
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

    @property
    def utility_scale(self) -> float:
        """rms(x)^{kappa-1} rms(y): the size of the utility gradient on the unit sphere, which scales like the data."""
        return float(self._rms(self.X) ** (self.kappa - 1) * self._rms(self.Y))

    @property
    def neuron_scale(self) -> float:
        """N = (rms(y) / rms(x)^{kappa-1})^{1/kappa}: the norm of a neuron whose output has the size of y."""
        return float((self._rms(self.Y) / self._rms(self.X) ** (self.kappa - 1)) ** (1 / self.kappa))

    @property
    def curvature_scale(self) -> float:
        """(rms(y) / N)²: the size of the Hessian of L at fitted neurons, the inverse time scale of cost
        minimization."""
        return float((self._rms(self.Y) / self.neuron_scale) ** 2)

    def _rms(self, data: np.ndarray) -> float:
        return float(np.linalg.norm(data) / np.sqrt(len(data)))

    def sigma(self, z: np.ndarray) -> np.ndarray:
        return z if self.activation == "linear" else z**2

    def dsigma(self, z: np.ndarray) -> np.ndarray:
        return np.ones_like(z) if self.activation == "linear" else 2 * z

    def d2sigma(self, z: np.ndarray) -> np.ndarray:
        return np.zeros_like(z) if self.activation == "linear" else np.full_like(z, 2.0)

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

    def jacobian(self, a: np.ndarray, w: np.ndarray, neurons: np.ndarray) -> np.ndarray:
        """J[n, m, :] = d f(x_n)_m / d(a, w) of the sub-network ``neurons``: shape (n, c, k (c + d))."""
        z = self.X @ w.T
        (n, k), (c, d) = z.shape, (a.shape[1], w.shape[1])
        d_a = np.einsum("nj,mq->nmjq", self.sigma(z), np.eye(c)).reshape(n, c, k * c)
        d_w = np.einsum("jm,nj,ne,je->nmje", a, self.dsigma(z), self.X, self.support[neurons]).reshape(n, c, k * d)
        return np.concatenate([d_a, d_w], axis=2)

    def hessian(self, a: np.ndarray, w: np.ndarray, neurons: np.ndarray) -> np.ndarray:
        """Hessian of L over (a, w): (J^T J - sum_n <r_n, d²f(x_n)>) / n; d²f is block diagonal per neuron, with
        d²f/da_j dw_j = sigma'(z) x and d²f/dw_j² = a_j sigma''(z) x x^T."""
        J = self.jacobian(a, w, neurons)
        z = self.X @ w.T
        r = self.Y - self.sigma(z) @ a
        (n, k), (c, d) = z.shape, (a.shape[1], w.shape[1])
        mask = self.support[neurons]
        cross = np.einsum("nm,nj,ne,je->jme", r, self.dsigma(z), self.X, mask)
        curvature = np.einsum("nm,jm,nj,ne,nf,je,jf->jef", r, a, self.d2sigma(z), self.X, self.X, mask, mask)
        second = np.zeros((k * (c + d), k * (c + d)))
        for j in range(k):
            rows, cols = slice(j * c, (j + 1) * c), slice(k * c + j * d, k * c + (j + 1) * d)
            second[rows, cols], second[cols, rows], second[cols, cols] = cross[j], cross[j].T, curvature[j]
        return (np.einsum("nmp,nmq->pq", J, J) - second) / n

    def norm_floors(self, a: np.ndarray, w: np.ndarray) -> np.ndarray:
        """Per neuron, the least ||theta_i||² that GF allows given its conserved imbalance
        delta_i = (kappa - 1)|a_i|² - |w_i|²: delta_i / (kappa - 1) if delta_i > 0 (at w_i = 0), else -delta_i."""
        degree = self.kappa - 1
        delta = degree * np.sum(a**2, axis=1) - np.sum(w**2, axis=1)
        return np.where(delta > 0, delta / degree, -delta)

    def collapse_margins(self, a: np.ndarray, w: np.ndarray) -> np.ndarray:
        """||theta_i||² minus its floor, without cancellation: |w_i|² kappa/(kappa - 1) if delta_i > 0, else
        kappa |a_i|² (2 min(|a_i|², |w_i|²) for the linear activation); 0 iff neuron i's output vanishes."""
        degree = self.kappa - 1
        a_squared, w_squared = np.sum(a**2, axis=1), np.sum(w**2, axis=1)
        return np.where(degree * a_squared > w_squared, w_squared * self.kappa / degree, a_squared * self.kappa)

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

    def utilities_of_the_rest(self, a: np.ndarray, w: np.ndarray) -> np.ndarray:
        """Per neuron j of the sub-network (a: k x c, w: k x d), U_j against the residual of the others,
        r + a_j sigma(w_j^T x) with r the residual of all k: (1/n) sum_n sigma_nj (<r_n, a_j> + sigma_nj |a_j|²), in
        one pass over the data for all j."""
        s = self.sigma(self.X @ w.T)
        r = self.Y - s @ a
        return (np.sum(s * (r @ a.T), axis=0) + np.sum(s**2, axis=0) * np.sum(a**2, axis=1)) / len(self.X)

    def generator(self, r: np.ndarray, neuron: int) -> np.ndarray:
        """B with U = ½ theta^T B theta, theta = (a, w), for the linear activation: [[0, M], [M^T, 0]], M = E[r x^T]."""
        moment = (r.T @ self.X / len(self.X)) * self.support[neuron]
        c, d = moment.shape
        return np.block([[np.zeros((c, c)), moment], [moment.T, np.zeros((d, d))]])
