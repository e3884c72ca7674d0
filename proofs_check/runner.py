"""Run claim checks, timing each and turning failures into ERROR outcomes; optionally in worker processes.

With ``jobs > 1`` or a ``timeout`` every check runs in a forked worker process (a worker keeps its caches across
claims, so derived objects are computed once per worker). The claims of one group (by default their :func:`section`,
the id's first two parts, e.g. ``kunin2025.kappa3``, joined by the claims declared with ``shared_work=`` that
section) share such computations, so a worker that starts a group runs all of it, and groups start longest
(expected) first. A check that overruns ``timeout`` seconds has its worker killed and is reported as an ERROR whose
detail says "timeout", and a new worker takes its place. Where processes cannot be forked (Windows), the checks run
in this process, without a timeout.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.context import ForkContext

from derivations.prose import text_latex
from proofs_check.citation import Citation
from proofs_check.claims import Claim, section
from proofs_check.outcome import PAPER_CHECK, Outcome

__all__ = ["ClaimText", "Record", "run_check", "run_claims", "section"]


@dataclass(frozen=True)
class ClaimText:
    """A claim as reported: id, citation, the statement as text and the claim's LaTeX paragraph, assumptions."""

    id: str
    citation: Citation
    statement: str
    latex: str
    assumptions: tuple[str, ...] = ()

    @classmethod
    def of(cls, claim: Claim) -> ClaimText:
        """The report view of ``claim``; a statement that cannot be built is shown as the error it raises."""
        try:
            statement, latex = str(claim.statement), claim.latex()
        except Exception as exc:  # the statement's own error is what the report must show
            statement = f"(statement not available: {type(exc).__name__}: {exc})"
            latex = f"\\paragraph{{\\texttt{{{text_latex(claim.id)}}}}} {text_latex(statement)}"
        return cls(claim.id, claim.citation, statement, latex, tuple(str(a) for a in claim.assumptions))

    @classmethod
    def unbuilt(cls, claim: Claim, why: str) -> ClaimText:
        """The report view of a claim whose check did not finish: its statement is not built here (that may be
        what hung)."""
        text = f"(statement not built: {why})"
        heading = f"\\paragraph{{\\texttt{{{text_latex(claim.id)}}}}} {text_latex(claim.citation.reference)}."
        latex = f"{heading} {text_latex(text)}"
        return cls(claim.id, claim.citation, text, latex, tuple(str(a) for a in claim.assumptions))


@dataclass(frozen=True)
class Record:
    """A claim together with the outcome of its check and the wall time it took."""

    claim: ClaimText
    outcome: Outcome
    seconds: float

    def to_json(self) -> dict:
        """Flat JSON-serialisable view of the claim, its citation and its outcome.

        Returns:
            One dict of the claim's id, text, LaTeX and assumptions, its citation's fields (``paper``,
            ``reference``, ``section``, ``equation``, ``derived``), the outcome's fields (:meth:`Outcome.to_json`)
            and ``seconds`` (:meth:`from_json` reads it back).
        """
        claim, citation = self.claim, self.claim.citation
        return {
            "id": claim.id,
            "paper": citation.paper,
            "reference": citation.reference,
            "section": citation.section,
            "equation": citation.equation,
            "derived": citation.derived,
            "statement": claim.statement,
            "latex": claim.latex,
            "assumptions": list(claim.assumptions),
            **self.outcome.to_json(),
            "seconds": self.seconds,
        }

    @classmethod
    def from_json(cls, data: Mapping) -> Record:
        """The inverse of :meth:`to_json`."""
        citation = Citation(
            data["paper"],
            data["reference"],
            data.get("section", ""),
            data.get("equation", ""),
            bool(data.get("derived", False)),
        )
        text = ClaimText(data["id"], citation, data["statement"], data["latex"], tuple(data.get("assumptions", ())))
        return cls(text, Outcome.from_json(data), float(data["seconds"]))


def run_check(claim: Claim) -> Outcome:
    """Build the statement (bad use is an error of the claim), then call ``claim.check``; an exception or a
    non-Outcome return value becomes an ERROR outcome. An outcome that names no route (a paper's own ``check=``
    function building it directly) is marked as decided by that function (route ``paper-check``)."""
    try:
        claim.statement, claim.corrected  # noqa: B018 - raise ValueError naming the claim on bad use
        outcome = claim.check()
    except Exception as exc:
        return Outcome.error(f"{type(exc).__name__}: {exc}")
    if not isinstance(outcome, Outcome):
        return Outcome.error(f"check returned {type(outcome).__name__}, not Outcome")
    return outcome if outcome.routes else outcome.with_routes((PAPER_CHECK,))


def _execute(claim: Claim) -> Record:
    start = time.perf_counter()
    outcome = run_check(claim)
    return Record(ClaimText.of(claim), outcome, time.perf_counter() - start)


Progress = Callable[[int, int, Record], None]
UNKNOWN_SECONDS = 1.0
"""Expected duration of a claim never timed before (for the order of dispatch)."""


def _groups(
    claims: Sequence[Claim], seconds: Callable[[int], float], group: Callable[[str], str] | None = None
) -> list[list[int]]:
    """Claim indices grouped by ``group(claim id)`` (default: each claim's :attr:`Claim.work_group`), longest
    expected total first; each group longest claim first."""
    groups: dict[str, list[int]] = {}
    for i, claim in enumerate(claims):
        groups.setdefault(claim.work_group if group is None else group(claim.id), []).append(i)
    ordered = [sorted(g, key=lambda i: -seconds(i)) for g in groups.values()]
    return sorted(ordered, key=lambda g: -sum(map(seconds, g)))


def run_claims(
    claims: Sequence[Claim],
    progress: Progress | None = None,
    jobs: int = 1,
    timeout: float | None = None,
    expected: Mapping[str, float] | None = None,
    group: Callable[[str], str] | None = None,
) -> list[Record]:
    """Check each claim (:func:`run_check`: a failing check is an ERROR outcome, not an exception).

    ``jobs`` worker processes run the checks when ``jobs > 1`` or ``timeout`` is set, each worker one whole group at
    a time, the group of the longest ``expected`` seconds (summed over the group) first; otherwise (or where
    processes cannot be forked) they run in this process, one after the other.

    Arguments:
        claims: the claims to check.
        progress: None, or a callable ``progress(k, n, record)`` called as the k-th of the n checks finishes.
        jobs: the number of worker processes, an integer >= 1 (at most one per claim is started).
        timeout: None, or the seconds (> 0) a check may run in its worker before the worker is killed and the
            claim reported as an ERROR whose detail says "timeout".
        expected: the expected seconds by claim id (e.g. from the last run), for the order of dispatch; a claim
            not in it counts :data:`UNKNOWN_SECONDS`.
        group: None, or a callable from a claim id to its group (claims with one group run in one worker); by
            default a claim's :attr:`Claim.work_group <proofs_check.claims.Claim.work_group>`: a section, with the
            claims that share its work.

    Returns:
        One :class:`Record` per claim, in the order of ``claims``.

    Raises:
        ValueError: ``jobs`` is not an integer >= 1, or ``timeout`` is not > 0.
    """
    if not (isinstance(jobs, int) and jobs >= 1):
        raise ValueError(f"jobs must be an integer >= 1, got {jobs!r}")
    if timeout is not None and not timeout > 0:
        raise ValueError(f"timeout must be > 0 seconds, got {timeout!r}")
    if (jobs == 1 and timeout is None) or "fork" not in multiprocessing.get_all_start_methods():
        records = []
        for k, claim in enumerate(claims, start=1):
            records.append(_execute(claim))
            if progress is not None:
                progress(k, len(claims), records[-1])
        return records
    known = dict(expected or {})
    groups = _groups(claims, lambda i: known.get(claims[i].id, UNKNOWN_SECONDS), group)
    return _Pool(claims, min(jobs, max(len(claims), 1)), timeout).run(progress, _Queue(groups))


def _serve(claims: Sequence[Claim], connection: Connection) -> None:
    """Worker loop: receive a claim index, send back its record; stop on None."""
    while (index := connection.recv()) is not None:
        connection.send((index, _execute(claims[index])))


class _Worker:
    def __init__(self, context: ForkContext, claims: Sequence[Claim]) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(claims, child), daemon=True)
        self.process.start()
        child.close()
        self.index: int | None = None
        self.started = 0.0

    def submit(self, index: int) -> None:
        self.index, self.started = index, time.perf_counter()
        self.connection.send(index)

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            try:
                self.connection.send(None)
            except OSError:
                self.process.kill()
        self.process.join(timeout=5)
        self.connection.close()


class _Queue:
    """What each worker slot runs next: the rest of its group, else the next group. (Not a claim of another worker's
    group: that would compute the group's shared work a second time, at once.)"""

    def __init__(self, groups: Sequence[Sequence[int]]) -> None:
        self.groups = [list(g) for g in groups][::-1]
        self.own: dict[int, list[int]] = {}

    def next(self, slot: int) -> int | None:
        own = self.own.setdefault(slot, [])
        if not own and self.groups:
            own.extend(self.groups.pop())
        return own.pop(0) if own else None


class _Pool:
    """Forked workers fed one claim at a time; overrunning or crashed workers are replaced."""

    def __init__(self, claims: Sequence[Claim], jobs: int, timeout: float | None) -> None:
        self.claims, self.jobs, self.timeout = claims, jobs, timeout
        self.context = multiprocessing.get_context("fork")

    def run(self, progress: Progress | None, pending: _Queue) -> list[Record]:
        records: dict[int, Record] = {}
        workers = [_Worker(self.context, self.claims) for _ in range(self.jobs)]
        try:
            for slot, worker in enumerate(workers):
                self._submit(worker, pending.next(slot))
            while len(records) < len(self.claims):
                busy = [w for w in workers if w.index is not None]
                ready = wait([w.connection for w in busy], timeout=self._wait_time(busy))
                for worker in [w for w in busy if w.connection in ready]:
                    try:
                        index, record = worker.connection.recv()
                    except (EOFError, OSError):
                        index, record = self._failed(worker, "the worker process died")
                        workers[workers.index(worker)] = worker = self._replace(worker)
                    records[index] = record
                    worker.index = None
                    self._next(workers.index(worker), worker, pending, len(records), record, progress)
                for worker in [w for w in workers if w.index is not None and self._overdue(w)]:
                    slot = workers.index(worker)
                    index, record = self._failed(worker, f"timeout: the check ran longer than {self.timeout:g} s")
                    records[index] = record
                    workers[slot] = replacement = self._replace(worker)
                    self._next(slot, replacement, pending, len(records), record, progress)
        finally:
            for worker in workers:
                worker.stop(kill=worker.index is not None)
        return [records[i] for i in range(len(self.claims))]

    def _next(
        self, slot: int, worker: _Worker, pending: _Queue, done: int, record: Record, progress: Progress | None
    ) -> None:
        if progress is not None:
            progress(done, len(self.claims), record)
        self._submit(worker, pending.next(slot))

    @staticmethod
    def _submit(worker: _Worker, index: int | None) -> None:
        if index is not None:
            worker.submit(index)

    def _wait_time(self, busy: Iterable[_Worker]) -> float | None:
        if self.timeout is None:
            return None
        now = time.perf_counter()
        return max(0.0, min(w.started + self.timeout - now for w in busy)) + 0.01

    def _overdue(self, worker: _Worker) -> bool:
        return self.timeout is not None and time.perf_counter() - worker.started > self.timeout

    def _failed(self, worker: _Worker, why: str) -> tuple[int, Record]:
        """The index of the claim ``worker`` was running and the ERROR record saying ``why`` it did not finish."""
        index = worker.index
        if index is None:  # only a busy worker can fail a claim
            raise RuntimeError("proofs_check.runner: an idle worker has no claim to fail")
        claim = self.claims[index]
        return index, Record(ClaimText.unbuilt(claim, why), Outcome.error(why), time.perf_counter() - worker.started)

    def _replace(self, worker: _Worker) -> _Worker:
        worker.stop(kill=True)
        return _Worker(self.context, self.claims)


def default_jobs() -> int:
    """All cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
