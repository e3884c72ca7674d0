r"""Claim of Nam et al. 2025 §6, Fig. 6(b), App. F.4: without λ-balance a larger weight-to-target ratio makes the
matrix network lazy (the experiment in ``lazy_ratio``).

Scaled down from the authors' 40 × 40 grid (λ ∈ linspace(−0.5, 0.5, 40), scale ∈ linspace(0.1, 50, 40),
``fig6b_run.py``) to 3 λ × 6 scales over the same ranges, at their d = p = 20, c = 2, N = 10 and 4000 steps of
lr 0.01, to stay within a second or so. The paper states the trend (a figure), not values; the claim is that the
trend is monotone on this sample and spans more than ``DROP`` in each measure.
"""

from __future__ import annotations

from proofs_check.claims import Outcome
from proofs_check.papers.nam2025.claims import PAPER

__all__ = ["LAMBDAS", "SCALES", "ratio_check"]

LAMBDAS = (-0.5, 0.0, 0.5)
"""The λ of the sample (the authors' range's ends and centre; code convention: λ > 0 makes W₁ heavier)."""
SCALES = (0.1, 1.0, 5.0, 10.0, 25.0, 50.0)
"""Target scales over the authors' [0.1, 50] (target Y/scale); the weight-to-target ratio grows with them."""
DROP = {"kernel": 1e3, "weight_change": 10.0}
"""Each measure falls by more than this factor from the smallest ratio to the largest at every λ (observed: the
kernel distance by ≥ 8e3, the relative weight change by ≥ 80, over the 500-fold range of the scale; see the
detail)."""


def ratio_check(direction: int = -1, drop: dict[str, float] | None = None) -> Outcome:
    """``ratio_sweep`` on LAMBDAS × SCALES (seed 0): at each λ the kernel distance and the relative weight change
    move strictly in ``direction`` (−1: decrease) as the ratio grows, and fall by more than ``drop`` (by measure;
    default DROP) overall."""
    import numpy as np

    from proofs_check.papers.nam2025.lazy_ratio import ratio_sweep

    drop = DROP if drop is None else drop
    sweep = ratio_sweep(LAMBDAS, SCALES)
    failures: dict[str, str] = {}
    rows = []
    for i, lam in enumerate(LAMBDAS):
        if not np.all(np.diff(sweep.ratio[i]) > 0):
            raise ValueError("the ratio must grow along SCALES")
        for name in ("kernel", "weight_change"):
            values = getattr(sweep, name)[i]
            steps = np.sign(np.diff(values))
            fall = values[0] / values[-1]
            rows.append(f"λ = {lam:g} {name}: {values[0]:.3g} → {values[-1]:.3g} (a factor {fall:.3g})")
            if not np.all(steps == direction):
                failures[f"λ = {lam:g}, {name}"] = f"not strictly {'de' if direction < 0 else 'in'}creasing"
            elif fall <= drop[name]:
                failures[f"λ = {lam:g}, {name}"] = f"falls only by a factor {fall:.3g} <= {drop[name]:g}"
    detail = (
        f"ratio {sweep.ratio.min():.3g} to {sweep.ratio.max():.3g}; "
        + "; ".join(rows)
        + f"; final loss / initial loss <= {sweep.loss.max():.2g}"
    )
    if failures:
        return Outcome.refuted("GD on the symmetrised matrix network (ratio_sweep)", failures, detail)
    return Outcome.numeric(
        f"GD on the symmetrised matrix network, {len(LAMBDAS)} λ × {len(SCALES)} target scales (seed 0)", detail
    )


PAPER.claim(
    "fig6b.ratio_lazy",
    "Without λ-balance (symmetrised init, W₂W₁(0) = 0) the final kernel distance and the relative weight change "
    "decrease monotonically as the weight-to-target ratio grows: a larger ratio makes the matrix network lazy",
    where="§6, Fig. 6(b), App. F.4 (the authors' fig6b_run.py)",
    assume=(
        "d = p = 20, c = 2, N = 10 unwhitened Gaussian samples, symmetrised init with σ = 0.1 (authors' "
        "get_lambda_unbalanced), target Y/scale, 4000 GD steps at lr 0.01 (the authors' fig6b_run.py)",
        f"sample: λ ∈ {LAMBDAS}, scale ∈ {SCALES} (the authors' grid is 40 × 40 over the same ranges), one seeded "
        "draw for the whole grid; the figure reports no values",
        "'lazy': each measure falls strictly along the ratio, over the range the kernel distance by more than "
        f"a factor {DROP['kernel']:g} and the relative weight change by more than a factor {DROP['weight_change']:g}",
    ),
    check=ratio_check,
)
