"""The parts of Kunin et al. 2024 (the single neuron) that the claims cite.

The paper's text was not available here: App. A and Figs 2–4, 7, 8 are named by the authors' notebook
(``getrichquick``, the single-neuron notebook) and the minimal model by issue 22; section and equation numbers are
unknown, so the structure is unconfirmed.
"""

from proofs_check.citation import Structure

__all__ = ["STRUCTURE"]

STRUCTURE = Structure(
    appendices=("A",),
    figures=("2", "3", "4", "7", "8"),
    topics=("minimal model",),
    confirmed=False,
    source="the authors' single-neuron notebook (App. A, Figs 2-4, 7-8) and issue 22; no section numbers known",
)
