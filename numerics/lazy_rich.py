r"""The lazy/rich map of Nam et al. 2025 Fig. 6a as data: final kernel distance over λ and weight-to-target ratio.

Setup (spec models-nam2025.md §8, the authors' ``fig6a_run.py``): a whitened random regression with
``d = p = c = 2`` and ``N = 10`` samples (:math:`XX^\top/N = I`, :math:`Y` Gaussian), target
:math:`Y/\text{scale}`, λ-balanced initialization with product singular values ``rho0`` in random frames (the
authors' weights are *not* task-aligned), 4000 GD steps at lr 0.01 (GF time 40), and the kernel distance
between the NTK Gram matrices on the training inputs at the start and at the end.

Three versions are computed:

* ``gd``: gradient descent on the full matrices from the random-frame λ-balanced initialization;
* ``closed_form``: the same λ and singular values, but in the task-aligned frames (the SVD of
  :math:`\Sigma_{xy}`), evolved by the derived closed form of ``lambda_balanced`` to the same time;
* ``aligned_gd``: gradient descent, with the same steps, from that aligned start, which separates the effect of
  the frames (``gd`` vs ``aligned_gd``) from that of the finite step (``aligned_gd`` vs ``closed_form``).

Claim ``nam2025.fig6a.lazy_rich_map`` measures where they differ: both maps become lazy as :math:`|\lambda|`
grows. At small :math:`|\lambda|` and large weight-to-target ratio, GD from random frames ends about twice as
far from its initial kernel as the aligned closed form; there ``aligned_gd`` matches the closed form, so the gap
is the rotation of the hidden representation into the task's frames. At large :math:`|\lambda|` and ratio the
distances are tiny and the finite step (lr·|λ| ≈ 0.1) moves them by factors of a few even from the aligned
start, so there the gap is discretization, not the frames. With whitened inputs and ``d = c`` the kernel's
inner products are unchanged when the two layers' singular values are swapped, so the closed-form map is
symmetric in λ.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import ortho_group

from .linear_network import (
    aligned_weights,
    kernel_distance,
    lambda_balanced_singular_values,
    lambda_balanced_weights,
    matrix_gradient_descent,
    ntk_gram,
)
from .trajectory import trajectory
from .validation import finite_array

__all__ = ["LazyRichMap", "lazy_rich_map", "whitened_regression"]


@dataclass(frozen=True)
class LazyRichMap:
    """Final kernel distances on the grid: arrays of shape ``(len(lambdas), len(scales))``; ``ratio`` is the
    weight-to-target ratio :math:`\\rho_0 / \\|\\Sigma_{xy}\\|_2` at each scale."""

    lambdas: np.ndarray
    scales: np.ndarray
    ratio: np.ndarray
    gd: np.ndarray
    closed_form: np.ndarray
    aligned_gd: np.ndarray


def whitened_regression(n: int = 10, d: int = 2, c: int = 2, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Inputs ``X`` (d×n) PCA-whitened to :math:`XX^\\top/n = I` and Gaussian targets ``Y`` (c×n)."""
    if n <= d:
        raise ValueError(f"n must be > d = {d} to whiten, got {n}")
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(d, n))
    X -= X.mean(axis=1, keepdims=True)
    eigenvalues, vectors = np.linalg.eigh(X @ X.T / n)
    X = vectors @ np.diag(eigenvalues**-0.5) @ vectors.T @ X
    return X, rng.normal(size=(c, n))


def lazy_rich_map(
    lambdas: np.ndarray,
    scales: np.ndarray,
    rho0: float = 1.0,
    time: float = 40.0,
    lr: float = 0.01,
    n: int = 10,
    seed: int = 0,
) -> LazyRichMap:
    """The final kernel distance from GD (random frames), from the closed form and from GD (aligned frames)."""
    lambdas, scales = finite_array("lambdas", lambdas, ndim=1), finite_array("scales", scales, ndim=1)
    if np.any(scales <= 0):
        raise ValueError("scales must be > 0 (admissible range: (0, inf))")
    for name, value, low in (("rho0", rho0, 0.0), ("lr", lr, 0.0)):
        if not np.isfinite(value) or value <= low:
            raise ValueError(f"{name} must be > 0 (admissible range: (0, inf)), got {value!r}")
    if not np.isfinite(time) or time < 0:
        raise ValueError(f"time must be >= 0 (admissible range: [0, inf)), got {time!r}")
    steps = round(time / lr)
    X, Y = whitened_regression(n=n, seed=seed)
    d, c = X.shape[0], Y.shape[0]
    Sxy = X @ Y.T / n
    U, sigma, Vt = np.linalg.svd(Sxy, full_matrices=False)
    frames = [ortho_group.rvs(dim, random_state=seed + k) for k, dim in enumerate((d, c, c))]
    lam = lambdas[:, None]
    rho = np.full((len(lambdas), len(scales), c), rho0)
    gd_start = lambda_balanced_weights(rho, lam, frames[0][:, :c], frames[1], frames[2])
    gd_end = matrix_gradient_descent(*gd_start, np.eye(d), Sxy / scales[:, None, None], lr, steps)
    gd = kernel_distance(ntk_gram(*gd_start, X), ntk_gram(*gd_end, X))
    s1, s2 = lambda_balanced_singular_values(rho, lam)
    aligned_start = aligned_weights(U, Vt.T, np.eye(c), s1, s2)
    modes = trajectory(
        "lambda_balanced",
        [time],
        {"S": np.broadcast_to(sigma / scales[:, None], rho.shape).reshape(-1, c)},
        {"a": s1.reshape(-1, c), "b": s2.reshape(-1, c)},
    )
    aligned_end = aligned_weights(
        U, Vt.T, np.eye(c), modes["a"][0].reshape(rho.shape), modes["b"][0].reshape(rho.shape)
    )
    closed = kernel_distance(ntk_gram(*aligned_start, X), ntk_gram(*aligned_end, X))
    aligned_gd_end = matrix_gradient_descent(*aligned_start, np.eye(d), Sxy / scales[:, None, None], lr, steps)
    aligned_gd = kernel_distance(ntk_gram(*aligned_start, X), ntk_gram(*aligned_gd_end, X))
    return LazyRichMap(lambdas, scales, rho0 * scales / sigma[0], gd, closed, aligned_gd)
