r"""Claims of Nam et al. 2025 on neural collapse in the two-layer linear network (informal eq 13, App. E; spec
``models-nam2025.md`` §3): from a near-balanced start, :math:`W_1^\top W_1 - W_2W_2^\top \approx 0` (conserved by the
flow: claim ``nam2025.appC3.conserved``, matrix calculus for general sizes), training to :math:`XW_1W_2 = Y` on
one-hot targets leaves features :math:`XW_1` of rank :math:`c` whose class means collapse (within-class scatter
:math:`\ll` between-class scatter).

The statement is informal; it is checked numerically (``proofs_check.papers.nam2025.collapse``): 3 classes of 3 samples
in
:math:`\mathbb R⁹`, width 8, gradient descent (lr 0.05, 4000 steps) from :math:`W_1, W_2 \sim 10^{-4}\mathcal N(0,1)`,
10 seeds. A far-from-balanced start (:math:`W_1 \sim 0.5\,\mathcal N(0,1)`, :math:`W_2` small) fits the data too but
keeps its initial features: no collapse (the tests show that variant refuted).
"""

from __future__ import annotations

from proofs_check.paper import Measurement
from proofs_check.papers.nam2025.claims import PAPER

CLASSES, SEEDS = 3, range(10)
NEAR_BALANCED = (1e-4, 1e-4)
FIT = 1e-6
"""Largest accepted relative residual ‖XW₁W₂ − Y‖/‖Y‖ at the end: the statement is about convergence."""


def collapse_measure(quantity: str, scales: tuple[float, float] = NEAR_BALANCED, rank: int = CLASSES) -> Measurement:
    """``quantity`` ("rank": σ_{r+1}/σ_r of the features, "means": within/between class scatter) per seed after GD
    from starts of ``scales``; ValueError if a run has not fitted the targets."""
    from proofs_check.papers.nam2025.collapse import collapse_runs

    runs = collapse_runs(SEEDS, scales)
    if runs.residual.max() > FIT:
        raise ValueError(f"not converged: relative residual {runs.residual.max():.2g} > {FIT}")
    values = runs.rank_gap(rank) if quantity == "rank" else runs.within_between
    detail = (
        f"start imbalance ‖W₁ᵀW₁ − W₂W₂ᵀ‖ ≤ {runs.imbalance_start.max():.2g}, end ≤ {runs.imbalance_end.max():.2g}; "
        f"fit residual ≤ {runs.residual.max():.1g}; {len(SEEDS)} seeds"
    )
    return Measurement(values, "gradient descent on the matrices (nam2025.collapse), lr 0.05, 4000 steps", detail)


ASSUME = (
    "3 classes × 3 samples in R⁹ (orthogonal inputs), one-hot Y, width 8, W₁, W₂ ~ 10⁻⁴ N(0, 1)",
    "W₁ᵀW₁ − W₂W₂ᵀ is conserved by the flow (claim nam2025.appC3.conserved)",
)
PAPER.experiment(
    "collapse.rank",
    lambda: collapse_measure("rank"),
    quantity=PAPER.symbol("rank_gap", r"\sigma_{c+1}(XW_1)/\sigma_c(XW_1)", nonnegative=True),
    tolerance=1e-2,
    where="§5.2, App. E",
    eq="13",
    assume=ASSUME,
)
PAPER.experiment(
    "collapse.means",
    lambda: collapse_measure("means"),
    quantity=PAPER.symbol("NC1", r"\mathrm{tr}\,\Sigma_W/\mathrm{tr}\,\Sigma_B", nonnegative=True),
    tolerance=1e-4,
    where="§5.2, App. E",
    eq="13",
    assume=ASSUME,
)
