"""Lambdified per-unit functions of a model: its vector field and its quantities (closed forms: ``closed_form``).

Everything is compiled once per (model, arithmetic: ``numerics.arithmetic``) from the SymPy objects of ``derivations``
and kept in the disk cache (``numerics.cache``): SymPy and ``derivations`` are imported only to build what is not cached
yet. Arrays carry units on the last axis, so one compiled function serves every width and batch.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .arithmetic import Arithmetic, arithmetic, fp, mp_vectorize, to_mpf
from .cache import Generated, artifact
from .model_spec import ModelSpec, spec_of

if TYPE_CHECKING:
    import sympy as sp

    from derivations.model import Model

__all__ = [
    "BatchField",
    "CompiledModel",
    "Lambdified",
    "batch_field",
    "compiled",
    "lambdified",
    "mp_vectorize",
    "to_mpf",
]


@dataclass(frozen=True)
class CompiledModel:
    """Compiled callables; every one takes keyword arguments named by the model's symbols."""

    model: ModelSpec
    field: Mapping[str, Callable[..., Any]]
    sum_summands: Mapping[str, Callable[..., Any]]
    unit_quantities: Mapping[str, Callable[..., Any]]
    scalar_quantities: Mapping[str, Callable[..., Any]]
    scalar_scaling: dict[str, tuple[tuple[str, ...], ...]] = dataclasses.field(default_factory=dict)
    scaling_reach: dict[str, int] = dataclasses.field(default_factory=dict)
    """For a scale-invariant scalar quantity (``scalar_scaling``), a bound on the degree in the states of every
    subexpression of its evaluation (each sum counted at its polynomial degree, a product at the sum of its
    factors' degrees, a power at |exponent| times its base's): with it, ``numerics.evaluate._within`` tells where
    every intermediate stays in the normal float64 range, so that it needs no rescaling there. Absent: always
    rescaled."""
    sum_degrees: dict[str, int] = dataclasses.field(default_factory=dict)
    """The total degree in the states of each sum that is a polynomial in them (``numerics.evaluate._within``)."""


@dataclass(frozen=True)
class Lambdified:
    """An expression compiled by ``sympy.lambdify``, called with keyword arguments named by its free symbols
    (``names``, sorted)."""

    names: tuple[str, ...]
    function: Generated

    def __call__(self, **values: object) -> Any:
        return self.function(*(values[n] for n in self.names))


def lambdified(expr: sp.Expr, ctx: Arithmetic | str) -> Lambdified:
    """``expr`` as a callable in the arithmetic ``ctx`` taking keyword arguments named by its free symbols
    (listed in ``.names``)."""
    import sympy as sp

    symbols = sorted(expr.free_symbols, key=str)
    modules = arithmetic(ctx).modules
    return Lambdified(tuple(str(s) for s in symbols), Generated(sp.lambdify(symbols, expr, modules=modules)))


def compiled(model: str | Model | ModelSpec, ctx: Arithmetic | str = fp) -> CompiledModel:
    """The compiled functions of ``model`` in the arithmetic ``ctx`` (or its legacy name ``"numpy"`` or
    ``"mpmath"``; see ``numerics.arithmetic``)."""
    spec = spec_of(model)
    chosen = arithmetic(ctx)
    return artifact(spec.key, f"model-{chosen.name}", lambda: _compiled(spec, chosen), CompiledModel)


def _compiled(spec: ModelSpec, ctx: Arithmetic) -> CompiledModel:
    from derivations.scale_invariance import scaling_groups

    model = spec.model
    quantities = model.quantities
    vector_field = {str(s): lambdified(e, ctx) for s, e in model.unit_field.items()}
    sums = {n: lambdified(q.expr, ctx) for n, q in quantities.items() if q.kind == "sum"}
    units = {n: lambdified(q.expr, ctx) for n, q in quantities.items() if q.kind == "unit"}
    scalars = {n: lambdified(q.expr, ctx) for n, q in quantities.items() if q.kind == "scalar"}
    scaling = {n: groups for n in scalars if (groups := scaling_groups(model, n))}
    reach = {n: r for n in scaling if (r := scaling_reach(model, n)) is not None}
    return CompiledModel(spec, vector_field, sums, units, scalars, scaling, reach, sum_degrees(model))


def sum_degrees(model: Model) -> dict[str, int]:
    """``CompiledModel.sum_degrees`` of ``model``."""
    import sympy as sp

    states = [model.symbol(v) for v in model.state_names]
    degrees = {}
    for n, q in model.quantities.items():
        if q.kind == "sum":
            try:
                degrees[n] = sp.Poly(sp.sympify(q.expr, strict=True), *states).total_degree()
            except sp.PolynomialError:
                continue
    return degrees


def scaling_reach(model: Model, name: str) -> int | None:
    """``CompiledModel.scaling_reach`` of the scalar quantity ``name`` of ``model`` (at least 1), or None where
    a subexpression is not bounded so (a sum that is not a polynomial in the states, a function other than
    ``Abs``, ``Max``, ``Min``, ``Piecewise`` and comparisons, a symbolic exponent)."""
    import sympy as sp

    states = [model.symbol(v) for v in model.state_names]
    degrees: dict[sp.Basic, int] = {model.symbol(n): d for n, d in sum_degrees(model).items()}

    def reach(node: sp.Basic) -> int | None:
        if node in degrees:
            return degrees[node]
        if node.is_Symbol or node.is_number or isinstance(node, sp.logic.boolalg.BooleanAtom):
            return None if node in states or (node.is_Symbol and node in sums) else 0
        if isinstance(node, sp.Pow):
            base = reach(node.base)
            exponent = node.exp
            return None if base is None or not exponent.is_number else int(sp.ceiling(abs(exponent) * base))
        found = [reach(a) for a in node.args]
        parts = [r for r in found if r is not None]
        if len(parts) < len(found):
            return None
        if isinstance(node, sp.Mul):
            return sum(parts)
        bounded = (sp.Add, sp.Abs, sp.Max, sp.Min, sp.Piecewise, sp.Tuple, sp.core.relational.Relational)
        if isinstance(node, (*bounded, sp.logic.boolalg.Boolean)) or type(node).__name__ == "ExprCondPair":
            return max(parts, default=0)
        return None

    sums = {model.symbol(n) for n, q in model.quantities.items() if q.kind == "sum"}
    found = reach(sp.sympify(model.quantities[name].expr, strict=True))
    return None if found is None else max(1, found)


@dataclass(frozen=True)
class BatchField:
    r"""The derived vector field of a whole batch, on states packed as one array ``y`` of shape (states, batch, p)
    (state names in model order), and its directional derivative :math:`J(y)\,v` (the analytic Jacobian, by
    ``sympy.diff`` of the unit field, the sums over units by the chain rule). Each is one generated function in
    which common subexpressions, the sums among them, are computed once. ``params`` are the model's unit then
    shared parameter values in :attr:`param_names` order (arrays broadcasting against (batch, p), or scalars).
    """

    param_names: tuple[str, ...]
    field: Callable[..., list]
    tangent: Callable[..., list]

    def __call__(self, y: np.ndarray, params: Sequence[object]) -> np.ndarray:
        """The field at ``y``: an array of the shape of ``y``."""
        return _stack(self.field(*y, *params), y)

    def jvp(self, y: np.ndarray, v: np.ndarray, params: Sequence[object]) -> np.ndarray:
        r""":math:`J(y)\,v`, with ``v`` of the shape of ``y`` (each start's tangent stays within the start)."""
        return _stack(self.tangent(*y, *v, *params), y)


def _stack(components: Sequence[object], like: np.ndarray) -> np.ndarray:
    try:
        stacked = np.array(components)
    except ValueError:  # components of different shapes (a constant or a sum among them)
        stacked = None
    if stacked is not None and stacked.shape == like.shape:
        return stacked
    out = np.empty_like(like)
    for i, c in enumerate(components):
        out[i] = c
    return out


def unit_sum_numpy(values: np.ndarray) -> np.ndarray:
    """The sum over the unit axis (kept, of length 1): ``unit_sum`` in the generated batch field."""
    return np.add.reduce(values, axis=-1, keepdims=True)


def batch_field(model: str | Model | ModelSpec) -> BatchField:
    """The :class:`BatchField` of ``model`` (numpy), compiled once.

    ``ValueError`` if a sum the field uses does not depend on the units (it would not be a sum over them)."""
    spec = spec_of(model)
    return artifact(spec.key, "batch-field", lambda: _batch_field(spec.model), BatchField)


def _batch_field(model: Model) -> BatchField:
    import sympy as sp

    field = model.unit_field
    states = [model.symbol(n) for n in model.state_names]
    unit_params = {model.symbol(n) for n in model.unit_param_names}
    params = [model.symbol(n) for n in (*model.unit_param_names, *model.shared_param_names)]
    used = set().union(*(e.free_symbols for e in field.values()))
    summands = {model.symbol(n): q.expr for n, q in model.quantities.items() if q.kind == "sum"}
    summands = {q: e for q, e in summands.items() if q in used}
    for q, e in summands.items():
        if not e.free_symbols & (set(states) | unit_params):
            raise ValueError(f"{model.name}: the sum {q} = Σ {e} does not depend on the units")
    unit_sum = sp.Function("unit_sum")
    tangents = [sp.Dummy(f"d{s}") for s in states]

    def along(expr: sp.Expr, tangent_sums: Mapping[sp.Symbol, sp.Expr]) -> sp.Expr:
        own = sum(sp.diff(expr, s) * v for s, v in zip(states, tangents, strict=True))
        return own + sum(sp.diff(expr, q) * dq for q, dq in tangent_sums.items())

    sums = {q: unit_sum(e) for q, e in summands.items()}
    tangent_sums = {q: unit_sum(along(e, {})) for q, e in summands.items()}
    components = [field[s] for s in states]

    def generate(args: list[sp.Symbol], exprs: list[sp.Expr]) -> Generated:
        exprs = [e.xreplace(sums) for e in exprs]
        return Generated(sp.lambdify(args, exprs, modules=[{"unit_sum": unit_sum_numpy}, fp.modules], cse=True))

    return BatchField(
        param_names=tuple(str(p) for p in params),
        field=generate([*states, *params], components),
        tangent=generate([*states, *tangents, *params], [along(c, tangent_sums) for c in components]),
    )
