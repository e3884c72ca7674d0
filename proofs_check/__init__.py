"""Papers, their claims and numeric experiments, the checks that decide them, reports and the command line.

Public API: :class:`Paper` (a paper's metadata, models, notation; ``Paper.claim`` and ``Paper.experiment``),
:func:`run_claims`, :func:`load_papers` / :func:`load_file`, and ``python -m proofs_check``.
"""

from __future__ import annotations

from proofs_check.citation import Citation, Structure
from proofs_check.claims import Claim
from proofs_check.cli import main
from proofs_check.outcome import Outcome, Status
from proofs_check.paper import Experiment, Measurement, Paper, PaperInfo
from proofs_check.papers import BUILTIN_PAPERS, load_file, load_papers
from proofs_check.registry import Registry
from proofs_check.report import format_details, format_table, summary_line, to_json
from proofs_check.runner import ClaimText, Record, run_claims

__all__ = [
    "BUILTIN_PAPERS",
    "Citation",
    "Claim",
    "ClaimText",
    "Experiment",
    "Measurement",
    "Outcome",
    "Paper",
    "PaperInfo",
    "Record",
    "Registry",
    "Status",
    "Structure",
    "format_details",
    "format_table",
    "load_file",
    "load_papers",
    "main",
    "run_claims",
    "summary_line",
    "to_json",
]
