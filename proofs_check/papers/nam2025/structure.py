"""The numbering of Nam et al. 2025 (arXiv 2502.21009, ICML), against which every claim's citation is checked.

Only the numbering the available sources state is listed: the spec ``shared/spec/models-nam2025.md`` (equation
numbers 1–96, App. B, C.1–C.3, F.1, G.3, H, Theorems 2–3, Remarks 4–5, Fig. 6a, Fig. 8) and issue 24's reading of
the paper's text (§1 the Introduction, eqs 6–8 in §3, eqs 9–10 in §4.1, the emergence model in §4.3–§4.4 and App. D,
neural collapse in §5.2 and App. E, §5.1, §6 with Fig. 6(b), §7.1, App. F.3–F.4 with Fig. 10). The arXiv HTML
(v1) available to us holds only the opening part (the Introduction), so the numbering is not confirmed against the
paper itself: ``confirmed=False``. The spec's own section numbers (its §1–§9) are not the paper's.
"""

from proofs_check.citation import Structure

__all__ = ["STRUCTURE"]

STRUCTURE = Structure(
    sections=("1", "2", "3", "4", "4.1", "4.2", "4.3", "4.4", "5", "5.1", "5.2", "6", "6.3", "7", "7.1", "7.2"),
    appendices=("B", "C", "C.1", "C.2", "C.3", "D", "E", "F", "F.1", "F.3", "F.4", "G", "G.3", "H"),
    figures=("6", "8", "10"),
    statements=("Theorem 2", "Theorem 3", "Remark 4", "Remark 5"),
    equations=(1, 96),
    confirmed=False,
    source="spec models-nam2025.md and issue 24 (a reading of the paper's text); arXiv HTML v1: §1 only",
)
