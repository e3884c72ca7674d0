r"""The gradient flow of the two-layer linear network in matrix form, for general sizes (spec §1 and §3).

Nam et al. 2025, App. C.3 (eqs 36–56). With matrix symbols :math:`W_1 \in \mathbb R^{d\times p}`,
:math:`W_2 \in \mathbb R^{p\times c}` of symbolic sizes, the loss
:math:`\mathcal L = \tfrac12\mathrm{tr}\,\Sigma_{yy} - \mathrm{tr}(W_2^\top W_1^\top\Sigma_{xy}) +
\tfrac12\mathrm{tr}(W_2^\top W_1^\top\Sigma_{xx}W_1W_2)` is :math:`\tfrac12\mathbb E\|y - W_2^\top W_1^\top x\|^2`
(checked entrywise against ``linear_network`` at concrete sizes), and the flow is its negative matrix
gradient (SymPy's matrix calculus; each trace is differentiated separately because SymPy 1.14 returns 0 for
the derivative of a *sum* of traces, a bug kept as a regression test).

Identities between non-commuting matrices are decided in the free algebra: matrix expressions are mapped to
non-commutative symbols (one for each matrix and one for its transpose), expanded, and reduced with the
orthogonality relations (``U^T U = I`` …), which is what the aligned-set argument of §3 needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import sympy as sp

__all__ = [
    "MatrixFlow",
    "aligned_invariance",
    "conserved_matrix_derivative",
    "matrix_gradient_flow",
    "noncommutative",
    "reduce",
    "transpose",
]

d, p, c = sp.symbols("d p c", integer=True, positive=True)


@dataclass(frozen=True)
class MatrixFlow:
    """The derived flow: ``field[W]`` is :math:`\\dot W` for ``W`` in ``(W1, W2)``; ``M`` the residual correlation."""

    W1: sp.MatrixSymbol
    W2: sp.MatrixSymbol
    Sxx: sp.MatrixSymbol
    Sxy: sp.MatrixSymbol
    Syy: sp.MatrixSymbol
    loss_terms: tuple[sp.Expr, ...]
    field: dict[sp.MatrixSymbol, sp.MatrixExpr]
    M: sp.MatrixExpr

    @property
    def loss(self) -> sp.Expr:
        """The loss as one expression."""
        return sp.Add(*self.loss_terms)


@cache
def matrix_gradient_flow() -> MatrixFlow:
    r""":math:`\dot W_i = -\partial\mathcal L/\partial W_i` for symbolic sizes, :math:`\Sigma_{xx}` symmetric."""
    W1, W2 = sp.MatrixSymbol("W_1", d, p), sp.MatrixSymbol("W_2", p, c)
    Sxx, Sxy, Syy = (
        sp.MatrixSymbol("Sigma_xx", d, d),
        sp.MatrixSymbol("Sigma_xy", d, c),
        sp.MatrixSymbol("Sigma_yy", c, c),
    )
    terms = (
        sp.Trace(Syy) / 2,
        -sp.Trace(W2.T * W1.T * Sxy),
        sp.Trace(W2.T * W1.T * Sxx * W1 * W2) / 2,
    )
    symmetric = {Sxx.T: Sxx}

    def flow(W: sp.MatrixSymbol) -> sp.MatrixExpr:
        gradient = sp.MatAdd(*(term.diff(W) for term in terms))
        return (-gradient).xreplace(symmetric).doit()

    return MatrixFlow(W1, W2, Sxx, Sxy, Syy, terms, {W1: flow(W1), W2: flow(W2)}, Sxy - Sxx * W1 * W2)


def noncommutative(expr: sp.Basic, table: Mapping[sp.Basic, sp.Expr]) -> sp.Expr:
    """The image of a matrix expression in the free algebra: ``table`` maps matrix symbols and their transposes
    (and identities) to non-commutative expressions; sums, products and scalar factors are kept."""
    if expr in table:
        return table[expr]
    if isinstance(expr, sp.Transpose) and expr.arg in table:
        return transpose(table[expr.arg], table)
    if isinstance(expr, (sp.MatAdd, sp.Add)):
        return sp.Add(*(noncommutative(arg, table) for arg in expr.args))
    if isinstance(expr, (sp.MatMul, sp.Mul)):
        return sp.Mul(*(noncommutative(arg, table) for arg in expr.args))
    if isinstance(expr, sp.Transpose):
        return transpose(noncommutative(expr.arg, table), table)
    if expr.is_commutative and not isinstance(expr, sp.MatrixExpr):
        return expr
    raise ValueError(f"no non-commutative image for {expr!r}")


def transpose(expr: sp.Expr, table: Mapping[sp.Basic, sp.Expr]) -> sp.Expr:
    """Transpose in the free algebra: reverse products, map each generator to its transpose partner."""
    partners = _partners(table)
    expr = sp.expand(expr)
    if isinstance(expr, sp.Add):
        return sp.Add(*(transpose(arg, table) for arg in expr.args))
    commutative, factors = expr.args_cnc() if isinstance(expr, sp.Mul) else ([], [expr])
    if not factors or (factors == [expr] and expr.is_commutative):
        return expr
    flipped = []
    for factor in reversed(factors):
        base, exponent = factor.as_base_exp()
        flipped.append(partners.get(base, base) ** exponent)
    return sp.Mul(*commutative) * sp.Mul(*flipped)


def _partners(table: Mapping[sp.Basic, sp.Expr]) -> dict[sp.Expr, sp.Expr]:
    pairs = {}
    for key, value in table.items():
        if isinstance(key, sp.Transpose) and key.arg in table:
            pairs[table[key.arg]] = value
            pairs[value] = table[key.arg]
    return pairs


def reduce(expr: sp.Expr, relations: Mapping[sp.Expr, sp.Expr]) -> sp.Expr:
    """Expand and rewrite with ``relations`` (e.g. ``U^T U -> 1``) until nothing changes."""
    current = sp.expand(expr)
    while True:
        reduced = sp.expand(current.subs(relations))
        if reduced == current:
            return reduced
        current = reduced


def conserved_matrix_derivative() -> sp.MatrixExpr:
    r""":math:`\tfrac{d}{dt}(W_1^\top W_1 - W_2W_2^\top)` along the derived flow, expanded (zero iff conserved)."""
    flow = matrix_gradient_flow()
    W1, W2 = flow.W1, flow.W2
    F1, F2 = flow.field[W1], flow.field[W2]
    return sp.expand((F1.T * W1 + W1.T * F1 - F2 * W2.T - W2 * F2.T).doit())


def aligned_invariance() -> dict[str, sp.Expr]:
    r"""Residuals of the aligned-set argument (spec §3, eqs 49–52), zero iff it holds.

    With :math:`\Sigma_{xx} = I`, :math:`\Sigma_{xy} = UPV^\top`, :math:`U^\top U = V^\top V = RR^\top = I`,
    :math:`P^\top = P`, and :math:`W_1 = UXR`, :math:`W_2 = R^\top YV^\top` for arbitrary square :math:`X, Y`,
    the derived flow is :math:`\dot W_1 = U\dot XR`, :math:`\dot W_2 = R^\top\dot YV^\top` with
    :math:`\dot X = (P - XY)Y^\top`, :math:`\dot Y = X^\top(P - XY)` (eqs 51–52): the set is invariant and the
    reduced matrices follow the same flow with :math:`\Sigma_{xy} = P`. Keys ``"W1"``, ``"W2"``: the residuals
    :math:`\dot W_1 - U\dot XR`, :math:`\dot W_2 - R^\top\dot YV^\top` in the free algebra after reduction.
    """
    flow = matrix_gradient_flow()
    U, Ut, R, Rt, V, Vt, X, Xt, Y, Yt, P = sp.symbols("U U^T R R^T V V^T X X^T Y Y^T P", commutative=False)
    table = {
        flow.W1: U * X * R,
        flow.W2: Rt * Y * Vt,
        flow.Sxx: sp.S.One,
        flow.Sxy: U * P * Vt,
        sp.Transpose(flow.W1): Rt * Xt * Ut,
        sp.Transpose(flow.W2): V * Yt * R,
        sp.Transpose(flow.Sxy): V * P * Ut,
        sp.Transpose(flow.Sxx): sp.S.One,
    }
    relations = {Ut * U: 1, Vt * V: 1, R * Rt: 1}
    Xdot, Ydot = (P - X * Y) * Yt, Xt * (P - X * Y)
    return {
        "W1": reduce(noncommutative(flow.field[flow.W1], table) - U * Xdot * R, relations),
        "W2": reduce(noncommutative(flow.field[flow.W2], table) - Rt * Ydot * Vt, relations),
    }
