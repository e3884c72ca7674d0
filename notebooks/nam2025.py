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
# # Nam et al. 2025: the figures the package computes, beside what the paper reports
#
# Nam, Lee, Dominé, Park, London, Choi, Göring, Lee, *Position: Solve layerwise linear models first to understand
# neural dynamical phenomena*, ICML 2025 ([arXiv 2502.21009](https://arxiv.org/abs/2502.21009)).
#
# 1. **App. H, Theorem 3**: the width-$p$ scalar network $f(x) = Z^{-1}\sum_i a_i b_i\,x$, target $Sx$. Every
#    neuron moves on one clock $\gamma(t)$, which rises from $\gamma(0) = 1$ to
#    $\gamma_+ = (S + D_0)/(\Sigma_0 + \mathcal S_0)$ (eq. 76). Its trajectories across the weight-to-target ratio
#    $\Sigma_0/S$ go from the rich sigmoid to the lazy exponential.
# 2. **The λ sweep** (§6, Theorem 2 after Dominé et al. 2025): one λ-balanced mode goes from a sigmoid at
#    $\lambda = 0$ to the linear model's exponential as $|\lambda| \to \infty$.
# 3. **Fig. 6a**: the kernel distance after training over λ and the weight-to-target ratio, on the authors' grid.
#
# Each figure is computed from the package's derived closed forms, checked against numerical integration of the
# derived flow, and set beside the paper's formula or the authors' setting (their code:
# [yoonsoonam119/linear_first](https://github.com/yoonsoonam119/linear_first), `fig6a_run.py`). Figures are saved
# to `figures/` under the working directory. The derivation walk-through of the matrix networks is in
# `linear_networks.py`.

# %%
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Markdown, display

from derivations import models
from numerics import trajectory
from proofs_check.papers.nam2025.claims import PAPER
from proofs_check.papers.nam2025.lazy_rich import lazy_rich_map

FIGURES = Path("figures")
FIGURES.mkdir(exist_ok=True)
rng = np.random.default_rng(20250)
model = models.get("two_layer_scalar")

# %% [markdown]
# ## The derivation behind Theorem 3
#
# The flow is derived from the loss, the closed form from the flow (`derivations.solve`); `Derivation.check()`
# re-verifies every recorded step exactly. `PAPER.derivation(model)` tags the steps with the paper's equation numbers
# (App. H, eqs 72–96).

# %%
checks = PAPER.derivation(model).check()
tagged = sorted({c.step.tag for c in checks if c.step.tag})
assert checks and all(c.proof.holds and c.proof.exact for c in checks), "a derivation step failed"
display(Markdown(f"All **{len(checks)}** steps hold exactly; tagged with the paper's eqs {', '.join(tagged)}."))

# %% [markdown]
# ## 1. Theorem 3 across $\Sigma_0/S$
#
# Width $p = 8$, $S = Z = 1$, symmetric starts $b_i(0) = \pm a_i(0)$ in pairs, so that $\mathcal S_0 = \theta(0) = 0$
# and $\Sigma_0$ alone sets the regime. The closed form (lines) is compared with DOP853 on the derived flow
# (markers). The clock is read from the states by eq. 79, $\gamma = \sum_i (a_i + b_i)^2/\sum_i (a_i + b_i)(0)^2$.
#
# What the paper reports, evaluated at each start:
# - eq. 76: $\gamma_+ = (S + D_0)/(\Sigma_0 + \mathcal S_0)$, $D_0 = \sqrt{S^2 + \Sigma_0^2 - \mathcal S_0^2}$; with
#   $\mathcal S_0 = 0$ this is $e^{\operatorname{arsinh}(S/\Sigma_0)}$ (Remark 5);
# - Remark 5: small $\Sigma_0/S$ is rich ($\gamma_+ \gg 1$), large $\Sigma_0/S$ is lazy ($\gamma_+ \to 1$).

# %%
p, params = 8, {"S": 1.0, "Z": 1.0}
ratios = [1e-4, 1e-2, 1.0, 1e2]  # Sigma0 / S
ratio_colour = dict(zip(ratios, plt.cm.viridis(np.linspace(0.0, 0.85, len(ratios))), strict=True))


def symmetric_start(sigma0: float) -> dict:
    """Starts with theta(0) = 0 and Sigma_0 = sigma0: units in pairs (x, x) and (x, -x)."""
    x = rng.standard_normal(p // 2)
    a, b = np.concatenate([x, x]), np.concatenate([x, -x])
    scale = np.sqrt(sigma0 * 2 * params["Z"] / (a**2 + b**2).sum())
    return {"a": scale * a, "b": scale * b}


def clock(run: dict, init: dict) -> np.ndarray:
    """gamma(t) from the states, eq. 79."""
    return ((run["a"] + run["b"]) ** 2).sum(axis=-1) / ((init["a"] + init["b"]) ** 2).sum()


rows, runs = ["| Σ0/S | γ₊, paper eq. 76 | γ(T), package | max dev. from DOP853 |", "|---:|---:|---:|---:|"], {}
for ratio in ratios:
    init = symmetric_start(ratio * params["S"])
    horizon = 2.5 * max(np.log(1 + 1 / ratio), 1 / (1 + ratio))
    fine, coarse = np.linspace(0, horizon, 300), np.linspace(0, horizon, 16)
    closed = trajectory(model, fine, params, init)
    checked = trajectory(model, coarse, params, init)
    integrated = trajectory(model, coarse, params, init, method="scipy")
    deviation = np.max(np.abs(checked["theta"] - integrated["theta"]))
    assert deviation < 1e-8, deviation
    sigma0 = (init["a"] ** 2 + init["b"] ** 2).sum() / (2 * params["Z"])
    s0 = (init["a"] * init["b"]).sum() / params["Z"]
    gamma_plus = (params["S"] + np.sqrt(params["S"] ** 2 + sigma0**2 - s0**2)) / (sigma0 + s0)
    late = trajectory(model, [0.0, 40 * horizon], params, init)
    rows.append(f"| {ratio:g} | {gamma_plus:.6g} | {clock(late, init)[-1]:.6g} | {deviation:.1e} |")
    runs[ratio] = (init, closed, integrated, gamma_plus)
display(Markdown("\n".join(rows)))

fig, (ax_theta, ax_gamma) = plt.subplots(1, 2, figsize=(11, 4), constrained_layout=True)
for ratio, (init, closed, integrated, gamma_plus) in runs.items():
    colour, label = ratio_colour[ratio], f"Σ0/S = {ratio:g}"
    t_scale = closed["t"] / closed["t"][-1]
    ax_theta.plot(t_scale, closed["theta"] / params["S"], color=colour, label=label)
    ax_theta.plot(integrated["t"] / closed["t"][-1], integrated["theta"] / params["S"], "o", color=colour, mfc="none")
    ax_gamma.semilogy(t_scale, clock(closed, init), color=colour, label=label)
    ax_gamma.axhline(gamma_plus, color=colour, ls=":", lw=1)
ax_theta.set(
    xlabel="t / T (T: each run's horizon)", ylabel="θ(t) / S", title="Output: sigmoid (rich) to exponential (lazy)"
)
ax_gamma.set(xlabel="t / T", ylabel="γ(t) (log scale)", title="Clock γ(t); dotted: γ₊ of eq. 76")
ax_theta.legend(title="lines: closed form, circles: DOP853")
ax_gamma.legend(loc="center right")
fig.suptitle("Nam et al. 2025, App. H, Theorem 3: width-8 scalar network, S = Z = 1")
fig.savefig(FIGURES / "nam2025_theorem3.png", dpi=120)
plt.show()

# %% [markdown]
# The clock saturates at the paper's $\gamma_+$ in every regime (table), from $\gamma_+ \approx 2\cdot10^4$ at
# $\Sigma_0/S = 10^{-4}$ (rich: weights grow by orders of magnitude) to $\gamma_+ \approx 1.01$ at
# $\Sigma_0/S = 100$ (lazy: every weight changes by a factor $\gamma^{\pm1/2} \approx 1$).
#
# ## 2. The λ sweep: from sigmoid to exponential
#
# One λ-balanced mode (`lambda_balanced`), $\rho(0) = 0.01$, $\tilde\rho = 1$, for imbalances
# $\lambda = b^2 - a^2$ from 0 to 16. Left: the transition function
# $\gamma(t;\lambda) = (\rho(t) - \rho_0)/(\tilde\rho - \rho_0)$; right: the same curves in time $|\lambda| t$, which
# approach the linear model's $1 - e^{-\tau}$ (Theorem 2's lazy limit). A λ keeps its colour in both panels.

# %%
lambdas = [0.0, 0.5, 2.0, 8.0, 16.0]
lam_colour = dict(zip(lambdas, plt.cm.plasma(np.linspace(0.0, 0.85, len(lambdas))), strict=True))
rho0, t = 0.01, np.linspace(0, 12, 400)
fig, axes = plt.subplots(1, 2, figsize=(11, 4), constrained_layout=True)
for lam in lambdas:
    k0 = np.sqrt(lam**2 + 4 * rho0**2)
    init = {"a": [np.sqrt((k0 - lam) / 2)], "b": [np.sqrt((k0 + lam) / 2)]}
    rho = trajectory("lambda_balanced", t, {"S": [1.0]}, init)["rho"][:, 0]
    transition = (rho - rho0) / (1 - rho0)
    axes[0].plot(t, transition, color=lam_colour[lam], label=f"λ = {lam:g}")
    if lam > 0:
        axes[1].plot(lam * t, transition, color=lam_colour[lam], label=f"λ = {lam:g}")
tau = np.linspace(0, 6, 200)
axes[1].plot(tau, 1 - np.exp(-tau), "k--", label=r"$1 - e^{-\tau}$ (linear model)")
axes[1].set_xlim(0, 6)
axes[0].set(xlabel="t", ylabel="γ(t; λ)", title="Transition function in time t")
axes[1].set(xlabel="τ = |λ| t", ylabel="γ(t; λ)", title="Rescaled time: the lazy limit")
for ax in axes:
    ax.legend()
fig.suptitle("Nam et al. 2025, §6 (Theorem 2, after Dominé et al. 2025): the λ sweep")
fig.savefig(FIGURES / "nam2025_lambda_sweep.png", dpi=120)
plt.show()

# %% [markdown]
# ## 3. Fig. 6a on the authors' grid
#
# The authors' `fig6a_run.py`: $d = p = c = 2$, $N = 10$ whitened samples, $\lambda \in$ `linspace(-9, 9, 40)`,
# scale $\in$ `linspace(1, 20, 40)` with target $Y/\text{scale}$, 4000 GD steps at lr 0.01, the kernel distance
# at the last step on a log scale. The package's `lazy_rich_map` runs the same grid: GD on the full matrices from a
# λ-balanced start in random frames (as the authors' weights are not task-aligned), and the derived closed form in
# the task-aligned frames. The start is the authors' initializer `get_lambda_balanced`, whose `scale` overwrites the
# singular values, so that $\rho_0 = \sqrt{\text{scale}}$ (`lazy_rich_map(setting="authors")`; the claims
# `nam2025.fig6a.*` use the fixed $\rho_0 = 1$, to which this setting maps exactly, claim `fig6a.scale_axis`).
#
# Axes are the true values: the weight-to-target ratio $\rho_0\,\text{scale}/\sigma_1 = \text{scale}^{3/2}/\sigma_1$
# of each scale is placed at its own position (the grid is uniform in scale, not in ratio). The paper reports the map
# qualitatively: lazy (small kernel distance) as $|\lambda|$ or the ratio grows, rich at small $|\lambda|$ and small
# ratio.

# %%
lambdas_6a, scales_6a = np.linspace(-9, 9, 40), np.linspace(1, 20, 40)
data = lazy_rich_map(lambdas_6a, scales_6a, setting="authors")
fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True, constrained_layout=True)
logs = [np.log10(np.maximum(v, 1e-16)) for v in (data.gd, data.closed_form)]
low, high = min(v.min() for v in logs), max(v.max() for v in logs)
for ax, values, title in zip(
    axes, logs, ("GD, random frames (the authors' start)", "closed form, aligned frames"), strict=True
):
    mesh = ax.pcolormesh(lambdas_6a, data.ratio, values.T, shading="nearest", vmin=low, vmax=high, cmap="coolwarm")
    ax.set(xlabel=r"$\lambda$", title=title)
axes[0].set_ylabel(r"weight-to-target ratio $\rho_0\,\mathrm{scale}/\sigma_1$")
fig.colorbar(mesh, ax=axes, label=r"$\log_{10}$ kernel distance at $t = 40$")
fig.suptitle("Nam et al. 2025, Fig. 6a: the lazy/rich map on the authors' 40 × 40 grid")
fig.savefig(FIGURES / "nam2025_fig6a.png", dpi=120)
plt.show()
centre = np.argmin(np.abs(lambdas_6a))
display(
    Markdown(
        f"At λ = {lambdas_6a[centre]:.2f}, ratio {data.ratio[-1]:.1f}: GD {data.gd[centre, -1]:.3g}, closed form "
        f"{data.closed_form[centre, -1]:.3g}; at |λ| = 9: GD {data.gd[0, -1]:.2g}, closed form "
        f"{data.closed_form[0, -1]:.2g} — lazy at large |λ| and ratio, as the paper reports. Claim "
        "`nam2025.fig6a.lazy_rich_map` measures where the two maps differ (the rotation into the task's frames)."
    )
)
