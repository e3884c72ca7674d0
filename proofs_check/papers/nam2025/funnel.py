r"""Nam et al. 2025 App. F.3, Fig. 10 as data: λ-balanced funnel and anti-funnel linear networks at large |λ|.

Architectures whose hidden width equals the narrower end, so that both signs of λ are feasible (spec §4:
λ > 0 needs p <= c, λ < 0 needs p <= d): the *funnel* ``d > p = c`` and the *anti-funnel* ``d = p < c``. The
start is λ-balanced, :math:`W_2W_2^\top - W_1^\top W_1 = \lambda I_p` (paper orientation; λ > 0 is a heavier
second layer), with product singular values ``rho0`` in random frames; the data are a whitened random regression
(``lazy_rich.whitened_regression``), so GD runs on :math:`\Sigma_{xx} = I` towards :math:`\Sigma_{xy}`. The
anti-funnel start is the transpose of a funnel start with :math:`-\lambda` (transposing swaps the layers and the
sign of λ).

Why one limit is lazy and the other is not (derived here, not the paper's text): the NTK is
:math:`(x^\top W_1W_1^\top x')I_c + (x^\top x')W_2^\top W_2`. At :math:`|\lambda|\to\infty` the heavier layer's
Gram matrix is :math:`|\lambda|` times the projection on its p-dimensional row (or column) space. In the funnel
with λ → +∞ that space is all of :math:`\mathbb R^c` (p = c), so :math:`W_2^\top W_2 \approx \lambda I_c` and the
kernel stays put (lazy). With λ → −∞ it is a p-dimensional subspace of :math:`\mathbb R^d` (p < d) that has to
rotate onto the task's, slowly because the light layer is small: rich, and the fit is delayed. The anti-funnel is
the mirror image.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.alternating.validate import count, positive, real_array
from numerics.linear_network import kernel_distance, lambda_balanced_weights, matrix_gradient_descent, ntk_gram
from proofs_check.papers.nam2025.lazy_rich import whitened_regression

__all__ = ["ARCHITECTURES", "FunnelRun", "funnel_run"]

ARCHITECTURES = {"funnel": (4, 2, 2), "anti-funnel": (2, 2, 4)}
"""(d, p, c) of each architecture."""


@dataclass(frozen=True)
class FunnelRun:
    """Per λ of ``lambdas``: the final ``kernel`` distance, the GF time ``fit_time`` at which the relative loss
    :math:`\\|W_1W_2 - \\Sigma_{xy}\\|_F^2/\\|\\Sigma_{xy}\\|_F^2` first falls below ``fit`` (inf if never, on a grid
    of ``dt``), and the final relative ``loss``."""

    lambdas: np.ndarray
    kernel: np.ndarray
    fit_time: np.ndarray
    loss: np.ndarray


def _frame(rng: np.random.Generator, rows: int, columns: int) -> np.ndarray:
    return np.linalg.qr(rng.normal(size=(rows, columns)))[0]


def funnel_run(
    architecture: str,
    lambdas: object,
    rho0: float = 0.05,
    time: float = 40.0,
    dt: float = 0.5,
    fit: float = 1e-2,
    target: float = 2.0,
    seed: int = 0,
) -> FunnelRun:
    r"""GD (step :math:`\le 0.2/\sqrt{\lambda^2 + 4\|\Sigma_{xy}\|_2^2}`, a divisor of ``dt``) for GF time ``time``
    from λ-balanced starts of ``architecture`` (a key of ARCHITECTURES) at each λ of ``lambdas`` (finite, 1-D),
    product singular values ``rho0`` > 0, on ``4 max(d, c)`` whitened samples from ``seed``, :math:`\Sigma_{xy}`
    rescaled to top singular value ``target`` > 0."""
    if not (isinstance(architecture, str) and architecture in ARCHITECTURES):
        raise ValueError(f"architecture must be one of {tuple(ARCHITECTURES)}, got {architecture!r}")
    lambdas = real_array("lambdas", lambdas, ndim=1)
    if lambdas.size == 0:
        raise ValueError("lambdas must be non-empty")
    rho0, time, dt, fit = positive("rho0", rho0), positive("time", time), positive("dt", dt), positive("fit", fit)
    target = positive("target", target)
    d, p, c = ARCHITECTURES[architecture]
    X, Y = whitened_regression(n=4 * max(d, c), d=d, c=c, seed=count("seed", seed, 0))
    Sxy = X @ Y.T / X.shape[1]
    Sxy *= target / np.linalg.norm(Sxy, 2)
    rng = np.random.default_rng(seed)
    if d >= c:
        W1, W2 = lambda_balanced_weights(
            np.full(p, rho0), lambdas, _frame(rng, d, c), _frame(rng, c, c), _frame(rng, c, c)
        )
    else:
        A, B = lambda_balanced_weights(
            np.full(p, rho0), -lambdas, _frame(rng, c, d), _frame(rng, d, d), _frame(rng, d, d)
        )
        W1, W2 = np.swapaxes(B, -1, -2), np.swapaxes(A, -1, -2)
    per_segment = int(np.ceil(dt * np.sqrt(np.max(lambdas**2) + 4 * np.linalg.norm(Sxy, 2) ** 2) / 0.2))
    lr = dt / per_segment
    E1, E2, losses = W1, W2, []
    for _ in range(max(1, round(time / dt))):
        E1, E2 = matrix_gradient_descent(E1, E2, np.eye(d), Sxy, lr, per_segment)
        losses.append(np.sum((E1 @ E2 - Sxy) ** 2, axis=(-2, -1)) / np.sum(Sxy**2))
    history = np.array(losses).T
    below = history < fit
    fit_time = np.where(below.any(axis=1), dt * (1 + np.argmax(below, axis=1)), np.inf)
    kernel = kernel_distance(ntk_gram(W1, W2, X), ntk_gram(E1, E2, X))
    return FunnelRun(lambdas, kernel, fit_time, history[:, -1])
