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
# # Alternating gradient flows (Kunin et al. 2025)
#
# From a vanishing initialization, gradient flow (GF) on a two-layer network alternates between
# - **utility maximization**: dormant neurons, near the origin, align with the residual and accumulate utility
#   $\mathcal S_i$ until one reaches its threshold $c_i$;
# - **cost minimization**: the active neurons descend the loss to a critical point, instantly in rescaled time.
#
# `numerics.agf` implements Algorithm 1 with the authors' clarified rules (spec `agf-kunin2025.md` §3). Below:
# reference test A of the spec (a diagonal linear network, where AGF is the Pesme–Flammarion algorithm) against
# the exact GF at several $\alpha$, in rescaled time $t/\log(1/\alpha)$; then test B, where a neuron collapses
# back to dormancy and later re-activates with the opposite sign.

# %%
import matplotlib.pyplot as plt
import numpy as np

from numerics import agf
from numerics.alternating import dln_gradient_flow, pesme_flammarion, sign_changes
from numerics.alternating.reference_problems import dln_problem_a, dln_problem_b

X, y = dln_problem_a()
d = X.shape[1]
result = agf(X, y, np.full(d, np.sqrt(2) * 1e-16), np.zeros((d, d)), 1e-16, support=np.eye(d, dtype=bool))
print("AGF jump times:", np.round(result.jump_times, 4))
print("PF jump times: ", np.round([s.time for s in pesme_flammarion(X, y)[1:]], 4))
print("active sets:   ", result.active_sets)

# %%
t = np.linspace(0, 22, 2000)
fig, ax = plt.subplots(figsize=(8, 4), constrained_layout=True)
for alpha in (1e-4, 1e-8, 1e-16, 1e-32):
    ax.semilogy(t, dln_gradient_flow(X, y, alpha, 22.0).loss(t), label=f"GF, alpha = {alpha:.0e}")
ax.semilogy(t, result.loss_curve(t), "k--", label="AGF staircase")
ax.set_ylim(result.loss_levels[-1] / 10, 2 * result.loss_levels[0])  # down to the last level, the float64 zero
ax.set_xlabel("t / log(1/α)")
ax.set_ylabel("loss (log scale)")
ax.set_title("Diagonal network: GF against the AGF staircase (figures beside the paper's: kunin2025.py)")
ax.legend()
plt.show()

# %% [markdown]
# The GF jumps are late by $O(1/\log(1/\alpha))$: halving the error needs squaring $\alpha$.
#
# **Re-dormancy (test B).** $\beta_1$ activates positive, collapses at the second jump (its utility turns
# negative), returns to dormancy with $\mathcal S_1 = c_1$, and re-activates negative. Its accumulated utility
# crosses zero halfway between the second and third jumps, where GF flips the sign of $\beta_1$.

# %%
X, y = dln_problem_b()
result = agf(X, y, np.full(2, np.sqrt(2) * 1e-16), np.zeros((2, 2)), 1e-16, support=np.eye(2, dtype=bool))
for jump in result.jumps[1:]:
    beta = jump.a[:, 0] * jump.w.sum(axis=1)
    print(f"t = {jump.time:.4f}: active {jump.active}, collapsed {jump.collapsed}, beta = {np.round(beta, 4)}")
t2, t3 = result.jump_times[1:]
flips = [sign_changes(dln_gradient_flow(X, y, a, 6.0), 0)[0] for a in (1e-4, 1e-8, 1e-16, 1e-32)]
print(f"midpoint (t2 + t3)/2 = {(t2 + t3) / 2:.4f}; GF sign flips: {np.round(flips, 4)}")
