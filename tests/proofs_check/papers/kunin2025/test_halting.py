"""Algorithm 1's halting rule (claim ``kunin2025.algorithm1.halting``): the check passes on ``numerics.agf`` and
refutes a run that halts early, one that does not halt, and one that activates the dead neurons."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from numerics.alternating import agf
from proofs_check.claims import Status
from proofs_check.papers import load_papers
from proofs_check.papers.kunin2025 import claims_halting as halting
from proofs_check.runner import run_check


@pytest.fixture(scope="module")
def result():
    return halting.halting_run()


def test_the_claim_is_numerically_supported() -> None:
    paper = load_papers(["kunin2025"]).paper("kunin2025")
    outcome = run_check(paper["algorithm1.halting"])
    assert outcome.status is Status.NUMERIC, outcome.detail
    assert "dead features (2, 3)" in outcome.detail


def test_the_problem_has_dead_features_and_an_unfittable_residual() -> None:
    X, y = halting.halting_problem()
    assert np.all(X[:, list(halting.DEAD)] == 0) and np.all(X[:, [0, 1]] != 0)
    # the part of y outside the live columns' span is ½e with e a standard Gaussian draw: clearly nonzero
    q = np.linalg.qr(X[:, [0, 1]])[0]
    assert np.linalg.norm(y - q @ (q.T @ y)) > 0.5


def test_the_real_run_stops_on_the_dead_neurons(result) -> None:
    assert result.halted.startswith(halting.HALT_REASON)
    assert result.active_sets[-1] == (0, 1) and result.loss_levels[-1] > 0.01


def test_a_run_that_halts_early_is_refuted() -> None:
    # the algorithm itself, stopped after its first jump (neuron 0 still has utility to accumulate)
    early = dataclasses.replace(_real_run(max_jumps=1), halted=halting.HALT_REASON + " utility)")
    outcome = halting.halting_check(lambda: early)
    assert outcome.status is Status.REFUTED
    assert "dormant utility gradients" in str(outcome.counterexample)


def test_a_run_truncated_with_the_right_label_is_refuted(result) -> None:
    truncated = dataclasses.replace(result, jumps=result.jumps[:2])
    assert halting.halting_check(lambda: truncated).status is Status.REFUTED


def test_a_run_that_does_not_halt_is_refuted(result) -> None:
    # a loop without the zero-gradient exit repeats its last state until the jump budget runs out
    looping = dataclasses.replace(
        result,
        jumps=result.jumps + (result.jumps[-1],) * (halting.MAX_JUMPS - len(result.jumps) + 1),
        halted="max_jumps reached",
    )
    outcome = halting.halting_check(lambda: looping)
    assert outcome.status is Status.REFUTED
    assert "did not halt" in str(outcome.counterexample)


def test_a_run_that_activates_the_dead_neurons_is_refuted(result) -> None:
    # the variant halting only when D is empty: the dead neurons end up "active" at zero
    last = dataclasses.replace(result.jumps[-1], active=(0, 1, 2, 3), activated=(2, 3))
    everything = dataclasses.replace(result, jumps=(*result.jumps, last), halted="all neurons active")
    outcome = halting.halting_check(lambda: everything)
    assert outcome.status is Status.REFUTED
    assert "dead neurons [2, 3] were activated" in str(outcome.counterexample)


def _real_run(max_jumps: int):
    X, y = halting.halting_problem()
    d = X.shape[1]
    a0, w0 = np.full(d, np.sqrt(2) * halting.ALPHA), np.zeros((d, d))
    return agf(X, y, a0, w0, halting.ALPHA, support=np.eye(d, dtype=bool), max_jumps=max_jumps)
