"""Input validation for ``numerics.trajectory``: every bad input is a ``ValueError`` naming the parameter."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import mpmath
import numpy as np

from derivations.model import Model

__all__ = ["DPS_METHODS", "Inputs", "finite_array", "validate"]

METHODS = ("closed_form", "mpmath", "scipy", "gd", "taylor")
# the methods that take ``dps`` (digits of the result)
DPS_METHODS = ("closed_form", "mpmath", "taylor")


@dataclass(frozen=True)
class Inputs:
    """Validated inputs: states of shape (batch, p), unit parameters (batch, p), shared scalars."""

    t: np.ndarray
    state: dict[str, np.ndarray]
    unit_params: dict[str, np.ndarray]
    shared_params: dict[str, object]
    batched: bool

    @property
    def width(self) -> int:
        return next(iter(self.state.values())).shape[-1]

    @property
    def batch(self) -> int:
        return next(iter(self.state.values())).shape[0]


def finite_array(name: str, value: object, ndim: int | None = None, exact: bool = False) -> np.ndarray:
    """``value`` as a new float array (of ``ndim`` dimensions if given) with finite entries, or (``exact``, for
    the mpmath backends) as an object array of ``mpf`` when it holds ``mpmath.mpf`` numbers, whose digits beyond
    float64 are kept; ``ValueError`` naming ``name`` otherwise."""
    raw = np.asarray(value, dtype=object)
    if exact and any(isinstance(v, mpmath.mpf) for v in raw.ravel()):
        if not all(isinstance(v, (mpmath.mpf, int, float)) and mpmath.isfinite(v) for v in raw.ravel()):
            raise ValueError(f"{name} must be finite real numbers (no NaN or inf)")
        # mpf(x) would round an mpf to the working precision: keep mpf entries as they are
        exact_values = [v if isinstance(v, mpmath.mpf) else mpmath.mpf(v) for v in raw.ravel()]
        array = np.array(exact_values, dtype=object).reshape(raw.shape)
    else:
        try:
            array = np.array(value, dtype=float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be real numbers, got {value!r}") from exc
        if not np.all(np.isfinite(array)):
            raise ValueError(f"{name} must be finite (no NaN or inf)")
    if ndim is not None and array.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {array.shape}")
    return array


def _check_domain(name: str, array: np.ndarray, domain: str) -> None:
    if domain == "positive" and not np.all(array > 0):
        raise ValueError(f"{name} must be > 0 (admissible range: (0, inf)), got {array.min()}")


def _check_keys(kind: str, given: Mapping[str, object], expected: tuple[str, ...]) -> None:
    missing = [k for k in expected if k not in given]
    extra = [k for k in given if k not in expected]
    if missing or extra:
        raise ValueError(f"{kind} must have exactly the keys {list(expected)}; missing {missing}, unexpected {extra}")


def validate(
    model: Model, t: object, params: Mapping[str, object], init: Mapping[str, object], method: str, exact: bool = False
) -> Inputs:
    """Check and normalise the arguments of ``trajectory``; with ``exact``, ``mpmath.mpf`` values in ``init`` and
    ``params`` keep their precision (object arrays)."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    times = finite_array("t", t)
    if times.ndim > 1:
        raise ValueError(f"t must be a scalar or a 1-D array, got shape {times.shape}")
    times = np.atleast_1d(times)
    if np.any(times < 0):
        raise ValueError("t must be >= 0 (admissible range: [0, inf))")
    _check_keys("init", init, model.state_names)
    _check_keys("params", params, (*model.unit_param_names, *model.shared_param_names))
    state = {name: finite_array(f"init[{name!r}]", init[name], exact=exact) for name in model.state_names}
    shapes = {a.shape for a in state.values()}
    if len(shapes) != 1:
        raise ValueError(f"init arrays must have one shape, got {dict((k, v.shape) for k, v in state.items())}")
    (shape,) = shapes
    if len(shape) not in (1, 2) or shape[-1] < 1 or (len(shape) == 2 and shape[0] < 1):
        raise ValueError(f"init arrays must have shape (p,) or (batch, p) with p >= 1, got {shape}")
    batched = len(shape) == 2
    state = {k: np.atleast_2d(v) for k, v in state.items()}
    batch, width = next(iter(state.values())).shape
    unit_params = {}
    for name in model.unit_param_names:
        value = finite_array(f"params[{name!r}]", params[name], exact=exact)
        if value.ndim == 0:
            value = np.full(width, value.item(), dtype=value.dtype)
        if value.shape not in ((width,), (batch, width)):
            raise ValueError(f"params[{name!r}] must have shape ({width},) or ({batch}, {width}), got {value.shape}")
        _check_domain(f"params[{name!r}]", value, model.domains.get(name, "real"))
        unit_params[name] = np.broadcast_to(value, (batch, width)).copy()
    shared = {}
    for name in model.shared_param_names:
        value = finite_array(f"params[{name!r}]", params[name], exact=exact)
        if value.ndim != 0:
            raise ValueError(f"params[{name!r}] must be a scalar, got shape {value.shape}")
        _check_domain(f"params[{name!r}]", value, model.domains.get(name, "real"))
        shared[name] = value.item() if value.dtype == object else float(value)
    return Inputs(times, state, unit_params, shared, batched)
