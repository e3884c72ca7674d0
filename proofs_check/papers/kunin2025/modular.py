"""Quadratic network on modular addition: the first utility maximization (spec §4d, Theorem 5.1, test D).

Input (rho_a x, rho_b x) for (a, b) in Z_p², (rho_a x)_j = x_{j-a}, target rho_{a+b} x, x a mean-centred template.
A neuron f(a, b) = w (<u, rho_a x> + <v, rho_b x>)² has utility U = (1/p²) sum_{a,b} <f(a, b), rho_{a+b} x> at the
residual r = y. With x^[k] = sum_j x_j e^{-2 pi i j k / p} the spec's Fourier form is
U = (2/p³) Re sum_k u^[k] v^[k] conj(w^[k]) |x^[k]|² conj(x^[k]).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.alternating.validate import real_array

__all__ = [
    "Maximizer",
    "dominant_frequency",
    "fourier_utility",
    "maximal_utility",
    "modular_utility",
    "theorem51_neuron",
    "utility_ascent",
]


def _template(x: object) -> np.ndarray:
    x = real_array("x", x, ndim=1)
    if x.size < 3 or abs(x.mean()) > 1e-12 * max(1.0, np.abs(x).max()) or not np.any(x):
        raise ValueError(f"x must be a non-zero mean-centred template of length p >= 3, got mean {x.mean()!r}")
    return x


def _shifts(x: np.ndarray) -> np.ndarray:
    """Row a is rho_a x, i.e. (rho_a x)_j = x_{(j - a) mod p}."""
    p = len(x)
    return x[(np.arange(p)[None, :] - np.arange(p)[:, None]) % p]


def modular_utility(u: np.ndarray, v: np.ndarray, w: np.ndarray, x: object) -> float:
    """U by the direct sum over all p² pairs."""
    x = _template(x)
    shifts = _shifts(x)
    p = len(x)
    hidden = (shifts @ u)[:, None] + (shifts @ v)[None, :]
    target = shifts[(np.arange(p)[:, None] + np.arange(p)[None, :]) % p]
    return float(np.mean(hidden**2 * (target @ w)))


def _utility_gradient(theta: np.ndarray, x: np.ndarray) -> tuple[float, np.ndarray]:
    p = len(x)
    u, v, w = theta[:p], theta[p : 2 * p], theta[2 * p :]
    shifts = _shifts(x)
    hidden = (shifts @ u)[:, None] + (shifts @ v)[None, :]
    target = shifts[(np.arange(p)[:, None] + np.arange(p)[None, :]) % p]
    tw = target @ w
    weight = 2 * hidden * tw / p**2
    grad_w = np.einsum("ab,abj->j", hidden**2, target) / p**2
    grad = np.concatenate([shifts.T @ weight.sum(1), shifts.T @ weight.sum(0), grad_w])
    return float(np.mean(hidden**2 * tw)), grad


def fourier_utility(u: np.ndarray, v: np.ndarray, w: np.ndarray, x: object) -> float:
    """U by the spec's Fourier formula (the squared terms drop out because x has zero mean)."""
    x = _template(x)
    xh = np.fft.fft(x)
    total = np.sum(np.fft.fft(u) * np.fft.fft(v) * np.conj(np.fft.fft(w)) * np.abs(xh) ** 2 * np.conj(xh))
    return float(2 * total.real / len(x) ** 3)


def dominant_frequency(x: object) -> int:
    """k* = argmax_{1 <= k <= p // 2} |x^[k]|; ValueError if it is not unique (Theorem 5.1 assumes it is)."""
    x = _template(x)
    magnitudes = np.abs(np.fft.fft(x))[1 : len(x) // 2 + 1]
    order = np.argsort(magnitudes)[::-1]
    if len(order) > 1 and np.isclose(magnitudes[order[0]], magnitudes[order[1]], rtol=1e-9):
        raise ValueError("x must have a unique dominant frequency (|x^[k]| ties)")
    return int(order[0]) + 1


def maximal_utility(x: object) -> float:
    """U* = ½ (2/(3p))^{3/2} |x^[k*]|³ (Theorem 5.1 with the spec's constants [D])."""
    x = _template(x)
    p = len(x)
    return float(0.5 * (2 / (3 * p)) ** 1.5 * np.abs(np.fft.fft(x)[dominant_frequency(x)]) ** 3)


def theorem51_neuron(x: object, phi_u: float, phi_v: float, phi_w: float | None = None) -> np.ndarray:
    """(u, v, w) = A cos(omega j + phi), A = sqrt(2/(3p)), omega = 2 pi k*/p; phi_w defaults to the theorem's
    phi_u + phi_v - arg x^[k*]. Returns the concatenated unit vector."""
    x = _template(x)
    p, k = len(x), dominant_frequency(x)
    if phi_w is None:
        phi_w = phi_u + phi_v - float(np.angle(np.fft.fft(x)[k]))
    j = np.arange(p)
    amplitude, omega = np.sqrt(2 / (3 * p)), 2 * np.pi * k / p
    return np.concatenate([amplitude * np.cos(omega * j + phi) for phi in (phi_u, phi_v, phi_w)])


@dataclass(frozen=True)
class Maximizer:
    """Result of projected gradient ascent of U on the unit sphere of (u, v, w)."""

    theta: np.ndarray
    utility: float
    energy_at_dominant: float
    squared_norms: np.ndarray


def utility_ascent(x: object, seed: int = 0, steps: int = 20000, lr: float | None = None) -> Maximizer:
    """Projected gradient ascent theta <- normalize(theta + lr grad U) from a random unit theta (spec §5D)."""
    x = _template(x)
    p = len(x)
    rate = 0.5 / maximal_utility(x) if lr is None else lr
    theta = np.random.default_rng(seed).normal(size=3 * p)
    theta /= np.linalg.norm(theta)
    for _ in range(steps):
        _, grad = _utility_gradient(theta, x)
        theta = theta + rate * grad
        theta /= np.linalg.norm(theta)
    k = dominant_frequency(x)
    spectra = np.abs(np.fft.fft(theta.reshape(3, p), axis=1)) ** 2
    energy = float(spectra[:, [k, p - k]].sum() / spectra.sum())
    squared = np.sum(theta.reshape(3, p) ** 2, axis=1)
    return Maximizer(theta, _utility_gradient(theta, x)[0], energy, squared)
