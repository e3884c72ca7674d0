"""The Paper API (claims decided from their statements, errata, experiments, bad use), the registry, the runner
(in process, in worker processes, timeouts) and the reports, on toy papers."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from derivations import models
from proofs_check import Measurement, Paper, Registry
from proofs_check.claims import Citation, Outcome, Status
from proofs_check.report import format_details, format_table, summary_line, to_json
from proofs_check.runner import ClaimText, Record, run_check, run_claims

x, y = sp.symbols("x y", real=True)


def toy_paper(key: str = "toy2026") -> Paper:
    return Paper(key, "A toy paper", ("A. Toy", "B. Toy", "C. Toy"), "arXiv", 2026, notation={"x": "x", "y": "y"})


# --- metadata and citations -----------------------------------------------------------------------------


def test_metadata_and_citation() -> None:
    paper = toy_paper()
    claim = paper.claim("sq", sp.Eq((x + y) ** 2, x**2 + 2 * x * y + y**2), where="§1", eq="3")
    assert paper.cite == "Toy et al. 2026"
    assert claim.id == "toy2026.sq"
    assert claim.citation == Citation("toy2026", "Toy et al. 2026, §1, eq. (3)", "§1", "3")
    assert Paper("xz", "t", ("Yizhou Xu", "Liu Ziyin"), "ICLR", 2025).cite == "Xu & Ziyin 2025"
    assert paper.info.to_json()["authors"] == ["A. Toy", "B. Toy", "C. Toy"]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"key": "not a key"}, "paper key"),
        ({"year": "2026"}, "year"),
        ({"authors": ()}, "authors"),
        ({"models": ("linear_model", 3)}, "models of paper 'toy' must be model names or Model objects"),
    ],
)
def test_bad_paper_metadata(kwargs: dict, match: str) -> None:
    args = {"key": "toy", "title": "t", "authors": ("A",), "venue": "v", "year": 2026, **kwargs}
    with pytest.raises((ValueError, TypeError), match=match):
        Paper(**args)


# --- statements decide the check ------------------------------------------------------------------------


def test_true_identity_is_proved_and_false_one_refuted_with_a_counterexample() -> None:
    paper = toy_paper()
    proved = run_check(paper.claim("sq", sp.Eq((x + y) ** 2, x**2 + 2 * x * y + y**2), where="§1"))
    assert proved.status is Status.PROVED and proved.method == "rational identity"
    refuted = run_check(paper.claim("flip", sp.Eq((x - y) ** 2, x**2 + 2 * x * y + y**2), where="§1"))
    assert refuted.status is Status.REFUTED
    point = refuted.counterexample
    value = ((x - y) ** 2 - (x**2 + 2 * x * y + y**2)).subs({x: sp.Float(point["x"]), y: sp.Float(point["y"])})
    assert abs(value) > 1e-6


def test_assumptions_restrict_the_counterexample_search_and_feed_the_proof() -> None:
    paper = toy_paper()
    d = paper.symbol("d", "d", nonnegative=True)
    # |x| = x only for x >= 0: a counterexample must respect x > 0 ... and there is none
    undecided = run_check(paper.claim("abs", sp.Eq(sp.sqrt(x**2), x), where="§2", assume=(x > 0,)))
    assert undecided.status is Status.ERROR and "undecided" in undecided.detail
    assert run_check(paper.claim("abs2", sp.Eq(sp.sqrt(x**2), x), where="§2")).status is Status.REFUTED
    # an equation among the assumptions is a side relation of the proof, and defines d when sampling
    relation = sp.Eq(d**2, x**2 + 1)
    assert run_check(paper.claim("rel", sp.Eq(d**2 - x**2, 1), where="§2", assume=(relation,))).status is Status.PROVED
    wrong = run_check(paper.claim("rel2", sp.Eq(d**2 - x**2, 2), where="§2", assume=(relation,)))
    assert wrong.status is Status.REFUTED


def test_definitions_are_substituted_lazily() -> None:
    paper = toy_paper()
    built = []
    r = paper.symbol("r", "r", lambda: built.append(1) or x**2 + 1, positive=True)
    claim = paper.claim("def", sp.Eq(r - x**2, 1), where="§3")
    assert built == []
    assert run_check(claim).status is Status.PROVED
    assert built == [1]


def test_inequalities_go_to_z3() -> None:
    paper = toy_paper()
    assert run_check(paper.claim("amgm", x**2 + y**2 >= 2 * x * y, where="§4")).status is Status.PROVED
    refuted = run_check(paper.claim("bad", x**2 + y**2 >= 3 * x * y, where="§4"))
    assert refuted.status is Status.REFUTED and refuted.counterexample
    assert run_check(paper.claim("cond", sp.Implies(x > 1, x**2 > x), where="§4")).status is Status.PROVED


def test_erratum_needs_a_refuted_printed_form() -> None:
    paper = toy_paper()
    ok = run_check(paper.claim("e", sp.Eq(x * (x + 1), x**2), where="§5", corrected=sp.Eq(x * (x + 1), x**2 + x)))
    assert ok.status is Status.ERRATUM and ok.counterexample
    corrected = sp.Eq(x * (x + 1), x * x + x, evaluate=False)
    true_printed = paper.claim("not_e", sp.Eq(x * (x + 1), x**2 + x), where="§5", corrected=corrected)
    outcome = run_check(true_printed)
    assert outcome.status is Status.ERROR
    assert "toy2026.not_e" in outcome.detail and "no erratum" in outcome.detail


def test_matrix_statements_are_decided_entrywise() -> None:
    paper = toy_paper()
    good = sp.Eq(sp.Matrix([x + x, x * y]), sp.Matrix([2 * x, y * x]), evaluate=False)
    assert run_check(paper.claim("m", good, where="§6")).status is Status.PROVED
    bad = sp.Eq(sp.Matrix([x + x, x * y]), sp.Matrix([2 * x, y * x + 1]), evaluate=False)
    assert run_check(paper.claim("m2", bad, where="§6")).status is Status.REFUTED


def test_variant_is_decided_like_the_claim_and_not_registered() -> None:
    paper = toy_paper()
    paper.claim("sq", sp.Eq((x + y) ** 2, x**2 + 2 * x * y + y**2), where="§1")
    variant = paper.variant("sq", sp.Eq((x + y) ** 2, x**2 - 2 * x * y + y**2))
    assert run_check(variant).status is Status.REFUTED
    assert [c.id for c in paper.claims()] == ["toy2026.sq"]


def test_check_escape_hatch_and_text_statement() -> None:
    paper = toy_paper()
    claim = paper.claim("text", "anything a check decides", where="§7", check=lambda: Outcome.numeric("by hand"))
    assert run_check(claim).status is Status.NUMERIC
    with pytest.raises(ValueError, match=r"toy2026\.text2.*cannot be checked"):
        paper.claim("text2", "no check", where="§7")


# --- experiments ----------------------------------------------------------------------------------------


def test_experiment_compares_within_its_tolerance() -> None:
    paper = toy_paper()
    err = paper.symbol("err", r"\epsilon")
    good = paper.experiment(
        "good",
        lambda: Measurement([1e-9, 3e-9], "by sampling", "two runs"),
        quantity=err,
        tolerance=1e-8,
        where="Fig. 1",
    )
    outcome = run_check(good)
    assert outcome.status is Status.NUMERIC and outcome.method == "by sampling" and "3e-09" in outcome.detail
    bad = paper.experiment("bad", lambda: 0.5, quantity=err, expected=0.2, tolerance=0.1, where="Fig. 1")
    refuted = run_check(bad)
    assert refuted.status is Status.REFUTED and refuted.counterexample["err"] == "0.5"
    array = paper.experiment("array", lambda: np.array([[0.1, -0.2]]), quantity=err, tolerance=0.3, where="Fig. 2")
    assert run_check(array).status is Status.NUMERIC
    nan = paper.experiment("nan", lambda: float("nan"), quantity=err, tolerance=1.0, where="Fig. 1")
    assert run_check(nan).status is Status.REFUTED
    with pytest.raises(ValueError, match="tolerance"):
        paper.experiment("neg", lambda: 0.0, quantity=err, tolerance=-1.0, where="Fig. 1")
    # issue 27: a bool is not a tolerance (True passed as 1), nor a string: a TypeError naming it
    for wrong in (True, "0.1", None):
        with pytest.raises(TypeError, match=r"toy2026\.wrong: tolerance must be a finite number >= 0"):
            paper.experiment("wrong", lambda: 0.0, quantity=err, tolerance=wrong, where="Fig. 1")


# --- bad use names the claim ----------------------------------------------------------------------------


def test_unknown_symbol_names_the_claim() -> None:
    paper = toy_paper()
    z = sp.Symbol("zz")
    with pytest.raises(ValueError, match=r"claim toy2026.u: unknown symbol\(s\) zz"):
        paper.claim("u", sp.Eq(x + z, z + x, evaluate=False), where="§1")
    lazy = paper.claim("lazy", lambda: sp.Eq(x * z, z * x, evaluate=False), where="§1")
    outcome = run_check(lazy)
    assert outcome.status is Status.ERROR and "toy2026.lazy" in outcome.detail and "zz" in outcome.detail


def test_model_symbols_are_known() -> None:
    model = models.get("two_layer_scalar")
    paper = Paper("toy", "t", ("A",), "v", 2026, models=("two_layer_scalar",))
    a, b, S = (model.symbol(n) for n in ("a", "b", "S"))
    assert (
        run_check(paper.claim("ok", sp.Eq(a * b - S, -(S - b * a), evaluate=False), where="§1")).status is Status.PROVED
    )


def test_shape_mismatch_names_the_claim() -> None:
    paper = toy_paper()
    with pytest.raises(ValueError, match=r"toy2026\.shape: the two sides of the Eq have different shapes"):
        paper.claim("shape", sp.Eq(sp.Matrix([[x, y]]), sp.Matrix([x, y]), evaluate=False), where="§1")


def test_statement_decided_by_sympy_on_construction_is_refused() -> None:
    with pytest.raises(ValueError, match=r"toy2026\.eager.*evaluate=False"):
        toy_paper().claim("eager", sp.Eq(x, x + 1), where="§1")


def test_duplicate_ids() -> None:
    paper = toy_paper()
    paper.claim("a", x**2 + y**2 >= 2 * x * y, where="§1")
    with pytest.raises(ValueError, match=r"duplicate claim id 'toy2026\.a'"):
        paper.claim("a", x**2 + y**2 >= 2 * x * y, where="§1")
    other = Paper("toy2026", "again", ("B",), "v", 2026)
    registry = Registry([paper])
    with pytest.raises(ValueError, match="duplicate paper key"):
        registry.add(other)


# --- registry -------------------------------------------------------------------------------------------


def test_registry_orders_papers_and_claims() -> None:
    first, second = toy_paper("p1"), toy_paper("p2")
    first.claim("b", x**2 + y**2 >= 2 * x * y, where="§1")
    second.claim("a", x**2 + y**2 >= 2 * x * y, where="§1")
    first.claim("a", x**2 + y**2 >= 2 * x * y, where="§1")
    registry = Registry([first, second])
    assert registry.papers() == ["p1", "p2"]
    assert [c.id for c in registry.claims()] == ["p1.b", "p1.a", "p2.a"]
    assert [c.id for c in registry.claims("p2")] == ["p2.a"]
    with pytest.raises(ValueError, match=r"unknown paper 'p3'; known papers: p1, p2"):
        registry.claims("p3")


# --- runner ---------------------------------------------------------------------------------------------


def raises() -> Outcome:
    return {}["y"]


def sleeper(seconds: float) -> Outcome:
    time.sleep(seconds)
    return Outcome.proved("slept")


def checks_paper() -> Paper:
    paper = toy_paper()
    paper.claim("raise", "raises", where="§1", check=raises)
    paper.claim("bad", "returns a bool", where="§1", check=lambda: True)
    paper.claim("ok", sp.Eq(x + x, 2 * x, evaluate=False), where="§1")
    return paper


def test_run_claims_turns_exceptions_and_bad_returns_into_errors() -> None:
    records = run_claims(checks_paper().claims())
    assert [r.outcome.status for r in records] == [Status.ERROR, Status.ERROR, Status.PROVED]
    assert records[0].outcome.detail == "KeyError: 'y'"
    assert records[1].outcome.detail == "check returned bool, not Outcome"
    assert records[2].claim.statement == str(sp.Eq(x + x, 2 * x, evaluate=False))
    assert "\\paragraph" in records[2].claim.latex


def test_worker_processes_give_the_same_records_and_progress() -> None:
    seen: list[tuple[int, int]] = []
    records = run_claims(checks_paper().claims(), lambda k, n, r: seen.append((k, n)), jobs=2, timeout=60)
    assert [r.outcome.status for r in records] == [Status.ERROR, Status.ERROR, Status.PROVED]
    assert [r.claim.id for r in records] == ["toy2026.raise", "toy2026.bad", "toy2026.ok"]
    assert sorted(seen) == [(1, 3), (2, 3), (3, 3)]


def marked_sleeper(seconds: float, marker: Path) -> Outcome:
    """Sleeps, then writes ``marker``: a check stopped while asleep never writes it."""
    time.sleep(seconds)
    marker.write_text("slept")
    return Outcome.proved("slept")


def test_timeout_stops_a_runaway_check(tmp_path: Path) -> None:
    """The runaway check is stopped, not waited for: when run_claims returns, its marker (written after 30 s of
    sleep) does not exist, while the fast one's does."""
    paper = toy_paper()
    slow_marker, fast_marker = tmp_path / "slow", tmp_path / "fast"
    paper.claim("slow", "sleeps", where="§1", check=lambda: marked_sleeper(30, slow_marker))
    paper.claim("fast", "sleeps briefly", where="§1", check=lambda: marked_sleeper(0.01, fast_marker))
    slow, fast = run_claims(paper.claims(), jobs=1, timeout=1.0)
    assert slow.outcome.status is Status.ERROR and "timeout" in slow.outcome.detail
    assert fast.outcome.status is Status.PROVED
    assert fast_marker.exists() and not slow_marker.exists()


def test_runner_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="jobs"):
        run_claims([], jobs=0)
    with pytest.raises(ValueError, match="timeout"):
        run_claims([], timeout=0)


def test_record_json_round_trip() -> None:
    (record,) = run_claims([toy_paper().claim("r", sp.Eq(x, 2 * x, evaluate=False), where="§1")])
    data = json.loads(json.dumps(record.to_json()))
    assert data["status"] == "refuted" and data["paper"] == "toy2026" and data["counterexample"]
    assert Record.from_json(data) == record


# --- reports --------------------------------------------------------------------------------------------

PROVED = Outcome.proved("rational identity")
NUMERIC = Outcome.numeric("mpmath 30 digits")
REFUTED = Outcome.refuted("substitution", {x: sp.Rational(1, 2)}, detail="lhs != rhs")
ERRATUM = Outcome.erratum(REFUTED, PROVED, printed="2x", corrected="x")


def record(claim_id: str, outcome: Outcome, seconds: float = 0.5) -> Record:
    text = ClaimText(claim_id, Citation("toy", "Toy 2026, §1"), "x = x", "\\paragraph{x}")
    return Record(text, outcome, seconds)


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
        assert line.startswith(rec.claim.id + " ") and line.endswith(f"{rec.seconds:.2f}")


def test_format_table_wraps_long_methods() -> None:
    long_method = "Gröbner normal form " * 20
    lines = format_table([record("toy.long", Outcome.proved(long_method))]).splitlines()
    assert all(len(line) <= 120 for line in lines)
    assert len(lines) > 3
    assert " ".join(" ".join(lines[2:]).split()[2:]).replace(" 0.50", "").split() == long_method.split()


def test_format_details_covers_only_failures_and_errata() -> None:
    details = format_details(RECORDS)
    for claim_id in ("toy.e", "toy.r", "toy.err"):
        assert f"{claim_id} [" in details
    assert "toy.p1" not in details and "counterexample: x = 1/2" in details
    assert format_details(RECORDS[:3]) == ""


def test_summary_and_json() -> None:
    assert summary_line(RECORDS) == "6 claims: 2 proved, 1 numerically-supported, 1 erratum, 1 refuted, 1 error (3.8 s)"
    data = json.loads(json.dumps(to_json(RECORDS, extra={"versions": {"sympy": "1.14"}})))
    assert data["summary"]["total"] == 6 and data["versions"] == {"sympy": "1.14"}
    with pytest.raises(ValueError, match="clash"):
        to_json(RECORDS, extra={"summary": {}})


def test_erratum_whose_corrected_form_is_false_is_an_error() -> None:
    paper = toy_paper()
    wrong_fix = paper.claim("bad_fix", sp.Eq(x * (x + 1), x**2), where="§5", corrected=sp.Eq(x * (x + 1), x**2 + 2 * x))
    outcome = run_check(wrong_fix)
    assert outcome.status is Status.ERROR
    assert "corrected form not verified" in outcome.detail


def test_all_of_fails_with_its_first_failing_part() -> None:
    from proofs_check.checkers import all_of

    proved = lambda: Outcome.proved("p", "")  # noqa: E731
    refuted = lambda: Outcome.refuted("r", {"x": "1"}, "a false part")  # noqa: E731
    errored = lambda: Outcome.error("no verdict")  # noqa: E731
    assert all_of(proved, proved)().status is Status.PROVED
    assert all_of(proved, refuted)().status is Status.REFUTED
    assert all_of(refuted, proved)().detail == "a false part"
    assert all_of(proved, errored)().status is Status.ERROR


def test_derivation_steps_refutes_a_step_that_does_not_hold() -> None:
    from derivations.derivation import Derivation
    from proofs_check.checkers import derivation_steps

    good, bad = Derivation("toy"), Derivation("toy")
    good.add(sp.Eq(x * (x + 1), x**2 + x), "expand", tag="expand")
    bad.add(sp.Eq(x * (x + 1), x**2 + 2 * x), "a wrong expansion", tag="expand")
    assert derivation_steps(good, ["expand"])().status is Status.PROVED
    outcome = derivation_steps(bad, ["expand"])()
    assert outcome.status is Status.REFUTED and "a wrong expansion" in outcome.detail
    assert derivation_steps(good, ["other"])().status is Status.ERROR


def test_a_claim_text_the_report_cannot_print_is_refused_when_declared():
    """A character without a glyph in the report's fonts (⊛) in an assumption fails at ``claim``, naming it;
    the same text with a printable character (⊥, a known symbol) is accepted."""
    paper = toy_paper()
    with pytest.raises(ValueError, match=r"claim toy2026\.bad: .*U\+229B"):
        paper.claim("bad", sp.Eq(x, x, evaluate=False), where="§1", assume=("x ⊛ x is defined",))
    paper.claim("good", sp.Eq(x, x, evaluate=False), where="§1", assume=("x ⊥ y is defined",))
