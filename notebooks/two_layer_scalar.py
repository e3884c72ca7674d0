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
# # Width-$p$ scalar two-layer network (Nam et al. 2025, §7 and App. H)
#
# The model is $f(x) = Z^{-1}\sum_{i=1}^p a_i b_i\,x$ with target $f^*(x) = Sx$ and $\mathbb E x^2 = 1$.
# Write $\theta = Z^{-1}\sum_i a_i b_i$, so that $f = \theta x$.
#
# Conventions, the same for every model in the package:
# - the population loss is $\mathcal L = \tfrac12\mathbb E_x[(f(x) - f^*(x))^2] = \tfrac12(S-\theta)^2$;
# - the gradient flow is $\dot a_i = -\partial\mathcal L/\partial a_i$ (unit learning rate), derived with
#   `sympy.diff`.
#
# Initial statistics:
# - $\Sigma_0 = (2Z)^{-1}\sum_i (a_i(0)^2 + b_i(0)^2)$;
# - $\mathcal S_0 = Z^{-1}\sum_i a_i(0)b_i(0) = \theta(0)$;
# - $D_0 = \sqrt{S^2 + \Sigma_0^2 - \mathcal S_0^2}$.
#
# Theorem 3 says every neuron moves on one shared clock
# $\gamma(t) = \exp\big(\tfrac2Z\int_0^t(S-\theta)\big)$: $a_i \pm b_i$ scale as $\gamma^{\pm1/2}$, and
# $\gamma$ solves a Riccati equation. It rises (or falls) from $\gamma(0) = 1$ to
# $\gamma_+ = (S + D_0)/(\Sigma_0 + \mathcal S_0)$.
#
# Below, the notebook shows the derived flow, renders the recorded derivation and re-checks each of its steps.
# It then compares the closed form with a numerical integration of the flow in a rich regime
# ($\Sigma_0 \ll S$) and in a lazy one ($\Sigma_0 \gg S$).

# %%
import matplotlib.pyplot as plt
import numpy as np
import sympy as sp
from IPython.display import Latex, Markdown, Math, display

from derivations import models
from numerics import trajectory

rng = np.random.default_rng(20250)
model = models.get("two_layer_scalar")
print(model.title, "-", model.reference)

# %% [markdown]
# ## The derived flow
#
# One generic neuron's vector field is shown first. The other neurons enter only through $\theta$. Below
# it is the explicit loss at width $p = 3$, both derived from the network function and the target.

# %%
for state, rhs in model.unit_field.items():
    display(Math(rf"\dot {sp.latex(state)} = {sp.latex(rhs)}"))
display(Math(r"\mathcal L_{p=3} = " + sp.latex(model.instance(3).loss)))

# %% [markdown]
# ## The recorded derivation
#
# These are the steps of the closed form, in order, tagged with the paper's equation numbers. Each step
# holds a residual that must vanish, and `Derivation.check()` re-verifies every step on its own.

# %%
derivation = model.closed_form.derivation
display(Latex(derivation.latex()))

# %%
checks = derivation.check()
rows = [
    "| step | tag | justification | method | holds |",
    "| ---: | :--- | :--- | :--- | :--- |",
]
for c in checks:
    justification = c.step.justification.replace("|", r"\|")
    if len(justification) > 70:
        justification = justification[:67] + "..."
    exact = "" if c.proof.exact else " (numeric only)"
    rows.append(f"| {c.index} | {c.step.tag} | {justification} | {c.proof.method} | {c.proof.holds}{exact} |")
display(Markdown("\n".join(rows)))
assert checks and all(c.proof.holds and c.proof.exact for c in checks), "a derivation step failed"
print(f"all {len(checks)} steps hold exactly")

# %% [markdown]
# ## Closed form vs. integrated flow
#
# We take $p = 8$ neurons with i.i.d. Gaussian initial weights of scale $\sigma$, and set $S = 1$, $Z = 1$.
# - **Rich regime**: $\sigma = 10^{-3}$, so $\Sigma_0/S \sim 10^{-5}$.
# - **Lazy regime**: $\sigma = 3$, so $\Sigma_0/S \sim 30$.
#
# The closed form (`method="closed_form"`) is evaluated on a fine grid. The flow integrated with DOP853
# (`method="scipy"`, rtol $10^{-13}$) is evaluated on a coarse one.
#
# Eq 79 gives $\gamma$ back from the states as $\gamma(t) = \sum_i (a_i+b_i)(t)^2 / \sum_i (a_i+b_i)(0)^2$.
# The curves are compared on the coarse grid:
# - relative error for $\gamma$, which grows by five orders of magnitude in the rich regime;
# - absolute error for $\theta$.

# %%
p, params = 8, {"S": 1.0, "Z": 1.0}
regimes = {"rich": (1e-3, 15.0), "lazy": (3.0, 0.15)}  # init scale, time horizon


def gamma_of(result, init):
    """gamma(t) from the states, by eq 79."""
    u0 = init["a"] + init["b"]
    return ((result["a"] + result["b"]) ** 2).sum(axis=-1) / (u0**2).sum()


runs = {}
for name, (scale, horizon) in regimes.items():
    init = {"a": scale * rng.standard_normal(p), "b": scale * rng.standard_normal(p)}
    fine, coarse = np.linspace(0.0, horizon, 400), np.linspace(0.0, horizon, 31)
    closed = trajectory(model, fine, params, init, method="closed_form")
    closed_coarse = trajectory(model, coarse, params, init, method="closed_form")
    integrated = trajectory(model, coarse, params, init, method="scipy")
    g_cf, g_num = gamma_of(closed_coarse, init), gamma_of(integrated, init)
    dev_gamma = np.max(np.abs(g_cf - g_num) / np.abs(g_cf))
    dev_theta = np.max(np.abs(closed_coarse["theta"] - integrated["theta"]))
    Sigma0 = (init["a"] ** 2 + init["b"] ** 2).sum() / (2 * params["Z"])
    S0 = (init["a"] * init["b"]).sum() / params["Z"]
    D0 = np.sqrt(params["S"] ** 2 + Sigma0**2 - S0**2)
    gamma_plus = (params["S"] + D0) / (Sigma0 + S0)
    print(
        f"{name}: Sigma0/S = {Sigma0 / params['S']:.3g}, theta(0) = {S0:.3g}, gamma_+ = {gamma_plus:.4g}, "
        f"gamma(T) = {gamma_of(closed, init)[-1]:.4g}, theta(T) = {closed['theta'][-1]:.10f}; "
        f"max rel. dev. gamma = {dev_gamma:.1e}, max abs. dev. theta = {dev_theta:.1e}"
    )
    assert dev_gamma < 1e-8 and dev_theta < 1e-8, f"{name}: closed form and integration disagree"
    runs[name] = (init, closed, integrated, gamma_plus)

assert runs["rich"][3] > 1e3 and 0.5 < runs["lazy"][3] < 2.0

# %%
fig, axes = plt.subplots(2, 2, figsize=(10, 7), constrained_layout=True)
for row, (name, (init, closed, integrated, gamma_plus)) in enumerate(runs.items()):
    ax_g, ax_t = axes[row]
    ax_g.plot(closed["t"], gamma_of(closed, init), "-", color="C0", label="closed form")
    ax_g.plot(integrated["t"], gamma_of(integrated, init), "o", color="C1", ms=4, mfc="none", label="DOP853")
    ax_g.axhline(gamma_plus, color="grey", ls=":", label=r"$\gamma_+$")
    ax_g.set(xlabel="t", ylabel=r"$\gamma(t)$", title=f"{name}: clock $\\gamma(t)$")
    if name == "rich":
        ax_g.set_yscale("log")
    ax_t.plot(closed["t"], closed["theta"], "-", color="C0", label="closed form")
    ax_t.plot(integrated["t"], integrated["theta"], "o", color="C1", ms=4, mfc="none", label="DOP853")
    ax_t.axhline(params["S"], color="grey", ls=":", label="target S")
    ax_t.set(xlabel="t", ylabel=r"$\theta(t)$", title=f"{name}: output $\\theta(t)$")
    for ax in (ax_g, ax_t):
        ax.legend(loc="best")
plt.show()

# %% [markdown]
# ## What the plots show
#
# In both regimes the integrated flow (markers) lies on the closed form (lines) to better than $10^{-8}$,
# as the assertions above check.
#
# **Rich regime** ($\Sigma_0 \ll S$):
# - $\theta(t)$ is sigmoidal. It sits on a long plateau near $0$ while $\gamma$ grows exponentially, about
#   like $e^{2St/Z}$, a straight line on the log axis. It then jumps to $S$ around
#   $t \approx \tfrac{Z}{2S}\ln(S/\Sigma_0)$.
# - The clock saturates at a huge $\gamma_+ \approx 2S/(\Sigma_0+\mathcal S_0)$. The weights grow by orders of
#   magnitude: feature learning.
#
# **Lazy regime** ($\Sigma_0 \gg S$):
# - $\theta(t)$ relaxes to $S$ exponentially, at the fast rate $2D_0/Z \approx 2\Sigma_0/Z$, with no plateau.
#   It starts far from $0$ here, because a random initialisation of scale $\sigma$ gives
#   $\theta(0) = O(\sigma^2\sqrt p/Z)$.
# - The clock barely moves: $\gamma_+ = O(1)$, with $\gamma_+ \to 1$ as $\mathcal S_0/\Sigma_0 \to 0$. Each
#   weight changes only by a factor $\gamma^{\pm1/2}$ close to $1$: the kernel (lazy) limit.
