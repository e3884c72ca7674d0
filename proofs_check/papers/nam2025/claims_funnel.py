r"""Claim of Nam et al. 2025 App. F.3, Fig. 10: funnel and anti-funnel linear networks are lazy at one λ limit and
rich with delay at the other (the experiment in ``funnel``).

The paper's text of App. F.3 is not available here (issue 24 states the claim in one line); which limit is lazy
for which architecture is derived in ``funnel``'s docstring (funnel ``d > p = c``: lazy as λ → +∞, a heavier
second layer; anti-funnel ``d = p < c``: lazy as λ → −∞) and checked numerically at small sizes.
"""

from __future__ import annotations

from collections.abc import Mapping

from proofs_check.claims import Outcome
from proofs_check.papers.nam2025.claims import PAPER

__all__ = ["LAMBDAS", "LAZY_SIGN", "funnel_check"]

LAMBDAS = (-20.0, -10.0, 0.0, 10.0, 20.0)
LAZY_SIGN = {"funnel": 1, "anti-funnel": -1}
"""The sign of λ whose limit is lazy, per architecture (derived)."""
LAZY, RICH, DELAY = 1e-3, 0.1, 2.0
"""Lazy: final kernel distance < LAZY at |λ| = 20; rich: > max(RICH, its value at λ = 0); delay: the time to fit
grows along |λ| = 0, 10, 20 and is at |λ| = 20 more than DELAY times the one at λ = 0."""
TIME = 60.0


def funnel_check(lazy_sign: Mapping[str, int] = LAZY_SIGN) -> Outcome:
    """``funnel_run`` of each architecture (seed 0, GF time TIME): at λ = 20·``lazy_sign`` the kernel distance is
    below LAZY, falls from |λ| = 10 and the fit is no slower than at λ = 0; at the other sign it is above RICH and
    above its value at λ = 0, and the time to fit grows with |λ| past DELAY times that at λ = 0."""
    from proofs_check.papers.nam2025.funnel import funnel_run

    failures: dict[str, str] = {}
    rows = []
    for architecture, sign in lazy_sign.items():
        run = funnel_run(architecture, LAMBDAS, time=TIME)
        at = {lam: i for i, lam in enumerate(LAMBDAS)}
        lazy, lazy10 = at[20.0 * sign], at[10.0 * sign]
        rich, rich10, zero = at[-20.0 * sign], at[-10.0 * sign], at[0.0]
        kd, tf = run.kernel, run.fit_time
        rows.append(
            f"{architecture}: kernel distance {dict(zip(LAMBDAS, (f'{k:.2g}' for k in kd), strict=True))}, "
            f"time to loss < 1e-2 {dict(zip(LAMBDAS, tf.tolist(), strict=True))}"
        )
        if not (kd[lazy] < LAZY and kd[lazy] < kd[lazy10] and tf[lazy] <= tf[zero]):
            failures[f"{architecture}, λ = {LAMBDAS[lazy]:g}"] = f"not lazy: kd {kd[lazy]:.3g}, fit at {tf[lazy]}"
        if not (kd[rich] > max(RICH, kd[zero]) and tf[rich] >= tf[rich10] > tf[zero] and tf[rich] > DELAY * tf[zero]):
            failures[f"{architecture}, λ = {LAMBDAS[rich]:g}"] = (
                f"not rich with delay: kd {kd[rich]:.3g}, fit at {tf[rich]} (λ = 0: {tf[zero]})"
            )
    detail = "; ".join(rows)
    if failures:
        return Outcome.refuted("GD on λ-balanced funnel / anti-funnel networks (funnel_run)", failures, detail)
    return Outcome.numeric("GD on λ-balanced funnel (4, 2, 2) and anti-funnel (2, 2, 4) networks, seed 0", detail)


PAPER.claim(
    "appF3.funnel_limits",
    "Funnel (d > p = c) networks are lazy as λ → +∞ and rich with a delayed fit as λ → −∞; anti-funnel "
    "(d = p < c) networks the other way round",
    where="App. F.3, Fig. 10",
    derived=True,
    assume=(
        "λ-balanced start W₂W₂ᵀ − W₁ᵀW₁ = λI_p (paper orientation), product singular values 0.05 in random frames; "
        "(d, p, c) = (4, 2, 2) and (2, 2, 4); whitened random regression, ‖Σxy‖₂ = 2, GD to GF time 60",
        f"λ ∈ {LAMBDAS}; lazy: final kernel distance < {LAZY:g}; rich: > {RICH:g} and > its λ = 0 value; delay: "
        f"the time to relative loss 1e-2 grows along |λ| = 0, 10, 20, past {DELAY:g}× its λ = 0 value",
        "which limit is lazy is derived (App. F.3's text is not available; issue 24 states only 'lazy at one λ "
        "limit, rich with delay at the other'); the sizes are ours, not the paper's",
    ),
    check=funnel_check,
)
