r"""``solve(model)``: one pipeline from a model's loss to its closed form, or the precise reason why not.

Every step is computed by SymPy from the previous step's object and recorded as a checked ``Step`` (Nam et al.
2025, App. H, eqs 71–96, is what it reproduces for the width-``p`` scalar network; nothing model-specific is
typed in):

1. the flow, derived from the loss by ``sympy.diff`` (``Model.unit_field``; each component re-derived from the
   explicit width-2 network in its check);
2. the conservation laws (``conservation.conserved_quantities``) and the sums through which units couple;
3. a reduction to one scalar ODE (``reduction``): the unit's own state if it has one, else the shared clock of
   a field of the form :math:`(gA + C)x`, else the balanced line; a clock equation with time-dependent
   coefficients is retried on invariant subsets (some eigen-coordinates zero for every unit);
4. the scalar ODE is classified: Riccati with constant coefficients (degree <= 2, including linear and
   Bernoulli), separable (autonomous, rational), or unsupported;
5. Riccati: ``riccati.riccati_solution`` (roots, factorization, partial fractions, integral, inversion, and
   the degenerate branches as a case split); 6. separable: ``separable.implicit_solution`` (``t(y)`` by
   ``apart`` and real integration, inverted numerically);
7. back-substitution to the states, checked against the flow, then ``Derivation.check()`` of every step: a
   closed form is returned only if every step is proved exactly.

Every step is recorded under a key (``"flow"``, ``"conserved"``, ``"coupling"``, ``"structure"``, ``"eigen"``,
``"clock"``, ``"clock_ode"``, ``"sums"``, the Riccati engine's ``"discriminant"``, ``"roots"``, ``"solution"``, …,
``"back_substitution"``); ``Derivation.tagged(tags)`` stamps equation numbers on the steps by key, and
``Model.tags`` (step key → equation, e.g. ``"clock_ode": "86–87"``; empty for the built-in models, whose papers tag
them) is applied to the result of ``solve``.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from . import registry
from .closed_form import ClosedForm, Unsolved
from .conservation import UnsupportedModelError, conserved_quantities
from .derivation import Derivation, Step
from .model import Model
from .proof import Proof
from .reduction import (
    LinearStructure,
    ScalarReduction,
    balanced_line,
    clock_reduction,
    invariant_subsets,
    linear_structure,
    prove_structure,
)
from .riccati import RiccatiSolution, riccati_solution
from .separable import ImplicitSolution, implicit_solution
from .separable import unsupported as separable_unsupported

__all__ = ["KINDS", "classify", "solve"]

KINDS = ("riccati", "separable", "time-dependent", "unsupported")
KIND_TEXT = {
    "riccati": "polynomial of degree at most 2 with coefficients free of t",
    "separable": "autonomous and rational in its variable, not of degree at most 2",
    "time-dependent": "its coefficients depend on t",
    "unsupported": "not rational in its variable",
}


def solve(model: Model | str) -> ClosedForm | Unsolved:
    """The closed form of ``model`` derived from its gradient flow, or ``Unsolved`` with the step that stopped
    and why (see the module docstring). Cached per model object."""
    return _solve(registry.get(model))


def classify(rhs: sp.Expr, y: sp.Symbol, t: sp.Symbol) -> str:
    """The kind of the scalar ODE ``y' = rhs`` (one of ``KINDS``)."""
    if t in rhs.free_symbols:
        return "time-dependent"
    if rhs.is_polynomial(y) and sp.degree(rhs, y) <= 2:
        return "riccati"
    if rhs.is_rational_function(y):
        return "separable"
    return "unsupported"


def _fresh(base: str, model: Model) -> str:
    taken = {*model.state_names, *model.unit_param_names, *model.shared_param_names, *model.quantities}
    return next(name for name in (base, base.capitalize(), f"{base}_c") if name not in taken)


@cache
def _solve(model: Model) -> ClosedForm | Unsolved:
    tags = dict(model.tags)
    t = sp.Symbol("t", nonnegative=True)
    names = {"t": t, "clock": sp.Symbol(_fresh("gamma", model), positive=True)}
    d = Derivation(f"{model.title}: solved from its gradient flow")
    _flow_steps(model, d)
    no_laws = _law_steps(model, d)
    reduction, general = _reduce(model, names)
    if isinstance(reduction, Unsolved):
        reason = reduction.reason + (f" (conservation laws: none searched, {no_laws})" if no_laws else "")
        return Unsolved(model.name, reduction.step, reason, d.tagged(tags))
    d.extend(reduction.derivation)
    kind = classify(reduction.rhs, reduction.y, t)
    d.add(
        sp.Eq(sp.Derivative(sp.Function(str(reduction.y))(t), t), reduction.rhs),
        f"the scalar equation is {kind}: {KIND_TEXT[kind]}",
        verifier=lambda: _classified(reduction, t, kind),
        key="classify",
    )
    clock: RiccatiSolution | ImplicitSolution
    if kind == "riccati":
        clock = riccati_solution(reduction.rhs, reduction.y, reduction.y0, t, tags=tags)
    else:
        clock = implicit_solution(reduction.rhs, reduction.y, reduction.y0, t, tags.get("separable", ""))
    d.extend(clock.derivation)
    _back_substitution_steps(model, d, reduction)
    d = d.tagged(tags)
    failing = [c for c in d.check() if not (c.proof.holds and c.proof.exact)]
    if failing:
        first = failing[0]
        return Unsolved(
            model.name,
            "check",
            f"step {first.index + 1} ({first.step.justification}) did not verify: residual {first.proof.residual}",
            d,
        )
    notes = (
        f"reduction: {reduction.description}",
        *(
            f"degenerate case: the {b} branch (covered by the stable form)"
            for b in getattr(clock, "cases", {}).values()
        ),
        *((f"conservation laws: none searched, {no_laws}",) if no_laws else ()),
    )
    return ClosedForm(
        model=model.name,
        t=t,
        init={n: model.init_symbol(n) for n in model.state_names},
        sums=reduction.sums,
        clocks={reduction.y: clock},
        state=reduction.state,
        derivation=d,
        notes=notes,
        condition=reduction.condition,
        general=general,
        nonzero=(*reduction.nonzero, *getattr(clock, "nonzero", ())),
        coordinates=reduction.coordinates,
        along={s.relation.lhs: s.relation.rhs for s in reduction.derivation.by_key("sums")},
        initial_rates={
            reduction.y: reduction.initial_rate
            if reduction.initial_rate is not None
            else reduction.rhs.xreplace({reduction.y: reduction.y0})
        },
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


def _law_steps(model: Model, d: Derivation) -> str:
    """Step 2: the polynomial conservation laws of one unit and the coupling sums; returns why no laws were searched
    (e.g. a field not polynomial in the state, such as a tanh network's), or ``""``."""
    inst = model.instance(1)
    rename = inst.unit_renaming(0)
    t = sp.Symbol("t")
    try:
        laws = conserved_quantities(model, p=1)
    except UnsupportedModelError as error:
        laws, why = [], f"the field is outside the polynomial search: {error}"
    else:
        why = ""
    for law in laws:
        expr = law.expr.xreplace(rename)
        d.add(
            sp.Eq(sp.Derivative(expr, t), 0),
            "conserved along the flow (conservation.conserved_quantities)",
            residual=model.unit_time_derivative(expr),
            key="conserved",
        )
    free = set().union(*(f.free_symbols for f in model.unit_field.values()))
    for name, q in model.quantities.items():
        if q.kind == "sum" and model.symbol(name) in free:
            d.add(
                sp.Eq(model.symbol(name), sp.Sum(q.expr, (sp.Symbol("unit"), 1, sp.Symbol("p")))),
                f"the units couple through the sum {name}",
                residual=sp.S.Zero,
                key="coupling",
            )
    return why


def _reduce(model: Model, names: dict[str, sp.Symbol]) -> tuple[ScalarReduction | Unsolved, Unsolved | None]:
    """Step 3 and the choice of step 4: the first reduction whose scalar ODE is solvable, and (if it holds only on
    an invariant subset) why the general start is not solved."""
    t = names["t"]
    reasons: list[tuple[str, str]] = []
    if len(model.state_names) == 1:
        (name,) = model.state_names
        y = model.symbol(name)
        field = model.unit_field[y]
        if field.free_symbols - {y} & {model.symbol(n) for n, q in model.quantities.items() if q.kind == "sum"}:
            return _unsolved(model, [("reduction", "one-state units coupled through sums")]), None
        reduction = ScalarReduction(
            y,
            field,
            model.init_symbol(name),
            {name: y},
            {},
            (),
            Derivation("one state"),
            f"the unit's one state {name}",
            False,
        )
        return _solvable(model, reduction, t, reasons) or _unsolved(model, reasons), None
    structure = linear_structure(model)
    if isinstance(structure, str):
        reasons.append(("reduction", structure))
    else:
        for zero in ((), *invariant_subsets(model, structure)):
            clock = clock_reduction(model, structure, zero, names)
            if isinstance(clock, str):
                if ("reduction", clock) not in reasons:
                    reasons.append(("reduction", clock))
                continue
            _structure_step(model, structure, clock.derivation)
            found = _solvable(model, clock, t, reasons)
            if found is not None:
                general = _unsolved(model, reasons[:1]) if zero else None
                return found, general
    line = balanced_line(model, names)
    if isinstance(line, str):
        reasons.append(("reduction", line))
    else:
        found = _solvable(model, line, t, reasons)
        if found is not None:
            return found, _unsolved(model, reasons[:1])
    return _unsolved(model, reasons), None


def _solvable(model: Model, reduction: ScalarReduction, t: sp.Symbol, reasons: list) -> ScalarReduction | None:
    kind = classify(reduction.rhs, reduction.y, t)
    if kind == "riccati":
        return reduction
    if kind == "separable":
        # the separable engine says beforehand what it cannot integrate (a pole, a factor of degree > 2)
        why = separable_unsupported(reduction.rhs, reduction.y)
        if not why:
            return reduction
        reasons.append(("separable", f"{why} ({reduction.description}): {reduction.y}' = {sp.sstr(reduction.rhs)}"))
        return None
    why = {
        "time-dependent": "the clock ODE has time-dependent coefficients",
        "unsupported": "the scalar ODE is not rational in its variable",
    }[kind]
    where = f" ({reduction.description})"
    reasons.append(("classification", f"{why}{where}: {reduction.y}' = {sp.sstr(reduction.rhs)}"))
    return None


def _unsolved(model: Model, reasons: list[tuple[str, str]]) -> Unsolved:
    step, reason = reasons[0] if reasons else ("reduction", "no reduction applies")
    more = "; ".join(r for _, r in reasons[1:])
    return Unsolved(model.name, step, reason + (f" (also tried: {more})" if more else ""), Derivation(""))


def _structure_step(model: Model, structure: LinearStructure, d: Derivation) -> None:
    """The field's form (g A + C) x, recorded first in the reduction."""
    x = sp.Matrix(structure.states)
    step = Step(
        sp.Eq(sp.Symbol(r"\dot x"), sp.MatMul(structure.g * structure.A + structure.C, x, evaluate=False)),
        "the field is (g A + C) x: g the greatest common divisor of its non-constant part (sympy.gcd), A and C "
        "constant",
        residual=sp.Add(*(c**2 for c in prove_structure(model, structure))),
        key="structure",
    )
    d.steps.insert(0, step)


def _back_substitution_steps(model: Model, d: Derivation, reduction: ScalarReduction) -> None:
    """Step 7: the state along the solved scalar ODE satisfies the unit field (with the sums along the clock)."""
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
