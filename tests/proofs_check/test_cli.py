"""The ``python -m proofs_check`` command, on injected registries of toy claims."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from proofs_check.claims import Citation, Claim, Outcome, Registry
from proofs_check.cli import main

PROVED = Outcome.proved("rational identity")
NUMERIC = Outcome.numeric("mpmath 30 digits")
REFUTED = Outcome.refuted("substitution", {"x": "1/2"}, detail="lhs - rhs = 1/4")
ERRATUM = Outcome.erratum(REFUTED, PROVED, printed="2 x", corrected="x")
ERROR = Outcome.error("KeyError: 'y'")


def returning(outcome: Outcome) -> Callable[[], Outcome]:
    """A check that returns ``outcome``."""
    return lambda: outcome


def registry_of(*entries: tuple[str, Outcome]) -> Registry:
    """A registry whose claim ``id`` (paper: the id's first dotted part) returns the given outcome."""
    registry = Registry()
    for claim_id, outcome in entries:
        citation = Citation(claim_id.split(".")[0], "Toy et al.")
        registry.register(Claim(claim_id, citation, "x = x", returning(outcome), title=f"about {claim_id}"))
    return registry


GOOD = registry_of(("p1.a", PROVED), ("p1.b", NUMERIC), ("p2.a", PROVED))


def test_all_proved_prints_table_and_summary_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([], registry=GOOD) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split() == ["claim", "status", "method", "seconds"]
    assert [line.split()[:2] for line in lines[2:5]] == [
        ["p1.a", "proved"],
        ["p1.b", "numerically-supported"],
        ["p2.a", "proved"],
    ]
    summary = "3 claims: 2 proved, 1 numerically-supported, 0 erratum, 0 refuted, 0 error ("
    assert lines[-1].startswith(summary)
    assert "Details" not in out
    assert err == ""


@pytest.mark.parametrize(
    ("outcome", "code", "shown"),
    [
        (REFUTED, 1, ["p1.x [refuted]", "lhs - rhs = 1/4", "counterexample: x = 1/2"]),
        (ERROR, 1, ["p1.x [error]", "KeyError: 'y'"]),
        (ERRATUM, 0, ["p1.x [erratum]", "printed:   2 x", "corrected: x", "counterexample: x = 1/2"]),
    ],
)
def test_exit_code_and_details(
    capsys: pytest.CaptureFixture[str], outcome: Outcome, code: int, shown: list[str]
) -> None:
    registry = registry_of(("p1.a", PROVED), ("p1.x", outcome))
    assert main([], registry=registry) == code
    out = capsys.readouterr().out
    details = out.split("Details:")[1]
    assert all(text in details for text in shown)
    assert "p1.a" not in details
    assert out.splitlines()[-1].startswith("2 claims: 1 proved")


def test_json_file_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "report.json"
    registry = registry_of(("p1.a", PROVED), ("p1.e", ERRATUM), ("p1.r", REFUTED))
    assert main(["--json", str(path)], registry=registry) == 1
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [c["id"] for c in data["claims"]] == ["p1.a", "p1.e", "p1.r"]
    assert [c["status"] for c in data["claims"]] == ["proved", "erratum", "refuted"]
    summary = data["summary"]
    assert (summary["total"], summary["proved"], summary["erratum"], summary["refuted"]) == (3, 1, 1, 1)
    assert (summary["numerically-supported"], summary["error"]) == (0, 0)
    assert data["versions"]["python"] == sys.version.split()[0]
    assert "3 claims:" in capsys.readouterr().out


def test_json_to_stdout_moves_table_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--json", "-"], registry=GOOD) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["summary"]["total"] == 3
    assert "p1.b" in err
    assert err.rstrip().endswith("(0.0 s)")


def test_list_shows_ids_and_titles_without_running(capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[str] = []
    registry = Registry()
    registry.register(Claim("p1.a", Citation("p1", "p1"), "s", lambda: calls.append("a"), title="First"))
    assert main(["--list"], registry=registry) == 0
    assert capsys.readouterr().out == "p1.a  First\n"
    assert calls == []


def test_claim_prefix_and_paper_filters(capsys: pytest.CaptureFixture[str]) -> None:
    registry = registry_of(("p1.a", PROVED), ("p1.bad", REFUTED), ("p2.a", PROVED), ("p2.b", PROVED))
    assert main(["--claim", "p1.a", "--claim", "p2.b"], registry=registry) == 0
    assert "2 claims: 2 proved" in capsys.readouterr().out
    assert main(["--paper", "p2", "--paper", "p2", "--list"], registry=registry) == 0
    assert capsys.readouterr().out.split() == ["p2.a", "about", "p2.a", "p2.b", "about", "p2.b"]
    assert main(["--paper", "p1"], registry=registry) == 1
    assert "2 claims: 1 proved" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--paper", "p3"], "unknown paper 'p3'; known papers: p1, p2"),
        (["--claim", "p1.a", "--claim", "p9"], "no claim id starts with 'p9'"),
        (["--paper", "p2", "--claim", "p1"], "no claim id starts with 'p1'"),
    ],
)
def test_bad_selection_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(argv, registry=GOOD) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert message in err


def test_unknown_paper_without_injected_registry_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--paper", "nosuch"]) == 2
    assert "known papers: nam2025" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--bogus"], ["--list", "--json", "-"], ["--paper"]])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as excinfo:
        main(argv, registry=GOOD)
    assert excinfo.value.code == 2
    assert "usage: python -m proofs_check" in capsys.readouterr().err


def test_module_entry_point_exits_with_main_code() -> None:
    argv = [sys.executable, "-m", "proofs_check", "--paper", "nosuch"]
    result = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert "unknown paper(s) 'nosuch'" in result.stderr


class FakeTTY(io.StringIO):
    """A text stream that claims to be a terminal."""

    def isatty(self) -> bool:
        return True


def test_progress_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    registry = registry_of(("p1.long-name", PROVED), ("p1.b", PROVED))
    assert main([], registry=registry) == 0
    assert capsys.readouterr().err == ""

    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    assert main([], registry=registry) == 0
    progress = tty.getvalue()
    assert progress.startswith("\r[1/2] p1.long-name\r[2/2] p1.b")
    assert progress.endswith("\r" + " " * len("[1/2] p1.long-name") + "\r")
    assert "[1/2]" not in capsys.readouterr().out
