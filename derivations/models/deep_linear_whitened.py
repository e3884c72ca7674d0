r"""``deep_linear_whitened``: Saxe et al. 2014's task-aligned modes of a whitened two-layer linear network.

Spec models-nam2025.md §3 (Nam et al. 2025, App. C.3, eqs 46–56; Saxe et al. 2014 eq 12 and App. A). The mode
flow :math:`\dot a_i = b_i(\rho_i - a_ib_i)`, :math:`\dot b_i = a_i(\rho_i - a_ib_i)` is derived from the mode
network (``aligned_modes``) and solved in Saxe et al.'s hyperbolic coordinates (the shared hyperbolic
reduction with rate 1, ``Z = 1``), which covers unbalanced modes too; the balanced case
:math:`a_i = b_i = \alpha_i` gives eq 12, :math:`\alpha_i^2/\rho_i = 1/(1 + (\rho_i/\alpha_i(0)^2 - 1)e^{-2\rho_it})`.
"""

from __future__ import annotations

from .aligned_modes import mode_model

MODEL = mode_model(
    "deep_linear_whitened",
    "Whitened two-layer linear network, task-aligned modes (Saxe et al.)",
    "Saxe et al. 2014, eq 12 and App. A; Nam et al. 2025, App. C.3 eqs 46-56",
    ("Saxe's balanced initialization is a_i(0) = b_i(0) = alpha_i(0); unbalanced modes are solved too",),
)
