"""Fully connected linear networks f = A W x under the population loss (spec §4b, reference test C).

L(A, W) = ½ tr Syy - tr(beta Sxy) + ½ tr(beta Sxx beta^T), beta = A W, residual moment M = Syx - beta Sxx.
Saddles are reduced-rank regressions; jump times in rescaled time t~ = t / log(1/alpha) are 1/sigma_k(Syx) when
Sxx commutes with Syx^T Syx (whitened input), and otherwise the paper's Conjecture 4.1 (a conjecture, [C]).
Ground truth: GF from a_i ~ N(0, alpha²/(2c) I), w_i ~ N(0, alpha²/(2d) I) (spec §1, standard deviations).
"""

from __future__ import annotations

import numpy as np
from scipy.integrate import solve_ivp

from numerics.alternating.ground_truth import Path
from numerics.alternating.validate import init_scale, positive, real_array

__all__ = ["conjectured_jump_times", "fcn_gradient_flow", "rrr_saddles", "whitened_jump_times"]


def _moments(Sxx: object, Syx: object) -> tuple[np.ndarray, np.ndarray]:
    Sxx, Syx = real_array("Sxx", Sxx, ndim=2), real_array("Syx", Syx, ndim=2)
    d = Syx.shape[1]
    if Sxx.shape != (d, d) or not np.allclose(Sxx, Sxx.T) or np.linalg.eigvalsh(Sxx).min() <= 0:
        raise ValueError(f"Sxx must be a symmetric positive-definite ({d}, {d}) matrix matching Syx of shape (c, d)")
    return Sxx, Syx


def _top_eigenvectors(Sxx: np.ndarray, Syx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues mu (decreasing) and eigenvectors U of Syx Sxx^{-1} Sxy."""
    mu, U = np.linalg.eigh(Syx @ np.linalg.solve(Sxx, Syx.T))
    return mu[::-1], U[:, ::-1]


def rrr_saddles(Sxx: object, Syx: object, Syy: object) -> tuple[list[np.ndarray], np.ndarray]:
    """Reduced-rank regression saddles beta_k = P_{U_k} Syx Sxx^{-1} and levels l_k = ½(tr Syy - sum_{j<=k} mu_j).

    k runs from 0 to the number of non-zero mu_j (spec §4b, [C]).
    """
    Sxx, Syx = _moments(Sxx, Syx)
    Syy = real_array("Syy", Syy, ndim=2)
    mu, U = _top_eigenvectors(Sxx, Syx)
    rank = int(np.sum(mu > 1e-12 * mu[0]))
    regression = np.linalg.solve(Sxx, Syx.T).T
    betas = [U[:, :k] @ U[:, :k].T @ regression for k in range(rank + 1)]
    levels = 0.5 * (np.trace(Syy) - np.concatenate([[0.0], np.cumsum(mu[:rank])]))
    return betas, levels


def whitened_jump_times(Syx: object) -> np.ndarray:
    """tau~_k = 1 / sigma_k(Syx), the commuting-case jump times (Saxe-type stages, spec §4b)."""
    s = np.linalg.svd(real_array("Syx", Syx, ndim=2), compute_uv=False)
    return 1 / s[s > 1e-12 * s[0]]


def conjectured_jump_times(Sxx: object, Syx: object) -> np.ndarray:
    """Conjecture 4.1 ([C]): sum_{i<k} sigma^{(i)}_{k-i} (tau_{i+1} - tau_i) = 1, sigma^{(i)}_m the m-th singular
    value of M_i = (I - P_{U_i}) Syx. A conjecture of the paper, not a theorem."""
    Sxx, Syx = _moments(Sxx, Syx)
    mu, U = _top_eigenvectors(Sxx, Syx)
    rank = int(np.sum(mu > 1e-12 * mu[0]))
    sigma = [np.linalg.svd((np.eye(len(U)) - U[:, :i] @ U[:, :i].T) @ Syx, compute_uv=False) for i in range(rank)]
    tau = [0.0]
    for k in range(1, rank + 1):
        spent = sum(sigma[i][k - 1 - i] * (tau[i + 1] - tau[i]) for i in range(k - 1))
        tau.append(tau[-1] + (1 - spent) / sigma[k - 1][0])
    return np.array(tau[1:])


def fcn_gradient_flow(
    Sxx: object, Syx: object, Syy: object, alpha: float, width: int, t_end: float, seed: int = 0, rtol: float = 1e-12
) -> Path:
    """GF of f = A W x (A: c x width, W: width x d) from the spec §1 init, in rescaled time t / log(1/alpha).

    LSODA (stiff/non-stiff switching) with the analytic Jacobian and a small ``atol`` (1e-6 alpha²): components of
    order alpha that later grow must not be lost. Modes whose amplitude, relative to the O(1) weights, falls below
    ``rtol`` are not resolved (spec §3 pitfall, which applies to GF as well).
    ``Path.state(t)`` is beta = A W, flattened to (T, c d).
    """
    Sxx, Syx = _moments(Sxx, Syx)
    Syy = real_array("Syy", Syy, ndim=2)
    alpha, t_end = init_scale(alpha), positive("t_end", t_end)
    if not (isinstance(width, int) and width >= 1):
        raise ValueError(f"width must be an integer >= 1, got {width!r}")
    c, d = Syx.shape
    rng = np.random.default_rng(seed)
    A0 = rng.normal(size=(c, width)) * alpha / np.sqrt(2 * c)
    W0 = rng.normal(size=(width, d)) * alpha / np.sqrt(2 * d)
    scale = np.log(1 / alpha)

    def unpack(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return y[: c * width].reshape(c, width), y[c * width :].reshape(width, d)

    def field(_t: float, y: np.ndarray) -> np.ndarray:
        A, W = unpack(y)
        M = Syx - A @ W @ Sxx
        return scale * np.concatenate([(M @ W.T).ravel(), (A.T @ M).ravel()])

    def jacobian(_t: float, y: np.ndarray) -> np.ndarray:
        A, W = unpack(y)
        M = Syx - A @ W @ Sxx
        eye_c, eye_h = np.eye(c), np.eye(width)
        d_aa = -np.einsum("ik,lj->ijkl", eye_c, W @ Sxx @ W.T)
        d_aw = -np.einsum("ik,lj->ijkl", A, Sxx @ W.T) + np.einsum("il,jk->ijkl", M, eye_h)
        d_wa = np.einsum("il,kj->ijkl", eye_h, M) - np.einsum("ki,lj->ijkl", A, W @ Sxx)
        d_ww = -np.einsum("ik,lj->ijkl", A.T @ A, Sxx)
        na, nw = c * width, width * d
        return scale * np.block(
            [[d_aa.reshape(na, na), d_aw.reshape(na, nw)], [d_wa.reshape(nw, na), d_ww.reshape(nw, nw)]]
        )

    y0 = np.concatenate([A0.ravel(), W0.ravel()])
    sol = solve_ivp(
        field, (0, t_end), y0, method="LSODA", jac=jacobian, dense_output=True, rtol=rtol, atol=1e-6 * alpha**2
    )
    if not sol.success:
        raise RuntimeError(f"fcn_gradient_flow: LSODA failed: {sol.message}")

    def beta(t: np.ndarray) -> np.ndarray:
        Y = sol.sol(np.asarray(t, dtype=float)).T
        A, W = Y[:, : c * width].reshape(-1, c, width), Y[:, c * width :].reshape(-1, width, d)
        return A @ W

    def loss(t: np.ndarray) -> np.ndarray:
        B = beta(t)
        return 0.5 * (np.trace(Syy) - 2 * np.einsum("tcd,cd->t", B, Syx) + np.einsum("tcd,de,tce->t", B, Sxx, B))

    return Path(lambda t: beta(t).reshape(len(np.atleast_1d(t)), -1), loss, float(t_end))
