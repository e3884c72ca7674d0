r"""Elimination through the conservation laws: a unit with :math:`k` states and :math:`k-1` laws is one scalar ODE.

For units that do not couple (the unit field is free of the model's sums), the conservation laws of the
pipeline's step 2 (``conservation.conserved_quantities``) keep their initial values. When the laws are even in
the states to eliminate and linear in their squares (e.g. :math:`a^2 - 2b^2` of a tied layer, the differences
:math:`a_k^2 - a_l^2` of a deep chain), ``sympy.solve`` gives each eliminated state's square as a polynomial in
the kept state :math:`y` and the initial values, e.g. :math:`a^2 = a_0^2 + 2(b^2 - b_0^2)`. Each eliminated
state is then :math:`x_k = \operatorname{sign}(x_k(0))\sqrt{Q_k(y)}` and :math:`y' = G(y)` is the field's
:math:`y`-component with them substituted. Every step is checked exactly: the laws at the start, the squares
against every law, each branch at the start, the reduced equation against the field (the pipeline then checks
the back-substitution of every state against the flow).

The branch. An eliminated state whose field component is divisible by itself (:math:`\dot x_k = x_k h`, as
:math:`\dot a = 2ab(S - a^2b)` of the tied layer) keeps its sign from every start, and stays 0 from 0: the branch
holds for all times, using only :math:`\operatorname{sign}^3 = \operatorname{sign}`. Any other eliminated state
keeps its sign while :math:`Q_k(y) > 0`; it is assumed non-zero at the start (:math:`\operatorname{sign}^2 = 1`),
and a root of :math:`Q_k` is a branch point of :math:`G` (a stop of the quadrature, ``derivations.quadrature``)
that the motion of :math:`y` reaches in finite time exactly when the state reaches 0: the closed form holds
before that time and the numerics refuse later ones. For a deep chain this never happens when the kept layer is
one of smallest magnitude at the start (the others' squares stay above the kept one's).

Kept state: every state is tried, those whose elimination leaves an equation rational in :math:`y` first, then
those whose eliminated states all keep their signs, then in the model's order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import sympy as sp

from .derivation import Derivation
from .model import Model
from .proof import Proof, prove_zero
from .reduction import ScalarReduction

__all__ = ["eliminate"]


@dataclass(frozen=True)
class _Plan:
    """One way to eliminate: the kept state ``y``, each eliminated state's square ``squares`` (a polynomial in
    ``y`` and the initial values), whether it keeps its sign for all times (``keeps_sign``) and the reduced
    right-hand side ``rhs``."""

    y: sp.Symbol
    squares: dict[sp.Symbol, sp.Expr]
    keeps_sign: dict[sp.Symbol, sp.Expr | None]
    rhs: sp.Expr
    branches: dict[sp.Symbol, sp.Expr]

    @property
    def rational(self) -> bool:
        return bool(self.rhs.is_rational_function(self.y))


def _sums(model: Model) -> set[sp.Symbol]:
    return {model.symbol(n) for n, q in model.quantities.items() if q.kind == "sum"}


def _plan(model: Model, laws: tuple[sp.Expr, ...], y: sp.Symbol) -> _Plan | str:
    """The elimination keeping ``y``, or the reason it does not exist."""
    states = [model.symbol(n) for n in model.state_names]
    others = [s for s in states if s != y]
    init = {s: model.init_symbol(s.name) for s in states}
    for law in laws:
        if any(sp.expand(law - law.xreplace({x: -x})) != 0 for x in others):
            return f"the law {law} is not even in {', '.join(map(str, others))}"
    squares = {x: sp.Dummy(f"{x}_sq") for x in others}
    equations = []
    for law in laws:
        expr = sp.expand(law - law.xreplace(init))
        poly = sp.Poly(expr, *others)
        # even in each eliminated state: a polynomial in their squares
        in_squares = sp.Add(
            *(c * sp.Mul(*(squares[x] ** (e // 2) for x, e in zip(others, m, strict=True))) for m, c in poly.terms())
        )
        equations.append(in_squares)
    solutions = sp.solve(equations, list(squares.values()), dict=True)
    if len(solutions) != 1 or set(solutions[0]) != set(squares.values()):
        return f"the laws do not determine the squares of {', '.join(map(str, others))} uniquely keeping {y}"
    (solution,) = solutions
    found = {x: sp.expand(solution[squares[x]]) for x in others}
    if any(v.free_symbols & (set(states) - {y}) or not v.is_polynomial(y) for v in found.values()):
        return f"the squares of the eliminated states are not polynomials in {y} and the initial values"
    field = model.unit_field
    keeps: dict[sp.Symbol, sp.Expr | None] = {}
    for x in others:
        quotient = sp.cancel(field[x] / x)
        keeps[x] = quotient if quotient.is_polynomial(*states) else None
    branches = {x: sp.sign(init[x]) * sp.sqrt(found[x]) for x in others}
    rhs = field[y].xreplace(branches)
    return _Plan(y, found, keeps, rhs, branches)


def eliminate(model: Model, laws: tuple[sp.Expr, ...], names: dict[str, sp.Symbol]) -> Iterator[ScalarReduction | str]:
    """The scalar reductions by elimination through ``laws`` (module docstring), best first, or the reasons.

    Arguments:
        model: the model (its units must not couple through sums).
        laws: one unit's conservation laws, in the unit's symbols.
        names: ``{"t": t, ...}``, the time symbol.

    Returns:
        An iterator of ``ScalarReduction`` and reasons (strings).
    """
    states = [model.symbol(n) for n in model.state_names]
    if len(states) < 2:
        return
    if set().union(*(f.free_symbols for f in model.unit_field.values())) & _sums(model):
        yield "the units couple through sums: the laws of one unit do not close its equations"
        return
    if len(laws) < len(states) - 1:
        yield f"{len(laws)} conservation law(s) for {len(states)} states: at least {len(states) - 1} are needed"
        return
    plans = []
    for y in states:
        plan = _plan(model, laws, y)
        if isinstance(plan, str):
            yield plan
        else:
            plans.append(plan)
    plans.sort(key=lambda p: (not p.rational, any(k is None for k in p.keeps_sign.values())))
    for plan in plans:
        yield _reduction(model, laws, plan, names["t"])


def _reduction(model: Model, laws: tuple[sp.Expr, ...], plan: _Plan, t: sp.Symbol) -> ScalarReduction:
    """The recorded, checked steps of one elimination and its scalar reduction."""
    states = [model.symbol(n) for n in model.state_names]
    init = {s: model.init_symbol(s.name) for s in states}
    y, field = plan.y, model.unit_field
    d = Derivation(f"elimination keeping {y}")
    for law in laws:
        d.add(
            sp.Eq(law, law.xreplace(init)),
            "a conservation law (step 2) keeps its initial value",
            residual=model.unit_time_derivative(law),
            key="elimination",
        )
    plain = {x: sp.sqrt(q) for x, q in plan.squares.items()}
    for x, q in plan.squares.items():
        d.add(
            sp.Eq(x**2, q),
            f"{x}^2 solved from the laws (sympy.solve, linear in the squares of the eliminated states)",
            verifier=lambda: _every(sp.expand(law - law.xreplace(init)).xreplace(plain) for law in laws),
            key="elimination",
        )
    sign_relations = []
    assumptions = []
    for x, q in plan.squares.items():
        sign = sp.sign(init[x])
        quotient = plan.keeps_sign[x]
        if quotient is not None:
            d.add(
                sp.Eq(sp.Derivative(sp.Function(str(x))(t), t), x * quotient),
                f"{x}' is proportional to {x}: {x} keeps its sign from every start (and stays 0 from 0)",
                residual=field[x] - x * quotient,
                key="elimination",
            )
            sign_relations.append(sign**3 - sign)
            why = f"{x} keeps the sign of its start, so {x} = sign({init[x]}) sqrt({x}^2)"
        else:
            sign_relations.append(sign**2 - 1)
            assumptions.append(
                f"{init[x]} != 0, and the closed form holds until {x} first reaches 0 (a root of {q}, a branch point "
                f"of the equation for {y}; the numerics refuse later times)"
            )
            why = (
                f"{x} keeps the sign of its start while {x}^2 = {q} > 0 (assumed {init[x]} != 0); a root of it is a "
                f"branch point of the equation for {y}"
            )
        d.add(
            sp.Eq(x, plan.branches[x]),
            why + "; checked at the start, where the radicand is the square of the start",
            residual=q.xreplace({y: init[y]}) - init[x] ** 2,
            key="elimination",
        )
    rhs = _reduced_signs(plan.rhs, {sp.sign(init[x]): plan.keeps_sign[x] is not None for x in plan.squares})
    d.add(
        sp.Eq(sp.Derivative(sp.Function(str(y))(t), t), rhs),
        f"the field's {y}-component with the eliminated states substituted",
        residual=field[y].xreplace(plan.branches) - rhs,
        key="clock_ode",
    )
    d.relations = tuple(sign_relations)
    d.assumptions = tuple(assumptions)
    state = {s.name: (y if s == y else plan.branches[s]) for s in states}
    eliminated = ", ".join(str(x) for x in plan.squares)
    description = f"elimination of {eliminated} through the conservation laws, keeping {y}"
    if assumptions:
        description += f" (until an eliminated state reaches 0: {'; '.join(assumptions)})"
    return ScalarReduction(y, rhs, init[y], state, {}, (), d, description, False)


def _reduced_signs(expr: sp.Expr, keeps: dict[sp.Expr, bool]) -> sp.Expr:
    """``expr`` with the powers of each sign reduced by its relation: ``s^3 = s`` for a state that keeps its sign
    (so even powers become ``s^2``, which is 0 from a zero start), ``s^2 = 1`` for one assumed non-zero."""

    def reduce(power: sp.Pow) -> sp.Expr:
        base, n = power.base, int(power.exp)
        if keeps[base]:
            return base ** (2 - n % 2) if n > 0 else power
        return base ** (n % 2)

    return expr.replace(lambda e: isinstance(e, sp.Pow) and e.base in keeps and e.exp.is_Integer and e.exp > 1, reduce)


def _every(entries: Iterable[sp.Expr]) -> Proof:
    """Proved iff every entry vanishes (each checked alone)."""
    for entry in entries:
        proof = prove_zero(entry)
        if not proof:
            return proof
    return Proof(True, "entrywise", True)
