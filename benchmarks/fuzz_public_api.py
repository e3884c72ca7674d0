"""Counts per outcome class of the public-API fuzz (``tests/test_fuzz_public_api.py``), for any number of cases.

Run ``python benchmarks/fuzz_public_api.py [CASES]`` (default 5000, about a minute); ``CI=1`` derandomizes the
draws as in CI. Prints the counts per class (clear error, correct, silent wrong, hang, obscure error), per target,
and the failing cases (those of ``KNOWN`` targets marked with their owner). Pass/fail is the test's; this script
only reports.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

FUZZ = Path(__file__).resolve().parent.parent / "tests" / "test_fuzz_public_api.py"


def main(cases: int) -> None:
    spec = importlib.util.spec_from_file_location("fuzz_public_api", FUZZ)
    fuzz = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = fuzz
    spec.loader.exec_module(fuzz)
    start = time.perf_counter()
    report = fuzz.run_fuzz(cases)
    print(report.summary())
    print(
        f"{time.perf_counter() - start:.0f} s; failures outside KNOWN: {len(report.unexpected())}, "
        f"in KNOWN targets: {len(report.known())}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
