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
from numerics.alternating import agreement, sign_changes
from numerics.alternating.network_flow import two_layer_gradient_flow
from numerics.alternating.two_layer import Network
from proofs_check.papers.kunin2025.modular_harmonics import single_neuron_fraction
from proofs_check.papers.kunin2025.modular_network import cyclic_neurons, frequency_order, modular_data, plateau_levels
from proofs_check.papers.kunin2025.quadratic_problems import mirrored_problem, teacher_problem
from proofs_check.papers.kunin2025.reference_problems import dln_problem_a, dln_problem_b, modular_template
from proofs_check.papers.kunin2025.settings import dln_gradient_flow, pesme_flammarion

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
    ax.semilogy(t, dln_gradient_flow(X, y, alpha, 22.0).loss(t), label=rf"GF, $\alpha = {alpha:.0e}$")
ax.semilogy(t, result.loss_curve(t), "k--", label="AGF staircase")
ax.set_ylim(result.loss_levels[-1] / 10, 2 * result.loss_levels[0])  # down to the last level, the float64 zero
ax.set_xlabel(r"$t/\log(1/\alpha)$")
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

# %% [markdown]
# ## κ = 3: quadratic activations
#
# With $\sigma(z) = z^2$ a neuron is 3-homogeneous: its norm obeys $\tfrac{d}{dt}\|\theta\| = 3\eta\|\theta\|^2
# \mathcal U(\bar\theta)$ (claim `kunin2025.utility.norm`, proved), so it blows up in finite time and the natural
# clock is $t\alpha$. A teacher $y = \sum_k s_kx_k^2$, $s = (3, 1, 0.3)$, three students
# (`proofs_check.papers.kunin2025.quadratic_problems.teacher_problem`): AGF's staircase against gradient flow of the
# network
# itself at two scales $\alpha$. The loss spans decades, so the axis is logarithmic.

# %%
fig, ax = plt.subplots(figsize=(8, 4), constrained_layout=True)
for alpha in (1e-2, 1e-3):
    X, Y, a0, w0 = teacher_problem(alpha)
    staircase = agf(X, Y, a0, w0, alpha, activation="quadratic")
    flow = two_layer_gradient_flow(X, Y, a0, w0, alpha, 9.0)
    t = np.linspace(0, 9, 600)
    ax.semilogy(t, flow.loss(t), label=rf"GF, $\alpha = {alpha:.0e}$")
    measured = agreement(flow.path, staircase.jump_times, staircase.loss_levels, alpha).jump_times
    print(
        f"alpha = {alpha:.0e}: AGF jumps {np.round(staircase.jump_times, 5)}, GF {np.round(measured, 5)}, "
        f"(GF - AGF)/alpha = {np.round((measured - staircase.jump_times) / alpha, 3)}"
    )
ax.semilogy(t, staircase.loss_curve(t), "k--", label="AGF staircase")
ax.set(xlabel=r"$t\alpha$", ylabel="loss", title="quadratic network (κ = 3): gradient flow against AGF")
ax.legend()
plt.show()

# %% [markdown]
# **Simultaneous activation.** On data closed under $x_1 \leftrightarrow x_2$, two students that are mirror images
# of each other stay mirror images under gradient flow and cross their threshold at the same instant; AGF's rule
# lets several neurons activate in one jump. Below, the students' norms in GF (log scale) and AGF's jump times.

# %%
alpha = 1e-3
X, Y, a0, w0 = mirrored_problem(alpha)
staircase = agf(X, Y, a0, w0, alpha, activation="quadratic")
flow = two_layer_gradient_flow(X, Y, a0, w0, alpha, 1.6)
t = np.linspace(0, 1.6, 400)
fig, ax = plt.subplots(figsize=(8, 3.5), constrained_layout=True)
for i, style in enumerate(("-", "--", "-")):
    ax.semilogy(t, flow.norms(t)[:, i], style, label=f"student {i}")
for jump in staircase.jumps[1:]:
    ax.axvline(jump.time, color="k", lw=0.8)
    print(f"AGF jump at {jump.time:.5f} activates {jump.activated}")
ax.set(xlabel=r"$t\alpha$", ylabel="norm of the student", title="two mirror-image students activate together")
ax.legend()
plt.show()

# %% [markdown]
# **Modular addition (Theorem 5.2).** Within one frequency's span the loss is bounded below by the loss with that
# frequency fully fit; the bound is reached only when eight unwanted harmonics cancel. One neuron captures at most
# 1/9 of the frequency's energy; six suitably phased neurons capture all of it (claims `kunin2025.modular.*`, proved
# by harmonic analysis in `proofs_check.papers.kunin2025.modular_harmonics`). The plateau levels $\ell_K$ (log scale)
# for the $p = 13$
# template, and the loss of the real network with six such neurons per learned frequency.

# %%
print("captured fraction of one neuron, |U|² = u2, |V|² = v2:", single_neuron_fraction())
x = modular_template()
levels, order = plateau_levels(x), frequency_order(x)
X, Y = modular_data(x)
outputs, hidden, losses = [], [], [levels[0]]
for k in order:
    out, hid = cyclic_neurons(x, int(k))
    outputs.append(out)
    hidden.append(hid)
    W = np.vstack(hidden)
    losses.append(Network(X, Y, "quadratic", np.ones(W.shape, dtype=bool)).loss(np.vstack(outputs), W))
K = np.arange(len(levels) - 1)
fig, ax = plt.subplots(figsize=(6, 3.5), constrained_layout=True)
ax.semilogy(K, levels[:-1], "o-", label=r"$\ell_K$")
ax.semilogy(K, losses[:-1], "x", ms=10, label="network, 6 neurons per learned frequency")
ax.set(xlabel="K (frequencies learned)", ylabel="loss", title="plateau levels, modular addition (p = 13)")
ax.legend()
plt.show()
print("last level (all frequencies learned):", losses[-1])

# %% [markdown]
# ## Algorithm 1 halts when every dormant neuron has zero utility gradient
#
# A diagonal network on data whose features 2 and 3 are identically 0 (dead) and whose target has a part no live
# feature explains (`proofs_check.papers.kunin2025.claims_halting.halting_problem`). AGF activates the two live
# neurons and halts, although the loss is not 0: no dormant neuron can reach its threshold (claim
# `kunin2025.algorithm1.halting`). Below: the staircase and, at each AGF state, the largest dormant utility gradient.

# %%
from proofs_check.papers.kunin2025 import claims_halting as halting  # noqa: E402

X, y = halting.halting_problem()
result = halting.halting_run()
print("halted:", result.halted)
print("active sets:", result.active_sets, "loss levels:", np.round(result.loss_levels, 5))
gradients = []
for jump in result.jumps:
    beta = np.asarray(jump.a)[:, 0] * np.diag(np.asarray(jump.w))
    moments = X.T @ (y - X @ beta) / len(X)
    gradients.append(float(np.max(np.abs(np.delete(moments, list(jump.active))), initial=0.0)))
fig, ax = plt.subplots(figsize=(6.5, 3.5), constrained_layout=True)
ax.semilogy(range(len(gradients)), np.maximum(gradients, 1e-18), "o-")
ax.set(xlabel="AGF state (jump)", ylabel="largest dormant utility gradient", title="Halting on dead features")
plt.show()
assert gradients[-1] == 0.0 and min(gradients[:-1]) > 0

# %% [markdown]
# ## A dormant κ = 3 neuron turns within its utility phase
#
# Gradient flow of the κ = 3 teacher network: the utility $U(\bar\theta)/U^*$ of the neuron that activates first,
# against rescaled time up to its activation $\tau_1$, at three $\alpha$. It climbs gradually (no instant
# alignment, unlike κ = 2) and the curves coincide as $\alpha \to 0$ (claim
# `kunin2025.utility.kappa3_slow_alignment`); this is why the paper's κ = 3 jump times (eqs 7, 9) are lower bounds.

# %%
from proofs_check.papers.kunin2025 import claims_alignment as kappa3  # noqa: E402
from proofs_check.papers.kunin2025.quadratic_problems import quadratic_maximal_utility  # noqa: E402

X, Y = teacher_problem(kappa3.ALPHAS[0])[:2]
M, best = kappa3.utility_matrix(X, Y), quadratic_maximal_utility(X, Y)
grid = np.linspace(0.0, kappa3.T_END, 3001)
fig, ax = plt.subplots(figsize=(6.5, 3.8), constrained_layout=True)
for alpha in kappa3.ALPHAS:
    flow = kappa3.teacher_flow(alpha)
    norms = flow.norms(grid)
    first = int(np.flatnonzero(norms.max(axis=1) >= kappa3.ACTIVE_NORM)[0])
    neuron = int(np.argmax(norms[first]))
    times = np.linspace(0.0, grid[first], 60)
    a, w = flow.weights(times)
    theta = np.concatenate([a[:, neuron], w[:, neuron]], axis=1)
    bar = theta / np.linalg.norm(theta, axis=1, keepdims=True)
    utility = np.array([b[0] * b[1:] @ M @ b[1:] for b in bar]) / best
    ax.plot(times / grid[first], utility, label=rf"$\alpha = {alpha:g}$")
ax.set(xlabel=r"$\tilde t/\tau_1$", ylabel=r"$U(\bar\theta)/U^*$", title="Utility of the first neuron to activate")
ax.legend(fontsize=8)
plt.show()
