"""The worker schedule of ``proofs_check.runner``: groups (sections by default) stay on one worker, longest first."""

from __future__ import annotations

from types import SimpleNamespace

from proofs_check.runner import _groups, _Queue, section


def test_section_is_the_first_two_parts_of_the_id() -> None:
    assert section("kunin2025.kappa3.jump_times") == "kunin2025.kappa3"
    assert section("nam2025.eq6") == "nam2025.eq6"


def test_sections_start_longest_first_and_stay_on_one_worker() -> None:
    ids = ["p.a.x", "p.b.x", "p.a.y", "p.c.x", "p.b.y"]
    seconds = {"p.a.x": 0.9, "p.a.y": 2.0, "p.b.x": 4.0, "p.b.y": 0.5, "p.c.x": 3.0}
    claims = [SimpleNamespace(id=i) for i in ids]
    groups = _groups(claims, lambda i: seconds[ids[i]])
    assert [[ids[i] for i in g] for g in groups] == [["p.b.x", "p.b.y"], ["p.c.x"], ["p.a.y", "p.a.x"]]
    queue = _Queue(groups)
    taken = [(slot, ids[queue.next(slot)]) for slot in (0, 1, 0, 1, 1)]
    assert taken == [(0, "p.b.x"), (1, "p.c.x"), (0, "p.b.y"), (1, "p.a.y"), (1, "p.a.x")]
    assert queue.next(0) is None and queue.next(1) is None


def test_a_group_of_several_sections_stays_together() -> None:
    claims = [SimpleNamespace(id=i) for i in ("p.a.x", "p.b.x", "p.c.x")]
    groups = _groups(claims, lambda i: 1.0, lambda claim_id: "ab" if claim_id < "p.c" else claim_id)
    assert groups == [[0, 1], [2]]
    queue = _Queue(groups)
    assert [queue.next(0), queue.next(1), queue.next(1), queue.next(0)] == [0, 2, None, 1]
