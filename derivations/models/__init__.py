"""The model registry: ``get(name)``, ``names()`` and ``register(model)``.

The built-in models are registered on import; models of installed packages are registered on first use, from the
entry-point group ``layerwise_linear_flows.models`` (each entry point is a :class:`Model` or a zero-argument
callable returning one).
"""

from __future__ import annotations

from importlib import metadata

from ..model import Model
from . import (
    deep_linear_whitened,
    deep_scalar_chain,
    diagonal_linear_network,
    emergence,
    lambda_balanced,
    layerwise_lr_linear,
    layerwise_lr_matrix,
    linear_model,
    linear_network,
    power_activation,
    two_layer_scalar,
    two_layer_scalar_decay,
    uv_model,
)

__all__ = ["BUILTIN", "ENTRY_POINT_GROUP", "get", "names", "register"]

ENTRY_POINT_GROUP = "layerwise_linear_flows.models"

_MODULES = (
    linear_model,
    diagonal_linear_network,
    two_layer_scalar,
    layerwise_lr_linear,
    layerwise_lr_matrix,
    uv_model,
    power_activation,
    linear_network,
    deep_linear_whitened,
    lambda_balanced,
    deep_scalar_chain,
    two_layer_scalar_decay,
    emergence,
)
BUILTIN: tuple[str, ...] = tuple(m.MODEL.name for m in _MODULES)
"""The names of the package's own models."""
_REGISTRY: dict[str, Model] = {m.MODEL.name: m.MODEL for m in _MODULES}
_installed_loaded = False


def register(model: Model) -> Model:
    """Add ``model`` to the registry under ``model.name`` and return it (registering the same object again is a
    no-op); TypeError for a non-Model, ValueError if another model has that name."""
    if not isinstance(model, Model):
        raise TypeError(f"register expects a derivations.model.Model, got {type(model).__name__}")
    known = _REGISTRY.get(model.name)
    if known is not None and known is not model:
        raise ValueError(f"a different model is already registered as {model.name!r}")
    _REGISTRY[model.name] = model
    return model


def _load_installed() -> None:
    """Register the models of installed packages, once."""
    global _installed_loaded
    if _installed_loaded:
        return
    _installed_loaded = True
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            found = entry.load()
            register(found if isinstance(found, Model) else found())
        except Exception as exc:
            raise ValueError(f"installed model {entry.name!r} ({entry.value}) failed to load: {exc}") from exc


def names() -> list[str]:
    """Registered model names, in registration order."""
    _load_installed()
    return list(_REGISTRY)


def get(name: object) -> Model:
    """The model registered under ``name`` (a ``Model`` is returned as it is); ``ValueError`` naming the known
    models for an unknown name, ``TypeError`` for anything but a name or a model."""
    if isinstance(name, Model):
        return name
    if not isinstance(name, str):
        raise TypeError(f"model must be a model name (str) or a Model, got {type(name).__name__}")
    _load_installed()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown model {name!r}; known models: {', '.join(_REGISTRY)}") from None
