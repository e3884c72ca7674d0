"""The parts of Dominé et al. 2025 (λ-balanced linear networks) that the claims cite.

The paper's text was not available here: its results are cited as Nam et al. 2025 restate them (their eq. 14,
Theorem 2 and App. F.1, which are Nam et al.'s numbering) and by topic. Only the topics are listed; the structure is
unconfirmed.
"""

from proofs_check.citation import Structure

__all__ = ["STRUCTURE"]

STRUCTURE = Structure(
    topics=("λ-balanced", "QQᵀ solution"),
    confirmed=False,
    source="spec models-nam2025.md §4 (the results as Nam et al. 2025 restate them); the numbering is unknown",
)
