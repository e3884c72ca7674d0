"""Xu & Ziyin 2025, "Three mechanisms of feature learning in a linear network" (ICLR; arXiv 2401.07085): the built-in
paper ``xu_ziyin2025``.

Loaded like any installed paper, through the entry point ``xu_ziyin2025`` of the group
``layerwise_linear_flows.papers`` (``pyproject.toml``): importing this package declares the paper's claims (the
modules ``claims``, ``claims_power``, ``claims_phase``, ``claims_alignment``, ``claims_mechanisms``) and computes
nothing. The folder also holds its exponent algebra (``scaling``), phase diagram and standard parametrizations
(``phase``) and alignment along training (``alignment``).
"""

# isort: off  (the import order is the order of the claims in the tables)
from . import (
    claims_alignment,  # noqa: F401  (adds its claims to PAPER)
    claims_mechanisms,  # noqa: F401  (adds its claims to PAPER)
    claims_phase,  # noqa: F401  (adds its claims to PAPER)
    claims_power,  # noqa: F401  (adds its claims to PAPER)
)
from .claims import PAPER

# isort: on

__all__ = ["PAPER"]
