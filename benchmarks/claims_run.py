"""Wall time of ``python -m proofs_check``, measured in one run: ``--list`` against a bare ``import sympy`` (both
fresh processes), and the checks with one worker against all cores (same claims, same machine, back to back).

``python benchmarks/claims_run.py`` runs every claim twice (several minutes); ``--claim PREFIX`` (repeatable)
restricts both runs. Each figure is the best of ``--repeat`` runs (default 1; 3 for ``--list``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def wall(argv: list[str], repeat: int) -> float:
    """The best wall time of ``repeat`` runs of ``argv`` in a fresh process (output discarded)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claim", action="append", default=[], metavar="PREFIX")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    command = [sys.executable, "-m", "proofs_check", *(f"--claim={p}" for p in args.claim)]
    jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    sympy = wall([sys.executable, "-c", "import sympy"], 3)
    listing = wall([*command, "--list"], 3)
    print(f"import sympy          {sympy:7.2f} s")
    print(f"--list                {listing:7.2f} s   ({listing / sympy:.2f} x import sympy)")
    one = wall([*command, "--jobs", "1"], args.repeat)
    print(f"checks, --jobs 1      {one:7.2f} s")
    many = wall([*command, "--jobs", str(jobs)], args.repeat)
    print(f"checks, --jobs {jobs:<6} {many:7.2f} s   (speed-up {one / many:.2f} on {jobs} cores)")
    print(f"load average now: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
