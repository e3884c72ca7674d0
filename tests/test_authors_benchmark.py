"""``benchmarks/authors.py``: the authors-style re-implementations agree with the package on each task (their
timings are not checked here), and the agreement check catches a wrong variant."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("authors_benchmark", ROOT / "benchmarks" / "authors.py")
assert _spec is not None and _spec.loader is not None
authors = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = authors  # dataclasses look their module up there
_spec.loader.exec_module(authors)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(authors.TASKS))
def test_each_task_agrees_with_the_package(name: str) -> None:
    task = authors.TASKS[name](1)
    assert task.disagreement < 1e-9, task
    assert task.authors > 0 and task.package > 0


def test_a_wrong_gd_loop_disagrees() -> None:
    """Nam et al.'s loop at twice the learning rate is caught by the comparison the benchmark makes."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((2, 20))
    Y = X + 0.1 * rng.standard_normal((2, 20))
    W1, W2 = 0.1 * rng.standard_normal((2, 2)), 0.1 * rng.standard_normal((2, 2))
    right = np.array(authors.nam_train(W1, W2, X, Y, 300, 0.01)[0])
    wrong = np.array(authors.nam_train(W1, W2, X, Y, 300, 0.02)[0])
    assert authors.relative(wrong, right) > 1e-3


def test_kunin_agf_matches_pesme_flammarion_and_a_wrong_scale_does_not() -> None:
    """Their AGF times / log(1/alpha) are PF's times (n × their PF's); dividing by log(1/alpha²) instead is caught."""
    X, y = authors.dln_problem_a()
    alpha = 1e-100
    times = np.array(authors.kunin_agf(X, y, alpha)[2][1:])
    pf = np.array(authors.kunin_pesme_flammarion(X, y)[1:]) * len(y)
    assert authors.relative(times / np.log(1 / alpha), pf) < 1e-9
    assert authors.relative(times / np.log(1 / alpha**2), pf) > 0.1
