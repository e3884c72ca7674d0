"""The worker schedule of ``proofs_check.runner``: groups (sections, joined by the claims declared with
``shared_work=``) stay on one worker, longest first."""

from __future__ import annotations

import pytest

from proofs_check import Outcome, Paper
from proofs_check.claims import Claim, section
from proofs_check.papers import load_papers, work_group
from proofs_check.runner import _groups, _Queue


def claims_of(*ids: str, shared: dict[str, str] | None = None) -> list[Claim]:
    """Claims of a throwaway paper ``p`` with the local ``ids``; ``shared`` maps a local id to its shared_work."""
    paper = Paper("p", "schedule", ("A. Test",), "test", 2026)
    shared = shared or {}
    return [
        paper.claim(i, "text", where="§1", check=lambda: Outcome.proved("m"), shared_work=shared.get(i, ""))
        for i in ids
    ]


def test_section_is_the_first_two_parts_of_the_id() -> None:
    assert section("kunin2025.kappa3.jump_times") == "kunin2025.kappa3"
    assert section("nam2025.eq6") == "nam2025.eq6"


def test_sections_start_longest_first_and_stay_on_one_worker() -> None:
    ids = ["p.a.x", "p.b.x", "p.a.y", "p.c.x", "p.b.y"]
    seconds = {"p.a.x": 0.9, "p.a.y": 2.0, "p.b.x": 4.0, "p.b.y": 0.5, "p.c.x": 3.0}
    claims = claims_of(*(i.removeprefix("p.") for i in ids))
    groups = _groups(claims, lambda i: seconds[ids[i]])
    assert [[ids[i] for i in g] for g in groups] == [["p.b.x", "p.b.y"], ["p.c.x"], ["p.a.y", "p.a.x"]]
    queue = _Queue(groups)
    taken = [(slot, ids[queue.next(slot)]) for slot in (0, 1, 0, 1, 1)]
    assert taken == [(0, "p.b.x"), (1, "p.c.x"), (0, "p.b.y"), (1, "p.a.y"), (1, "p.a.x")]
    assert queue.next(0) is None and queue.next(1) is None


def test_a_group_of_several_sections_stays_together() -> None:
    claims = claims_of("a.x", "b.x", "c.x")
    groups = _groups(claims, lambda i: 1.0, lambda claim_id: "ab" if claim_id < "p.c" else claim_id)
    assert groups == [[0, 1], [2]]
    queue = _Queue(groups)
    assert [queue.next(0), queue.next(1), queue.next(1), queue.next(0)] == [0, 2, None, 1]


def test_a_claim_declared_with_shared_work_joins_that_section() -> None:
    claims = claims_of("a.x", "b.x", "b.y", shared={"a.x": "p.b"})
    assert [c.work_group for c in claims] == ["p.b", "p.b", "p.b"]
    assert [work_group(c) for c in claims] == ["p.b", "p.b", "p.b"]
    assert _groups(claims, lambda i: 1.0) == [[0, 1, 2]]
    # without the declaration the claim stays in its own section
    assert _groups(claims_of("a.x", "b.x", "b.y"), lambda i: 1.0) == [[1, 2], [0]]


def test_bad_shared_work_is_refused_naming_the_claim() -> None:
    with pytest.raises(ValueError, match=r"shared_work of claim 'p\.a'"):
        claims_of("a", shared={"a": "p. b"})
    with pytest.raises(TypeError, match="claim must be a Claim or a claim id"):
        work_group(3)


def test_the_delta_claims_run_with_the_phase_rows_they_reuse() -> None:
    """The paper declares it (xu_ziyin2025/claims_alignment.py), not the loader."""
    paper = load_papers(["xu_ziyin2025"]).paper("xu_ziyin2025")
    claim = paper["alignment.delta.xavier"]
    assert (
        claim.work_group == work_group(claim) == paper["phase.table.xavier"].work_group == "xu_ziyin2025.phase.xavier"
    )
    # the rows of other parametrizations share no draws with it: they may run on the other worker at once
    assert paper["phase.table.ntk"].work_group != claim.work_group
    assert work_group("xu_ziyin2025.alignment.delta.xavier") == "xu_ziyin2025.alignment"  # an id alone: its section
