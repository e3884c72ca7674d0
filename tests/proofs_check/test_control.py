"""The checker's self-test (``proofs_check.control``): every run checks known-false and undecidable controls, one
per decision route. A sound checker leaves them refuted / undecided and the run exits 0; a checker broken on one
route (monkeypatched to prove what it must not) makes the run exit 1 saying that the checker is broken, naming the
controls that came out wrong."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
import sympy as sp

from derivations.proof import Proof
from proofs_check import Outcome, Paper, Registry, control, statement_checks, z3_checks
from proofs_check import paper as paper_module
from proofs_check.cli import main
from proofs_check.control.expectation import ControlResult, Expectation, judge
from proofs_check.outcome import Status
from proofs_check.runner import run_claims

ONE_JOB = ["--jobs", "1"]
CONTROLS = list(control.expected())


@pytest.fixture(autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The timings cache of each test in a directory of its own (not the user's)."""
    path = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(path))
    return path


def toy_registry() -> Registry:
    """One paper whose two claims are proved by their own checks (no checker route is involved)."""
    paper = Paper("p1", "Paper p1", ("A. Toy",), "arXiv", 2026)
    paper.claim("a", "about a", where="§1", check=lambda: Outcome.proved("rational identity"))
    paper.claim("b", "about b", where="§1", check=lambda: Outcome.numeric("mpmath 30 digits"))
    return Registry([paper])


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str, dict]:
    """``main`` on the toy registry with a JSON report: exit code, stdout, stderr, the JSON."""
    path = tmp_path / "report.json"
    code = main([*ONE_JOB, *argv, "--json", str(path)], registry=toy_registry())
    out, err = capsys.readouterr()
    return code, out, err, json.loads(path.read_text(encoding="utf-8"))


def test_a_sound_checker_leaves_every_control_as_expected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err, data = run(tmp_path, capsys)
    assert code == 0, err
    assert "checker is broken" not in err and "BROKEN" not in out
    assert out.splitlines()[-1].startswith("self-test: 6 controls, all as expected (")
    # the papers' counts exclude the controls, which have a JSON section of their own
    assert data["summary"]["total"] == 2 and [c["id"] for c in data["claims"]] == ["p1.a", "p1.b"]
    assert data["control"]["summary"] | {"seconds": 0} == {"total": 6, "as_expected": 6, "broken": [], "seconds": 0}
    got = {c["id"]: (c["status"], c["routes"], c["as_expected"]) for c in data["control"]["claims"]}
    assert got == {
        "control.eq.flow_sign": ("refuted", ["sympy-eq", "counterexample-30"], True),
        "control.z3.loss_increases": ("refuted", ["z3"], True),
        "control.boolean.connectives": ("refuted", ["z3"], True),
        "control.erratum.corrected_false": ("error", ["sympy-eq", "counterexample-30"], True),
        "control.undecided.unknown_function": ("error", ["sympy-eq", "counterexample-30"], True),
        "control.experiment.settles_to_S": ("refuted", ["numeric-experiment"], True),
    }


def _always_proved(residual: sp.Expr, relations: object = ()) -> Proof:
    return Proof(True, "broken prover", True)


def _undefined_function_proved(original: Callable[..., Proof]) -> Callable[..., Proof]:
    """A prover that claims every residual in an undefined function vanishes (the undecided route broken)."""

    def prove(residual: sp.Expr, relations: object = ()) -> Proof:
        if residual.atoms(sp.core.function.AppliedUndef):
            return Proof(True, "broken prover", True)
        return original(residual, relations)

    return prove


def _without_not(original: Callable) -> Callable:
    """z3's translation with every Not dropped (the Boolean route broken)."""

    def formula(tr: object, expr: sp.Basic) -> object:
        return original(tr, expr.args[0] if isinstance(expr, sp.Not) else expr)

    return formula


def _erratum_ignoring_the_correction(printed_outcome: Outcome, corrected_outcome: Outcome, printed, corrected):
    """``Outcome.erratum`` that confirms every refuted printed form, whatever its correction."""
    confirmed = Outcome.proved("broken", routes=corrected_outcome.routes)
    return ORIGINAL_ERRATUM(printed_outcome, confirmed, printed, corrected)


ORIGINAL_ERRATUM = Outcome.erratum


def _experiment_ignoring_the_tolerance(original: Callable) -> Callable:
    """``Experiment._compare`` that accepts any measurement (the numeric route broken)."""

    def compare(self) -> Outcome:
        outcome = original(self)
        return replace(outcome, status=Status.NUMERIC, counterexample=None)

    return compare


BREAKAGES: dict[str, tuple[Callable[[pytest.MonkeyPatch], None], set[str]]] = {
    # the Eq route proves everything: the false identity, the erratum's printed form and the undecidable one
    "eq": (
        lambda mp: mp.setattr(statement_checks, "_prove", _always_proved),
        {"control.eq.flow_sign", "control.erratum.corrected_false", "control.undecided.unknown_function"},
    ),
    "z3": (
        lambda mp: mp.setattr(z3_checks, "decide", lambda claim, assumptions=(): z3_checks.Z3Result(True, {}, 0.0)),
        {"control.z3.loss_increases", "control.boolean.connectives"},
    ),
    "boolean": (
        lambda mp: mp.setattr(z3_checks, "_formula", _without_not(z3_checks._formula)),
        {"control.boolean.connectives"},
    ),
    "erratum": (
        lambda mp: mp.setattr(Outcome, "erratum", staticmethod(_erratum_ignoring_the_correction)),
        {"control.erratum.corrected_false"},
    ),
    "experiment": (
        lambda mp: mp.setattr(
            paper_module.Experiment, "_compare", _experiment_ignoring_the_tolerance(paper_module.Experiment._compare)
        ),
        {"control.experiment.settles_to_S"},
    ),
    "undecided": (
        lambda mp: mp.setattr(statement_checks, "_prove", _undefined_function_proved(statement_checks._prove)),
        {"control.undecided.unknown_function"},
    ),
}


@pytest.mark.parametrize("route", list(BREAKAGES))
def test_a_checker_broken_on_one_route_fails_the_run(
    route: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    breakage, wrong = BREAKAGES[route]
    breakage(monkeypatch)
    code, out, err, data = run(tmp_path, capsys)
    assert code == 1
    assert "error: the checker is broken" in err
    assert set(data["control"]["summary"]["broken"]) == wrong
    for claim_id in wrong:
        assert claim_id in err and claim_id in out.splitlines()[-1]
    assert "THE CHECKER IS BROKEN" in out.splitlines()[-1]
    # the papers' own claims are unaffected and still counted alone
    assert data["summary"]["total"] == 2 and data["summary"]["proved"] == 1


def test_the_control_runs_under_filters_and_from_json_judges_it_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    breakage, _ = BREAKAGES["z3"]
    with monkeypatch.context() as patched:
        breakage(patched)
        code, _, _, data = run(tmp_path, capsys, "--claim", "p1.a")
    assert code == 1 and [c["id"] for c in data["claims"]] == ["p1.a"] and len(data["control"]["claims"]) == 6
    # reported from the file: the broken self-test fails the run again, with the same message
    assert main(["--from-json", str(tmp_path / "report.json")], registry=toy_registry()) == 1
    out, err = capsys.readouterr()
    assert "error: the checker is broken" in err and "control.z3.loss_increases" in out
    # a report saved without a self-test says so, and is judged by its claims alone
    del data["control"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    assert main(["--from-json", str(old)], registry=toy_registry()) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "self-test: not in this report (it was saved without one)"


def test_the_control_is_no_registered_paper() -> None:
    from proofs_check.papers import load_papers

    registry = load_papers()
    assert "control" not in registry.papers()
    assert not any(c.id.startswith("control.") for c in registry.claims())


def test_judge_names_status_route_and_detail_mismatches() -> None:
    (eq_claim,) = [c for c in control.claims() if c.id == "control.eq.flow_sign"]
    (record,) = run_claims([eq_claim])
    refuted = Expectation(Status.REFUTED, ("sympy-eq",), "broken")
    assert ControlResult(record, refuted).as_expected
    assert "got refuted" in ControlResult(record, Expectation(Status.ERROR, ("sympy-eq",), "the Eq route")).problem
    assert "z3 did not decide it" in ControlResult(record, Expectation(Status.REFUTED, ("z3",), "x")).problem
    assert "with detail" in ControlResult(record, replace(refuted, detail="undecided")).problem
    with pytest.raises(ValueError, match="without an expectation"):
        judge([record], {})
    with pytest.raises(ValueError, match="routes must be names"):
        Expectation(Status.REFUTED, ("no-such-route",), "x")
