"""Width exponents of Xu & Ziyin 2025's standard parametrizations (spec models-xu-ziyin2025.md §4.3).

For each parametrization: e_B (``proofs_check.papers.xu_ziyin2025.scaling``), the phase
(``proofs_check.papers.xu_ziyin2025.phase.phase``) and, for
ΔK/K, ‖Δu‖/‖u₀‖ and ‖Δw‖/‖w₀‖, the width exponent fitted (log-log least squares) to the medians over
initializations of the exact solution at t → ∞, against the exponent predicted by the spec's table.
A row passes if |fitted − predicted| ≤ 0.05. Run ``python benchmarks/width_exponents.py`` (about 15 s);
the exit status is 1 if a row fails.
"""

from __future__ import annotations

import time

from proofs_check.papers.xu_ziyin2025.phase import (
    PARAMETRIZATIONS,
    QUANTITIES,
    TABLE_SEEDS,
    TABLE_WIDTHS,
    TOLERANCE,
    phase,
    width_sweep,
)
from proofs_check.papers.xu_ziyin2025.scaling import e_B


def main() -> int:
    start = time.perf_counter()
    widths = ", ".join(map(str, TABLE_WIDTHS))
    print(f"Xu & Ziyin 2025, spec §4.3: d = {widths}; {len(TABLE_SEEDS)} initializations per width; tol {TOLERANCE}")
    header = f"{'parametrization':<22}{'e_B':>6}  {'phase':<11}{'quantity':<11}{'fitted':>8}{'predicted':>10}"
    print(header + f"{'|diff|':>8}  pass")
    failures = 0
    for p in PARAMETRIZATIONS.values():
        exponent, regime = e_B(**p.exponents), phase(**p.exponents)
        fitted = width_sweep(p, TABLE_WIDTHS, TABLE_SEEDS).exponents()
        for k, q in enumerate(QUANTITIES):
            diff = abs(fitted[q] - float(p.predicted[q]))
            ok = diff <= TOLERANCE
            failures += not ok
            lead = f"{p.label:<22}{exponent!s:>6}  {regime:<11}" if k == 0 else " " * 41
            print(f"{lead}{q:<11}{fitted[q]:>8.3f}{p.predicted[q]!s:>10}{diff:>8.3f}  {'pass' if ok else 'FAIL'}")
    print(f"{failures} failing row(s); {time.perf_counter() - start:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
