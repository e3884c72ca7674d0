"""Attention-only linear transformer on in-context linear regression (spec §4c).

Data: x_n ~ N(0, Sigma), Sigma = diag(lam) (the problem is rotation invariant, so Q = I), w ~ N(0, I_D),
y_n = w^T x_n, n = 1..N; prediction y^ = x_q^T Gamma z with z = sum_n x_n y_n and Gamma = sum_h v_h q_h k_h^T (no 1/N,
as in [C]). With C = sum_n x_n x_n^T, E C = N Sigma and E C² = N(N+1) Sigma² + N tr(Sigma) Sigma (Wishart), so the
population loss ½ E (y_q - y^)² is exactly
    L(Gamma) = ½ [tr Sigma - 2N tr(Sigma Gamma Sigma) + N tr(Gamma^T Sigma Gamma K)],
    K = (N+1) Sigma² + tr(Sigma) Sigma.
Heads theta_h = (v_h, k_h, q_h) are 3-homogeneous; rescaled time t~ = eta t alpha (spec §1). Init convention:
v ~ N(0, alpha²/3), k, q ~ N(0, alpha²/(3D) I), so E ||theta_h||² = alpha².
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.integrate import solve_ivp

from numerics.alternating.ground_truth import Path
from numerics.alternating.validate import init_scale, positive, real_array

__all__ = ["attention_gradient_flow", "attention_jump_bound", "attention_loss", "attention_loss_levels"]


def _spectrum(lam: object, N: int) -> np.ndarray:
    lam = real_array("lam", lam, ndim=1)
    if lam.size == 0 or np.any(lam <= 0) or np.any(np.diff(lam) > 0):
        raise ValueError(f"lam must be a non-empty non-increasing sequence of eigenvalues > 0, got {lam}")
    if not (isinstance(N, int) and N >= 1):
        raise ValueError(f"N (context length) must be an integer >= 1, got {N!r}")
    return lam


def attention_loss_levels(lam: object, N: int) -> np.ndarray:
    """l_k = ½ [tr Sigma - sum_{j<=k} N lam_j² / (tr Sigma + (N+1) lam_j)], k = 0..D ([C], spec §4c)."""
    lam = _spectrum(lam, N)
    gains = N * lam**2 / (lam.sum() + (N + 1) * lam)
    return 0.5 * (lam.sum() - np.concatenate([[0.0], np.cumsum(gains)]))


def attention_loss(Gamma: np.ndarray, lam: object, N: int) -> np.ndarray:
    """The exact population loss L(Gamma) of the module docstring; Gamma of shape (..., D, D)."""
    lam = _spectrum(lam, N)
    Sigma = np.diag(lam)
    K = (N + 1) * Sigma @ Sigma + lam.sum() * Sigma
    linear = np.einsum("...ij,ji->...", Gamma, Sigma @ Sigma)
    quadratic = np.einsum("...ji,jk,...kl,li->...", Gamma, Sigma, Gamma, K)
    return 0.5 * (lam.sum() - 2 * N * linear + N * quadratic)


def attention_jump_bound(lam_k: float, N: int, dormant_norm: float, alpha: float) -> float:
    """Eq. 7 ([C] form) in rescaled time: tau~_k - tau~_{k-1} >= sqrt(3) alpha / (N lam_k² max_{i in D} ||theta_i||).

    From d(1/||theta||)/dt = -3 eta U and U <= N lam_k² / (3 sqrt 3) (perfect alignment), so a lower bound.
    """
    return float(np.sqrt(3) * alpha / (N * lam_k**2 * dormant_norm))


def attention_gradient_flow(
    lam: object, N: int, heads: int, alpha: float, t_end: float, seed: int = 0, rtol: float = 1e-10
) -> tuple[Path, Callable[[np.ndarray], np.ndarray]]:
    """GF of the H-head model from the init of the module docstring, in rescaled time t~ = t alpha (Radau).

    Returns (Path with state = Gamma flattened, the head norms ||theta_h(t)|| as a callable (T, H)).
    """
    lam = _spectrum(lam, N)
    alpha, t_end = init_scale(alpha), positive("t_end", t_end)
    if not (isinstance(heads, int) and heads >= 1):
        raise ValueError(f"heads must be an integer >= 1, got {heads!r}")
    D = lam.size
    Sigma = np.diag(lam)
    K = (N + 1) * Sigma @ Sigma + lam.sum() * Sigma
    rng = np.random.default_rng(seed)
    v0 = rng.normal(size=heads) * alpha / np.sqrt(3)
    kq0 = rng.normal(size=(2, heads, D)) * alpha / np.sqrt(3 * D)

    def unpack(y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return y[:heads], y[heads : heads + heads * D].reshape(heads, D), y[heads + heads * D :].reshape(heads, D)

    def gamma(v: np.ndarray, k: np.ndarray, q: np.ndarray) -> np.ndarray:
        return np.einsum("h,hi,hj->ij", v, q, k)

    def field(_t: float, y: np.ndarray) -> np.ndarray:
        v, k, q = unpack(y)
        G = N * (Sigma @ gamma(v, k, q) @ K - Sigma @ Sigma)
        dv = -np.einsum("hi,ij,hj->h", q, G, k)
        dk = -v[:, None] * (q @ G)
        dq = -v[:, None] * (k @ G.T)
        return np.concatenate([dv, dk.ravel(), dq.ravel()]) / alpha

    y0 = np.concatenate([v0, kq0[0].ravel(), kq0[1].ravel()])
    sol = solve_ivp(field, (0, t_end), y0, method="Radau", dense_output=True, rtol=rtol, atol=1e-6 * alpha)
    if not sol.success:
        raise RuntimeError(f"attention_gradient_flow: Radau failed: {sol.message}")

    def gammas(t: np.ndarray) -> np.ndarray:
        Y = sol.sol(np.atleast_1d(np.asarray(t, dtype=float))).T
        return np.stack([gamma(*unpack(y)) for y in Y])

    def norms(t: np.ndarray) -> np.ndarray:
        Y = sol.sol(np.atleast_1d(np.asarray(t, dtype=float))).T
        v, k, q = Y[:, :heads], Y[:, heads : heads + heads * D], Y[:, heads + heads * D :]
        return np.sqrt(v**2 + np.sum(k.reshape(-1, heads, D) ** 2, -1) + np.sum(q.reshape(-1, heads, D) ** 2, -1))

    path = Path(
        lambda t: gammas(t).reshape(len(np.atleast_1d(t)), -1),
        lambda t: attention_loss(gammas(t), lam, N),
        float(t_end),
    )
    return path, norms
