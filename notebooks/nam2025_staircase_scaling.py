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
# # Staircase, scaling laws, depth, laziness (Nam et al. 2025, §4.2, §4.4, §5.2, §6, §7.1, App. F.3)
#
# The figures behind the claims `nam2025.staircase.*`, `scaling.*`, `sec5_2.depth.*`, `fig6b.ratio_lazy`,
# `funnel.lazy_rich` and `sec7.downscaling.*`, each computed by the package beside what the paper reports. Where
# the paper reports a trend and not numbers (Fig. 6(b), Fig. 10), the trend is stated under the figure.

# %%
import math

import matplotlib.pyplot as plt
import numpy as np
import sympy as sp

from numerics import trajectory
from proofs_check.papers.nam2025 import claims_downscaling as down
from proofs_check.papers.nam2025 import claims_funnel, claims_lazy_ratio
from proofs_check.papers.nam2025 import claims_scaling as scaling
from proofs_check.papers.nam2025 import claims_sec5_2 as depth
from proofs_check.papers.nam2025 import claims_staircase as stair
from proofs_check.papers.nam2025.funnel import funnel_run
from proofs_check.papers.nam2025.lazy_ratio import ratio_sweep

# %% [markdown]
# ## §4.2: the loss staircase
#
# Diagonal network, four modes $(S_i, \lambda_i)$ from $a_i(0) = b_i(0) = 10^{-12}$, integrated by DOP853. In
# $\tau = t/\ln(1/w_0)$ mode $i$ is learned at $\tau_i = 1/(2S_i\lambda_i)$ and the loss sits at the paper's levels
# $\tfrac12\sum_{j>k}\lambda_jS_j^2$ (dotted) between thresholds.

# %%
targets, rates = (np.array(c) for c in zip(*stair.MODES, strict=True))
small = stair.SMALL
tau = np.linspace(0.0, 0.8, 800)
start = np.full(len(targets), math.sqrt(small))
run = trajectory(
    "diagonal_linear_network",
    tau * math.log(1 / small),
    {"S": targets, "lam": rates},
    {"a": start, "b": start},
    "scipy",
)
order = np.argsort(-targets * rates)
levels = [0.5 * float(np.sum(rates[order[k:]] * targets[order[k:]] ** 2)) for k in range(len(targets) + 1)]
fig, ax = plt.subplots(figsize=(7, 3.8), constrained_layout=True)
ax.plot(tau, run["loss"], "k-", label="exact flow (DOP853)")
for level in levels:
    ax.axhline(level, color="C1", ls=":", lw=1)
for s, r in stair.MODES:
    ax.axvline(1 / (2 * s * r), color="C0", ls="--", lw=0.8)
ax.set(
    xlabel=r"$\tau = t/\ln(1/w_0)$", ylabel=r"loss $\mathcal{L}$", title="Loss staircase: levels (dotted), thresholds"
)
ax.legend(fontsize=8)
plt.show()
print("paper's levels:", [round(v, 4) for v in levels])

# %% [markdown]
# ## §4.4: scaling laws in time, data and parameters
#
# The exact sum over $2\cdot10^5$ skills with $P_s(k) \propto k^{-(\alpha+1)}$ (the unlearned tail by the Hurwitz
# $\zeta$), against the paper's exponents $-\alpha/(\alpha+1)$ (time, data) and $-\alpha$ (parameters), drawn as
# dashed lines through the last point.

# %%
alpha = scaling.alpha
fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), constrained_layout=True)
grids = {"time": np.logspace(2, 5, 13), "data": np.logspace(2, 5, 13), "parameters": np.logspace(1, 4, 13)}
for ax, (resource, xs) in zip(axes, grids.items(), strict=True):
    for k, av in enumerate(scaling.ALPHAS):
        losses = np.array(scaling.summed_loss(resource, av, tuple(float(x) for x in xs)))
        slope = float(scaling.PAPER_EXPONENTS[resource].xreplace({alpha: sp.Float(av)}))
        ax.loglog(xs, losses, "o", ms=3, color=f"C{k}", label=rf"$\alpha = {av:g}$")
        ax.loglog(xs, losses[-1] * (xs / xs[-1]) ** slope, "--", color=f"C{k}", lw=1, label=f"paper: slope {slope:.3g}")
    ax.set(xlabel={"time": "$t$", "data": "$n$", "parameters": "$p$"}[resource], ylabel=r"loss $\mathcal{L}$")
    ax.set_title(f"{resource}")
axes[0].legend(fontsize=7)
plt.show()

# %% [markdown]
# ## §5.2: depth sharpens the sigmoid
#
# The balanced chain of depth $L$ from $\theta(0) = w_0 = 10^{-4}$ ($\lambda = 1$, $S = 1$): time as a function of
# $\theta$ by quadrature, plotted against $t/t_{1/2}$. Deeper chains jump more sharply (claim `sec5_2.depth.numeric`:
# $\Delta t/t_{1/2}$ falls with $L$; the paper states the trend).

# %%
fig, ax = plt.subplots(figsize=(6.5, 3.8), constrained_layout=True)
levels_theta = np.linspace(2 * depth.W0, 0.98, 60)
relative = []
for k, L in enumerate(depth.DEPTHS):
    t = np.array([depth.time_between(L, 1.0, depth.W0, th) for th in levels_theta])
    half = depth.time_between(L, 1.0, depth.W0, 0.5)
    relative.append(depth.time_between(L, 1.0, 0.25, 0.75) / half)
    ax.plot(t / half, levels_theta, color=f"C{k}", label=f"$L = {L}$")
ax.set(xlim=(0.0, 2.0), xlabel=r"$t/t_{1/2}$", ylabel=r"$\theta(t)/S$", title="Balanced deep chains")
ax.legend(fontsize=8)
plt.show()
print("Δt/t_1/2 by depth:", dict(zip(depth.DEPTHS, np.round(relative, 4), strict=True)))
assert np.all(np.diff(relative) < 0)

# %% [markdown]
# ## §6, Fig. 6(b): a larger weight-to-target ratio makes the network lazy
#
# Gradient descent on the symmetrised matrix network ($d = p = 20$, $c = 2$, the authors' setting, scaled down to
# 3 λ × 6 target scales). The paper's Fig. 6(b) shows the kernel distance and the weight change falling as the ratio
# grows, at every λ; the package's sweep:

# %%
sweep = ratio_sweep(claims_lazy_ratio.LAMBDAS, claims_lazy_ratio.SCALES)
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), constrained_layout=True)
for i, lam in enumerate(claims_lazy_ratio.LAMBDAS):
    axes[0].loglog(sweep.ratio[i], sweep.kernel[i], "o-", color=f"C{i}", label=rf"$\lambda = {lam:g}$")
    axes[1].loglog(sweep.ratio[i], sweep.weight_change[i], "o-", color=f"C{i}", label=rf"$\lambda = {lam:g}$")
axes[0].set(xlabel="weight-to-target ratio", ylabel="kernel distance", title="Kernel distance")
axes[1].set(xlabel="weight-to-target ratio", ylabel="relative weight change", title="Weight change")
axes[0].legend(fontsize=8)
plt.show()
assert np.all(np.diff(sweep.kernel, axis=1) < 0) and np.all(np.diff(sweep.weight_change, axis=1) < 0)

# %% [markdown]
# ## App. F.3, Fig. 10: funnel and anti-funnel networks
#
# λ-balanced starts of a funnel $(4, 2, 2)$ and an anti-funnel $(2, 2, 4)$ network: lazy (small kernel distance,
# fast fit) at one λ limit, rich with a delayed fit at the other (derived in `nam2025.funnel`; the paper shows the
# trend).

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), constrained_layout=True)
for k, architecture in enumerate(("funnel", "anti-funnel")):
    result = funnel_run(architecture, claims_funnel.LAMBDAS, time=claims_funnel.TIME)
    axes[0].semilogy(claims_funnel.LAMBDAS, result.kernel, "o-", color=f"C{k}", label=architecture)
    axes[1].plot(claims_funnel.LAMBDAS, result.fit_time, "o-", color=f"C{k}", label=architecture)
axes[0].set(xlabel=r"$\lambda$", ylabel="final kernel distance", title="Laziness")
axes[1].set(xlabel=r"$\lambda$", ylabel=r"time to $\mathcal{L} < 10^{-2}$", title="Delay")
axes[0].legend(fontsize=8)
plt.show()

# %% [markdown]
# ## §7.1: target downscaling
#
# The scalar network of width $p = 8$ from $\pm1$ starts ($\theta(0) = 0$). $\Delta\theta = Z^{-1}\sum_i|a_ib_i|$
# changes in all by $S^2Z/(2p)$ (derived; the paper: $\Delta\dot\theta = O(S^2)$), so the curves normalised by it
# coincide and end at 1.

# %%
z, width = 1.0, down.WIDTH
a0, b0 = np.ones(width), np.where(np.arange(width) % 2 == 0, 1.0, -1.0)
times = np.linspace(0.0, 20 * z**2 / width, 401)
fig, ax = plt.subplots(figsize=(6.5, 3.8), constrained_layout=True)
for k, s in enumerate(down.TARGETS):
    run = trajectory(down.SCALAR, times, {"S": s, "Z": z}, {"a": a0, "b": b0}, "scipy")
    spread = np.sum(np.abs(run["a"] * run["b"]), axis=-1) / z
    ax.plot(times, (spread - spread[0]) / (s**2 * z / (2 * width)), color=f"C{k}", label=f"$S = {s:g}$")
ax.axhline(1.0, color="k", ls=":", lw=1, label=r"$S^2Z/(2p)$")
ax.set(xlabel="$t$", ylabel=r"$(\Delta\theta(t) - \Delta\theta(0))\,2p/(S^2Z)$", title="Target downscaling")
ax.legend(fontsize=8)
plt.show()
