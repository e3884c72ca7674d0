r"""Task-aligned modes of a whitened linear network: the reduced model shared by Saxe and λ-balanced networks.

With :math:`\Sigma_{xx} = I` and :math:`\Sigma_{xy} = U P V^\top` (SVD, :math:`P = \mathrm{diag}(\rho_i)`), the
set :math:`W_1 = U\,\mathrm{diag}(a)\,R`, :math:`W_2 = R^\top\mathrm{diag}(b)\,V^\top` (:math:`RR^\top = I`) is
invariant under the flow of ``linear_network`` (spec models-nam2025.md §3, eqs 49–53; proved in
``derivations.matrix_flow``), and on it the network is, in the rotated coordinates :math:`\tilde x = U^\top x`,
:math:`\tilde y = V^\top y`, the mode network :math:`\tilde f(\tilde x) = \sum_i a_ib_i\tilde x_i` with target
:math:`\sum_i S_i\tilde x_i` and :math:`\mathbb E[\tilde x\tilde x^\top] = I`. Unit ``i`` is mode ``i``:
``a`` = :math:`s_{1,i}` (singular value of :math:`W_1`), ``b`` = :math:`s_{2,i}` (of :math:`W_2`),
``S`` = :math:`\rho_i` (of :math:`\Sigma_{xy}`; the spec's :math:`\tilde\rho_\alpha`).
"""

from __future__ import annotations

import sympy as sp

from ..model import Model, Quantity

__all__ = ["mode_model"]

S = sp.Symbol("S", real=True)
a, b = sp.symbols("a b", real=True)


def mode_model(name: str, title: str, reference: str, notes: tuple[str, ...] = ()) -> Model:
    """The aligned-mode model under ``name``."""
    return Model(
        name=name,
        title=title,
        reference=reference,
        state_names=("a", "b"),
        unit_param_names=("S",),
        shared_param_names=(),
        network=lambda s, x: sum(ai * bi * xi for ai, bi, xi in zip(s["a"], s["b"], x, strict=False)),
        target=lambda s, x: sum(si * xi for si, xi in zip(s["S"], x, strict=False)),
        moment=lambda s, i, j: sp.S.One if i == j else sp.S.Zero,
        input_dim=lambda p: p,
        quantities={
            "rho": Quantity("unit", a * b, "singular value a_i b_i of W1 W2 on mode i"),
            "lam": Quantity("unit", b**2 - a**2, "imbalance s_2^2 - s_1^2 of mode i (conserved)"),
            "loss": Quantity("sum", (S - a * b) ** 2 / 2, "population loss"),
        },
        domains={"S": "real"},
        notes=(
            "whitened inputs, task-aligned initialization; unit i = mode i",
            "a = s_1 (W1 singular value), b = s_2 (W2 singular value), S = rho (target singular value)",
            *notes,
        ),
    )
