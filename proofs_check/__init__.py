"""Claim registry, checks runner, reports and command line for the papers' verified claims."""

from __future__ import annotations

from proofs_check.claims import REGISTRY, Citation, Claim, Outcome, Registry, Status, register
from proofs_check.cli import main
from proofs_check.papers import PAPER_MODULES, load_papers
from proofs_check.report import format_details, format_table, summary_line, to_json
from proofs_check.runner import Record, run_claims

__all__ = [
    "PAPER_MODULES",
    "REGISTRY",
    "Citation",
    "Claim",
    "Outcome",
    "Record",
    "Registry",
    "Status",
    "format_details",
    "format_table",
    "load_papers",
    "main",
    "register",
    "run_claims",
    "summary_line",
    "to_json",
]
