"""Evaluate a model's derived closed form (``derivations.solve``) on arrays, in float64 or in mpmath.

The closed form is compiled once per (model, arithmetic: ``numerics.arithmetic``): the sums' summands, each clock's
solution (a Riccati clock through the engine's stable form, ``numerics.riccati``; an implicit one through a bracketed
root solve, ``numerics.implicit``) and the state in terms of the clocks. Arrays carry units on the last axis, so one
compiled closed form serves every width and batch.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .arithmetic import Arithmetic, arithmetic, fp, real_array
from .cache import Generated, artifact
from .clocks import CompiledClock, compile_clock
from .compiled import lambdified
from .evaluate import CHUNK, apply, env_shape, unit_sums
from .fused import FusedClocks, fused_enabled, fused_kernel, fused_source
from .implicit import CompiledImplicit, implicit_numpy, implicit_values
from .model_spec import ModelSpec, spec_of
from .riccati import riccati_at, riccati_increment, riccati_mpmath, riccati_numpy, riccati_rates, stable_forms

if TYPE_CHECKING:
    import sympy as sp

    from derivations.closed_form import ClosedForm
    from derivations.model import Model

__all__ = [
    "ClosedFormValues",
    "CompiledClosedForm",
    "Decomposed",
    "closed_form_numpy",
    "closed_form_state",
    "compiled_closed_form",
]

# A positive clock (gamma) is clipped to the normal float64 range: it only reaches 0 or inf in degenerate branches
# (a sum of squares that vanishes), where the factor it multiplies is exactly zero.
GAMMA_RANGE = (np.finfo(float).tiny, np.finfo(float).max)
CONDITION_TOLERANCE = 1e-12
"""A start satisfies a closed form's condition if each expression is at most this times the unit's largest
initial value in absolute value."""


@dataclass(frozen=True)
class Decomposed:
    """Expressions written as signed sums of *products* ``coefficient * atom``: an atom depends on the clocks and
    the time, a coefficient on the start or the unit (e.g. ``a = P_1 + P_2``, ``b = P_1 - P_2`` with
    ``P_1 = (chi_1(0)/2) sqrt(gamma)``, ``P_2 = (chi_2(0)/2)/sqrt(gamma)``). The atoms are computed once per
    (time, start) by one generated function with common subexpressions shared, each product once (also when
    several outputs use it, with either sign), and the outputs are written in place into preallocated arrays."""

    atoms: Callable[..., list]
    atom_names: tuple[str, ...]
    products: tuple[tuple[int, Callable[..., object]], ...]
    terms: dict[str, tuple[tuple[int, int], ...]]
    powers: tuple[tuple[dict[str, float], float], ...] | None = None
    starts: dict[str, str] = field(default_factory=dict)
    fused: str = ""
    """The source of the fused kernel (``numerics.fused``) generated from the same atoms, products and sums ("" if
    the closed form has none: a clock that is not a Riccati clock)."""

    @classmethod
    def of(
        cls,
        exprs: Mapping[str, sp.Expr],
        clocks: Sequence[sp.Symbol],
        t: sp.Symbol,
        starts: Mapping[str, str] | None = None,
        fused: Callable[[list[sp.Expr], list[int], dict[str, tuple[tuple[int, int], ...]]], str] | None = None,
    ) -> Decomposed:
        """Split each of ``exprs`` over the atoms (the factors of its terms that depend on ``clocks`` or ``t``);
        ``starts`` names each expression's value at t = 0 (for the increment form). ``fused`` generates the
        fused kernel's source from the stable atoms, each product's atom index and the terms."""
        import sympy as sp

        atoms: list[sp.Expr] = []
        products: list[tuple[int, sp.Expr]] = []
        terms = {}
        for name, expr in exprs.items():
            groups: dict[sp.Expr, sp.Expr] = {}
            for term in sp.Add.make_args(sp.expand(expr)):
                coefficient, atom = term.as_independent(*clocks, t, as_Add=False)
                groups[atom] = groups.get(atom, sp.S.Zero) + coefficient
            signed = []
            for atom, coefficient in groups.items():
                if atom not in atoms:
                    atoms.append(atom)
                product = (atoms.index(atom), sp.factor(coefficient))
                negated = (product[0], sp.factor(-coefficient))
                if negated in products and product not in products:
                    signed.append((products.index(negated), -1))
                    continue
                if product not in products:
                    products.append(product)
                signed.append((products.index(product), 1))
            terms[name] = tuple(signed)
        arguments = sorted(set().union(*(a.free_symbols for a in atoms)), key=str)
        # sympy.expand multiplied out the radicands again: an eliminated state's conserved difference of squares
        # as a product (numerics.quadrature.factored_radicands), else it cancels once the clock is small
        from .quadrature import factored_radicands

        stable = [factored_radicands(atom, list(clocks)) for atom in atoms]
        generated = Generated(sp.lambdify(arguments, stable, modules=fp.modules, cse=True))
        compiled = tuple((index, lambdified(coefficient, fp)) for index, coefficient in products)
        powers = [_power_form(atom, clocks, t) for atom in atoms]
        usable = tuple(p for p in powers if p is not None) if all(p is not None for p in powers) else None
        source = fused(stable, [index for index, _ in products], terms) if fused is not None else ""
        return cls(generated, tuple(str(a) for a in arguments), compiled, terms, usable, dict(starts or {}), source)

    def coefficients(self, env: Mapping[str, Any]) -> list[np.ndarray]:
        """The products' coefficients, evaluated once (per start or unit) from ``env``."""
        return [real_array(apply(f, env, fp)) for _, f in self.products]

    def evaluate(
        self,
        env: Mapping[str, Any],
        coefficients: Sequence[np.ndarray],
        out: Mapping[str, np.ndarray],
        buffers: dict[int, np.ndarray] | None = None,
    ) -> dict[str, np.ndarray]:
        """Write each expression, in the direct form ``sum_m c_m B_m``, into ``out[name]`` (arrays (T, ...), the
        atoms ``B_m`` from ``env``): one pass per product (into ``buffers``, kept by the caller from block to block,
        if given) and per output. Returns for each expression a bound on its magnitude over the times,
        ``sum_m |c_m| max_t |B_m|`` (NaN if a term is), from the atoms alone.

        Any layout in which the atoms broadcast against the coefficients serves: ``closed_form_numpy`` passes
        arrays with the units before the starts, (T, p, batch), so that a per-start atom times per-unit
        coefficients runs over contiguous starts (numpy would loop over the short unit axis otherwise)."""
        buffers = {} if buffers is None else buffers
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            atoms = self.atoms(*(env[n] for n in self.atom_names))
            values, magnitudes = [], []
            for position, ((index, _), c) in enumerate(zip(self.products, coefficients, strict=True)):
                atom = atoms[index]
                largest = np.abs(atom).max(axis=0) if np.ndim(atom) == 3 else np.abs(atom)
                magnitudes.append(np.abs(c[0] if np.ndim(c) == 3 else c) * largest)
                shape = np.broadcast_shapes(np.shape(c), np.shape(atom))
                buffer = buffers.get(position)
                if buffer is None or buffer.shape != shape:
                    buffer = buffers[position] = np.empty(shape, np.result_type(c, atom))
                values.append(np.multiply(c, atom, out=buffer))
            bounds = {}
            for name, terms in self.terms.items():
                _signed_sum(values, terms, out[name])
                bounds[name] = sum(magnitudes[i] for i, _ in terms)
            return bounds

    def increment_form(
        self,
        env: Mapping[str, Any],
        coefficients: Sequence[np.ndarray],
        increments: Mapping[str, tuple[np.ndarray, np.ndarray]],
    ) -> dict[str, np.ndarray]:
        """Each expression in the increment form (``increments``: clock name → (start, increment ``y - y0``)),
        ``x = x(0) + sum_m c_m (B_m - B_m(0))`` with ``B_m - B_m(0) = B_m(0) expm1(sum_g p_g log1p(dy_g / y0_g) +
        nu t)``: where a clock has moved by less than half its start, it keeps the digits that the direct sum
        loses to cancellation when the state barely moves (a lazy unit, a tiny target)."""
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            changes = self._changes(env, coefficients, increments)
            terms = self.terms.items()
            return {name: np.add(env[self.starts[name]], _signed_sum(changes, signed)) for name, signed in terms}

    def sums_and_bounds(
        self,
        env: Mapping[str, Any],
        coefficients: Sequence[np.ndarray],
        increments: Mapping[str, tuple[np.ndarray, np.ndarray]] | None = None,
        near: np.ndarray | bool = False,
    ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Each output at the time in ``env`` with the sum of its terms' magnitudes, in the form ``evaluate``
        uses there (the increment form ``x(0) + changes`` where ``near``): where the bound exceeds the value by a
        large factor, the float64 sum cancels."""
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            atoms = self.atoms(*(env[n] for n in self.atom_names))
            values = [np.multiply(c, atoms[index]) for (index, _), c in zip(self.products, coefficients, strict=True)]
            out = {
                name: (_signed_sum(values, terms), sum(np.abs(values[i]) for i, _ in terms))
                for name, terms in self.terms.items()
            }
            if not increments or self.powers is None or not np.any(near):
                return out
            changes = self._changes(env, coefficients, increments)
            for name, terms in self.terms.items():
                start = env[self.starts[name]]
                x = start + _signed_sum(changes, terms)
                bound = np.abs(start) + sum(np.abs(changes[i]) for i, _ in terms)
                out[name] = (np.where(near, x, out[name][0]), np.where(near, bound, out[name][1]))
            return out

    def _changes(
        self,
        env: Mapping[str, Any],
        coefficients: Sequence[np.ndarray],
        increments: Mapping[str, tuple[np.ndarray, np.ndarray]],
    ) -> list[np.ndarray]:
        """Each product's change ``c_m (B_m - B_m(0))`` since the start."""
        return [
            np.multiply(c, self._change(index, increments, env["t"]))
            for (index, _), c in zip(self.products, coefficients, strict=True)
        ]

    def _change(self, index: int, increments: Mapping[str, tuple[np.ndarray, np.ndarray]], t: Any) -> Any:
        assert self.powers is not None  # the increment form is used only where every atom has a power form
        powers, drift = self.powers[index]
        exponent = drift * t if drift != 0 else 0.0
        start = 1.0
        for name, power in powers.items():
            y0, dy = increments[name]
            exponent = exponent + power * np.log1p(dy / y0)
            start = start * np.power(y0, power)
        return start * np.expm1(exponent)


def _signed_sum(
    values: Sequence[np.ndarray], terms: Sequence[tuple[int, int]], out: np.ndarray | None = None
) -> np.ndarray:
    """``sum sign * values[index]`` over ``terms``, the first two combined in one pass (into ``out`` if given)."""
    (first, sign), *rest = terms
    if rest:
        (second, other), *rest = rest
        if sign > 0:
            out = (np.add if other > 0 else np.subtract)(values[first], values[second], out=out)
        elif other > 0:
            out = np.subtract(values[second], values[first], out=out)
        else:
            out = np.negative(np.add(values[first], values[second], out=out), out=out)
    elif sign < 0:
        out = np.negative(values[first], out=out)
    elif out is None:
        out = np.array(values[first])
    else:
        np.copyto(out, values[first])
    for index, sign in rest:
        (np.add if sign > 0 else np.subtract)(out, values[index], out=out)
    return out


@dataclass(frozen=True)
class CompiledClosedForm:
    """Compiled callables of a closed form (each takes keyword arguments named by the model's symbols) and what
    the evaluation reads of it: the model's name, the conditions and divisors as text (for the errors), why no
    closed form holds from a general start, the clocks with one value per unit, the sums along the clocks and the
    names of the initial values."""

    model: str
    coordinates: dict[str, Callable[..., object]]
    sums: dict[str, Callable[..., object]]
    riccati: dict[str, tuple[Callable[..., object], ...]]
    implicit: dict[str, CompiledImplicit]
    state: dict[str, Callable[..., object]]
    condition: tuple[tuple[str, Callable[..., object]], ...]
    nonzero: tuple[tuple[str, Callable[..., object]], ...]
    positive: frozenset[str]
    general: str
    per_unit: frozenset[str]
    along: tuple[str, ...]
    starts: tuple[str, ...]
    kernel: Decomposed | None = None
    initial_rates: dict[str, Callable[..., object]] = field(default_factory=dict)
    exact_in_long_double: bool = False
    other_clocks: tuple[CompiledClock, ...] = ()

    @property
    def other_names(self) -> tuple[str, ...]:
        """The clock symbols given by the ``other_clocks`` (``numerics.clocks``)."""
        return tuple(name for clock in self.other_clocks for name in clock.names)

    def others(self, env: Mapping[str, Any], t: np.ndarray, ctx: Arithmetic) -> dict[str, Any]:
        """The values of the ``other_clocks`` at the times ``t`` (shape (T, 1, 1)) from ``env``."""
        values: dict[str, Any] = {}
        for clock in self.other_clocks:
            values.update(clock.values(env, t, ctx))
        return values

    @property
    def float64_kernel(self) -> Decomposed:
        """The blocked float64 kernel (only a closed form compiled in machine arithmetic has one)."""
        if self.kernel is None:
            raise TypeError(f"the closed form of {self.model} is compiled for arbitrary precision: no float64 kernel")
        return self.kernel


@dataclass(frozen=True)
class NoClosedForm:
    """The cached artifact of a model ``derivations.solve`` found no closed form for: the reason, typed (a bare
    string would let any pickled string found in the cache pass for a refusal)."""

    reason: str


def compiled_closed_form(model: str | Model | ModelSpec, ctx: Arithmetic | str = fp) -> CompiledClosedForm:
    """The compiled closed form of ``model`` in the arithmetic ``ctx`` (or its legacy name, ``"numpy"`` or
    ``"mpmath"``), through the disk cache; ``ValueError`` quoting the reason if ``derivations.solve`` found none."""
    spec = spec_of(model)
    chosen = arithmetic(ctx)
    built = artifact(
        spec.key,
        f"closed-form-{chosen.name}",
        lambda: _compiled_closed_form(spec.model, chosen),
        (CompiledClosedForm, NoClosedForm),  # a model without one caches the reason
    )
    if isinstance(built, NoClosedForm):
        raise ValueError(f"method='closed_form' needs a closed form: {built.reason}")
    return built


def _compiled_closed_form(model: Model, ctx: Arithmetic) -> CompiledClosedForm | NoClosedForm:
    """The compiled closed form, or the reason there is none (the text of ``Unsolved``)."""
    import sympy as sp

    from derivations.closed_form import Unsolved
    from derivations.riccati import RiccatiSolution
    from derivations.separable import ImplicitSolution

    from . import linear_flow  # noqa: F401  (registers the evaluator of derivations.projective's clocks)
    from .quadrature import factored_radicands

    solution = model.solution
    if isinstance(solution, Unsolved):
        return NoClosedForm(str(solution))
    riccati: dict[str, tuple[Callable[..., object], ...]] = {}
    implicit: dict[str, CompiledImplicit] = {}
    others: list[CompiledClock] = []
    seen: list[object] = []
    for clock, sol in solution.clocks.items():
        if isinstance(sol, RiccatiSolution):
            riccati[str(clock)] = tuple(
                lambdified(sp.sympify(c, strict=True), ctx) for c in (sol.c2, sol.c1, sol.c0, sol.y0)
            )
        elif isinstance(sol, ImplicitSolution):
            implicit[str(clock)] = CompiledImplicit.of(sol, ctx)
        elif not any(sol is known for known in seen):  # one solution may give several clocks
            seen.append(sol)
            try:
                others.append(compile_clock(sol, ctx))
            except ValueError as error:
                return NoClosedForm(f"{solution.model}: {error}")
    general = solution.general.reason if solution.general else "not solved"
    # an eliminated state sqrt(q(y)) with its conserved differences of squares as products (no cancellation)
    state = {n: factored_radicands(e, list(solution.clocks)) for n, e in solution.state.items()}
    return CompiledClosedForm(
        solution.model,
        {str(s): lambdified(e, ctx) for s, e in solution.coordinates.items()},
        {str(s): lambdified(e, ctx) for s, e in solution.sums.items()},
        riccati,
        implicit,
        {n: lambdified(e, ctx) for n, e in state.items()},
        tuple((str(c), lambdified(c, ctx)) for c in solution.condition),
        tuple((str(c), lambdified(c, fp)) for c in solution.nonzero),
        frozenset(str(g) for g in solution.clocks if g.is_positive),
        general,
        frozenset(str(g) for g in solution.clocks if _per_unit(solution, g)),
        tuple(str(q) for q in solution.along),
        tuple(str(s) for s in solution.init.values()),
        Decomposed.of(
            {**state, **{str(q): e for q, e in solution.along.items()}},
            list(solution.clocks),
            solution.t,
            {**{n: str(s) for n, s in solution.init.items()}, **{str(q): f"{q}(0)" for q in solution.along}},
            _fused_generator(solution, riccati),
        )
        if ctx.machine  # the blocked kernel is float64 code
        else None,
        {str(g): lambdified(e, fp) for g, e in solution.initial_rates.items() if g in solution.riccati},
        _exact_in_long_double(solution),
        tuple(others),
    )


def _fused_generator(
    solution: ClosedForm, riccati: Mapping[str, object]
) -> Callable[[list[sp.Expr], list[int], dict[str, tuple[tuple[int, int], ...]]], str] | None:
    """The generator of the fused kernel's source (``numerics.fused.fused_source``) for a closed form whose clocks
    are all Riccati clocks, else None."""
    if len(riccati) != len(solution.clocks):
        return None
    names = tuple(riccati)
    clocks = FusedClocks(
        names,
        frozenset(str(g) for g in solution.clocks if g.is_positive),
        frozenset(str(g) for g in solution.clocks if _per_unit(solution, g)),
        frozenset(str(g) for g in solution.initial_rates if str(g) in riccati),
    )
    along = frozenset(str(q) for q in solution.along)
    return lambda atoms, products, terms: fused_source(atoms, products, terms, clocks, along, solution.t)


def check_condition(ccf: CompiledClosedForm, init: Mapping[str, np.ndarray], params: Mapping[str, Any]) -> None:
    """``ValueError`` unless the parameters avoid the derivation's divisions and every unit's start lies on the set
    where the closed form holds."""
    for expr, f in ccf.nonzero:
        values = {k: np.asarray(v, dtype=float) for k, v in params.items()}
        if np.any(np.asarray(apply(f, values, fp)) == 0):
            raise ValueError(f"params: the closed form of {ccf.model} needs {expr} != 0")
    if not ccf.condition:
        return
    scale = np.max(np.abs(np.stack([np.asarray(v, dtype=float) for v in init.values()])), axis=0)
    for expr, f in ccf.condition:
        value = np.abs(np.asarray(apply(f, init, fp), dtype=float))
        if np.any(value > CONDITION_TOLERANCE * scale):
            raise ValueError(
                f"init: the closed form of {ccf.model} holds only for starts with {expr} = 0 for every "
                f"unit (largest violation {value.max():.3g}); from a general start: {ccf.general}"
            )


def closed_form_state(
    ccf: CompiledClosedForm,
    env: Mapping[str, Any],
    t: np.ndarray,
    ctx: Arithmetic | str,
    units: Sequence[int] | None = None,
) -> dict[str, np.ndarray]:
    """The closed-form states at times ``t`` in the arithmetic ``ctx`` (that of ``ccf``): arrays (T, batch, p);
    ``env`` holds the initial values (named as the model's init symbols) and the parameters. With ``units``, the
    states of those units only (the sums and clocks still come from every unit): arrays (T, batch, len(units))."""
    ctx = arithmetic(ctx)
    env = {k: v[None, ...] if isinstance(v, np.ndarray) else v for k, v in env.items()}
    shape = env_shape(env)
    env.update({name: apply(f, env, ctx) for name, f in ccf.coordinates.items()})
    env = unit_sums(ccf.sums, env, ctx)
    times = ctx.array(t).reshape(-1, 1, 1)
    env["t"] = times
    for name, coefficient_fns in ccf.riccati.items():
        c2, c1, c0, y0 = (_coefficient(f, env, ctx) for f in coefficient_fns)
        env[name] = _riccati(ctx, c2, c1, c0, y0, times, name in ccf.positive)
    for name, implicit in ccf.implicit.items():
        env[name] = implicit_values(implicit, env, times, ctx)
    env.update(ccf.others(env, times, ctx))
    if units is not None:
        width, units = shape[-1], list(units)
        env = {k: (v[..., units] if isinstance(v, np.ndarray) and v.shape[-1] == width else v) for k, v in env.items()}
        shape = (*shape[:-1], len(units))
    full = (len(t), *shape[1:])
    return {n: np.broadcast_to(apply(f, env, ctx), full) for n, f in ccf.state.items()}


def _riccati(ctx: Arithmetic, c2: Any, c1: Any, c0: Any, y0: Any, t: np.ndarray, positive: bool) -> Any:
    """A Riccati clock at the times ``t``: vectorized for machine numbers (a positive clock clipped to
    ``GAMMA_RANGE``), element by element at the working precision otherwise."""
    if not ctx.machine:
        return np.frompyfunc(riccati_mpmath, 5, 1)(c2, c1, c0, y0, t)
    values = riccati_numpy(c2, c1, c0, y0, t)
    return np.clip(values, *GAMMA_RANGE) if positive else values


def _per_unit(solution: ClosedForm, clock: sp.Symbol) -> bool:
    """Whether ``clock`` has one value per unit (its start depends on a symbol, or its coefficients involve a unit's
    own initial values)."""
    import sympy as sp

    from derivations.riccati import RiccatiSolution
    from derivations.separable import ImplicitSolution

    clock_solution = solution.clocks[clock]
    if not isinstance(clock_solution, (RiccatiSolution, ImplicitSolution)):
        return True  # another kind of clock: stored per unit (a shared one broadcasts into it)
    if sp.sympify(clock_solution.y0, strict=True).free_symbols:
        return True
    units = set(solution.init.values()) | set(solution.coordinates)
    return bool(clock_solution.arguments & units)


def _power_form(atom: sp.Expr, clocks: Sequence[sp.Symbol], t: sp.Symbol) -> tuple[dict[str, float], float] | None:
    """``(powers, nu)`` with ``atom = prod_g g^p_g * exp(nu t)`` (``nu`` a number), or None."""
    import sympy as sp

    powers: dict[str, float] = {}
    drift = sp.S.Zero
    for base, exponent in atom.as_powers_dict().items():
        if base in clocks and exponent.is_number:
            powers[str(base)] = float(exponent)
        elif isinstance(base, sp.exp) and exponent == 1 and (base.args[0] / t).is_number:
            drift += base.args[0] / t
        elif base is not sp.S.One:
            return None
    return powers, float(drift)


@dataclass(frozen=True)
class ClosedFormValues:
    """What ``closed_form_numpy`` returns: ``states`` (name → (T, batch, p)), the coupling ``sums`` along the
    clocks (name → (T, batch, 1); the quantities then need no sum over the units), the ``clocks`` (name →
    (T, batch, 1 or p)) and ``out_of_range``, the units (a (batch, p) mask) whose float64 evaluation left the safe
    range (an overflowed or underflowed clock, a non-finite value, inputs beyond 1e±75, a settled value that
    cancels): ``numerics.trajectory`` evaluates them again in mpmath."""

    states: dict[str, np.ndarray]
    sums: dict[str, np.ndarray]
    clocks: dict[str, np.ndarray]
    out_of_range: np.ndarray


def closed_form_numpy(
    ccf: CompiledClosedForm, env: Mapping[str, Any], t: np.ndarray, refine: bool = True
) -> ClosedFormValues:
    """The closed form in float64 from ``env`` (starts (batch, p), parameters broadcasting against them): a
    :class:`ClosedFormValues`, evaluated in blocks of ``CHUNK`` values (times × starts), each block's clocks and
    atoms computed once and the outputs written in place; its ``out_of_range`` flags the units to evaluate again
    with more digits.

    With ``refine``, a start with a unit whose settled value cancels (``_settling_cancellation``) is evaluated
    again in long double (64-bit significand) where the closed form's constants are exact there; only the units
    whose cancellation exceeds even that precision are flagged."""
    env = {k: v[None, ...] if isinstance(v, np.ndarray) else v for k, v in env.items()}
    shape = env_shape(env)
    out, clocks = _allocated(ccf, shape, len(t), float)
    flagged, cancelling = _evaluated(ccf, env, t, out, clocks, refine)
    flagged |= np.broadcast_to(_extreme(env, shape)[..., None], flagged.shape)
    rows = np.any(cancelling, axis=-1) & ~np.any(flagged, axis=-1)
    if np.any(rows) and ccf.exact_in_long_double:
        cancelling = cancelling & ~rows[..., None]
        flagged[rows] = _in_long_double(ccf, env, t, out, clocks, rows)
    if refine and ccf.other_clocks:
        flagged |= _sensitive_to_other_clocks(ccf, env, t, out, shape)
    states = {name: out[name] for name in ccf.state}
    sums = {name: out[name] for name in ccf.along}
    return ClosedFormValues(states, sums, clocks, flagged | cancelling)


CLOCK_PERTURBATION = 64 * float(np.finfo(float).eps)
"""The relative change of the ``other_clocks``' values (above their float64 accuracy, a few ulp) with which
``_sensitive_to_other_clocks`` probes the states."""
SENSITIVITY = 1e-10
"""A unit whose state moves by more than this times its scale under ``CLOCK_PERTURBATION`` is evaluated again."""


def _sensitive_to_other_clocks(
    ccf: CompiledClosedForm, env: Mapping[str, Any], t: np.ndarray, out: Mapping[str, np.ndarray], shape: tuple
) -> np.ndarray:
    """The units (batch, p) whose states are ill-conditioned in the ``other_clocks``: evaluated again with the
    clocks' values changed by ``CLOCK_PERTURBATION`` (relative), a state moving by more than ``SENSITIVITY`` times
    its largest magnitude over the times. Why: an eliminated state ``x = sign(x_0) sqrt(q(y))`` (the elimination
    reduction) inherits the accuracy of ``q(y)``, which cancels where ``x`` nears 0 at a stop of ``y`` (the tied
    layer's ``a`` as ``b`` settles): a clock accurate to ulp gives ``x`` to ``sqrt(eps)`` there, and such units
    are evaluated again with more digits instead."""
    probe, probe_clocks = _allocated(ccf, shape, len(t), float)
    _evaluated(ccf, env, t, probe, probe_clocks, False, perturb=CLOCK_PERTURBATION)
    flagged = np.zeros(shape[1:], dtype=bool)
    with np.errstate(all="ignore"):
        for name in ccf.state:
            value, moved = out[name], probe[name]
            scale = np.max(np.abs(value), axis=0)
            bad = np.any(~(np.abs(moved - value) <= SENSITIVITY * scale), axis=0)
            flagged |= np.broadcast_to(bad, flagged.shape)
    return flagged


ROW = 1 << 14
"""Values per time in a block (starts × units): a block's rows are long enough to stream."""
FINITE = np.finfo(float).max / 2
"""Below this bound on its magnitude (``Decomposed.evaluate``), a block's output is finite without a check."""


def _evaluated(
    ccf: CompiledClosedForm,
    env: Mapping[str, Any],
    t: np.ndarray,
    out: Mapping[str, np.ndarray],
    clocks_out: Mapping[str, np.ndarray],
    refine: bool,
    perturb: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Fill the outputs ``out`` and the clocks ``clocks_out`` (``_allocated``) block by block from ``env`` (arrays
    (1, batch, p)) in the precision of ``out``; return the units (batch, p) that left the range (a clipped clock,
    a non-finite value) and, with ``refine``, those whose settled value cancels. ``perturb`` scales the
    ``other_clocks``' values by ``1 + perturb`` (``_sensitive_to_other_clocks``)."""
    shape = env_shape(env)
    prepared, clocks, rates = _prepared(ccf, env)
    coefficients = ccf.float64_kernel.coefficients(prepared)
    solutions = {name: riccati_rates(*coefficients_of) for name, coefficients_of in clocks.items()}
    batch, width = shape[1], shape[-1]
    flagged = np.zeros((batch, width), dtype=bool)
    fused = _fused_usable(ccf, out, perturb)
    if fused:
        _fused_evaluation(ccf, prepared, clocks, rates, solutions, coefficients, t, out, clocks_out, flagged)
    # a block of at least ROW values per time, and of CHUNK values in all when there are few times
    starts = min(batch, max(1, ROW // width, CHUNK // (max(1, len(t)) * width)))
    times = max(1, CHUNK // (starts * width))
    for first in range(0, 0 if fused else batch, starts):
        rows = slice(first, first + starts)
        local, local_clocks, local_solutions, local_rates, local_coefficients = (
            _rows(v, rows, batch) for v in (prepared, clocks, solutions, rates, coefficients)
        )
        swapped = [_swapped(np.asarray(c)[(None,) * (3 - np.ndim(c))]).copy() for c in local_coefficients]
        block = (local, local_clocks, local_solutions, local_rates, local_coefficients, swapped)
        buffers: dict[int, np.ndarray] = {}
        for begin in range(0, len(t), times):
            targets = {name: v[begin : begin + times, rows] for name, v in out.items()}
            clock_targets = {name: v[begin : begin + times, rows] for name, v in clocks_out.items()}
            clipped, bounds = _block(ccf, *block, buffers, t[begin : begin + times], targets, clock_targets, perturb)
            flagged[rows] |= clipped[..., None]
            for name, bound in bounds.items():
                if not np.all(bound < FINITE):
                    flagged[rows] |= ~np.isfinite(targets[name]).all(axis=0)
    if not refine:
        return flagged, np.zeros_like(flagged)
    eps = np.finfo(next(iter(out.values())).dtype).eps
    cancelling = _settling_cancellation(ccf, prepared, clocks, rates, coefficients, t, eps, solutions)
    return flagged, np.broadcast_to(cancelling, flagged.shape)


def _block(
    ccf: CompiledClosedForm,
    env: dict[str, Any],
    clocks: dict[str, tuple[Any, ...]],
    solutions: dict[str, tuple[Any, ...]],
    rates: dict[str, Any],
    coefficients: list[np.ndarray],
    swapped: list[np.ndarray],
    buffers: dict[int, np.ndarray],
    t: np.ndarray,
    targets: dict[str, np.ndarray],
    clock_targets: dict[str, np.ndarray],
    perturb: float = 0.0,
) -> tuple[np.ndarray, dict[str, Any]]:
    """One block of times ``t`` and starts: the clocks (from their time-independent parts ``solutions``, clipped
    where positive, written into ``clock_targets``), then the outputs written into ``targets`` (by
    ``Decomposed.evaluate`` with units before starts:
    ``swapped`` coefficients, ``buffers`` for the products), in the increment form where a clock barely moved;
    returns the starts with a clipped clock and the bounds on the outputs' magnitudes (inf if an increment form
    value is not finite)."""
    local = dict(env, t=t.reshape(-1, 1, 1))
    clipped = np.zeros(next(iter(targets.values())).shape[1], dtype=bool)
    for name, solution in solutions.items():
        values = riccati_at(solution, local["t"])
        if name in ccf.positive:
            # two reductions per start (NaN propagates through both), the clip only where needed
            outside = ~((values.min(axis=(0, -1)) > GAMMA_RANGE[0]) & (values.max(axis=(0, -1)) < GAMMA_RANGE[1]))
            if np.any(outside):
                clipped |= outside
                np.clip(values, *GAMMA_RANGE, out=values)
        local[name] = values
    for name, implicit in ccf.implicit.items():
        local[name] = implicit_numpy(implicit, local, local["t"])
    others = ccf.others(local, local["t"], fp)
    local.update({k: v * (1 + perturb) for k, v in others.items()} if perturb else others)
    for name in (*ccf.riccati, *ccf.implicit, *ccf.other_names):
        clock_targets[name][...] = local[name]
    atoms = {name: _swapped(local[name]) for name in ccf.float64_kernel.atom_names}
    outputs = {name: _swapped(targets[name]) for name in ccf.float64_kernel.terms}
    kernel = ccf.float64_kernel
    bounds = kernel.evaluate(atoms, swapped, outputs, buffers)
    near = _near(local, clocks, rates)
    if kernel.powers is None or not np.any(near):
        return clipped, bounds
    # the increment form only at the (time, start) pairs that need it
    finite = _increment_pairs(ccf, local, clocks, rates, coefficients, np.nonzero(np.any(near, axis=-1)), targets)
    for name, good in finite.items():
        bounds[name] = np.where(good, bounds[name], np.inf)
    return clipped, bounds


def _increment_pairs(
    ccf: CompiledClosedForm,
    local: Mapping[str, Any],
    clocks: Mapping[str, tuple[Any, ...]],
    rates: Mapping[str, Any],
    coefficients: Sequence[np.ndarray],
    at: tuple[np.ndarray, ...],
    targets: Mapping[str, np.ndarray],
) -> dict[str, bool]:
    """Overwrite ``targets`` at the (time, start) pairs ``at`` with the increment form where a clock barely moved
    there (``_near``; ``local`` holds the clocks' values at the times); returns, for each output, whether the
    increment-form values are all finite."""
    kernel = ccf.float64_kernel
    local = {k: _gathered(v, at) for k, v in local.items()}
    increments = {
        name: (
            _gathered(y0, at),
            riccati_increment(
                _gathered(c2, at), _gathered(c1, at), _gathered(c0, at), _gathered(y0, at), local["t"], rate
            ),
        )
        for name, (c2, c1, c0, y0) in clocks.items()
        if (rate := _gathered(rates.get(name), at)) is not None
    }
    changed = kernel.increment_form(local, [_gathered(c, at) for c in coefficients], increments)
    gathered_clocks = {name: tuple(_gathered(c, at) for c in values) for name, values in clocks.items()}
    near = _near(local, gathered_clocks, rates)
    finite = {}
    for name, value in changed.items():
        targets[name][at] = np.where(near, value, targets[name][at])
        finite[name] = bool(np.all(np.isfinite(value)))
    return finite


def _fused_usable(ccf: CompiledClosedForm, out: Mapping[str, np.ndarray], perturb: float) -> bool:
    """Whether ``_evaluated`` takes the fused kernel: enabled for a call of this size
    (``numerics.fused.fused_enabled``), generated for this closed form, float64 outputs and no perturbed clocks."""
    kernel = ccf.kernel
    float64 = all(v.dtype == np.float64 for v in out.values())
    values = sum(v.size for v in out.values())
    return kernel is not None and bool(kernel.fused) and float64 and perturb == 0.0 and fused_enabled(values)


def _fused_evaluation(
    ccf: CompiledClosedForm,
    env: Mapping[str, Any],
    clocks: Mapping[str, tuple[Any, ...]],
    rates: Mapping[str, Any],
    solutions: Mapping[str, tuple[Any, ...]],
    coefficients: Sequence[Any],
    t: np.ndarray,
    out: Mapping[str, np.ndarray],
    clocks_out: Mapping[str, np.ndarray],
    flagged: np.ndarray,
) -> None:
    """``_evaluated``'s block loop as one call of the fused kernel over all times and starts (the same checks:
    the blow-up, the clip of a positive clock, the non-finite outputs flagged into ``flagged``), then the increment
    form at the (time, start) pairs where the kernel found a clock that barely moved."""
    kernel = ccf.float64_kernel
    function, extras = fused_kernel(kernel.fused)
    batch, width = flagged.shape
    times = np.ascontiguousarray(t, dtype=float).reshape(-1)
    plane = (batch, width)

    def planes(values: Sequence[Any]) -> np.ndarray:
        stacked = np.empty((len(values), *plane))
        for m, value in enumerate(values):
            array = np.asarray(value, dtype=float)
            stacked[m] = np.broadcast_to(array.reshape(array.shape[-2:]) if array.ndim == 3 else array, plane)
        return stacked

    for name, solution in solutions.items():  # numpy's vectorized exp, expm1: faster than numba's scalar calls
        clocks_out[name][...] = riccati_at(solution, times.reshape(-1, 1, 1))
    R = planes([solutions[name][2] for name in ccf.riccati])  # the starts y0
    E = planes([env[name] for name in extras])
    C = planes(coefficients)
    clipped = np.zeros(batch, dtype=bool)
    nonfinite = np.zeros((len(kernel.terms), *plane), dtype=bool)
    near = np.zeros((len(times), batch), dtype=bool)
    outputs = [out[name] for name in kernel.terms]
    function(times, R, E, C, clipped, nonfinite, near, *outputs, *(clocks_out[name] for name in ccf.riccati))
    flagged |= clipped[:, None]
    flagged |= np.any(nonfinite, axis=0)
    if kernel.powers is None or not np.any(near):
        return
    local = dict(env, t=times.reshape(-1, 1, 1), **{name: clocks_out[name] for name in ccf.riccati})
    finite = _increment_pairs(ccf, local, clocks, rates, coefficients, np.nonzero(near), out)
    for name, good in finite.items():
        if not good:
            flagged |= ~np.isfinite(out[name]).all(axis=0)


def _swapped(value: Any) -> Any:
    """``value`` (T, batch, units) with the units before the starts (a view)."""
    return np.swapaxes(value, -1, -2) if np.ndim(value) == 3 else value


def _near(local: Mapping[str, Any], clocks: Mapping[str, tuple], rates: Mapping[str, Any]) -> np.ndarray:
    """Where a clock with an initial rate moved by less than half its start (there the increment form is used)."""
    near = np.zeros((), dtype=bool)
    for name, (*_, y0) in clocks.items():
        if name in rates:
            with np.errstate(invalid="ignore"):
                near = near | (np.abs(local[name] - y0) < 0.5 * np.abs(y0))
    return near


def _gathered(value: Any, at: tuple[np.ndarray, ...]) -> Any:
    """``value`` (shape (T or 1, batch or 1, units)) at the (time, start) pairs ``at``: (pairs, units)."""
    if not isinstance(value, np.ndarray) or value.ndim == 0:
        return value
    times, starts = at
    return value[times if value.shape[0] > 1 else 0, starts if value.shape[1] > 1 else 0]


def _rows(value: Any, rows: slice, batch: int) -> Any:
    """``value`` (arrays (1, batch or 1, units), nested in dicts, tuples and lists) at the starts ``rows``."""
    if isinstance(value, dict):
        return {k: _rows(v, rows, batch) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(_rows(v, rows, batch) for v in value)
    if isinstance(value, np.ndarray) and value.ndim == 3 and value.shape[1] == batch:
        return value[:, rows]
    return value


def _allocated(
    ccf: CompiledClosedForm, shape: tuple[int, ...], times: int, dtype: type
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The outputs (states and sums) and the clocks of ``closed_form_numpy`` for starts of ``shape`` (1, batch,
    p), uninitialized."""
    terms = ccf.float64_kernel.terms
    out: dict[str, np.ndarray] = {
        n: np.empty((times, shape[1], 1 if n in ccf.along else shape[-1]), dtype) for n in terms
    }
    clocks: dict[str, np.ndarray] = {
        name: np.empty((times, shape[1], shape[-1] if name in ccf.per_unit else 1), dtype)
        for name in (*ccf.riccati, *ccf.implicit, *ccf.other_names)
    }
    return out, clocks


def _in_long_double(
    ccf: CompiledClosedForm,
    env: Mapping[str, Any],
    t: np.ndarray,
    out: Mapping[str, np.ndarray],
    clocks: Mapping[str, np.ndarray],
    rows: np.ndarray,
) -> np.ndarray:
    """The starts ``rows`` (a mask over the batch) evaluated again in long double and written into ``out`` and
    ``clocks`` (rounded); returns their units (rows, p) that still leave the range or cancel beyond long double's
    digits."""
    batch = len(rows)
    local = {k: _long_double(v[:, rows] if _per_start(v, batch) else v) for k, v in env.items()}
    extended, extended_clocks = _allocated(ccf, env_shape(local), len(t), np.longdouble)
    flagged, cancelling = _evaluated(ccf, local, t, extended, extended_clocks, True)
    for name, values in extended.items():
        out[name][:, rows] = values
    for name, values in extended_clocks.items():
        clocks[name][:, rows] = values
    return flagged | cancelling


def _taken(value: Any, rows: np.ndarray, batch: int) -> Any:
    """``value`` (an array (1, batch or 1, units), or not an array) at the starts ``rows`` (indices)."""
    return value[:, rows] if _per_start(value, batch) else value


def _per_start(value: Any, batch: int) -> bool:
    return isinstance(value, np.ndarray) and value.ndim == 3 and value.shape[1] == batch


def _long_double(value: Any) -> Any:
    if isinstance(value, np.ndarray) and value.dtype.kind in "iuf":
        return value.astype(np.longdouble)
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        return np.longdouble(value)
    return value


def _exact_in_long_double(solution: ClosedForm) -> bool:
    """Whether every number in the closed form's numpy code is exact in long double (dyadic rationals with
    at most 53-bit numerators, no irrational constant), so that a long double evaluation is one."""
    import sympy as sp

    if len(solution.riccati) != len(solution.clocks):
        return False
    expressions = [
        *stable_forms(),
        *solution.state.values(),
        *solution.along.values(),
        *solution.sums.values(),
        *solution.coordinates.values(),
        *solution.initial_rates.values(),
        *(getattr(sol, name) for sol in solution.clocks.values() for name in ("c2", "c1", "c0", "y0")),
    ]
    return all(_dyadic(sp.sympify(e)) for e in expressions)


def _dyadic(expr: sp.Expr) -> bool:
    import sympy as sp

    for node in sp.preorder_traversal(expr):
        if node.is_number:
            exact = isinstance(node, sp.Rational) and abs(node.p) < 2**53 and node.q & (node.q - 1) == 0
            if not exact:
                return False
    return True


CANCELLATION = 64
"""A settled output whose terms cancel by more than this factor beyond its conditioning is evaluated again (in
float64; in long double, by more than the factor at which its rounding error reaches float64's, ``EPS / eps``)."""
EPS = np.finfo(float).eps
PROBE = 2.0**-14
"""Relative size of the random perturbation of the starts that estimates an output's conditioning."""


def _settling_cancellation(ccf, env, clocks, rates, coefficients, t, eps=EPS, solutions=None) -> np.ndarray | bool:
    """Units (batch, p) whose outputs at the last time (where units have settled) lose more digits to the
    cancellation of the sum (in the precision of ``eps``) than their conditioning excuses (a unit settling to a
    small value from large terms, by a conservation law, not by chance): those starts are evaluated again with
    more digits.

    The conditioning is estimated by the same evaluation from starts perturbed by ``PROBE`` (random signs); the
    rounding error of the estimate itself is bounded, and where it cannot be told apart the unit is flagged.
    Mid-trajectory cancellation, at a sign change, is as ill-conditioned as the problem there."""
    if not clocks or ccf.implicit or ccf.other_clocks or len(t) == 0:
        return False
    last = np.asarray([[[np.max(t)]]], dtype=np.result_type(eps, float))
    base = _outputs_at(ccf, env, clocks, rates, coefficients, last, solutions)
    allowed = CANCELLATION if eps >= EPS else EPS / eps
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        factors = {name: bound / np.abs(x) for name, (x, bound) in base.items()}
        shape = env_shape(env)
        batch = shape[1]
        suspect = np.zeros(batch, dtype=bool)
        for f in factors.values():
            suspect |= np.broadcast_to(np.any(~(f <= allowed), axis=(0, -1)), (batch,))
        if not np.any(suspect):
            return False
        # the conditioning is estimated for the suspect starts only (each start's estimate is its own)
        rows = np.flatnonzero(suspect)
        moved = _perturbed_outputs(ccf, env, last, rows)
        flags = []
        for name, (x, bound) in base.items():
            x, bound, factor = (_taken(v, rows, batch) for v in (x, bound, factors[name]))
            condition = np.abs(moved[name] - x) / (PROBE * np.abs(x))
            noise = 4 * eps * factor / PROBE
            unresolved = ~(condition > 8 * noise)
            excess = ~(factor <= allowed * np.maximum(1, condition)) | unresolved
            flags.append(np.any(~(factor <= allowed) & excess & (bound > 0), axis=0))
    flagged = np.zeros((batch, shape[-1]), dtype=bool)
    flagged[rows] = np.any([np.broadcast_to(f, (len(rows), shape[-1])) for f in flags], axis=0)
    return flagged


def _outputs_at(ccf, env, clocks, rates, coefficients, t, solutions=None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The kernel's outputs and their terms' magnitudes (``Decomposed.sums_and_bounds``) at the times ``t``; the
    clocks from their time-independent parts ``solutions`` (``riccati_rates`` of ``clocks``) where given."""
    local = dict(env, t=t)
    increments = {}
    for name, (c2, c1, c0, y0) in clocks.items():
        if solutions is None:
            local[name] = riccati_numpy(c2, c1, c0, y0, t)
        else:  # the same values: riccati_numpy is riccati_at of riccati_rates
            local[name] = riccati_at(solutions[name], t)
        if name in rates:
            increments[name] = (real_array(y0), riccati_increment(c2, c1, c0, y0, t, rates[name]))
    near = _near(local, clocks, rates)
    return ccf.float64_kernel.sums_and_bounds(local, coefficients, increments, near)


def _perturbed_outputs(
    ccf: CompiledClosedForm, env: Mapping[str, Any], last: np.ndarray, rows: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """The kernel's outputs at ``last`` from the starts times ``1 ± PROBE`` (signs from a fixed seed, drawn for
    the whole batch), of the starts ``rows`` (indices; all if None)."""
    rng = np.random.default_rng(0)
    local = {
        k: (v * (1 + PROBE * rng.choice((-1.0, 1.0), size=np.shape(v))) if k in ccf.starts else v)
        for k, v in env.items()
    }
    if rows is not None:
        batch = env_shape(env)[1]
        local = {k: _taken(v, rows, batch) for k, v in local.items()}
    local, clocks, rates = _prepared(ccf, local)
    moved = _outputs_at(ccf, local, clocks, rates, ccf.float64_kernel.coefficients(local), last)
    return {name: x for name, (x, _) in moved.items()}


def _prepared(ccf: CompiledClosedForm, env: Mapping[str, Any]) -> tuple[dict[str, Any], dict, dict]:
    """``env`` with the eigen-coordinates and the sums over the units, the Riccati clocks' coefficients
    (c2, c1, c0, y0) and their initial rates (for the increment form), in float64 (long double from long
    doubles)."""
    env = dict(env)
    env.update({name: apply(f, env, fp) for name, f in ccf.coordinates.items()})
    env = unit_sums(ccf.sums, env, fp)
    clocks = {name: tuple(_coefficient(f, env, fp) for f in fns) for name, fns in ccf.riccati.items()}
    rates = {name: real_array(apply(f, env, fp)) for name, f in ccf.initial_rates.items()}
    return env, clocks, rates


SAFE = 1e75


def _extreme(env: Mapping[str, Any], shape: tuple[int, ...]) -> np.ndarray:
    """Starts whose initial values or parameters (nonzero) lie beyond ``SAFE`` or below ``1/SAFE`` in magnitude,
    where products of a few of them leave the float64 range."""
    flags = np.zeros(shape[1:-1], dtype=bool)
    for value in env.values():
        if isinstance(value, str):
            continue
        magnitude = np.abs(np.asarray(value, dtype=float))
        outside = (magnitude > SAFE) | ((magnitude > 0) & (magnitude < 1 / SAFE))
        if outside.ndim >= 2:
            flags |= np.any(np.broadcast_to(outside, shape), axis=(0, -1))
        elif np.any(outside):
            flags[...] = True
    return flags


def _coefficient(f: Callable[..., object], env: Mapping[str, Any], ctx: Arithmetic) -> Any:
    if f.names:  # type: ignore[attr-defined]  # a Lambdified
        return apply(f, env, ctx)
    return ctx.number(f())
