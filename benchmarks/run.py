"""Speed of the package against the usual alternatives, measured side by side in one run (issue 14).

Workload: ``two_layer_scalar`` at width p = 4 (a 1-4-1 linear network), S = 2, Z = 1, starts a, b ~ 0.1 N(0, 1),
times ``linspace(0, 10, 1000)``. Every alternative is timed on the same ODE and reported per start and as a
ratio to the package's float64 closed form (30-digit ones to the 30-digit closed form); the issue's targets
are checked where they apply. Prints a markdown table with the date and the machine.

Matrix networks (issue 25): ``linear_network(32, 32)`` at width 32, GD per step and the DOP853 field against
the same matrix products written by hand in numpy, and cold runs in a fresh process with an empty cache.

``python benchmarks/run.py`` (about two minutes on 2 cores; ``--quick`` for a smoke run at 1/10 of the sizes,
whose figures do not test the targets; ``--authors`` adds the authors' own tasks of ``benchmarks/authors.py``).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp
from timing import interleaved  # benchmarks/timing.py, beside this script

from derivations import models
from derivations.conservation import count_conservation_laws
from numerics import taylor, trajectory
from numerics.cache import CACHE_ENV
from numerics.compiled import batch_field
from numerics.dop853 import integrate_batch
from numerics.fused import FUSED_ENV, fused_enabled

ROOT = Path(__file__).resolve().parents[1]
P, S, Z = 4, 2.0, 1.0
PARAMS = {"S": S, "Z": Z}
MODEL = "two_layer_scalar"


@dataclass(frozen=True)
class Row:
    """One measurement: seconds per unit (start, call, …), its ratio to the reference, the target, and the
    largest error relative to the closed form (for trajectories)."""

    what: str
    seconds: float
    unit: str
    ratio: float | None = None
    reference: str = ""
    target: str = ""
    met: bool | None = None
    error: float | None = None


def compared(
    what: str,
    seconds: float,
    unit: str,
    ratio: float,
    reference: str,
    limit: float | None = None,
    error: float | None = None,
) -> Row:
    """A row with its ratio to ``reference``; with ``limit``, the target ``ratio ≤ limit`` checked."""
    if limit is None:
        return Row(what, seconds, unit, ratio, reference, error=error)
    return Row(what, seconds, unit, ratio, reference, f"≤ {limit:g}", ratio <= limit, error)


def best(f: Callable[[], object], repeats: int = 3) -> float:
    """The fastest of ``repeats`` wall-clock runs of ``f``."""
    return interleaved([f], repeats)[0]


def starts(n: int, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"a": 0.1 * rng.standard_normal((n, P)), "b": 0.1 * rng.standard_normal((n, P))}


def closed_form(init: dict[str, np.ndarray], t: np.ndarray) -> dict[str, np.ndarray]:
    return trajectory(MODEL, t, PARAMS, init)


def output_values(result: dict[str, np.ndarray]) -> int:
    return sum(v.size for k, v in result.items() if k != "t")


# ---------------------------------------------------------------- closed form: throughput, memory, chunks
def exp_bound(values: int) -> float:
    """Seconds of a plain ``np.exp`` producing ``values`` numbers (a fresh output array, as a kernel makes)."""
    x = np.random.default_rng(1).random(values)
    return best(lambda: np.exp(x))


def closed_form_rows(n: int, t: np.ndarray) -> tuple[list[Row], float]:
    init = starts(n)
    closed_form(starts(2), t)  # compile
    seconds = best(lambda: closed_form(init, t))
    values = output_values(closed_form(starts(1), t)) * n
    exp_seconds = exp_bound(values)
    throughput, bound = values / seconds, values / exp_seconds
    chunks = 10
    parts = [{k: v[i::chunks] for k, v in init.items()} for i in range(chunks)]
    chunked = best(lambda: [closed_form(part, t) for part in parts])
    tracemalloc.start()
    result = closed_form(init, t)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    output = sum(v.nbytes for k, v in result.items() if k != "t")
    del result
    size = f"{n:.0e} starts × {len(t)} times"
    rows = [
        Row(f"closed form, {size} ({values / 1e6:.0f} M values)", seconds / n, "s/start", 1.0, "closed form"),
        Row(
            f"np.exp over the same {values / 1e6:.0f} M values (bound): closed form at "
            f"{throughput / 1e6:.0f} M/s vs {bound / 1e6:.0f} M/s",
            exp_seconds / n,
            "s/start",
            throughput / bound,
            "throughput / np.exp's",
            "≥ 0.4",
            throughput / bound >= 0.4,
        ),
        Row(
            f"peak memory (tracemalloc) {peak / 2**20:.0f} MiB vs output {output / 2**20:.0f} MiB",
            seconds / n,
            "s/start",
            peak / output,
            "peak / output",
            "≤ 1.2",
            peak / output <= 1.2,
        ),
        Row(
            f"one call of {n} starts vs {chunks} calls of {n // chunks}",
            chunked / n,
            "s/start (chunked)",
            seconds / chunked,
            "one call / chunked",
            "≤ 1.0",
            seconds <= chunked,
        ),
    ]
    return rows, seconds / n


# ---------------------------------------------------------------- closed form: per-value costs (issue 25)
LAYERWISE = "layerwise_lr_linear"
LAYERWISE_PARAMS = {"gamma": 1.0, "eta_u": 1.0, "eta_w": 2.0, "a": 1.0, "b": 1.0}


def per_value_calls(
    cases: Sequence[tuple[str, dict[str, float], dict[str, np.ndarray], np.ndarray]], repeats: int = 5
) -> list[float]:
    """Seconds per output value (states and quantities) of one ``trajectory`` call for each of ``cases`` (model,
    params, init, t), compiled first, timed in turn (``interleaved``) so that a change of load affects them alike."""
    calls, values = [], []
    for model, params, init, t in cases:
        trajectory(model, t, params, {k: v[:1] for k, v in init.items()})  # compile
        values.append(output_values(trajectory(model, t, params, init)))
        calls.append(lambda model=model, params=params, init=init, t=t: trajectory(model, t, params, init))
    return [seconds / n for seconds, n in zip(interleaved(calls, repeats), values, strict=True)]


def closed_form_cost_rows(n: int, times: int) -> list[Row]:
    """Issue 25's closed-form figures (``closed_form_path_rows``) for each float64 path: the fused numba kernels
    (if numba is importable) and the NumPy path (``$LAYERWISE_LINEAR_FLOWS_NUMBA=0``)."""
    paths = [("fused", "1"), ("numpy", "0")] if fused_enabled() else [("numpy", "0")]
    saved = os.environ.get(FUSED_ENV)
    rows = []
    try:
        for path, value in paths:
            os.environ[FUSED_ENV] = value
            rows += closed_form_path_rows(n, times, path)
    finally:
        if saved is None:
            os.environ.pop(FUSED_ENV, None)
        else:
            os.environ[FUSED_ENV] = saved
    return rows


def write_floor(values: int, per_value: float) -> tuple[float, float]:
    """The floor of a kernel that writes ``values`` outputs of ``per_value`` bytes each: seconds per value at the
    write bandwidth measured by ``np.copyto`` of a scalar into an output-sized float64 array (touched first, so
    that page faults are not counted), and that bandwidth (bytes per second)."""
    out = np.empty(int(values * per_value) // 8)
    np.copyto(out, 0.0)
    bandwidth = out.nbytes / best(lambda: np.copyto(out, 1.0))
    return per_value / bandwidth, bandwidth


def closed_form_path_rows(n: int, times: int, path: str) -> list[Row]:
    """Issue 25's closed-form figures on the float64 ``path`` (named in the rows), each a ratio measured in this
    run: two_layer_scalar's throughput against ``np.exp`` on the same number of values (with the floor: the bytes
    written per value at the measured write bandwidth), layerwise_lr_linear per value against two_layer_scalar,
    T = 10 against T = ``times`` per value, and the fixed cost of a call (1 start, 1 time)."""
    t = np.linspace(0.0, 10.0, times)
    init = starts(n)
    small = max(1, n // 10)  # the smaller workloads at the same per-value figure, timed in turn with the reference
    layer_init = {"u": init["a"][:small], "w": init["b"][:small]}
    two_layer, layerwise, few = per_value_calls(
        [
            (MODEL, PARAMS, {k: v[:small] for k, v in init.items()}, t),
            (LAYERWISE, LAYERWISE_PARAMS, layer_init, t),
            (MODEL, PARAMS, starts(small * times // 10), np.linspace(0.0, 10.0, 10)),
        ]
    )
    x = np.random.default_rng(1).random(1 << 24)
    exp_value, full = interleaved([lambda: np.exp(x), lambda: closed_form(init, t)])
    exp_value /= x.size
    result = closed_form(init, t)
    values = output_values(result)
    full /= values
    per_value = sum(v.nbytes for k, v in result.items() if k != "t") / values  # bytes the caller gets per value
    del result
    floor, bandwidth = write_floor(values, per_value)
    one = {k: v[:1] for k, v in init.items()}
    fixed = best(lambda: trajectory(MODEL, np.array([1.0]), PARAMS, one), 20)
    return [
        Row(
            f"[{path}] closed form per value, {MODEL} p = {P}, {n:.0e} starts × {times} times "
            f"(np.exp {exp_value * 1e9:.2g} ns/value; floor {per_value:.3g} B/value at the write bandwidth "
            f"{bandwidth / 1e9:.3g} GB/s = {floor * 1e9:.2g} ns/value, the closed form at {full / floor:.2g}× it)",
            full,
            "s/value",
            exp_value / full,
            "throughput / np.exp's",
            "≥ 0.5",
            exp_value / full >= 0.5,
        ),
        compared(
            f"[{path}] {LAYERWISE} per value (all quantities), {small:.0e} starts × {times} times",
            layerwise,
            "s/value",
            layerwise / two_layer,
            f"{MODEL} per value ({small:.0e} starts)",
            1.5,
        ),
        compared(
            f"[{path}] few times: T = 10, {small * times // 10:.0e} starts, per value",
            few,
            "s/value",
            few / two_layer,
            f"T = {times} per value ({small:.0e} starts)",
            2.0,
        ),
        Row(f"[{path}] fixed cost per call (1 start, 1 time)", fixed, "s/call"),
    ]


# ---------------------------------------------------------------- float64 integrators
def raw_rhs(_time: float, y: np.ndarray) -> np.ndarray:
    """The same ODE written by hand for one start: a' = b (S - θ)/Z, b' = a (S - θ)/Z, θ = a·b/Z."""
    a, b = y[:P], y[P:]
    rate = (S - a @ b / Z) / Z
    return np.concatenate([b * rate, a * rate])


def raw_dop853_per_start(init: dict[str, np.ndarray], t: np.ndarray) -> np.ndarray:
    """SciPy's DOP853 start by start, as one would write it (rtol 1e-13, atol at the start's rounding level)."""
    out = []
    for a0, b0 in zip(init["a"], init["b"], strict=True):
        y0 = np.concatenate([a0, b0])
        atol = 1e-16 * np.abs(y0).max()
        out.append(solve_ivp(raw_rhs, (0.0, t[-1]), y0, method="DOP853", t_eval=t, rtol=1e-13, atol=atol).y.T)
    return np.stack(out, axis=1)


def raw_dop853_batch(init: dict[str, np.ndarray], t: np.ndarray) -> np.ndarray:
    """The whole batch as one system with SciPy's own error norm (RMS over all starts)."""
    n = len(init["a"])

    def rhs(_time: float, y: np.ndarray) -> np.ndarray:
        a, b = y.reshape(2, n, P)
        rate = (S - np.sum(a * b, axis=-1, keepdims=True) / Z) / Z
        return np.concatenate([(b * rate).ravel(), (a * rate).ravel()])

    y0 = np.concatenate([init["a"].ravel(), init["b"].ravel()])
    sol = solve_ivp(rhs, (0.0, t[-1]), y0, method="DOP853", t_eval=t, rtol=1e-13, atol=1e-16 * np.abs(y0).max())
    a, b = sol.y.T.reshape(len(t), 2, n, P).transpose(1, 0, 2, 3)
    return np.concatenate([a, b], axis=-1)


def gd_loop(a0: np.ndarray, b0: np.ndarray, steps: int, lr: float) -> np.ndarray:
    """Papers' way: a 1-4-1 linear network W2 W1 x trained step by step on the population loss (E x² = 1,
    E xy = S), every step recorded."""
    W1, W2 = a0.reshape(P, 1).copy(), b0.reshape(1, P).copy()
    history = [(W1.copy(), W2.copy())]
    for _ in range(steps):
        residual = S - (W2 @ W1).item() / Z
        grad_W1, grad_W2 = -residual * W2.T / Z, -residual * W1.T / Z
        W1, W2 = W1 - lr * grad_W1, W2 - lr * grad_W2
        history.append((W1.copy(), W2.copy()))
    return np.array([np.concatenate([w1.ravel(), w2.ravel()]) for w1, w2 in history])


def states(result: dict[str, np.ndarray]) -> np.ndarray:
    return np.concatenate([result["a"], result["b"]], axis=-1)


def error(got: np.ndarray, reference: np.ndarray) -> float:
    """Largest error over times and starts, relative to the largest state component at that time and start."""
    return float(np.max(np.max(np.abs(got - reference), axis=-1) / np.max(np.abs(reference), axis=-1)))


def timed(f: Callable[[], np.ndarray]) -> tuple[float, np.ndarray]:
    start = time.perf_counter()
    value = f()
    return time.perf_counter() - start, value


def integrator_rows(n: int, t: np.ndarray, per_start_closed: float) -> list[Row]:
    init = starts(n)
    exact = states(closed_form(init, t))
    few = 10
    some = {k: v[:few] for k, v in init.items()}
    raw_states = raw_dop853_per_start(some, t)
    raw_batch, batch_states = timed(lambda: raw_dop853_batch(init, t))
    trajectory(MODEL, t, PARAMS, starts(2), method="scipy")  # compile
    package, package_states = timed(lambda: states(trajectory(MODEL, t, PARAMS, init, method="scipy")))
    one = [{k: v[j] for k, v in some.items()} for j in range(few)]
    field = batch_field(models.get(MODEL))
    raw, core, single = (
        seconds / few
        for seconds in interleaved(
            [
                lambda: raw_dop853_per_start(some, t),
                lambda: [integrate_batch(field, np.stack([x["a"], x["b"]])[:, None], [S, Z], t) for x in one],
                lambda: [trajectory(MODEL, t, PARAMS, start, "scipy") for start in one],
            ]
        )
    )
    steps, lr = len(t) - 1, float(t[1] - t[0])
    gd, gd_states = timed(lambda: np.stack([gd_loop(x["a"], x["b"], steps, lr) for x in one], axis=1))
    rows = [
        compared(
            f"SciPy DOP853 per start, hand-written RHS (rtol 1e-13; {few} starts)",
            raw,
            "s/start",
            raw / per_start_closed,
            "closed form",
            error=error(raw_states, exact[:, :few]),
        ),
        compared(
            f"SciPy DOP853, whole batch as one system, SciPy's RMS norm, hand-written RHS ({n} starts)",
            raw_batch / n,
            "s/start",
            raw_batch / n / per_start_closed,
            "closed form",
            error=error(batch_states, exact),
        ),
        compared(
            f'method="scipy" (batch as one vectorized system, per-start error control; {n} starts)',
            package / n,
            "s/start",
            package / n / per_start_closed,
            "closed form",
            error=error(package_states, exact),
        ),
        compared(
            'method="scipy" per start vs raw DOP853 per start',
            package / n,
            "s/start",
            package / n / raw,
            "raw DOP853 per start",
            1.5,
        ),
        compared(
            "numerics.dop853.integrate_batch, one start per call",
            core,
            "s/start",
            core / raw,
            "raw DOP853 per start",
            1.5,
        ),
        compared(
            'method="scipy", one start per call (trajectory included)',
            single,
            "s/start",
            single / raw,
            "raw DOP853 per start",
            1.5,
        ),
        compared(
            f"plain numpy GD loop, 1-4-1 network, {steps} steps recorded (lr = {lr:.3g})",
            gd / few,
            "s/start",
            gd / few / per_start_closed,
            "closed form",
            error=error(gd_states, exact[:, :few]),
        ),
    ]
    if taylor.available():
        trajectory(MODEL, t, PARAMS, starts(9), method="taylor")  # compile
        fast, fast_states = timed(lambda: states(trajectory(MODEL, t, PARAMS, init, method="taylor")))
        rows.append(
            compared(
                f'method="taylor" float64 (heyoka, start by start; {n} starts)',
                fast / n,
                "s/start",
                fast / n / per_start_closed,
                "closed form",
                error=error(fast_states, exact),
            )
        )
    return rows


# ---------------------------------------------------------------- 30 digits
def high_precision_rows() -> list[Row]:
    t = np.array([0.0, 0.5, 2.0, 10.0])
    init = {k: v[0] for k, v in starts(1).items()}
    trajectory(MODEL, t, PARAMS, init, dps=30)  # compile
    closed = best(lambda: trajectory(MODEL, t, PARAMS, init, dps=30))
    odefun = best(lambda: trajectory(MODEL, t, PARAMS, init, method="mpmath", dps=30), 1)
    rows = [
        Row(f"closed form, 30 digits (1 start, {len(t)} times)", closed, "s/start", 1.0, "closed form at 30 digits"),
        Row(
            'mpmath.odefun, 30 digits (method="mpmath")', odefun, "s/start", odefun / closed, "closed form at 30 digits"
        ),
    ]
    if taylor.available():
        trajectory(MODEL, t, PARAMS, init, method="taylor", dps=30)  # compile
        mpfr = best(lambda: trajectory(MODEL, t, PARAMS, init, method="taylor", dps=30))
        rows.append(
            Row('heyoka MPFR, 30 digits (method="taylor")', mpfr, "s/start", mpfr / closed, "closed form at 30 digits")
        )
        rows.append(Row("heyoka MPFR vs mpmath.odefun at 30 digits", mpfr, "s/start", mpfr / odefun, "mpmath.odefun"))
    return rows


# ---------------------------------------------------------------- symbolic: conservation-law counts
def conservation_rows(widths: tuple[int, ...]) -> list[Row]:
    rows = []
    for p in widths:
        start = time.perf_counter()
        count = count_conservation_laws(MODEL, p)
        seconds = time.perf_counter() - start
        D = 2 * p
        rows.append(
            Row(
                f"count_conservation_laws({MODEL!r}, p={p}): D = {D}, {count} laws",
                seconds,
                "s",
                target="≤ 10 s" if D == 96 else "",
                met=seconds <= 10 if D == 96 else None,
            )
        )
    return rows


# ---------------------------------------------------------------- cold start
FIRST_CALL = (
    "import numpy as np, numerics; numerics.trajectory('two_layer_scalar', [0.0, 1.0], {'S': 1.0, 'Z': 1.0}, "
    "{'a': np.array([0.1]), 'b': np.array([0.2])})"
)
BASELINE = "import numpy, scipy.integrate"


def cold(code: str, repeats: int, cache: str | None = None) -> float:
    """Median wall time of ``code`` in a fresh process; ``cache``: the disk cache directory (``None``: the user's,
    warmed by one untimed run first; ``"empty"``: a new empty directory for each run)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if cache is None:
        subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)
    times = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as empty:
            if cache == "empty":
                env[CACHE_ENV] = empty
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def cold_start_rows(repeats: int) -> list[Row]:
    baseline, first = cold(BASELINE, repeats), cold(FIRST_CALL, repeats)
    empty = cold(FIRST_CALL, repeats, cache="empty")
    return [
        Row(f"fresh process: {BASELINE}", baseline, "s", 1.0, "numpy + scipy import"),
        Row(
            "fresh process: import numerics + first closed-form call (disk cache warm: no SymPy)",
            first,
            "s",
            first / baseline,
            "numpy + scipy import",
            "≤ 1.5",
            first / baseline <= 1.5,
        ),
        Row(
            "fresh process: import numerics + first closed-form call, empty disk cache (derives with SymPy)",
            empty,
            "s",
            empty / baseline,
            "numpy + scipy import",
        ),
    ]


# ---------------------------------------------------------------- matrix networks (issue 25)
MATRIX_SIZE = 32
"""d = c = p of the matrix-network rows: ``linear_network(32, 32)`` at width 32 (2048 weights)."""


def matrix_problem(size: int, batch: int, seed: int = 0) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Moments (Σxx = AAᵀ/d + I, Σxy ~ N(0, 1)/d, Σyy = ΣxyᵀΣxx⁻¹Σxy + I) and small starts, ``batch`` of them."""
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(size, size))
    Sxx = A @ A.T / size + np.eye(size)
    Sxy = rng.normal(size=(size, size)) / size
    Syy = Sxy.T @ np.linalg.solve(Sxx, Sxy) + np.eye(size)
    params = {"Sxx": Sxx, "Sxy": Sxy, "Syy": (Syy + Syy.T) / 2}
    init = {"W1": 0.1 * rng.normal(size=(batch, size, size)), "W2T": 0.1 * rng.normal(size=(batch, size, size))}
    return params, init


def hand_gd(params: dict[str, np.ndarray], W1: np.ndarray, W2T: np.ndarray, steps: int, lr: float) -> np.ndarray:
    """GD on the matrices as one would write it in numpy: M = Σxy − ΣxxW₁W₂, W₁ += ηMW₂ᵀ, W₂ᵀ += ηMᵀW₁."""
    Sxx, Sxy = params["Sxx"], params["Sxy"]
    for _ in range(steps):
        M = Sxy - Sxx @ W1 @ np.swapaxes(W2T, -1, -2)
        W1, W2T = W1 + lr * M @ W2T, W2T + lr * np.swapaxes(M, -1, -2) @ W1
    return W1


def hand_field(params: dict[str, np.ndarray], W1: np.ndarray, W2T: np.ndarray) -> list[np.ndarray]:
    """The matrix flow written by hand, W2T = W₂ᵀ stored (c×p): Ẇ₁ = MW₂ᵀ = M·W2T, Ẇ₂ᵀ = (W₁ᵀM)ᵀ = MᵀW₁."""
    M = params["Sxy"] - params["Sxx"] @ W1 @ np.swapaxes(W2T, -1, -2)
    return [M @ W2T, np.swapaxes(M, -1, -2) @ W1]


def matrix_network_rows(steps: int, repeats: int) -> list[Row]:
    from derivations.models.linear_network import linear_network
    from numerics.matrix_field import batch_field as matrix_batch_field
    from numerics.matrix_field import matrix_compiled, parameter_matrices

    size, lr = MATRIX_SIZE, 0.01
    model = linear_network(size, size)
    params, init = matrix_problem(size, 1)
    one = {k: v[0] for k, v in init.items()}

    def package(n: int) -> Callable[[], object]:
        return lambda: trajectory(model, [0.0, n * lr], params, one, method="gd", lr=lr, quantities=())

    def by_hand(n: int) -> Callable[[], object]:
        return lambda: hand_gd(params, one["W1"], one["W2T"], n, lr)

    package(1)()  # compiled once (disk cache), as any later call finds it
    short, long, hand_short, hand_long = interleaved(
        [package(steps), package(2 * steps), by_hand(steps), by_hand(2 * steps)], repeats
    )
    # per step: the difference of two step counts, so that the per-call work (validation, records) drops out
    step, hand_step = (long - short) / steps, (hand_long - hand_short) / steps
    rows = [
        compared(
            f"GD step, linear_network({size}, {size}), p = {size} (matrix route)",
            step,
            "s/step",
            step / hand_step,
            "numpy step by hand",
            2.0,
        ),
        compared(
            f"GD call, {steps} steps, linear_network({size}, {size})",
            short,
            "s/call",
            short / hand_short,
            "numpy loop by hand",
        ),
    ]
    compiled = matrix_compiled(model)
    field = matrix_batch_field(compiled)
    batch_params, batch_init = matrix_problem(size, 64, seed=1)
    y = np.concatenate([np.moveaxis(batch_init["W1"], 1, 0), np.moveaxis(batch_init["W2T"], 1, 0)])
    matrices = parameter_matrices(compiled, {k: v[None] for k, v in batch_params.items()})
    W1, W2T = batch_init["W1"], batch_init["W2T"]
    package_field, own_field = interleaved(
        [
            lambda: [field(y, matrices) for _ in range(20)],
            lambda: [hand_field(batch_params, W1, W2T) for _ in range(20)],
        ],
        repeats,
    )
    rows.append(
        compared(
            f"DOP853 field evaluation, 64 starts of linear_network({size}, {size})",
            package_field / 20,
            "s/call",
            package_field / own_field,
            "numpy field by hand",
            2.0,
        )
    )
    for method, options in (("scipy", ""), ("gd", ", lr=0.01")):
        code = (
            "import numpy as np, sys; sys.path.insert(0, 'benchmarks'); from run import matrix_problem; "
            "from derivations.models.linear_network import linear_network; from numerics import trajectory; "
            f"params, init = matrix_problem({size}, 1); init = {{k: v[0] for k, v in init.items()}}; "
            f"trajectory(linear_network({size}, {size}), np.linspace(0, 5, 6), params, init, "
            f"method={method!r}{options})"
        )
        seconds = cold(code, 1, cache="empty")
        rows.append(
            Row(
                f"fresh process, empty cache: linear_network({size}, {size}) method={method!r}, t = 0..5",
                seconds,
                "s",
                target="≤ 10 s",
                met=seconds <= 10,
            )
        )
    return rows


# ---------------------------------------------------------------- report
def machine() -> str:
    versions = ", ".join(
        f"{name} {importlib.metadata.version(name)}"
        for name in ("numpy", "scipy", "sympy", "mpmath", "heyoka")
        if _installed(name)
    )
    cpu = platform.processor() or platform.machine()
    return f"{platform.platform()}, {cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}; {versions}"


def _installed(name: str) -> bool:
    try:
        importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def table(rows: list[Row]) -> str:
    lines = ["| measurement | time | ratio | to | target | met | error |", "|---|---:|---:|---|---|---|---:|"]
    for r in rows:
        ratio = "" if r.ratio is None else f"{r.ratio:.3g}"
        met = "" if r.met is None else ("yes" if r.met else "**no**")
        err = "" if r.error is None else f"{r.error:.1e}"
        cells = [r.what, f"{r.seconds:.3g} {r.unit}", ratio, r.reference, r.target, met, err]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1/10 of the sizes (a smoke run; targets not tested)")
    parser.add_argument(
        "--authors", action="store_true", help="also the authors' own tasks side by side (benchmarks/authors.py)"
    )
    parser.add_argument(
        "--closed-form", action="store_true", help="only issue 25's closed-form per-value figures (ratios)"
    )
    args = parser.parse_args(argv)
    n, times = (1000, 100) if args.quick else (10_000, 1000)
    if args.closed_form:
        print(f"Closed-form costs of {datetime.date.today().isoformat()} on {machine()}")
        print(table(closed_form_cost_rows(n, times)))
        return 0
    t = np.linspace(0.0, 10.0, times)
    rows, per_start_closed = closed_form_rows(n, t)
    rows += integrator_rows(n, t, per_start_closed)
    rows += high_precision_rows()
    rows += conservation_rows((12, 24) if args.quick else (12, 24, 48))
    rows += cold_start_rows(1 if args.quick else 3)
    rows += matrix_network_rows(200 if args.quick else 2000, 3)
    print(f"Benchmark of {datetime.date.today().isoformat()} on {machine()}")
    print(f"Workload: {MODEL}, p = {P}, S = {S}, Z = {Z}, starts a, b ~ 0.1 N(0, 1), t = linspace(0, 10, {times}).")
    if args.quick:
        print("Quick run: sizes / 10, the targets are not tested by these figures.")
    print()
    print(table(rows))
    if args.authors:
        from authors import TASKS  # benchmarks/authors.py, beside this script
        from authors import table as authors_table

        print()
        print("The authors' own tasks (authors-style re-implementations in numpy, benchmarks/authors.py):")
        print()
        print(authors_table([task(1 if args.quick else 3) for task in TASKS.values()]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
