"""``numerics.phase``: the phase of spec §4.2, the §4.3 parametrizations and their width exponents.

Expected values (phases, e_B, table exponents, Θ(1) limits) are typed from spec ``models-xu-ziyin2025.md``.
"""

from __future__ import annotations

import importlib
import math
import random
from fractions import Fraction

import numpy as np
import pytest

from proofs_check.papers.xu_ziyin2025.phase import (
    PARAMETRIZATIONS,
    PHASES,
    QUANTITIES,
    draw_changes,
    fit_exponent,
    phase,
    width_sweep,
)

phases = importlib.import_module("proofs_check.papers.xu_ziyin2025.phase")

F = Fraction
DK, DU, DW = "dK/K", "|du|/|u0|", "|dw|/|w0|"

# spec §4.3: (c_d, c_u, c_w, c_gamma, c_eta_u, c_eta_w) at κ = d, phase, and table exponents (Θ(1) = 0)
TABLE = {
    "ntk": ((1, 0, 0, F(-1, 2), 0, 0), "kernel", {DK: -1, DU: -0.5, DW: -0.5}),
    "mean_field": ((1, 0, 0, -1, 0, 0), "alignment", {DK: 0, DU: 0, DW: 0}),
    "xavier": ((1, -1, -1, 0, 0, 0), "alignment", {DK: 0, DU: 0, DW: 0}),
    "kaiming_fan_in": ((1, -1, 0, 0, 0, 0), "kernel", {DK: -2, DU: -0.5, DW: -1.5}),
    "small_init": ((1, -2, -2, 0, 0, 0), "rescaling", {DK: 1, DU: 0.5, DW: 0.5}),
}
NAMES = ("c_d", "c_u", "c_w", "c_gamma", "c_eta_u", "c_eta_w")
TOL = 0.05


def exponents(c_d=1, c_u=0, c_w=0, c_gamma=0, c_eta_u=0, c_eta_w=0):
    return {"c_d": c_d, "c_u": c_u, "c_w": c_w, "c_gamma": c_gamma, "c_eta_u": c_eta_u, "c_eta_w": c_eta_w}


# ---------------------------------------------------------------- phase()
@pytest.mark.parametrize("key", list(TABLE))
def test_phase_of_the_standard_parametrizations(key):
    c, expected, _ = TABLE[key]
    assert phase(*c) == expected
    assert phase(**PARAMETRIZATIONS[key].exponents) == expected


@pytest.mark.parametrize(
    ("c_d", "c_gamma", "expected"),
    [  # e_B = -c_gamma - c_d at c_u = c_w = c_eta = 0
        (1, 0, "kernel"),
        (1, -1, "alignment"),
        (1, -2, "rescaling"),
        (F(1, 2), F(-1, 3), "kernel"),
        (F(1, 2), F(-1, 2), "alignment"),
        (0, 1, "disalignment"),
        (0, 0, "alignment"),
        (0, -1, "rescaling"),
    ],
)
def test_phase_criteria(c_d, c_gamma, expected):
    assert expected in PHASES
    assert phase(**exponents(c_d=c_d, c_gamma=c_gamma)) == expected


def test_imbalanced_learning_rates_push_toward_the_kernel_side():
    """Mean-field is on the boundary; imbalancing η_u/η_w by κ^{±1} lowers e_B by 1/2 (spec §4.4)."""
    assert phase(**exponents(c_gamma=-1)) == "alignment"
    assert phase(**exponents(c_gamma=-1, c_eta_u=1)) == "kernel"
    assert phase(**exponents(c_gamma=-1, c_eta_w=-1)) == "kernel"
    assert phase(**exponents(c_gamma=F(-3, 2), c_eta_u=1)) == "alignment"


def test_phase_is_exact_for_floats():
    # e_B = -0.2 - 0.1 + 0.3 = 0 exactly, but 5.6e-17 in floating point
    assert -0.2 - 0.1 + 0.3 != 0
    assert phase(**exponents(c_d=0.1, c_gamma=0.2, c_u=-0.3, c_w=-0.3)) == "alignment"
    assert phase(**exponents(c_d=np.float64(0.5), c_gamma=np.float64(-0.5))) == "alignment"
    assert phase(**exponents(c_d=F(1, 3), c_gamma=F(-1, 3))) == "alignment"


def test_phase_is_invariant_under_the_abc_map():
    """u, w -> κ^θ u, κ^θ w; γ -> κ^{-2θ} γ; η -> κ^{2θ} η: variance exponents +2θ (spec §4.5, §8)."""
    rng = random.Random(2)
    for _ in range(100):
        c = {name: F(rng.randint(-6, 6), rng.choice((1, 2, 3))) for name in NAMES}
        c["c_d"] = abs(c["c_d"])
        theta = F(rng.randint(-6, 6), rng.choice((1, 2)))
        moved = {**c, "c_u": c["c_u"] + 2 * theta, "c_w": c["c_w"] + 2 * theta, "c_gamma": c["c_gamma"] - 2 * theta}
        moved |= {"c_eta_u": c["c_eta_u"] + 2 * theta, "c_eta_w": c["c_eta_w"] + 2 * theta}
        assert phase(**moved) == phase(**c)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("c_d", -1),
        ("c_d", -0.5),
        ("c_gamma", float("nan")),
        ("c_u", float("inf")),
        ("c_eta_w", "1"),
        ("c_w", None),
        ("c_eta_u", True),
    ],
)
def test_phase_rejects_bad_exponents(name, value):
    with pytest.raises(ValueError, match=name):
        phase(**{**exponents(), name: value})


# ---------------------------------------------------------------- parametrizations, fits, sweeps
def test_parametrizations_follow_the_spec_table():
    d = 100
    spec = {  # (σ_u², σ_w², γ) at d = 100
        "ntk": (1.0, 1.0, 0.1),
        "mean_field": (1.0, 1.0, 0.01),
        "xavier": (2 / 101, 2 / 101, 1.0),
        "kaiming_fan_in": (0.02, 2.0, 1.0),
        "small_init": (1e-4, 1e-4, 1.0),
    }
    assert set(PARAMETRIZATIONS) == set(TABLE)
    for key, p in PARAMETRIZATIONS.items():
        assert (p.var_u(d), p.var_w(d), p.gamma(d)) == pytest.approx(spec[key], rel=1e-12)
        assert tuple(p.exponents[n] for n in NAMES) == TABLE[key][0]
        assert {q: float(p.predicted[q]) for q in QUANTITIES} == TABLE[key][2]


def test_fit_exponent():
    widths = [10, 100, 1000, 10000]
    assert fit_exponent(widths, [3 * w**-1.5 for w in widths]) == pytest.approx(-1.5, abs=1e-12)
    assert fit_exponent(widths, [2.0] * 4) == pytest.approx(0.0, abs=1e-12)
    for bad_values in ([1.0, 2.0, 3.0], [1.0, 0.0, 1.0, 1.0], [1.0, float("nan"), 1.0, 1.0]):
        with pytest.raises(ValueError):
            fit_exponent(widths, bad_values)
    with pytest.raises(ValueError):
        fit_exponent([5, 5], [1.0, 2.0])


def test_width_sweep_validation():
    with pytest.raises(ValueError, match="parametrization"):
        width_sweep("lecun", [10], [0])
    with pytest.raises(ValueError, match="widths"):
        width_sweep("ntk", [0, 10], [0])
    with pytest.raises(ValueError, match="seeds"):
        width_sweep("ntk", [10], [])
    with pytest.raises(ValueError, match="seeds"):
        width_sweep("ntk", [10], [-1])
    with pytest.raises(ValueError, match="max_elements"):
        width_sweep("ntk", [10], [0], max_elements=0)


def test_width_sweep_is_deterministic_and_independent_of_batching():
    a = width_sweep("kaiming_fan_in", [50, 200], range(40))
    importlib.import_module("numerics.phase")._MEASURED.clear()  # measure again, in other batches
    b = width_sweep(PARAMETRIZATIONS["kaiming_fan_in"], [50, 200], range(40), max_elements=300)
    assert a.widths == (50, 200) and a.seeds == 40 and a.parametrization == "Kaiming fan-in"
    for q in QUANTITIES:
        np.testing.assert_allclose(a.medians[q], b.medians[q], rtol=1e-12)


@pytest.mark.parametrize(("key", "limit"), [("mean_field", math.sqrt(2) - 1), ("xavier", math.sqrt(5) / 2 - 1)])
def test_theta_one_ntk_change_on_the_boundary(key, limit):
    """Spec §4.3 at a = b = 1: ΔK/K → √2 − 1 (mean-field, B = 1) and √5/2 − 1 (Xavier, B = 1/2)."""
    sweep = width_sweep(key, [4000], range(200))
    assert sweep.medians[DK][0] == pytest.approx(limit, abs=0.01)


def _check_exponents(key, widths, seeds):
    fitted = width_sweep(key, widths, seeds).exponents()
    misses = {q: (fitted[q], e) for q, e in TABLE[key][2].items() if abs(fitted[q] - e) > TOL}
    assert misses == {}, misses


@pytest.mark.parametrize("key", ["ntk", "mean_field", "small_init"])
def test_width_exponents_at_modest_widths(key):
    _check_exponents(key, (100, 400, 1600, 6400), range(1000))


@pytest.mark.slow
@pytest.mark.parametrize("key", list(TABLE))
def test_width_exponents_full_table(key):
    _check_exponents(key, (100, 400, 1600, 6400, 25600), range(1000))


def test_initializations_are_the_per_seed_draws_whichever_row_drew_them_first():
    """numerics.phase keeps each (seed, width)'s standard draw for the next row: the values must be those of
    default_rng((seed, d)) scaled by the row's own σ, for every row and in any order of calls."""
    from numerics.phase import initializations

    seeds, d = [3, 1, 3, 7], 17
    z = np.stack([np.random.default_rng((s, d)).standard_normal((2, d)) for s in seeds])
    for key in ("kaiming_fan_in", "small_init", "kaiming_fan_in"):
        p = PARAMETRIZATIONS[key]
        u0, w0 = initializations(p, d, seeds)
        assert np.array_equal(u0, z[:, 0] * math.sqrt(p.var_u(d)))
        assert np.array_equal(w0, z[:, 1] * math.sqrt(p.var_w(d)))
    # another width is another draw, not the cached one of width 17
    other = initializations(PARAMETRIZATIONS["ntk"], d + 1, seeds)[0]
    assert np.array_equal(
        other, np.stack([np.random.default_rng((s, d + 1)).standard_normal((2, d + 1))[0] for s in seeds])
    )


def test_ntk_change_is_measured_against_the_trajectory_at_t_zero():
    """dK/K of draw_changes is |K_∞/K_0 − 1| with K_0 the model's NTK at the initial state, as numerics.trajectory
    gives it at t = 0 (gradient descent for 0 steps) and K_∞ its closed form at t_∞ (one batch: one t_∞)."""
    from numerics import trajectory
    from numerics.phase import initializations

    p, d, seeds = PARAMETRIZATIONS["kaiming_fan_in"], 30, range(5)
    u0, w0 = initializations(p, d, seeds)
    params = {"gamma": p.gamma(d), "eta_u": 1.0, "eta_w": 1.0, "a": 1.0, "b": 1.0}
    t_inf = 100.0 / np.min(p.gamma(d) ** 2 * np.sqrt(np.sum((u0 + w0) ** 2, 1) * np.sum((u0 - w0) ** 2, 1)))
    end = trajectory("layerwise_lr_linear", [t_inf], params, {"u": u0, "w": w0}, refine=False)["ntk"][0]
    start = trajectory("layerwise_lr_linear", [0.0], params, {"u": u0, "w": w0}, method="gd", lr=1.0)["ntk"][0]
    measured = draw_changes("kaiming_fan_in", d, seeds)[0]
    np.testing.assert_allclose(measured, np.abs(end / start - 1), rtol=1e-12)
