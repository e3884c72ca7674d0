"""The ``python -m proofs_check`` command: toy registries, a user's FILE.py, output paths, timeouts, pipes."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from proofs_check import Paper, Registry, control
from proofs_check.claims import Outcome
from proofs_check.cli import build_parser, main

PROVED = Outcome.proved("rational identity")
NUMERIC = Outcome.numeric("mpmath 30 digits")
REFUTED = Outcome.refuted("substitution", {"x": "1/2"}, detail="lhs - rhs = 1/4")
ERROR = Outcome.error("KeyError: 'y'")
REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(REPO)}


def registry_of(*entries: tuple[str, Outcome]) -> Registry:
    """Papers p1, p2, … whose claim ``<paper>.<name>`` returns the given outcome."""
    papers: dict[str, Paper] = {}
    for claim_id, outcome in entries:
        key, name = claim_id.split(".", 1)
        paper = papers.setdefault(key, Paper(key, f"Paper {key}", ("A. Toy",), "arXiv", 2026))
        paper.claim(name, f"about {claim_id}", where="§1", check=lambda outcome=outcome: outcome)
    return Registry(papers.values())


@pytest.fixture(autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The timings cache of each test in a directory of its own (not the user's)."""
    path = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(path))
    return path


GOOD = registry_of(("p1.a", PROVED), ("p1.b", NUMERIC), ("p2.a", PROVED))
ONE_JOB = ["--jobs", "1"]


def test_all_proved_prints_table_and_summary_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(ONE_JOB, registry=GOOD) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split() == ["claim", "status", "method", "seconds"]
    assert [line.split()[:2] for line in lines[2:5]] == [
        ["p1.a", "proved"],
        ["p1.b", "numerically-supported"],
        ["p2.a", "proved"],
    ]
    # the papers' summary counts the papers' claims only; the self-test has a section and a line of its own
    (summary,) = [line for line in lines if " claims: " in line]
    assert summary.startswith("3 claims: 2 proved, 1 numerically-supported, 0 erratum, 0 refuted, 0 error (")
    assert lines.index(summary) < lines.index(next(line for line in lines if line.startswith("Self-test (control")))
    assert lines[-1].startswith("self-test: 6 controls, all as expected (")
    # piped: one progress line per claim on stderr, then one per control
    assert err.splitlines()[0].startswith("[1/3] p1.a proved (")
    assert err.splitlines()[3].startswith("[1/6] control.")


@pytest.mark.parametrize(("outcome", "code"), [(REFUTED, 1), (ERROR, 1), (NUMERIC, 0)])
def test_exit_code(capsys: pytest.CaptureFixture[str], outcome: Outcome, code: int) -> None:
    assert main(ONE_JOB, registry=registry_of(("p1.a", PROVED), ("p1.x", outcome))) == code


def test_json_file_round_trip_with_versions_and_papers(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    assert main([*ONE_JOB, "--json", str(path)], registry=registry_of(("p1.a", PROVED), ("p1.r", REFUTED))) == 1
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [c["status"] for c in data["claims"]] == ["proved", "refuted"]
    assert data["papers"][0]["key"] == "p1" and data["papers"][0]["authors"] == ["A. Toy"]
    assert {"python", "numpy", "scipy", "mpmath", "sympy", "z3-solver"} <= set(data["versions"])


def test_list_shows_ids_without_running(capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[str] = []
    paper = Paper("p1", "t", ("A",), "v", 2026)
    paper.claim("a", "s", where="§1", check=lambda: calls.append("a"))
    assert main(["--list"], registry=Registry([paper])) == 0
    out = capsys.readouterr().out.splitlines()
    heading = "self-test (control; runs with every check, not counted among the claims):"
    assert out[:3] == ["p1.a  A 2026, §1", "", heading]
    assert [line.split()[0] for line in out[3:]] == list(control.expected())
    assert "control.eq.flow_sign" in out[3] and "must come out refuted by sympy-eq" in out[3]
    assert calls == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--paper", "p3"], "unknown paper 'p3'; known papers: p1, p2"),
        (["--claim", "p1.a", "--claim", "p9"], "no claim id starts with 'p9'"),
    ],
)
def test_bad_selection_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(argv, registry=GOOD) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err


def argparse_refusal(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one line of stderr with which the argument parser refuses ``argv`` (exit 2, nothing run)."""
    with pytest.raises(SystemExit) as excinfo:
        main(argv, registry=GOOD)
    assert excinfo.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1, err
    return err


def test_usage_errors_exit_2_and_name_the_program(capsys: pytest.CaptureFixture[str]) -> None:
    err = argparse_refusal(capsys, ["--bogus"])
    assert err.startswith("python -m proofs_check: error: unrecognized arguments: --bogus (see ") and "--help" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--timeout", "inf"], "argument --timeout: must be a finite number of seconds > 0, got 'inf'"),
        (["--timeout", "nan"], "got 'nan'"),
        (["--timeout", "-1"], "got '-1'"),
        (["--timeout", "0"], "got '0'"),
        (["--timeout", "1e999"], "got '1e999'"),
        (["--timeout", "soon"], "got 'soon'"),
        (["--jobs", "0"], "argument --jobs: must be a whole number of worker processes >= 1, got '0'"),
        (["--jobs", "-2"], "got '-2'"),
        (["--jobs", "1.5"], "got '1.5'"),
    ],
)
def test_bad_numbers_are_refused_by_the_parser(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert message in argparse_refusal(capsys, argv)


def test_good_numbers_are_taken() -> None:
    args = build_parser().parse_args(["--timeout", "0.5", "--jobs", "3"])
    assert (args.timeout, args.jobs) == (0.5, 3)


def test_help_names_the_console_script(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["/usr/bin/proofs-check", "--help"])
    assert build_parser().format_usage().startswith("usage: proofs-check")
    monkeypatch.setattr(sys, "argv", ["/x/proofs_check/__main__.py"])
    assert build_parser().format_usage().startswith("usage: python -m proofs_check")


def test_timings_are_kept_for_the_next_run(cache_dir: Path) -> None:
    assert main(ONE_JOB, registry=GOOD) == 0
    stored = json.loads((cache_dir / "layerwise-linear-flows" / "claim-seconds.json").read_text())
    assert set(stored) == {"p1.a", "p1.b", "p2.a", *control.expected()}


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as excinfo:
        main(["--version"])
    assert excinfo.value.code == 0
    assert capsys.readouterr().out.split()[-1]


def destinations(tmp_path: Path) -> list[tuple[list[str], str]]:
    regular = tmp_path / "file.txt"
    regular.write_text("x")
    return [
        (["--json", str(tmp_path)], "is a directory"),
        (["--json", str(tmp_path / "missing" / "r.json")], "does not exist"),
        (["--latex", str(regular / "r.tex")], "is a file, not a directory"),
        (["--pdf", str(tmp_path / "x.txt")], "must end in .pdf"),
    ]


def test_bad_output_paths_exit_2_before_any_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[str] = []
    paper = Paper("p1", "t", ("A",), "v", 2026)
    paper.claim("a", "s", where="§1", check=lambda: calls.append("a") or PROVED)
    for argv, message in destinations(tmp_path):
        assert main([*ONE_JOB, *argv], registry=Registry([paper])) == 2, argv
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err
    assert calls == []


PROC = Path("/proc/version")


@pytest.mark.skipif(not PROC.is_file(), reason="needs Linux's /proc")
@pytest.mark.parametrize("option", ["--json", "--latex"])
@pytest.mark.parametrize(
    ("path", "message"),
    [
        (str(PROC), "not writable (Input/output error)"),  # opens for writing, then fails every write, even root's
        ("/proc/r.out", "not writable ("),  # a directory nobody may create files in
        ("/proc/missing/r.out", "the directory '/proc/missing' does not exist"),
        ("/proc", "is a directory"),
    ],
)
def test_unwritable_outputs_exit_2_before_any_check(
    capsys: pytest.CaptureFixture[str], option: str, path: str, message: str
) -> None:
    calls: list[str] = []
    paper = Paper("p1", "t", ("A",), "v", 2026)
    paper.claim("a", "s", where="§1", check=lambda: calls.append("a") or PROVED)
    assert main([*ONE_JOB, option, path], registry=Registry([paper])) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"python -m proofs_check: error: {option} {path!r}: ")
    assert message in err and len(err.splitlines()) == 1, err
    assert calls == []


@pytest.mark.skipif(not PROC.is_file() or os.geteuid() != 0, reason="as root on Linux")
def test_the_permission_bits_would_not_have_caught_proc_version() -> None:
    """The wrong variant (``os.access``, the check before) lets ``/proc/version`` through for root."""
    assert os.access(PROC, os.W_OK)


def test_a_fifo_nobody_reads_is_refused_without_blocking(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert main([*ONE_JOB, "--json", str(fifo)], registry=GOOD) == 2
    assert "not writable (No such device or address)" in capsys.readouterr().err


def test_the_check_changes_no_file(tmp_path: Path) -> None:
    from proofs_check.output import check_destination

    existing, new = tmp_path / "old.json", tmp_path / "new.json"
    existing.write_text("kept")
    check_destination("--json", str(existing))
    check_destination("--json", str(new))
    assert existing.read_text() == "kept" and not new.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a read-only file")
def test_unwritable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "r.json"
    target.write_text("")
    target.chmod(0o444)
    assert main([*ONE_JOB, "--json", str(target)], registry=GOOD) == 2
    assert "not writable" in capsys.readouterr().err


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    assert main(ONE_JOB, registry=GOOD) == 0
    assert "3/3" in tty.getvalue() and "[1/3] p1.a proved" not in tty.getvalue()
    assert "3/3" not in capsys.readouterr().out


USER_FILE = """
import sympy as sp
from proofs_check import Paper

x, y = sp.symbols("x y", real=True)
paper = Paper("mine2026", "My paper", ("Me Myself",), "arXiv", 2026, notation={"x": "x", "y": "y"})
paper.claim("square", sp.Eq((x + y) ** 2, x**2 + 2 * x * y + y**2), where="§1")
paper.claim("amgm", x**2 + y**2 >= 2 * x * y, where="§2")
paper.claim("wrong", sp.Eq((x - y) ** 2, x**2 + y**2), where="§3")
paper.claim("misprint", sp.Eq(x * (x + 1), x**2), where="§4", corrected=sp.Eq(x * (x + 1), x**2 + x))
"""


def test_user_file_is_checked_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.py"
    path.write_text(USER_FILE)
    out = tmp_path / "out.json"
    tex = tmp_path / "out.tex"
    assert main([str(path), "--jobs", "2", "--json", str(out), "--latex", str(tex)]) == 1
    statuses = {c["id"]: c["status"] for c in json.loads(out.read_text())["claims"]}
    assert statuses == {
        "mine2026.square": "proved",
        "mine2026.amgm": "proved",
        "mine2026.wrong": "refuted",
        "mine2026.misprint": "erratum",
    }
    text = tex.read_text()
    assert r"\section{My paper}" in text and "mine2026.misprint" in text and r"\emph{Corrected:}" in text
    capsys.readouterr()
    # the saved claims are known by the file that registers them
    assert main([str(path), "--from-json", str(out), "--latex", str(tmp_path / "again.tex")]) == 1
    assert "mine2026.square" in capsys.readouterr().out
    assert r"\section{My paper}" in (tmp_path / "again.tex").read_text()


def test_user_file_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty, broken = tmp_path / "empty.py", tmp_path / "broken.py"
    empty.write_text("x = 1\n")
    broken.write_text("raise RuntimeError('boom')\n")
    assert main([str(empty)]) == 2
    assert "defines no proofs_check.Paper" in capsys.readouterr().err
    assert main([str(broken)]) == 2
    assert "boom" in capsys.readouterr().err


def test_a_missing_file_is_named_with_the_directory_it_was_looked_for_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["examples/your_own_paper.py"]) == 2
    err = capsys.readouterr().err
    assert "no file 'examples/your_own_paper.py' relative to the current directory" in err and str(tmp_path) in err
    assert main([str(tmp_path / "missing.py")]) == 2
    assert f"no file '{tmp_path / 'missing.py'}'" in capsys.readouterr().err
    assert main([str(tmp_path)]) == 2  # a directory is not a Python file
    assert "is not a Python file" in capsys.readouterr().err


def test_list_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    path = tmp_path / "many.py"
    path.write_text(
        "import sympy as sp\nfrom proofs_check import Paper, Outcome\npaper = Paper('m', 't', ('A',), 'v', 2026)\n"
        "for k in range(20000):\n    paper.claim(f'c{k}', 'text', where='§1', check=lambda: Outcome.proved('x'))\n"
    )
    command = f"{sys.executable} -m proofs_check {path} --list | head -1"
    result = subprocess.run(command, shell=True, capture_output=True, text=True, env=ENV, check=False)
    assert result.stdout.startswith("m.c0 ")
    assert "BrokenPipeError" not in result.stderr and "Traceback" not in result.stderr


def test_module_entry_point_exits_with_main_code() -> None:
    argv = [sys.executable, "-m", "proofs_check", "--paper", "nosuch"]
    result = subprocess.run(argv, capture_output=True, text=True, check=False, env=ENV)
    assert result.returncode == 2
    assert "unknown paper(s) 'nosuch'" in result.stderr


def test_the_example_file_outside_the_package(tmp_path: Path) -> None:
    """``python -m proofs_check examples/your_own_paper.py --json out.json``: the README's example, in a fresh
    process, with the expected statuses, and its claims in the LaTeX report."""
    out, tex = tmp_path / "out.json", tmp_path / "out.tex"
    argv = [sys.executable, "-m", "proofs_check", str(REPO / "examples" / "your_own_paper.py")]
    argv += ["--json", str(out), "--latex", str(tex), "--jobs", "2"]
    result = subprocess.run(argv, capture_output=True, text=True, env=ENV, cwd=tmp_path, check=False)
    assert result.returncode == 1, result.stderr  # one claim is refuted on purpose
    statuses = {c["id"]: c["status"] for c in json.loads(out.read_text())["claims"]}
    assert statuses == {
        "smith2026.balance": "proved",
        "smith2026.descent": "proved",
        "smith2026.norm": "refuted",
        "smith2026.flow": "erratum",
        "smith2026.converges": "numerically-supported",
    }
    text = tex.read_text()
    assert r"\label{model:chain3}" in text and r"\dot a_i" in text and "smith2026.converges" in text
