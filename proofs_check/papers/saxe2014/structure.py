"""The parts of Saxe, McClelland & Ganguli 2014 (ICLR) that the claims cite.

The paper's text was not available here: only what the spec ``shared/spec/models-nam2025.md`` states (its App. A,
hyperbolic coordinates for unbalanced modes) and the mode solution's equation number the claims use (eq 12) are
listed; the structure is unconfirmed.
"""

from proofs_check.citation import Structure

__all__ = ["STRUCTURE"]

STRUCTURE = Structure(
    appendices=("A",),
    equation_labels=("12",),
    confirmed=False,
    source="spec models-nam2025.md §2 (App. A) and the claims' eq 12; the paper's numbering is otherwise unknown",
)
