r"""``emergence``: the skill model of Nam et al. 2025, eq 11 (after Nam et al. 2024, "An exactly solvable model for
emergence and scaling laws").

:math:`f(x) = \sum_k a_k b_k\, g_k(x)`, target :math:`f^*(x) = S\sum_k g_k(x)`, where the skill functions
:math:`g_k` are mutually exclusive (the sparse parity of skill :math:`k`, zero on the other skills' inputs), so
:math:`\mathbb E[g_kg_j] = P_k\delta_{kj}` with :math:`P_k` the frequency of skill :math:`k` (unit parameter
``P``); the target strength :math:`S` is shared. The skill functions enter only through these moments (spec
``models-nam2025.md`` §6; the built-in paper ``nam2025`` builds them explicitly as sparse parities and derives
the moments). The skill strength is :math:`R_k = \mathbb E[fg_k]/\mathbb E[g_k^2] = a_kb_k` (quantity ``R``).

Convention (the spec marks the exponent [uncertain]): :math:`P_s(k) = k^{-(\alpha+1)}/\sum_{j=1}^{n_s}
j^{-(\alpha+1)}` for :math:`n_s` skills (:func:`skill_frequencies`; :math:`\zeta(\alpha+1)` normalizes
:math:`n_s\to\infty`), so that :math:`\alpha` is the exponent of the tail :math:`\sum_{j>k}P_s(j)\sim k^{-\alpha}`.
"""

from __future__ import annotations

import numbers

import sympy as sp

from ..inputs import expression
from ..model import Model, Quantity

__all__ = ["MODEL", "skill_frequencies"]

S = sp.Symbol("S", real=True)
P = sp.Symbol("P", positive=True)
a, b = sp.symbols("a b", real=True)


def skill_frequencies(n_skills: int, alpha: object) -> tuple[sp.Expr, ...]:
    r""":math:`P_s(k) = k^{-(\alpha+1)}/\sum_{j\le n_s} j^{-(\alpha+1)}`, :math:`k = 1, \dots, n_s`, exact (SymPy
    numbers for a rational ``alpha``, expressions for a symbolic one); they sum to 1."""
    if isinstance(n_skills, bool) or not isinstance(n_skills, numbers.Integral) or n_skills < 1:
        raise ValueError(f"n_skills must be an integer >= 1, got {n_skills!r}")
    exponent = -(expression(alpha, "alpha") + 1)
    if exponent.is_number and not exponent.is_negative:
        raise ValueError(f"alpha must be > -1 (frequencies decreasing in k), got {alpha!r}")
    weights = [sp.Integer(k) ** exponent for k in range(1, int(n_skills) + 1)]
    total = sp.Add(*weights)
    return tuple(w / total for w in weights)


MODEL = Model(
    name="emergence",
    title="Skill model of emergence",
    reference="Nam et al. 2025, eq 11 and §6 (after Nam et al. 2024)",
    state_names=("a", "b"),
    unit_param_names=("P",),
    shared_param_names=("S",),
    network=lambda s, x: sum(ai * bi * gi for ai, bi, gi in zip(s["a"], s["b"], x, strict=True)),
    target=lambda s, x: s["S"] * sum(x),
    moment=lambda s, i, j: s["P"][i] if i == j else sp.S.Zero,
    input_dim=lambda p: p,
    quantities={
        "R": Quantity("unit", a * b, "skill strength R_k = E[f g_k]/E[g_k^2]"),
        "loss": Quantity("sum", P * (S - a * b) ** 2 / 2, "population loss"),
    },
    domains={"S": "real", "P": "positive"},
    notes=("inputs g_k: skill functions, E[g_k g_j] = P_k delta_kj", "L = 1/2 sum_k P_k (S - a_k b_k)^2"),
)
