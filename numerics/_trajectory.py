"""``trajectory``: closed form, high-precision integration, DOP853, or gradient descent, one interface."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from .arithmetic import Arithmetic
from .budget import MAX_DPS
from .compiled import compiled
from .evaluate import quantities
from .matrix_field import flow_functions, matrix_compiled, matrix_quantities
from .methods import Method, method_of
from .model_spec import ModelSpec, spec_of
from .result import Stats, Trajectory
from .validation import validate

if TYPE_CHECKING:
    from derivations.model import Model

__all__ = ["trajectory"]


def trajectory(
    model: str | Model,
    t: object,
    params: Mapping[str, Any],
    init: Mapping[str, Any],
    method: Method | str = "closed_form",
    dps: int | None = None,
    lr: float | None = None,
    max_steps: int | None = None,
    max_dps: int = MAX_DPS,
    refine: bool = True,
    quantities: Sequence[str] | None = None,
) -> Trajectory:
    """States and derived quantities of ``model`` at times ``t``: a :class:`numerics.result.Trajectory` (named
    fields ``t``, ``states``, ``quantities``, ``clocks``, ``out_of_range``, ``method``, ``stats``; also a mapping
    of the arrays by name, with matrix states such as ``.W1``).

    Every parameter may carry the batch axis, for every method: a shared parameter (``S``) is a number or an array
    (batch,), a unit parameter a number, an array (p,) or (batch, p); a sweep over ``S`` is one call,
    ``params={"S": np.array([0.5, 1.0, 2.0]), "Z": 1.0}``. The batch axes broadcast as numpy's: a length of 1
    stretches, and an ``init`` without a batch axis is repeated over the parameters' batch (the same start for each
    parameter value). With ``dps`` (and for ``"mpmath"``), ``init`` and ``params`` may hold ``mpmath.mpf``
    numbers, which keep their precision (e.g. an initialization aligned to 30 digits).

    Budgets (``numerics.budget``), checked before the work: ``dps <= max_dps`` (default 10⁴); ``max_steps`` per
    batch element, default 10⁶ GD steps (``"gd"``, exactly t/lr), 10⁵ DOP853 steps (``"scipy"``, estimated from
    the flow's rate at the start), 10³ Taylor steps of ``mpmath.odefun`` counted at 30 digits (``"mpmath"``,
    estimated likewise and counted while integrating) or 10⁶ heyoka steps (``"taylor"``, estimated from the rate
    and from a sample integration of 1024 steps, ``budget.check_taylor_budget``, and counted). Beyond a
    budget the error names it and how to raise it.

    Arguments:
        model: a model name of ``derivations.models`` or a ``derivations.Model``.
        t: the times (>= 0), a number or a 1-d array.
        params: the parameters keyed by the model's symbol names (e.g. ``two_layer_scalar``: ``S``, ``Z``).
        init: the initial states keyed by the model's state names (e.g. ``two_layer_scalar``: ``a``, ``b`` of
            shape (p,) or (batch, p)).
        method: a method object of ``numerics.methods`` (``ClosedForm(refine=True, dps=None)``,
            ``MPMath(dps=30, max_steps=None)``, ``DOP853(max_steps=None)``, ``Taylor(dps=None, max_steps=None)``,
            ``GradientDescent(lr, max_steps=None)``), or its name with the options as the keywords below:
            ``"closed_form"`` (lambdified numpy; with ``dps``, the same closed form in mpmath), ``"mpmath"`` (the
            derived ODE by ``mpmath.odefun`` at ``dps`` digits, default 30), ``"scipy"`` (DOP853, rtol 1e-13, the
            batch as one vectorized system), ``"taylor"`` (heyoka's Taylor integrator of the derived ODE, optional
            extra ``[taylor]``: float64, or with ``dps`` long double up to 18 digits and MPFR above; see
            ``numerics.taylor``) or ``"gd"`` (gradient descent with learning rate ``lr``, t = steps × lr: every
            time must be an integer multiple of ``lr``, to a relative 1e-9).
        dps, lr, max_steps, max_dps: the method's options when ``method`` is a name (None: not given): the digits
            of an mpmath result (an integer in [15, ``max_dps``]), the learning rate of ``"gd"`` (> 0), the step
            budget (an integer >= 1) and the bound on ``dps``.
        refine: (float64 closed form only) re-evaluate at rising precision the units that settle to a value whose
            float64 sum cancels beyond its conditioning (a unit driven to a small value by a conservation law
            loses up to all its digits otherwise). ``refine=False`` keeps their float64 values (error up to eps
            times the cancellation factor): for sweeps that reduce over many wide starts, where nearly every start
            has such a unit and the refinement would dominate the cost. Starts beyond the float64-safe range are
            evaluated in mpmath either way.
        quantities: the names of the derived quantities to compute (default None: all of the model's), e.g.
            ``("ntk",)`` in a sweep that reads only the NTK; the states are always returned (and, for the closed
            form, the sums it evaluates along its clocks).

    Returns:
        The :class:`numerics.result.Trajectory`: it maps each state name and quantity (``theta``, ``loss``, …) to
        an array with time as the first axis, then batch (if ``init`` or a parameter had one), then units for
        per-unit quantities; ``"t"`` holds the times. With ``dps`` the arrays hold ``mpmath.mpf`` objects.

    Raises:
        TypeError: for an argument of the wrong type, naming it (complex values are refused).
        ValueError: for a bad argument, naming it and its admissible range or shapes, before any work: batch
            lengths that do not broadcast, an unknown method or quantity, an option the method does not take (or
            keywords next to a method object), times that are not multiples of ``lr`` for ``"gd"``;
            ``method="closed_form"`` on a model without one (quoting ``Unsolved``), inputs off the set where the
            closed form holds; a failure inside the package while deriving, solving or compiling a valid model
            (quoting the model and the underlying error).
        BudgetError: (a ``ValueError``) beyond a budget, naming it and how to raise it.
        OverflowError: in float64, for a result that is not finite although the inputs are, a state or a
            quantity (e.g. the loss of weights near 1e150, about 1e600), naming it, for every method.
        ArithmeticError: if the closed form (in mpmath, with ``dps`` or beyond the float64-safe range) does not
            settle at its highest working precision.
        ImportError: for ``"taylor"`` without the optional dependency heyoka.
    """
    started = time.perf_counter()
    spec = _spec(model)
    solver = method_of(method, dps=dps, lr=lr, max_steps=max_steps, max_dps=max_dps, refine=refine)
    chosen = _quantity_names(spec, quantities)
    ctx = solver.arithmetic
    _building(spec.name, "what the method needs (e.g. the closed form)", lambda: solver.prepare(spec))
    # arbitrary-precision arithmetic keeps the digits of mpf inputs
    inputs = validate(spec, t, params, init, exact=not ctx.machine)
    params_env: dict[str, Any] = {**inputs.unit_params, **inputs.shared_params}
    _building(spec.name, "the compiled field and quantities", lambda: flow_functions(spec, ctx))
    # a non-finite float64 value is reported once, by _check_finite, not as numpy warnings on the way
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        solution = _building(spec.name, "the solution", lambda: solver.run(spec, inputs, params_env), sympy_only=True)
        states = solution.states
        values = _quantities(spec, {**states, **solution.sums}, params_env, ctx, chosen)
    if ctx.machine:
        _check_finite(spec, solver.name, {**states, **values})
    clocks, out_of_range = solution.clocks, solution.out_of_range
    if not inputs.batched:
        states, values = {k: v[:, 0] for k, v in states.items()}, {k: v[:, 0] for k, v in values.items()}
        clocks = {k: v[:, 0] for k, v in clocks.items()}
        out_of_range = None if out_of_range is None else out_of_range[0]
    stats = Stats(time.perf_counter() - started, solution.steps, solution.nfev)
    return Trajectory(inputs.t, states, values, solver, stats, clocks, out_of_range, dict(spec.matrix_states))


def _spec(model: object) -> ModelSpec:
    """``spec_of(model)``; a failure in deriving a ``Model``'s flow is a ``ValueError`` quoting it (``_building``),
    while the ``TypeError`` and ``ValueError`` of a bad ``model`` argument stay as they are."""
    if isinstance(model, (str, ModelSpec)):
        return spec_of(model)
    from derivations.model import Model

    if not isinstance(model, Model):
        return spec_of(model)  # the TypeError of derivations.models.get, naming the argument
    return _building(model.name, "the derived flow", lambda: spec_of(model))


T = TypeVar("T")


def _building(name: str, what: str, build: Callable[[], T], sympy_only: bool = False) -> T:
    """``build()``; an exception inside it other than a ``ValueError`` (``Unsolved`` quoted by the closed form, a
    bad argument, a budget) becomes a ``ValueError`` quoting the model and the underlying error, so that a valid
    model never passes a raw SymPy or other internal exception through ``trajectory`` (issue 22). With
    ``sympy_only``, only exceptions raised by SymPy's own classes are converted (a numeric ``OverflowError`` of
    the run stays what it is)."""
    try:
        return build()
    except ValueError:
        raise
    except Exception as error:
        if sympy_only and not type(error).__module__.startswith("sympy"):
            raise
        raise ValueError(
            f"trajectory: building {what} of the model {name!r} failed inside the package "
            f"({type(error).__module__}.{type(error).__name__}: {error}); please report it"
        ) from error


def _check_finite(model: ModelSpec, method: str, result: Mapping[str, np.ndarray]) -> None:
    """``OverflowError`` naming the outputs of a float64 run from finite inputs that are not finite, states and
    quantities alike (the one check, for every method): a state beyond the float64 range, or a quantity such as
    the loss of weights near 1e150, whose true value (about 1e600) float64 cannot hold. Quantities that float64
    can hold are computed so as to stay finite (``numerics.evaluate.quantities`` rescales the scale-invariant
    ones), so a non-finite one is never a rounding artefact."""
    states = set(model.state_names)
    bad = [name for name, values in result.items() if not _valid(values)]
    if bad:
        named = {"states": [n for n in bad if n in states], "quantities": [n for n in bad if n not in states]}
        kinds = " and ".join(kind for kind, names in named.items() if names)
        raise OverflowError(
            f"the float64 {method} of {model.name!r} is not finite in {bad} ({kinds}) although init and params are: "
            "the values (or intermediate ones) are beyond the float64 range for these inputs; use dps (mpmath), "
            "ask only for the quantities float64 holds (quantities=...), or rescale the problem"
        )


def _valid(values: np.ndarray) -> bool:
    """Whether every value is finite: at once if their sum (a reduction without temporaries) is finite, as it is
    only if every value is; else value by value (the sum of finite values may overflow)."""
    with np.errstate(over="ignore", invalid="ignore"):
        if values.dtype != object and np.isfinite(np.sum(values)):
            return True
    return bool(np.all(np.isfinite(values)))


def _quantity_names(model: ModelSpec, names: object) -> frozenset[str] | None:
    """The checked ``quantities`` argument of ``trajectory``: None (all) or a set of the model's quantity names."""
    if names is None:
        return None
    known = list(model.quantity_kinds)
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise TypeError(f"quantities must be None or a sequence of names among {known}, got {names!r}")
    chosen = list(names)
    unknown = [n for n in chosen if n not in known]
    if unknown:
        raise ValueError(f"quantities: {unknown} are not quantities of {model.name!r}; admissible names: {known}")
    return frozenset(chosen)


def _quantities(
    model: ModelSpec,
    states: dict[str, np.ndarray],
    params_env: dict[str, Any],
    ctx: Arithmetic,
    names: frozenset[str] | None = None,
) -> dict[str, np.ndarray]:
    """The quantities (those in ``names``, all if None) along ``states`` (and any sums the method evaluated) in
    the arithmetic ``ctx``, at its precision (as matrix products for a model with a matrix field)."""
    if model.has_matrix_field:
        with ctx.precision():
            # in arbitrary precision the parameters become numbers of the arithmetic, as for the entrywise route
            env = params_env if ctx.machine else ctx.env(dict(params_env))
            return matrix_quantities(matrix_compiled(model), states, env, names)
    cm = compiled(model, ctx)
    # unit parameters gain a leading time axis to broadcast against the (T, batch, p) states
    env = {k: (v[None] if isinstance(v, np.ndarray) else v) for k, v in params_env.items()}
    with ctx.precision():
        # machine inputs are kept as validated (numpy scalars: an overflow is inf, not an error)
        env = env if ctx.machine else ctx.env(env)
        values = quantities(cm, {**env, **states}, ctx, names)
    # a sum the method evaluated is returned as a quantity would be, also when not chosen
    extra = {k: v[..., 0] for k, v in states.items() if k not in model.state_names and k not in values}
    return {**extra, **values}
