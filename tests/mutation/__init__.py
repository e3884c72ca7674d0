"""The mutation test of issue 23: a fixed list of mutants (``mutants``), each applied to a temporary copy of the
package and run against the tests and claims that cover its module (``engine``); ``python -m tests.mutation``
prints the table."""

from .engine import ROOT, Outcome, Run, apply, baseline, copy_package, format_table, run_all, run_mutant, stale
from .mutants import MUTANTS, Mutant

__all__ = [
    "MUTANTS",
    "ROOT",
    "Mutant",
    "Outcome",
    "Run",
    "apply",
    "baseline",
    "copy_package",
    "format_table",
    "run_all",
    "run_mutant",
    "stale",
]
