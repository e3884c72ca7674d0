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
# # Dominé et al. 2025: λ-balanced networks from unaligned starts
#
# The aligned modes (notebook `linear_networks`) need a start in the task's singular frames. Dominé et al. solve
# the flow from *any* λ-balanced start, $W_2W_2^\top - W_1^\top W_1 = \lambda I$, with whitened input (Fukumizu's
# $QQ^\top$ solution; the authors' code is `Nico31415/LinearNetworkDynamics/qqt_lambda_balanced.py`). In the
# paper orientation ($f = W_2^\top W_1^\top x$) stack $Q = [W_1; W_2^\top]$; then
# $P = QQ^\top = [[W_1W_1^\top, W_1W_2], [W_2^\top W_1^\top, W_2^\top W_2]]$ holds both representations and the
# network map, and
#
# $$\dot Q = FQ - \tfrac12 QQ^\top Q,\quad \dot P = FP + PF - P^2,\quad
#   P(t) = e^{Ft}Q_0\,\Bigl(I + Q_0^\top\!\int_0^t e^{2Fs}ds\;Q_0\Bigr)^{-1}Q_0^\top e^{Ft},$$
#
# with $F = [[-\tfrac\lambda2 I, \Sigma_{xy}], [\Sigma_{yx}, \tfrac\lambda2 I]]$. Every step is derived in the free
# algebra (`proofs_check.papers.domine2025.unaligned`); `proofs_check.papers.domine2025.qqt.qqt` evaluates the solution
# in $F$'s eigenbasis.

# %%
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.lines import Line2D

from derivations.models.linear_network import linear_network
from numerics import trajectory
from numerics.linear_network import moment_params, weights_to_init
from proofs_check.papers.domine2025.qqt import qqt, qqt_blocks, unaligned_start
from proofs_check.papers.domine2025.unaligned import unaligned_solution

derivation = unaligned_solution()
for check in derivation.check():
    print(f"[{check.step.key}] {check.proof.method}: {check.step.justification}")

# %% [markdown]
# The closed form against the integrated full matrix flow (float64, DOP853) from random unaligned λ-balanced
# starts ($d = 3$, $p = c = 2$), for a heavier first layer ($\lambda < 0$), a near-balanced start and a heavier
# second layer. Lines: the four entries of the closed-form network map; dots: the flow. The right panel shows
# the largest deviation (log scale): round-off of the integrator.

# %%
to_float = np.vectorize(float)
times = np.linspace(0, 6, 61)
LAMBDAS = ((-1.5, "C0"), (0.1, "C1"), (2.0, "C2"))
ENTRY_STYLES = ("-", "--", ":", "-.", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)))
"""One line style per entry (i, j) of the 2 × 3 map W₂ᵀW₁ᵀ, row by row."""
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), constrained_layout=True)
for lam, colour in LAMBDAS:
    W1, W2, Sxy = (to_float(m) for m in unaligned_start(3, 2, 2, lam, seed=7))
    closed = qqt_blocks(qqt(W1, W2, Sxy, times), 3)["map"]
    run = trajectory(
        linear_network(3, 2), times, moment_params(np.eye(3), Sxy), weights_to_init(W1, W2), method="scipy"
    )
    flow = run.W2T @ np.swapaxes(run.W1, -1, -2)  # W₂ᵀW₁ᵀ, (T, c, d)
    for entry, style in enumerate(ENTRY_STYLES):
        i, j = divmod(entry, 3)
        axes[0].plot(times, closed[:, i, j], ls=style, color=colour)
        axes[0].plot(times[::6], flow[::6, i, j], "o", color=colour, ms=3)
    gap = np.max(np.abs(closed - flow), axis=(1, 2))
    axes[1].semilogy(times[1:], gap[1:], color=colour, label=f"$\\lambda = {lam}$")
# one legend for the colours (λ) and one for the line styles (the entry (i, j) of the map)
lambda_handles = [Line2D([], [], color=colour, label=f"$\\lambda = {lam}$") for lam, colour in LAMBDAS]
entry_handles = [
    Line2D([], [], color="k", ls=style, label=f"entry ({entry // 3 + 1}, {entry % 3 + 1})")
    for entry, style in enumerate(ENTRY_STYLES)
]
first = axes[0].legend(handles=lambda_handles, fontsize=7, loc="upper left")
axes[0].add_artist(first)
axes[0].legend(handles=entry_handles, fontsize=7, loc="lower right")
axes[0].set(xlabel="$t$", ylabel=r"entries of $W_2^\top W_1^\top(t)$", title="closed form (lines) and flow (dots)")
axes[1].set(xlabel="$t$", ylabel=r"$\max\,|$closed form $-$ flow$|$", title="deviation from the flow")
axes[1].legend(fontsize=8)
plt.show()

# %% [markdown]
# The first-layer representation $W_1W_1^\top$ (top left block of $P$) from the same starts: its two non-zero
# eigenvalues settle at values that depend on λ (log scale: they span more than a decade).

# %%
fig, ax = plt.subplots(figsize=(6, 3.8), constrained_layout=True)
for lam, colour in LAMBDAS:
    W1, W2, Sxy = (to_float(m) for m in unaligned_start(3, 2, 2, lam, seed=7))
    representation = qqt_blocks(qqt(W1, W2, Sxy, times), 3)["W1W1T"]
    eigenvalues = np.linalg.eigvalsh(representation)[:, 1:]  # W1 W1^T has rank p = 2
    ax.semilogy(times, eigenvalues[:, 0], "--", color=colour)
    ax.semilogy(times, eigenvalues[:, 1], "-", color=colour, label=f"$\\lambda = {lam}$")
ax.set(xlabel="$t$", ylabel=r"eigenvalues of $W_1W_1^\top$", title="first-layer representation (both eigenvalues)")
ax.legend(fontsize=8)
plt.show()
