"""The Kunin et al. 2025 (AGF) claims: statuses, conjecture labels, pass criteria that can fail (a doubled activation
threshold, a staircase with a flipped sign)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import numerics.alternating.algorithm as algorithm
from numerics.alternating import Agreement
from proofs_check.claims import Status
from proofs_check.papers import load_papers
from proofs_check.papers.kunin2025 import checks as kunin2025
from proofs_check.papers.kunin2025.reference_problems import dln_problem_a
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
    "kunin2025.utility.gradient": Status.PROVED,
    "kunin2025.utility.dormant_flow": Status.PROVED,
    "kunin2025.utility.euler": Status.PROVED,
    "kunin2025.utility.norm": Status.PROVED,
    "kunin2025.utility.direction": Status.PROVED,
    "kunin2025.utility.thresholds": Status.PROVED,
    "kunin2025.dln.theorem3_1.mirror_flow": Status.PROVED,
    "kunin2025.dln.theorem3_1.dormant_limits": Status.PROVED,
    "kunin2025.modular.theorem5_2": Status.PROVED,
    "kunin2025.modular.theorem5_2.single_neuron": Status.PROVED,
    "kunin2025.modular.theorem5_2.six_neurons": Status.PROVED,
    "kunin2025.modular.plateau_levels": Status.NUMERIC,
    "kunin2025.modular.plateau_levels.even_p": Status.NUMERIC,
    "kunin2025.algorithm1.halting": Status.NUMERIC,
    "kunin2025.utility.kappa3_slow_alignment": Status.NUMERIC,
}
SLOW = {
    "kunin2025.modular.theorem5_2.fractions": Status.NUMERIC,
    "kunin2025.modular.eq9_bound": Status.NUMERIC,
    "kunin2025.kappa3.jump_times": Status.NUMERIC,
    "kunin2025.kappa3.plateaus": Status.NUMERIC,
    "kunin2025.kappa3.jump_bound": Status.NUMERIC,
    "kunin2025.simultaneous.dln": Status.NUMERIC,
    "kunin2025.simultaneous.quadratic": Status.NUMERIC,
}


@pytest.fixture(scope="module")
def paper():
    return load_papers(["kunin2025"]).paper("kunin2025")


@pytest.fixture(scope="module")
def records(paper):
    done = run_claims([c for c in paper.claims() if c.id not in SLOW])
    return {r.claim.id: r for r in done}


@pytest.mark.slow
def test_statuses(records) -> None:
    # no wall-clock bound here: `python benchmarks/claims_run.py --claim kunin2025` measures the running times
    by_id = records
    assert {cid: r.outcome.status for cid, r in by_id.items()} == EXPECTED, {
        cid: (r.outcome.status, r.outcome.detail) for cid, r in by_id.items()
    }
    assert set(EXPECTED) | set(SLOW) == {c.id for c in load_papers(["kunin2025"]).claims("kunin2025")}


@pytest.mark.slow
def test_slow_claims(paper) -> None:
    done = run_claims([c for c in paper.claims() if c.id in SLOW])
    assert {r.claim.id: r.outcome.status for r in done} == SLOW, {r.claim.id: r.outcome.detail for r in done}


@pytest.mark.slow
def test_conjecture_and_theorem_labels(records) -> None:
    by_id = records
    assert "conjecture" in by_id["kunin2025.fcn.conjecture4_1"].claim.statement.lower()
    assert "checked numerically" in by_id["kunin2025.dln.theorem3_1"].claim.statement
    for record in by_id.values():
        citation = record.claim.citation
        assert citation.paper == "kunin2025" and citation.reference.startswith("Kunin et al. 2025, ")
        assert "spec" not in citation.reference  # the paper's sections only, no file a reader does not have


@pytest.mark.slow
def test_reports_name_the_alphas_and_skipped_jumps(records) -> None:
    by_id = records
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


@pytest.mark.slow
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


# ---------------------------------------------------------------- wrong variants of the new claims are refuted
def test_wrong_variants_of_the_exact_claims_are_refuted(paper) -> None:
    import sympy as sp

    from proofs_check.papers.kunin2025 import claims as declared

    wrong = {
        "utility.gradient": sp.Eq(declared.neg_grad_L, 2 * declared.grad_U),
        "utility.dormant_flow": sp.Eq(declared.gap_scaled, 2 * declared.gap_power),
        "utility.euler": sp.Eq(declared.euler_lhs, declared.kappa_U * 2),
        "utility.norm": sp.Eq(declared.norm_dot, 2 * declared.norm_law),
        "utility.direction": sp.Eq(declared.dir_dot, -declared.dir_law),
        "utility.thresholds": sp.Eq(declared.threshold_integral, 2 * declared.threshold),  # a doubled threshold
        "dln.theorem3_1.mirror_flow": sp.Eq(declared.mirror_lhs, -declared.mirror_rhs),
        "dln.theorem3_1.dormant_limits": sp.Eq(declared.dormant_limit, 2 * declared.dormant_value),
        "modular.theorem5_2": sp.Eq(declared.loss_mod, declared.loss_rest + 2 * declared.harmonic_energy),
        "modular.theorem5_2.single_neuron": sp.Le(declared.captured, sp.Rational(1, 10)),
    }
    for claim_id, statement in wrong.items():
        outcome = run_check(paper.variant(claim_id, statement))
        assert outcome.status is Status.REFUTED, (claim_id, outcome)


def test_wrong_fractions_and_levels_are_refuted(paper, monkeypatch) -> None:
    monkeypatch.setattr(kunin2025, "SPAN_FRACTIONS", {1: 7 / 9})
    assert run_check(paper["modular.theorem5_2.fractions"]).status is Status.REFUTED
    correct = kunin2025.plateau_levels
    monkeypatch.setattr(kunin2025, "plateau_levels", lambda x: correct(x) * 1.001)
    assert run_check(paper["modular.plateau_levels"]).status is Status.REFUTED
    assert run_check(paper["modular.plateau_levels.even_p"]).status is Status.REFUTED


def test_even_p_levels_with_the_self_conjugate_power_counted_twice_are_refuted(paper, monkeypatch) -> None:
    def twice(x):
        p = len(x)
        powers = np.sort(2 * np.abs(np.fft.fft(x)[1 : p // 2 + 1]) ** 2 / p)[::-1]
        return 0.5 * (np.sum(x**2) - np.concatenate([[0.0], np.cumsum(powers)]))

    assert run_check(paper["modular.plateau_levels.even_p"]).status is Status.NUMERIC
    monkeypatch.setattr(kunin2025, "plateau_levels", twice)
    assert run_check(paper["modular.plateau_levels.even_p"]).status is Status.REFUTED


def test_plateau_criterion_needs_falling_errors() -> None:
    assert kunin2025.plateau_failures(np.array([1e-6, 1e-9])) == []
    assert kunin2025.plateau_failures(np.array([1e-6, 1e-5]))


@pytest.mark.slow
def test_simultaneous_activation_fails_without_the_tie() -> None:
    failures, _ = kunin2025.tie_failures((2.0, 1.8, 1.0))
    assert any("first jump activates (0,)" in f for f in failures)
    failures, _ = kunin2025.mirrored_failures(perturbation=0.01)
    assert any("not (0, 1) together" in f for f in failures)


@pytest.mark.slow
def test_kappa3_claims_refute_shifted_predictions_and_a_tenfold_bound(paper, monkeypatch) -> None:
    """AGF jump times 5 % late are refuted (at kappa = 3 a doubled norm threshold would move them by O(alpha) only:
    the norm blows up in finite time, so the threshold's value hardly matters), and so is a bound ten times larger."""
    correct = kunin2025.run_agf

    def late(*args, **kwargs):
        result = correct(*args, **kwargs)
        jumps = tuple(dataclasses.replace(j, time=1.05 * j.time) for j in result.jumps)
        return dataclasses.replace(result, jumps=jumps)

    kunin2025._quadratic_run.cache_clear()
    monkeypatch.setattr(kunin2025, "run_agf", late)
    outcome = run_check(paper["kappa3.jump_times"])
    assert outcome.status is Status.REFUTED, outcome.detail
    monkeypatch.setattr(kunin2025, "run_agf", correct)
    kunin2025._quadratic_run.cache_clear()
    bound = kunin2025.jump_bound
    monkeypatch.setattr(kunin2025, "jump_bound", lambda *args: 10 * bound(*args))
    assert run_check(paper["kappa3.jump_bound"]).status is Status.REFUTED
    assert run_check(paper["modular.eq9_bound"]).status is Status.REFUTED
