"""Alternating gradient flows (Kunin et al. 2025, arXiv 2506.06489; spec ``shared/spec/agf-kunin2025.md``) as an
algorithm for two-layer networks f(x) = Σ a_i σ(w_i^T x).

``agf`` is Algorithm 1 (utility maximization of the dormant neurons, cost minimization of the active ones);
``two_layer`` the network and its loss, ``network_flow`` the network's own gradient flow from a small initialization,
and ``ground_truth`` the measurement of a gradient-flow staircase (jump times, plateaus) that AGF is compared with.
The settings of the paper (diagonal networks and Pesme–Flammarion, fully connected networks, attention, modular
addition) and their closed-form predictions belong to the paper (the built-in paper ``kunin2025``).
"""

from .algorithm import AGFResult, InitializationScaleWarning, Jump, agf, gaussian_init
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

__all__ = [
    "AGFResult",
    "Agreement",
    "InitializationScaleWarning",
    "Jump",
    "Path",
    "agf",
    "agreement",
    "first_exceedances",
    "gaussian_init",
    "jump_thresholds",
    "measured_jumps",
    "plateau_losses",
    "sign_changes",
]
