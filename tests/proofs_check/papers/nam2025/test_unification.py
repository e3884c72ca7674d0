"""Spec §7: every model's mode obeys s' = r sqrt(l^2 + 4 s^2)(S - s), from its own closed form."""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest
import sympy as sp

from derivations.proof import prove_zero
from proofs_check.papers.nam2025.unification import unification_rows

NAMES = ["linear_model", "diagonal_linear_network", "deep_linear_whitened", "lambda_balanced", "two_layer_scalar"]


@cache
def rows() -> dict:
    """The table, built on first use (each row solves its model: about 25 s, not to be paid at collection)."""
    return {row.model: row for row in unification_rows()}


def test_the_table_has_the_spec_rows() -> None:
    assert list(rows()) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_row_residuals_vanish(name) -> None:
    assert all(prove_zero(r).holds for r in rows()[name].residuals())


@pytest.mark.parametrize("name", ["diagonal_linear_network", "lambda_balanced", "two_layer_scalar"])
def test_a_wrong_rate_or_imbalance_is_refuted(name) -> None:
    row = rows()[name]
    assert not prove_zero(dataclasses.replace(row, rate=2 * row.rate).residuals()[0]).holds
    assert not prove_zero(dataclasses.replace(row, ell_squared=2 * row.ell_squared).residuals()[1]).holds


def test_scalar_row_uses_the_effective_imbalance() -> None:
    """l_eff^2 = 4 (Sigma0^2 - S0^2) at width 2 (spec §5 'hidden lambda-balanced structure')."""
    row = rows()["two_layer_scalar"]
    a1, a2, b1, b2 = (sp.Symbol(n, real=True) for n in ("a_1(0)", "a_2(0)", "b_1(0)", "b_2(0)"))
    Z = sp.Symbol("Z", positive=True)
    sigma0 = (a1**2 + a2**2 + b1**2 + b2**2) / (2 * Z)
    s0 = (a1 * b1 + a2 * b2) / Z
    assert sp.expand(row.ell_squared - 4 * (sigma0**2 - s0**2)) == 0
