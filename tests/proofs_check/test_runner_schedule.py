"""The worker schedule of ``proofs_check.runner``: sections stay on one worker, longest first, and idle workers take
the last claims of the busiest section."""

from __future__ import annotations

from types import SimpleNamespace

from proofs_check.runner import _Queue, _sections, section


def test_section_is_the_first_two_parts_of_the_id() -> None:
    assert section("kunin2025.kappa3.jump_times") == "kunin2025.kappa3"
    assert section("nam2025.eq6") == "nam2025.eq6"


def test_sections_start_longest_first_and_stay_on_one_worker() -> None:
    ids = ["p.a.x", "p.b.x", "p.a.y", "p.c.x", "p.b.y"]
    seconds = {"p.a.x": 0.9, "p.a.y": 2.0, "p.b.x": 4.0, "p.b.y": 0.5, "p.c.x": 3.0}
    claims = [SimpleNamespace(id=i) for i in ids]
    groups = _sections(claims, lambda i: seconds[ids[i]])
    assert [[ids[i] for i in g] for g in groups] == [["p.b.x", "p.b.y"], ["p.c.x"], ["p.a.y", "p.a.x"]]
    queue = _Queue(groups)
    taken = [(slot, ids[queue.next(slot)]) for slot in (0, 1, 0, 1, 0)]
    assert taken == [(0, "p.b.x"), (1, "p.c.x"), (0, "p.b.y"), (1, "p.a.y"), (0, "p.a.x")]
    assert queue.next(0) is None and queue.next(1) is None


def test_an_idle_worker_takes_the_last_claim_of_the_busiest_section() -> None:
    queue = _Queue([[0, 1, 2, 3]])
    assert queue.next(0) == 0
    assert queue.next(1) == 3
    assert [queue.next(0), queue.next(0), queue.next(1)] == [1, 2, None]
