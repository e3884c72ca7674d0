"""The reference tests A–D of the AGF spec (shared/spec/agf-kunin2025.md §5), measured in one run.

For each test: the AGF prediction (``numerics.agf``), the gradient flow from initialization scale alpha, and the
spec §5 metrics: jump times, relative error, |tau_GF - tau_AGF| log(1/alpha), relative error x log(1/alpha),
relative plateau-midpoint loss error; the spec's own figures are printed alongside. Run
``python benchmarks/agf_reference_tests.py`` (about 15 s). Pass/fail verdicts are the claims ``kunin2025.*``
(``python -m proofs_check --paper kunin2025``); this script only reports.
"""

from __future__ import annotations

import itertools
import time
import warnings

import numpy as np

from numerics import agf
from numerics.alternating import InitializationScaleWarning, agreement, measured_jumps, sign_changes
from proofs_check.papers.kunin2025.reference_problems import dln_problem_a, dln_problem_b, fcn_problem, modular_template
from proofs_check.papers.kunin2025.settings import (
    attention_gradient_flow,
    attention_jump_bound,
    attention_loss_levels,
    conjectured_jump_times,
    dln_gradient_descent,
    dln_gradient_flow,
    fcn_gradient_flow,
    maximal_utility,
    modular_utility,
    pesme_flammarion,
    rrr_saddles,
    theorem51_neuron,
    utility_ascent,
    whitened_jump_times,
)


def _row(values: np.ndarray, digits: int = 4) -> str:
    return " ".join(f"{v:>9.{digits}g}" for v in values)


def _sweep(name: str, make_path, predicted: np.ndarray, levels: np.ndarray, alphas) -> None:
    print(f"  {name}: predicted tau {_row(predicted)}; levels {_row(levels)}")
    print(f"  {'alpha':>7} {'metric':<26} per jump")
    for alpha in alphas:
        run = agreement(make_path(alpha), predicted, levels, alpha)
        print(f"  {alpha:>7.0e} {'tau measured':<26}{_row(run.jump_times)}")
        print(f"  {'':>7} {'|err| log(1/alpha)':<26}{_row(np.abs(run.scaled_errors), 3)}")
        print(f"  {'':>7} {'rel err log(1/alpha)':<26}{_row(run.relative_errors * np.log(1 / alpha), 3)}")
        print(
            f"  {'':>7} {'max rel err / plateau err':<26}{np.nanmax(np.abs(run.relative_errors)):>9.3g} "
            f"{np.max(run.plateau_errors):>9.2g}"
        )


def test_a() -> None:
    X, y = dln_problem_a()
    saddles = pesme_flammarion(X, y)
    predicted, levels = np.array([s.time for s in saddles[1:]]), np.array([s.loss for s in saddles])
    print(
        "A. DLN staircase (spec: t = 0.329 0.535 0.954 5.83 16.1; max rel err 0.21 0.105 0.053 0.026; "
        "rel err x log in [0.68, 1.94])"
    )
    print(f"  PF order {[next(iter(set(b.active) - set(a.active))) + 1 for a, b in itertools.pairwise(saddles)]}")
    result = agf(X, y, np.full(5, np.sqrt(2) * 1e-16), np.zeros((5, 5)), 1e-16, support=np.eye(5, dtype=bool))
    print(f"  numerics.agf at alpha = 1e-16: tau {_row(result.jump_times)}")
    _sweep("GF (Radau)", lambda a: dln_gradient_flow(X, y, a, 26.0), predicted, levels, (1e-4, 1e-8, 1e-16, 1e-32))
    _sweep("GD (lr 1e-3, t = lr steps)", lambda a: dln_gradient_descent(X, y, a, 26.0), predicted, levels, (1e-4,))


def test_b() -> None:
    X, y = dln_problem_b()
    result = agf(X, y, np.full(2, np.sqrt(2) * 1e-16), np.zeros((2, 2)), 1e-16, support=np.eye(2, dtype=bool))
    t = result.jump_times
    print("B. re-dormancy (spec: t = 0.193 0.600 3.457, saddle (0, 1.584), flip 2.029; GF 2.042 2.035 2.032 2.030)")
    saddle = result.jumps[2].a[:, 0] * result.jumps[2].w.sum(axis=1)
    print(
        f"  AGF tau {_row(t)}; collapsed at jump 2: {result.jumps[2].collapsed}, saddle {_row(saddle)}; "
        f"midpoint {(t[1] + t[2]) / 2:.4f}"
    )
    flips = [sign_changes(dln_gradient_flow(X, y, a, 6.0), 0)[0] for a in (1e-4, 1e-8, 1e-16, 1e-32)]
    print(f"  GF sign change of beta_1 at alpha = 1e-4 1e-8 1e-16 1e-32: {_row(np.array(flips))}")
    print("  not-small alpha (issue 13: GF plateau 0.0698 until 3.86 at alpha = 1e-2; InitializationScaleWarning):")
    for alpha in (1e-2, 3e-3, 1e-3, 1e-8):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InitializationScaleWarning)
            finite = agf(X, y, np.full(2, np.sqrt(2) * alpha), np.zeros((2, 2)), alpha, support=np.eye(2, dtype=bool))
        run = agreement(dln_gradient_flow(X, y, alpha, 8.0), finite.jump_times, finite.loss_levels, alpha)
        print(
            f"  {alpha:>7.0e} AGF tau {_row(finite.jump_times)} levels {_row(finite.loss_levels)}\n"
            f"  {'':>7} GF  tau {_row(run.jump_times)} plateau err {_row(run.plateau_errors, 2)} "
            f"rel err x log(1/alpha) {_row(run.relative_errors * np.log(1 / alpha), 3)}"
        )


def test_c() -> None:
    print(
        "C. FCN d = c = H = 4 (our matrices; spec's are not given). Jumps whose mode amplitude "
        "alpha^(1 - tau_1/tau_k) < 1e-12 are below float64 GF resolution"
    )
    for whitened in (True, False):
        Sxx, Syx, Syy = fcn_problem(whitened)
        _, levels = rrr_saddles(Sxx, Syx, Syy)
        predicted = whitened_jump_times(Syx) if whitened else conjectured_jump_times(Sxx, Syx)
        name = "whitened, tau = 1/sigma_k" if whitened else "non-commuting, Conjecture 4.1"

        def path(alpha: float, moments=(Sxx, Syx, Syy)):
            return fcn_gradient_flow(*moments, alpha, 4, 22.0)

        _sweep(name, path, predicted, levels, (1e-4, 1e-8, 1e-16))


def test_attention() -> None:
    lam, N = np.array([1.0, 0.6, 0.3]), 5
    levels = attention_loss_levels(lam, N)
    print(f"(c) attention, lambda = {lam}, N = {N}, 3 heads: levels {_row(levels)}")
    for alpha in (1e-2, 1e-3, 1e-4):
        path, norms = attention_gradient_flow(lam, N, 3, alpha, 40.0)
        jumps = measured_jumps(path, levels)
        edges = np.concatenate([[0.0], jumps])
        plateau = np.abs(path.loss((edges[:-1] + edges[1:]) / 2) / levels[:-1] - 1)
        bound = attention_jump_bound(lam[0], N, float(norms(np.array([0.0]))[0].max()), alpha)
        print(
            f"  alpha {alpha:.0e}: tau_GF {_row(jumps)}; eq. 7 bound for tau_1 {bound:.4g}; "
            f"max plateau err {plateau.max():.2g}"
        )


def test_d() -> None:
    x = modular_template()
    target = maximal_utility(x)
    best = max((utility_ascent(x, seed=s, steps=3000) for s in range(6)), key=lambda m: m.utility)
    scan = max(
        modular_utility(*theorem51_neuron(x, 0.3, 1.1, 1.4 + s).reshape(3, 13), x)
        for s in np.linspace(-np.pi, np.pi, 4001)
    )
    print("D. modular addition, p = 13 (spec: 100 % energy at ±k*, norms 1/3, phase-scan max = U* to 1e-6)")
    print(
        f"  U* {target:.10g}; ascent U {best.utility:.10g} (rel diff {abs(best.utility / target - 1):.1e}), "
        f"energy at ±k* {best.energy_at_dominant:.6f}, squared norms {_row(best.squared_norms, 6)}"
    )
    print(f"  phase scan (grid 4001) max {scan:.10g} (rel diff {abs(scan / target - 1):.1e})")


def main() -> int:
    start = time.perf_counter()
    for test in (test_a, test_b, test_c, test_attention, test_d):
        test()
        print()
    print(f"{time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
