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
# # Alignment across phases (Xu & Ziyin 2025)
#
# The model is `layerwise_lr_linear`: $f(\xi) = \gamma\,u^\top w\,\xi$ trained with layer-wise learning rates. Its
# exact solution moves one coordinate only, the hyperbolic angle $\theta$: the weighted cosine
# $2\sqrt{\eta_u\eta_w}\,u^\top w/(\eta_w|u|^2 + \eta_u|w|^2)$ is $\tanh\theta$, and the paper's alignment $\zeta$, the
# plain cosine of $u$ and $w$, is $\sinh\theta/\sqrt{\cosh^2\theta - \sigma}$ with $\sigma = S^2/(PQ) \in [0, 1)$.
# Since $\zeta$ increases with $\theta$ and $\theta(t)$ is monotone (claims `xu_ziyin2025.alignment.derivative`,
# `.monotone`), $\zeta(t)$ is monotone.
#
# Below: $\zeta(t)$ in the phases of `numerics.phase` (spec §4.3 rows, $a = b = 1$), the width dependence of the
# initial alignment, and disalignment at finite width.

# %%
import matplotlib.pyplot as plt
import numpy as np

from numerics.alignment import alignment_paths, initial_alignment
from numerics.phase import PARAMETRIZATIONS, phase

# %% [markdown]
# ## $\zeta(t)$ across phases
#
# Median over 48 draws (band: 10–90 %), time in units of $t_\infty = 100/\min\gamma^2a\sqrt{PQ}$, by which every
# draw has converged. In the alignment phase $\zeta$ rises from $\zeta(0) = O(d^{-1/2})$ to
# $B/\sqrt{1 + B^2 - \sigma} \approx 1/\sqrt2$; in the kernel phase it stays $O(d^{-1/2})$; with a small
# initialization (rescaling) it saturates at 1.

# %%
keys, widths = ("mean_field", "ntk", "small_init"), (64, 1024)
fig, axes = plt.subplots(1, 3, figsize=(12, 3.6), constrained_layout=True, sharey=True)
for ax, key in zip(axes, keys, strict=True):
    for shade, d in zip(("C0", "C1"), widths, strict=True):
        paths = alignment_paths(key, d, range(48))
        low, mid, high = np.percentile(paths.zeta, [10, 50, 90], axis=1)
        x = paths.t[1:] / paths.t[-1]
        ax.plot(x, mid[1:], color=shade, label=f"d = {d}")
        ax.fill_between(x, low[1:], high[1:], color=shade, alpha=0.25)
    label = phase(**PARAMETRIZATIONS[key].exponents)
    ax.set(xscale="log", xlabel=r"$t/t_\infty$", title=f"{PARAMETRIZATIONS[key].label}: {label}")
    ax.axhline(0, color="grey", lw=0.5)
axes[0].set_ylabel(r"$\zeta(t)$ (plain cosine)")
axes[0].legend()
plt.show()

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
