r"""Neural collapse in the two-layer linear network (Nam et al. 2025, eq 13 and App. E; spec ``models-nam2025.md`` §3):
gradient descent on one-hot targets from near-balanced starts, and the rank and class collapse of the features.

Data: ``classes × per_class`` samples in :math:`\mathbb R^d` (:math:`d \ge n`) with orthogonal rows of norm
:math:`\sqrt n` (so :math:`\Sigma_{xx} = X^\top X/n` is a projection and :math:`XW_1W_2 = Y` is reachable), one-hot
:math:`Y`. The network is :math:`f(x) = W_2^\top W_1^\top x` (paper orientation), trained by
``numerics.linear_network.matrix_gradient_descent`` on the empirical moments. Measured on the features
:math:`H = XW_1` at the end: the gap :math:`\sigma_{r+1}/\sigma_r` of their singular values (rank :math:`r`), the
ratio of within-class to between-class scatter, the largest :math:`|\cos|` between two class means (§5.2: the
classes collapse onto orthogonal directions), the fit :math:`\|XW_1W_2 - Y\|/\|Y\|`, and the imbalance
:math:`\|W_1^\top W_1 - W_2W_2^\top\|_F` at the start and the end.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from numerics.linear_network import matrix_gradient_descent

__all__ = ["Collapse", "collapse_runs", "one_hot_data"]


@dataclass(frozen=True)
class Collapse:
    """Per run (one entry per seed): the singular values of the features :math:`XW_1` (descending, shape (runs,
    min(n, p))), the within/between class scatter ratio, the relative fit residual, the start and end imbalance,
    and the largest |cos| between the means of two classes."""

    singular_values: np.ndarray
    within_between: np.ndarray
    residual: np.ndarray
    imbalance_start: np.ndarray
    imbalance_end: np.ndarray
    mean_cosine: np.ndarray

    def rank_gap(self, rank: int) -> np.ndarray:
        r""":math:`\sigma_{r+1}/\sigma_r` of the features, per run (small iff their rank is ``rank``)."""
        if not 1 <= rank < self.singular_values.shape[-1]:
            raise ValueError(f"rank must be in [1, {self.singular_values.shape[-1] - 1}], got {rank!r}")
        return self.singular_values[:, rank] / self.singular_values[:, rank - 1]


def one_hot_data(classes: int, per_class: int, d: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Inputs X (n × d, orthogonal rows of norm √n, random orientation) and one-hot targets Y (n × c)."""
    n = classes * per_class
    if d < n:
        raise ValueError(f"d must be >= classes * per_class = {n} (so that X W1 W2 = Y is reachable), got {d}")
    q, _ = np.linalg.qr(rng.standard_normal((d, n)))
    return np.sqrt(n) * q.T, np.repeat(np.eye(classes), per_class, axis=0)


def _scatter_ratio(H: np.ndarray, labels: np.ndarray, classes: int) -> np.ndarray:
    """Within-class over between-class scatter of the rows of H (batch axes first)."""
    means = np.stack([H[..., labels == m, :].mean(axis=-2) for m in range(classes)], axis=-2)
    within = ((H - means[..., labels, :]) ** 2).sum(axis=(-1, -2))
    between = ((means - H.mean(axis=-2, keepdims=True)) ** 2).sum(axis=-1) @ np.bincount(labels, minlength=classes)
    return within / between


def _mean_cosine(H: np.ndarray, labels: np.ndarray, classes: int) -> float:
    """The largest |cos| between the (uncentred) means of two classes of the rows of H."""
    means = np.stack([H[labels == m].mean(axis=0) for m in range(classes)])
    unit = means / np.linalg.norm(means, axis=1, keepdims=True)
    gram = unit @ unit.T
    return float(np.abs(gram - np.diag(np.diag(gram))).max())


def collapse_runs(
    seeds: Sequence[int],
    scales: tuple[float, float] = (1e-4, 1e-4),
    classes: int = 3,
    per_class: int = 3,
    d: int = 9,
    width: int = 8,
    lr: float = 0.05,
    steps: int = 4000,
) -> Collapse:
    r"""Gradient descent from :math:`W_1 = s_1 G_1`, :math:`W_2 = s_2 G_2` (Gaussian :math:`G`, ``scales`` =
    :math:`(s_1, s_2)`; equal small scales are near balance), one run per seed (data and start from
    ``default_rng(seed)``)."""
    for name, value in (("classes", classes), ("per_class", per_class), ("width", width), ("steps", steps)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    if not seeds or not all(s > 0 and np.isfinite(s) for s in scales):
        raise ValueError(f"need at least one seed and finite scales > 0, got {seeds!r}, {scales!r}")
    runs = [_run(np.random.default_rng(seed), scales, classes, per_class, d, width, lr, steps) for seed in seeds]
    return Collapse(*(np.array(values) for values in zip(*runs, strict=True)))


def _run(
    rng: np.random.Generator,
    scales: tuple[float, float],
    classes: int,
    per_class: int,
    d: int,
    width: int,
    lr: float,
    steps: int,
) -> tuple[np.ndarray, float, float, float, float, float]:
    X, Y = one_hot_data(classes, per_class, d, rng)
    n = X.shape[0]
    W1 = scales[0] * rng.standard_normal((d, width))
    W2 = scales[1] * rng.standard_normal((width, classes))
    start = np.linalg.norm(W1.T @ W1 - W2 @ W2.T)
    Sxx = X.T @ X / n
    W1, W2 = matrix_gradient_descent(W1, W2, (Sxx + Sxx.T) / 2, X.T @ Y / n, lr, steps)
    H = X @ W1
    labels = np.repeat(np.arange(classes), per_class)
    return (
        np.linalg.svd(H, compute_uv=False),
        float(_scatter_ratio(H, labels, classes)),
        float(np.linalg.norm(H @ W2 - Y) / np.linalg.norm(Y)),
        float(start),
        float(np.linalg.norm(W1.T @ W1 - W2 @ W2.T)),
        _mean_cosine(H, labels, classes),
    )
