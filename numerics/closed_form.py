"""Evaluate a model's derived closed form (``derivations.solve``) on arrays, in float64 or in mpmath.

The closed form is compiled once per (model, backend): the sums' summands, each clock's solution (a Riccati clock
through the engine's stable form, ``numerics.riccati``; an implicit one through a bracketed root solve,
``numerics.implicit``) and the state in terms of the clocks. Arrays carry units on the last axis, so one compiled
closed form serves every width and batch.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import mpmath
import numpy as np

from .cache import Generated, artifact
from .compiled import lambdified
from .evaluate import apply, unit_sums
from .implicit import CompiledImplicit, implicit_mpmath, implicit_numpy
from .model_spec import ModelSpec, spec_of
from .riccati import riccati_increment, riccati_mpmath, riccati_numpy

if TYPE_CHECKING:
    import sympy as sp

    from derivations.closed_form import ClosedForm
    from derivations.model import Model

__all__ = ["CompiledClosedForm", "Decomposed", "closed_form_numpy", "closed_form_state", "compiled_closed_form"]

# A positive clock (gamma) is clipped to the normal float64 range: it only reaches 0 or inf in degenerate branches
# (a sum of squares that vanishes), where the factor it multiplies is exactly zero.
GAMMA_RANGE = (np.finfo(float).tiny, np.finfo(float).max)
CHUNK = 1 << 16
"""Values per array in one block of times: the temporaries of a block stay in the cache."""
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
    starts: dict[str, str] | None = None

    @classmethod
    def of(
        cls,
        exprs: Mapping[str, sp.Expr],
        clocks: Sequence[sp.Symbol],
        t: sp.Symbol,
        starts: Mapping[str, str] | None = None,
    ) -> Decomposed:
        """Split each of ``exprs`` over the atoms (the factors of its terms that depend on ``clocks`` or ``t``);
        ``starts`` names each expression's value at t = 0 (for the increment form)."""
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
        generated = Generated(sp.lambdify(arguments, atoms, modules="numpy", cse=True))
        compiled = tuple((index, lambdified(coefficient, "numpy")) for index, coefficient in products)
        powers = [_power_form(atom, clocks, t) for atom in atoms]
        usable = None if any(p is None for p in powers) else tuple(powers)
        return cls(generated, tuple(str(a) for a in arguments), compiled, terms, usable, dict(starts or {}))

    def coefficients(self, env: Mapping[str, object]) -> list[np.ndarray]:
        """The products' coefficients, evaluated once (per start or unit) from ``env``."""
        return [np.asarray(apply(f, env, "numpy"), dtype=float) for _, f in self.products]

    def evaluate(
        self,
        env: Mapping[str, object],
        coefficients: Sequence[np.ndarray],
        out: Mapping[str, np.ndarray],
        where: slice,
        increments: Mapping[str, tuple[np.ndarray, np.ndarray]] | None = None,
    ) -> None:
        """Write each expression at the times ``where`` into ``out[name][where]`` (the atoms from ``env``).

        ``increments`` (clock name → (start, increment ``y - y0``)) switch on the increment form where a clock
        has moved by less than half its start: there ``x = x(0) + sum_m c_m (B_m - B_m(0))`` with
        ``B_m - B_m(0) = B_m(0) expm1(sum_g p_g log1p(dy_g / y0_g) + nu t)``, which keeps the digits that the
        direct sum loses to cancellation when the state barely moves (a lazy unit, a tiny target)."""
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            atoms = self.atoms(*(env[n] for n in self.atom_names))
            values = [np.multiply(c, atoms[index]) for (index, _), c in zip(self.products, coefficients, strict=True)]
            self._combine(values, {name: out[name][where] for name in self.terms})
            if not increments or self.powers is None:
                return
            near = np.any([np.abs(dy) < 0.5 * np.abs(y0) for y0, dy in increments.values()], axis=0)
            if not np.any(near):
                return
            changes = [self._change(index, increments, env["t"]) for index, _ in self.products]
            moved = [np.multiply(c, change) for c, change in zip(coefficients, changes, strict=True)]
            scratch = {name: np.empty_like(out[name][where]) for name in self.terms}
            self._combine(moved, scratch)
            for name, value in scratch.items():
                value += env[self.starts[name]]
                np.copyto(out[name][where], value, where=np.broadcast_to(near, value.shape))

    def sums_and_bounds(
        self,
        env: Mapping[str, object],
        coefficients: Sequence[np.ndarray],
        increments: Mapping[str, tuple[np.ndarray, np.ndarray]] | None = None,
    ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Each output at the time in ``env`` with the sum of its terms' magnitudes, in the form ``evaluate``
        uses there (the increment form ``x(0) + changes`` where the clocks barely moved): where the bound exceeds
        the value by a large factor, the float64 sum cancels."""
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            atoms = self.atoms(*(env[n] for n in self.atom_names))
            values = [np.multiply(c, atoms[index]) for (index, _), c in zip(self.products, coefficients, strict=True)]
            out = {
                name: (sum(sign * values[i] for i, sign in terms), sum(np.abs(values[i]) for i, _ in terms))
                for name, terms in self.terms.items()
            }
            if not increments or self.powers is None:
                return out
            near = np.any([np.abs(dy) < 0.5 * np.abs(y0) for y0, dy in increments.values()], axis=0)
            changes = [
                np.multiply(c, self._change(index, increments, env["t"]))
                for (index, _), c in zip(self.products, coefficients, strict=True)
            ]
            for name, terms in self.terms.items():
                start = env[self.starts[name]]
                x = start + sum(sign * changes[i] for i, sign in terms)
                bound = np.abs(start) + sum(np.abs(changes[i]) for i, _ in terms)
                out[name] = (np.where(near, x, out[name][0]), np.where(near, bound, out[name][1]))
            return out

    def _combine(self, values: Sequence[np.ndarray], targets: Mapping[str, np.ndarray]) -> None:
        for name, terms in self.terms.items():
            target = targets[name]
            (first, sign), *rest = terms
            np.multiply(values[first], sign, out=target) if sign < 0 else np.copyto(target, values[first])
            for index, sign in rest:
                (np.add if sign > 0 else np.subtract)(target, values[index], out=target)

    def _change(self, index: int, increments: Mapping[str, tuple[np.ndarray, np.ndarray]], t: np.ndarray):
        powers, drift = self.powers[index]
        exponent = drift * t if drift != 0 else 0.0
        start = 1.0
        for name, power in powers.items():
            y0, dy = increments[name]
            exponent = exponent + power * np.log1p(dy / y0)
            start = start * np.power(y0, power)
        return start * np.expm1(exponent)


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


def compiled_closed_form(model: str | Model | ModelSpec, backend: str = "numpy") -> CompiledClosedForm:
    """The compiled closed form of ``model`` (through the disk cache); ``ValueError`` quoting the reason if
    ``derivations.solve`` found none."""
    spec = spec_of(model)
    built = artifact(spec.key, f"closed-form-{backend}", lambda: _compiled_closed_form(spec.model, backend))
    if isinstance(built, str):
        raise ValueError(f"method='closed_form' needs a closed form: {built}")
    return built


def _compiled_closed_form(model: Model, backend: str) -> CompiledClosedForm | str:
    """The compiled closed form, or the text of ``Unsolved``."""
    import sympy as sp

    from derivations.closed_form import Unsolved
    from derivations.riccati import RiccatiSolution

    solution = model.solution
    if isinstance(solution, Unsolved):
        return str(solution)
    riccati, implicit = {}, {}
    for clock, sol in solution.clocks.items():
        if isinstance(sol, RiccatiSolution):
            riccati[str(clock)] = tuple(
                lambdified(sp.sympify(c, strict=True), backend) for c in (sol.c2, sol.c1, sol.c0, sol.y0)
            )
        else:
            implicit[str(clock)] = CompiledImplicit.of(sol, backend)
    general = solution.general.reason if solution.general else "not solved"
    return CompiledClosedForm(
        solution.model,
        {str(s): lambdified(e, backend) for s, e in solution.coordinates.items()},
        {str(s): lambdified(e, backend) for s, e in solution.sums.items()},
        riccati,
        implicit,
        {n: lambdified(e, backend) for n, e in solution.state.items()},
        tuple((str(c), lambdified(c, backend)) for c in solution.condition),
        tuple((str(c), lambdified(c, "numpy")) for c in solution.nonzero),
        frozenset(str(g) for g in solution.clocks if g.is_positive),
        general,
        frozenset(str(g) for g, sol in solution.clocks.items() if sol.y0.free_symbols or _per_unit(solution, g)),
        tuple(str(q) for q in solution.along),
        tuple(str(s) for s in solution.init.values()),
        Decomposed.of(
            {**solution.state, **{str(q): e for q, e in solution.along.items()}},
            list(solution.clocks),
            solution.t,
            {**{n: str(s) for n, s in solution.init.items()}, **{str(q): f"{q}(0)" for q in solution.along}},
        )
        if backend == "numpy"
        else None,
        {str(g): lambdified(e, "numpy") for g, e in solution.initial_rates.items() if g in solution.riccati},
    )


def check_condition(ccf: CompiledClosedForm, init: Mapping[str, np.ndarray], params: Mapping[str, object]) -> None:
    """``ValueError`` unless the parameters avoid the derivation's divisions and every unit's start lies on the set
    where the closed form holds."""
    for expr, f in ccf.nonzero:
        values = {k: np.asarray(v, dtype=float) for k, v in params.items()}
        if np.any(np.asarray(apply(f, values, "numpy")) == 0):
            raise ValueError(f"params: the closed form of {ccf.model} needs {expr} != 0")
    if not ccf.condition:
        return
    scale = np.max(np.abs(np.stack([np.asarray(v, dtype=float) for v in init.values()])), axis=0)
    for expr, f in ccf.condition:
        value = np.abs(np.asarray(apply(f, init, "numpy"), dtype=float))
        if np.any(value > CONDITION_TOLERANCE * scale):
            raise ValueError(
                f"init: the closed form of {ccf.model} holds only for starts with {expr} = 0 for every "
                f"unit (largest violation {value.max():.3g}); from a general start: {ccf.general}"
            )


def closed_form_state(
    ccf: CompiledClosedForm,
    env: Mapping[str, object],
    t: np.ndarray,
    backend: str,
    units: Sequence[int] | None = None,
) -> dict[str, object]:
    """The closed-form states at times ``t``: arrays (T, batch, p); ``env`` holds the initial values (named as
    the model's init symbols) and the parameters. With ``units``, the states of those units only (the sums and
    clocks still come from every unit): arrays (T, batch, len(units))."""
    env = {k: v[None, ...] if isinstance(v, np.ndarray) else v for k, v in env.items()}
    shape = np.broadcast_shapes(*(np.shape(v) for v in env.values() if isinstance(v, np.ndarray)))
    env.update({name: apply(f, env, backend) for name, f in ccf.coordinates.items()})
    env = unit_sums(ccf.sums, env, backend)
    times = t.reshape(-1, 1, 1) if backend == "numpy" else np.asarray(t, dtype=object).reshape(-1, 1, 1)
    env["t"] = times
    for name, coefficient_fns in ccf.riccati.items():
        c2, c1, c0, y0 = (_coefficient(f, env, backend) for f in coefficient_fns)
        if backend == "numpy":
            values = riccati_numpy(c2, c1, c0, y0, times)
            env[name] = np.clip(values, *GAMMA_RANGE) if name in ccf.positive else values
        else:
            env[name] = np.frompyfunc(riccati_mpmath, 5, 1)(c2, c1, c0, y0, times)
    for name, implicit in ccf.implicit.items():
        solver = implicit_numpy if backend == "numpy" else implicit_mpmath
        env[name] = solver(implicit, env, times)
    if units is not None:
        width, units = shape[-1], list(units)
        env = {k: (v[..., units] if isinstance(v, np.ndarray) and v.shape[-1] == width else v) for k, v in env.items()}
        shape = (*shape[:-1], len(units))
    full = (len(t), *shape[1:])
    return {n: np.broadcast_to(apply(f, env, backend), full) for n, f in ccf.state.items()}


def _per_unit(solution: ClosedForm, clock: sp.Symbol) -> bool:
    """Whether ``clock`` has one value per unit (its coefficients involve a unit's own initial values)."""
    import sympy as sp

    from derivations.riccati import RiccatiSolution

    clock_solution = solution.clocks[clock]
    units = set(solution.init.values()) | set(solution.coordinates)
    expressions = (
        (clock_solution.c2, clock_solution.c1, clock_solution.c0, clock_solution.y0)
        if isinstance(clock_solution, RiccatiSolution)
        else (clock_solution.y0, clock_solution.rhs)
    )
    return any(sp.sympify(e, strict=True).free_symbols & units for e in expressions)


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


def closed_form_numpy(
    ccf: CompiledClosedForm, env: Mapping[str, object], t: np.ndarray, refine: bool = True
) -> dict[str, np.ndarray]:
    """The closed form in float64, evaluated in blocks of times (``CHUNK`` values per array), each block's clocks
    and atoms computed once and the outputs written in place: the states (T, batch, p) and the coupling sums along
    the clocks (T, batch, 1; the quantities then need no sum over the units). ``OUT_OF_RANGE`` flags the units
    to evaluate again with more digits (with ``refine``, also those whose settled value cancels)."""
    env = {k: v[None, ...] if isinstance(v, np.ndarray) else v for k, v in env.items()}
    shape = np.broadcast_shapes(*(np.shape(v) for v in env.values() if isinstance(v, np.ndarray)))
    env, clocks, rates = _prepared(ccf, env)
    out = {n: np.empty((len(t), *shape[1:-1], 1 if n in ccf.along else shape[-1])) for n in ccf.kernel.terms}
    out.update(
        {
            CLOCK + g: np.empty((len(t), *shape[1:-1], shape[-1] if g in ccf.per_unit else 1))
            for g in (*ccf.riccati, *ccf.implicit)
        }
    )
    clipped = np.zeros(shape[1:-1], dtype=bool)
    coefficients = ccf.kernel.coefficients(env)
    step = max(1, CHUNK // max(1, int(np.prod(shape[1:]))))
    for start in range(0, len(t), step):
        where = slice(start, start + step)
        local, increments = _at(clocks, rates, env, t[where].reshape(-1, 1, 1))
        for name in ccf.positive & set(clocks):
            values = local[name]
            clipped |= np.any(~((values > GAMMA_RANGE[0]) & (values < GAMMA_RANGE[1])), axis=(0, -1))
            local[name] = np.clip(values, *GAMMA_RANGE)
        for name, implicit in ccf.implicit.items():
            local[name] = implicit_numpy(implicit, local, local["t"])
        for name in (*ccf.riccati, *ccf.implicit):
            out[CLOCK + name][where] = local[name]
        ccf.kernel.evaluate(local, coefficients, out, where, increments)
    units = shape[1:]
    starts = (clipped | _extreme(env, shape))[..., None]
    elements = [~np.isfinite(v).all(axis=0) for k, v in out.items() if not k.startswith(CLOCK)]
    out[OUT_OF_RANGE] = (
        np.broadcast_to(starts, units)
        | np.any([np.broadcast_to(e, units) for e in elements], axis=0)
        | (refine and _settling_cancellation(ccf, env, clocks, rates, coefficients, t))
    )
    return out


CANCELLATION = 64
"""A settled output whose terms cancel by more than this factor beyond its conditioning is evaluated again."""
PROBE = 2.0**-14
"""Relative size of the random perturbation of the starts that estimates an output's conditioning."""


def _settling_cancellation(ccf, env, clocks, rates, coefficients, t) -> np.ndarray | bool:
    """Units (batch, p) whose outputs at the last time (where units have settled) lose more digits to the
    cancellation of the float64 sum than their conditioning excuses (a unit settling to a small value from large
    terms, by a conservation law, not by chance): those starts are evaluated again with more digits.

    The conditioning is estimated by the same evaluation from starts perturbed by ``PROBE`` (random signs); the
    float64 error of the estimate itself is bounded, and where it cannot be told apart the unit is flagged.
    Mid-trajectory cancellation, at a sign change, is as ill-conditioned as the problem there."""
    if not clocks or ccf.implicit or len(t) == 0:
        return False
    last = np.asarray([[[float(np.max(t))]]])
    local, increments = _at(clocks, rates, env, last)
    base = ccf.kernel.sums_and_bounds(local, coefficients, increments)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        factors = {name: bound / np.abs(x) for name, (x, bound) in base.items()}
        if not any(np.any(~(f <= CANCELLATION)) for f in factors.values()):
            return False
        moved = _perturbed_outputs(ccf, env, last)
        flags = []
        for name, (x, bound) in base.items():
            condition = np.abs(moved[name] - x) / (PROBE * np.abs(x))
            noise = 4 * np.finfo(float).eps * factors[name] / PROBE
            unresolved = ~(condition > 8 * noise)
            excess = ~(factors[name] <= CANCELLATION * np.maximum(1, condition)) | unresolved
            flags.append(np.any(~(factors[name] <= CANCELLATION) & excess & (bound > 0), axis=0))
    shape = np.broadcast_shapes(*(np.shape(f) for f in flags))
    return np.any([np.broadcast_to(f, shape) for f in flags], axis=0)


def _perturbed_outputs(ccf: CompiledClosedForm, env: Mapping[str, object], last: np.ndarray) -> dict[str, np.ndarray]:
    """The kernel's outputs at ``last`` from the starts times ``1 ± PROBE`` (signs from a fixed seed)."""
    rng = np.random.default_rng(0)
    local = {
        k: (v * (1 + PROBE * rng.choice((-1.0, 1.0), size=np.shape(v))) if k in ccf.starts else v)
        for k, v in env.items()
    }
    local, clocks, rates = _prepared(ccf, local)
    at, increments = _at(clocks, rates, local, last)
    moved = ccf.kernel.sums_and_bounds(at, ccf.kernel.coefficients(local), increments)
    return {name: x for name, (x, _) in moved.items()}


def _prepared(ccf: CompiledClosedForm, env: Mapping[str, object]) -> tuple[dict[str, object], dict, dict]:
    """``env`` with the eigen-coordinates and the sums over the units, the Riccati clocks' coefficients
    (c2, c1, c0, y0) and their initial rates (for the increment form), in float64."""
    env = dict(env)
    env.update({name: apply(f, env, "numpy") for name, f in ccf.coordinates.items()})
    env = unit_sums(ccf.sums, env, "numpy")
    clocks = {name: tuple(_coefficient(f, env, "numpy") for f in fns) for name, fns in ccf.riccati.items()}
    rates = {name: np.asarray(apply(f, env, "numpy"), dtype=float) for name, f in ccf.initial_rates.items()}
    return env, clocks, rates


def _at(clocks, rates, env, t) -> tuple[dict[str, object], dict[str, tuple[np.ndarray, np.ndarray]]]:
    """``env`` at the times ``t`` with the Riccati clocks' values, and their increments for the increment form."""
    local = dict(env, t=t)
    increments = {}
    for name, (c2, c1, c0, y0) in clocks.items():
        local[name] = riccati_numpy(c2, c1, c0, y0, t)
        if name in rates:
            increments[name] = (np.asarray(y0, dtype=float), riccati_increment(c2, c1, c0, y0, t, rates[name]))
    return local, increments


CLOCK = "clock:"
"""Prefix of the clocks' values (T, batch, 1 or p) among ``closed_form_numpy``'s outputs."""
OUT_OF_RANGE = "__out_of_range__"
"""Key of the units (a (batch, p) mask) whose float64 evaluation left the safe range (an overflowed or underflowed
clock, a non-finite value, inputs beyond 1e±75, a settled value that cancels): ``numerics.trajectory`` evaluates
them again in mpmath."""
SAFE = 1e75


def _extreme(env: Mapping[str, object], shape: tuple[int, ...]) -> np.ndarray:
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


def _coefficient(f: Callable[..., object], env: Mapping[str, object], backend: str) -> object:
    if f.names:  # type: ignore[attr-defined]
        return apply(f, env, backend)
    value = f()
    return float(value) if backend == "numpy" else mpmath.mpf(value)
