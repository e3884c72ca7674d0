"""The data of the spec's reference tests (§5): A (DLN staircase), B (PF 2-D re-dormancy example), C (FCN, d = c = 4),
D (modular-addition template). The spec gives the recipes of A, B and D; C's matrices are not given there, so the
ones below are ours (whitened: singular values 3, 1, 0.4, 0.064; non-commuting: a rotated Sxx)."""

from __future__ import annotations

import numpy as np

__all__ = ["dln_problem_a", "dln_problem_b", "fcn_problem", "modular_template"]


def dln_problem_a() -> tuple[np.ndarray, np.ndarray]:
    """rng(10), d = 5, n = 20, rows of X ~ N(0, diag(1/j)), beta* = 10 N(0, I), y = X beta*."""
    rng = np.random.default_rng(10)
    d, n = 5, 20
    X = rng.normal(size=(n, d)) * np.sqrt(1 / np.arange(1, d + 1))
    return X, X @ (10 * rng.normal(size=d))


def dln_problem_b() -> tuple[np.ndarray, np.ndarray]:
    """X = chol(R_150° diag(1, 25) R^T) (lower factor), beta* = (-0.2, 2), y = X beta*."""
    angle = np.deg2rad(150)
    R = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    X = np.linalg.cholesky(R @ np.diag([1.0, 25.0]) @ R.T)
    return X, X @ np.array([-0.2, 2.0])


def fcn_problem(whitened: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(Sxx, Syx, Syy) with d = c = 4: Syx = U diag(3, 1, 0.4, 0.064) V^T, Syy = Syx Sxx^{-1} Sxy + 0.01 I, and
    Sxx = I (whitened, commuting) or Q diag(3, 1, 0.3, 0.1) Q^T (non-commuting)."""
    from scipy.stats import ortho_group  # scipy.stats takes ~1 s to import; only this problem needs it

    U, V, Q = (ortho_group.rvs(4, random_state=seed) for seed in (1, 2, 3))
    Syx = U @ np.diag([3.0, 1.0, 0.4, 0.064]) @ V.T
    Sxx = np.eye(4) if whitened else Q @ np.diag([3.0, 1.0, 0.3, 0.1]) @ Q.T
    return Sxx, Syx, Syx @ np.linalg.solve(Sxx, Syx.T) + 0.01 * np.eye(4)


def modular_template(p: int = 13, seed: int = 13) -> np.ndarray:
    """A random mean-centred template x in R^p."""
    x = np.random.default_rng(seed).normal(size=p)
    return x - x.mean()


def authors_template(p: int = 20) -> np.ndarray:
    """The authors' fixed modular-addition template (``generate_fixed_template`` of ``modsum-agf.ipynb`` in
    danielkunin/alternating-gradient-flows, used with p = 20): x^[1] = 10, x^[3] = 5, x^[5] = 2.5 and their
    conjugates, every other frequency 0, mean-centred."""
    if not (isinstance(p, int) and p >= 11):
        raise ValueError(f"p must be an integer >= 11 (frequencies 1, 3, 5 and their conjugates), got {p!r}")
    spectrum = np.zeros(p, dtype=complex)
    for k, amplitude in ((1, 10.0), (3, 5.0), (5, 2.5)):
        spectrum[k] = spectrum[-k] = amplitude
    x = np.fft.ifft(spectrum).real
    return x - x.mean()
