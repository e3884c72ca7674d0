"""The checker's self-test: a control paper of known-false (and undecidable) statements, one per decision route,
run by every ``python -m proofs_check`` that checks claims.

Each control must come out as :data:`proofs_check.control.statements.EXPECTED` says (refuted, or an error saying
why no verdict was reached), decided by the expected route; if one does not, the checker is broken and the run
exits 1. The controls are reported in a section of their own, not counted among the papers' claims. They are a
``Paper`` written with the public API (:mod:`proofs_check.control.statements`), not a registered paper: no entry
point loads them, ``--paper`` never selects them.
"""

from __future__ import annotations

from collections.abc import Sequence

from proofs_check.claims import Claim
from proofs_check.control.expectation import ControlResult, Expectation, judge
from proofs_check.runner import Record

__all__ = ["ControlResult", "Expectation", "broken", "claims", "expected", "judge_records"]


def claims() -> list[Claim]:
    """The control claims, in declaration order (importing them declares them and computes nothing)."""
    from proofs_check.control.statements import PAPER

    return PAPER.claims()


def expected() -> dict[str, Expectation]:
    """Claim id → what the control must come out as."""
    from proofs_check.control.statements import EXPECTED

    return dict(EXPECTED)


def judge_records(records: Sequence[Record]) -> list[ControlResult]:
    """The control records judged against :func:`expected`."""
    return judge(records, expected())


def broken(results: Sequence[ControlResult]) -> list[str]:
    """``"<id>: <problem>"`` for each control that did not come out as expected."""
    return [f"{r.record.claim.id}: {r.problem}" for r in results if not r.as_expected]
