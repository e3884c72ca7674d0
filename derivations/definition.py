"""Checks of a user's ``Model`` definition at construction (issue 27): every field of the right type and within its
admissible values, and the user's functions probed at widths 1 and 2, so that a bad definition is a ``TypeError`` or
``ValueError`` naming the field, never a ``KeyError``, ``IndexError`` or ``SympifyError`` from inside the package.

The probe builds the symbols at :data:`PROBE_WIDTHS`, calls ``network``, ``target``, ``moment`` and ``regularizer``
on them and checks what they return: real SymPy expressions, and input moments that a random vector can have
(finite, real, symmetric, ``E[x_i^2]`` not provably negative, and a positive semidefinite matrix when its entries
are numbers). Moments in symbolic parameters are checked for their values by the model's ``param_check``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import sympy as sp

__all__ = ["DOMAINS", "PROBE_WIDTHS", "QUANTITY_KINDS", "call_user", "check_definition", "real_expressions"]

DOMAINS = ("real", "positive")
"""The admissible values of ``Model.domains``."""
QUANTITY_KINDS = ("unit", "sum", "scalar")
"""The admissible kinds of a ``Quantity``."""
PROBE_WIDTHS = (1, 2)
"""The widths at which a definition's functions are called and its moments checked at construction (width 2: the
first at which units couple and off-diagonal moments of per-unit inputs appear); wider instances call the functions
through :func:`call_user` too, and their moments in parameters are checked by the model's ``param_check``."""


def call_user(model: str, field: str, function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)``, a user's ``field`` of the model ``model``: any exception from inside it becomes a
    ``ValueError`` naming the model and the field (a raw ``KeyError`` from ``sym["c"]`` says nothing of where).

    Raises:
        ValueError: ``function`` raised; the message names ``field``, the exception and its text.
    """
    try:
        return function(*args)
    except Exception as error:  # a user's function: any failure is a bad definition of that field
        hint = (
            "it gets the width p"
            if field == "input_dim"
            else "it gets sym, mapping each state and unit-parameter name to a tuple of p symbols and each shared "
            "parameter name to its symbol" + ("" if field == "regularizer" else ", then the inputs x (or i, j)")
        )
        raise ValueError(f"{model}: the model's {field} raised {type(error).__name__}: {error} ({hint})") from error


def real_expressions(model: str, field: str, value: object) -> tuple[sp.Expr, ...]:
    """The output components of ``value`` (a ``network``'s or ``target``'s result: an expression, or a tuple, list or
    matrix of them) as SymPy expressions without an imaginary part.

    Raises:
        TypeError: a component is not a SymPy expression or number (naming ``field``).
        ValueError: a component is complex or not finite (naming ``field``).
    """
    items = tuple(value) if isinstance(value, (tuple, list, sp.MatrixBase)) else (value,)
    out = []
    for item in items:
        if isinstance(item, (bool, str)) or not isinstance(item, (sp.Basic, int, float)):
            raise TypeError(
                f"{model}: the model's {field} must give SymPy expressions (or a tuple of them), got "
                f"{type(item).__name__} {item!r}"
            )
        expr = sp.sympify(item, strict=True)
        if not isinstance(expr, sp.Expr):
            raise TypeError(f"{model}: the model's {field} must give SymPy expressions, got {expr!r}")
        if expr.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            raise ValueError(f"{model}: the model's {field} must be finite, got {expr}")
        if expr.has(sp.I) or any(n.is_real is False for n in expr.atoms(sp.Number)):
            raise ValueError(f"{model}: the model's {field} must be real-valued, got the complex {expr}")
        out.append(expr)
    return tuple(out)


def _names(model: str, field: str, value: object, nonempty: bool = False) -> None:
    if not isinstance(value, (tuple, list)) or any(not isinstance(n, str) for n in value):
        raise TypeError(f"{model}: {field} must be a tuple of names (strings), got {value!r}")
    bad = [n for n in value if not n.isidentifier()]
    if bad:
        raise ValueError(f"{model}: {field} must be Python identifiers (letters, digits, _), got {bad}")
    if nonempty and not value:
        raise ValueError(f"{model}: {field} must name at least one state variable, got {value!r}")


def _mapping(model: str, field: str, value: object) -> Mapping:
    if not isinstance(value, Mapping):
        raise TypeError(f"{model}: {field} must be a mapping, got {type(value).__name__}")
    return value


def _types(of: Any) -> None:
    """``TypeError``/``ValueError`` naming the field for a definition of the wrong types or values."""
    if not isinstance(of.name, str) or not of.name.isidentifier():
        raise TypeError(f"name must be a Python identifier (a string), got {of.name!r}")
    model = of.name
    for field in ("title", "reference"):
        if not isinstance(getattr(of, field), str):
            raise TypeError(f"{model}: {field} must be a string, got {type(getattr(of, field)).__name__}")
    _names(model, "state_names", of.state_names, nonempty=True)
    _names(model, "unit_param_names", of.unit_param_names)
    _names(model, "shared_param_names", of.shared_param_names)
    if not isinstance(of.notes, (tuple, list)) or any(not isinstance(n, str) for n in of.notes):
        raise TypeError(f"{model}: notes must be a tuple of strings, got {of.notes!r}")
    for field in ("network", "target", "moment", "input_dim"):
        if not callable(getattr(of, field)):
            raise TypeError(f"{model}: {field} must be callable, got {type(getattr(of, field)).__name__}")
    for field in ("regularizer", "param_check"):
        if getattr(of, field) is not None and not callable(getattr(of, field)):
            raise TypeError(f"{model}: {field} must be callable or None, got {type(getattr(of, field)).__name__}")
    parameters = (*of.unit_param_names, *of.shared_param_names)
    for key, domain in _mapping(model, "domains", of.domains).items():
        if key not in parameters:
            raise ValueError(f"{model}: domains[{key!r}] names no parameter (the parameters: {parameters})")
        if domain not in DOMAINS:
            raise ValueError(f"{model}: domains[{key!r}] must be one of {DOMAINS}, got {domain!r}")
    for key, rate in _mapping(model, "learning_rates", of.learning_rates).items():
        if key not in of.state_names:
            raise ValueError(f"{model}: learning_rates[{key!r}] names no state (the states: {of.state_names})")
        if rate not in of.shared_param_names:
            raise ValueError(
                f"{model}: learning_rates[{key!r}] must be a shared parameter name (one of {of.shared_param_names}), "
                f"got {rate!r}"
            )
    for key, tag in _mapping(model, "tags", of.tags).items():
        if not isinstance(key, str) or not isinstance(tag, str):
            raise TypeError(f"{model}: tags must map step names to equation numbers (strings), got {key!r}: {tag!r}")
    quantities = _mapping(model, "quantities", of.quantities)
    kinds = getattr(quantities, "kinds", None)  # deferred quantities (DeferredQuantities): kinds known, not built
    if isinstance(kinds, Mapping) and getattr(quantities, "built", True) is False:
        for key, kind in kinds.items():
            if not isinstance(key, str) or not key.isidentifier():
                raise TypeError(f"{model}: quantities must be keyed by identifiers, got {key!r}")
            if kind not in QUANTITY_KINDS:
                raise ValueError(f"{model}: quantities[{key!r}].kind must be one of {QUANTITY_KINDS}, got {kind!r}")
        quantities = {}
    for key, quantity in quantities.items():
        if not isinstance(key, str) or not key.isidentifier():
            raise TypeError(f"{model}: quantities must be keyed by identifiers, got {key!r}")
        if not (hasattr(quantity, "kind") and hasattr(quantity, "expr")):
            raise TypeError(f"{model}: quantities[{key!r}] must be a Quantity, got {type(quantity).__name__}")
        if quantity.kind not in QUANTITY_KINDS:
            raise ValueError(
                f"{model}: quantities[{key!r}].kind must be one of {QUANTITY_KINDS}, got {quantity.kind!r}"
            )
        real_expressions(model, f"quantities[{key!r}].expr", quantity.expr)
    _mapping(model, "matrix_states", of.matrix_states)
    _mapping(model, "matrix_params", of.matrix_params)


def _moments(model: str, width: int, inputs: tuple[sp.Symbol, ...], moment: Callable[[int, int], object]) -> None:
    """``ValueError`` naming ``moment`` unless the moment matrix is finite, real, symmetric, with diagonal entries
    not provably negative, and positive semidefinite when numeric."""
    n = len(inputs)
    matrix = [
        [real_expressions(model, f"moment (entry {i}, {j})", moment(i, j))[0] for j in range(n)] for i in range(n)
    ]
    for i in range(n):
        if matrix[i][i].is_negative:
            raise ValueError(f"{model}: the model's moment E[x_{i + 1}^2] must be >= 0, got {matrix[i][i]}")
        for j in range(i):
            if matrix[i][j] != matrix[j][i] and sp.expand(matrix[i][j] - matrix[j][i]) != 0:
                raise ValueError(
                    f"{model}: the model's moment must be symmetric, E[x_{i + 1} x_{j + 1}] = {matrix[i][j]} but "
                    f"E[x_{j + 1} x_{i + 1}] = {matrix[j][i]}"
                )
    # decided by SymPy (exactly for rational entries); None (undecided) is left to the model
    numeric = n and all(entry.is_number for row in matrix for entry in row)
    if numeric and sp.Matrix(matrix).is_positive_semidefinite is False:
        raise ValueError(
            f"{model}: the model's moment matrix E[x x^T] must be positive semidefinite (no random vector has it "
            f"otherwise), but at width {width} it is {sp.Matrix(matrix).tolist()}"
        )


def check_definition(of: Any, instance: Callable[[int], Any]) -> None:
    """Check the definition ``of`` (a ``Model``): the field types and values, then the probes at
    :data:`PROBE_WIDTHS` built by ``instance(width)`` (an ``Instance``, whose construction calls the user's
    functions through :func:`call_user`; None: the types only).

    Raises:
        TypeError: a field of the wrong type (naming it).
        ValueError: a field outside its admissible values, a user function that fails at a probe width, or unrealizable
            numeric moments (naming the field).
    """
    _types(of)
    for width in PROBE_WIDTHS:
        probe = instance(width)
        if probe is None:
            return
        _moments(of.name, width, probe.inputs, _moment_of(of, probe.sym))


def _moment_of(of: Any, sym: Mapping[str, Any]) -> Callable[[int, int], object]:
    """``E[x_i x_j]`` by the model's ``moment`` at the symbols ``sym`` (a failure inside it names the field)."""

    def moment(i: int, j: int) -> object:
        return call_user(of.name, "moment", of.moment, sym, i, j)

    return moment
