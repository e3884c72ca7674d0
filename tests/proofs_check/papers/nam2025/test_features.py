"""Feature maps (Nam et al. 2025, App. B; the skill functions of eq 11), the emergence model and the half-time
derivation: exact moments from the definitions, bad input rejected, a wrong expectation caught."""

from __future__ import annotations

import pytest
import sympy as sp

from derivations import models
from derivations.models.emergence import skill_frequencies
from proofs_check.papers.nam2025.features import (
    feature_loss,
    finite_expectation,
    gaussian_expectation,
    gram,
    hermite_features,
    sparse_parity_skills,
)
from proofs_check.papers.nam2025.half_time import half_time

x = sp.Symbol("x", real=True)


def test_gaussian_moments_and_hermite_orthogonality():
    expectation = gaussian_expectation(x)
    assert [expectation(x**m) for m in range(7)] == [1, 0, 1, 0, 3, 0, 15]
    assert gram(hermite_features(4, x), expectation) == sp.diag(1, 2, 6, 24)
    monomials = (x, x**2, x**3)
    assert gram(monomials, expectation)[0, 2] == 3  # not orthogonal: the App. B condition fails


def test_skill_functions_are_mutually_exclusive_with_their_frequencies():
    frequencies = sp.symbols("P_1:4", positive=True)
    skills = sparse_parity_skills(frequencies, n_bits=3, order=2)
    assert gram(skills.functions, skills.expectation) == sp.diag(*frequencies)
    assert skills.expectation(sp.S.One) == sum(frequencies)
    point = skills.input(1, (1, -1, 1))
    assert [g.xreplace(point) for g in skills.functions] == [0, -1, 0]


def test_feature_loss_of_the_emergence_model_is_its_own_loss():
    frequencies = sp.symbols("P_1:4", positive=True)
    skills = sparse_parity_skills(frequencies, n_bits=3)
    inst = models.get("emergence").instance(3)
    assert sp.expand(feature_loss(inst, skills.functions, skills.expectation) - inst.loss) == 0
    halved = finite_expectation([(w / 2, values) for w, values in skills.points])  # a wrong normalization
    assert sp.expand(feature_loss(inst, skills.functions, halved) - inst.loss) != 0


def test_skill_frequencies():
    frequencies = skill_frequencies(4, 1)
    assert sum(frequencies) == 1 and frequencies[1] / frequencies[0] == sp.Rational(1, 4)
    alpha = sp.Symbol("alpha", positive=True)
    assert sp.simplify(skill_frequencies(3, alpha)[2] / skill_frequencies(3, alpha)[0] - 3 ** (-alpha - 1)) == 0


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: skill_frequencies(0, 1), "n_skills"),
        (lambda: skill_frequencies(3, -2), "alpha"),
        (lambda: hermite_features(0, x), "n must be"),
        (lambda: gaussian_expectation(x)(sp.exp(x)), "polynomial"),
        (lambda: sparse_parity_skills((sp.S.Half, sp.S.Half), n_bits=1, order=2), "order"),
        (lambda: feature_loss(models.get("emergence").instance(2), (x,), gaussian_expectation(x)), "one feature"),
    ],
)
def test_bad_input_is_rejected(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_half_time_derivation_checks_and_is_the_solved_root():
    derived = half_time(models.get("emergence"))
    assert all(c.proof.holds and c.proof.exact for c in derived.derivation.check())
    value = derived.product.xreplace({derived.t: derived.t_half})
    assert sp.simplify(value - sp.Symbol("S", positive=True) / 2) == 0
