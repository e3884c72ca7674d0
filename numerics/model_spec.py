"""``ModelSpec``: what the numerics read of a model besides its compiled functions, without SymPy.

A model is named by a string (a registered model) or given as a ``derivations.model.Model``; ``spec_of`` turns
either into a :class:`ModelSpec`, whose ``key`` names the model's artifacts in ``numerics.cache``. A built-in
model named by a string whose spec is cached is resolved without importing SymPy or ``derivations``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from .cache import artifact, cached

if TYPE_CHECKING:
    from derivations.model import Model

__all__ = ["ModelSpec", "definition_hash", "spec_of"]

# Models that are not built in, by key: a spec read from the disk cache gets its Model object back from here.
_MODELS: dict[str, Model] = {}


@dataclass(frozen=True)
class ModelSpec:
    """A model's names and domains as the numerics use them (attributes named as on ``Model``); ``model`` is the
    SymPy model itself, loaded on first use."""

    key: str
    name: str
    state_names: tuple[str, ...]
    unit_param_names: tuple[str, ...]
    shared_param_names: tuple[str, ...]
    domains: dict[str, str]
    init_names: dict[str, str]
    checks_params: bool = False
    quantity_kinds: dict[str, str] = field(default_factory=dict)
    matrix_states: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Matrix name → the state names of its rows, in order (``Model.matrix_states``)."""
    matrix_params: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    """Matrix name → its entries' parameter names, row by row (``Model.matrix_params``)."""
    has_matrix_field: bool = False
    """Whether the model declares its flow in matrix form (``Model.matrix_field``): the integrators then evaluate
    it as matrix products (``numerics.matrix_field``)."""

    @property
    def model(self) -> Model:
        """The ``derivations.model.Model`` (imports SymPy)."""
        if self.key in _MODELS:
            return _MODELS[self.key]
        from derivations import models

        return models.get(self.name)

    @property
    def param_check(self) -> Any:
        """The model's joint check of its parameters, or None."""
        return self.model.param_check if self.checks_params else None

    def init_symbol(self, name: str) -> str:
        """The name of the symbol of state ``name``'s initial value (e.g. ``a_0``)."""
        return self.init_names[name]


def spec_of(model: object) -> ModelSpec:
    """The spec of ``model`` (a registered name, a ``Model`` or a ``ModelSpec``); the errors of
    ``derivations.models.get`` for anything else."""
    if isinstance(model, ModelSpec):
        return model
    if isinstance(model, str) and model.isidentifier():  # a name, never a path into the cache
        found = cached(f"builtin-{model}", "spec", ModelSpec)
        if isinstance(found, ModelSpec):
            return found
    from derivations import models

    return _spec_of_model(models.get(model))


@cache
def _spec_of_model(model: Model) -> ModelSpec:
    from derivations import models

    builtin = model.name in models.BUILTIN and models.get(model.name) is model
    key = f"builtin-{model.name}" if builtin else f"model-{definition_hash(model)}"
    if not builtin:
        _MODELS[key] = model
    return artifact(key, "spec", lambda: _built(key, model), ModelSpec)


def _built(key: str, model: Model) -> ModelSpec:
    from derivations.model import quantity_kinds

    return ModelSpec(
        key,
        model.name,
        tuple(model.state_names),
        tuple(model.unit_param_names),
        tuple(model.shared_param_names),
        dict(model.domains),
        {n: str(model.init_symbol(n)) for n in model.state_names},
        model.param_check is not None,
        quantity_kinds(model.quantities),
        {k: tuple(v) for k, v in model.matrix_states.items()},
        {k: tuple(tuple(row) for row in v) for k, v in model.matrix_params.items()},
        model.matrix_field is not None,
    )


def definition_hash(model: Model) -> str:
    """A hash of what the numerics of ``model`` are built from: its names, domains, learning rates, tags, notes,
    parameter check and quantities, and its vector field derived at width 2 (which carries the network, target,
    moments and regularizer) and per unit. For a model that declares its flow in matrix form, the matrix field
    and matrix quantities stand for the derived entrywise ones (nothing entrywise is derived: at d = c = 32 that
    would take minutes)."""
    import sympy as sp

    from derivations.model import quantity_kinds

    parts = [
        model.name,
        repr((model.state_names, model.unit_param_names, model.shared_param_names)),
        repr(sorted(model.domains.items())),
        repr(sorted(model.learning_rates.items())),
        repr(sorted(model.tags.items())),
        repr(sorted(model.matrix_states.items())),
        repr(sorted(model.matrix_params.items())),
        repr(model.notes),
        repr(getattr(model.param_check, "__qualname__", model.param_check is not None)),
    ]
    declared = model.matrix_field
    if declared is not None:
        parts += [
            repr(sorted(quantity_kinds(model.quantities).items())),
            *(f"{n}={sp.srepr(m)}" for n, m in (*declared.states.items(), *declared.params.items())),
            *(f"{n}={sp.srepr(e)}" for n, e in declared.field.items()),
            *(f"{n}:{q.entries!r}:{sp.srepr(q.expr)}" for n, q in declared.quantities.items()),
        ]
    else:
        instance = model.instance(2)
        parts += [
            *(f"{n}:{q.kind}:{sp.srepr(q.expr)}" for n, q in model.quantities.items()),
            *(f"{sp.srepr(k)}={sp.srepr(v)}" for k, v in instance.vector_field.items()),
            *(f"{sp.srepr(k)}={sp.srepr(v)}" for k, v in model.unit_field.items()),
        ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:20]
