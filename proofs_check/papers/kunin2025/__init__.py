"""Kunin et al. 2025, "Alternating gradient flows" (NeurIPS; arXiv 2506.06489): the built-in paper ``kunin2025``.

Loaded like any installed paper, through the entry point ``kunin2025`` of the group
``layerwise_linear_flows.papers`` (``pyproject.toml``): importing this package declares the paper's claims (the
module ``claims``) and computes nothing. The folder also holds its derivations (``agf_utility``: eq 2;
``dln_limit``: Theorem 3.1; ``modular_harmonics``: Theorem 5.2), its settings and their predictions (``settings``:
``diagonal``, ``fully_connected``, ``attention``, ``modular``, ``modular_network``; ``quadratic_problems`` and
``reference_problems``), and the checks (``checks``).
"""

# isort: off
from . import claims_alignment  # noqa: F401  (adds its claim to PAPER: slow kappa > 2 alignment)
from . import claims_halting  # noqa: F401  (adds its claim to PAPER: Algorithm 1's halting rule)
from .claims import PAPER

# isort: on

__all__ = ["PAPER"]
