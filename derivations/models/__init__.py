"""The model registry: ``get(name)`` and ``names()``."""

from __future__ import annotations

from ..model import Model
from . import (
    deep_linear_whitened,
    diagonal_linear_network,
    lambda_balanced,
    layerwise_lr_linear,
    layerwise_lr_matrix,
    linear_model,
    linear_network,
    power_activation,
    two_layer_scalar,
    uv_model,
)

__all__ = ["get", "names"]

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
)
_REGISTRY: dict[str, Model] = {m.MODEL.name: m.MODEL for m in _MODULES}


def names() -> list[str]:
    """Registered model names, in registration order."""
    return list(_REGISTRY)


def get(name: str) -> Model:
    """The model registered under ``name`` (a ``Model`` is returned as it is); ``ValueError`` naming the known
    models for an unknown name, ``TypeError`` for anything but a name or a model."""
    if isinstance(name, Model):
        return name
    if not isinstance(name, str):
        raise TypeError(f"model must be a model name (str) or a Model, got {type(name).__name__}")
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown model {name!r}; known models: {', '.join(_REGISTRY)}") from None
