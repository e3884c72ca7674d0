"""Claim nam2025.fig6a.scale_axis (issue 13, item 4): the authors' Fig. 6a axis against the package's, and its
wrong variants refuted."""

from __future__ import annotations

import numpy as np
import pytest

import proofs_check.papers.nam2025.lazy_rich as lazy_rich
from proofs_check.checkers import identities
from proofs_check.claims import Status
from proofs_check.papers.nam2025 import claims_matrix as nam2025_matrix


def test_the_authors_initializer_gives_sqrt_scale() -> None:
    assert identities(nam2025_matrix._authors_initializer())().status is Status.PROVED


def test_the_squared_form_is_refuted() -> None:
    """Had ``scale`` entered as S² (their SVD-based initializers), the product would be ``scale``, not its root."""
    assert identities(nam2025_matrix._authors_initializer(power=2))().status is Status.REFUTED


@pytest.mark.slow
def test_the_correspondence_holds() -> None:
    outcome = nam2025_matrix._scale_axis()
    assert outcome.status is Status.NUMERIC, outcome.detail


@pytest.mark.parametrize("rho0", [lambda scales: scales, lambda scales: np.ones_like(scales)])
def test_a_wrong_authors_setting_is_refuted(monkeypatch: pytest.MonkeyPatch, rho0) -> None:
    """rho0 = scale or rho0 = 1 in the authors' setting breaks the rescaling to the fixed setting."""
    right = lazy_rich.initial_singular_values

    def wrong(scales: np.ndarray, setting: str, value: float) -> np.ndarray:
        return rho0(scales) if setting == "authors" else right(scales, setting, value)

    monkeypatch.setattr(lazy_rich, "initial_singular_values", wrong)
    assert nam2025_matrix._scale_axis().status is Status.REFUTED
