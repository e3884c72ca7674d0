r"""The lazy/rich map of Nam et al. 2025 Fig. 6a as data: final kernel distance over λ and weight-to-target ratio.

Setup (spec models-nam2025.md §8, the authors' ``fig6a_run.py``): a whitened random regression with
``d = p = c = 2`` and ``N = 10`` samples (:math:`XX^\top/N = I`, :math:`Y` Gaussian), target
:math:`Y/\text{scale}`, λ-balanced initialization with product singular values :math:`\rho_0` in random frames
(the authors' weights are *not* task-aligned), 4000 GD steps at lr 0.01 (GF time 40), and the kernel distance
between the NTK Gram matrices on the training inputs at the start and at the end.

Two settings of :math:`\rho_0` (``setting``):

* ``"fixed"`` (the default): :math:`\rho_0` = ``rho0`` (1) at every scale. The scale then moves only the target,
  the initial kernel is the same along a row, and the axis is the weight-to-target ratio
  :math:`\rho_0\,\text{scale}/\sigma_1` alone; the claims ``nam2025.fig6a.*`` are stated in it.
* ``"authors"``: :math:`\rho_0 = \sqrt{\text{scale}}`, as in ``fig6a_run.py``: ``utils.get_lambda_balanced(...,
  scale=scale)`` replaces the singular values ``S`` by ``scale`` inside :math:`s_{2,1} =
  \sqrt{(\sqrt{\lambda^2 + 4S} \pm \lambda)/2}`, whose product is :math:`\sqrt{S}`; ratio
  :math:`\text{scale}^{3/2}/\sigma_1`. The two-layer flow is invariant under :math:`W \to kW`,
  :math:`\lambda \to k^2\lambda`, target :math:`\to k^2` target, :math:`t \to t/k^2` (and GD under
  :math:`\text{lr} \to \text{lr}/k^2`), so the authors' point (λ, s) is the fixed setting's point
  (:math:`\lambda/\sqrt s`, scale :math:`s^{3/2}`) trained for time :math:`40\sqrt s` at lr :math:`0.01\sqrt s`:
  their scale axis moves λ, the ratio and the training time together (claim ``nam2025.fig6a.scale_axis``).

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

from numerics import trajectory
from numerics.alternating.validate import count, nonnegative, positive, real_array
from numerics.linear_network import (
    aligned_weights,
    kernel_distance,
    lambda_balanced_singular_values,
    lambda_balanced_weights,
    matrix_gradient_descent,
    ntk_gram,
)

__all__ = ["SETTINGS", "LazyRichMap", "initial_singular_values", "lazy_rich_map", "whitened_regression"]


SETTINGS = ("fixed", "authors")


@dataclass(frozen=True)
class LazyRichMap:
    r"""Final kernel distances on the grid: arrays of shape ``(len(lambdas), len(scales))``; ``rho0`` holds the initial
    product singular value at each scale and ``ratio`` the weight-to-target ratio
    :math:`\rho_0 / \|\Sigma_{xy}/\text{scale}\|_2` there."""

    lambdas: np.ndarray
    scales: np.ndarray
    setting: str
    rho0: np.ndarray
    ratio: np.ndarray
    gd: np.ndarray
    closed_form: np.ndarray
    aligned_gd: np.ndarray


def whitened_regression(n: int = 10, d: int = 2, c: int = 2, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    r"""Inputs ``X`` (d×n) PCA-whitened to :math:`XX^\top/n = I` and Gaussian targets ``Y`` (c×n)."""
    d, c, seed = count("d", d), count("c", c), count("seed", seed, 0)
    n = count("n", n, d + 1)
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(d, n))
    X -= X.mean(axis=1, keepdims=True)
    eigenvalues, vectors = np.linalg.eigh(X @ X.T / n)
    X = vectors @ np.diag(eigenvalues**-0.5) @ vectors.T @ X
    return X, rng.normal(size=(c, n))


def initial_singular_values(scales: np.ndarray, setting: str, rho0: float) -> np.ndarray:
    r""":math:`\rho_0` at each scale: ``rho0`` (``"fixed"``) or :math:`\sqrt{\text{scale}}` (``"authors"``)."""
    return np.full(len(scales), rho0) if setting == "fixed" else np.sqrt(scales)


# a GD step costs about as much as updating this many grid points (~30 µs + 0.6 µs per point on one core)
_STEP_OVERHEAD = 64


def _steps(time: float, lr: float, points: int, max_updates: int) -> int:
    """The number of GD steps time/lr (an integer up to round-off), within the budget of GD updates."""
    ratio = time / lr
    cost = 2 * ratio * max(points, _STEP_OVERHEAD)
    if not cost <= max_updates:
        raise ValueError(
            f"2 GD runs of time/lr = {ratio:.3g} steps over {points} grid points cost {cost:.3g} updates (a step "
            f"counts as >= {_STEP_OVERHEAD}), beyond max_updates = {max_updates} (about 1e6 per second): raise "
            "max_updates (or lr, or use a smaller grid)"
        )
    steps = round(ratio)
    if abs(steps - ratio) > 1e-9 * max(ratio, 1.0):
        raise ValueError(f"time must be a multiple of lr (time/lr = {ratio!r} steps), got time={time!r}, lr={lr!r}")
    return steps


def _check_stability(lambdas: np.ndarray, rho: np.ndarray, target: np.ndarray, lr: float) -> None:
    """GD diverges once lr times the largest curvature sqrt(λ² + 4ρ²) on the path (ρ between ρ0 and the target's
    top singular value) reaches 2; refuse such grids (and any whose curvature overflows) before training."""
    with np.errstate(over="ignore"):
        curvature = np.sqrt(lambdas[:, None] ** 2 + 4 * np.maximum(rho, target)[None, :] ** 2)
    if not np.all(lr * curvature < 2):
        i, j = np.unravel_index(np.argmax(curvature), curvature.shape)
        raise ValueError(
            f"lr x sqrt(lambda² + 4 rho²) must be < 2 for GD to converge (admissible lr < 2/sqrt(lambda² + 4 rho²)); "
            f"at lambda = {lambdas[i]:g}, scale index {j} it is {lr * curvature[i, j]:.3g}"
        )


def lazy_rich_map(
    lambdas: object,
    scales: object,
    rho0: float | None = None,
    time: float = 40.0,
    lr: float = 0.01,
    n: int = 10,
    seed: int = 0,
    setting: str = "fixed",
    max_updates: int = 2 * 10**8,
) -> LazyRichMap:
    r"""The final kernel distance from GD (random frames), from the closed form and from GD (aligned frames).

    ``lambdas`` (finite, 1-D, non-empty) and ``scales`` (finite, > 0, 1-D, non-empty) span the grid; ``setting``
    is ``"fixed"`` (default; :math:`\rho_0` = ``rho0`` > 0, default 1) or ``"authors"`` (:math:`\rho_0 =
    \sqrt{\text{scale}}`, ``rho0`` must stay None), see the module docstring; ``time`` >= 0 must be a multiple of
    ``lr`` > 0, with lr sqrt(λ² + 4ρ²) < 2 on the grid; ``n`` > 2 samples, ``seed`` >= 0. Budget: the two GD runs
    cost 2 (time/lr) max(len(lambdas) len(scales), 64) updates (about 1e6 per second), at most ``max_updates``.
    """
    lambdas, scales = real_array("lambdas", lambdas, ndim=1), real_array("scales", scales, ndim=1)
    if lambdas.size == 0 or scales.size == 0:
        raise ValueError("lambdas and scales must be non-empty")
    if np.any(scales <= 0):
        raise ValueError("scales must be > 0 (admissible range: (0, inf))")
    if not (isinstance(setting, str) and setting in SETTINGS):
        raise ValueError(f"setting must be one of {SETTINGS}, got {setting!r}")
    if setting == "authors" and rho0 is not None:
        raise ValueError('rho0 must be None with setting="authors" (there rho0 = sqrt(scale))')
    rho_scale = initial_singular_values(scales, setting, 1.0 if rho0 is None else positive("rho0", rho0))
    lr, time = positive("lr", lr), nonnegative("time", time)
    steps = _steps(time, lr, lambdas.size * scales.size, count("max_updates", max_updates))
    X, Y = whitened_regression(n=n, seed=seed)
    d, c = X.shape[0], Y.shape[0]
    Sxy = X @ Y.T / n
    U, sigma, Vt = np.linalg.svd(Sxy, full_matrices=False)
    _check_stability(lambdas, rho_scale, sigma[0] / scales, lr)
    from scipy.stats import ortho_group  # scipy.stats takes ~1 s to import; only the GD starts need it

    frames = [ortho_group.rvs(dim, random_state=seed + k) for k, dim in enumerate((d, c, c))]
    lam = lambdas[:, None]
    rho = np.broadcast_to(rho_scale[None, :, None], (len(lambdas), len(scales), c))
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
    return LazyRichMap(lambdas, scales, setting, rho_scale, rho_scale * scales / sigma[0], gd, closed, aligned_gd)
