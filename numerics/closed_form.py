"""Evaluate a model's derived closed form (``derivations.solve``) on arrays, in float64 or in mpmath.

The closed form is compiled once per (model, backend): the sums' summands, each clock's solution (a Riccati clock
through the engine's stable form, ``numerics.riccati``; an implicit one through a bracketed root solve,
``numerics.implicit``) and the state in terms of the clocks. Arrays carry units on the last axis, so one compiled
closed form serves every width and batch.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

import mpmath
import numpy as np
import sympy as sp

from derivations.closed_form import ClosedForm, Unsolved
from derivations.model import Model
from derivations.riccati import RiccatiSolution

from .compiled import lambdified
from .evaluate import apply, unit_sums
from .implicit import CompiledImplicit, implicit_mpmath, implicit_numpy
from .riccati import riccati_mpmath, riccati_numpy

__all__ = ["CompiledClosedForm", "closed_form_state", "compiled_closed_form"]

# A positive clock (gamma) is clipped to the normal float64 range: it only reaches 0 or inf in degenerate branches
# (a sum of squares that vanishes), where the factor it multiplies is exactly zero.
GAMMA_RANGE = (np.finfo(float).tiny, np.finfo(float).max)
CONDITION_TOLERANCE = 1e-12
"""A start satisfies a closed form's condition if each expression is at most this times the unit's largest
initial value in absolute value."""


@dataclass(frozen=True)
class CompiledClosedForm:
    """Compiled callables of a closed form; each takes keyword arguments named by the model's symbols."""

    closed_form: ClosedForm
    coordinates: dict[str, Callable[..., object]]
    sums: dict[str, Callable[..., object]]
    riccati: dict[str, tuple[Callable[..., object], ...]]
    implicit: dict[str, CompiledImplicit]
    state: dict[str, Callable[..., object]]
    condition: tuple[Callable[..., object], ...]
    nonzero: tuple[Callable[..., object], ...]
    positive: frozenset[str]


@cache
def compiled_closed_form(model: Model, backend: str = "numpy") -> CompiledClosedForm:
    """The compiled closed form of ``model``; ``ValueError`` quoting the reason if ``derivations.solve`` found
    none."""
    solution = model.solution
    if isinstance(solution, Unsolved):
        raise ValueError(f"method='closed_form' needs a closed form: {solution}")
    riccati, implicit = {}, {}
    for clock, sol in solution.clocks.items():
        if isinstance(sol, RiccatiSolution):
            riccati[str(clock)] = tuple(lambdified(sp.sympify(c), backend) for c in (sol.c2, sol.c1, sol.c0, sol.y0))
        else:
            implicit[str(clock)] = CompiledImplicit.of(sol, backend)
    return CompiledClosedForm(
        solution,
        {str(s): lambdified(e, backend) for s, e in solution.coordinates.items()},
        {str(s): lambdified(e, backend) for s, e in solution.sums.items()},
        riccati,
        implicit,
        {n: lambdified(e, backend) for n, e in solution.state.items()},
        tuple(lambdified(c, backend) for c in solution.condition),
        tuple(lambdified(c, "numpy") for c in solution.nonzero),
        frozenset(str(g) for g in solution.clocks if g.is_positive),
    )


def check_condition(ccf: CompiledClosedForm, init: Mapping[str, np.ndarray], params: Mapping[str, object]) -> None:
    """``ValueError`` unless the parameters avoid the derivation's divisions and every unit's start lies on the set
    where the closed form holds."""
    for expr, f in zip(ccf.closed_form.nonzero, ccf.nonzero, strict=True):
        values = {k: np.asarray(v, dtype=float) for k, v in params.items()}
        if np.any(np.asarray(apply(f, values, "numpy")) == 0):
            raise ValueError(f"params: the closed form of {ccf.closed_form.model} needs {expr} != 0")
    if not ccf.condition:
        return
    scale = np.max(np.abs(np.stack([np.asarray(v, dtype=float) for v in init.values()])), axis=0)
    for expr, f in zip(ccf.closed_form.condition, ccf.condition, strict=True):
        value = np.abs(np.asarray(apply(f, init, "numpy"), dtype=float))
        if np.any(value > CONDITION_TOLERANCE * scale):
            general = ccf.closed_form.general
            raise ValueError(
                f"init: the closed form of {ccf.closed_form.model} holds only for starts with {expr} = 0 for every "
                f"unit (largest violation {value.max():.3g}); from a general start: "
                f"{general.reason if general else 'not solved'}"
            )


def closed_form_state(
    ccf: CompiledClosedForm, env: Mapping[str, object], t: np.ndarray, backend: str
) -> dict[str, object]:
    """The closed-form states at times ``t``: arrays (T, batch, p); ``env`` holds the initial values (named as
    the model's init symbols) and the parameters."""
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
    full = (len(t), *shape[1:])
    return {n: np.broadcast_to(apply(f, env, backend), full) for n, f in ccf.state.items()}


def _coefficient(f: Callable[..., object], env: Mapping[str, object], backend: str) -> object:
    if f.names:  # type: ignore[attr-defined]
        return apply(f, env, backend)
    value = f()
    return float(value) if backend == "numpy" else mpmath.mpf(value)
