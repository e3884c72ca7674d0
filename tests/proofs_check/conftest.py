"""Helpers shared by the claim tests: the statuses of a paper's claims selected by id, and an experiment whose
measure is a wrong variant (so that a test can show it refuted against the claim's own tolerance)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from proofs_check import Paper
from proofs_check.claims import Claim, Status
from proofs_check.papers import load_papers
from proofs_check.runner import run_claims


@pytest.fixture(scope="session")
def check_statuses() -> Callable[..., None]:
    """``check(paper, prefixes, proved, numeric)``: the paper's claims under ``prefixes`` are exactly ``proved`` ∪
    ``numeric`` (ids without the paper's prefix) plus ``unchecked``, and checking gives each its status."""

    def check(
        paper: str, prefixes: tuple[str, ...], proved: Iterable[str], numeric: Iterable[str], unchecked=()
    ) -> None:
        expected = {**dict.fromkeys(proved, Status.PROVED), **dict.fromkeys(numeric, Status.NUMERIC)}
        selected = [c for c in load_papers([paper]).claims(paper) if c.id.startswith(prefixes)]
        assert {c.id.removeprefix(f"{paper}.") for c in selected} == {*expected, *unchecked}
        records = run_claims([c for c in selected if c.id.removeprefix(f"{paper}.") in expected])
        assert {r.claim.id.removeprefix(f"{paper}."): r.outcome.status for r in records} == expected

    return check


@pytest.fixture(scope="session")
def wrong_experiment() -> Callable[..., Claim]:
    """``build(measure, tolerance, expected=0.0)``: an experiment of a throwaway paper with that measure."""

    def build(measure: Callable[[], object], tolerance: float, expected: float = 0.0) -> Claim:
        paper = Paper("variant", "wrong variants", ("A. Test",), "test", 2026)
        quantity = paper.symbol("q", "q", real=True)
        return paper.experiment("x", measure, quantity=quantity, tolerance=tolerance, expected=expected, where="test")

    return build
