"""The settings of Kunin et al. 2025 (spec agf-kunin2025.md §4), gathered: diagonal linear networks and the
Pesme–Flammarion algorithm (§4a), fully connected linear networks (§4b), linear attention (§4c) and modular addition
(§4d), each with its closed-form predictions and the gradient flow it is tested against."""

from proofs_check.papers.kunin2025.attention import (
    attention_gradient_flow,
    attention_jump_bound,
    attention_loss,
    attention_loss_levels,
)
from proofs_check.papers.kunin2025.diagonal import (
    Saddle,
    dln_gradient_descent,
    dln_gradient_flow,
    dln_loss,
    pesme_flammarion,
)
from proofs_check.papers.kunin2025.fully_connected import (
    conjectured_jump_times,
    fcn_gradient_flow,
    rrr_saddles,
    whitened_jump_times,
)
from proofs_check.papers.kunin2025.modular import (
    Maximizer,
    dominant_frequency,
    fourier_utility,
    maximal_utility,
    modular_utility,
    theorem51_neuron,
    utility_ascent,
)

__all__ = [
    "Maximizer",
    "Saddle",
    "attention_gradient_flow",
    "attention_jump_bound",
    "attention_loss",
    "attention_loss_levels",
    "conjectured_jump_times",
    "dln_gradient_descent",
    "dln_gradient_flow",
    "dln_loss",
    "dominant_frequency",
    "fcn_gradient_flow",
    "fourier_utility",
    "maximal_utility",
    "modular_utility",
    "pesme_flammarion",
    "rrr_saddles",
    "theorem51_neuron",
    "utility_ascent",
    "whitened_jump_times",
]
