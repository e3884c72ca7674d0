r"""Matrices of the two-layer linear network: conversion to and from the per-unit state, aligned and
λ-balanced initializations, the NTK Gram matrix, the kernel distance, and batched matrix gradient descent.

Paper orientation (Nam et al. 2025 eq 4): :math:`f(x) = W_2^\top W_1^\top x`, :math:`W_1 \in \mathbb R^{d\times p}`,
:math:`W_2 \in \mathbb R^{p\times c}`; ``orientation="code"`` takes and returns the transposes
(:math:`f = W_2W_1x`, the authors' code). Arrays may carry leading batch axes, and object arrays of
``mpmath.mpf`` pass through unchanged (numpy's ``@`` works on them), for 30-digit checks.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

__all__ = [
    "aligned_weights",
    "init_to_weights",
    "kernel_distance",
    "lambda_balanced_singular_values",
    "lambda_balanced_weights",
    "matrix_gradient_descent",
    "moment_params",
    "ntk_gram",
    "weights_to_init",
]

ORIENTATIONS = ("paper", "code")


def _oriented(W1: np.ndarray, W2: np.ndarray, orientation: str) -> tuple[np.ndarray, np.ndarray]:
    if orientation not in ORIENTATIONS:
        raise ValueError(f"orientation must be one of {ORIENTATIONS}, got {orientation!r}")
    W1, W2 = np.asarray(W1), np.asarray(W2)
    if orientation == "code":
        W1, W2 = np.swapaxes(W1, -1, -2), np.swapaxes(W2, -1, -2)
    if W1.ndim < 2 or W2.ndim < 2 or W1.shape[-1] != W2.shape[-2]:
        raise ValueError(f"W1 and W2 must be matrices with matching hidden width p, got {W1.shape} and {W2.shape}")
    return W1, W2


def weights_to_init(W1: np.ndarray, W2: np.ndarray, orientation: str = "paper") -> dict[str, np.ndarray]:
    """The ``init`` of ``linear_network`` for weights ``W1``, ``W2`` (batch axes first): row ``k`` of ``W1``
    is the state ``W1_k`` over the units, column ``m`` of ``W2`` (row ``m`` of its transpose) the state ``W2T_m``."""
    W1, W2 = _oriented(W1, W2, orientation)
    init = {f"W1_{k + 1}": W1[..., k, :] for k in range(W1.shape[-2])}
    init.update({f"W2T_{m + 1}": W2[..., :, m] for m in range(W2.shape[-1])})
    return init


def init_to_weights(state: Mapping[str, np.ndarray], orientation: str = "paper") -> tuple[np.ndarray, np.ndarray]:
    """The weight matrices from per-unit states (an ``init`` or a ``trajectory`` result, units on the last axis)."""
    rows1 = sorted((k for k in state if k.startswith("W1_")), key=lambda k: int(k[3:]))
    rows2 = sorted((k for k in state if k.startswith("W2T_")), key=lambda k: int(k[4:]))
    if not rows1 or not rows2:
        raise ValueError("state must hold the linear_network states W1_1 … W1_d and W2T_1 … W2T_c")
    W1 = np.stack([np.asarray(state[k]) for k in rows1], axis=-2)
    W2 = np.stack([np.asarray(state[k]) for k in rows2], axis=-1)
    if orientation not in ORIENTATIONS:
        raise ValueError(f"orientation must be one of {ORIENTATIONS}, got {orientation!r}")
    return (W1, W2) if orientation == "paper" else (np.swapaxes(W1, -1, -2), np.swapaxes(W2, -1, -2))


def moment_params(Sxx: np.ndarray, Sxy: np.ndarray, Syy: np.ndarray | None = None) -> dict[str, object]:
    r"""The ``params`` of ``linear_network`` from :math:`\Sigma_{xx}` (d×d, symmetric), :math:`\Sigma_{xy}` (d×c)
    and :math:`\Sigma_{yy}` (c×c; default the realizable :math:`\Sigma_{xy}^\top\Sigma_{xx}^{+}\Sigma_{xy}`, so that
    the loss is the excess risk). Entries may be ``mpmath.mpf``."""
    Sxx, Sxy = np.asarray(Sxx), np.asarray(Sxy)
    if Sxx.ndim != 2 or Sxx.shape[0] != Sxx.shape[1]:
        raise ValueError(f"Sxx must be a square matrix, got shape {Sxx.shape}")
    if Sxy.ndim != 2 or Sxy.shape[0] != Sxx.shape[0]:
        raise ValueError(f"Sxy must have shape ({Sxx.shape[0]}, c), got {Sxy.shape}")
    if np.any(Sxx != Sxx.T):
        raise ValueError("Sxx must be symmetric")
    if Syy is None:
        Syy = Sxy.T @ np.linalg.pinv(Sxx.astype(float)) @ Sxy
    Syy = np.asarray(Syy)
    d, c = Sxy.shape
    if Syy.shape != (c, c):
        raise ValueError(f"Syy must have shape ({c}, {c}), got {Syy.shape}")
    params: dict[str, object] = {}
    for k in range(d):
        for j in range(k, d):
            params[f"Sxx_{k + 1}{j + 1}"] = Sxx[k, j]
        for m in range(c):
            params[f"Sxy_{k + 1}{m + 1}"] = Sxy[k, m]
    for m in range(c):
        for n in range(m, c):
            params[f"Syy_{m + 1}{n + 1}"] = Syy[m, n]
    return params


def aligned_weights(
    U: np.ndarray, V: np.ndarray, R: np.ndarray, a: np.ndarray, b: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    r"""The task-aligned weights :math:`W_1 = U\,\mathrm{diag}(a)\,R`, :math:`W_2 = R^\top\mathrm{diag}(b)\,V^\top`
    (spec §3 eq 47, paper orientation): ``U`` (d×c, orthonormal columns), ``V`` (c×c orthogonal), ``R``
    (c×p, orthonormal rows), ``a``, ``b`` the modes' singular values (batch axes first)."""
    a, b = np.asarray(a), np.asarray(b)
    diag_a = a[..., :, None] * np.eye(a.shape[-1], dtype=int)
    diag_b = b[..., :, None] * np.eye(b.shape[-1], dtype=int)
    R = np.asarray(R)
    return np.asarray(U) @ diag_a @ R, np.swapaxes(R, -1, -2) @ diag_b @ np.swapaxes(np.asarray(V), -1, -2)


def lambda_balanced_singular_values(rho: np.ndarray, lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""The mode singular values :math:`s_{1/2} = \sqrt{(\sqrt{\lambda^2 + 4\rho^2} \mp \lambda)/2}` with
    :math:`s_1s_2 = \rho` (> 0) and :math:`s_2^2 - s_1^2 = \lambda` (spec §4, as in the authors'
    ``get_lambda_balanced``); ``lam`` broadcasts against ``rho``'s batch axes (the last axis is the modes)."""
    rho = np.asarray(rho, dtype=float)
    if np.any(rho <= 0):
        raise ValueError("rho must be > 0 (admissible range: (0, inf))")
    lam = np.asarray(lam, dtype=float)[..., None]
    K = np.sqrt(lam**2 + 4 * rho**2)
    return np.sqrt((K - lam) / 2), np.sqrt((K + lam) / 2)


def lambda_balanced_weights(
    rho: np.ndarray, lam: np.ndarray, U: np.ndarray, V: np.ndarray, R: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    r"""Weights with :math:`W_2W_2^\top - W_1^\top W_1 = \lambda I` and product singular values ``rho``: the
    singular values of :func:`lambda_balanced_singular_values` in the frames ``U``, ``V``, ``R`` (task-aligned if
    they are the SVD frames of :math:`\Sigma_{xy}`)."""
    return aligned_weights(U, V, R, *lambda_balanced_singular_values(rho, lam))


def ntk_gram(W1: np.ndarray, W2: np.ndarray, X: np.ndarray, orientation: str = "paper") -> np.ndarray:
    r"""The ``cN × cN`` NTK Gram matrix on data ``X`` (d×N): :math:`I_c\otimes X^\top W_1W_1^\top X +
    W_2^\top W_2\otimes X^\top X` in the paper orientation (spec §6; the authors' ``utils.get_ntk`` in theirs),
    rows ordered output-major. Batch axes of the weights are kept."""
    W1, W2 = _oriented(W1, W2, orientation)
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] != W1.shape[-2]:
        raise ValueError(f"X must have shape (d, N) with d = {W1.shape[-2]} rows, got {X.shape}")
    features = np.swapaxes(W1, -1, -2) @ X
    first = np.swapaxes(features, -1, -2) @ features
    second = np.swapaxes(W2, -1, -2) @ W2
    c = W2.shape[-1]
    eye = np.eye(c)
    gram = X.T @ X
    return np.einsum("mn,...ij->...minj", eye, first).reshape(*first.shape[:-2], c * X.shape[1], -1) + np.einsum(
        "...mn,ij->...minj", second, gram
    ).reshape(*second.shape[:-2], c * X.shape[1], -1)


def kernel_distance(K0: np.ndarray, Kt: np.ndarray) -> np.ndarray:
    r"""Kernel distance :math:`1 - \langle K_0, K_t\rangle_F / (\|K_0\|_F\|K_t\|_F)` (Fort et al. 2020), over
    the last two axes."""
    inner = np.einsum("...ij,...ij->...", K0, Kt)
    norms = np.sqrt(np.einsum("...ij,...ij->...", K0, K0) * np.einsum("...ij,...ij->...", Kt, Kt))
    if np.any(norms == 0):
        raise ValueError("kernel_distance needs non-zero kernels K0 and Kt")
    return 1 - inner / norms


def matrix_gradient_descent(
    W1: np.ndarray, W2: np.ndarray, Sxx: np.ndarray, Sxy: np.ndarray, lr: float, steps: int
) -> tuple[np.ndarray, np.ndarray]:
    r"""``steps`` steps of full-batch GD on the weight matrices (paper orientation, batch axes first):
    :math:`W_1 \leftarrow W_1 + \eta MW_2^\top`, :math:`W_2 \leftarrow W_2 + \eta W_1^\top M`,
    :math:`M = \Sigma_{xy} - \Sigma_{xx}W_1W_2` (the derived matrix flow of ``derivations.matrix_flow``, one
    simultaneous update per step), vectorized over a batch of networks and moments."""
    if not np.isfinite(lr) or lr <= 0:
        raise ValueError(f"lr must be > 0, got {lr!r}")
    if not isinstance(steps, (int, np.integer)) or steps < 0:
        raise ValueError(f"steps must be an integer >= 0, got {steps!r}")
    W1, W2 = np.array(W1, dtype=float), np.array(W2, dtype=float)
    Sxx, Sxy = np.asarray(Sxx, dtype=float), np.asarray(Sxy, dtype=float)
    with np.errstate(over="raise", invalid="raise"):
        for _ in range(steps):
            M = Sxy - Sxx @ W1 @ W2
            W1, W2 = W1 + lr * M @ np.swapaxes(W2, -1, -2), W2 + lr * np.swapaxes(W1, -1, -2) @ M
    return W1, W2
