"""Input validation for ``numerics``: every bad argument is a ``TypeError`` or ``ValueError`` naming it and its
admissible range, raised before any heavy work."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import mpmath
import numpy as np

if TYPE_CHECKING:
    from derivations.model import Model

    from .model_spec import ModelSpec

__all__ = [
    "ArgumentTypeError",
    "Inputs",
    "expand_matrices",
    "finite_array",
    "integer",
    "mapping",
    "matrix_entries",
    "matrix_rows",
    "positive_number",
    "validate",
]

SYMMETRY_TOLERANCE = 1e-12
"""Largest admissible difference of two entries of a matrix that name one parameter (the (k, l) and (l, k) of a
symmetric matrix), relative to the matrix's largest entry (rounding in products)."""


class ArgumentTypeError(TypeError, ValueError):
    """An argument of the wrong type: a ``TypeError``, and a ``ValueError`` for callers that handle every bad
    argument as one (as numpy's ``AxisError`` is both a ``ValueError`` and an ``IndexError``)."""


@dataclass(frozen=True)
class Inputs:
    """Validated inputs: states of shape (batch, p), unit parameters (batch, p), shared parameters numbers or,
    batched, arrays (batch, 1); ``batched``: whether an argument had a batch axis."""

    t: np.ndarray
    state: dict[str, np.ndarray]
    unit_params: dict[str, np.ndarray]
    shared_params: dict[str, Any]
    batched: bool

    @property
    def width(self) -> int:
        return next(iter(self.state.values())).shape[-1]

    @property
    def batch(self) -> int:
        return next(iter(self.state.values())).shape[0]


def mapping(name: str, value: object) -> Mapping[str, Any]:
    """``value`` if it is a mapping (e.g. a dict from names to values); ``TypeError`` naming ``name`` otherwise."""
    if not isinstance(value, Mapping):
        raise ArgumentTypeError(f"{name} must be a mapping (dict) from names to values, got {type(value).__name__}")
    return value


def integer(name: str, value: object, minimum: int, maximum: int | None = None) -> int:
    """``value`` as an ``int`` in ``[minimum, maximum]``; ``TypeError`` for a non-integer (``bool`` included),
    ``ValueError`` outside the range, both naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ArgumentTypeError(f"{name} must be an integer, got {value!r}")
    number = int(value)
    if number < minimum or (maximum is not None and number > maximum):
        upper = "inf)" if maximum is None else f"{maximum}]"
        raise ValueError(f"{name} must be in [{minimum}, {upper}, got {value!r}")
    return number


def positive_number(name: str, value: object) -> float:
    """``value`` as a finite float > 0; ``TypeError`` for a non-number (``bool`` included), ``ValueError`` outside
    (0, inf), both naming ``name``."""
    if not _is_real(value) or isinstance(value, mpmath.mpf):
        raise ArgumentTypeError(f"{name} must be a real number > 0, got {value!r}")
    number = float(cast(numbers.Real, value))
    if not (np.isfinite(number) and number > 0):
        raise ValueError(f"{name} must be finite and > 0 (admissible range: (0, inf)), got {value!r}")
    return number


def _is_real(value: object) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _raw(name: str, value: object) -> np.ndarray:
    """``value`` as an array of real numbers (any dtype), refusing complex, boolean and non-numeric entries."""
    try:
        raw = np.asarray(value)
    except ValueError as exc:
        raise ValueError(f"{name} must be a rectangular array of real numbers, got a ragged sequence") from exc
    kind = raw.dtype.kind
    if kind == "c" or (kind == "O" and any(isinstance(v, (complex, mpmath.mpc)) for v in raw.ravel())):
        raise ArgumentTypeError(f"{name} must be real numbers; complex values are not accepted")
    if kind == "b":
        raise ArgumentTypeError(f"{name} must be real numbers, got booleans")
    if kind not in "iufO" or (kind == "O" and not all(_is_real(v) for v in raw.ravel())):
        raise ArgumentTypeError(f"{name} must be real numbers, got {_describe(value)}")
    return raw


def _describe(value: object) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def finite_array(name: str, value: object, ndim: int | None = None, exact: bool = False) -> np.ndarray:
    """``value`` as a new float array (of ``ndim`` dimensions if given) with finite entries, or (``exact``, for
    the mpmath backends) as an object array of ``mpf`` when it holds ``mpmath.mpf`` numbers, whose digits beyond
    float64 are kept. Complex, boolean or non-numeric entries are a ``TypeError``, NaN, inf or values beyond the
    float64 range a ``ValueError``, both naming ``name``."""
    raw = _raw(name, value)
    if exact and raw.dtype == object and any(isinstance(v, mpmath.mpf) for v in raw.ravel()):
        if not all(mpmath.isfinite(v) for v in raw.ravel()):
            raise ValueError(f"{name} must be finite real numbers (no NaN or inf)")
        # mpf(x) would round an mpf to the working precision: keep mpf entries as they are
        exact_values = [v if isinstance(v, mpmath.mpf) else mpmath.mpf(float(v)) for v in raw.ravel()]
        array = np.array(exact_values, dtype=object).reshape(raw.shape)
    else:
        try:
            array = raw.astype(float)
        except OverflowError as exc:
            raise ValueError(f"{name} must be finite (within the float64 range, |x| < 1.8e308)") from exc
        if not np.all(np.isfinite(array)):
            raise ValueError(f"{name} must be finite (no NaN or inf, |x| < 1.8e308)")
    if ndim is not None and array.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {array.shape}")
    return array


def _times(t: object) -> np.ndarray:
    times = finite_array("t", t)
    if times.ndim > 1:
        raise ValueError(f"t must be a scalar or a 1-D array, got shape {times.shape}")
    times = np.atleast_1d(times)
    if times.size == 0:
        raise ValueError("t must hold at least one time")
    if np.any(times < 0):
        raise ValueError("t must be >= 0 (admissible range: [0, inf))")
    return times


def _check_domain(name: str, array: np.ndarray, domain: str) -> None:
    if domain == "positive" and not np.all(array > 0):
        raise ValueError(f"{name} must be > 0 (admissible range: (0, inf)), got {array.min()}")


def _check_keys(kind: str, given: Mapping[str, object], expected: tuple[str, ...]) -> None:
    missing = [k for k in expected if k not in given]
    known = set(expected)  # a set: linear_network(32, 32) has 2080 parameters
    extra = [k for k in given if k not in known]
    if missing or extra:
        raise ValueError(f"{kind} must have exactly the keys {list(expected)}; missing {missing}, unexpected {extra}")


def validate(model: ModelSpec | Model, t: object, params: object, init: object, exact: bool = False) -> Inputs:
    """Check and normalise the times, parameters and initial state of ``trajectory``; with ``exact``,
    ``mpmath.mpf`` values in ``init`` and ``params`` keep their precision (object arrays).

    The batch is broadcast, as numpy broadcasts a leading axis, from ``init`` (shape (batch, p)), the unit
    parameters (shape (batch, p)) and the shared ones (shape (batch,)); an axis of length 1 stretches, an
    unbatched ``init`` (p,) is repeated over a parameter's batch. The states and unit parameters come out as
    (batch, p), a batched shared parameter as (batch, 1) (to broadcast against the units), a scalar one as a
    number; ``batched`` says whether any argument had a batch axis."""
    times = _times(t)
    init, params = mapping("init", init), mapping("params", params)
    params, init = expand_matrices(model, params, init, exact)
    _check_keys("init", init, model.state_names)
    _check_keys("params", params, (*model.unit_param_names, *model.shared_param_names))
    state = _state(model, init, exact)
    shape = next(iter(state.values())).shape
    width = shape[-1]
    values = {
        name: finite_array(f"params[{name!r}]", params[name], exact=exact)
        for name in (*model.unit_param_names, *model.shared_param_names)
    }
    batches = {"init": shape[0]} if len(shape) == 2 else {}
    admissible = {"init": f"({width},) or (batch, {width})"}
    for name in values:
        argument, unit = f"params[{name!r}]", name in model.unit_param_names
        values[name], admissible[argument] = _parameter_shape(argument, values[name], unit, width, batches)
    batch = _batch(batches, admissible)
    state = {k: np.broadcast_to(v, (batch, width)).copy() for k, v in state.items()}
    unit_params, shared = {}, {}
    for name, value in values.items():
        _check_domain(f"params[{name!r}]", value, model.domains.get(name, "real"))
        if name in model.unit_param_names:
            unit_params[name] = np.broadcast_to(value, (batch, width)).copy()
        elif value.ndim == 1:
            shared[name] = np.broadcast_to(value[:, None], (batch, 1)).copy()
        else:
            # numpy scalars: an overflow in float64 arithmetic is inf (then the OverflowError of trajectory), where
            # a Python float's power would raise a bare OverflowError
            shared[name] = value.item() if value.dtype == object else np.float64(value)
    if model.param_check is not None:
        _check_jointly(model, unit_params, shared)
    return Inputs(times, state, unit_params, shared, bool(batches))


def _state(model: ModelSpec | Model, init: Mapping[str, object], exact: bool) -> dict[str, np.ndarray]:
    """The initial states as arrays of one shape, (p,) or (batch, p) with p, batch >= 1."""
    state = {name: finite_array(f"init[{name!r}]", init[name], exact=exact) for name in model.state_names}
    shapes = {a.shape for a in state.values()}
    if len(shapes) != 1:
        raise ValueError(f"init arrays must have one shape, got {dict((k, v.shape) for k, v in state.items())}")
    (shape,) = shapes
    if len(shape) not in (1, 2) or shape[-1] < 1 or (len(shape) == 2 and shape[0] < 1):
        raise ValueError(f"init arrays must have shape (p,) or (batch, p) with p >= 1, got {shape}")
    return state


def _parameter_shape(
    argument: str, value: np.ndarray, unit: bool, width: int, batches: dict[str, int]
) -> tuple[np.ndarray, str]:
    """``value`` (of a ``unit`` parameter: a number filled to the ``width``) and its admissible shapes, refused
    if it has none of them; the length of its batch axis, if it has one, recorded in ``batches``."""
    admissible = f"({width},) or (batch, {width})" if unit else "() or (batch,)"
    if unit and value.ndim == 0:
        value = np.full(width, value.item(), dtype=value.dtype)
    if (value.shape[-1:] != (width,) or value.ndim > 2) if unit else value.ndim > 1:
        raise ValueError(f"{argument} must have shape {admissible}, got {value.shape}")
    if value.ndim == 1 + unit:
        if value.shape[0] < 1:
            raise ValueError(f"{argument} must have shape {admissible} with batch >= 1, got {value.shape}")
        batches[argument] = value.shape[0]
    return value, admissible


def _batch(batches: Mapping[str, int], admissible: Mapping[str, str]) -> int:
    """The common batch size of the arguments with a batch axis (``batches``: argument -> its length, ``init``
    first), 1 if none: the first length other than 1; ``ValueError`` naming the first argument whose length is
    neither 1 nor that one, with its admissible shapes (``admissible``: argument -> shapes in ``batch``)."""
    source, batch = next(((name, size) for name, size in batches.items() if size != 1), (None, 1))
    for name, size in batches.items():
        if size not in (1, batch):
            raise ValueError(
                f"{name} has a batch axis of length {size}, but {source} has length {batch}: {name} must have shape "
                f"{admissible[name].replace('batch', str(batch))} (a batch axis of length 1 broadcasts)"
            )
    return batch


def _check_jointly(
    model: ModelSpec | Model, unit_params: Mapping[str, np.ndarray], shared: Mapping[str, object]
) -> None:
    """``model.param_check`` on the parameters, once per batch element if a shared parameter is batched (shared
    values as numbers, unit ones as rows (1, p))."""
    check = model.param_check
    assert check is not None  # called only for a model with a joint check
    if not any(isinstance(v, np.ndarray) for v in shared.values()):
        check({**unit_params, **shared})
        return
    batch = next(v for v in shared.values() if isinstance(v, np.ndarray)).shape[0]
    for j in range(batch):
        element = {k: (v[j, 0] if isinstance(v, np.ndarray) else v) for k, v in shared.items()}
        try:
            check({**{k: v[j : j + 1] for k, v in unit_params.items()}, **element})
        except ValueError as exc:
            raise ValueError(f"params, batch element {j}: {exc}") from exc


def expand_matrices(
    model: ModelSpec | Model, params: Mapping[str, object], init: Mapping[str, object], exact: bool = False
) -> tuple[dict[str, object], dict[str, object]]:
    """``params`` and ``init`` with each matrix given under its name in ``model.matrix_params`` (shape (r, c) or
    (batch, r, c)) or ``model.matrix_states`` (shape (r, p) or (batch, r, p)) replaced by its entries or rows
    (:func:`matrix_entries`, :func:`matrix_rows`); the other keys are kept as they are.

    Raises ``ValueError`` naming the argument if a matrix has the wrong shape, a symmetric one is not symmetric, or
    a matrix is given both under its name and by some of its entries (rows)."""
    entries = {
        name: lambda argument, value, layout=layout: matrix_entries(argument, value, layout, exact)
        for name, layout in model.matrix_params.items()
    }
    rows = {
        name: lambda argument, value, names=names: matrix_rows(argument, value, names, exact)
        for name, names in model.matrix_states.items()
    }
    return _expanded("params", params, entries), _expanded("init", init, rows)


def _expanded(
    kind: str, given: Mapping[str, object], split: Mapping[str, Callable[[str, object], Mapping[str, object]]]
) -> dict[str, object]:
    """``given`` with each key of ``split`` replaced by the parts ``split[key](argument, value)``."""
    out = dict(given)
    for name, parts_of in split.items():
        if name not in given:
            continue
        argument = f"{kind}[{name!r}]"
        parts = parts_of(argument, given[name])
        both = [key for key in parts if key in given]
        if both:
            raise ValueError(f"{kind} gives {name} both as a matrix ({argument}) and by its entries {both}")
        del out[name]
        out.update(parts)
    return out


def _check_matrix_shape(
    argument: str, array: np.ndarray, expected: tuple[int | str, ...], batch_axes: int | None
) -> None:
    """``ValueError`` naming ``argument`` and the admissible shapes unless ``array`` is a matrix of the
    ``expected`` shape (``"p"``: any length) after at most ``batch_axes`` (None: any number of) batch axes."""
    fits = (
        array.ndim >= 2
        and (batch_axes is None or array.ndim <= 2 + batch_axes)
        and all(e == "p" or e == n for e, n in zip(expected, array.shape[-2:], strict=True))
    )
    if not fits:
        dims = ", ".join(map(str, expected))
        shapes: dict[int | None, str] = {0: f"({dims})", 1: f"({dims}) or (batch, {dims})"}
        admissible = shapes.get(batch_axes, f"(..., {dims})")
        raise ValueError(f"{argument} must have shape {admissible}, got {array.shape}")


def matrix_rows(
    argument: str, value: object, rows: tuple[str, ...], exact: bool = False, batch_axes: int | None = 1
) -> dict[str, np.ndarray]:
    """The rows of the matrix ``value`` (shape (r, p), r = ``len(rows)``, after at most ``batch_axes`` leading
    batch axes; None: any number) by name: ``rows[k]`` → ``value[..., k, :]``.

    Raises the ``TypeError``/``ValueError`` of :func:`finite_array`, and ``ValueError`` naming ``argument`` and
    the expected shape if the shape is not one of these."""
    array = finite_array(argument, value, exact=exact)
    _check_matrix_shape(argument, array, (len(rows), "p"), batch_axes)
    return {name: array[..., k, :] for k, name in enumerate(rows)}


def matrix_entries(
    argument: str, value: object, layout: tuple[tuple[str, ...], ...], exact: bool = False, batch_axes: int | None = 1
) -> dict[str, object]:
    """The entries of the matrix ``value`` (shape (r, c) of ``layout``, its entries' names row by row, after at
    most ``batch_axes`` leading batch axes; None: any number) by name: ``layout[i][j]`` → ``value[..., i, j]``, a
    number (``np.float64`` or, with ``exact``, ``mpmath.mpf``) for an unbatched matrix, an array of the batch shape
    otherwise.
    Entries that ``layout`` names alike (the (k, l) and (l, k) of a symmetric matrix) must agree to
    ``SYMMETRY_TOLERANCE`` relative to the largest entry; the first in row order (the upper triangle) is used.

    Raises the ``TypeError``/``ValueError`` of :func:`finite_array`, and ``ValueError`` naming ``argument`` if
    the shape is not one of these (naming the expected one) or the entries named alike differ."""
    array = finite_array(argument, value, exact=exact)
    _check_matrix_shape(argument, array, (len(layout), len(layout[0])), batch_axes)
    scale = np.max(np.asarray(np.abs(array), dtype=float), axis=(-2, -1))
    first: dict[str, tuple[int, int]] = {}
    for i, row in enumerate(layout):
        for j, name in enumerate(row):
            k, m = first.setdefault(name, (i, j))
            difference = np.asarray(np.abs(array[..., i, j] - array[..., k, m]), dtype=float)
            if np.any(difference > SYMMETRY_TOLERANCE * scale):
                raise ValueError(
                    f"{argument} must be symmetric (to {SYMMETRY_TOLERANCE:g} relative; its upper triangle is used): "
                    f"its entries ({k + 1}, {m + 1}) and ({i + 1}, {j + 1}) differ"
                )
    # [()] makes an unbatched entry a number (np.float64, or the mpf itself) and keeps a batched one an array
    return {name: array[..., i, j][()] for name, (i, j) in first.items()}
