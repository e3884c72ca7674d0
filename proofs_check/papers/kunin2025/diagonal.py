"""Diagonal linear networks: AGF is the Pesme–Flammarion algorithm (spec §4a, reference tests A and B).

Model f(x) = <u ⊙ v, x>, beta = u ⊙ v, loss L(beta) = ||X beta - y||² / (2n). Init (PF, [C]): u(0) = sqrt(2) alpha,
v(0) = 0. Exact gradient flow for this init: beta(t) = alpha² sinh(2 x(t)) with x' = -grad L(beta), x(0) = 0,
and rescaled time t~ = t / log(1/alpha); the AGF (PF) limit has |s| = |x| / log(1/alpha) as accumulated utility
over threshold (spec §4a).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import lsq_linear

from numerics.alternating.ground_truth import Path
from numerics.alternating.validate import count, init_scale, positive, real_array

__all__ = ["Saddle", "dln_gradient_descent", "dln_gradient_flow", "dln_loss", "pesme_flammarion"]

# exponent cap of alpha² e^{2|x|}: far above any |beta| on the path, it only tames rejected trial steps
_CAP = 60.0


@dataclass(frozen=True)
class Saddle:
    """One step of PF Algorithm 1: jump time t_k, saddle beta_k, loss level L(beta_k), and s_k after the jump."""

    time: float
    beta: np.ndarray
    loss: float
    s: np.ndarray

    @property
    def active(self) -> tuple[int, ...]:
        """Coordinates with |s_i| = 1 (accumulated utility at threshold)."""
        return tuple(int(i) for i in np.flatnonzero(np.abs(self.s) == 1.0))


def _data(X: object, y: object) -> tuple[np.ndarray, np.ndarray]:
    X = real_array("X", X, ndim=2)
    y = real_array("y", y, ndim=1)
    if X.shape[0] != y.shape[0] or X.shape[0] == 0:
        raise ValueError(f"X must have shape (n, d) and y shape (n,) with n >= 1; got {X.shape} and {y.shape}")
    return X, y


def dln_loss(X: np.ndarray, y: np.ndarray, beta: np.ndarray) -> np.ndarray:
    """L(beta) = ||X beta - y||² / (2n); ``beta`` of shape (d,) or (T, d)."""
    residual = np.asarray(beta) @ X.T - y
    return np.sum(residual**2, axis=-1) / (2 * len(y))


def _constrained_minimum(X: np.ndarray, y: np.ndarray, s: np.ndarray) -> np.ndarray:
    """PF step 3: argmin L with beta_i >= 0 (s_i = 1), <= 0 (s_i = -1), = 0 otherwise (bounded least squares)."""
    beta = np.zeros(X.shape[1])
    active = np.flatnonzero(np.abs(s) == 1.0)
    if active.size:
        lower = np.where(s[active] > 0, 0.0, -np.inf)
        upper = np.where(s[active] > 0, np.inf, 0.0)
        scale = np.sqrt(len(y))
        fit = lsq_linear(X[:, active] / scale, y / scale, bounds=(lower, upper), method="bvls", tol=1e-14)
        beta[active] = fit.x
    return beta


def pesme_flammarion(X: object, y: object, max_steps: int = 200, gtol: float = 1e-10) -> list[Saddle]:
    """PF Algorithm 1 (spec §4a), the alpha -> 0 limit of AGF and of gradient flow on the DLN.

    Starts at (t, beta, s) = (0, 0, 0); each step moves s = -t grad L until some |s_i| reaches 1 (several at once
    allowed), then re-solves the sign-constrained least squares. Stops when |grad L| <= ``gtol`` componentwise.
    Returns the saddles [(t_0 = 0, beta_0 = 0), (t_1, beta_1), ...]; loss levels are ``Saddle.loss``.
    """
    X, y = _data(X, y)
    max_steps = count("max_steps", max_steps)
    n, d = X.shape
    t, beta, s = 0.0, np.zeros(d), np.zeros(d)
    saddles = [Saddle(t, beta, float(dln_loss(X, y, beta)), s)]
    for _ in range(max_steps):
        grad = X.T @ (X @ beta - y) / n
        moving = np.abs(grad) > gtol
        if not moving.any():
            return saddles
        # time for s_i - delta grad_i to reach -sign(grad_i)
        delta = np.full(d, np.inf)
        delta[moving] = (1 + np.sign(grad[moving]) * s[moving]) / np.abs(grad[moving])
        step = float(delta.min())
        # coordinates with zero gradient keep s exactly (an active coordinate stays at |s| = 1)
        s = np.where(moving, np.clip(s - step * grad, -1.0, 1.0), s)
        hits = moving & (delta <= step * (1 + 1e-12) + 1e-15)
        s[hits] = -np.sign(grad[hits])
        t += step
        beta = _constrained_minimum(X, y, s)
        saddles.append(Saddle(t, beta, float(dln_loss(X, y, beta)), s.copy()))
    raise RuntimeError(f"pesme_flammarion: gradient still above gtol after max_steps = {max_steps} steps")


def _beta(x: np.ndarray, log_alpha: float) -> np.ndarray:
    """alpha² sinh(2x) without underflow of alpha²; capped at e^60 so that Radau trial steps stay finite."""
    big = np.exp(np.minimum(2 * np.abs(x) + 2 * log_alpha, _CAP))
    small = np.exp(-2 * np.abs(x) + 2 * log_alpha)
    return np.sign(x) * 0.5 * (big - small)


def dln_gradient_flow(X: object, y: object, alpha: float, t_end: float, rtol: float = 1e-10) -> Path:
    """Exact GF of the DLN from u = sqrt(2) alpha, v = 0, in rescaled time t~ = t / log(1/alpha) (spec §4a, test A).

    Integrates x' = -log(1/alpha) grad L(alpha² sinh 2x) with Radau and its Jacobian
    -log(1/alpha) (X^T X / n) diag(2 alpha² cosh 2x); ``Path.state(t)`` is beta(t) of shape (T, d).
    """
    X, y = _data(X, y)
    alpha, t_end = init_scale(alpha), positive("t_end", t_end)
    n = len(y)
    gram, xy = X.T @ X / n, X.T @ y / n
    log_alpha, c = np.log(alpha), -np.log(alpha)

    def field(_t: float, x: np.ndarray) -> np.ndarray:
        return -c * (gram @ _beta(x, log_alpha) - xy)

    def jacobian(_t: float, x: np.ndarray) -> np.ndarray:
        cosh = 0.5 * (np.exp(np.minimum(2 * np.abs(x) + 2 * log_alpha, _CAP)) + np.exp(-2 * np.abs(x) + 2 * log_alpha))
        return -c * gram * (2 * cosh)[None, :]

    with np.errstate(over="ignore"):
        x0 = np.zeros(X.shape[1])
        sol = solve_ivp(field, (0, t_end), x0, method="Radau", jac=jacobian, dense_output=True, rtol=rtol, atol=1e-12)
    if not sol.success:
        raise RuntimeError(f"dln_gradient_flow: Radau failed: {sol.message}")

    def beta(t: np.ndarray) -> np.ndarray:
        return _beta(sol.sol(np.asarray(t, dtype=float)).T, log_alpha)

    return Path(beta, lambda t: dln_loss(X, y, beta(t)), float(t_end))


def dln_gradient_descent(
    X: object, y: object, alpha: float, t_end: float, lr: float = 1e-3, record_every: int = 10
) -> Path:
    """GD on (u, v) from u = sqrt(2) alpha, v = 0 with step ``lr`` (as in [C]), time t = lr steps, rescaled by
    log(1/alpha) (spec §1, §5A). ``Path`` interpolates linearly between records taken every ``record_every`` steps."""
    X, y = _data(X, y)
    alpha, t_end, lr = init_scale(alpha), positive("t_end", t_end), positive("lr", lr)
    record_every = count("record_every", record_every)
    gram, xy = X.T @ X / len(y), X.T @ y / len(y)
    scale = np.log(1 / alpha)
    records = int(np.ceil(t_end * scale / (lr * record_every)))
    u, v = np.full(X.shape[1], np.sqrt(2) * alpha), np.zeros(X.shape[1])
    betas = np.empty((records + 1, X.shape[1]))
    betas[0] = u * v
    for k in range(1, records + 1):
        for _ in range(record_every):
            step = lr * (gram @ (u * v) - xy)
            u, v = u - step * v, v - step * u
        betas[k] = u * v
    times = np.arange(records + 1) * lr * record_every / scale

    def beta(t: np.ndarray) -> np.ndarray:
        t = np.asarray(t, dtype=float)
        return np.stack([np.interp(t, times, column) for column in betas.T], axis=-1)

    return Path(beta, lambda t: dln_loss(X, y, beta(t)), float(times[-1]))
