r"""``solve(model)``: one pipeline from a model's loss to its closed form, or the precise reason why not.

Every step is computed by SymPy from the previous step's object and recorded as a checked ``Step`` (Nam et al.
2025, App. H, eqs 71–96, is what it reproduces for the width-``p`` scalar network; nothing model-specific is
typed in):

1. the flow, derived from the loss by ``sympy.diff`` (``Model.unit_field``; each component re-derived from the
   explicit width-2 network in its check);
2. the conservation laws (``conservation.conserved_quantities``) and the sums through which units couple;
3. the reductions of the catalogue (``catalogue.REDUCTIONS``, tried in its documented order: those that hold
   from every start first), each yielding a scalar ODE or a trajectory it solved itself, or the reason it does
   not match;
4. a scalar ODE is classified and solved by the first method of ``catalogue.METHODS`` that applies (Riccati:
   roots, γ± factorization, partial fractions, integral, inversion and the degenerate branches as a case split;
   separable: ``t(y)`` by ``apart`` and real integration, inverted numerically; …);
5. back-substitution to the states, checked against the flow, then ``Derivation.check()`` of every step: a
   closed form is returned only if every step is proved exactly.

``solve`` never raises on a valid model: an exception inside a reduction, a method or a check becomes a reason,
and if no candidate is solved the result is ``Unsolved`` naming the step that stopped, what was tried and the
underlying error. A definition outside the model class (a network not linear in the inputs) is a ``ValueError``
raised by the model itself.

Every step is recorded under a key (``"flow"``, ``"conserved"``, ``"coupling"``, ``"structure"``, ``"eigen"``,
``"clock"``, ``"clock_ode"``, ``"sums"``, the Riccati engine's ``"discriminant"``, ``"roots"``, ``"solution"``, …,
``"back_substitution"``, and last, for a clock given implicitly, ``"implicit_solution"``: its solution
:math:`t = \int_{y_0}^{y(t)} dy'/G(y')`); ``Derivation.tagged(tags)`` stamps equation numbers on the steps by key, and
``Model.tags`` (step key → equation, e.g. ``"clock_ode": "86–87"``; empty for the built-in models, whose papers tag
them) is applied to the result of ``solve``.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from functools import cache

import sympy as sp

from . import registry
from .catalogue import KIND_TEXT, KINDS, METHODS, REDUCTIONS, Candidate, ClockSolution, Context, Solved, classify
from .closed_form import ClosedForm, Unsolved
from .conservation import UnsupportedModelError, conserved_quantities
from .derivation import Derivation
from .model import MAX_UNIT_FIELD_COST, Model
from .naming import unit_sum
from .proof import Proof, prove_zero
from .quadrature import QuadratureSolution
from .reduction import ScalarReduction
from .separable import ImplicitSolution

__all__ = ["KINDS", "KIND_TEXT", "classify", "solve"]


def solve(model: Model | str, max_cost: int = MAX_UNIT_FIELD_COST) -> ClosedForm | Unsolved:
    """The closed form of ``model`` derived from its gradient flow, or ``Unsolved`` with the step that stopped
    and why (see the module docstring). Cached per model object.

    Arguments:
        model: a ``Model`` or the name of a registered one.
        max_cost: the budget of its first step, the flow (``Model.unit_field_cost``, default
            ``MAX_UNIT_FIELD_COST``), checked before it is derived (unless derived already).

    Returns:
        ``ClosedForm`` (every derivation step proved exactly) or ``Unsolved``; ``Unsolved`` at step ``"flow"``,
        naming ``max_cost`` and how to raise it, if the flow's cost is beyond ``max_cost``.

    Raises:
        ValueError: ``model`` names no registered model, or ``max_cost`` is not an integer >= 1, or its
            definition is outside the model class (raised by the model: e.g. a network not linear in the inputs).
    """
    model = registry.get(model)
    if isinstance(max_cost, bool) or not isinstance(max_cost, int) or max_cost < 1:
        raise ValueError(f"max_cost must be an integer >= 1, got {max_cost!r}")
    if "unit_field" not in model.__dict__:  # not derived yet: its budget first, then the flow within it
        cost = model.unit_field_cost()
        if cost > max_cost:
            reason = (
                f"deriving the flow would cost about {cost} (Model.unit_field_cost: state names × the width-2 "
                f"loss's symbols²), beyond the budget max_cost = {max_cost}; pass a larger max_cost, e.g. "
                f"solve(model, max_cost={cost})"
            )
            return Unsolved(model.name, "flow", reason, Derivation(f"{model.title}: solved from its gradient flow"))
        with suppress(ValueError):  # a flow that cannot be derived is reported by _solve, as without a budget
            model.derive_unit_field(max_cost)
    return _solve(model)


def _fresh(base: str, model: Model) -> str:
    taken = {*model.state_names, *model.unit_param_names, *model.shared_param_names, *model.quantities}
    return next(name for name in (base, base.capitalize(), f"{base}_c") if name not in taken)


def _failure(error: Exception) -> str:
    """An exception as a reason: its type and message (first 300 characters)."""
    text = str(error)
    return f"{type(error).__name__}: {text[:300]}{'…' if len(text) > 300 else ''}"


@cache
def _solve(model: Model) -> ClosedForm | Unsolved:
    tags = dict(model.tags)
    t = sp.Symbol("t", nonnegative=True)
    d = Derivation(f"{model.title}: solved from its gradient flow")
    _flow_steps(model, d)
    try:
        laws, no_laws = _law_steps(model, d)
    except Exception as error:  # a valid model whose laws cannot be derived: solved without them
        laws, no_laws = (), f"the search failed: {_failure(error)}"
    if no_laws:
        d.assumptions = (*d.assumptions, f"conservation laws: none searched, {no_laws}")
    context = Context(model, t, sp.Symbol(_fresh("gamma", model), positive=True), laws, tags)
    reasons: list[tuple[str, str]] = []
    for reduction in REDUCTIONS:
        try:
            for candidate in reduction.candidates(context):
                if isinstance(candidate, str):
                    _note(reasons, reduction.name, candidate)
                    continue
                found = _solved(model, d, candidate, context, reasons, reduction.name)
                if isinstance(found, ClosedForm):
                    notes = (*found.notes, *((f"conservation laws: none searched, {no_laws}",) if no_laws else ()))
                    found = replace(found, reduction=reduction.name, notes=notes)
                if found is None:
                    continue
                if isinstance(found, ClosedForm) and (found.condition or not reduction.general):
                    # only on an invariant set (a condition on the start, or one the evaluator checks, e.g. the
                    # aligned set of the matrix modes): why the general start is not solved (the first reason)
                    off = [(reduction.name, reduction.off_the_set)] if reduction.off_the_set else []
                    return replace(found, general=_unsolved(model, [*off, *reasons[:1]], Derivation("")))
                return found
        except Exception as error:  # a reduction that fails on a valid model is a reason, not a crash
            _note(reasons, reduction.name, f"failed: {_failure(error)}")
    unsolved = _unsolved(model, reasons, d.tagged(tags))
    if no_laws:
        return replace(unsolved, reason=f"{unsolved.reason} (conservation laws: none searched, {no_laws})")
    return unsolved


def _note(reasons: list[tuple[str, str]], step: str, reason: str) -> None:
    """Record why ``step`` (a reduction's name, ``classification``, ``check``) did not give a closed form, once."""
    if all(reason != known for _, known in reasons):
        reasons.append((step, reason))


def _solved(
    model: Model,
    opening: Derivation,
    candidate: Candidate,
    context: Context,
    reasons: list[tuple[str, str]],
    name: str,
) -> ClosedForm | Unsolved | None:
    """The closed form from one candidate, None (with a reason noted) if no method solves it, or ``Unsolved`` if
    its derivation fails its check (a derivation that does not verify is a defect, never skipped over)."""
    d = Derivation(
        opening.title, opening.assumptions, opening.relations, dict(opening.definitions), list(opening.steps)
    )
    try:
        if isinstance(candidate, Solved):
            d.extend(candidate.derivation)
            closed = _from_solved(model, context, candidate, d)
            equations = {
                g: (c.rhs, c.y0) for g, c in candidate.clocks.items() if hasattr(c, "rhs") and hasattr(c, "y0")
            }
        else:
            chosen = _clock(candidate, context, reasons, name)
            if chosen is None:
                return None
            method, clock = chosen
            d.extend(candidate.derivation)
            kind = classify(candidate.rhs, candidate.y, context.t)
            d.add(
                sp.Eq(sp.Derivative(sp.Function(str(candidate.y))(context.t), context.t), candidate.rhs),
                f"the scalar equation is {kind}: {KIND_TEXT[kind]}",
                verifier=lambda: _classified(candidate, context.t, kind),
                key="classify",
            )
            d.extend(clock.derivation)
            _back_substitution_steps(model, d, candidate)
            closed = replace(_from_scalar(model, context, candidate, clock, d), method=method)
            equations = {candidate.y: (candidate.rhs, candidate.y0)}
        _initial_rate_steps(closed, equations)
        _implicit_solution_steps(closed)
        checked = closed.derivation.check()
    except Exception as error:
        _note(reasons, name, f"{candidate_description(candidate)}: {_failure(error)}")
        return None
    failing = [c for c in checked if not (c.proof.holds and c.proof.exact)]
    if failing:
        first = failing[0]
        return Unsolved(
            model.name,
            "check",
            f"step {first.index + 1} ({first.step.justification}) did not verify: residual {first.proof.residual}",
            closed.derivation,
        )
    return closed


def _initial_rate_steps(closed: ClosedForm, equations: dict[sp.Symbol, tuple[sp.Expr, sp.Expr]]) -> None:
    """Checks of the returned ``initial_rates``, appended to ``closed.derivation`` before it is checked: each rate
    equals its clock equation's right-hand side (``equations``: clock -> (right-hand side, start)) at the start
    and t = 0, computed by substitution, with the linear relations among the sums found from their summands
    (``_sum_relations``; e.g. theta(0) = theta[+1] + theta[-1]). A rate with no clock equation fails its check."""
    relations = _sum_relations(closed.sums, tuple(closed.init.values()))
    t = closed.t
    for clock, rate in closed.initial_rates.items():
        at_start = sp.Eq(sp.Subs(sp.Derivative(sp.Function(str(clock))(t), t), t, 0), rate)
        if clock not in equations:
            closed.derivation.add(
                at_start,
                f"check: the returned initial rate of {clock}",
                verifier=lambda: Proof(False, "no clock equation to check it against", True, "unchecked"),
                key="returned",
            )
            continue
        rhs, start = equations[clock]
        closed.derivation.add(
            at_start,
            f"check: the returned initial rate of {clock} is the clock equation's right-hand side at t = 0 "
            "(substituted), the sums related through their summands",
            residual=rate - sp.sympify(rhs).xreplace({clock: start}).subs(t, 0),
            relations=relations,
            key="returned",
        )


def _implicit_solution_steps(closed: ClosedForm) -> None:
    r"""The last steps of a closed form with implicit clocks: each clock's solution
    :math:`t = \int_{y_0}^{y(t)} dy'/G(y')` as its method computed it (``ClosedForm.implicit_clocks``), with the
    clock's own name; checked by differentiating in the upper limit (the integrand times :math:`G` is 1) and at
    the start (the integral from :math:`y_0` to :math:`y_0` vanishes)."""
    t = closed.t
    for y, relation in closed.implicit_clocks().items():
        clock = closed.clocks[y]
        if not isinstance(clock, (ImplicitSolution, QuadratureSolution)):
            raise TypeError(f"the implicit clock {y} is a {type(clock).__name__}")
        rhs, start, integral = clock.rhs, clock.y0, relation.rhs

        def solves(integral: sp.Expr = integral, y: sp.Symbol = y, rhs: sp.Expr = rhs, start: sp.Expr = start) -> Proof:
            proof = prove_zero(sp.diff(integral, y) * rhs - 1)
            if not proof:
                return proof
            at_start = integral.subs(y, start)
            return _empty(at_start) if isinstance(at_start, sp.Integral) else prove_zero(at_start)

        closed.derivation.add(
            sp.Eq(t, integral.xreplace({y: sp.Function(y.name)(t)}), evaluate=False),
            f"the solution: {y}(t) is given implicitly by the time it takes to reach it from its start (checked: "
            f"differentiated in its upper limit, the integral is 1/G with G the right-hand side of the equation for "
            f"{y}, and it vanishes at the start)",
            verifier=solves,
            key="implicit_solution",
        )


def _empty(integral: sp.Integral) -> Proof:
    """Proved iff every limit of ``integral`` is an empty interval (its lower and upper limits equal)."""
    for limit in integral.limits:
        if len(limit) != 3 or sp.expand(limit[1] - limit[2]) != 0:
            return Proof(False, "the integral's limits differ at the start", True, str(limit))
    return Proof(True, "empty interval", True)


def _sum_relations(sums: dict[sp.Symbol, sp.Expr], variables: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, ...]:
    """The linear relations among the sums over the units that hold at every width: the combinations of the sum
    symbols whose combined summand vanishes identically in the unit's initial values ``variables``
    (coefficient matching, ``Matrix.nullspace``); none if a summand is not polynomial in them."""
    symbols = list(sums)
    if len(symbols) < 2:
        return ()
    weights = sp.symbols(f"w_0:{len(symbols)}")
    combination = sp.expand(sum(w * sums[s] for w, s in zip(weights, symbols, strict=True)))
    present = [v for v in variables if combination.has(v)]
    try:
        coefficients = sp.Poly(combination, *present).coeffs() if present else [combination]
    except sp.PolynomialError:
        return ()
    matrix, _ = sp.linear_eq_to_matrix(coefficients, weights)
    return tuple(sum(c * s for c, s in zip(v, symbols, strict=True)) for v in matrix.nullspace())


def candidate_description(candidate: Candidate) -> str:
    """The one-line description of a reduction's candidate."""
    return candidate.description


def _clock(
    reduction: ScalarReduction, context: Context, reasons: list[tuple[str, str]], name: str
) -> tuple[str, ClockSolution] | None:
    """The first method of ``METHODS`` that applies and succeeds on the scalar equation (its name and the clock), or
    None (reasons noted)."""
    why = []
    for method in METHODS:
        reason = method.applies(reduction, context)
        if reason is not None:
            if reason not in why:
                why.append(reason)
            continue
        try:
            return method.name, method.solve(reduction, context)
        except Exception as error:
            why.append(f"{method.name} failed: {_failure(error)}")
    equation = f"{reduction.y}' = {sp.sstr(reduction.rhs)}"
    _note(reasons, "classification", f"{'; '.join(why)} ({reduction.description}): {equation}")
    return None


def _from_scalar(
    model: Model, context: Context, reduction: ScalarReduction, clock: ClockSolution, d: Derivation
) -> ClosedForm:
    d = d.tagged(context.tags)
    notes = (
        f"reduction: {reduction.description}",
        *(
            f"degenerate case: the {b} branch (covered by the stable form)"
            for b in getattr(clock, "cases", {}).values()
        ),
    )
    return ClosedForm(
        model=model.name,
        t=context.t,
        init={n: model.init_symbol(n) for n in model.state_names},
        sums=reduction.sums,
        clocks={reduction.y: clock},
        state=reduction.state,
        derivation=d,
        notes=notes,
        condition=reduction.condition,
        general=None,
        nonzero=(*reduction.nonzero, *getattr(clock, "nonzero", ())),
        coordinates=reduction.coordinates,
        along={s.relation.lhs: s.relation.rhs for s in reduction.derivation.by_key("sums")},
        initial_rates={
            reduction.y: reduction.initial_rate
            if reduction.initial_rate is not None
            else reduction.rhs.xreplace({reduction.y: reduction.y0})
        },
    )


def _from_solved(model: Model, context: Context, solved: Solved, d: Derivation) -> ClosedForm:
    return ClosedForm(
        model=model.name,
        t=context.t,
        init={n: model.init_symbol(n) for n in model.state_names},
        sums=solved.sums,
        clocks=dict(solved.clocks),
        state=solved.state,
        derivation=d.tagged(context.tags),
        notes=(f"reduction: {solved.description}",),
        condition=solved.condition,
        general=None,
        nonzero=(*solved.nonzero, *(n for c in solved.clocks.values() for n in getattr(c, "nonzero", ()))),
        coordinates=solved.coordinates,
        along=solved.along,
        initial_rates=solved.initial_rates,
    )


def _classified(reduction: ScalarReduction, t: sp.Symbol, kind: str) -> Proof:
    again = classify(reduction.rhs, reduction.y, t)
    return Proof(again == kind, "re-classified", True, "0" if again == kind else again)


def _flow_steps(model: Model, d: Derivation) -> None:
    """Step 1: the unit field, each component checked against the explicit width-2 network's derived field."""
    inst = model.instance(2)
    back = {v: k for k, v in inst.unit_renaming(0).items()}
    explicit_sums = {model.symbol(n): inst.quantity(n) for n, q in model.quantities.items() if q.kind == "sum"}
    t = sp.Symbol("t")
    for name in model.state_names:
        s = model.symbol(name)
        value = model.unit_field[s]
        d.add(
            sp.Eq(sp.Derivative(sp.Function(name)(t), t), value),
            "gradient flow derived from the loss (sympy.diff), the other units entering through the sums",
            residual=inst.vector_field[inst.state[name][0]] - value.xreplace(back).xreplace(explicit_sums),
            key="flow",
        )


def _law_steps(model: Model, d: Derivation) -> tuple[tuple[sp.Expr, ...], str]:
    """Step 2: the polynomial conservation laws of one unit and the coupling sums; returns the laws (in the
    unit's symbols) and why none were searched (e.g. a field not polynomial in the state, such as a tanh
    network's), or ``""``."""
    inst = model.instance(1)
    rename = inst.unit_renaming(0)
    t = sp.Symbol("t")
    laws = []
    try:
        found = conserved_quantities(model, p=1)
    except UnsupportedModelError as error:
        found, why = [], f"the field is outside the polynomial search: {error}"
    else:
        why = ""
    for law in found:
        expr = law.expr.xreplace(rename)
        laws.append(expr)
        d.add(
            sp.Eq(sp.Derivative(expr, t), 0),
            "conserved along the flow (conservation.conserved_quantities)",
            residual=model.unit_time_derivative(expr),
            key="conserved",
        )
    free = set().union(*(f.free_symbols for f in model.unit_field.values()))
    unit = tuple(model.symbol(n) for n in (*model.state_names, *model.unit_param_names))
    for name, q in model.quantities.items():
        if q.kind == "sum" and model.symbol(name) in free:
            d.add(
                sp.Eq(model.symbol(name), unit_sum(q.expr, unit, taken=(*model.unit_symbols, *model.quantities))),
                f"the units couple through the sum {name}",
                residual=sp.S.Zero,
                key="coupling",
            )
    return tuple(laws), why


def _unsolved(model: Model, reasons: list[tuple[str, str]], d: Derivation) -> Unsolved:
    step, reason = reasons[0] if reasons else ("reduction", "no reduction applies")
    more = "; ".join(r for _, r in reasons[1:])
    return Unsolved(model.name, step, reason + (f" (also tried: {more})" if more else ""), d)


def _back_substitution_steps(model: Model, d: Derivation, reduction: ScalarReduction) -> None:
    """The state along the solved scalar ODE satisfies the unit field (with the sums along the clock)."""
    y, rhs = reduction.y, reduction.rhs
    t = sp.Symbol("t", nonnegative=True)
    along = {step.relation.lhs: step.relation.rhs for step in reduction.derivation.by_key("sums")}
    along.update({model.symbol(n): e.xreplace(reduction.coordinates) for n, e in reduction.state.items()})
    for name, value in ((n, e.xreplace(reduction.coordinates)) for n, e in reduction.state.items()):
        d.add(
            sp.Eq(sp.Derivative(sp.Function(name)(t), t), model.unit_field[model.symbol(name)]),
            f"check: {name}(t) along the solved {y} satisfies the flow",
            residual=sp.diff(value, y) * rhs + sp.diff(value, t) - model.unit_field[model.symbol(name)].xreplace(along),
            key="back_substitution",
        )
