r"""The notation of Nam et al. 2025, App. H, for the width-``p`` scalar network (spec §5): :math:`\Sigma_0`,
:math:`\mathcal S_0`, :math:`D_0`, :math:`\gamma_\pm`, ….

The closed form itself is derived by ``derivations.solve`` (the clock of :math:`a_i + b_i`, Saxe et al.'s
hyperbolic coordinates); these symbols are the paper's names for what the derivation produces, used by the
claims that compare the paper's printed formulas with it (:math:`P_0 = \Sigma_0 + \mathcal S_0`,
:math:`M_0 = \Sigma_0 - \mathcal S_0`).
"""

from __future__ import annotations

import sympy as sp

__all__ = ["SYMBOLS", "HyperbolicSymbols"]


class HyperbolicSymbols:
    """Paper notation: ``Sigma0``, ``S0``, ``D0``, ``gamma``, ``gamma_plus``, …"""

    Sigma0 = sp.Symbol("Sigma_0", nonnegative=True)
    S0 = sp.Symbol("S_0", real=True)
    D0 = sp.Symbol("D_0", nonnegative=True)
    P0 = sp.Symbol("P_0", nonnegative=True)
    M0 = sp.Symbol("M_0", nonnegative=True)
    gamma = sp.Symbol("gamma", positive=True)
    gamma_plus = sp.Symbol("gamma_+", real=True)
    gamma_minus = sp.Symbol("gamma_-", real=True)
    t = sp.Symbol("t", nonnegative=True)


SYMBOLS = HyperbolicSymbols()
