"""Claims, registry, paper loading, runner and reports, on toy claims (no paper module needed)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sympy as sp

from proofs_check import claims as claims_module
from proofs_check import papers
from proofs_check.claims import Citation, Claim, Outcome, Registry, Status
from proofs_check.report import format_details, format_table, summary_line, to_json
from proofs_check.runner import Record, run_claims

X = sp.Symbol("x")


def toy(claim_id: str, check: Callable[[], object] | Outcome, paper: str = "toy") -> Claim:
    """A claim of ``paper`` whose check returns ``check`` (if an Outcome) or is ``check``."""
    func = (lambda: check) if isinstance(check, Outcome) else check
    citation = Citation(paper, f"{paper}, eq. (1)", section="App. A", equation="1")
    statement = sp.Eq(X + X, 2 * X)
    return Claim(claim_id, citation, statement, func, assumptions=("x real",), title=f"{claim_id} title")


PROVED = Outcome.proved("rational identity")
NUMERIC = Outcome.numeric("mpmath 30 digits")
REFUTED = Outcome.refuted("substitution", {X: sp.Rational(1, 2)}, detail="lhs != rhs")


# --- registry -------------------------------------------------------------------------------------------


def test_register_keeps_order_and_rejects_duplicate_ids() -> None:
    registry = Registry()
    first = registry.register(toy("toy.b", PROVED))
    registry.register(toy("toy.a", PROVED))
    assert first.id == "toy.b"
    assert [c.id for c in registry.claims()] == ["toy.b", "toy.a"]
    with pytest.raises(ValueError, match=r"duplicate claim id 'toy\.a'"):
        registry.register(toy("toy.a", NUMERIC))
    assert len(registry) == 2


def test_claims_filters_by_paper_and_names_known_papers_for_unknown_one() -> None:
    registry = Registry()
    for claim in (toy("p1.a", PROVED, "p1"), toy("p2.a", PROVED, "p2"), toy("p1.b", PROVED, "p1")):
        registry.register(claim)
    assert registry.papers() == ["p1", "p2"]
    assert [c.id for c in registry.claims("p1")] == ["p1.a", "p1.b"]
    assert [c.id for c in registry.claims("p2")] == ["p2.a"]
    with pytest.raises(ValueError, match=r"unknown paper 'p3'; known papers: p1, p2"):
        registry.claims("p3")


def test_claim_rejects_blank_id_and_uncallable_check() -> None:
    with pytest.raises(ValueError, match="claim id"):
        toy(" ", PROVED)
    with pytest.raises(TypeError, match="not callable"):
        Claim("toy.x", Citation("toy", "ref"), "x = x", check="not a function")  # type: ignore[arg-type]


def test_global_register_uses_global_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = Registry()
    monkeypatch.setattr(claims_module, "REGISTRY", fresh)
    claims_module.register(toy("toy.global", PROVED))
    assert [c.id for c in fresh.claims()] == ["toy.global"]


# --- outcomes -------------------------------------------------------------------------------------------


def test_refuted_stringifies_counterexample() -> None:
    assert REFUTED.status is Status.REFUTED
    assert REFUTED.counterexample == {"x": "1/2"}


@pytest.mark.parametrize("corrected", [PROVED, NUMERIC])
def test_erratum_when_printed_refuted_and_corrected_verified(corrected: Outcome) -> None:
    outcome = Outcome.erratum(REFUTED, corrected, printed="2x", corrected="x")
    assert outcome.status is Status.ERRATUM
    assert outcome.method == f"printed: substitution ; corrected: {corrected.method}"
    assert outcome.counterexample == {"x": "1/2"}
    assert (outcome.printed, outcome.corrected) == ("2x", "x")


PRINTED_NOT_REFUTED = "printed form not refuted"
CORRECTED_NOT_VERIFIED = "corrected form not verified"


@pytest.mark.parametrize(
    ("printed", "corrected", "present", "absent"),
    [
        (PROVED, PROVED, [f"{PRINTED_NOT_REFUTED} (status proved)"], [CORRECTED_NOT_VERIFIED]),
        (REFUTED, REFUTED, [f"{CORRECTED_NOT_VERIFIED} (status refuted)"], [PRINTED_NOT_REFUTED]),
        (
            NUMERIC,
            Outcome.error("boom"),
            [
                f"{PRINTED_NOT_REFUTED} (status numerically-supported)",
                f"{CORRECTED_NOT_VERIFIED} (status error)",
            ],
            [],
        ),
    ],
)
def test_erratum_is_error_naming_the_failing_half(
    printed: Outcome, corrected: Outcome, present: list[str], absent: list[str]
) -> None:
    outcome = Outcome.erratum(printed, corrected, printed="2x", corrected="x")
    assert outcome.status is Status.ERROR
    assert all(text in outcome.detail for text in present)
    assert not any(text in outcome.detail for text in absent)


# --- paper loading --------------------------------------------------------------------------------------


def test_load_papers_rejects_unknown_name_listing_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown paper\(s\) 'nosuch'; known papers: nam2025"):
        papers.load_papers(["nosuch"])


@pytest.fixture
def toy_paper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    """A paper module ``toy_paper_module`` on sys.path, registered as paper "toy", into a fresh REGISTRY."""
    module = "toy_paper_module"
    (tmp_path / f"{module}.py").write_text(
        "from proofs_check.claims import Citation, Claim, Outcome, register\n"
        "register(Claim('toy.one', Citation('toy', 'Toy'), 'x = x', lambda: Outcome.proved('trivial')))\n"
    )
    monkeypatch.syspath_prepend(tmp_path)
    monkeypatch.setitem(papers.PAPER_MODULES, "toy", module)
    fresh = Registry()
    monkeypatch.setattr(claims_module, "REGISTRY", fresh)
    yield fresh
    sys.modules.pop(module, None)


def test_load_papers_imports_module_once(toy_paper: Registry) -> None:
    assert papers.load_papers(["toy"]) is toy_paper
    assert papers.load_papers(["toy"]) is toy_paper
    assert [c.id for c in toy_paper.claims("toy")] == ["toy.one"]


# --- runner ---------------------------------------------------------------------------------------------


def raise_key_error() -> Outcome:
    return {}["y"]


def test_run_claims_turns_exceptions_and_bad_returns_into_errors() -> None:
    claims = [toy("toy.raise", raise_key_error), toy("toy.bad", lambda: True), toy("toy.ok", PROVED)]
    records = run_claims(claims)
    assert [r.outcome.status for r in records] == [Status.ERROR, Status.ERROR, Status.PROVED]
    assert records[0].outcome.detail == "KeyError: 'y'"
    assert records[1].outcome.detail == "check returned bool, not Outcome"
    assert [r.claim for r in records] == claims


def test_run_claims_times_each_check_and_reports_progress() -> None:
    def slow() -> Outcome:
        time.sleep(0.05)
        return PROVED

    seen: list[tuple[int, int, str]] = []
    records = run_claims(
        [toy("toy.slow", slow), toy("toy.fast", PROVED)], progress=lambda k, n, c: seen.append((k, n, c.id))
    )
    assert records[0].seconds >= 0.05
    assert 0 <= records[1].seconds < 0.05
    assert seen == [(1, 2, "toy.slow"), (2, 2, "toy.fast")]


def test_record_to_json_is_flat_and_serialisable() -> None:
    (record,) = run_claims([toy("toy.r", REFUTED)])
    data = json.loads(json.dumps(record.to_json()))
    assert data["id"] == "toy.r"
    assert data["paper"] == "toy"
    assert (data["section"], data["equation"]) == ("App. A", "1")
    assert data["statement"] == str(sp.Eq(X + X, 2 * X))
    assert data["assumptions"] == ["x real"]
    assert data["status"] == "refuted"
    assert data["counterexample"] == {"x": "1/2"}
    assert data["seconds"] == record.seconds


# --- reports --------------------------------------------------------------------------------------------


def record(claim_id: str, outcome: Outcome, seconds: float = 0.5) -> Record:
    return Record(toy(claim_id, outcome), outcome, seconds)


ERRATUM = Outcome.erratum(REFUTED, PROVED, printed="2x", corrected="x")
RECORDS = [
    record("toy.p1", PROVED),
    record("toy.p2", PROVED),
    record("toy.n", NUMERIC),
    record("toy.e", ERRATUM),
    record("toy.r", REFUTED),
    record("toy.err", Outcome.error("KeyError: 'y'"), seconds=1.25),
]


def test_format_table_lists_each_claim_with_status_method_and_seconds() -> None:
    lines = format_table(RECORDS).splitlines()
    assert lines[0].split() == ["claim", "status", "method", "seconds"]
    assert len(lines) == 2 + len(RECORDS)
    for line, rec in zip(lines[2:], RECORDS, strict=True):
        assert line.startswith(rec.claim.id + " ")
        assert f" {rec.outcome.status.value} " in line
        assert rec.outcome.method in line
        assert line.endswith(f"{rec.seconds:.2f}")


def test_format_table_truncates_long_methods() -> None:
    long_method = "Gröbner normal form " * 20
    lines = format_table([record("toy.long", Outcome.proved(long_method))]).splitlines()
    assert all(len(line) <= 120 for line in lines)
    assert "Gröbner normal form" in lines[2]
    assert "…" in lines[2]


def test_format_details_covers_only_failures_and_errata() -> None:
    details = format_details(RECORDS)
    assert details.startswith("Details:")
    for claim_id in ("toy.e", "toy.r", "toy.err"):
        assert f"{claim_id} [" in details
    assert "toy.p1" not in details
    assert "toy.n " not in details
    assert "counterexample: x = 1/2" in details
    assert "printed:   2x" in details
    assert "corrected: x" in details
    assert format_details(RECORDS[:3]) == ""


def test_summary_line_counts_all_statuses_in_fixed_order() -> None:
    assert summary_line(RECORDS) == (
        "6 claims: 2 proved, 1 numerically-supported, 1 erratum, 1 refuted, 1 error (3.8 s)"
    )
    empty = "0 claims: 0 proved, 0 numerically-supported, 0 erratum, 0 refuted, 0 error (0.0 s)"
    assert summary_line([]) == empty


def test_to_json_summary_and_extra_keys() -> None:
    data = json.loads(json.dumps(to_json(RECORDS, extra={"versions": {"sympy": "1.14"}})))
    assert [c["id"] for c in data["claims"]] == [r.claim.id for r in RECORDS]
    assert data["summary"] == {
        "proved": 2,
        "numerically-supported": 1,
        "refuted": 1,
        "erratum": 1,
        "error": 1,
        "total": 6,
        "seconds": pytest.approx(3.75),
    }
    assert data["versions"] == {"sympy": "1.14"}
    assert set(to_json(RECORDS)) == {"claims", "summary"}
    with pytest.raises(ValueError, match="clash"):
        to_json(RECORDS, extra={"summary": {}})
