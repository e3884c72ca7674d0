"""Nam et al. 2025, §4.4: the scaling laws of the emergence model in time, data and parameters. Every claim's
status, and wrong variants refuted: another exponent against the derived one, and against the exact sums'
measured slopes."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs_check.claims import Status
from proofs_check.papers.nam2025 import claims_scaling as sc
from proofs_check.runner import run_check

PREFIXES = ("nam2025.scaling.",)
PROVED = {"scaling.time", "scaling.data", "scaling.parameters"}
NUMERIC = {"scaling.time.numeric", "scaling.data.numeric", "scaling.parameters.numeric"}
PAPER = sc.PAPER
alpha = sc.alpha


def test_statuses(check_statuses):
    check_statuses("nam2025", PREFIXES, PROVED, NUMERIC)


@pytest.mark.parametrize(
    ("claim_id", "wrong"),
    [
        ("scaling.time", sp.Eq(sc.beta_t, -alpha)),  # the parameter exponent
        ("scaling.time", sp.Eq(sc.beta_t, alpha / (alpha + 1))),  # flipped sign
        ("scaling.data", sp.Eq(sc.beta_n, -1 / (alpha + 1))),
        ("scaling.data", sp.Eq(sc.beta_n, -alpha / (alpha + 2))),  # the compute-optimal exponent of the cited work
        ("scaling.parameters", sp.Eq(sc.beta_p, -alpha / (alpha + 1))),
        ("scaling.parameters", sp.Eq(sc.beta_p, -(alpha + 1))),
    ],
)
def test_wrong_exponents_are_refuted(claim_id, wrong):
    assert run_check(PAPER.variant(claim_id, wrong)).status is Status.REFUTED


@pytest.mark.parametrize(
    ("resource", "wrong"),
    [
        ("time", lambda a: -a),
        ("time", lambda a: -a / (a + 1) + 0.01),  # a constant off by the tolerance's five times
        ("data", lambda a: -a / (a + 2)),
        ("parameters", lambda a: -a / (a + 1)),
    ],
)
def test_measured_slopes_refute_wrong_exponents(resource, wrong):
    assert sc.slope_check(resource, wrong).status is Status.REFUTED


def test_the_derived_exponents_are_the_papers():
    """Derived, not typed in: the exponents come out of the limits of the derived per-skill losses."""
    for resource, exponent in sc.PAPER_EXPONENTS.items():
        assert sp.simplify(sc.scaling(resource).beta - exponent) == 0


def test_a_loss_never_learned_is_not_a_scaling_law():
    """ℓ = P/2 (no skill ever learned): the scaled integrand diverges at u → 0, so the integrability check fails."""
    asym = sc.continuum_exponent(sc.P / 2, sc.t, sc.BOUNDARIES["time"][0], sp.S.One)
    assert sc.integrable(asym).status is Status.ERROR
    assert sc.integrable(sc.scaling("time")).status is Status.PROVED


def test_a_loss_free_of_the_resource_is_a_value_error():
    with pytest.raises(ValueError, match="resource"):
        sc.continuum_exponent(sc.P / 2, sc.n, sc.BOUNDARIES["time"][0], sp.S.One)


def test_unknown_resource_is_a_value_error():
    with pytest.raises(ValueError, match="resource"):
        sc.per_skill_loss("compute")
