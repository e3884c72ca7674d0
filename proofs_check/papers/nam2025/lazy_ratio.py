r"""Nam et al. 2025 §6, Fig. 6(b), App. F.4 as data: laziness against the weight-to-target ratio without λ-balance.

Setup (spec models-nam2025.md §8, the authors' ``fig6b_run.py``): ``d = p = 20`` inputs and hidden units, ``c = 2``
outputs, ``N = 10`` Gaussian samples (*not* whitened, so :math:`\Sigma_{xx} = XX^\top/N` has rank 10), the
"symmetrised" initialization of the authors' ``get_lambda_unbalanced`` (:math:`W_1 = \sigma_1[A; A]`,
:math:`W_2 = \sigma_2[B, -B]` in their orientation, so :math:`W_2W_1(0) = 0` and the weights are not
λ-balanced), :math:`\sigma_1 = \sigma + \max(\lambda, 0)`, :math:`\sigma_2 = \sigma + \max(-\lambda, 0)`,
:math:`\sigma = 0.1`, target :math:`Y/\text{scale}`, 4000 GD steps at lr 0.01.

The initial weights are the same at every scale, so the weight-to-target ratio (here
:math:`\|W_1(0)\|_2\|W_2(0)\|_2/\|\Sigma_{xy}/\text{scale}\|_2`) is proportional to the scale. Two laziness
measures are computed at the end of training: the kernel distance between the initial and final NTK Gram matrices
on the training inputs (as in ``lazy_rich``) and the relative weight change
:math:`\|W(T) - W(0)\|_F/\|W(0)\|_F` of both layers together. Unlike the authors, who draw new weights at every
grid point from an unseeded generator, one seeded draw of ``A``, ``B``, ``X``, ``Y`` serves the whole grid, so
along a row only the target moves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.alternating.validate import count, positive, real_array
from numerics.linear_network import kernel_distance, matrix_gradient_descent, ntk_gram

__all__ = ["RatioSweep", "ratio_sweep", "symmetrised_weights"]


@dataclass(frozen=True)
class RatioSweep:
    """Arrays of shape ``(len(lambdas), len(scales))``: the weight-to-target ``ratio``, the final ``kernel``
    distance, the relative ``weight_change`` and the final ``loss`` relative to the initial one."""

    lambdas: np.ndarray
    scales: np.ndarray
    ratio: np.ndarray
    kernel: np.ndarray
    weight_change: np.ndarray
    loss: np.ndarray


def symmetrised_weights(
    lambdas: object, d: int = 20, p: int = 20, c: int = 2, sigma: float = 0.1, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    r"""The authors' ``get_lambda_unbalanced`` in the paper orientation, one network per entry of ``lambdas``:
    :math:`W_1 = \sigma_1[A^\top, A^\top]` (d×p), :math:`W_2 = \sigma_2[B^\top; -B^\top]` (p×c), ``A``
    (p/2×d) and ``B`` (c×p/2) standard Gaussian from ``seed``, so :math:`W_1W_2 = 0`. ``p`` must be even."""
    lambdas = real_array("lambdas", lambdas, ndim=1)
    d, c, p = count("d", d), count("c", c), count("p", p, 2)
    if p % 2:
        raise ValueError(f"p must be even (the symmetrised init pairs hidden units), got {p}")
    sigma = positive("sigma", sigma)
    rng = np.random.default_rng(count("seed", seed, 0))
    A, B = rng.normal(size=(p // 2, d)), rng.normal(size=(c, p // 2))
    first = (sigma + np.maximum(lambdas, 0))[:, None, None] * np.concatenate([A, A]).T
    second = (sigma + np.maximum(-lambdas, 0))[:, None, None] * np.concatenate([B, -B], axis=1).T
    return first, second


def ratio_sweep(
    lambdas: object,
    scales: object,
    d: int = 20,
    p: int = 20,
    c: int = 2,
    n: int = 10,
    sigma: float = 0.1,
    steps: int = 4000,
    lr: float = 0.01,
    seed: int = 0,
) -> RatioSweep:
    r"""Fig. 6(b)'s sweep: GD from :func:`symmetrised_weights` on the target :math:`Y/\text{scale}` for each
    λ of ``lambdas`` (finite, 1-D) and each ``scales`` (> 0, 1-D), with ``n`` >= 1 unwhitened Gaussian samples
    (``X``, ``Y`` from ``seed + 1``); ``steps`` >= 1 of size ``lr`` > 0. ``OverflowError`` if GD diverges."""
    lambdas, scales = real_array("lambdas", lambdas, ndim=1), real_array("scales", scales, ndim=1)
    if lambdas.size == 0 or scales.size == 0:
        raise ValueError("lambdas and scales must be non-empty")
    if np.any(scales <= 0):
        raise ValueError("scales must be > 0 (admissible range: (0, inf))")
    n, steps, lr = count("n", n), count("steps", steps), positive("lr", lr)
    W1, W2 = symmetrised_weights(lambdas, d, p, c, sigma, seed)
    rng = np.random.default_rng(count("seed", seed, 0) + 1)
    X, Y = rng.normal(size=(W1.shape[-2], n)), rng.normal(size=(W2.shape[-1], n))
    grid = (len(lambdas), len(scales))
    W1 = np.broadcast_to(W1[:, None], grid + W1.shape[1:])
    W2 = np.broadcast_to(W2[:, None], grid + W2.shape[1:])
    Sxy = (X @ Y.T / n)[None, None] / scales[None, :, None, None]
    E1, E2 = matrix_gradient_descent(W1, W2, X @ X.T / n, Sxy, lr, steps)
    kernel = kernel_distance(ntk_gram(W1, W2, X), ntk_gram(E1, E2, X))
    moved = np.sqrt(np.sum((E1 - W1) ** 2, axis=(-2, -1)) + np.sum((E2 - W2) ** 2, axis=(-2, -1)))
    size = np.sqrt(np.sum(W1**2, axis=(-2, -1)) + np.sum(W2**2, axis=(-2, -1)))
    targets = Y[None, None] / scales[None, :, None, None]
    residual = np.sum((np.swapaxes(E1 @ E2, -1, -2) @ X - targets) ** 2, axis=(-2, -1))
    ratio = np.linalg.norm(W1, 2, axis=(-2, -1)) * np.linalg.norm(W2, 2, axis=(-2, -1))
    ratio = ratio / np.linalg.norm(Sxy, 2, axis=(-2, -1))
    return RatioSweep(lambdas, scales, ratio, kernel, moved / size, residual / np.sum(targets**2, axis=(-2, -1)))
