"""Dominé et al. 2025, λ-balanced two-layer linear networks (ICLR): the built-in paper ``domine2025``.

Loaded like any installed paper, through the entry point ``domine2025`` of the group
``layerwise_linear_flows.papers`` (``pyproject.toml``): importing this package declares the paper's claims (the
module ``claims``) and computes nothing. The folder also holds its derivations (``lambda_balanced``: Theorem 2's
substitution; ``unaligned``: the QQᵀ solution) and the QQᵀ solution evaluated (``qqt``).
"""

from .claims import PAPER

__all__ = ["PAPER"]
