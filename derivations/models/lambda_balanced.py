r"""``lambda_balanced``: λ-balanced, task-aligned two-layer linear networks (Dominé et al. 2025).

Spec models-nam2025.md §4 (Nam et al. 2025, eq 14 and Theorem 2, App. F.1). The mode network is that of
``aligned_modes``; :math:`W_2W_2^\top - W_1^\top W_1 = \lambda I` means every mode has the same conserved
imbalance :math:`b_i^2 - a_i^2 = \lambda`. Theorem 2's form of the solution is derived by the built-in paper
``domine2025`` through the mode equation :math:`\dot\rho = \sqrt{\lambda^2+4\rho^2}(\tilde\rho-\rho)` and the
substitution
:math:`\rho = \tfrac{\ell}{4}(w - w^{-1})`, :math:`\ell = |\lambda|`, into a constant-coefficient Riccati equation.
"""

from __future__ import annotations

from .aligned_modes import mode_model

MODEL = mode_model(
    "lambda_balanced",
    "λ-balanced two-layer linear network, task-aligned modes (Dominé et al.)",
    "Dominé et al. 2025; Nam et al. 2025, eq 14 and Theorem 2, App. F.1",
    ("lambda = b_i^2 - a_i^2 is the same for every mode of a lambda-balanced network (eq 14)",),
)
