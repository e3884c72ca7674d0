r"""A model's flow declared in matrix form: the vector field of its matrix states as SymPy matrix expressions.

A :class:`MatrixField` names the model's matrix states and parameters (as in ``Model.matrix_states`` and
``Model.matrix_params``) by ``MatrixSymbol``\ s, and gives :math:`\dot W` of each matrix state and the model's
quantities as matrix expressions (products, sums, transposes and traces). The numerics evaluate it as matrix
products on whole batches (``numerics.matrix_field``), whatever the sizes, where the entrywise unit field grows
with the number of entries. It is never typed in: :func:`from_matrix_flow` produces it from the derived
``derivations.matrix_flow.MatrixFlow`` and checks the factored form it uses against the derived gradient in the
free algebra; the tests compare it with the entrywise derivation at small sizes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import sympy as sp

from .matrix_flow import MatrixFlow, noncommutative

__all__ = ["MatrixField", "MatrixQuantity", "directional_derivative", "from_matrix_flow", "matrix_symbols"]


@dataclass(frozen=True)
class MatrixQuantity:
    """A quantity in matrix form: ``expr`` a matrix expression whose entry ``(i, j)`` is the model's quantity
    ``entries[i][j]``, or (``entries`` None) a scalar expression (e.g. a trace) that is the quantity itself."""

    expr: sp.Expr
    entries: tuple[tuple[str, ...], ...] | None = None


@dataclass(frozen=True)
class MatrixField:
    """``states`` and ``params``: matrix name (of ``Model.matrix_states`` / ``Model.matrix_params``) → its
    ``MatrixSymbol`` (a state's columns are the units); ``field``: state name → :math:`\\dot W`, a matrix
    expression in those symbols; ``quantities``: quantity name → :class:`MatrixQuantity`."""

    states: Mapping[str, sp.MatrixSymbol]
    params: Mapping[str, sp.MatrixSymbol]
    field: Mapping[str, sp.Expr]
    quantities: Mapping[str, MatrixQuantity]

    def tangent(self, tangents: Mapping[str, sp.MatrixSymbol]) -> dict[str, sp.Expr]:
        r"""The directional derivative :math:`J(W)\,V` of each component of the field, ``tangents`` naming the
        direction :math:`V` of each state (:func:`directional_derivative`)."""
        along = {self.states[name]: tangents[name] for name in self.states}
        return {name: directional_derivative(expr, along) for name, expr in self.field.items()}


def matrix_symbols(expr: sp.Basic) -> set[sp.MatrixSymbol]:
    """The matrix symbols in ``expr``."""
    return {node for node in sp.preorder_traversal(expr) if isinstance(node, sp.MatrixSymbol)}


def directional_derivative(expr: sp.Expr, along: Mapping[sp.MatrixSymbol, sp.Expr]) -> sp.Expr:
    r""":math:`\tfrac{d}{d\varepsilon}\,\mathrm{expr}(W + \varepsilon V)|_{\varepsilon = 0}` for the matrix symbols
    :math:`W` in ``along`` (mapped to :math:`V`), by the product rule on the tree of sums, products, transposes
    and traces (the order of non-commuting factors kept).

    Arguments:
        expr: a matrix or scalar expression of sums, products (scalar factors allowed), positive integer powers,
            transposes and traces.
        along: each varied matrix symbol → its direction, of its shape.

    Returns:
        The derivative, an expression of the same kind (``sp.S.Zero`` or a ``ZeroMatrix`` where nothing varies).

    Raises:
        ValueError: ``expr`` holds a node other than those (naming it).
    """

    def zero(node: sp.Expr) -> sp.Expr:
        return sp.ZeroMatrix(*node.shape) if isinstance(node, sp.MatrixExpr) else sp.S.Zero

    def varies(node: sp.Basic) -> bool:
        return bool(matrix_symbols(node) & set(along))

    def derive(node: sp.Expr) -> sp.Expr:
        if not varies(node):
            return zero(node)
        if isinstance(node, sp.MatrixSymbol):
            return along[node]
        if isinstance(node, (sp.MatAdd, sp.Add)):
            return type(node)(*(derive(a) for a in node.args if varies(a)))
        if isinstance(node, (sp.MatMul, sp.Mul)):
            factors = list(node.args)
            terms = [
                sp.MatMul(*factors[:k], derive(f), *factors[k + 1 :])
                if isinstance(node, sp.MatMul)
                else sp.Mul(*factors[:k], derive(f), *factors[k + 1 :])
                for k, f in enumerate(factors)
                if varies(f)
            ]
            return sp.MatAdd(*terms) if isinstance(node, sp.MatMul) else sp.Add(*terms)
        if isinstance(node, sp.Transpose):
            return sp.Transpose(derive(node.arg))
        if isinstance(node, sp.Trace):
            return sp.Trace(derive(node.arg))
        if isinstance(node, sp.MatPow) and node.exp.is_Integer and node.exp > 0:
            return derive(sp.MatMul(*[node.base] * int(node.exp)))
        raise ValueError(f"directional_derivative: no rule for {type(node).__name__} in {node}")

    return derive(expr)


def from_matrix_flow(
    flow: MatrixFlow,
    states: Mapping[str, sp.Expr],
    params: Mapping[str, sp.Expr],
    quantities: Mapping[str, MatrixQuantity],
) -> MatrixField:
    r"""The :class:`MatrixField` of a model from the derived two-layer flow :math:`\dot W_1 = MW_2^\top`,
    :math:`\dot W_2 = W_1^\top M` (``flow``, :math:`M` its residual correlation).

    ``states`` maps each of the model's matrix states to its expression in ``flow.W1``, ``flow.W2`` (e.g.
    ``"W2T"`` → ``flow.W2.T``, the model storing :math:`W_2^\top`); ``params`` maps each matrix parameter to one of
    ``flow.Sxx``, ``flow.Sxy``, ``flow.Syy``; ``quantities`` are matrix quantities written in ``flow``'s symbols.
    Every expression is rewritten in the model's own ``MatrixSymbol``\ s (named as its matrices, of the shapes
    of the flow's with the unit axis last). The field is evaluated in the factored form (:math:`M` once, shared by
    both components), checked here equal to the derived negative gradient ``flow.field`` in the free algebra.

    Raises:
        ValueError: the factored form differs from the derived gradient, or ``states``/``params`` do not name
            every matrix of ``flow``.
    """
    names = {flow.W1: None, flow.W2: None, flow.Sxx: None, flow.Sxy: None, flow.Syy: None}
    symbols: dict[str, sp.MatrixSymbol] = {}
    replace: dict[sp.Expr, sp.Expr] = {}
    for name, image in (*states.items(), *params.items()):
        base = image.arg if isinstance(image, sp.Transpose) else image
        if base not in names:
            raise ValueError(f"from_matrix_flow: {name!r} must be a matrix of the flow or its transpose, got {image}")
        rows, cols = image.shape
        symbols[name] = sp.MatrixSymbol(name, rows, cols)
        replace[base] = symbols[name].T if isinstance(image, sp.Transpose) else symbols[name]
    missing = [str(m) for m in names if m not in replace]
    if missing:
        raise ValueError(f"from_matrix_flow: states and params must name every matrix of the flow; missing {missing}")
    factored = {flow.W1: flow.M * flow.W2.T, flow.W2: flow.W1.T * flow.M}
    _check_equal(flow, factored)
    rewrite = {}
    for name, image in states.items():
        # a state stored transposed (W2T = W2^T) moves with the transpose of its matrix's field
        transposed = isinstance(image, sp.Transpose)
        component = factored[image.arg if transposed else image]
        rewrite[name] = sp.Transpose(component) if transposed else component

    def own(expr: sp.Expr) -> sp.Expr:
        # transposes of transposes collapse (W2T.T.T = W2T); nothing else is simplified, so that M stays one node
        return expr.xreplace(replace).replace(
            lambda node: isinstance(node, sp.Transpose) and isinstance(node.arg, sp.Transpose),
            lambda node: node.arg.arg,
        )

    return MatrixField(
        states={name: symbols[name] for name in states},
        params={name: symbols[name] for name in params},
        field={name: own(expr) for name, expr in rewrite.items()},
        quantities={name: MatrixQuantity(own(q.expr), q.entries) for name, q in quantities.items()},
    )


def _check_equal(flow: MatrixFlow, factored: Mapping[sp.MatrixSymbol, sp.Expr]) -> None:
    """``ValueError`` unless each factored component equals the derived ``flow.field`` in the free algebra."""
    generators = (flow.W1, flow.W2, flow.Sxx, flow.Sxy, flow.Syy)
    table: dict[sp.Basic, sp.Expr] = {}
    for matrix in generators:
        table[matrix] = sp.Symbol(str(matrix), commutative=False)
        table[sp.Transpose(matrix)] = sp.Symbol(f"{matrix}^T", commutative=False)
    table[sp.Transpose(flow.Sxx)] = table[flow.Sxx]  # symmetric
    for matrix, expr in factored.items():
        difference = sp.expand(noncommutative(expr, table) - noncommutative(flow.field[matrix], table))
        if difference != 0:
            raise ValueError(
                f"from_matrix_flow: the factored field of {matrix} differs from the derived one by {difference}"
            )
