r"""The hyperbolic reduction of two-layer product flows to one Riccati equation.

For a unit with state ``(a, b)`` whose derived flow has the form :math:`\dot a = \rho\, b\,(S-\theta)`,
:math:`\dot b = \rho\, a\,(S-\theta)`, where :math:`\theta = Z^{-1}\sum_j a_j b_j` runs over a group of units
sharing one clock (all units of the width-``p`` scalar network, Nam et al. 2025 App. H; or the unit
alone, for a mode of the diagonal network, spec §2 "general a ≠ b"), the derivation is (App. H, eqs 72–96):

1. ``u = a + b`` and ``v = a - b`` obey :math:`\dot u = \rho(S-\theta)u`, :math:`\dot v = -\rho(S-\theta)v`,
   so ``uv = a^2 - b^2`` is conserved (eq 78);
2. with the shared clock :math:`\gamma = \exp(2\rho\int_0^t (S-\theta))`, :math:`u = u_0\gamma^{1/2}`,
   :math:`v = v_0\gamma^{-1/2}` (eqs 79–81), hence ``a(t)``, ``b(t)`` (eqs 72–73);
3. :math:`\theta = \tfrac12[(\Sigma_0+\mathcal S_0)\gamma - (\Sigma_0-\mathcal S_0)\gamma^{-1}]` (eqs 82–85);
4. :math:`\dot\gamma = \rho[-(\Sigma_0+\mathcal S_0)\gamma^2 + 2S\gamma + (\Sigma_0-\mathcal S_0)]`
   (eqs 86–87), solved by the Riccati engine with rate :math:`k = 2\rho D_0`, roots
   :math:`\gamma_\pm = (S \pm D_0)/(\Sigma_0 + \mathcal S_0)` (eqs 75–76, 88–95).

For numerics the initial statistics enter only through :math:`P_0 = \Sigma_0 + \mathcal S_0 =
(2Z)^{-1}\sum (a_0+b_0)^2` and :math:`M_0 = \Sigma_0 - \mathcal S_0 = (2Z)^{-1}\sum (a_0-b_0)^2`, sums of
squares without cancellation, with :math:`D_0 = \sqrt{S^2 + P_0 M_0}`.
"""

from __future__ import annotations

import sympy as sp

from .closed_form import ClosedForm
from .derivation import Derivation
from .model import Model
from .riccati import riccati_solution

__all__ = ["HyperbolicSymbols", "hyperbolic_solution"]


class HyperbolicSymbols:
    """Paper notation for the reduction: ``Sigma0``, ``S0``, ``D0``, ``gamma``, ``gamma_plus``, …"""

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


def hyperbolic_solution(
    model: Model, rho: sp.Expr, Z: sp.Expr, theta: sp.Expr, shared: bool, tags: dict[str, str] | None = None
) -> ClosedForm:
    """Derive the closed form of a model whose unit flow is ``a' = rho b (S - theta)``, ``b' = rho a (S - theta)``.

    ``theta`` is the output the units share (a sum symbol of ``model`` when ``shared``, else the unit's
    own expression ``a*b/Z``); ``rho`` and ``Z`` are the rate and normalisation in the model's symbols.
    ``tags`` maps step keys to the paper's equation numbers.
    """
    tags = tags or {}
    sym = SYMBOLS
    u = model.unit_symbols
    a, b, S = u["a"], u["b"], u["S"]
    a0, b0 = model.init_symbol("a"), model.init_symbol("b")
    t, g = sym.t, sym.gamma
    grouping = "summed over the p units (each term is one unit's identity, so it holds for every width p)"
    d = Derivation(
        f"{model.title}: closed form via the hyperbolic reduction",
        assumptions=("Sigma_0 + S_0 > 0 (else the degenerate branch c2 = 0)", "Z > 0"),
        relations=(sym.D0**2 - (S**2 + sym.Sigma0**2 - sym.S0**2),),
    )
    flow_a, flow_b = model.unit_field[a], model.unit_field[b]
    d.add(
        sp.Eq(sp.Symbol(r"\dot a"), rho * b * (S - theta)),
        "gradient flow derived from the loss",
        tags.get("flow", ""),
        residual=flow_a - rho * b * (S - theta),
    )
    d.add(
        sp.Eq(sp.Symbol(r"\dot b"), rho * a * (S - theta)),
        "gradient flow derived from the loss",
        tags.get("flow", ""),
        residual=flow_b - rho * a * (S - theta),
    )
    udot = model.unit_time_derivative(a + b)
    vdot = model.unit_time_derivative(a - b)
    d.add(
        sp.Eq(sp.Symbol(r"\dot u"), rho * (S - theta) * sp.Symbol("u")),
        "u = a + b grows at the shared rate",
        tags.get("uv", ""),
        residual=udot - rho * (S - theta) * (a + b),
    )
    d.add(
        sp.Eq(sp.Symbol(r"\dot v"), -rho * (S - theta) * sp.Symbol("v")),
        "v = a - b shrinks at the same rate",
        tags.get("uv", ""),
        residual=vdot + rho * (S - theta) * (a - b),
    )
    d.add(
        sp.Eq(sp.Derivative(a**2 - b**2, t), 0),
        "hence u v = a^2 - b^2 is conserved",
        tags.get("conserved", ""),
        residual=model.unit_time_derivative(a**2 - b**2),
    )
    G = sp.Symbol("G", positive=True)
    gdot = 2 * rho * (S - theta) * G
    d.add(
        sp.Eq(sp.Derivative(sp.Symbol("u") * g ** sp.Rational(-1, 2), t), 0),
        "with gamma' = 2 rho (S - theta) gamma, gamma(0) = 1: u gamma^{-1/2} and v gamma^{1/2} are constant",
        tags.get("clock", ""),
        residual=(udot / sp.sqrt(G) - (a + b) * gdot / (2 * G ** sp.Rational(3, 2)))
        + (vdot * sp.sqrt(G) + (a - b) * gdot / (2 * sp.sqrt(G))),
    )
    a_t = (a0 + b0) / 2 * sp.sqrt(g) + (a0 - b0) / 2 / sp.sqrt(g)
    b_t = (a0 + b0) / 2 * sp.sqrt(g) - (a0 - b0) / 2 / sp.sqrt(g)
    d.add(
        sp.Eq(sp.Function("a")(t), a_t),
        "a = (u + v)/2",
        tags.get("ab", ""),
        residual=(a_t + b_t) / 2 - (a0 + b0) / 2 * sp.sqrt(g),
    )
    d.add(
        sp.Eq(sp.Function("b")(t), b_t),
        "b = (u - v)/2",
        tags.get("ab", ""),
        residual=(a_t - b_t) - (a0 - b0) / sp.sqrt(g),
    )
    theta_g = ((sym.Sigma0 + sym.S0) * g - (sym.Sigma0 - sym.S0) / g) / 2
    sigma_summand, s_summand = (a0**2 + b0**2) / (2 * Z), a0 * b0 / Z
    d.add(
        sp.Eq(sp.Function("theta")(t), theta_g),
        "a b / Z = [(a0+b0)^2 gamma - (a0-b0)^2 / gamma]/(4Z), with (a0 ± b0)^2/(2Z) = Sigma_0 ± S_0 per unit, "
        + (grouping if shared else "for the unit alone"),
        tags.get("theta", ""),
        residual=a_t * b_t / Z - (((sigma_summand + s_summand) * g - (sigma_summand - s_summand) / g) / 2),
    )
    ricc_rhs = rho * (-(sym.Sigma0 + sym.S0) * g**2 + 2 * S * g + (sym.Sigma0 - sym.S0))
    d.add(
        sp.Eq(sp.Derivative(sp.Function("gamma")(t), t), ricc_rhs),
        "gamma' = 2 rho gamma (S - theta(gamma)): a Riccati equation",
        tags.get("riccati", ""),
        residual=2 * rho * g * (S - theta_g) - ricc_rhs,
    )
    for sign, _name in ((1, "plus"), (-1, "minus")):
        d.add(
            sp.Eq(sym.Sigma0 + sign * sym.S0, _sum_of_squares(sign, Z)),
            f"Sigma_0 {'+' if sign > 0 else '-'} S_0 is a sum of squares, so Sigma_0 >= |S_0| and the discriminant "
            "4 rho^2 (S^2 + Sigma_0^2 - S_0^2) >= 0",
            tags.get("discriminant", ""),
            residual=sigma_summand + sign * s_summand - (a0 + sign * b0) ** 2 / (2 * Z),
        )
    c2, c1, c0 = -rho * (sym.Sigma0 + sym.S0), 2 * rho * S, rho * (sym.Sigma0 - sym.S0)
    solution = riccati_solution(
        c2,
        c1,
        c0,
        1,
        t,
        name="gamma",
        branch="generic",
        relations=d.relations,
        root_names=("gamma_+", "gamma_-"),
        rate=(sp.Symbol("k", nonnegative=True), 2 * rho * sym.D0),
        tags={k: tags[k] for k in ("discriminant", "factor", "apart", "log", "solution") if k in tags},
    )
    d.extend(solution.derivation)
    gp, gm = solution.r_plus, solution.r_minus
    k = solution.k
    paper_roots = {gp: (S + sym.D0) / (sym.Sigma0 + sym.S0), gm: (S - sym.D0) / (sym.Sigma0 + sym.S0)}
    for root, expr in paper_roots.items():
        d.add(
            sp.Eq(root, expr),
            "the roots in the paper's notation (k = 2 rho D_0)",
            tags.get("roots", ""),
            residual=solution.derivation.definitions[root].subs(k, 2 * rho * sym.D0) - expr,
        )
    d.add(
        sp.Eq((sym.Sigma0 + sym.S0) * (gp - gm), 2 * sym.D0),
        "the partial-fraction prefactor",
        tags.get("apart", ""),
        substitutions=paper_roots,
    )
    kappa = (1 - gp) / (1 - gm)
    decay = sp.exp(-2 * rho * sym.D0 * t)
    paper_gamma = (gp * (1 - gm) - gm * (1 - gp) * decay) / ((1 - gm) - (1 - gp) * decay)
    engine_gamma = (gp - gm * kappa * decay) / (1 - kappa * decay)
    d.add(
        sp.Eq(sp.Function("gamma")(t), paper_gamma),
        "the closed form with gamma(0) = 1",
        tags.get("solution", ""),
        residual=paper_gamma - engine_gamma,
    )
    limit_ab = (a0 + b0) ** 2 / 4 * gp - (a0 - b0) ** 2 / (4 * gp)
    d.add(
        sp.Eq(sp.Limit(sp.Symbol("a b"), t, sp.oo), limit_ab),
        "gamma -> gamma_+",
        tags.get("limit", ""),
        residual=(a_t * b_t).subs(g, gp) - limit_ab,
    )
    d.add(
        sp.Eq(sp.Limit(sp.Symbol("theta"), t, sp.oo), S),
        "theta(gamma_+) = S because gamma_+ is a root of the Riccati right-hand side",
        tags.get("limit", ""),
        residual=theta_g.subs(g, gp) - S,
        substitutions=paper_roots,
    )
    P0, M0 = sym.P0, sym.M0
    to_pm = {sym.Sigma0: (P0 + M0) / 2, sym.S0: (P0 - M0) / 2}
    numeric_solution = riccati_solution(
        sp.expand(c2.subs(to_pm)),
        sp.expand(c1),
        sp.expand(c0.subs(to_pm)),
        1,
        t,
        name="gamma",
        branch="generic",
        root_names=("gamma_+", "gamma_-"),
    )
    if shared:
        sums = {P0: (a0 + b0) ** 2 / (2 * Z), M0: (a0 - b0) ** 2 / (2 * Z)}
        ricc = numeric_solution
    else:
        sums = {}
        unit_pm = {P0: (a0 + b0) ** 2 / (2 * Z), M0: (a0 - b0) ** 2 / (2 * Z)}
        ricc = riccati_solution(
            # not expanded: (a0 ± b0)^2 must stay squares, or P0, M0 cancel for nearly (anti-)balanced modes
            *(c.xreplace(unit_pm) for c in (numeric_solution.c2, numeric_solution.c1, numeric_solution.c0)),
            1,
            t,
            name="gamma",
            branch="generic",
            root_names=("gamma_+", "gamma_-"),
        )
    notes = (
        "gamma(0) = 1 (the proof's printed 'gamma(0) = 0' is a typo)",
        "P_0 = Sigma_0 + S_0 and M_0 = Sigma_0 - S_0 are evaluated as sums of squares",
        "degenerate P_0 = 0 (all a_i(0) = -b_i(0)): c2 = 0, linear Riccati branch",
        "degenerate S = S_0: gamma_+ = 1, a fixed point",
    )
    return ClosedForm(
        model=model.name,
        t=t,
        init={"a": a0, "b": b0},
        sums=sums,
        riccati={g: ricc},
        state={"a": a_t, "b": b_t},
        derivation=d,
        notes=notes,
    )


def _sum_of_squares(sign: int, Z: sp.Expr) -> sp.Expr:
    """The display form (2Z)^{-1} sum_i (a_i(0) ± b_i(0))^2."""
    i, p = sp.symbols("i p", integer=True, positive=True)
    a0, b0 = sp.IndexedBase("a(0)"), sp.IndexedBase("b(0)")
    return sp.Sum((a0[i] + sign * b0[i]) ** 2, (i, 1, p)) / (2 * Z)
