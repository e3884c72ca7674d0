"""A three-layer scalar chain f(x) = a b c x and five claims about its gradient flow:
``python -m proofs_check examples/your_own_paper.py --json out.json --latex out.tex``."""

import numpy as np
import sympy as sp

from derivations.model import Model, Quantity
from proofs_check import Measurement, Paper

a, b, c, S, theta = sp.symbols("a b c S theta", real=True)
chain = Model(
    name="chain3", title="Three-layer scalar chain", reference="Smith 2026, §2",
    state_names=("a", "b", "c"), unit_param_names=(), shared_param_names=("S",),
    network=lambda s, x: sum(ai * bi * ci for ai, bi, ci in zip(s["a"], s["b"], s["c"], strict=True)) * x[0],
    target=lambda s, x: s["S"] * x[0], moment=lambda s, i, j: sp.S.One, input_dim=lambda p: 1,
    quantities={"theta": Quantity("sum", a * b * c, "output coefficient")},
)  # fmt: skip
paper = Paper("smith2026", "Deep scalar chains", ("A. Smith",), "arXiv", 2026, models=(chain,))
d_dt = chain.unit_time_derivative
a_dot = paper.symbol("a_dot", r"\dot a_i", lambda: chain.unit_field[a])
balance_dot = paper.symbol("C_dot", r"\tfrac{d}{dt}(a_i^2 - b_i^2)", lambda: d_dt(a**2 - b**2))
norm_dot = paper.symbol("N_dot", r"\tfrac{d}{dt}(a_i^2 + b_i^2)", lambda: d_dt(a**2 + b**2))
loss_dot = paper.symbol("L_dot", r"\dot{\mathcal L}", lambda: d_dt((S - theta) ** 2 / 2).subs(theta, a * b * c))


def final_gap() -> Measurement:
    from numerics import trajectory

    run = trajectory(chain, [0.0, 60.0], {"S": 2.0}, {k: np.array([0.5]) for k in "abc"}, method="scipy")
    return Measurement(abs(float(run["theta"][-1]) - 2.0), "DOP853 on the derived flow", "T = 60")


paper.claim("balance", sp.Eq(balance_dot, 0), where="§2, Lemma 1")  # proved
paper.claim("descent", loss_dot <= 0, where="§2, Lemma 2")  # proved by z3
paper.claim("norm", sp.Eq(norm_dot, 0), where="§2, Remark 1")  # false: refuted with a counterexample
paper.claim("flow", sp.Eq(a_dot, b * c * (theta - S)), where="§2", eq="3", corrected=sp.Eq(a_dot, b * c * (S - theta)))
paper.experiment("converges", final_gap, quantity=paper.symbol("gap", r"\lvert\theta(T) - S\rvert", nonnegative=True),
                 tolerance=1e-6, where="§3, Fig. 1")  # fmt: skip
