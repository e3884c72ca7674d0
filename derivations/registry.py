"""The model registry: ``get(name)``, ``names()`` and ``register(model)``.

This module knows no model file: the package's own models are registered by ``derivations.models`` (which
``import derivations`` runs), and models of installed packages on first use, from the entry-point group
``layerwise_linear_flows.models`` (each entry point is a :class:`Model` or a zero-argument callable returning one).
``pipeline.solve`` and ``conservation`` look names up here, so that neither depends on the model files.
"""

from __future__ import annotations

from importlib import metadata

from .model import Model

__all__ = ["ENTRY_POINT_GROUP", "get", "names", "register"]

ENTRY_POINT_GROUP = "layerwise_linear_flows.models"

_REGISTRY: dict[str, Model] = {}
_installed_loaded = False


def register(model: Model) -> Model:
    """Add ``model`` to the registry under ``model.name`` and return it.

    Arguments:
        model: the model to register; registering the same object again is a no-op.

    Returns:
        ``model`` itself.

    Raises:
        TypeError: ``model`` is not a :class:`Model`.
        ValueError: a different model is already registered under ``model.name``.
    """
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
    """Registered model names, in registration order (the built-in models first)."""
    _load_installed()
    return list(_REGISTRY)


def get(name: object) -> Model:
    """The model registered under ``name``.

    Arguments:
        name: a registered model's name, or a :class:`Model` (returned as it is).

    Returns:
        The model.

    Raises:
        ValueError: no model is registered under ``name`` (the message names the known models).
        TypeError: ``name`` is neither a ``str`` nor a ``Model``.
    """
    if isinstance(name, Model):
        return name
    if not isinstance(name, str):
        raise TypeError(f"model must be a model name (str) or a Model, got {type(name).__name__}")
    _load_installed()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown model {name!r}; known models: {', '.join(_REGISTRY)}") from None
