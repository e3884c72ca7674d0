"""Reference problems of our own for AGF at kappa = 3 and for simultaneous activation (Kunin et al. 2025 §2–§3; spec
agf-kunin2025.md §2, §3 "I* may hold several indices", §5), and the kappa = 3 jump-time lower bound.

The spec gives no kappa = 3 test with finite data (its modular-addition setting needs several neurons per frequency,
whose cost minimization has an infimum that is not attained), so the data below are ours:

* ``teacher_problem``: quadratic network, d = 3, c = 1, n = 60 Gaussian inputs (rng 1), target y = sum_k s_k x_k² with
  s = (3, 1, 0.3), H = 3 students from ``gaussian_init`` (seed 2);
* ``mirrored_problem``: the same network on data closed under swapping x_1 <-> x_2 (each of 30 Gaussian rows, rng 4,
  and its swap), target 2(x_1² + x_2²) + x_3²/2, students 0 and 1 mirror images of each other and student 2 on the
  mirror's fixed plane (w_1 = w_2), output weights > 0; gradient flow keeps the mirror symmetry, so students 0 and 1
  reach the threshold at the same time; ``perturbation`` scales student 1's initial weights by (1 + perturbation)
  and breaks it;
* ``dln_tie_problem``: diagonal linear network (spec §4a) with orthogonal design X = sqrt(n) I (n = d = 3) and
  beta* = (2, 2, 1): PF's dual variables s_i = t beta*_i reach 1 together for i = 1, 2 at t = 1/2.
"""

from __future__ import annotations

import numpy as np

from numerics.alternating.algorithm import gaussian_init
from numerics.alternating.validate import init_scale, positive
from numerics.validation import finite_array

__all__ = [
    "dln_tie_problem",
    "jump_bound",
    "mirrored_problem",
    "quadratic_maximal_utility",
    "teacher_problem",
]


def teacher_problem(alpha: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(X, Y, a0, w0) of the kappa = 3 teacher problem (module docstring) at initialization scale ``alpha``."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 3))
    Y = (X**2 @ np.array([3.0, 1.0, 0.3]))[:, None]
    a0, w0 = gaussian_init(3, 1, 3, init_scale(alpha), seed=2)
    return X, Y, a0, w0


def mirrored_problem(alpha: float, perturbation: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(X, Y, a0, w0) of the mirror-symmetric problem (module docstring)."""
    rng = np.random.default_rng(4)
    rows = rng.normal(size=(30, 3))
    X = np.vstack([rows, rows[:, [1, 0, 2]]])
    Y = (2 * (X[:, 0] ** 2 + X[:, 1] ** 2) + 0.5 * X[:, 2] ** 2)[:, None]
    a, w = gaussian_init(2, 1, 3, init_scale(alpha), seed=5)
    a = np.abs(a)
    a0 = np.vstack([a[0], a[0] * (1 + perturbation), a[1]])
    w0 = np.vstack([w[0], w[0][[1, 0, 2]] * (1 + perturbation), [w[1][0], w[1][0], w[1][2]]])
    return X, Y, a0, w0


def dln_tie_problem(beta: object = (2.0, 2.0, 1.0)) -> tuple[np.ndarray, np.ndarray]:
    """(X, y) of the diagonal network with X = sqrt(n) I and y = X beta (module docstring)."""
    beta = finite_array("beta", beta, ndim=1)
    n = beta.size
    X = np.sqrt(n) * np.eye(n)
    return X, X @ beta


def quadratic_maximal_utility(X: object, r: object) -> float:
    """max of U(a, w) = a w^T M w on the unit sphere a² + |w|² = 1, M = (1/n) sum_m r_m x_m x_m^T (quadratic
    activation, one output): for |w|² = s and w along the eigenvector of the largest |eigenvalue| mu, a = ±sqrt(1 - s)
    and U = sqrt(1 - s) s |mu|, largest at s = 2/3: U* = 2 |mu| / (3 sqrt 3)."""
    X = finite_array("X", X, ndim=2)
    r = finite_array("r", r).reshape(len(X))
    M = X.T @ (r[:, None] * X) / len(X)
    return float(2 * np.max(np.abs(np.linalg.eigvalsh(M))) / (3 * np.sqrt(3)))


def jump_bound(maximal_utility: float, dormant_norm: float, alpha: float, kappa: int = 3) -> float:
    """Eqs. 7 and 9 (spec §4c-d, form [U/D]) in rescaled time t~ = t alpha^{kappa-2}: the shortest time from the
    previous jump to the next, alpha^{kappa-2} / (kappa (kappa - 2) U* ||theta||^{kappa-2}) with ||theta|| the largest
    dormant norm at the previous jump: the norm equation d||theta||^{2-kappa}/dt = -(kappa - 2) kappa U(theta_bar) with
    U <= U* (perfect alignment) and blow-up at ||theta||^{2-kappa} = 0. For kappa = 3: alpha / (3 U* ||theta||)."""
    if kappa < 3:
        raise ValueError(f"kappa must be > 2 (the kappa = 2 jump times scale with log(1/alpha)), got {kappa!r}")
    utility, norm = positive("maximal_utility", maximal_utility), positive("dormant_norm", dormant_norm)
    alpha = init_scale(alpha)
    return alpha ** (kappa - 2) / (kappa * (kappa - 2) * utility * norm ** (kappa - 2))
