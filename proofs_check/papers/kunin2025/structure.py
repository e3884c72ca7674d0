"""The numbering of Kunin et al. 2025 (alternating gradient flows) that the claims cite.

Only what the spec ``shared/spec/agf-kunin2025.md`` and the authors' public clarifications state is listed: §2 (the
utility, eq. 2), §3 (Algorithm 1, diagonal networks, Theorem 3.1), §4 (linear networks and transformers,
Conjecture 4.1, eq. 7), §5 (modular addition, Theorems 5.1–5.2, eq. 9), and the setup. The spec marks the exact
equation numbers uncertain, so the structure is unconfirmed.
"""

from proofs_check.citation import Structure

__all__ = ["STRUCTURE"]

STRUCTURE = Structure(
    sections=("2", "3", "4", "5"),
    statements=("Theorem 3.1", "Conjecture 4.1", "Theorem 5.1", "Theorem 5.2", "Algorithm 1"),
    equation_labels=("2", "7", "9"),
    topics=("setup",),
    confirmed=False,
    source="spec agf-kunin2025.md (equation numbers marked uncertain there)",
)
