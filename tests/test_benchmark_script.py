"""``benchmarks/run.py`` runs (a smoke run at 1/10 of the sizes; its timings are not checked here)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_benchmark_runs_and_prints_its_table() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "benchmarks/run.py", "--quick"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    rows = (
        "closed form",
        "np.exp",
        "DOP853",
        "mpmath.odefun",
        "GD loop",
        "count_conservation_laws",
        "fresh",
        "GD step",
    )
    for row in rows:
        assert row in done.stdout
    assert "| measurement | time | ratio |" in done.stdout
