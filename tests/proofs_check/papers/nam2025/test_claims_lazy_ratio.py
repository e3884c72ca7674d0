"""Nam et al. 2025 §6, Fig. 6(b), App. F.4: without λ-balance a larger weight-to-target ratio makes the matrix
network lazy. The claim's status, the symmetrised initialization against its definition, input checks, and wrong
variants refuted: laziness falling with the ratio (the opposite trend) and a drop larger than the one observed."""

from __future__ import annotations

import numpy as np
import pytest

from proofs_check.claims import Status
from proofs_check.papers.nam2025 import claims_lazy_ratio as lr
from proofs_check.papers.nam2025.lazy_ratio import ratio_sweep, symmetrised_weights


def test_statuses(check_statuses):
    check_statuses("nam2025", ("nam2025.fig6b.",), set(), {"fig6b.ratio_lazy"})


def test_symmetrised_init_is_the_authors():
    """W₁ = σ₁[A; A]ᵀ and W₂ = σ₂[B, −B]ᵀ: the product vanishes, paired hidden units are copies, and the layer
    scales are 0.1 + max(±λ, 0) (λ = 0.5 makes W₁ six times heavier than at λ = 0, W₂ unchanged)."""
    W1, W2 = symmetrised_weights([0.0, 0.5, -0.5], d=4, p=6, c=3)
    assert W1.shape == (3, 4, 6) and W2.shape == (3, 6, 3)
    assert np.max(np.abs(W1 @ W2)) < 1e-14  # sums of x·y − x·y: zero up to round-off
    assert np.array_equal(W1[:, :, :3], W1[:, :, 3:]) and np.array_equal(W2[:, :3], -W2[:, 3:])
    np.testing.assert_allclose(W1[1] / W1[0], 6.0)
    np.testing.assert_allclose(W2[1], W2[0])
    np.testing.assert_allclose(W2[2] / W2[0], 6.0)
    np.testing.assert_allclose(W1[2], W1[0])


@pytest.mark.parametrize(
    "kwargs, name",
    [({"p": 5}, "p"), ({"sigma": 0.0}, "sigma"), ({"d": 0}, "d")],
)
def test_bad_init_arguments_are_refused(kwargs, name):
    with pytest.raises(ValueError, match=name):
        symmetrised_weights([0.0], **kwargs)


@pytest.mark.parametrize(
    "kwargs, name",
    [({"scales": [1.0, 0.0]}, "scales"), ({"lambdas": []}, "lambdas"), ({"lr": -1.0}, "lr"), ({"steps": 0}, "steps")],
)
def test_bad_sweep_arguments_are_refused(kwargs, name):
    arguments = {"lambdas": [0.0], "scales": [1.0], "d": 4, "p": 4, "steps": 1, **kwargs}
    with pytest.raises(ValueError, match=name):
        ratio_sweep(**arguments)


def test_the_ratio_grows_with_the_scale():
    """At fixed weights the ratio is proportional to the scale (the target is Y/scale)."""
    sweep = ratio_sweep([0.0], [1.0, 2.0, 8.0], d=4, p=4, steps=1)
    np.testing.assert_allclose(sweep.ratio[0] / sweep.ratio[0, 0], [1.0, 2.0, 8.0])


def test_the_opposite_trend_is_refuted():
    assert lr.ratio_check(direction=1).status is Status.REFUTED


def test_a_larger_drop_than_observed_is_refuted():
    assert lr.ratio_check(drop={"kernel": 1e3, "weight_change": 1e4}).status is Status.REFUTED
