"""A toy registry and one report saved from it by ``--json``, for the tests of ``--from-json`` (the CLI tests and
the fuzz test's CLI-files surface): the report is produced once per session by a real run, then copied."""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
import tempfile
from pathlib import Path

import pytest

from proofs_check import Paper, Registry
from proofs_check.claims import Outcome
from proofs_check.cli import main

OUTCOMES = {
    "p1.a": Outcome.proved("rational identity"),
    "p1.b": Outcome.numeric("mpmath 30 digits"),
    "p1.r": Outcome.refuted("substitution", {"x": "1/2"}, detail="lhs - rhs = 1/4"),
    "p2.a": Outcome.proved("rational identity"),
}


def toy_registry() -> Registry:
    """Papers p1 and p2 whose claims return :data:`OUTCOMES`; statements are text."""
    papers: dict[str, Paper] = {}
    for claim_id, outcome in OUTCOMES.items():
        key, name = claim_id.split(".", 1)
        paper = papers.setdefault(key, Paper(key, f"Paper {key}", ("A. Toy",), "arXiv", 2026))
        paper.claim(name, f"about {claim_id}", where="§1", check=lambda outcome=outcome: outcome)
    return Registry(papers.values())


@functools.lru_cache(maxsize=1)
def _saved() -> str:
    with tempfile.TemporaryDirectory() as directory, pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", directory)  # the run's timings are not the user's
        path = Path(directory) / "report.json"
        # its table and progress lines would land in the output a test reads (capsys) right after the first call
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = main(["--jobs", "1", "--json", str(path)], registry=toy_registry())
        assert code == 1, "p1.r is refuted on purpose"
        return path.read_text(encoding="utf-8")


def saved_report() -> dict:
    """A fresh copy of the report a run of :func:`toy_registry` saved (claims p1.a, p1.b, p1.r, p2.a; the
    self-test)."""
    return copy.deepcopy(json.loads(_saved()))
