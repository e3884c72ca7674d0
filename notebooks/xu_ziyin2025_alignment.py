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
# # Xu & Ziyin 2025: the initial alignment and disalignment at finite width
#
# A companion to `xu_ziyin2025.py` (alignment in each phase, the phase diagram, the width exponents). The model is
# `layerwise_lr_linear`: $f(\xi) = \gamma\,u^\top w\,\xi$ trained with layer-wise learning rates; its exact solution
# moves one coordinate only, the hyperbolic angle $\theta$ (the weighted cosine is $\tanh\theta$), and the paper's
# alignment $\zeta$ is the plain cosine of $u$ and $w$.

# %%
import matplotlib.pyplot as plt
import numpy as np

from proofs_check.papers.xu_ziyin2025.alignment import initial_alignment
from proofs_check.papers.xu_ziyin2025.phase import phase

# %% [markdown]
# ## The initial alignment shrinks like $d^{-1/2}$
#
# For independent isotropic $u_0, w_0$, $\mathbb E[\zeta(0)^2] = 1/d$ (claim `xu_ziyin2025.alignment.width`).

# %%
dims = np.array([16, 64, 256, 1024, 4096])
rms = np.array([np.sqrt(np.mean(initial_alignment(d, 1000) ** 2)) for d in dims])
fig, ax = plt.subplots(figsize=(5.5, 3.6), constrained_layout=True)
ax.plot(dims, rms, "o", label=r"RMS $\zeta(0)$, 1000 draws")
ax.plot(dims, dims**-0.5, "k--", lw=1, label=r"$d^{-1/2}$")
ax.set(xscale="log", yscale="log", xlabel="width d", ylabel=r"RMS $\zeta(0)$", title="Initial alignment")
ax.legend()
plt.show()
assert np.allclose(rms * np.sqrt(dims), 1, atol=0.1)

# %% [markdown]
# ## Disalignment at finite width
#
# Width $d = 10$ with a large output scale $\gamma = 30$ ($c_d = 0$, $e_B < 0$: the disalignment phase). $|\theta|$
# falls from $\Theta(1)$ to $\approx\operatorname{asinh}B \approx 0$, monotonically when $\theta_0$ and $\theta_\infty$
# have one sign (claim `xu_ziyin2025.disalignment.condition`), and $\zeta$ with it; the plain and the weighted cosine
# differ at finite width.

# %%
from numerics import trajectory  # noqa: E402

rng = np.random.default_rng(3)
u0, w0 = rng.standard_normal((2, 6, 10))
gamma = 30.0
rate = gamma**2 * np.sqrt(((u0 + w0) ** 2).sum(axis=1) * ((u0 - w0) ** 2).sum(axis=1))
times = np.concatenate([[0.0], 30 / rate.min() * np.logspace(-5, 0, 200)])
params = {"gamma": gamma, "eta_u": 1.0, "eta_w": 1.0, "a": 1.0, "b": 1.0}
run = trajectory("layerwise_lr_linear", times, params, {"u": u0, "w": w0})
print("phase:", phase(c_d=0, c_u=0, c_w=0, c_gamma=1, c_eta_u=0, c_eta_w=0))
fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), constrained_layout=True)
for k in range(u0.shape[0]):
    axes[0].plot(times[1:], np.abs(np.arctanh(run["alignment_weighted"][1:, k])), color=f"C{k}")
    axes[1].plot(times[1:], run["alignment"][1:, k], color=f"C{k}")
    axes[1].plot(times[1:], run["alignment_weighted"][1:, k], color=f"C{k}", ls=":")
axes[0].set(xscale="log", xlabel="t", ylabel=r"$|\theta(t)|$", title=r"Disalignment: $|\theta|$ falls to $\approx 0$")
axes[1].set(xscale="log", xlabel="t", ylabel="cosine", title=r"$\zeta$ (solid) and $\tanh\theta$ (dotted)")
plt.show()
assert np.all(np.abs(np.arctanh(run["alignment_weighted"][-1])) < 0.05)

# %% [markdown]
# ## One sweep of the initialization scale: rescaling, alignment, disalignment
#
# Scaling a draw by $\sigma$ leaves $\theta_0$ and the cosines at $t = 0$ unchanged and sends $B \to B_1/\sigma^2$
# (claim `xu_ziyin2025.mechanisms.init_scale.scaling`). So every draw learns by rescaling at small $\sigma$
# ($K_\infty/K_0 \approx B/\cosh\theta_0$; the reconstruction of Table 1 says $\approx 2B$, which is
# $\varphi_\infty = \alpha_+$), by alignment, then by disalignment from $\sigma_c^2 = B_1/\sinh|\theta_0|$ on, and at
# large $\sigma$, $K_\infty/K_0 \to 1/\cosh\theta_0$: not lazy at finite width, $|\Delta K/K| \approx \theta_0^2/2
# \propto 1/d$ (claims `mechanisms.init_scale.crossover`, `.limits`, `.sweep`). The paper reports no figure values for
# this sweep; the dashed lines are the derived predictions, the markers the exact solution.

# %%
from proofs_check.papers.xu_ziyin2025 import claims_mechanisms as mech  # noqa: E402

fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), constrained_layout=True)
scales = np.array(mech.SWEEP_SCALES)
for k, d in enumerate((10, 1000)):
    r = mech.init_scale_sweep(d, tuple(range(16)))
    j = 0  # one draw per width
    cosh0 = np.cosh(r.theta0[j])
    axes[0].loglog(scales, r.ntk_ratio[:, j], "o", ms=4, color=f"C{k}", label=f"$d = {d}$, exact solution")
    b = r.b1[j] / scales**2
    axes[0].loglog(scales, np.sqrt(1 + b**2) / cosh0, "--", color=f"C{k}", lw=1, label=r"$\sqrt{1+B^2}/\cosh\theta_0$")
    axes[0].axvline(r.crossover[j], color=f"C{k}", ls=":", lw=1)
    shares = [np.mean(r.mechanism == m, axis=1) for m in range(3)]
    axes[1].plot(scales, shares[2], "-", color=f"C{k}", label=f"disalignment, $d = {d}$")
    axes[1].plot(scales, shares[0], "--", color=f"C{k}", label=f"rescaling, $d = {d}$")
    assert np.allclose(r.crossover, np.sqrt(r.b1 / np.sinh(np.abs(r.theta0))), rtol=1e-6)
    assert np.all(np.diff(r.mechanism, axis=0) >= 0)
axes[0].set(xlabel=r"initialization scale $\sigma$", ylabel=r"$K_\infty/K_0$", title=r"NTK change ($\sigma_c$ dotted)")
axes[0].legend(fontsize=7)
axes[1].set(xscale="log", xlabel=r"initialization scale $\sigma$", ylabel="fraction of 16 draws", title="Mechanism")
axes[1].legend(fontsize=7)
plt.show()
