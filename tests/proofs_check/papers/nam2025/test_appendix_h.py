"""Nam et al. 2025, App. H: every printed formula is checked against the step ``derivations.solve`` derived for the
model. For the paper's model all are proved; for variants of it (other input moments, another target) the
derivation changes and the printed formulas that depend on the dynamics are refuted with a counterexample, while
the kinematic ones (the state and the output as functions of the clock), true for any rate, stay proved."""

from __future__ import annotations

import dataclasses

import mpmath
import numpy as np
import pytest
import sympy as sp

from derivations import models
from numerics import trajectory
from proofs_check.papers.nam2025.claims_appH import appendix_h_checks

SCALAR = models.get("two_layer_scalar")
KINEMATIC = {"72–73", "82–85"}

VARIANTS = {
    "E x^2 = 3": (dataclasses.replace(SCALAR, moment=lambda s, i, j: sp.Integer(3)), KINEMATIC | {"76", "96"}),
    "target 2 S x": (dataclasses.replace(SCALAR, target=lambda s, x: 2 * s["S"] * x[0]), KINEMATIC),
}


def test_every_printed_formula_is_the_derived_step() -> None:
    outcomes = {tag: check() for tag, (_, check) in appendix_h_checks(SCALAR).items()}
    assert len(outcomes) == 13
    assert all(o.status.value == "proved" for o in outcomes.values()), outcomes


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_variant_is_solved_and_refutes_the_printed_dynamics(variant) -> None:
    model, still_true = VARIANTS[variant]
    outcomes = {tag: check() for tag, (_, check) in appendix_h_checks(model).items()}
    refuted = {tag for tag, o in outcomes.items() if o.status.value == "refuted"}
    proved = {tag for tag, o in outcomes.items() if o.status.value == "proved"}
    assert proved == still_true, outcomes
    assert refuted == set(outcomes) - still_true
    assert all(outcomes[tag].counterexample for tag in refuted), "each refutation carries a counterexample"
    # and the variant's own closed form is right: 30 digits against the integrated flow
    params, init = {"S": 1.3, "Z": 0.8}, {"a": np.array([0.2, -0.4, 0.1]), "b": np.array([0.3, 0.5, -0.2])}
    closed = trajectory(model, [0.0, 0.7, 2.5], params, init, dps=30)
    flow = trajectory(model, [0.0, 0.7, 2.5], params, init, method="mpmath", dps=30)
    with mpmath.workdps(30):
        for name in ("a", "b"):
            assert max(abs(x - y) for x, y in zip(closed[name].ravel(), flow[name].ravel(), strict=True)) < 1e-26
