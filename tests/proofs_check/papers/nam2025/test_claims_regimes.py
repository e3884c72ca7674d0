"""Nam et al. 2025: the grokking fixes (§6.3, §7.2, App. G.3), the NTK scaling Z = √p (§5 limits table) and neural
collapse (eq 13, App. E): statuses, and wrong variants refuted (a reversed fix, another limit, Z = 1, a
far-from-balanced start, a doubled rank)."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs_check.claims import Status
from proofs_check.papers.nam2025 import claims_collapse as collapse
from proofs_check.papers.nam2025 import claims_regimes as regimes
from proofs_check.runner import run_check

PREFIXES = ("nam2025.grokking.", "nam2025.sec7.ntk_scaling", "nam2025.collapse.")
PROVED = {"grokking.init", "grokking.target", "grokking.input", "grokking.output", "sec7.ntk_scaling"}
NUMERIC = {"grokking.numeric", "sec7.ntk_scaling.numeric", "collapse.rank", "collapse.means"}
PAPER = regimes.PAPER


def test_statuses(check_statuses):
    check_statuses("nam2025", PREFIXES, PROVED, NUMERIC)


def test_the_mlp_experiment_is_declared_out_of_scope():
    for key in regimes.FIXES:
        assert regimes.OUT_OF_SCOPE in PAPER[f"grokking.{key}"].assumptions


@pytest.mark.parametrize("key", list(regimes.FIXES))
def test_the_reversed_fix_is_refuted(key):
    knob = regimes.FIXES[key][0]
    ratio, root = (sp.Symbol(f"d_{name}/d{knob}") for name in ("ratio", "gamma_+"))
    direction = regimes.FIXES[key][2]
    reversed_fix = sp.And(ratio > 0, root < 0) if direction > 0 else sp.And(ratio < 0, root > 0)
    assert run_check(PAPER.variant(f"grokking.{key}", reversed_fix)).status is Status.REFUTED


def test_reversed_fixes_move_the_weights_less():
    assert regimes.fixes_move_weights(regimes.REVERSED).status is Status.REFUTED


def test_ntk_scaling_variant_with_another_limit_is_refuted():
    wrong = sp.Eq(
        sp.Matrix(
            [
                sp.Limit(sp.sqrt(regimes.p) * (regimes.g_ntk - 1), regimes.p, sp.oo),
                sp.Limit(regimes.p * (regimes.K_ratio - 1), regimes.p, sp.oo),
                sp.Limit(sp.sqrt(regimes.p) * regimes.a_moved, regimes.p, sp.oo),
                regimes.K_0,
            ]
        ),
        sp.Matrix([regimes.S, regimes.S**2, regimes.S / 2, 2]),
        evaluate=False,
    )
    assert run_check(PAPER.variant("sec7.ntk_scaling", wrong)).status is Status.REFUTED


def test_standard_parametrization_moves_weights_as_one_over_p(wrong_experiment):
    claim = wrong_experiment(lambda: regimes.weight_movement_exponent(lambda p: 1.0), 0.05, expected=-0.5)
    assert run_check(claim).status is Status.REFUTED


@pytest.mark.parametrize(
    ("quantity", "scales", "rank", "tolerance"),
    [
        ("rank", (0.5, 1e-4), collapse.CLASSES, 1e-2),  # far from balance: the initial features stay
        ("means", (0.5, 1e-4), collapse.CLASSES, 1e-4),
        ("rank", collapse.NEAR_BALANCED, 2 * collapse.CLASSES, 1e-2),  # a doubled rank
    ],
)
def test_collapse_variants_are_refuted(quantity, scales, rank, tolerance, wrong_experiment):
    claim = wrong_experiment(lambda: collapse.collapse_measure(quantity, scales, rank), tolerance)
    assert run_check(claim).status is Status.REFUTED
