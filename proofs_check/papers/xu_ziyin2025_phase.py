"""Phase-diagram claims of Xu & Ziyin 2025 (spec ``models-xu-ziyin2025.md`` §4.1-4.3, §4.5, §8).

The paper's body is not available: the statements below are the spec's reconstruction, and the paper's own
equation numbers for them are unknown, so each citation names the spec section only. :func:`claims` builds the
claims without registering them (the paper module ``xu_ziyin2025`` does). The exact claims are the steps of
``derivations.scaling.DERIVATION`` plus an identity with the spec's printed form; the §4.3 table rows are
supported by width fits of the exact solution (``numerics.phase``) and refuted if a fit misses by more than
``numerics.phase.TOLERANCE``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import sympy as sp

from derivations import scaling
from derivations.scaling import C_D, C_ETA_U, C_ETA_W, C_GAMMA, C_U, C_W
from numerics.phase import PARAMETRIZATIONS, QUANTITIES, TABLE_SEEDS, TABLE_WIDTHS, TOLERANCE, phase, width_sweep
from proofs_check.checkers import all_of, derivation_steps, identities
from proofs_check.claims import Citation, Claim, Outcome

__all__ = ["claims"]

PAPER = "xu_ziyin2025"
NO_EQUATION = "the paper's equation number is unknown (body text unavailable)"

# the spec's printed forms (§4.1, §4.2, §8)
E_B_PRINTED = -C_GAMMA - C_D - (C_U + C_W) / 2 - sp.Abs(C_ETA_W - C_ETA_U + C_U - C_W) / 2
BOUNDARY_PRINTED = sp.Eq(C_GAMMA + C_D + sp.Max(C_ETA_W + C_U, C_ETA_U + C_W), (C_ETA_U + C_ETA_W) / 2)
_t = scaling.vartheta
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


def _claim(cid: str, section: str, title: str, statement: object, check: Callable[[], Outcome], *assumptions: str):
    citation = Citation(PAPER, f"Xu & Ziyin 2025 (spec {section}; reconstructed)", section, "")
    return Claim(f"{PAPER}.phase.{cid}", citation, statement, check, (*assumptions, NO_EQUATION), title)


def _table_row(key: str) -> Callable[[], Outcome]:
    """e_B and phase as in the table, fitted exponents within TOLERANCE, Θ(1) limit within LIMIT_TOLERANCE."""

    def check() -> Outcome:
        p = PARAMETRIZATIONS[key]
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


def claims() -> list[Claim]:
    """The phase-diagram claims (not registered); checking all of them takes about 15 s."""
    der = scaling.DERIVATION
    out = [
        _claim(
            "e_B",
            "§4.1",
            "B ∝ κ^{e_B}, e_B = −c_γ − c_d − (c_u + c_w)/2 − |c_ηw − c_ηu + c_u − c_w|/2",
            sp.Eq(sp.Symbol("e_B"), E_B_PRINTED),
            all_of(derivation_steps(der, ["4.1.lln", "4.1.exponent", "4.1"]), identities([scaling.E_B - E_B_PRINTED])),
            "variance convention: Var u_i(0) ∝ κ^{c_u}, Var w_i(0) ∝ κ^{c_w}",
            "law of large numbers: P, Q = d (η_w σ_u² + η_u σ_w²)(1 + O(d^{-1/2}))",
        ),
        _claim(
            "boundary",
            "§4.2",
            "Phase boundary e_B = 0 ⇔ c_γ + c_d + max(c_ηw + c_u, c_ηu + c_w) = (c_ηu + c_ηw)/2",
            BOUNDARY_PRINTED,
            all_of(
                derivation_steps(der, ["4.2.boundary"]),
                identities(
                    [
                        scaling.PHASE_BOUNDARY.lhs - BOUNDARY_PRINTED.lhs,
                        scaling.PHASE_BOUNDARY.rhs - BOUNDARY_PRINTED.rhs,
                    ]
                ),
            ),
            "e_B equals rhs − lhs identically, so the sign of e_B also tells the side of the boundary",
        ),
        _claim(
            "abc_exponents",
            "§4.5, §8",
            "e_B is invariant under the exponent-level abc-map c_u, c_w → +ϑ, c_γ → −2ϑ, c_η → +2ϑ",
            sp.Eq(scaling.E_B.xreplace(ABC_VARIANCE_MAP), scaling.E_B, evaluate=False),
            all_of(
                derivation_steps(der, ["4.5.abc", "8.abc"]),
                identities([scaling.ABC_MAP[c] - image for c, image in ABC_VARIANCE_MAP.items()]),
            ),
            "§8's c_u, c_w are exponents of the weight scale (standard deviation); on the variance exponents of "
            "§4.1 the map is c_u, c_w → +2ϑ (u → κ^ϑ u scales Var u by κ^{2ϑ}), which is what is proved",
            "read literally on variance exponents (+ϑ) the map shifts e_B by +ϑ (derivation step 8.abc)",
        ),
        _claim(
            "balanced",
            "§4.1",
            "B is largest at balanced learning rates η_u σ_w² = η_w σ_u² (only η_u/η_w matters)",
            sp.Eq(scaling.eta_u * scaling.var_w, scaling.eta_w * scaling.var_u),
            derivation_steps(der, ["4.1.ratio", "4.1.balanced", "4.1.balanced.exact"]),
            "law of large numbers for P, Q; also exactly at finite width with σ² replaced by |u_0|²/d, |w_0|²/d",
        ),
    ]
    for key, p in PARAMETRIZATIONS.items():
        e_b, regime, _ = TABLE[key]
        predicted = ", ".join(f"{q} ∝ d^{p.predicted[q]}" for q in QUANTITIES)
        out.append(
            _claim(
                f"table.{key}",
                "§4.3",
                f"{p.label}: e_B = {e_b}, {regime}; {predicted}",
                f"{p.label}: {predicted}",
                _table_row(key),
                "κ = d, η_u = η_w = 1, a = b = 1; Θ(1) read as exponent 0",
                "ΔK/K measured as the median of |K_∞/K_0 − 1| over initializations at t → ∞",
            )
        )
    return out
