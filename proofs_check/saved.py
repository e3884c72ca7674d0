"""Saved results (``--json FILE``) read back for ``--from-json FILE``: validated before any use.

A saved report is untrusted input. It is read with a size limit checked before and while reading (a stream such as
``/dev/zero`` is never read past the limit), its nesting depth is bounded before it is parsed, and every field the
report uses is type-checked, one function per record type, with numbers finite. Records are then bound to the
registered claims: a paper or claim id that is not registered is refused, naming it, and what the report shows of a
claim (citation, statement, its LaTeX) is re-rendered by the package from the registered claim, never copied from
the file. What the file contributes is the verdict of each check (status, method, detail, counterexample, routes)
and its seconds, all of which the reports print as escaped text.

Every error is a :class:`SavedReportError` (a ValueError) whose one-line message names the file and the field at
fault, e.g. ``--from-json 'r.json': claims[3].seconds: must be a finite number >= 0, got nan``.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from proofs_check import control
from proofs_check.claims import Claim
from proofs_check.control.expectation import ControlResult, judge
from proofs_check.outcome import ROUTES, Outcome, Status
from proofs_check.paper import PaperInfo
from proofs_check.registry import Registry
from proofs_check.runner import ClaimText, Record

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "SavedRecord",
    "SavedReport",
    "SavedReportError",
    "bind",
    "check_depth",
    "claim_record",
    "control_record",
    "load_report",
    "paper_info",
    "parse",
    "read_text",
]

MAX_BYTES = 64 * 2**20
"""Largest saved report read (64 MiB; the report of every built-in paper is well under 1 MiB)."""
MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted (a report nests 4 deep)."""
SHOWN = 60
"""Characters of an offending value quoted in an error message."""
UNBUILT = re.compile(r"\A\(statement not built: (?P<why>.*)\)\Z", re.DOTALL)
"""How a record whose check did not finish shows its statement (:meth:`ClaimText.unbuilt`)."""
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_Value = TypeVar("_Value")


class SavedReportError(ValueError):
    """A saved report that cannot be used; the message names the file and the field at fault, on one line."""


@dataclass(frozen=True)
class SavedRecord:
    """One validated record of a saved report, not yet bound to its registered claim: ``where`` locates it in the
    file (``claims[3]``), ``statement`` is the saved statement text (used only to tell a statement that was not
    built)."""

    where: str
    id: str
    paper: str
    statement: str
    outcome: Outcome
    seconds: float


@dataclass(frozen=True)
class SavedReport:
    """A validated saved report: its claims' records, its papers, and the self-test's records (None if it was saved
    without one)."""

    claims: tuple[SavedRecord, ...]
    papers: tuple[PaperInfo, ...]
    control: tuple[SavedRecord, ...] | None


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _fail(where: str, what: str) -> SavedReportError:
    return SavedReportError(f"{where}: {what}")


def read_text(path: str, limit: int | None = None) -> str:
    """The text of the file at ``path``, at most ``limit`` bytes of UTF-8.

    Arguments:
        path: the file (a regular file, or a stream such as a pipe: then at most ``limit + 1`` bytes are read).
        limit: the largest size accepted, in bytes (>= 1; default :data:`MAX_BYTES`).

    Returns:
        The decoded text.

    Raises:
        SavedReportError: the file cannot be read, is larger than ``limit`` (a regular file's size is checked before
            reading), or is not UTF-8.
    """
    limit = MAX_BYTES if limit is None else limit
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ValueError(f"limit must be an int >= 1 (bytes), got {_shown(limit)}")
    too_big = f"larger than {limit} bytes (the limit of a saved report)"
    try:
        with open(path, "rb") as stream:
            info = os.fstat(stream.fileno())
            if stat.S_ISREG(info.st_mode) and info.st_size > limit:
                raise _fail("file", too_big)
            data = stream.read(limit + 1)  # never more: a device or pipe may not end
    except OSError as exc:
        raise _fail("file", f"cannot be read ({exc.strerror or exc})") from exc
    if len(data) > limit:
        raise _fail("file", too_big)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _fail("file", f"not UTF-8 text (byte {exc.start})") from exc


def check_depth(text: str, limit: int | None = None) -> None:
    """Refuse JSON text nested deeper than ``limit`` arrays/objects, before it is parsed (brackets inside strings do
    not count); ``limit`` defaults to :data:`MAX_DEPTH`.

    Raises:
        SavedReportError: naming the depth limit and the character where it is exceeded.
    """
    limit = MAX_DEPTH if limit is None else limit
    depth = 0
    for match in _TOKENS.finditer(text.encode("utf-8")):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > limit:
                raise _fail("file", f"nested deeper than {limit} arrays/objects (at byte {match.start()})")
        elif token in (b"]", b"}"):
            depth -= 1


def parse(text: str) -> object:
    """The JSON value of ``text`` (NaN and infinities are parsed as floats, so that the field holding one is named
    by the validation; a number too large for a float becomes an infinity too).

    Raises:
        SavedReportError: the text is not JSON, or too deeply nested (:func:`check_depth`).
    """
    check_depth(text)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:  # ValueError: JSONDecodeError, or an integer of > 4300 digits
        raise _fail("file", f"not JSON ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") from exc


def _field(data: Mapping, where: str, key: str, kind: type[_Value], default: _Value | None = None) -> _Value:
    """``data[key]`` if it has type ``kind`` (``default`` if absent and a default is given)."""
    if key not in data:
        if default is None:
            raise _fail(where, f"the field {key!r} is missing")
        return default
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _fail(f"{where}.{key}", f"must be {_KINDS[kind]}, got {_shown(value)}")
    if isinstance(value, str):
        _text(value, f"{where}.{key}")
    return value


def _text(value: str, where: str) -> str:
    """``value`` if it can be written as UTF-8 (JSON may spell a lone surrogate, which no file or terminal takes)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise _fail(where, f"not writable as UTF-8 (character {exc.start}: {_shown(value[exc.start])})") from None
    return value


_KINDS: dict[type, str] = {
    str: "a string",
    bool: "true or false",
    int: "an integer",
    list: "an array",
    dict: "an object",
}


def _object(value: object, where: str) -> Mapping:
    if not isinstance(value, dict):
        raise _fail(where, f"must be an object, got {_shown(value)}")
    return value


def _strings(data: Mapping, where: str, key: str) -> tuple[str, ...]:
    values = _field(data, where, key, list, [])
    for k, value in enumerate(values):
        if not isinstance(value, str):
            raise _fail(f"{where}.{key}[{k}]", f"must be a string, got {_shown(value)}")
        _text(value, f"{where}.{key}[{k}]")
    return tuple(values)


def _seconds(data: Mapping, where: str) -> float:
    value = data.get("seconds")
    if "seconds" not in data:
        raise _fail(where, "the field 'seconds' is missing")
    try:
        seconds = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
    except OverflowError:
        seconds = math.inf
    if not (math.isfinite(seconds) and seconds >= 0):
        raise _fail(f"{where}.seconds", f"must be a finite number >= 0, got {_shown(value)}")
    return seconds


def _outcome(data: Mapping, where: str) -> Outcome:
    status = _field(data, where, "status", str)
    statuses = [s.value for s in Status]
    if status not in statuses:
        raise _fail(f"{where}.status", f"must be one of {', '.join(statuses)}; got {_shown(status)}")
    routes = _strings(data, where, "routes")
    unknown = [r for r in routes if r not in ROUTES]
    if unknown:
        raise _fail(f"{where}.routes", f"unknown route {_shown(unknown[0])}; known: {', '.join(ROUTES)}")
    counterexample = data.get("counterexample")
    if counterexample is not None:
        witness = _object(counterexample, f"{where}.counterexample")
        for name, value in witness.items():
            at = f"{where}.counterexample[{_shown(_text(name, f'{where}.counterexample'))}]"
            if not isinstance(value, str):
                raise _fail(at, f"must be a string, got {_shown(value)}")
            _text(value, at)
    text = {key: _field(data, where, key, str, "") for key in ("method", "detail", "printed", "corrected")}
    return Outcome(
        Status(status),
        text["method"],
        text["detail"],
        dict(counterexample) if counterexample else None,
        text["printed"],
        text["corrected"],
        tuple(dict.fromkeys(routes)),
        _field(data, where, "self_referential", bool, False),
    )


def claim_record(data: object, where: str) -> SavedRecord:
    """A saved claim record (:meth:`proofs_check.runner.Record.to_json`), validated.

    Arguments:
        data: the record's JSON value.
        where: its place in the file, for messages (``"claims[3]"``).

    Returns:
        The record's id, paper, saved statement text, outcome and seconds.

    Raises:
        SavedReportError: a field missing or of the wrong type, an unknown status or route, seconds not finite and
            >= 0.
    """
    record = _object(data, where)
    for key in ("reference", "section", "equation", "latex"):
        _field(record, where, key, str, "")  # checked, though the report takes these from the registered claim
    _field(record, where, "derived", bool, False)
    _strings(record, where, "assumptions")
    return SavedRecord(
        where,
        _field(record, where, "id", str),
        _field(record, where, "paper", str),
        _field(record, where, "statement", str, ""),
        _outcome(record, where),
        _seconds(record, where),
    )


def control_record(data: object, where: str) -> SavedRecord:
    """A saved self-test record (:meth:`proofs_check.control.ControlResult.to_json`): a claim record with the
    expectation it was judged against (an object) and its judgement (a boolean); both are judged again from the
    registered expectation when the record is bound (:func:`bind`).

    Raises:
        SavedReportError: as :func:`claim_record`, or ``expected`` not an object, ``as_expected`` not a boolean.
    """
    record = claim_record(data, where)
    fields = _object(data, where)
    _field(fields, where, "expected", dict, {})
    _field(fields, where, "as_expected", bool, False)
    return record


def paper_info(data: object, where: str) -> PaperInfo:
    """A saved paper's metadata (:meth:`proofs_check.PaperInfo.to_json`), validated.

    Raises:
        SavedReportError: a field missing or of the wrong type.
    """
    paper = _object(data, where)
    return PaperInfo(
        _field(paper, where, "key", str),
        _field(paper, where, "title", str),
        _strings(paper, where, "authors"),
        _field(paper, where, "venue", str),
        _field(paper, where, "year", int),
        _field(paper, where, "url", str, ""),
        _strings(paper, where, "models"),
    )


def _each(data: Mapping, where: str, key: str, validate: Callable[[object, str], _Value]) -> tuple[_Value, ...]:
    """Each item of the array ``data[key]`` validated, located as ``key[k]`` (under ``where`` but the top)."""
    prefix = "" if where == "report" else f"{where}."
    return tuple(validate(item, f"{prefix}{key}[{k}]") for k, item in enumerate(_field(data, where, key, list)))


def _unique(records: Sequence[SavedRecord]) -> None:
    seen: set[str] = set()
    for record in records:
        if record.id in seen:
            raise _fail(f"{record.where}.id", f"claim {record.id!r} is saved twice")
        seen.add(record.id)


def load_report(path: str, limit: int | None = None) -> SavedReport:
    """The saved report at ``path``, read (:func:`read_text`), parsed (:func:`parse`) and validated.

    Arguments:
        path: a file written by ``--json FILE``.
        limit: the largest size accepted, in bytes (default :data:`MAX_BYTES`).

    Returns:
        Its records, papers and self-test records, validated but not yet bound to the registered claims
        (:func:`bind`).

    Raises:
        SavedReportError: naming ``path`` and the field at fault.
    """
    try:
        report = _object(parse(read_text(path, limit)), "report")
        claims = _each(report, "report", "claims", claim_record)
        papers = _each(report, "report", "papers", paper_info)
        saved = report.get("control")
        controls = None if saved is None else _each(_object(saved, "control"), "control", "claims", control_record)
        for records in (claims, controls or ()):
            _unique(records)
    except SavedReportError as exc:
        raise SavedReportError(f"--from-json {path!r}: {exc}") from None
    return SavedReport(claims, papers, controls)


def _refuse(path: str, where: str, what: str) -> SavedReportError:
    return SavedReportError(f"--from-json {path!r}: {where}: {what}")


def _reported(record: SavedRecord, claim: Claim) -> Record:
    """``record``'s verdict with the registered ``claim`` as the report shows it, re-rendered by the package."""
    unbuilt = UNBUILT.match(record.statement)
    text = ClaimText.unbuilt(claim, unbuilt.group("why")) if unbuilt else ClaimText.of(claim)
    return Record(text, record.outcome, record.seconds)


def _registered(records: Sequence[SavedRecord], claims: Mapping[str, Claim], path: str, what: str) -> None:
    """Every one of ``records`` (selected or not) is a registered claim, under its registered paper."""
    for record in records:
        if record.id not in claims:
            raise _refuse(path, f"{record.where}.id", f"{what} {_shown(record.id)} is not registered")
        paper = claims[record.id].citation.paper
        if record.paper != paper:
            registered = f"{what} {record.id!r} is registered under paper {paper!r}"
            raise _refuse(path, f"{record.where}.paper", f"{registered}, not {_shown(record.paper)}")


def bind(
    report: SavedReport, registry: Registry, selected: Sequence[Claim], path: str
) -> tuple[list[Record], list[PaperInfo], list[ControlResult] | None]:
    """The records of ``report`` as the report shows them, their papers, and its self-test judged again.

    Arguments:
        report: a validated saved report (:func:`load_report`).
        registry: the registered papers (a saved claim or paper must be one of theirs).
        selected: the claims to report (``--paper`` / ``--claim``): the other saved records are left out.
        path: the file, for messages.

    Returns:
        The selected records, each with its registered claim re-rendered (citation, statement, LaTeX) and the saved
        verdict and seconds; the registered metadata of their papers, in order of first record; the self-test's
        results judged against the registered expectations (None if the report has no self-test).

    Raises:
        SavedReportError: a saved claim, paper or control that is not registered, or a claim registered under
            another paper; no saved record among ``selected``.
    """
    registered = {c.id: c for c in registry.claims()}
    _registered(report.claims, registered, path, "claim")
    for k, paper in enumerate(report.papers):
        if paper.key not in registry.papers():
            raise _refuse(path, f"papers[{k}].key", f"paper {_shown(paper.key)} is not registered")
    chosen = {c.id for c in selected}
    records = [_reported(r, registered[r.id]) for r in report.claims if r.id in chosen]
    if report.claims and not records:
        raise _refuse(path, "claims", "no saved claim is among those --paper/--claim select")
    keys = dict.fromkeys(r.claim.citation.paper for r in records)
    papers = [registry.paper(key).info for key in keys]
    if report.control is None:
        return records, papers, None
    controls = {c.id: c for c in control.claims()}
    _registered(report.control, controls, path, "control")
    judged = [_reported(r, controls[r.id]) for r in report.control]
    expected = control.expected()
    return records, papers, judge(judged, {r.claim.id: expected[r.claim.id] for r in judged})
