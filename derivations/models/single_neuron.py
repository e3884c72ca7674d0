r"""``single_neuron``: the single neuron :math:`f(x) = a\, w^\top x`, :math:`x \in \mathbb R^d` whitened.

Kunin et al. 2024, "Get rich quick: exact solutions reveal how unbalanced initializations promote rapid feature
learning", NeurIPS 2024: the paper's minimal model, one hidden neuron with input weights :math:`w \in \mathbb R^d`
and output weight :math:`a`, trained by gradient flow on the population loss
:math:`\tfrac12\mathbb E_x[(a\,w^\top x - \beta^\top x)^2] = \tfrac12|a w - \beta|^2` (whitened inputs,
:math:`\mathbb E[xx^\top] = I`, the target :math:`\beta^\top x` with shared parameters ``beta_1 … beta_d``), and
optionally layer learning rates :math:`\dot a = -\eta_a \partial_a\mathcal L`, :math:`\dot w = -\eta_w\nabla_w
\mathcal L` (parameters ``eta_a``, ``eta_w``). The quantity :math:`\delta = a^2/\eta_a - |w|^2/\eta_w` is conserved.

Unit convention. The package's models are families of ``p`` units with one field per unit. The neurons of a sum
:math:`\sum_i a_i w_i^\top x` would couple (through :math:`\sum_i a_i w_i`), and the paper's model is one neuron:
so here a unit is one *independent* neuron. The model of width ``p`` has ``p`` outputs, output ``i`` being neuron
``i``, :math:`f_i(x) = a_i w_i^\top x`, each fitting the same target :math:`\beta^\top x` (the loss sums over the
outputs): the units never interact, every unit's field is the paper's single-neuron flow, and ``p = 1`` is the
paper's model itself (a batch of ``p`` units is ``p`` neurons trained side by side, e.g. from different starts).

States ``a`` and ``w_1 … w_d`` (``matrix_states`` ``w``: rows ``w_1 … w_d``, shape (d, p)), shared parameters
``beta_1 … beta_d`` (``matrix_params`` ``beta``, a d×1 vector) and, with ``learning_rates=True``, ``eta_a`` and
``eta_w`` (positive). ``single_neuron(d)`` builds the model; the registry holds ``d = 2`` without layer rates.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from ..model import Model, Quantity

__all__ = ["single_neuron"]


def single_neuron(d: int = 2, learning_rates: bool = False) -> Model:
    r"""The single neuron :math:`f(x) = a\,w^\top x` on whitened inputs :math:`x \in \mathbb R^d` (Kunin et al.
    2024, NeurIPS), one independent neuron per unit (module docstring).

    Arguments:
        d: the input dimension, an integer >= 1.
        learning_rates: with layer learning rates ``eta_a`` (for ``a``) and ``eta_w`` (for ``w``).

    Returns:
        The model (cached: the same object for the same arguments).

    Raises:
        ValueError: ``d`` is not an integer >= 1.
        TypeError: ``learning_rates`` is not a bool.
    """
    if not isinstance(d, int) or isinstance(d, bool) or d < 1:
        raise ValueError(f"d must be an integer >= 1, got {d!r}")
    if not isinstance(learning_rates, bool):
        raise TypeError(f"learning_rates must be a bool, got {type(learning_rates).__name__}")
    return _single_neuron(d, learning_rates)


@cache  # keyed by the checked values, so that single_neuron() and single_neuron(2) are one object
def _single_neuron(d: int, learning_rates: bool) -> Model:
    rows = tuple(f"w_{k + 1}" for k in range(d))
    betas = tuple(f"beta_{k + 1}" for k in range(d))
    rates = ("eta_a", "eta_w") if learning_rates else ()
    a = sp.Symbol("a", real=True)
    w = [sp.Symbol(n, real=True) for n in rows]
    beta = [sp.Symbol(n, real=True) for n in betas]
    eta_a, eta_w = (sp.Symbol(n, positive=True) for n in ("eta_a", "eta_w")) if learning_rates else (1, 1)

    def network(s, x):
        # one output per unit: unit i is the neuron a_i w_i^T x on its own (the units never couple)
        return tuple(s["a"][i] * sum(s[rows[k]][i] * x[k] for k in range(d)) for i in range(len(s["a"])))

    def target(s, x):
        return tuple(sum(s[betas[k]] * x[k] for k in range(d)) for _ in range(len(s["a"])))

    def moment(s, i, j):
        return sp.S.One if i == j else sp.S.Zero

    squared = sum(wk**2 for wk in w)
    return Model(
        name="single_neuron",
        title=f"Single neuron{' with layer learning rates' if learning_rates else ''} (d = {d})",
        reference="Kunin et al. 2024 (NeurIPS), the single-neuron model",
        state_names=("a", *rows),
        unit_param_names=(),
        shared_param_names=(*betas, *rates),
        network=network,
        target=target,
        moment=moment,
        input_dim=lambda p: d,
        quantities={
            "delta": Quantity("unit", a**2 / eta_a - squared / eta_w, "conserved a^2/eta_a - |w|^2/eta_w"),
            "loss": Quantity(
                "unit",
                sum((a * wk - bk) ** 2 for wk, bk in zip(w, beta, strict=True)) / 2,
                "the neuron's loss 1/2 |a w - beta|^2",
            ),
        },
        domains={n: "positive" for n in rates},
        notes=(
            "one unit = one independent neuron (output i is neuron i, all fitting beta^T x); p = 1 is the paper's "
            "model",
            "whitened inputs E[x x^T] = I",
        ),
        learning_rates={"a": "eta_a", **dict.fromkeys(rows, "eta_w")} if learning_rates else {},
        matrix_states={"w": rows},
        matrix_params={"beta": tuple((b,) for b in betas)},
    )


MODEL = single_neuron(2)
