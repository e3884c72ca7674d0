"""The up-front step estimate of ``method="taylor"`` (issue 27): time to refusal of requests beyond the budget,
stage 1 alone (the flow's rate at the start / ``TAYLOR_STEP_RATE``: the estimate before the sample integration)
against both stages (``budget.check_taylor_budget``: a sample of ``TAYLOR_SAMPLE_STEPS`` steps extrapolated by
``taylor_projection``); and, for requests within the budget, the projected steps against those counted.

Run: ``PYTHONPATH=. python benchmarks/taylor_budget.py`` (needs heyoka, the ``[taylor]`` extra). Each model's
integrator is compiled once before its rows are timed (the JIT compilation, 0.5 to 5 s, is a cost of the first call of a
model and width, with or without the estimate); the time to refusal is then that of the estimate and, where it lets the
request through, of the counted integration up to ``max_steps``.
"""

from __future__ import annotations

import time
from functools import partial

import numpy as np

import numerics.methods.taylor as taylor_method
from numerics import taylor, trajectory
from numerics.budget import BudgetError, taylor_projection

TWO_LAYER = ("two_layer_scalar", {"S": 1.0, "Z": 1.0})
LAMBDA = ("lambda_balanced", {"S": np.array([2.0, 1.5])})
CHAIN = ("deep_scalar_chain", {"S": 1.3, "lam": 0.8})
UV = ("uv_model", {"n": 2.0, "a": 1.0, "b": 0.8})

STARTS = {
    "two_layer_scalar": {"a": np.array([0.05, -0.02]), "b": np.array([0.03, 0.04])},
    "two_layer_scalar, larger start": {"a": np.array([0.5, -0.2]), "b": np.array([0.3, 0.4])},
    "lambda_balanced": {"a": np.array([1.0, -0.6]), "b": np.array([0.1, 0.4])},
    # near its fixed point a b = S (a = b = sqrt(S), moved by 1e-6): the steps are set by the linearised flow
    "lambda_balanced at its fixed point": {"a": np.sqrt([2.0, 1.5]) + 1e-6, "b": np.sqrt([2.0, 1.5])},
    "deep_scalar_chain": {"a1": np.array([1.0]), "a2": np.array([0.9]), "a3": np.array([1.1])},
    "uv_model": {"u": np.array([0.4, -0.3]), "v": np.array([0.2, 0.5])},
}

OVER = [  # (label, model, params, start, t, max_steps): 5 to 30 times beyond the budget
    ("λ-balanced", *LAMBDA, "lambda_balanced", 1e7, None),
    ("λ-balanced near its fixed point", *LAMBDA, "lambda_balanced at its fixed point", 1e7, None),
    ("deep scalar chain", *CHAIN, "deep_scalar_chain", 1e7, None),
    ("deep scalar chain, max_steps=1e5", *CHAIN, "deep_scalar_chain", 3e6, 100_000),
    ("uv model", *UV, "uv_model", 1e8, None),
    ("uv model, max_steps=1e4", *UV, "uv_model", 1e6, 10_000),
]
WITHIN = [  # (label, model, params, start, t)
    ("λ-balanced", *LAMBDA, "lambda_balanced", 1e5),
    ("λ-balanced near its fixed point", *LAMBDA, "lambda_balanced at its fixed point", 1e5),
    ("two-layer scalar, small start", *TWO_LAYER, "two_layer_scalar", 1e5),
    ("deep scalar chain", *CHAIN, "deep_scalar_chain", 3e4),
    ("uv model", *UV, "uv_model", 1e5),
    ("two-layer scalar, to its fixed point", *TWO_LAYER, "two_layer_scalar, larger start", 1e8),
]


def stage_one_only() -> object:
    """The estimate as it was before the sample integration: ``check_taylor_budget`` without ``sample``."""
    check = taylor_method.check_taylor_budget
    return partial(lambda *args, sample=None: check(*args[:6]))


def time_to_refusal(model: str, params: dict, init: dict, t: float, max_steps: int | None) -> tuple[float, str]:
    start = time.perf_counter()
    try:
        trajectory(model, [t], params, init, method="taylor", max_steps=max_steps)
        outcome = "ran"
    except BudgetError as error:
        outcome = "estimate" if "would need about" in str(error) or "sample" in str(error) else "count"
    return time.perf_counter() - start, outcome


def counted_steps(model: str, params: dict, init: dict, t: float) -> tuple[float, int]:
    """The steps projected from the estimate's sample (its own count if it reaches t) and those counted."""
    traces: list[list[tuple[float, int]]] = []
    sample = taylor_method.sample_progress

    def recorded(*args: object, **kwargs: object) -> list[tuple[float, int]]:
        traces.append(sample(*args, **kwargs))  # type: ignore[arg-type]
        return traces[-1]

    taylor_method.sample_progress = recorded
    try:
        run = trajectory(model, [t], params, init, method="taylor")
    finally:
        taylor_method.sample_progress = sample
    trace = traces[-1]
    projected = float(trace[-1][1]) if trace[-1][0] >= t else taylor_projection(trace, t)
    return projected, int(run.stats.steps or 0)


def main() -> None:
    if not taylor.available():
        print("heyoka is not installed (pip install '.[taylor]')")
        return
    for _, model, params, start, *_ in OVER:
        trajectory(model, [1.0], params, STARTS[start], method="taylor")  # compile
    print("Requests beyond the budget: time to refusal (s), stage 1 alone (before) and both stages (after)")
    print(f"{'request':42s} {'t':>8s} {'max_steps':>9s} {'before':>14s} {'after':>14s} {'ratio':>7s}")
    for label, model, params, start, t, budget in OVER:
        init = STARTS[start]
        after, how_after = time_to_refusal(model, params, init, t, budget)
        original = taylor_method.check_taylor_budget
        taylor_method.check_taylor_budget = stage_one_only()
        try:
            before, how_before = time_to_refusal(model, params, init, t, budget)
        finally:
            taylor_method.check_taylor_budget = original
        shown = f"{budget or 10**6:.0e}"
        print(
            f"{label:42s} {t:8.0e} {shown:>9s} {before:8.2f} {how_before:>5s} {after:8.3f} {how_after:>5s} "
            f"{before / after:7.0f}"
        )
    print()
    print("Requests within the budget: steps projected from the 1024-step sample against those counted")
    print(f"{'request':42s} {'t':>8s} {'projected':>10s} {'counted':>9s} {'ratio':>6s}")
    for label, model, params, start, t in WITHIN:
        projected, counted = counted_steps(model, params, STARTS[start], t)
        print(f"{label:42s} {t:8.0e} {projected:10.4g} {counted:9d} {projected / counted:6.2f}")


if __name__ == "__main__":
    main()
