"""Lambdified per-unit functions of a model: its vector field and its quantities (closed forms: ``closed_form``).

Everything is compiled once per (model, backend) from the SymPy objects of ``derivations``; arrays carry
units on the last axis, so one compiled function serves every width and batch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import mpmath
import numpy as np
import sympy as sp

from derivations.model import Model

__all__ = ["CompiledModel", "compiled"]


@dataclass(frozen=True)
class CompiledModel:
    """Compiled callables; every one takes keyword arguments named by the model's symbols."""

    model: Model
    field: dict[str, Callable[..., object]]
    sum_summands: dict[str, Callable[..., object]]
    unit_quantities: dict[str, Callable[..., object]]
    scalar_quantities: dict[str, Callable[..., object]]


def lambdified(expr: sp.Expr, backend: str) -> Callable[..., object]:
    """``expr`` as a callable taking keyword arguments named by its free symbols (listed in ``.names``)."""
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
    field = {str(s): lambdified(e, backend) for s, e in model.unit_field.items()}
    sums = {n: lambdified(q.expr, backend) for n, q in quantities.items() if q.kind == "sum"}
    units = {n: lambdified(q.expr, backend) for n, q in quantities.items() if q.kind == "unit"}
    scalars = {n: lambdified(q.expr, backend) for n, q in quantities.items() if q.kind == "scalar"}
    return CompiledModel(model, field, sums, units, scalars)


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
