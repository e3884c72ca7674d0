"""Saxe, McClelland & Ganguli 2014, exact solutions of deep linear networks (ICLR): the built-in paper ``saxe2014``.

Loaded like any installed paper, through the entry point ``saxe2014`` of the group ``layerwise_linear_flows.papers``
(``pyproject.toml``): importing this package declares the paper's claims (the module ``claims``) and computes
nothing.
"""

from .claims import PAPER

__all__ = ["PAPER"]
