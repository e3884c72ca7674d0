"""Hypothesis strategies of parameters and initializations, by regime, for any model: property tests of your own.

Needs the optional dependency hypothesis (``pip install 'layerwise-linear-flows[strategies]'``). Everything is
read from the model (a registered name or a :class:`derivations.model.Model`): its state and parameter names,
the parameters' domains (``"positive"`` or ``"real"``), and, when ``derivations.solve`` solved it, the closed
form's ``nonzero`` parameter expressions (drawn parameters never make them vanish) and its ``condition`` (a start
is projected onto the set where the closed form holds, e.g. the balanced line of a deep chain)::

    from hypothesis import given
    from numerics import trajectory
    from proofs_check.strategies import cases

    @given(cases("two_layer_scalar", regime="tiny", target="above"))
    def test_output_rises_to_the_target(case):
        run = trajectory("two_layer_scalar", [0.0, 50.0], case.params, case.init)
        assert run["theta"][-1] > run["theta"][0]

Regimes (:data:`REGIMES`) set the scale of the start and its shape: ``"tiny"`` and ``"huge"`` initialization
scales (rich and lazy), ``"moderate"``, ``"saddle"`` (within 1e-12 to 1e-8 of the saddle at the origin),
``"balanced"`` (every state of a unit of the same magnitude, signs drawn: ``a_i² = b_i²``) and
``"near_balanced"`` (each unit free, balanced or anti-balanced to a relative 2^-k, k from 8 to 45).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

try:
    from hypothesis import assume
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - exercised by a test that hides hypothesis
    raise ImportError(
        "proofs_check.strategies needs hypothesis, an optional dependency: "
        "pip install 'layerwise-linear-flows[strategies]' (or pip install hypothesis)"
    ) from None

from derivations import models as registry
from derivations.closed_form import ClosedForm
from derivations.model import Model

__all__ = [
    "REGIMES",
    "Case",
    "cases",
    "initializations",
    "parameters",
    "project",
    "scales",
    "widths",
]

REGIMES: Mapping[str, tuple[float, float]] = {
    "moderate": (-2.0, 0.3),
    "tiny": (-6.0, -3.0),
    "huge": (1.0, 3.0),
    "saddle": (-12.0, -8.0),
    "balanced": (-2.0, 0.3),
    "near_balanced": (-4.0, 2.0),
}
"""Each regime's range of log10 of the initialization scale (the states are that scale times standard normals)."""
TARGETS = ("above", "below")
MAGNITUDE = (0.05, 2.5)
"""Default range of a parameter's magnitude: away from 0, where closed forms divide or cancel."""


@dataclass(frozen=True)
class Case:
    """Parameters and a start for ``numerics.trajectory``: unit parameters and states as arrays of the width."""

    params: dict[str, float | np.ndarray]
    init: dict[str, np.ndarray]

    @property
    def width(self) -> int:
        """The number of units."""
        return len(next(iter(self.init.values())))


def _model(model: Model | str) -> Model:
    return model if isinstance(model, Model) else registry.get(model)


def _regime(regime: str) -> tuple[float, float]:
    if regime not in REGIMES:
        raise ValueError(f"regime must be one of {', '.join(REGIMES)}; got {regime!r}")
    return REGIMES[regime]


def widths(max_width: int = 4) -> st.SearchStrategy[int]:
    """Numbers of units from 1 to ``max_width``."""
    if not isinstance(max_width, int) or max_width < 1:
        raise ValueError(f"max_width must be an integer >= 1, got {max_width!r}")
    return st.integers(1, max_width)


def scales(regime: str = "moderate") -> st.SearchStrategy[float]:
    """Initialization scales of ``regime`` (log-uniform over its range in :data:`REGIMES`)."""
    low, high = _regime(regime)
    return st.floats(low, high).map(lambda exponent: 10.0**exponent)


def _parameter(model: Model, name: str, magnitude: tuple[float, float]) -> st.SearchStrategy[float]:
    size = st.floats(*magnitude)
    if model.domains.get(name) == "positive":
        return size
    return st.tuples(size, st.sampled_from((1.0, -1.0))).map(lambda pair: pair[0] * pair[1])


def _unit_values(params: Mapping[str, Any], model: Model, i: int) -> dict[sp.Symbol, sp.Float]:
    """The parameters' values for unit ``i``, as SymPy numbers keyed by the model's symbols."""
    return {model.symbol(k): sp.Float(v[i] if np.ndim(v) else v) for k, v in params.items()}


def _closed_form(model: Model) -> ClosedForm | None:
    solution = model.solution
    return solution if isinstance(solution, ClosedForm) else None


@st.composite
def parameters(
    draw: st.DrawFn, model: Model | str, width: int, magnitude: tuple[float, float] = MAGNITUDE
) -> dict[str, float | np.ndarray]:
    """Every parameter of ``model`` in its domain with magnitude in ``magnitude``: unit parameters as arrays of
    ``width``, shared ones as floats; none makes a ``nonzero`` expression of the closed form vanish."""
    model = _model(model)
    params: dict[str, float | np.ndarray] = {}
    for name in model.unit_param_names:
        values = draw(st.lists(_parameter(model, name, magnitude), min_size=width, max_size=width))
        params[name] = np.array(values)
    for name in model.shared_param_names:
        params[name] = draw(_parameter(model, name, magnitude))
    closed = _closed_form(model)
    if closed is not None and closed.nonzero:
        for i in range(width):
            at = _unit_values(params, model, i)
            assume(all(float(sp.sympify(q).xreplace(at)) != 0.0 for q in closed.nonzero))
    return params


def project(model: Model | str, params: Mapping[str, Any], init: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Each unit's start put on the set where the closed form holds ({condition = 0}): the condition solved for
    some initial values in terms of the others (``sympy.solve``), so that it holds exactly (a start off an
    unstable invariant set by one ulp leaves it exponentially fast). The start itself if there is no condition."""
    model = _model(model)
    out = {n: np.array(v, dtype=float) for n, v in init.items()}
    closed = _closed_form(model)
    if closed is None or not closed.condition:
        return out
    symbols = [model.init_symbol(n) for n in model.state_names]
    for i in range(len(next(iter(out.values())))):
        values = _unit_values(params, model, i)
        solved = sp.solve([sp.sympify(c).xreplace(values) for c in closed.condition], symbols, dict=True)
        free = {s: sp.Float(out[s.name.removesuffix("_0")][i]) for s in symbols if s not in solved[0]}
        for s, value in solved[0].items():
            out[s.name.removesuffix("_0")][i] = float(value.xreplace(free))
    return out


def _shaped(draw: st.DrawFn, regime: str, states: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The regime's shape imposed on independent standard-normal states."""
    names = list(states)
    if regime == "balanced":
        size = np.abs(states[names[0]])
        return {n: np.sign(states[n] + (states[n] == 0)) * size for n in names}
    if regime == "near_balanced" and len(names) >= 2:
        width = len(states[names[0]])
        kinds = draw(st.lists(st.sampled_from(("free", "balanced", "anti")), min_size=width, max_size=width))
        k = draw(st.integers(8, 45))
        first, second = states[names[0]], states[names[1]].copy()
        for i, kind in enumerate(kinds):
            if kind != "free":
                second[i] = (1.0 if kind == "balanced" else -1.0) * first[i] * (1 + 2.0**-k)
        return {**states, names[1]: second}
    return states


@st.composite
def initializations(
    draw: st.DrawFn,
    model: Model | str,
    width: int,
    regime: str = "moderate",
    params: Mapping[str, Any] | None = None,
) -> dict[str, np.ndarray]:
    """A start of ``width`` units for every state of ``model`` in ``regime`` (:data:`REGIMES`); with ``params``
    it is projected onto the closed form's set (:func:`project`)."""
    model = _model(model)
    scale = draw(scales(regime))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    states = {n: scale * rng.standard_normal(width) for n in model.state_names}
    states = _shaped(draw, regime, states)
    return project(model, params, states) if params is not None else states


def _initial_output(model: Model, output: str, params: Mapping[str, Any], init: Mapping[str, np.ndarray]):
    """The quantity ``output`` at the start: one value per unit (kind "unit"), or one value."""
    quantity = model.quantities[output]
    width = len(next(iter(init.values())))

    def unit(expr: sp.Expr, i: int) -> float:
        values = {**_unit_values(params, model, i), **{model.symbol(n): sp.Float(init[n][i]) for n in init}}
        return float(sp.sympify(expr).xreplace(values))

    if quantity.kind == "unit":
        return np.array([unit(quantity.expr, i) for i in range(width)])
    if quantity.kind == "sum":
        return sum(unit(quantity.expr, i) for i in range(width))
    sums = {
        model.symbol(n): sp.Float(sum(unit(q.expr, i) for i in range(width)))
        for n, q in model.quantities.items()
        if q.kind == "sum"
    }
    shared = {model.symbol(k): sp.Float(v) for k, v in params.items() if np.ndim(v) == 0}
    return float(sp.sympify(quantity.expr).xreplace({**sums, **shared}))


def _place_target(draw: st.DrawFn, model: Model, case: Case, target: str, parameter: str, output: str) -> Case:
    """``case`` with the target ``parameter`` moved above or below the initial ``output`` by a drawn margin."""
    start = _initial_output(model, output, case.params, case.init)
    margin = draw(st.floats(*MAGNITUDE))
    sign = 1.0 if target == "above" else -1.0
    placed = np.asarray(start) + sign * margin * (1.0 + np.abs(start))
    value = placed if parameter in model.unit_param_names else float(np.sum(placed))
    return Case({**case.params, parameter: value}, case.init)


def cases(
    model: Model | str,
    regime: str = "moderate",
    width: st.SearchStrategy[int] | int | None = None,
    target: str | None = None,
    target_param: str = "S",
    output: str = "theta",
    magnitude: tuple[float, float] = MAGNITUDE,
) -> st.SearchStrategy[Case]:
    """Parameters (:func:`parameters`) and a start (:func:`initializations`) of ``model``; ``width`` is a number
    of units or a strategy of them (default 1 to 4). ``target="above"`` (``"below"``) sets the target parameter
    ``target_param`` above (below) the initial value of the quantity ``output`` (per unit for a per-unit output),
    by a margin of 0.05 to 2.5 times 1 + its size. Bad arguments raise ValueError at once, naming themselves."""
    model = _model(model)
    _regime(regime)
    if target is not None:
        if target not in TARGETS:
            raise ValueError(f"target must be None, 'above' or 'below'; got {target!r}")
        if target_param not in (*model.unit_param_names, *model.shared_param_names) or output not in model.quantities:
            raise ValueError(
                f"target= needs model {model.name!r} to have the parameter target_param={target_param!r} and the "
                f"quantity output={output!r}"
            )
    units = st.just(width) if isinstance(width, int) else (width if width is not None else widths())
    return _cases(model, regime, units, target, target_param, output, magnitude)


@st.composite
def _cases(
    draw: st.DrawFn,
    model: Model,
    regime: str,
    width: st.SearchStrategy[int],
    target: str | None,
    target_param: str,
    output: str,
    magnitude: tuple[float, float],
) -> Case:
    units = draw(width)
    params = draw(parameters(model, units, magnitude))
    case = Case(params, draw(initializations(model, units, regime, params)))
    if target is not None:
        case = _place_target(draw, model, case, target, target_param, output)
    return case
