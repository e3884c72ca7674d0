"""Lambdified per-unit functions of a model: its vector field, its quantities and its closed form.

Everything is compiled once per (model, backend) from the SymPy objects of ``derivations``; arrays carry
units on the last axis, so one compiled function serves every width and batch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import mpmath
import numpy as np
import sympy as sp

from derivations.model import Model
from derivations.scale_invariance import scaling_groups

__all__ = ["CompiledModel", "compiled"]


@dataclass(frozen=True)
class CompiledModel:
    """Compiled callables; every one takes keyword arguments named by the model's symbols."""

    model: Model
    field: dict[str, Callable[..., object]]
    sum_summands: dict[str, Callable[..., object]]
    unit_quantities: dict[str, Callable[..., object]]
    scalar_quantities: dict[str, Callable[..., object]]
    cf_sums: dict[str, Callable[..., object]]
    cf_riccati: dict[str, tuple[Callable[..., object], ...]]
    cf_state: dict[str, Callable[..., object]]
    cf_positive: frozenset[str] = frozenset()
    scalar_scaling: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)


def _lambdify(expr: sp.Expr, backend: str) -> Callable[..., object]:
    symbols = sorted(expr.free_symbols, key=str)
    names = [str(s) for s in symbols]
    modules = "numpy" if backend == "numpy" else "mpmath"
    f = sp.lambdify(symbols, expr, modules=modules)

    def call(**values: object) -> object:
        return f(*(values[n] for n in names))

    call.names = names  # type: ignore[attr-defined]
    return call


@cache
def compiled(model: Model, backend: str = "numpy") -> CompiledModel:
    """The compiled functions of ``model`` for ``backend`` (``"numpy"`` or ``"mpmath"``)."""
    quantities = model.quantities
    vector_field = {str(s): _lambdify(e, backend) for s, e in model.unit_field.items()}
    sums = {n: _lambdify(q.expr, backend) for n, q in quantities.items() if q.kind == "sum"}
    units = {n: _lambdify(q.expr, backend) for n, q in quantities.items() if q.kind == "unit"}
    scalars = {n: _lambdify(q.expr, backend) for n, q in quantities.items() if q.kind == "scalar"}
    cf = model.closed_form if model.solver is not None else None
    cf_sums, cf_riccati, cf_state, positive = {}, {}, {}, frozenset()
    if cf is not None:
        cf_sums = {str(s): _lambdify(e, backend) for s, e in cf.sums.items()}
        cf_riccati = {
            str(g): tuple(_lambdify(sp.sympify(c, strict=True), backend) for c in (sol.c2, sol.c1, sol.c0, sol.y0))
            for g, sol in cf.riccati.items()
        }
        cf_state = {n: _lambdify(e, backend) for n, e in cf.state.items()}
        positive = frozenset(str(g) for g in cf.riccati if g.is_positive)
    scaling = {n: groups for n in scalars if (groups := scaling_groups(model, n))}
    return CompiledModel(model, vector_field, sums, units, scalars, cf_sums, cf_riccati, cf_state, positive, scaling)


def mp_vectorize(f: Callable[..., object]) -> Callable[..., np.ndarray]:
    """Broadcast a scalar mpmath callable over object arrays (keyword arguments)."""

    def call(**values: object) -> np.ndarray:
        names = list(values)
        ufunc = np.frompyfunc(lambda *args: f(**dict(zip(names, args, strict=True))), len(names), 1)
        return ufunc(*(np.asarray(values[n], dtype=object) for n in names)) if names else np.asarray(f())

    return call


def to_mpf(array: np.ndarray) -> np.ndarray:
    """An object array of ``mpmath.mpf`` (exact conversion of float64 values; ``mpf`` entries are kept)."""
    array = np.asarray(array)
    return np.frompyfunc(mpmath.mpf, 1, 1)(array if array.dtype == object else array.astype(float))
