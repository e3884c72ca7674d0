"""The control paper: known-false (or undecidable) statements about the whitened two-layer mode
(``deep_linear_whitened``: ȧ = b(S − ab), ḃ = a(S − ab)), one per decision route of the checker.

Written with the public API only, as a user's paper would be; what each must come out as is
:data:`EXPECTED`. A checker that proves them is broken (:mod:`proofs_check.control`).
"""

from __future__ import annotations

import sympy as sp

from derivations import models
from proofs_check.control.expectation import Expectation
from proofs_check.outcome import COUNTEREXAMPLE, NUMERIC_EXPERIMENT, SYMPY_EQ, Z3, Status
from proofs_check.paper import Measurement, Paper

__all__ = ["EXPECTED", "PAPER"]

MODE = "deep_linear_whitened"
PAPER = Paper(
    "control",
    "Self-test of the checker: known-false statements",
    ("layerwise-linear-flows",),
    "proofs_check.control",
    2026,
    models=(MODE,),
)
_model = models.get(MODE)
a, b, S = (_model.symbol(n) for n in ("a", "b", "S"))
a_dot = PAPER.symbol("a_dot", r"\dot a_i", lambda: _model.unit_field[a], real=True)
loss_dot = PAPER.symbol(
    "L_dot", r"\dot{\mathcal L}_i", lambda: _model.unit_time_derivative((S - a * b) ** 2 / 2), real=True
)
response = sp.Function("g", real=True)
"""A function the statements do not define: a statement about it is undecidable."""

PAPER.claim("eq.flow_sign", sp.Eq(a_dot, -b * (S - a * b)), where="known false: flipped sign of the derived flow")
PAPER.claim("z3.loss_increases", loss_dot >= 0, where="known false: the loss never decreases along the flow")
PAPER.claim(
    "boolean.connectives",
    # false where a b <= S; true if the Not were dropped or the outer And read as Or, so each connective matters
    sp.And(loss_dot <= 0, sp.Or(sp.Not(sp.And(a * b <= S, loss_dot <= 0)), a * b > S)),
    where="known false: And / Or / Not of relations",
)
PAPER.claim(
    "erratum.corrected_false",
    sp.Eq(a_dot, -b * (S - a * b)),
    corrected=sp.Eq(a_dot, 2 * b * (S - a * b)),
    where="known false: a misprint whose correction is wrong too",
)
PAPER.claim(
    "undecided.unknown_function",
    sp.Eq(response(a * b), response(S)),
    where="undecidable: an identity in a function nothing defines",
)


def _settled_mode() -> Measurement:
    """a(T) at T = 20 of the float64 closed form from a = b = 0.5, S = 2 (it settles to √S, not S)."""
    import numpy as np

    from numerics import trajectory

    run = trajectory(MODE, [0.0, 20.0], {"S": np.array([2.0])}, {"a": np.array([0.5]), "b": np.array([0.5])})
    return Measurement(float(run["a"][-1][0]), "float64 closed form", "a = b = 0.5, S = 2, T = 20")


PAPER.experiment(
    "experiment.settles_to_S",
    _settled_mode,
    quantity=PAPER.symbol("a_T", "a_i(T)", real=True),
    expected=2.0,
    tolerance=1e-6,
    where="known false: a settles to S (it settles to the square root of S)",
)

EXPECTED: dict[str, Expectation] = {
    "control.eq.flow_sign": Expectation(
        Status.REFUTED, (SYMPY_EQ, COUNTEREXAMPLE), "the exact Eq route proves a false identity"
    ),
    "control.z3.loss_increases": Expectation(Status.REFUTED, (Z3,), "the z3 route proves a false inequality"),
    "control.boolean.connectives": Expectation(
        Status.REFUTED, (Z3,), "the Boolean combinations (And / Or / Not) are translated wrong"
    ),
    "control.erratum.corrected_false": Expectation(
        Status.ERROR,
        (SYMPY_EQ,),
        "an erratum is confirmed although its corrected form is false",
        detail="corrected form not verified",
    ),
    "control.undecided.unknown_function": Expectation(
        Status.ERROR, (SYMPY_EQ, COUNTEREXAMPLE), "an undecidable statement is given a verdict", detail="undecided"
    ),
    "control.experiment.settles_to_S": Expectation(
        Status.REFUTED, (NUMERIC_EXPERIMENT,), "an experiment outside its tolerance is accepted"
    ),
}
"""What each control must come out as."""
