"""Phase-diagram claims of Xu & Ziyin 2025 (spec ``models-xu-ziyin2025.md`` §4.1-4.3, §4.5, §8).

The paper's body is not available: the statements below are the spec's reconstruction, and the paper's own
equation numbers for them are unknown, so each citation names the spec section only. The claims are added to
``proofs_check.papers.xu_ziyin2025.claims.PAPER``. The exact claims are the steps of
``proofs_check.papers.xu_ziyin2025.scaling.DERIVATION`` plus an identity with the spec's printed form; the §4.3 table
rows are
supported by width fits of the exact solution (``numerics.phase``) and refuted if a fit misses by more than
``proofs_check.papers.xu_ziyin2025.phase.TOLERANCE``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import sympy as sp

from proofs_check.checkers import all_of, derivation_steps, identities
from proofs_check.claims import Outcome
from proofs_check.papers.xu_ziyin2025.claims import PAPER, spec

NO_EQUATION = "the paper's equation number is unknown (body text unavailable)"

# the exponent symbols of proofs_check.papers.xu_ziyin2025.scaling (equal by name and assumptions; that module derives
# on import)
C_D, C_U, C_W, C_GAMMA, C_ETA_U, C_ETA_W = sp.symbols("c_d c_u c_w c_gamma c_eta_u c_eta_w", real=True)
_t = sp.Symbol("vartheta", real=True)
for _symbol in (C_D, C_U, C_W, C_GAMMA, C_ETA_U, C_ETA_W, _t):
    PAPER.symbol(_symbol.name)
e_B = PAPER.symbol("e_B", "e_B", real=True)
# the spec's printed forms (§4.1, §4.2, §8)
E_B_PRINTED = -C_GAMMA - C_D - (C_U + C_W) / 2 - sp.Abs(C_ETA_W - C_ETA_U + C_U - C_W) / 2
BOUNDARY_PRINTED = sp.Eq(C_GAMMA + C_D + sp.Max(C_ETA_W + C_U, C_ETA_U + C_W), (C_ETA_U + C_ETA_W) / 2)
ABC_VARIANCE_MAP = {C_U: C_U + 2 * _t, C_W: C_W + 2 * _t, C_GAMMA: C_GAMMA - 2 * _t}
ABC_VARIANCE_MAP |= {C_ETA_U: C_ETA_U + 2 * _t, C_ETA_W: C_ETA_W + 2 * _t}

# spec §4.3: e_B, phase, and the Θ(1) limit of ΔK/K at a = b = 1 where the table gives one
TABLE = {
    "ntk": (sp.Rational(-1, 2), "kernel", None),
    "mean_field": (sp.S.Zero, "alignment", math.sqrt(2) - 1),
    "xavier": (sp.S.Zero, "alignment", math.sqrt(5) / 2 - 1),
    "kaiming_fan_in": (sp.S.NegativeOne, "kernel", None),
    "small_init": (sp.S.One, "rescaling", None),
}
LIMIT_TOLERANCE = 0.01
"""Largest accepted |median ΔK/K at the largest width − the table's Θ(1) limit|."""


def _table_row(key: str) -> Callable[[], Outcome]:
    """e_B and phase as in the table, fitted exponents within TOLERANCE, Θ(1) limit within LIMIT_TOLERANCE."""

    def check() -> Outcome:
        import importlib

        import numpy as np

        from proofs_check.papers.xu_ziyin2025 import scaling

        phases = importlib.import_module("proofs_check.papers.xu_ziyin2025.phase")

        p, phase, width_sweep = phases.PARAMETRIZATIONS[key], phases.phase, phases.width_sweep
        TABLE_WIDTHS, TABLE_SEEDS, QUANTITIES, TOLERANCE = (  # read at run time: tests patch them
            phases.TABLE_WIDTHS,
            phases.TABLE_SEEDS,
            phases.QUANTITIES,
            phases.TOLERANCE,
        )
        e_b, regime, limit = TABLE[key]
        method = f"closed-form width sweep, d = {TABLE_WIDTHS}, {len(TABLE_SEEDS)} inits, log-log fit of medians"
        wrong = {}
        if scaling.e_B(**p.exponents) != e_b:
            wrong["e_B"] = f"{scaling.e_B(**p.exponents)} (table {e_b})"
        if phase(**p.exponents) != regime:
            wrong["phase"] = f"{phase(**p.exponents)} (table {regime})"
        sweep = width_sweep(key, TABLE_WIDTHS, TABLE_SEEDS)
        fitted = sweep.exponents()
        rows = []
        for q in QUANTITIES:
            rows.append(f"{q} {fitted[q]:.3f} (table {p.predicted[q]})")
            if abs(fitted[q] - float(p.predicted[q])) > TOLERANCE:
                wrong[q] = f"fitted {fitted[q]:.4f}, table {p.predicted[q]}"
        if limit is not None:
            final = float(sweep.medians["dK/K"][-1])
            rows.append(f"dK/K at d = {TABLE_WIDTHS[-1]}: {final:.4f} (table {limit:.4f})")
            if not np.isclose(final, limit, rtol=0, atol=LIMIT_TOLERANCE):
                wrong["dK/K limit"] = f"{final:.4f}, table {limit:.4f}"
        if wrong:
            return Outcome.refuted(method, wrong, "; ".join(rows))
        return Outcome.numeric(method, "; ".join(rows))

    return check


def _derivation():
    from proofs_check.papers.xu_ziyin2025.scaling import DERIVATION

    return DERIVATION


def _scaling(name: str) -> sp.Basic:
    from proofs_check.papers.xu_ziyin2025 import scaling

    return getattr(scaling, name)


def _row_statement(key: str) -> Callable[[], str]:
    def statement() -> str:
        from proofs_check.papers.xu_ziyin2025.phase import PARAMETRIZATIONS, QUANTITIES

        p = PARAMETRIZATIONS[key]
        e_b, regime, _ = TABLE[key]
        predicted = ", ".join(f"{q} ∝ d^{p.predicted[q]}" for q in QUANTITIES)
        return f"{p.label}: e_B = {e_b}, {regime}; {predicted}"

    return statement


PAPER.claim(
    "phase.e_B",
    sp.Eq(e_B, E_B_PRINTED),
    where=spec("§4.1"),
    assume=(
        "variance convention: Var uᵢ(0) ∝ κ^{c_u}, Var wᵢ(0) ∝ κ^{c_w}",
        "law of large numbers: P, Q = d (η_w σ_u² + η_u σ_w²)(1 + O(d^{−1/2}))",
        NO_EQUATION,
    ),
    check=lambda: all_of(
        derivation_steps(_derivation(), ["4.1.lln", "4.1.exponent", "4.1"]),
        identities([_scaling("E_B") - E_B_PRINTED]),
    )(),
)
PAPER.claim(
    "phase.boundary",
    BOUNDARY_PRINTED,
    where=spec("§4.2"),
    assume=("e_B equals rhs − lhs identically, so the sign of e_B also tells the side of the boundary", NO_EQUATION),
    check=lambda: all_of(
        derivation_steps(_derivation(), ["4.2.boundary"]),
        identities(
            [
                _scaling("PHASE_BOUNDARY").lhs - BOUNDARY_PRINTED.lhs,
                _scaling("PHASE_BOUNDARY").rhs - BOUNDARY_PRINTED.rhs,
            ]
        ),
    )(),
)
PAPER.claim(
    "phase.abc_exponents",
    "e_B is invariant under the exponent-level abc-map c_u, c_w → +2ϑ, c_γ → −2ϑ, c_η → +2ϑ",
    where=spec("§4.5, §8"),
    assume=(
        "§8's c_u, c_w are exponents of the weight scale (standard deviation); on the variance exponents of §4.1 the "
        "map is c_u, c_w → +2ϑ (u → κ^ϑ u scales Var u by κ^{2ϑ}), which is what is proved",
        "read literally on variance exponents (+ϑ) the map shifts e_B by +ϑ (derivation step 8.abc)",
        NO_EQUATION,
    ),
    check=lambda: all_of(
        derivation_steps(_derivation(), ["4.5.abc", "8.abc"]),
        identities([_scaling("ABC_MAP")[c] - image for c, image in ABC_VARIANCE_MAP.items()]),
    )(),
)
PAPER.claim(
    "phase.balanced",
    "B is largest at balanced learning rates η_u σ_w² = η_w σ_u² (only η_u/η_w matters)",
    where=spec("§4.1"),
    assume=(
        "law of large numbers for P, Q; also exactly at finite width with σ² replaced by |u₀|²/d, |w₀|²/d",
        NO_EQUATION,
    ),
    check=lambda: derivation_steps(_derivation(), ["4.1.ratio", "4.1.balanced", "4.1.balanced.exact"])(),
)
for _key in TABLE:
    PAPER.claim(
        f"phase.table.{_key}",
        _row_statement(_key),
        where=spec("§4.3"),
        assume=(
            "κ = d, η_u = η_w = 1, a = b = 1; Θ(1) read as exponent 0",
            "ΔK/K measured as the median of |K_∞/K_0 − 1| over initializations at t → ∞",
            NO_EQUATION,
        ),
        check=_table_row(_key),
        # one group per parametrization (with its δ claim, which reuses its draws): the rows share no work with
        # each other, so the two workers can run them at once
        shared_work=f"xu_ziyin2025.phase.{_key}",
    )
