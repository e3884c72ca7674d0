r"""A model's equations as SymPy relations and as LaTeX: network, loss, derived flow, conserved quantities.

:func:`model_equations` collects the relations from the model's own objects (the width-``p`` instance, the
derived unit field, the conservation laws found and proved by ``derivations.conservation``, the closed form);
:func:`render_model` prints them, through the naming table, as a section of a paper's appendix. Nothing is
typed in: every displayed formula is one of these SymPy objects. A model with a matrix form
(:data:`MATRIX_FORMS`: the two-layer linear network, whose flow ``derivations.matrix_flow`` derives for symbolic
sizes) is displayed in it, :math:`\dot W_1 = MW_2^\top`, rather than entry by entry. A clock that its method
solves implicitly (a separable or an algebraic equation) is displayed as the integral that method computed,
:math:`t = \int_{y_0}^{y(t)} dy'/G(y')`, and sums over the units as :math:`\sum_{i=1}^{p} q_i`
(:func:`derivations.naming.unit_sum`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import sympy as sp

from . import registry
from .closed_form import ClosedForm
from .conservation import UnsupportedModelError, conserved_quantities
from .derivation import LATEX_MODES, Derivation
from .matrix_flow import conserved_matrix_derivative, matrix_gradient_flow
from .model import Model
from .naming import align_rows, dot_symbol, latex, unit_sum
from .prose import code_latex, text_latex

__all__ = [
    "MATRIX_FORMS",
    "MatrixForm",
    "ModelEquations",
    "linear_network_matrix_form",
    "model_equations",
    "render_model",
    "shown_derivation",
]

DISPLAY_WIDTH = 2
"""Width ``p`` at which the network and the loss are written out (the flow and the sums are width-free)."""


@dataclass(frozen=True)
class ModelEquations:
    """The displayed relations of one model, grouped as in :func:`render_model`."""

    model: Model
    p: int
    parameters: list[sp.Basic]
    network: list[sp.Eq]
    quantities: list[sp.Eq]
    flow: list[sp.Eq]
    conserved: list[sp.Eq]
    conservation_note: str = ""
    closed_form: list[sp.Eq] = field(default_factory=list)


def _components(name: str, value: object, inputs: tuple[sp.Symbol, ...]) -> list[sp.Eq]:
    """``name(x) = value``, or one relation per output component (``f_1(x) = …``) for a vector output, so that
    each component can be broken over rows."""
    if isinstance(value, (tuple, list, sp.MatrixBase)):
        items = list(value)
        return [sp.Eq(sp.Function(f"{name}_{m}")(*inputs), v, evaluate=False) for m, v in enumerate(items, 1)]
    return [sp.Eq(sp.Function(name)(*inputs), sp.sympify(value, strict=True), evaluate=False)]


def _parameters(model: Model) -> list[sp.Basic]:
    """The domain of each declared parameter as a relation (``Z > 0``) or set membership (``S ∈ ℝ``)."""
    out: list[sp.Basic] = []
    for name, domain in model.domains.items():
        symbol = model.symbol(name)
        positive = sp.StrictGreaterThan(symbol, 0, evaluate=False)
        out.append(positive if domain == "positive" else sp.Contains(symbol, sp.Reals, evaluate=False))
    return out


def _unit_symbols(model: Model) -> tuple[sp.Symbol, ...]:
    """The symbols of one generic unit: its states and its unit parameters."""
    return tuple(model.symbol(n) for n in (*model.state_names, *model.unit_param_names))


def _quantities(model: Model) -> list[sp.Eq]:
    """Sums as ``Q = Σ_i q_i`` over the ``p`` units, scalar quantities as written in the sums."""
    out = []
    for name, quantity in model.quantities.items():
        lhs = sp.Symbol(name)
        if quantity.kind == "sum":
            total = unit_sum(quantity.expr, _unit_symbols(model), taken=(*model.unit_symbols, *model.quantities))
            out.append(sp.Eq(lhs, total, evaluate=False))
        elif quantity.kind == "scalar":
            out.append(sp.Eq(lhs, quantity.expr, evaluate=False))
    return out


def _conserved(model: Model, p: int) -> tuple[list[sp.Eq], str]:
    """``C_k = law`` for each law found (and proved) by ``conserved_quantities``, or a note why there are none."""
    try:
        laws = conserved_quantities(model, p=p)
    except UnsupportedModelError as error:
        return [], str(error)
    return [sp.Eq(sp.Symbol(f"C_{k}"), law.expr, evaluate=False) for k, law in enumerate(laws, start=1)], ""


def _closed_form(solution: ClosedForm) -> list[sp.Eq]:
    r"""The closed form's relations at time ``t``: each implicit clock's solution
    :math:`t = \int_{y_0}^{y(t)} dy'/G(y')` (``ClosedForm.implicit_clocks``; followed by its antiderivative where
    its method found one), then the state, then the per-unit coordinates. A state that is an implicit clock itself
    is given by its integral (no :math:`y(t) = y`), and the others are written in :math:`y(t)`."""
    t = solution.t
    implicit = solution.implicit_clocks()
    along = {y: sp.Function(y.name)(t) for y in implicit}
    closed: list[sp.Eq] = []
    for y, relation in implicit.items():
        closed.append(sp.Eq(t, relation.rhs.xreplace(along), evaluate=False))
        clock = solution.clocks[y]
        antiderivative = getattr(clock, "antiderivative", None)
        if antiderivative is not None:
            start = relation.rhs.limits[0][1]
            elementary = antiderivative - antiderivative.xreplace({y: start})
            # a separable clock's new symbols for real roots of its parameters (S = c^3) stand for those roots
            radicals = getattr(clock, "radicals", {})
            closed.append(sp.Eq(t, elementary.xreplace(radicals).xreplace(along), evaluate=False))
    closed += [
        sp.Eq(sp.Function(n)(t), e.xreplace(along), evaluate=False)
        for n, e in solution.state.items()
        if not (e in implicit and e.name == n)
    ]
    closed += [sp.Eq(s, e, evaluate=False) for s, e in solution.coordinates.items()]
    return closed


def _resolve(model: Model | str) -> Model:
    return model if isinstance(model, Model) else registry.get(model)


def model_equations(model: Model | str, p: int = DISPLAY_WIDTH) -> ModelEquations:
    """The relations displayed for ``model`` (a registered name or a :class:`Model`), written at width ``p``."""
    model = _resolve(model)
    if not isinstance(p, int) or p < 1:
        raise ValueError(f"p must be a positive integer, got {p!r}")
    inst = model.instance(p)
    network = [
        *_components("f", inst.network, inst.inputs),
        *_components("f^{*}", inst.target, inst.inputs),
        sp.Eq(sp.Symbol(r"\mathcal{L}"), inst.loss, evaluate=False),
    ]
    flow = [sp.Eq(dot_symbol(s), expr, evaluate=False) for s, expr in model.unit_field.items()]
    conserved, note = _conserved(model, p)
    closed = _closed_form(model.closed_form) if isinstance(model.solution, ClosedForm) else []
    return ModelEquations(model, p, _parameters(model), network, _quantities(model), flow, conserved, note, closed)


@dataclass(frozen=True)
class MatrixForm:
    """A model's network, loss, flow and conserved quantity as matrix relations ``(lhs, rhs)``, and where the
    entrywise model is checked against them."""

    network: list[tuple[sp.Basic, sp.Basic]]
    flow: list[tuple[sp.Basic, sp.Basic]]
    conserved: list[tuple[sp.Basic, sp.Basic]]
    check: str


def _dot_matrix(name: str) -> sp.Symbol:
    return sp.Symbol(rf"\dot{{{name[0]}}}_{{{name[2:]}}}")


def linear_network_matrix_form() -> MatrixForm:
    r"""The two-layer linear network in matrix form: the flow derived by matrix calculus for symbolic sizes
    (:func:`derivations.matrix_flow.matrix_gradient_flow`), written as :math:`\dot W_1 = MW_2^\top`,
    :math:`\dot W_2 = W_1^\top M` after checking that these factorizations equal the derived field."""
    flow = matrix_gradient_flow()
    W1, W2, M = flow.W1, flow.W2, sp.MatrixSymbol("M", *flow.M.shape)
    factored = {W1: M * W2.T, W2: W1.T * M}
    for W, product in factored.items():
        residual = sp.expand(product.xreplace({M: flow.M}).doit() - flow.field[W])
        if not (residual == 0 or isinstance(residual, sp.ZeroMatrix)):
            raise ArithmeticError(f"the factorization of the derived flow of {W} does not hold")
    x = sp.MatrixSymbol("x", W1.shape[0], 1)
    balance = W1.T * W1 - W2 * W2.T
    return MatrixForm(
        network=[(sp.Function("f")(x), W2.T * W1.T * x), (sp.Symbol(r"\mathcal{L}"), flow.loss)],
        flow=[(M, flow.M), *((_dot_matrix(W.name), product) for W, product in factored.items())],
        conserved=[(sp.Symbol(rf"\tfrac{{d}}{{dt}}\bigl({latex(balance)}\bigr)"), conserved_matrix_derivative())],
        check="nam2025.appC3.eq36-45.entrywise",
    )


MATRIX_FORMS: dict[str, Callable[[], MatrixForm]] = {"linear_network": linear_network_matrix_form}
"""Models displayed in matrix form, by name."""


def _matrix_align(relations: list[tuple[sp.Basic, sp.Basic]]) -> str:
    rows = [f"&{latex(lhs)} = {latex(rhs)}".replace("^{T}", "^{\\top}") for lhs, rhs in relations]
    return "\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}"


def _render_matrix_form(model: Model, form: MatrixForm) -> list[str]:
    return [
        "\\paragraph{Network and loss.} In matrix form, for any sizes; the loss is the population loss computed "
        "from the input moments:",
        _matrix_align(form.network),
        "\\paragraph{Gradient flow.} Derived from the loss by matrix calculus, with unit learning rate:",
        _matrix_align(form.flow),
        "\\paragraph{Conserved quantities.} Proved along the derived flow for symbolic sizes:",
        _matrix_align(form.conserved),
        "The registered model is its instance with one unit per hidden neuron (unit $j$ carries column $j$ of $W_1$ "
        "and row $j$ of $W_2$); its entrywise flow is checked against this one (claim "
        f"\\texttt{{{code_latex(form.check)}}}).",
    ]


def _align(relations: list[sp.Basic]) -> str:
    rows = [" \\\\\n".join(align_rows(r)) for r in relations]
    return "\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}"


def _learning_rates(model: Model) -> str:
    if not model.learning_rates:
        return "with unit learning rate"
    rates = ", ".join(
        f"${latex(model.symbol(rate))}$ for ${latex(model.symbol(state))}$"
        for state, rate in model.learning_rates.items()
    )
    return f"with layer-wise learning rates ({rates})"


def shown_derivation(model: Model | str, tags: Mapping[str, str] | None = None) -> Derivation | None:
    """The derivation :func:`render_model` shows for ``model``, its steps tagged by ``tags``.

    Arguments:
        model: a registered name or a :class:`Model`.
        tags: step key -> equation number (``Derivation.tagged``).

    Returns:
        The tagged derivation of the model's closed form; None for a model displayed in matrix form
        (``MATRIX_FORMS``) or without a closed form.
    """
    m = _resolve(model)
    if m.name in MATRIX_FORMS or not isinstance(m.solution, ClosedForm):
        return None
    return m.closed_form.derivation.tagged(tags or {})


def render_model(
    model: Model | str,
    p: int = DISPLAY_WIDTH,
    derivation: bool = True,
    tags: Mapping[str, str] | None = None,
    mode: str = "full",
) -> str:
    """LaTeX (a ``\\subsection`` and its displays) of the model's network, loss, derived quantities, gradient
    flow, conserved quantities, closed form and, if ``derivation``, its recorded derivation (``shown_derivation``).

    Arguments:
        model: a registered name or a :class:`Model`.
        p: the width at which the network and the loss are written out.
        derivation: whether to show the derivation.
        tags: step key -> equation number for the derivation's steps (e.g. a paper's
            ``equation_tags[model.name]``; ``Derivation.tagged``).
        mode: how the derivation is printed (``Derivation.latex``): ``"full"``, or ``"condensed"``, each run of
            generic steps of a method a reference to the method's section (``MethodReference.section``), which the
            document must then contain.

    Returns:
        The LaTeX of the subsection.

    Raises:
        ValueError: ``mode`` is not one of ``LATEX_MODES``; ``p`` is not a positive integer.
    """
    if mode not in LATEX_MODES:
        raise ValueError(f"mode must be one of {LATEX_MODES}, got {mode!r}")
    m = _resolve(model)
    parts = [
        f"\\subsection{{{text_latex(m.title)} (\\texttt{{{code_latex(m.name)}}})}}",
        f"\\emph{{Source:}} {text_latex(m.reference)}.",
    ]
    if m.name in MATRIX_FORMS:
        return "\n\n".join(parts + _render_matrix_form(m, MATRIX_FORMS[m.name]()))
    eq = model_equations(m, p)
    if eq.parameters:
        parts.append("Parameters: " + ", ".join(f"${latex(r)}$" for r in eq.parameters) + ".")
    parts += [
        f"\\paragraph{{Network and loss.}} Written out at width $p = {eq.p}$; the loss is the population loss "
        "computed from the input moments.",
        _align(eq.network),
    ]
    if eq.quantities:
        parts += [
            "\\paragraph{Quantities.} Sums over the $p$ units and quantities built from them.",
            _align(eq.quantities),
        ]
    parts += [
        f"\\paragraph{{Gradient flow.}} Derived from the loss by differentiation, {_learning_rates(m)}; the field "
        "of one generic unit, in which the other units enter only through the sums:",
        _align(eq.flow),
    ]
    if eq.conserved:
        parts += [
            f"\\paragraph{{Conserved quantities.}} Independent polynomial laws at width $p = {eq.p}$, each proved "
            "exactly to have zero time derivative along the derived flow:",
            _align(eq.conserved),
        ]
    elif eq.conservation_note:
        parts.append(f"\\paragraph{{Conserved quantities.}} {text_latex(eq.conservation_note)}.")
    if eq.closed_form:
        parts += ["\\paragraph{Closed form.} One generic unit at time $t$:", _align(eq.closed_form)]
    shown = shown_derivation(m, tags) if derivation else None
    if shown is not None:
        parts += [f"\\paragraph{{Derivation.}} {text_latex(shown.title)}.", shown.latex(mode=mode)]
    return "\n\n".join(parts)
