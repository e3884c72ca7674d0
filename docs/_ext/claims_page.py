"""The claims page of the documentation: every registered claim with its citation, and, given a saved JSON run of
``python -m proofs_check``, its status and method. No claim is checked while the documentation builds."""

from __future__ import annotations

import json
from pathlib import Path

from proofs_check.papers import load_papers

HEADER = """# Claims

Every claim of the built-in papers, with where the paper makes it{source}. `python -m proofs_check --list` prints
the same list; `python -m proofs_check --pdf report.pdf` checks every claim and writes the report, with each
statement printed as mathematics.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def write_claims_page(destination: Path, results: str | None = None) -> None:
    """Write the Markdown claims table to ``destination``; ``results`` is the path of a JSON run, if any."""
    registry = load_papers()
    outcomes = {}
    if results:
        outcomes = {c["id"]: c for c in json.loads(Path(results).read_text(encoding="utf-8"))["claims"]}
    source = " and the verdict of the saved run" if outcomes else " (generated without checking them)"
    lines = [HEADER.format(source=source)]
    for key in registry.papers():
        paper = registry.paper(key)
        lines += [f"## {paper.title}", "", f"{', '.join(paper.authors)}. {paper.venue} {paper.year}.", ""]
        columns = ["claim", "where"] + (["status", "method"] if outcomes else [])
        lines += ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
        for claim in paper.claims():
            cells = [f"`{claim.id}`", _cell(claim.citation.reference)]
            if outcomes:
                outcome = outcomes.get(claim.id, {})
                cells += [outcome.get("status", "not run"), _cell(outcome.get("method", ""))]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    text = "\n".join(lines)
    if not destination.exists() or destination.read_text(encoding="utf-8") != text:
        destination.write_text(text, encoding="utf-8")
