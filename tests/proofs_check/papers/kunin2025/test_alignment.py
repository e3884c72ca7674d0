"""The slow κ = 3 alignment claim (``kunin2025.utility.kappa3_slow_alignment``): it holds for the network's gradient
flow, and a flow whose dormant directions stay frozen, or that align instantly (the κ = 2 behaviour), is refuted."""

from __future__ import annotations

import numpy as np

from proofs_check.claims import Status
from proofs_check.papers import load_papers
from proofs_check.papers.kunin2025 import claims_alignment as alignment
from proofs_check.papers.kunin2025.quadratic_problems import teacher_problem
from proofs_check.runner import run_check


class Redirected:
    """A flow with the real norms whose directions are replaced by ``direction(t, bar)`` (bar: T x H x p)."""

    def __init__(self, flow, direction) -> None:
        self.flow, self.direction = flow, direction

    def norms(self, t):
        return self.flow.norms(t)

    def weights(self, t):
        a, w = self.flow.weights(t)
        theta = np.concatenate([a, w], axis=2)
        bar = self.direction(np.atleast_1d(t), theta / np.linalg.norm(theta, axis=2, keepdims=True))
        theta = bar * self.flow.norms(t)[:, :, None]
        return theta[:, :, : a.shape[2]], theta[:, :, a.shape[2] :]


def _maximizer() -> np.ndarray:
    # U = a wᵀMw on the unit sphere is largest at a = sign(μ)/√3, w = √(2/3) v (μ, v the top |eigenpair| of M)
    X, Y = teacher_problem(alignment.ALPHAS[0])[:2]
    mu, vectors = np.linalg.eigh(alignment.utility_matrix(X, Y))
    k = int(np.argmax(np.abs(mu)))
    return np.concatenate([[np.sign(mu[k]) / np.sqrt(3)], np.sqrt(2 / 3) * vectors[:, k]])


def test_the_claim_is_numerically_supported() -> None:
    paper = load_papers(["kunin2025"]).paper("kunin2025")
    outcome = run_check(paper["utility.kappa3_slow_alignment"])
    assert outcome.status is Status.NUMERIC, outcome.detail
    assert outcome.detail.count("turn") == len(alignment.ALPHAS)


def test_frozen_directions_are_refuted() -> None:
    def frozen(alpha):
        return Redirected(alignment.teacher_flow(alpha), lambda t, bar: np.broadcast_to(_initial(alpha), bar.shape))

    outcome = alignment.alignment_check(frozen)
    assert outcome.status is Status.REFUTED
    assert "does not rise" in str(outcome.counterexample) and "turned by 0.0" in str(outcome.counterexample)


def test_instant_alignment_is_refuted() -> None:
    top = _maximizer()

    def instant(alpha):
        def direction(t, bar):
            snapped = bar.copy()
            snapped[t > 0] = top
            return snapped

        return Redirected(alignment.teacher_flow(alpha), direction)

    outcome = alignment.alignment_check(instant)
    assert outcome.status is Status.REFUTED
    assert "instantly aligned" in str(outcome.counterexample)


def _initial(alpha: float) -> np.ndarray:
    _, _, a0, w0 = teacher_problem(alpha)
    theta = np.hstack([a0, w0])
    return theta / np.linalg.norm(theta, axis=1, keepdims=True)
