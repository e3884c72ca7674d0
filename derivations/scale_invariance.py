r"""Scale invariance of a model's scalar quantities, derived from their expressions in the sums.

A scalar quantity :math:`q` is an expression in the model's sums :math:`\Sigma_k = \sum_i s_k(\text{unit } i)`
and shared parameters. If every summand :math:`s_k` is homogeneous in each state variable :math:`v` (degree
:math:`d_{k,v}`), scaling the states :math:`v \to \lambda_v v` (:math:`\lambda_v > 0`) scales
:math:`\Sigma_k \to \prod_v \lambda_v^{d_{k,v}}\Sigma_k`, and :math:`q` is invariant iff the substituted
expression equals :math:`q` (piecewise: branch by branch, with positive factors dropped from the conditions).
Invariant quantities, such as a cosine or :math:`\tanh\theta`, can then be evaluated on rescaled states, where
the sums neither underflow nor overflow (``numerics.evaluate.quantities``).
"""

from __future__ import annotations

import random

import sympy as sp
from sympy.core.relational import Relational

from .model import Model

__all__ = ["scaling_groups"]


def _degree(summand: sp.Expr, variable: sp.Symbol) -> int | None:
    """The degree of ``summand`` in ``variable`` if it is homogeneous in it, else None."""
    if not summand.is_polynomial(variable):
        return None
    degrees = {m[0] for m in sp.Poly(summand, variable).monoms()}
    return degrees.pop() if len(degrees) == 1 else None


def _drop_positive_factors(expr: sp.Expr) -> sp.Expr:
    """Every relation ``X ~ Y`` written as ``X' ~ 0`` with the positive factors of ``X - Y`` dropped."""

    def clean(relation: Relational) -> sp.Basic:
        factors = sp.Mul.make_args(sp.factor_terms(relation.lhs - relation.rhs))
        return relation.func(sp.Mul(*(f for f in factors if not f.is_positive)), 0)

    return expr.replace(lambda e: isinstance(e, Relational), clean)


def _differ_at_a_point(a: sp.Expr, b: sp.Expr) -> bool:
    """True if ``a`` and ``b`` take different exact values at one rational point (a certificate of inequality)."""
    rng = random.Random(0)
    point = {s: sp.Rational(rng.randint(1, 97), rng.randint(1, 13)) for s in a.free_symbols | b.free_symbols}
    return sp.simplify(a.xreplace(point) - b.xreplace(point)) != 0


def _same(a: sp.Expr, b: sp.Expr) -> bool:
    """``a == b`` identically: piecewise branch by branch, conditions compared with positive factors dropped."""
    a, b = _drop_positive_factors(a), _drop_positive_factors(b)
    if isinstance(a, sp.Piecewise) or isinstance(b, sp.Piecewise):
        if not (isinstance(a, sp.Piecewise) and isinstance(b, sp.Piecewise)) or len(a.args) != len(b.args):
            return False
        return all(ca == cb and _same(ea, eb) for (ea, ca), (eb, cb) in zip(a.args, b.args, strict=True))
    return not _differ_at_a_point(a, b) and sp.simplify(a - b) == 0


def scaling_groups(model: Model, name: str) -> tuple[tuple[str, ...], ...]:
    """The state names in groups, each group scaled by one positive factor, under which the scalar quantity
    ``name`` of ``model`` is invariant: one group per state name if it is invariant under each scaling
    separately, else one group of all the states if under a joint scaling, else ``()``."""
    quantity = model.quantities[name]
    if quantity.kind != "scalar":
        raise ValueError(f"{model.name}: quantity {name!r} is not a scalar quantity")
    sums = {n: q.expr for n, q in model.quantities.items() if q.kind == "sum"}
    states = {v: model.symbol(v) for v in model.state_names}
    degrees = {n: {v: _degree(sp.sympify(e, strict=True), s) for v, s in states.items()} for n, e in sums.items()}
    used = [n for n in sums if model.symbol(n) in quantity.expr.free_symbols]
    if not used or any(d is None for n in used for d in degrees[n].values()):
        return ()
    for groups in (tuple((v,) for v in states), (tuple(states),)):
        factor = {v: sp.Symbol(f"lambda_{k}", positive=True) for k, group in enumerate(groups) for v in group}
        scaled = {
            model.symbol(n): sp.Mul(*(factor[v] ** degrees[n][v] for v in states)) * model.symbol(n) for n in used
        }
        if _same(quantity.expr.xreplace(scaled), quantity.expr):
            return groups
    return ()
