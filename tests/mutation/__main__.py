"""``python -m tests.mutation [--jobs N] [--only NAME ...] [--no-baseline]``: run the mutants and print the table
(mutant, module, killed by what, seconds) and the kill rate; exit status 1 if one survived (or the unmutated copy
fails its covering selection), else 0."""

from __future__ import annotations

import argparse
import sys
import time

from .engine import Outcome, format_table, run_all, stale
from .mutants import MUTANTS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation", description=__doc__)
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these mutants")
    parser.add_argument("--no-baseline", action="store_true", help="skip the run of the unmutated copy")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if not args.only or m.name in args.only]
    problems = stale(chosen)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    started = time.perf_counter()

    def report(outcome: Outcome) -> None:
        result = f"killed by {outcome.killer}" if outcome.killed else "SURVIVED"
        print(f"{outcome.mutant.name}: {result} ({outcome.seconds:.1f} s)", file=sys.stderr, flush=True)

    run = run_all(chosen, jobs=args.jobs, report=report, with_baseline=not args.no_baseline)
    print(format_table(run.outcomes))
    print(f"total wall time: {time.perf_counter() - started:.0f} s")
    if run.baseline_failed:
        print(f"the unmutated copy fails its covering {run.baseline_failed}:\n{run.baseline_output}", file=sys.stderr)
        return 1
    return 0 if all(o.killed for o in run.outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
