"""Kunin, Raventós, Dominé, Chen, Klindt, Saxe & Ganguli 2024, "Get rich quick: exact solutions reveal how unbalanced
initializations promote rapid feature learning" (NeurIPS): the built-in paper ``kunin2024``.

Loaded like any installed paper, through the entry point ``kunin2024`` of the group ``layerwise_linear_flows.papers``
(``pyproject.toml``): importing this package declares the paper's claims (the module ``claims``) and computes
nothing.
"""

from .claims import PAPER

__all__ = ["PAPER"]
