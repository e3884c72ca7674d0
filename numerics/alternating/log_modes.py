"""Exact dormant dynamics of a linear utility in log coordinates (spec §3 "Pitfall").

For kappa = 2 and a linear activation the utility is U(theta) = ½ theta^T B theta, so a dormant neuron follows the
linear flow theta' = eta B theta. A neuron is stored as theta = sum_k sign_k exp(log_abs_k) e_k over orthonormal
eigenvectors e_k of B, so that components exponentially smaller than the dominant one (of order alpha^const, which
decide later jump times and sign flips) survive; renormalizing theta in float64 would erase them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq, minimize_scalar
from scipy.special import logsumexp

from .validate import neuron_norms

__all__ = ["LogModes", "first_crossing", "log_norm"]

# relative residual below which a stored basis vector still counts as an eigenvector of a new generator
_EIGEN_TOL = 1e-10


@dataclass(frozen=True)
class LogModes:
    """theta = sum_k sign[k] exp(log_abs[k]) basis[:, k]; ``rates[k]`` = e_k^T B e_k of the current generator B."""

    basis: np.ndarray
    log_abs: np.ndarray
    sign: np.ndarray
    rates: np.ndarray

    @classmethod
    def from_vector(cls, theta: np.ndarray, generator: np.ndarray) -> LogModes:
        """The modes of a float vector in the eigenbasis of ``generator``."""
        norm = float(neuron_norms(theta))
        single = cls(theta[:, None] / norm, np.array([np.log(norm)]), np.ones(1), np.zeros(1))
        return single.rebased(generator)

    def rebased(self, generator: np.ndarray) -> LogModes:
        """The same vector expanded over eigenvectors of ``generator`` (kept if they already are eigenvectors).

        Keeping the basis when possible is what preserves the small components exactly: re-expanding over a
        freshly computed basis mixes them with rounding errors of the dominant component.
        """
        rates = np.einsum("pk,pq,qk->k", self.basis, generator, self.basis)
        residual = generator @ self.basis - self.basis * rates
        scale = max(1.0, float(np.linalg.norm(generator)))
        if np.all(np.linalg.norm(residual, axis=0) <= _EIGEN_TOL * scale):
            return LogModes(self.basis, self.log_abs, self.sign, rates)
        eigenvalues, vectors = np.linalg.eigh(generator)
        overlaps = self.basis.T @ vectors
        with np.errstate(divide="ignore"):
            terms = self.log_abs[:, None] + np.log(np.abs(overlaps))
        log_abs, sign = logsumexp(terms, axis=0, b=self.sign[:, None] * np.sign(overlaps), return_sign=True)
        return LogModes(vectors, log_abs, sign, eigenvalues)

    def advanced(self, time: float) -> LogModes:
        """The modes after the linear flow exp(time B) (time already multiplied by eta)."""
        return LogModes(self.basis, self.log_abs + self.rates * time, self.sign, self.rates)

    def direction(self) -> np.ndarray:
        """theta / ||theta|| as a float vector (small components are rounded away here, by design)."""
        weights = self.sign * np.exp(self.log_abs - np.max(self.log_abs))
        vector = self.basis @ weights
        return vector / np.linalg.norm(vector)


def log_norm(modes: LogModes, time: float | np.ndarray) -> np.ndarray:
    """log ||theta(time)|| = ½ logsumexp(2 (log_abs + rates time)) (convex in time)."""
    time = np.asarray(time, dtype=float)
    return 0.5 * logsumexp(2 * (modes.log_abs + np.multiply.outer(time, modes.rates)), axis=-1)


def first_crossing(modes: LogModes) -> float:
    """First time >= 0 at which log ||theta|| exceeds 0 (norm 1); inf if it never does.

    log ||theta(t)|| is convex, so after its minimum it crosses 0 at most once; the crossing is bracketed by the
    time at which the fastest-growing single mode alone reaches norm 1.
    """
    present = np.isfinite(modes.log_abs)
    growing = present & (modes.rates > 0)
    if not growing.any():
        return np.inf
    with np.errstate(over="ignore"):  # a rate near 0 puts its mode's crossing at +inf
        upper = float(np.min(np.maximum(-modes.log_abs[growing], 0.0) / modes.rates[growing]))

    def f(t: float) -> float:
        # far out in the bracket the norm overflows: +inf is on the right side of the root
        with np.errstate(over="ignore", divide="ignore"):
            return float(log_norm(modes, t))

    start = 0.0
    if f(0.0) >= 0:
        weights = np.exp(2 * (modes.log_abs[present] - np.max(modes.log_abs[present])))
        if np.dot(weights, modes.rates[present]) > 0:
            return 0.0
        start = float(minimize_scalar(f, bounds=(0.0, upper), method="bounded", options={"xatol": 1e-12}).x)
        if f(start) >= 0:
            return start
    if f(upper) <= 0:
        return upper
    try:
        return float(brentq(f, start, upper, xtol=1e-14, rtol=4 * np.finfo(float).eps, maxiter=200))
    except RuntimeError:
        # brentq stalls where f is flat to rounding; bisection on the bracket f(start) < 0 < f(upper) always ends
        low, high = start, upper
        for _ in range(2200):  # enough halvings to reach adjacent floats from any float64 bracket
            middle = 0.5 * (low + high)
            if middle in (low, high):
                break
            low, high = (middle, high) if f(middle) <= 0 else (low, middle)
        return high
