"""``--from-json FILE``: a saved report validated before use (size, depth, types, finite numbers, registered
papers and claims), every refusal one line naming the file and the field, exit 2; ``--paper`` / ``--claim``
honoured on saved results."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import pytest

from proofs_check import saved
from proofs_check.cli import main
from tests.proofs_check.saved_reports import saved_report, toy_registry


@pytest.fixture(autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(path))
    return path


def write(tmp_path: Path, data: object, name: str = "r.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one line ``main`` prints on stderr when it refuses ``argv`` with exit 2 (stdout empty)."""
    capsys.readouterr()  # what came before (e.g. the live run that built the saved report, once per worker)
    assert main(argv, registry=toy_registry()) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_a_saved_report_is_reported_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, saved_report())
    assert main(["--from-json", str(path)], registry=toy_registry()) == 1  # p1.r is refuted
    out = capsys.readouterr().out
    assert [line.split()[:2] for line in out.splitlines()[2:6]] == [
        ["p1.a", "proved"],
        ["p1.b", "numerically-supported"],
        ["p1.r", "refuted"],
        ["p2.a", "proved"],
    ]
    assert out.splitlines()[-1].startswith("self-test: 6 controls, all as expected")


def _set(key: str, value: object, record: int = 0) -> Callable[[dict], None]:
    def mutate(data: dict) -> None:
        data["claims"][record][key] = value

    return mutate


def _drop(key: str) -> Callable[[dict], None]:
    return lambda data: data["claims"][0].pop(key)


def _duplicate(data: dict) -> None:
    data["claims"].append(dict(data["claims"][0]))


def _control_id(data: dict) -> None:
    data["control"]["claims"][0]["id"] = "control.nosuch"


def _paper_key(data: dict) -> None:
    data["papers"][0]["key"] = "p9"


def _paper_year(data: dict) -> None:
    data["papers"][1]["year"] = "2026"


HOSTILE: dict[str, tuple[Callable[[dict], None], str, str]] = {
    "nan seconds": (_set("seconds", math.nan), "claims[0].seconds", "finite number >= 0, got nan"),
    "infinite seconds": (_set("seconds", math.inf), "claims[0].seconds", "got inf"),
    "huge seconds": (_set("seconds", 10**400), "claims[0].seconds", "finite number"),
    "negative seconds": (_set("seconds", -1.0), "claims[0].seconds", "got -1.0"),
    "text seconds": (_set("seconds", "1.5"), "claims[0].seconds", "got '1.5'"),
    "bool seconds": (_set("seconds", True), "claims[0].seconds", "got True"),
    "no seconds": (_drop("seconds"), "claims[0]", "'seconds' is missing"),
    "no id": (_drop("id"), "claims[0]", "'id' is missing"),
    "id a number": (_set("id", 3), "claims[0].id", "must be a string, got 3"),
    "unknown claim": (_set("id", "p1.nosuch"), "claims[0].id", "claim 'p1.nosuch' is not registered"),
    "wrong paper": (_set("paper", "p2"), "claims[0].paper", "registered under paper 'p1', not 'p2'"),
    "unknown status": (_set("status", "maybe"), "claims[0].status", "got 'maybe'"),
    "unknown route": (_set("routes", ["oracle"]), "claims[0].routes", "unknown route 'oracle'"),
    "routes a string": (_set("routes", "z3"), "claims[0].routes", "must be an array"),
    "method a list": (_set("method", ["x"]), "claims[0].method", "must be a string"),
    "derived a string": (_set("derived", "yes"), "claims[0].derived", "must be true or false"),
    "latex a number": (_set("latex", 1), "claims[0].latex", "must be a string"),
    "assumption a number": (_set("assumptions", [1]), "claims[0].assumptions[0]", "must be a string"),
    "counterexample value": (_set("counterexample", {"x": 1}, 2), "claims[2].counterexample['x']", "got 1"),
    "counterexample a list": (_set("counterexample", [1], 2), "claims[2].counterexample", "must be an object"),
    "lone surrogate": (_set("method", "\ud800"), "claims[0].method", "not writable as UTF-8"),
    "record a list": (lambda d: d["claims"].__setitem__(1, []), "claims[1]", "must be an object, got []"),
    "claims an object": (lambda d: d.__setitem__("claims", {}), "report.claims", "must be an array"),
    "no papers": (lambda d: d.pop("papers"), "report", "'papers' is missing"),
    "duplicate claim": (_duplicate, "claims[4].id", "claim 'p1.a' is saved twice"),
    "unknown paper": (_paper_key, "papers[0].key", "paper 'p9' is not registered"),
    "year a string": (_paper_year, "papers[1].year", "must be an integer"),
    "unknown control": (_control_id, "control.claims[0].id", "control 'control.nosuch' is not registered"),
    "control not an object": (lambda d: d.__setitem__("control", 1), "control", "must be an object"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_bad_field_is_refused_naming_file_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    mutate, field, message = HOSTILE[case]
    data = saved_report()
    mutate(data)
    path = write(tmp_path, data)
    err = refused(capsys, ["--from-json", str(path)])
    assert f"--from-json {str(path)!r}: {field}: " in err and message in err, err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "not JSON (Expecting value"),
        (b'{"claims": [', "not JSON"),
        (b"[" * 10_000 + b"]" * 10_000, "nested deeper than 32 arrays/objects (at byte 32)"),
        (b"[1, " + b"9" * 5000 + b"]", "not JSON (Exceeds the limit"),
        (b"\xff\xfe{}", "not UTF-8 text (byte 0)"),
        (b"[]", "report: must be an object, got []"),
        (b"NaN", "report: must be an object, got nan"),
    ],
)
def test_a_file_that_is_no_report_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    err = refused(capsys, ["--from-json", str(path)])
    assert err.startswith(f"python -m proofs_check: error: --from-json {str(path)!r}: ") and message in err, err


def test_depth_and_size_limits_are_exact() -> None:
    """At the limit accepted, one past it refused: a wrong variant (an off-by-one, or no limit) fails here."""
    saved.check_depth("[" * 32 + "]" * 32)
    saved.check_depth('["' + "[" * 100 + '"]')  # brackets inside a string do not nest
    with pytest.raises(saved.SavedReportError, match="deeper than 32"):
        saved.check_depth("[" * 33 + "]" * 33)
    with pytest.raises(saved.SavedReportError, match="deeper than 3 "):
        saved.check_depth('{"a": [{"b": [1]}]}', limit=3)


def test_size_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(b" " * 99 + b"{}")
    assert saved.read_text(str(path), limit=101) == " " * 99 + "{}"
    with pytest.raises(saved.SavedReportError, match="larger than 100 bytes"):
        saved.read_text(str(path), limit=100)
    with pytest.raises(ValueError, match="limit must be an int >= 1"):
        saved.read_text(str(path), limit=0)
    monkeypatch.setattr(saved, "MAX_BYTES", 100)
    assert "larger than 100 bytes (the limit of a saved report)" in refused(capsys, ["--from-json", str(path)])


def test_an_unbounded_stream_is_never_read_past_the_limit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/dev/zero`` never ends: one read of at most limit + 1 bytes, then the refusal."""
    requested: list[int] = []

    class Spy:
        def __init__(self, stream: BinaryIO) -> None:
            self.stream = stream

        def __enter__(self) -> Spy:
            return self

        def __exit__(self, *exc: object) -> None:
            self.stream.close()

        def fileno(self) -> int:
            return self.stream.fileno()

        def read(self, size: int = -1) -> bytes:
            requested.append(size)
            return self.stream.read(size)

    monkeypatch.setattr(saved, "open", lambda path, mode: Spy(open(path, mode)), raising=False)  # noqa: SIM115
    monkeypatch.setattr(saved, "MAX_BYTES", 1 << 20)
    assert "file: larger than 1048576 bytes" in refused(capsys, ["--from-json", "/dev/zero"])
    assert requested == [(1 << 20) + 1]


@pytest.mark.parametrize(
    ("name", "message"),
    [("missing.json", "cannot be read (No such file or directory)"), ("", "cannot be read (Is a directory)")],
)
def test_an_unreadable_path_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, message: str
) -> None:
    path = tmp_path / name if name else tmp_path
    assert message in refused(capsys, ["--from-json", str(path)])


def test_claim_and_paper_select_saved_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, saved_report())

    def reported(*argv: str) -> list[str]:
        json_path = tmp_path / "again.json"
        main(["--from-json", str(path), *argv, "--json", str(json_path)], registry=toy_registry())
        capsys.readouterr()
        data = json.loads(json_path.read_text(encoding="utf-8"))
        return [c["id"] for c in data["claims"]] + [p["key"] for p in data["papers"]]

    assert reported("--claim", "p1.a") == ["p1.a", "p1"]
    assert reported("--paper", "p2") == ["p2.a", "p2"]
    assert reported("--claim", "p1.r", "--claim", "p2") == ["p1.r", "p2.a", "p1", "p2"]
    assert main(["--from-json", str(path), "--claim", "p1.a"], registry=toy_registry()) == 0  # p1.r left out
    capsys.readouterr()
    assert "unknown paper 'p9'" in refused(capsys, ["--from-json", str(path), "--paper", "p9"])
    assert "no claim id starts with 'p3'" in refused(capsys, ["--from-json", str(path), "--claim", "p3"])
    only_p1 = saved_report()
    only_p1["claims"] = only_p1["claims"][:3]
    path = write(tmp_path, only_p1, "p1.json")
    assert "claims: no saved claim is among those --paper/--claim select" in refused(
        capsys, ["--from-json", str(path), "--paper", "p2"]
    )


PLANTED = r"\input{/etc/passwd}"


def _plant(data: dict) -> None:
    """``PLANTED`` in every string the saved report holds about its claims and papers."""
    for k, record in enumerate([*data["claims"], *data["control"]["claims"]]):
        for key in ("latex", "reference", "section", "equation", "method", "detail", "printed", "corrected"):
            record[key] = PLANTED
        record["assumptions"] = [PLANTED]
        record["statement"] = PLANTED if k % 2 else f"(statement not built: {PLANTED})"
        if record["counterexample"]:
            record["counterexample"] = {PLANTED: PLANTED}
    for paper in data["papers"]:
        paper.update(title=PLANTED, venue=PLANTED, url=PLANTED, authors=[PLANTED])


def test_no_latex_from_the_file_reaches_the_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The statements are re-rendered from the registered claims; what the file gives (methods, details,
    counterexamples) is escaped text. A wrong variant, the document built from the records as saved, carries the
    planted ``\\input``: the check below would catch it."""
    from proofs_check.latex_report import document
    from proofs_check.paper import PaperInfo
    from proofs_check.runner import Record

    data = saved_report()
    _plant(data)
    path, tex = write(tmp_path, data), tmp_path / "r.tex"
    assert main(["--from-json", str(path), "--latex", str(tex)], registry=toy_registry()) == 1
    assert PLANTED in capsys.readouterr().out  # the text table shows the saved method as it is
    text = tex.read_text(encoding="utf-8")
    assert "\\input" not in text
    assert text.count("/etc/passwd") == text.count(r"\textbackslash{}input\{/etc/passwd\}") > 0
    # the registered statement (p1.b), an unbuilt one said so (p1.a), the registered paper
    assert "about p1.b" in text and "about p1.a" not in text and "statement not built" in text
    assert r"\section{Paper \ensuremath{p_1}}" in text
    records, papers = [Record.from_json(c) for c in data["claims"]], [PaperInfo.from_json(p) for p in data["papers"]]
    raw = document(records, papers, include_uncited=False, equation_tags={})
    assert PLANTED in raw


def test_an_unselected_record_is_validated_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Found by the fuzz test: a record under the wrong paper passed when --paper left it out."""
    data = saved_report()
    data["claims"][0]["paper"] = "p2"
    path = write(tmp_path, data)
    err = refused(capsys, ["--from-json", str(path), "--paper", "p2"])
    assert "claims[0].paper: claim 'p1.a' is registered under paper 'p1', not 'p2'" in err
