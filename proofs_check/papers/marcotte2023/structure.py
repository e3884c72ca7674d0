"""The parts of Marcotte, Gribonval & Peyré 2023 (arXiv 2307.00144) that the claims cite.

The paper's text was not available here and no spec describes its numbering: only its topics, as the claims and
the tooling notes (``shared/spec/tooling-notes.md`` §2) name them, are listed, and the structure is unconfirmed.
"""

from proofs_check.citation import Structure

__all__ = ["STRUCTURE"]

STRUCTURE = Structure(
    topics=("number of independent laws", "two-layer linear networks"),
    confirmed=False,
    source="the claims' topics and tooling-notes §2 (the paper's numbering is unknown)",
)
