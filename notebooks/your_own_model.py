# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Your own model, your own claims
#
# A theorist writing a paper on a new layerwise-linear model states its equations and inequalities; the package
# proves each, refutes it with a counterexample, or flags it as an erratum, and writes the LaTeX.
#
# The model here is not one of the package's: a three-layer scalar chain $f(x) = \sum_i a_i b_i c_i\, x$ with
# target $Sx$ and $\mathbb E x^2 = 1$. Its gradient flow is derived from the loss $\tfrac12(S - \theta)^2$,
# $\theta = \sum_i a_i b_i c_i$; nothing below types the flow by hand.

# %%
import numpy as np
import sympy as sp

from derivations.model import Model, Quantity
from derivations.rendering import render_model
from numerics import trajectory
from proofs_check import Measurement, Paper, format_table, run_claims

a, b, c, S, theta = sp.symbols("a b c S theta", real=True)
chain = Model(
    name="chain3",
    title="Three-layer scalar chain",
    reference="Smith 2026, §2",
    state_names=("a", "b", "c"),
    unit_param_names=(),
    shared_param_names=("S",),
    network=lambda s, x: sum(ai * bi * ci for ai, bi, ci in zip(s["a"], s["b"], s["c"], strict=True)) * x[0],
    target=lambda s, x: s["S"] * x[0],
    moment=lambda s, i, j: sp.S.One,
    input_dim=lambda p: 1,
    quantities={"theta": Quantity("sum", a * b * c, "output coefficient, f(x) = theta x")},
)
print(chain.unit_field)

# %% [markdown]
# ## The paper and its notation
#
# A `Paper` holds the metadata, the models it studies and its notation: each symbol a statement uses is a
# model's symbol or declared with its LaTeX and, if it stands for something, its definition (here: time
# derivatives along the derived flow). Definitions are functions, called only when a check needs them.

# %%
paper = Paper("smith2026", "Deep scalar chains", ("A. Smith",), "arXiv", 2026, models=(chain,))
d_dt = chain.unit_time_derivative
a_dot = paper.symbol("a_dot", r"\dot a_i", lambda: chain.unit_field[a])
balance_dot = paper.symbol("C_dot", r"\tfrac{d}{dt}(a_i^2 - b_i^2)", lambda: d_dt(a**2 - b**2))
norm_dot = paper.symbol("N_dot", r"\tfrac{d}{dt}(a_i^2 + b_i^2)", lambda: d_dt(a**2 + b**2))
loss_dot = paper.symbol("L_dot", r"\dot{\mathcal L}", lambda: d_dt((S - theta) ** 2 / 2).subs(theta, a * b * c))
gap = paper.symbol("gap", r"\lvert\theta(T) - S\rvert", nonnegative=True)

# %% [markdown]
# ## Five claims
#
# 1. an exact identity (an `Eq`: proved by simplification to zero, or refuted by a sampled counterexample),
# 2. an inequality (any other relation: decided by z3 over the reals),
# 3. a deliberately false claim, which must come out refuted with a counterexample,
# 4. an erratum: the printed sign is wrong, `corrected=` gives the right one; the printed form must be refuted and
#    the corrected one proved,
# 5. a numeric experiment: a measurement compared with its tolerance.

# %%
paper.claim("balance", sp.Eq(balance_dot, 0), where="§2, Lemma 1")
paper.claim("descent", loss_dot <= 0, where="§2, Lemma 2")
paper.claim("norm", sp.Eq(norm_dot, 0), where="§2, Remark 1")
paper.claim(
    "flow",
    sp.Eq(a_dot, b * c * (theta - S)),
    where="§2",
    eq="3",
    corrected=sp.Eq(a_dot, b * c * (S - theta)),
)


def final_gap() -> Measurement:
    """Integrate the derived flow (DOP853) from a = b = c = 0.5 with S = 2 and measure |theta(60) - S|."""
    start = {name: np.array([0.5]) for name in "abc"}
    run = trajectory(chain, [0.0, 60.0], {"S": 2.0}, start, method="scipy")
    return Measurement(abs(float(run["theta"][-1]) - 2.0), "DOP853 on the derived flow", "T = 60")


paper.experiment("converges", final_gap, quantity=gap, tolerance=1e-6, where="§3, Fig. 1")

# %% [markdown]
# ## Check them
#
# `run_claims` returns one record per claim: status, method, and for a refutation the counterexample.
# (`python -m proofs_check this_file.py --json out.json --latex out.tex` does the same from the command line,
# for a file that defines the model and the paper as above.)

# %%
records = run_claims(paper.claims())
print(format_table(records))
statuses = {r.claim.id: r.outcome.status.value for r in records}
assert statuses == {
    "smith2026.balance": "proved",
    "smith2026.descent": "proved",
    "smith2026.norm": "refuted",
    "smith2026.flow": "erratum",
    "smith2026.converges": "numerically-supported",
}
print(records[2].outcome.counterexample)

# %% [markdown]
# ## The LaTeX
#
# Every formula is printed from the statement, through the paper's notation; the model's derived flow and
# conserved quantities come from `render_model`.

# %%
for record in records:
    print(record.claim.latex, end="\n\n")
print(render_model(chain)[:600])
