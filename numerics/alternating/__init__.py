"""Alternating gradient flows (Kunin et al. 2025, arXiv 2506.06489; spec ``shared/spec/agf-kunin2025.md``).

``agf`` is Algorithm 1 for two-layer networks; the setting modules hold the closed-form predictions of spec §4
(diagonal: Pesme–Flammarion; fully connected: reduced-rank regression and Conjecture 4.1; attention: loss levels
and the eq. 7 bound; modular: Theorem 5.1) and the gradient flows from small initialization they are tested against.
``numerics.agf`` is the algorithm; the settings and the ground truth are imported from this subpackage
(``from numerics.alternating import pesme_flammarion``, ``from numerics.alternating.diagonal import ...``).
"""

from .algorithm import AGFResult, InitializationScaleWarning, Jump, agf, gaussian_init
from .attention import attention_gradient_flow, attention_jump_bound, attention_loss, attention_loss_levels
from .diagonal import Saddle, dln_gradient_descent, dln_gradient_flow, dln_loss, pesme_flammarion
from .fully_connected import conjectured_jump_times, fcn_gradient_flow, rrr_saddles, whitened_jump_times
from .ground_truth import (
    Agreement,
    Path,
    agreement,
    first_exceedances,
    jump_thresholds,
    measured_jumps,
    plateau_losses,
    sign_changes,
)
from .modular import (
    Maximizer,
    dominant_frequency,
    fourier_utility,
    maximal_utility,
    modular_utility,
    theorem51_neuron,
    utility_ascent,
)

__all__ = [
    "AGFResult",
    "Agreement",
    "InitializationScaleWarning",
    "Jump",
    "Maximizer",
    "Path",
    "Saddle",
    "agf",
    "agreement",
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
    "first_exceedances",
    "fourier_utility",
    "gaussian_init",
    "jump_thresholds",
    "maximal_utility",
    "measured_jumps",
    "modular_utility",
    "pesme_flammarion",
    "plateau_losses",
    "rrr_saddles",
    "sign_changes",
    "theorem51_neuron",
    "utility_ascent",
    "whitened_jump_times",
]
