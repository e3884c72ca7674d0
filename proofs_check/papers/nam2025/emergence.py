r"""Simulations of the emergence model (Nam et al. 2025, eq 11, after Nam et al. 2024): data emergence from sampled
data, and the times at which modes cross a level.

Data emergence (spec ``models-nam2025.md`` §6, Cor. 1 of the cited work): ``n`` inputs are drawn from the skill
distribution (skill :math:`k` with probability :math:`P_s(k)`, its parity :math:`g_k = \pm1` uniform, every other
skill function zero), the empirical second moments are computed from the drawn skill functions, and gradient
descent runs on the empirical loss :math:`\tfrac1{2n}\sum_i(f(x_i) - y_i)^2` from the balanced start
:math:`a_k = b_k = \sqrt{w_0}`. This is independent of the closed form and of the formula it is compared with.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["MAX_STEPS", "crossing_times", "data_emergence", "skill_probabilities"]

MAX_STEPS = 200_000
"""Largest number of gradient steps :func:`data_emergence` takes (raise with ``max_steps=``)."""


def skill_probabilities(n_skills: int, alpha: float) -> np.ndarray:
    r""":math:`P_s(k)`, :math:`k = 1, \dots, n_s`, in float64 (``derivations.models.emergence.skill_frequencies``)."""
    from derivations.models.emergence import skill_frequencies

    return np.array([float(p) for p in skill_frequencies(n_skills, alpha)])


def _empirical_moments(
    skills: np.ndarray, signs: np.ndarray, n_skills: int, target: float
) -> tuple[np.ndarray, np.ndarray]:
    r"""Per trial, :math:`\hat\Sigma_{kj} = \frac1n\sum_i g_k(x_i)g_j(x_i)` and :math:`\hat c_k = \frac1n\sum_i y_i
    g_k(x_i)` with :math:`y = S\sum_k g_k`, from the drawn skill indices and parities (shape (trials, n))."""
    g = (skills[..., None] == np.arange(n_skills)) * signs[..., None]  # (trials, n, K): g_k(x_i)
    y = target * g.sum(axis=-1)
    n = skills.shape[-1]
    return np.einsum("tik,tij->tkj", g, g) / n, np.einsum("ti,tik->tk", y, g) / n


def data_emergence(
    frequencies: ArrayLike,
    n_samples: Sequence[int],
    trials: int,
    target: float = 1.0,
    w0: float = 1e-4,
    lr: float = 0.25,
    seed: int = 0,
    max_steps: int = MAX_STEPS,
) -> np.ndarray:
    r"""The mean over ``trials`` draws of :math:`R_k/S = a_kb_k/S` after gradient descent on the empirical loss of
    ``n`` samples, for each ``n`` of ``n_samples``: an array of shape (len(n_samples), number of skills).

    Gradient descent runs, for each ``n``, for the time :math:`T = 1.2\,n\,(\ln(S/w_0) + \ln 10^3)/(2S)`, after
    which a skill drawn once is learned to :math:`10^{-3}` (its empirical rate is :math:`2S/n`); ``max_steps``
    bounds ``T/lr``.
    """
    p = np.asarray(frequencies, dtype=float)
    if p.ndim != 1 or p.size < 1 or np.any(p <= 0) or not math.isclose(p.sum(), 1.0, rel_tol=1e-12):
        raise ValueError("frequencies must be a 1-D array of positive numbers summing to 1")
    ns = tuple(n_samples)
    if not ns or any(isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1 for n in ns):
        raise ValueError(f"n_samples must be a non-empty sequence of integers >= 1, got {n_samples!r}")
    if isinstance(trials, bool) or not isinstance(trials, numbers.Integral) or trials < 1:
        raise ValueError(f"trials must be an integer >= 1, got {trials!r}")
    if not (target > 0 and 0 < w0 < target / 2):
        raise ValueError(f"need target > 0 and 0 < w0 < target/2, got target = {target!r}, w0 = {w0!r}")
    if not 0 < lr <= 0.25 / target:
        raise ValueError(f"lr must be in (0, 0.25/target] (stable for frequencies <= 1), got {lr!r}")
    steps = {n: math.ceil(1.2 * n * (math.log(target / w0) + math.log(1e3)) / (2 * target) / lr) for n in ns}
    if max(steps.values()) > max_steps:
        needed = max(steps.values())
        raise ValueError(f"data_emergence needs {needed} gradient steps (> max_steps = {max_steps}); raise max_steps")
    rng = np.random.default_rng(seed)
    out = np.empty((len(ns), p.size))
    for row, n in enumerate(ns):
        skills = rng.choice(p.size, size=(trials, n), p=p)
        signs = rng.choice((-1.0, 1.0), size=(trials, n))
        sigma, c = _empirical_moments(skills, signs, p.size, target)
        a = np.full((trials, p.size), math.sqrt(w0))
        b = a.copy()
        for _ in range(steps[n]):
            residual = c - (sigma @ (a * b)[..., None])[..., 0]
            a, b = a + lr * b * residual, b + lr * a * residual
        out[row] = (a * b).mean(axis=0) / target
    return out


def crossing_times(t: np.ndarray, values: np.ndarray, level: float) -> np.ndarray:
    """The first time each column of ``values`` (time on the first axis, increasing from below ``level``) reaches
    ``level``, by linear interpolation between grid points; ValueError if a column never does."""
    t, values = np.asarray(t, dtype=float), np.asarray(values, dtype=float)
    if values.shape[0] != t.shape[0] or t.ndim != 1:
        raise ValueError(f"values must have the times on the first axis ({t.shape[0]}), got shape {values.shape}")
    above = values >= level
    if not np.all(above.any(axis=0)) or np.any(above[0]):
        raise ValueError(f"every column must start below and reach level {level} on the grid")
    k = above.argmax(axis=0)
    columns = np.arange(values.shape[1])
    v0, v1 = values[k - 1, columns], values[k, columns]
    return t[k - 1] + (level - v0) / (v1 - v0) * (t[k] - t[k - 1])
