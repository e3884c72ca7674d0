"""Nam et al. 2025, "Position: Solve layerwise linear models first" (ICML; arXiv 2502.21009): the built-in paper
``nam2025``.

Loaded like any installed paper, through the entry point ``nam2025`` of the group ``layerwise_linear_flows.papers``
(``pyproject.toml``): importing this package declares the paper's claims (the modules ``claims``, ``claims_matrix``,
``claims_emergence``, ``claims_appB``, ``claims_regimes``, ``claims_collapse``, ``claims_errata``, ``claims_scaling``:
the §4.4 scaling laws, ``claims_staircase``: the §4.2 loss staircase, ``claims_downscaling``: §7.1 target
downscaling, ``claims_lazy_ratio``: Fig. 6(b), ``claims_funnel``: App. F.3, ``claims_sec5_2``: §5.2 class-mean
orthogonality and depth) and computes nothing. The folder also holds its paper-specific derivations (``hyperbolic``:
App. H notation; ``half_time``; ``unification``: the one ODE behind every model; ``features``: App. B feature maps and
the skill functions of eq 11) and experiments (``emergence``, ``collapse``, ``lazy_rich``: Fig. 6a, ``lazy_ratio``:
Fig. 6(b), ``funnel``: App. F.3).
"""

# isort: off  (the import order is the order of the claims in the tables)
from . import (
    claims_appB,  # noqa: F401  (adds its claims to PAPER)
    claims_collapse,  # noqa: F401  (adds its claims to PAPER)
    claims_downscaling,  # noqa: F401  (adds its claims to PAPER)
    claims_emergence,  # noqa: F401  (adds its claims to PAPER)
    claims_errata,  # noqa: F401  (adds its claims to PAPER: the errata of issue 24)
    claims_funnel,  # noqa: F401  (adds its claims to PAPER: App. F.3, Fig. 10)
    claims_lazy_ratio,  # noqa: F401  (adds its claims to PAPER: Fig. 6(b))
    claims_matrix,  # noqa: F401  (adds its claims to PAPER)
    claims_regimes,  # noqa: F401  (adds its claims to PAPER)
    claims_scaling,  # noqa: F401  (adds its claims to PAPER)
    claims_sec5_2,  # noqa: F401  (adds its claims to PAPER)
    claims_staircase,  # noqa: F401  (adds its claims to PAPER)
)
from .claims import PAPER

# isort: on

__all__ = ["PAPER"]
