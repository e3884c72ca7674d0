"""Counts per outcome class of the public-API fuzz (``tests/test_fuzz_public_api.py``), for any number of cases.

Run ``python benchmarks/fuzz_public_api.py [CASES]`` (default 5000, about a minute); ``CI=1`` derandomizes the
draws as in CI. Prints the counts per class (clear error, correct, silent wrong, hang, obscure error), per target,
and the failing cases (those of ``KNOWN`` targets marked with their owner); then the same number of cases of
the disk cache's states (``tests/numerics/test_fuzz_cache_states.py``), through the artifact API and through
``numerics.trajectory``. Pass/fail is the test's; this script
only reports.
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
import time
from pathlib import Path

FUZZ = Path(__file__).resolve().parent.parent / "tests" / "test_fuzz_public_api.py"
CACHE_STATES = Path(__file__).resolve().parent.parent / "tests" / "numerics" / "test_fuzz_cache_states.py"


def _load(path: Path, name: str) -> object:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main(cases: int) -> None:
    fuzz = _load(FUZZ, "fuzz_public_api")
    start = time.perf_counter()
    report = fuzz.run_fuzz(cases)
    print(report.summary())
    print(
        f"{time.perf_counter() - start:.0f} s; failures outside KNOWN: {len(report.unexpected())}, "
        f"in KNOWN targets: {len(report.known())}"
    )
    states = _load(CACHE_STATES, "fuzz_cache_states")
    for call in ("artifact", "trajectory"):
        start = time.perf_counter()
        with tempfile.TemporaryDirectory() as root:
            found = states.run_fuzz(cases, call, Path(root))
        print(f"cache states through {call}: {dict(found.counts)} ({time.perf_counter() - start:.0f} s)")
        for state, detail in found.failures[:10]:
            print(f"  {state}: {detail}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
