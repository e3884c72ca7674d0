"""Marcotte, Gribonval & Peyré 2023, conservation laws of gradient flows (NeurIPS; arXiv 2307.00144): the built-in
paper ``marcotte2023``.

Loaded like any installed paper, through the entry point ``marcotte2023`` of the group
``layerwise_linear_flows.papers`` (``pyproject.toml``): importing this package declares the paper's claims (the
module ``claims``) and computes nothing.
"""

from .claims import PAPER

__all__ = ["PAPER"]
