"""The Kunin et al. 2025 (AGF) claims: statuses, conjecture labels, pass criteria that can fail (a doubled activation
threshold, a staircase with a flipped sign), budget."""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import pytest

import numerics.alternating.algorithm as algorithm
from numerics.alternating import Agreement
from numerics.alternating.reference_problems import dln_problem_a
from proofs_check.claims import Status
from proofs_check.papers import kunin2025_checks as kunin2025
from proofs_check.papers import load_papers
from proofs_check.runner import run_check, run_claims

EXPECTED = {
    "kunin2025.dln.pf_staircase": Status.NUMERIC,
    "kunin2025.dln.agf_is_pf": Status.NUMERIC,
    "kunin2025.dln.theorem3_1": Status.NUMERIC,
    "kunin2025.dln.gd_time_map": Status.NUMERIC,
    "kunin2025.dln.redormancy": Status.NUMERIC,
    "kunin2025.fcn.saddles": Status.NUMERIC,
    "kunin2025.fcn.whitened_jump_times": Status.NUMERIC,
    "kunin2025.fcn.agf_commuting": Status.NUMERIC,
    "kunin2025.fcn.conjecture4_1": Status.NUMERIC,
    "kunin2025.attention.levels_exact": Status.PROVED,
    "kunin2025.attention.plateaus": Status.NUMERIC,
    "kunin2025.attention.jump_bound": Status.NUMERIC,
    "kunin2025.modular.fourier_form": Status.NUMERIC,
    "kunin2025.modular.theorem5_1": Status.NUMERIC,
}


@pytest.fixture(scope="module")
def records():
    start = time.perf_counter()
    done = run_claims(load_papers(["kunin2025"]).claims("kunin2025"))
    return {r.claim.id: r for r in done}, time.perf_counter() - start


def test_statuses_and_budget(records) -> None:
    by_id, seconds = records
    assert {cid: r.outcome.status for cid, r in by_id.items()} == EXPECTED, {
        cid: (r.outcome.status, r.outcome.detail) for cid, r in by_id.items()
    }
    assert seconds < 60


def test_conjecture_and_theorem_labels(records) -> None:
    by_id, _ = records
    assert "conjecture" in by_id["kunin2025.fcn.conjecture4_1"].claim.statement.lower()
    assert "checked numerically" in by_id["kunin2025.dln.theorem3_1"].claim.statement
    for record in by_id.values():
        citation = record.claim.citation
        assert citation.paper == "kunin2025" and citation.reference.startswith("Kunin et al. 2025, ")
        assert "spec" not in citation.reference  # the paper's sections only, no file a reader does not have


def test_reports_name_the_alphas_and_skipped_jumps(records) -> None:
    by_id, _ = records
    assert "alpha=1e-32" in by_id["kunin2025.dln.theorem3_1"].outcome.detail
    detail = by_id["kunin2025.fcn.whitened_jump_times"].outcome.detail
    assert "not assessed" in detail and "jump 4 at alpha=1e-16" in detail


def _agreement(alpha: float, scaled: list[float], predicted: list[float]) -> Agreement:
    scaled_errors = np.array(scaled)
    relative = scaled_errors / np.log(1 / alpha) / np.array(predicted)
    return Agreement(alpha, np.array(predicted) + relative * predicted, relative, scaled_errors, np.zeros(2))


def test_convergence_criterion_flags_non_constant_errors() -> None:
    good = [_agreement(a, [1.0, -2.0], [1.0, 3.0]) for a in (1e-4, 1e-8)]
    assert kunin2025._convergence_failures(good) == []
    drifting = [_agreement(1e-4, [1.0, -2.0], [1.0, 3.0]), _agreement(1e-8, [1.0, -9.0], [1.0, 3.0])]
    assert kunin2025._convergence_failures(drifting) == ["jump 2: error x log(1/alpha) not constant: (-2, -9)"]
    assert kunin2025._convergence_failures(drifting, lambda alpha, k: alpha > 1e-6) == []


def test_a_doubled_activation_threshold_is_refuted(monkeypatch) -> None:
    paper = load_papers(["kunin2025"]).paper("kunin2025")
    assert run_check(paper["dln.agf_is_pf"]).status is Status.NUMERIC
    correct = algorithm.thresholds
    monkeypatch.setattr(algorithm, "thresholds", lambda norms, kappa: 2 * correct(norms, kappa))
    outcome = run_check(paper["dln.agf_is_pf"])
    assert outcome.status is Status.REFUTED
    assert any("eta S_i / c_i" in text for text in outcome.counterexample.values())


def test_a_staircase_with_a_flipped_sign_violates_pf_conditions() -> None:
    X, y = dln_problem_a()
    saddles = kunin2025.pesme_flammarion(X, y)
    assert kunin2025.pf_conditions(saddles, X, y) == []
    flipped = [dataclasses.replace(s, beta=-s.beta) for s in saddles]
    assert any("sign constraint" in f for f in kunin2025.pf_conditions(flipped, X, y))
    late = [*saddles[:2], dataclasses.replace(saddles[2], time=saddles[2].time * 1.5), *saddles[3:]]
    assert kunin2025.pf_conditions(late, X, y)
