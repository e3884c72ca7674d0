"""The package's own models, registered in ``derivations.registry`` on import.

``get(name)``, ``names()``, ``register(model)`` and ``ENTRY_POINT_GROUP`` are those of ``derivations.registry``
(re-exported here, where they have always been); ``BUILTIN`` names the models defined in this folder.
"""

from __future__ import annotations

from ..registry import ENTRY_POINT_GROUP, get, names, register
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
    single_neuron,
    tied_layer,
    two_layer_scalar,
    two_layer_scalar_decay,
    uv_model,
)

__all__ = ["BUILTIN", "ENTRY_POINT_GROUP", "get", "names", "register"]

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
    single_neuron,
    tied_layer,
)
BUILTIN: tuple[str, ...] = tuple(register(m.MODEL).name for m in _MODULES)
"""The names of the package's own models."""
