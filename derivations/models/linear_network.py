r"""``linear_network``: the two-layer linear network :math:`f(x) = W_2^\top W_1^\top x`, population MSE.

Nam et al. 2025, eq 4 and App. C.3 (spec models-nam2025.md §1). Paper orientation: :math:`W_1 \in
\mathbb R^{d\times p}`, :math:`W_2 \in \mathbb R^{p\times c}`; the authors' code uses :math:`f = W_2W_1x`
with the transposed matrices, a presentation choice only (``weights`` takes ``orientation="code"``).

Units are the ``p`` hidden neurons: unit ``j`` carries column ``j`` of :math:`W_1` (states ``W1_1 … W1_d``,
so the instance symbol ``W1_k_j`` is :math:`(W_1)_{kj}`) and row ``j`` of :math:`W_2`, i.e. column ``j`` of
:math:`W_2^\top` (states ``W2T_1 … W2T_c``, instance symbol ``W2T_m_j`` is :math:`(W_2^\top)_{mj}`).
The input :math:`x \in \mathbb R^d` and the target :math:`y \in \mathbb R^c` are random vectors with
moments :math:`\Sigma_{xx}` (symmetric, parameters ``Sxx_kl``, ``k <= l``), :math:`\Sigma_{xy}` (``Sxy_km``)
and :math:`\Sigma_{yy}` (``Syy_mn``, ``m <= n``); the loss is :math:`\tfrac12\mathbb E\|y - f(x)\|^2`.
The units interact only through the product :math:`P = W_1W_2` (the sums ``P_k_m``), so one unit field
serves every width ``p``. ``linear_network(d, c)`` builds the model; the registry holds ``d = 3``, ``c = 2``.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from ..model import Instance, Model, Quantity

__all__ = ["linear_network", "moment_matrices", "product_name", "weights"]


def _pair(prefix: str, i: int, j: int, symmetric: bool) -> str:
    if symmetric and i > j:
        i, j = j, i
    return f"{prefix}_{i + 1}{j + 1}"


def product_name(k: int, m: int) -> str:
    """The name of the sum :math:`(W_1W_2)_{km}` (0-based indices)."""
    return f"P_{k + 1}_{m + 1}"


@cache
def linear_network(d: int = 3, c: int = 2) -> Model:
    """The model with input dimension ``d`` and output dimension ``c`` (integers >= 1)."""
    for name, value in (("d", d), ("c", c)):
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    rows1 = tuple(f"W1_{k + 1}" for k in range(d))
    rows2 = tuple(f"W2T_{m + 1}" for m in range(c))
    sxx = sorted({_pair("Sxx", k, j, True) for k in range(d) for j in range(d)})
    sxy = [_pair("Sxy", k, m, False) for k in range(d) for m in range(c)]
    syy = sorted({_pair("Syy", m, n, True) for m in range(c) for n in range(c)})
    unit = {name: sp.Symbol(name, real=True) for name in (*rows1, *rows2)}
    P = [[sp.Symbol(product_name(k, m), real=True) for m in range(c)] for k in range(d)]
    S = {name: sp.Symbol(name, real=True) for name in (*sxx, *sxy, *syy)}

    def moment(s, i, j):
        kinds = [("x", i) if i < d else ("y", i - d), ("x", j) if j < d else ("y", j - d)]
        (ki, a), (kj, b) = kinds
        if ki == kj:
            return s[_pair("Sxx" if ki == "x" else "Syy", a, b, True)]
        k, m = (a, b) if ki == "x" else (b, a)
        return s[_pair("Sxy", k, m, False)]

    def network(s, x):
        hidden = [sum(s[rows1[k]][j] * x[k] for k in range(d)) for j in range(len(s[rows1[0]]))]
        return tuple(sum(h * w for h, w in zip(hidden, s[rows2[m]], strict=True)) for m in range(c))

    loss = (
        sum(S[_pair("Syy", m, m, True)] for m in range(c)) / 2
        - sum(S[_pair("Sxy", k, m, False)] * P[k][m] for k in range(d) for m in range(c))
        + sum(S[_pair("Sxx", k, j, True)] * P[k][m] * P[j][m] for k in range(d) for j in range(d) for m in range(c)) / 2
    )
    products = {
        product_name(k, m): Quantity("sum", unit[rows1[k]] * unit[rows2[m]], f"(W1 W2)_{k + 1}{m + 1}")
        for k in range(d)
        for m in range(c)
    }
    return Model(
        name="linear_network",
        title=f"Two-layer linear network (d = {d}, c = {c})",
        reference="Nam et al. 2025, eq 4 and App. C.3",
        state_names=(*rows1, *rows2),
        unit_param_names=(),
        shared_param_names=(*sxx, *sxy, *syy),
        network=network,
        target=lambda s, x: tuple(x[d:]),
        moment=moment,
        input_dim=lambda p: d + c,
        quantities={**products, "loss": Quantity("scalar", loss, "population loss 1/2 E|y - f(x)|^2")},
        notes=(
            "paper orientation f(x) = W2^T W1^T x, W1 in R^{d x p}, W2 in R^{p x c}",
            "unit j = hidden neuron j: column j of W1 and row j of W2",
        ),
    )


def weights(instance: Instance, orientation: str = "paper") -> tuple[sp.Matrix, sp.Matrix]:
    r"""The weight matrices of an explicit instance: :math:`(W_1, W_2)` in the paper orientation
    (:math:`d\times p`, :math:`p\times c`), or their transposes for ``orientation="code"`` (:math:`f = W_2W_1x`)."""
    if orientation not in ("paper", "code"):
        raise ValueError(f"orientation must be 'paper' or 'code', got {orientation!r}")
    names = instance.model.state_names
    rows1 = [n for n in names if n.startswith("W1_")]
    rows2 = [n for n in names if n.startswith("W2T_")]
    W1 = sp.Matrix([list(instance.state[n]) for n in rows1])
    W2 = sp.Matrix([list(instance.state[n]) for n in rows2]).T
    return (W1, W2) if orientation == "paper" else (W1.T, W2.T)


def moment_matrices(instance: Instance) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    r""":math:`(\Sigma_{xx}, \Sigma_{xy}, \Sigma_{yy})` as matrices of the instance's parameter symbols."""
    W1, W2 = weights(instance)
    d, c = W1.shape[0], W2.shape[1]
    m = instance.model.moment
    return (
        sp.Matrix(d, d, lambda i, j: m(instance.sym, i, j)),
        sp.Matrix(d, c, lambda i, j: m(instance.sym, i, d + j)),
        sp.Matrix(c, c, lambda i, j: m(instance.sym, d + i, d + j)),
    )


MODEL = linear_network(3, 2)
