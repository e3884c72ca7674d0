"""The numbering of Xu & Ziyin 2025 (arXiv 2401.07085, ICLR), against which every claim's citation is checked.

The paper's body text is not available: only what the spec ``shared/spec/models-xu-ziyin2025.md`` states is listed
(``confirmed=False``), namely the equation numbers it quotes from a secondary summary ((1), (3), (7)–(11), (13),
(14), (30), (33)–(35): the range 1–35), Proposition 1, Theorem 1, Definition 1, Corollaries 1–3, Table 1, the
paper's §3.2, §4.1 and §4.2, and the paper's topics by name (the spec's section titles), which the claims cite with
"(reconstructed)". The spec's own section numbers are not the paper's.
"""

from proofs_check.citation import Structure

__all__ = ["STRUCTURE"]

STRUCTURE = Structure(
    sections=("3.2", "4.1", "4.2"),
    tables=("1",),
    statements=("Proposition 1", "Theorem 1", "Definition 1", "Corollary 1", "Corollary 2", "Corollary 3"),
    equations=(1, 35),
    topics=(
        "model and gradient flow",
        "exact solution",
        "output, norms, NTK and alignment",
        "alignment",
        "learning by disalignment",
        "learning by rescaling",
        "three mechanisms",
        "phase diagram",
        "abc-symmetry",
        "power activation",
    ),
    confirmed=False,
    source="spec models-xu-ziyin2025.md (equation numbers, Table 1 and the corollaries per a secondary summary)",
)
