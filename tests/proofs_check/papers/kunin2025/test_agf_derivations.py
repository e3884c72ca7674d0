"""Derivations behind the new Kunin et al. 2025 claims: eq. 2 (``agf_utility``), Theorem 3.1's reduction and limits
(``dln_limit``), Theorem 5.2 (``modular_harmonics``); each identity holds and a wrong variant of it fails."""

from __future__ import annotations

import pytest
import sympy as sp

from derivations.proof import prove_zero
from proofs_check.papers.kunin2025 import agf_utility as au
from proofs_check.papers.kunin2025 import dln_limit, modular_harmonics


def _zero(lhs, rhs) -> bool:
    left, right = (list(side) if isinstance(side, sp.MatrixBase) else [side] for side in (lhs, rhs))
    return all(prove_zero(a - b).holds for a, b in zip(left, right, strict=True))


@pytest.mark.parametrize("kappa", au.KAPPAS)
def test_utility_identities_and_a_wrong_degree(kappa) -> None:
    assert _zero(*au.gradient(kappa))
    assert _zero(*au.euler(kappa))
    assert _zero(*au.norm_rate(kappa))
    assert _zero(*au.direction_rate(kappa))
    scaled, gap = au.dormant_gap(kappa)
    assert _zero(scaled, au.scale ** (2 * kappa - 1) * gap)
    assert not _zero(scaled, au.scale ** (2 * kappa) * gap)
    lhs, kappa_u = au.euler(kappa)
    assert not _zero(lhs, kappa_u * (kappa - 1) / kappa)


def test_the_gradient_is_against_the_whole_residual() -> None:
    """With the active neuron's residual only (no dormant self-interaction) the gradient identity fails: the gap."""
    _, gap = au.dormant_gap(3)
    assert any(not prove_zero(g).holds for g in gap)


def test_thresholds() -> None:
    computed, spec = au.threshold_integrals()
    assert _zero(computed, spec)
    assert not _zero(computed, 2 * spec)


def test_mirror_flow_and_limits() -> None:
    lhs, rhs = dln_limit.mirror_flow()
    assert all(prove_zero((a - b).rewrite(sp.exp)).holds for a, b in zip(lhs, rhs, strict=True))
    assert not prove_zero((lhs[0] + rhs[0]).rewrite(sp.exp)).holds
    limits, values = dln_limit.dormant_limits()
    assert limits == values


def test_modular_harmonics() -> None:
    h = modular_harmonics.harmonics(1)
    assert len(h) == 9 and (-1, -1) in h
    loss, bound, energy = modular_harmonics.loss_identity()
    assert sp.expand(loss - bound - energy) == 0
    assert sp.expand(loss - bound - 2 * energy) != 0
    fraction = modular_harmonics.single_neuron_fraction()
    u2, v2 = modular_harmonics.u2, modular_harmonics.v2
    assert sp.simplify(fraction.subs(v2, u2)) == sp.Rational(1, 9)
    assert sp.simplify(fraction.subs({u2: 1, v2: 2})) < sp.Rational(1, 9)


def test_six_cyclic_neurons_fit_and_other_cycles_do_not() -> None:
    assert all(prove_zero(c).holds for c in modular_harmonics.cyclic_fit().values())
    wrong = modular_harmonics.cyclic_fit(1, 2, 6)  # the harmonic z_a z_b (2s + 2t = 6) survives
    assert not all(prove_zero(c).holds for c in wrong.values())
