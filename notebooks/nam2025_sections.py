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
# # Emergence, mode ordering and the lazy/rich fixes (Nam et al. 2025, §4.1, §4.3, App. D, §6, §7)
#
# The emergence model (eq 11, after Nam et al. 2024) is registered as `emergence`:
# $f(x) = \sum_k a_k b_k\, g_k(x)$ with mutually exclusive skill functions $g_k$ and target $S\sum_k g_k$, so
# $\mathbb E[g_k g_j] = P_s(k)\,\delta_{kj}$. Convention (the spec marks it uncertain):
# $P_s(k) = k^{-(\alpha+1)}/\sum_{j\le n_s} j^{-(\alpha+1)}$; here $\alpha = 1$. Each skill is one balanced mode,
# so its strength $R_k = a_k b_k$ follows the sigmoid of eq 9 with rate $2SP_s(k)$ (claim
# `nam2025.emergence.sigmoid`, read off the derived closed form).
#
# The figures below show:
# - time emergence: the skills are learned one after another, in order of frequency;
# - data emergence: a skill is learned iff it appears at least once in the data, so
#   $\mathbb E[R_k(\infty)]/S = 1 - (1 - P_s(k))^n$;
# - parameter emergence: a model with $p$ skill units learns exactly the skills $k \le p$;
# - the grokking fixes: each raises $\gamma_+$, the end value of the clock of the scalar network.

# %%
import matplotlib.pyplot as plt
import numpy as np

from derivations import models
from numerics import trajectory
from proofs_check.papers.nam2025.emergence import data_emergence, skill_probabilities
from proofs_check.papers.nam2025.half_time import half_time

S, w0, n_skills = 1.0, 1e-6, 6
frequencies = skill_probabilities(n_skills, 1)
print("P_s(k) =", np.round(frequencies, 4))
print("derived half-time:", half_time(models.get("emergence")).t_half)

# %% [markdown]
# ## Time emergence
#
# The closed form of every skill from $a_k(0) = b_k(0) = 10^{-3}$ ($w_0 = 10^{-6}$). The half-time
# $t_{1/2}(k) = \ln(S/w_0 - 1)/(2SP_s(k))$ grows as $k^{\alpha+1}$ (claim `nam2025.emergence.time`), so the time
# axis is logarithmic.

# %%
times = np.logspace(0, 3.5, 600)
start = np.full(n_skills, np.sqrt(w0))
run = trajectory("emergence", times, {"S": S, "P": frequencies}, {"a": start, "b": start})
half = np.log(S / w0 - 1) / (2 * S * frequencies)
fig, ax = plt.subplots(figsize=(7, 4), constrained_layout=True)
for k in range(n_skills):
    ax.plot(times, run["R"][:, k] / S, color=f"C{k}", label=f"skill {k + 1}, $P_s$ = {frequencies[k]:.3f}")
    ax.axvline(half[k], color=f"C{k}", ls=":", lw=1)
ax.set(xscale="log", xlabel="t", ylabel="$R_k(t)/S$", title="Time emergence: skills learned in order of frequency")
ax.legend(fontsize=8, loc="upper left")
plt.show()
assert np.all(np.diff(half) > 0) and np.allclose(run["R"][-1], S, rtol=1e-3)

# %% [markdown]
# ## Data emergence
#
# Gradient descent on the empirical loss of $n$ sampled inputs (`proofs_check.papers.nam2025.emergence.data_emergence`,
# 1000 draws
# per $n$), against $1 - (1 - P_s(k))^n$ (lines). The exact version, enumerated over every sequence of draws for
# $n \le 4$, is claim `nam2025.emergence.data.exact` (numerically supported: exact on that sample, not proved for
# every $n$).

# %%
sizes = (1, 2, 4, 8, 16, 32, 64)
simulated = data_emergence(frequencies, sizes, 1000, target=S)
fig, ax = plt.subplots(figsize=(7, 4), constrained_layout=True)
grid = np.logspace(0, np.log10(sizes[-1]), 100)
for k in range(n_skills):
    ax.plot(grid, 1 - (1 - frequencies[k]) ** grid, color=f"C{k}", lw=1)
    ax.plot(sizes, simulated[:, k], "o", color=f"C{k}", ms=4, label=f"skill {k + 1}")
ax.set(xscale="log", xlabel="number of samples n", ylabel=r"mean $R_k(\infty)/S$")
ax.set_title("Data emergence: simulation (dots) vs $1 - (1 - P_s(k))^n$ (lines)")
ax.legend(fontsize=8)
plt.show()
predicted = np.array([1 - (1 - frequencies) ** n for n in sizes])
print(f"largest deviation: {np.abs(simulated - predicted).max():.3f} (1000 draws: standard error <= 0.016)")
assert np.abs(simulated - predicted).max() < 0.08

# %% [markdown]
# ## Parameter emergence
#
# Models of width $p = 1, \dots, 6$ (skill units $1, \dots, p$) trained on the target over all six skills. The
# model has no component along $g_k$ for $k > p$, so $R_k = 0$ there; the skills it has are all learned
# (claim `nam2025.emergence.parameter`).

# %%
learned = np.zeros((n_skills, n_skills))
for p in range(1, n_skills + 1):
    start = np.full(p, np.sqrt(w0))
    end = trajectory("emergence", [4e3], {"S": S, "P": frequencies[:p]}, {"a": start, "b": start})
    learned[p - 1, :p] = end["R"][0] / S
fig, ax = plt.subplots(figsize=(5.5, 4.5), constrained_layout=True)
image = ax.imshow(learned, origin="lower", cmap="Blues", vmin=0, vmax=1, extent=(0.5, 6.5, 0.5, 6.5))
edge = np.arange(0.5, n_skills + 1)
ax.plot(np.repeat(edge, 2)[1:-1], np.repeat(edge, 2)[:-2], "r--", lw=1.5, label=r"edge of $k \leq p$")
ax.set(xlabel="skill k", ylabel="model width p (skill units)")
ax.set_title(r"Parameter emergence: $R_k(\infty)/S$ (closed form); formula $\mathbf{1}[k \leq p]$")
fig.colorbar(image, ax=ax, label=r"$R_k(\infty)/S$")
ax.legend(loc="upper left", fontsize=8)
plt.show()
assert np.allclose(learned, np.tril(np.ones_like(learned)), atol=1e-6)

# %% [markdown]
# ## The grokking fixes raise $\gamma_+$
#
# For the scalar network the end value of the clock, $\gamma_+ = (S + D_0)/(\Sigma_0 + \mathcal S_0)$, measures how
# far the weights move (rich: $\gamma_+ \gg 1$; lazy: $\gamma_+ \to 1$). With $\mathcal S_0 = 0$ it depends on
# $\Sigma_0/S$ only; the claims `nam2025.grokking.*` prove that each fix (smaller initialization, larger target,
# smaller input, larger $Z$) lowers $\varepsilon\Sigma_0/S$ and raises $\gamma_+$.

# %%
scale = np.logspace(-1.5, 1.5, 60)  # a = (s, s), b = (s, -s): S0 = 0, Sigma0 = 2 s^2
init = {"a": np.stack([scale, scale], axis=1), "b": np.stack([scale, -scale], axis=1)}
end = trajectory("two_layer_scalar", [0.0, 50.0], {"S": 1.0, "Z": 1.0}, init)
u0, u_end = (end["a"][i] + end["b"][i] for i in (0, 1))
gamma_end = (u_end**2).sum(axis=1) / (u0**2).sum(axis=1)  # eq 79: gamma from the states
fig, ax = plt.subplots(figsize=(6, 3.5), constrained_layout=True)
ax.plot(2 * scale**2, gamma_end - 1, ".-")
ax.set(xscale="log", yscale="log", xlabel=r"weight-to-target ratio $\Sigma_0/S$ ($\mathcal{S}_0 = 0$, $S = Z = 1$)")
ax.set(ylabel=r"$\gamma(\infty) - 1$", title="Lowering $\\Sigma_0/S$ moves the network to the rich regime")
plt.show()
assert np.all(np.diff(gamma_end) < 0)
