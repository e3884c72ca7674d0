"""Every outcome names the routes that decided it, recorded where it is decided, and whether it is self-referential
(a re-check of the package's own derivation steps); both reach the JSON record, the table and the LaTeX table."""

from __future__ import annotations

import dataclasses
import json

import pytest
import sympy as sp

from derivations import models
from derivations.derivation import Derivation
from proofs_check import Measurement, Paper
from proofs_check.checkers import all_of, derivation_steps, derivation_verified, free_algebra_zero, identities
from proofs_check.claims import Citation, Outcome, Status
from proofs_check.latex_report import claims_table
from proofs_check.paper import Bound
from proofs_check.report import SELF_REFERENTIAL_NOTE, format_table
from proofs_check.runner import ClaimText, Record, run_check, run_claims

x, y = sp.symbols("x y", real=True)


def toy_paper() -> Paper:
    return Paper("toy2026", "A toy paper", ("A. Toy",), "arXiv", 2026, notation={"x": "x", "y": "y"})


def test_statement_routes_reach_the_json_record() -> None:
    paper = toy_paper()
    claims = [
        paper.claim("eq", sp.Eq((x + y) ** 2, x**2 + 2 * x * y + y**2), where="§1"),
        paper.claim("wrong", sp.Eq((x - y) ** 2, x**2 + y**2), where="§1"),
        paper.claim("amgm", x**2 + y**2 >= 2 * x * y, where="§2"),
        paper.claim("false_ineq", x**2 + y**2 <= 2 * x * y, where="§2"),
        paper.claim("misprint", sp.Eq(x * (x + 1), x**2), where="§3", corrected=sp.Eq(x * (x + 1), x**2 + x)),
        paper.claim("mixed", sp.Eq(x, 2 * x), where="§3", corrected=x**2 + y**2 >= 2 * x * y),
        paper.claim("own", "a paper's own check", where="§4", check=lambda: Outcome.proved("by hand")),
        paper.experiment("exp", lambda: 1e-9, quantity=paper.symbol("e", "e"), tolerance=1e-8, where="§5"),
    ]
    records = {r.claim.id.removeprefix("toy2026."): json.loads(json.dumps(r.to_json())) for r in run_claims(claims)}
    got = {name: (data["status"], data["routes"], data["self_referential"]) for name, data in records.items()}
    assert got == {
        "eq": ("proved", ["sympy-eq"], False),
        "wrong": ("refuted", ["sympy-eq", "counterexample-30"], False),
        "amgm": ("proved", ["z3"], False),
        "false_ineq": ("refuted", ["z3"], False),
        "misprint": ("erratum", ["sympy-eq", "counterexample-30"], False),
        "mixed": ("erratum", ["sympy-eq", "counterexample-30", "z3"], False),
        "own": ("proved", ["paper-check"], False),
        "exp": ("numerically-supported", ["numeric-experiment"], False),
    }
    assert Record.from_json(records["mixed"]).outcome.routes == ("sympy-eq", "counterexample-30", "z3")


def test_derivation_rechecks_are_self_referential_and_all_of_keeps_it() -> None:
    derivation = models.get("deep_linear_whitened").closed_form.derivation
    verified = derivation_verified(derivation)
    assert verified.status is Status.PROVED and verified.self_referential and verified.routes == ("derivation-steps",)
    tag = derivation.steps[0].tag
    steps = derivation_steps(derivation, [tag])()
    assert steps.self_referential and steps.routes == ("derivation-steps",)
    combined = all_of(lambda: verified, identities([x - x]))()
    assert combined.status is Status.PROVED and combined.self_referential
    assert combined.routes == ("derivation-steps", "sympy-eq")
    plain = identities([x - x])()
    assert not plain.self_referential and plain.routes == ("sympy-eq",)
    algebra = free_algebra_zero(lambda: {"r": sp.S.Zero}, "toy")()
    assert algebra.routes == ("free-algebra",) and not algebra.self_referential


def test_a_refuted_derivation_step_is_self_referential_too() -> None:
    derivation = models.get("deep_linear_whitened").closed_form.derivation
    steps = list(derivation.steps)
    index = next(i for i, step in enumerate(steps) if step.residual is not None)
    steps[index] = dataclasses.replace(steps[index], residual=steps[index].residual + x)  # a wrong step
    wrong = Derivation(derivation.title, derivation.assumptions, derivation.relations, derivation.definitions, steps)
    for outcome in (derivation_verified(wrong), derivation_steps(wrong, [steps[index].tag])()):
        assert outcome.status is Status.REFUTED and outcome.self_referential
        assert outcome.routes == ("derivation-steps",)
        assert Outcome.from_json(json.loads(json.dumps(outcome.to_json()))).self_referential


def test_unknown_route_names_are_refused() -> None:
    with pytest.raises(ValueError, match="routes must be a tuple of names"):
        Outcome.proved("m", routes=("sympy",))


def record(claim_id: str, outcome: Outcome) -> Record:
    text = ClaimText(claim_id, Citation("toy", "Toy 2026, §1", "§1"), "x = x", "\\paragraph{x}")
    return Record(text, outcome, 0.5)


def test_the_table_and_the_latex_table_mark_self_referential_claims() -> None:
    referential = record("toy.steps", Outcome.proved("re-check", routes=("derivation-steps",), self_referential=True))
    plain = record("toy.eq", Outcome.proved("rational identity", routes=("sympy-eq",)))
    lines = format_table([referential, plain]).splitlines()
    assert lines[2].split()[:2] == ["toy.steps", "proved*"] and lines[3].split()[:2] == ["toy.eq", "proved"]
    assert lines[-1] == SELF_REFERENTIAL_NOTE
    assert SELF_REFERENTIAL_NOTE not in format_table([plain])
    table = claims_table([referential, plain], "toy")
    assert r"proved\textsuperscript{\dag} &" in table and table.count(r"\dag") == 2  # the row and the note
    assert r"\dag" not in claims_table([plain], "toy")


def test_an_experiment_fails_on_a_bound_beyond_its_allowance() -> None:
    paper = toy_paper()
    err = paper.symbol("err", r"\epsilon")

    def measured(ratio: float) -> Measurement:
        bound = Bound("float64 error / allowance", ratio, 1.0, "numeric-float64")
        return Measurement(1e-30, "30 digits", routes=("numeric-mpmath-30",), bounds=(bound,))

    within = run_check(paper.experiment("ok", lambda: measured(0.5), quantity=err, tolerance=1e-25, where="§1"))
    assert within.status is Status.NUMERIC and within.routes == ("numeric-mpmath-30", "numeric-float64")
    beyond = run_check(paper.experiment("no", lambda: measured(3.0), quantity=err, tolerance=1e-25, where="§1"))
    assert beyond.status is Status.REFUTED and beyond.counterexample["float64 error / allowance"].startswith("3 ")
    nan = run_check(paper.experiment("nan", lambda: measured(float("nan")), quantity=err, tolerance=1.0, where="§1"))
    assert nan.status is Status.REFUTED


def _long_records() -> list[Record]:
    method = "closed-form width sweep, d = (100, 400, 1600, 6400, 25600), 1000 inits, log-log fit of medians " * 2
    return [
        record("toy.a_rather_long_claim_identifier.with_parts", Outcome.numeric(method, "")),
        record("toy.eq", Outcome.proved("rational identity", routes=("sympy-eq",))),
    ]


@pytest.mark.parametrize("width", [80, 100, 120])
def test_the_table_fits_the_width_it_is_given(width: int) -> None:
    lines = format_table(_long_records(), width=width).splitlines()
    assert max(map(len, lines)) <= width
    # every word of each method is kept, on its row's lines
    assert sum(line.count("medians") for line in lines) == 2


def test_a_narrow_table_puts_the_method_under_its_row() -> None:
    lines = format_table(_long_records(), width=80).splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("toy.a_rather"))
    assert lines[row].split() == ["toy.a_rather_long_claim_identifier.with_parts", "numerically-supported", "0.50"]
    assert lines[row + 1].startswith("    closed-form width sweep")
    # narrower than claim, status and seconds together: the method lines still keep to the width
    assert all(len(line) <= 60 for line in format_table(_long_records(), width=60).splitlines() if line[:1] == " ")
    wide = format_table(_long_records(), width=120).splitlines()
    assert "closed-form" in wide[2]  # the method beside its claim where there is room


def test_the_table_follows_the_terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert max(map(len, format_table(_long_records()).splitlines())) <= 80
    monkeypatch.setenv("COLUMNS", "500")  # never wider than MAX_WIDTH
    assert max(map(len, format_table(_long_records()).splitlines())) <= 120
    with pytest.raises(ValueError, match="width must be an int >= 20"):
        format_table(_long_records(), width=5)
