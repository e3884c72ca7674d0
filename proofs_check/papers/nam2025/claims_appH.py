r"""Nam et al. 2025, App. H (Theorem 3, eqs 72–96): each formula, as the spec reconstructs the displays lost from the
available text (eq. 76's γ₊ as a third-party transcription gives it), against the step ``derivations.solve`` derived
for a model.

The paper states its formulas in its own notation, :math:`\Sigma_0 = (2Z)^{-1}\sum_i(a_i(0)^2 + b_i(0)^2)`,
:math:`\mathcal S_0 = Z^{-1}\sum_i a_i(0)b_i(0)`, :math:`D_0 = \sqrt{S^2 + \Sigma_0^2 - \mathcal S_0^2}`,
:math:`\gamma_\pm = (S \pm D_0)/(\Sigma_0 + \mathcal S_0)`. The derivation produces its own sums (the clock's
coefficients, e.g. :math:`\theta^{[+1]} = \sum_i (a_i(0)+b_i(0))^2/(4Z)`); the paper's sums are expressed
through them by matching summands (so the identification holds at every width), and then every reconstructed formula
must equal the derived object exactly. For the paper's model (``two_layer_scalar``) all hold; for a variant
(other input moments, another target) the reconstructed formulas are refuted with a counterexample, because the
derived steps change while the reconstructed ones cannot.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import cache

import mpmath
import sympy as sp

from derivations.closed_form import ClosedForm
from derivations.model import Model
from derivations.proof import prove_zero
from proofs_check.claims import Outcome
from proofs_check.papers.nam2025.hyperbolic import SYMBOLS as H

__all__ = ["appendix_h_checks", "derived_clock_rates", "derived_sums", "paper_notation"]


def _express(summand: sp.Expr, sums: Mapping[sp.Symbol, sp.Expr], variables: tuple[sp.Symbol, ...]) -> sp.Expr:
    """``summand`` summed over the units as a linear combination of the derived ``sums`` (matched summand by
    summand); ``ValueError`` if there is none."""
    weights = sp.symbols(f"w_1:{len(sums) + 1}")
    residual = sp.expand(summand - sum(w * s for w, s in zip(weights, sums.values(), strict=True)))
    equations = sp.Poly(residual, *variables).coeffs()
    solution = sp.solve(equations, weights, dict=True)
    if not solution:
        raise ValueError(f"{summand} is not a combination of the derived sums {dict(sums)}")
    # The sums may be dependent (e.g. theta(0) = theta[+1] + theta[-1]): the weights left free are set to zero,
    # so that the combination uses as few sums as it can.
    free = {w: 0 for w in weights if w not in solution[0]}
    return sum(sp.sympify(solution[0].get(w, 0)).xreplace(free) * s for w, s in zip(weights, sums, strict=True))


def paper_notation(model: Model, cf: ClosedForm) -> dict[sp.Symbol, sp.Expr]:
    r""":math:`\Sigma_0`, :math:`\mathcal S_0`, :math:`D_0`, :math:`\gamma_\pm` in the derivation's sums."""
    a0, b0 = cf.init["a"], cf.init["b"]
    Z, S = model.symbol("Z"), model.symbol("S")
    sigma = _express((a0**2 + b0**2) / (2 * Z), cf.sums, (a0, b0))
    s0 = _express(a0 * b0 / Z, cf.sums, (a0, b0))
    d0 = sp.sqrt(sp.expand(S**2 + sigma**2 - s0**2))
    return {
        H.Sigma0: sigma,
        H.S0: s0,
        H.D0: d0,
        H.gamma_plus: (S + d0) / (sigma + s0),
        H.gamma_minus: (S - d0) / (sigma + s0),
    }


def derived_sums(model: Model, cf: ClosedForm) -> dict[sp.Symbol, sp.Expr]:
    r"""Each of the derivation's sums in the paper's :math:`\Sigma_0`, :math:`\mathcal S_0`, matched summand by
    summand (so for every width): the sum's summand as a combination of :math:`(a_0^2 + b_0^2)/(2Z)` and
    :math:`a_0b_0/Z` (coefficient matching in the initial values, ``sympy.solve``); a sum that is no such
    combination is left out."""
    a0, b0 = cf.init["a"], cf.init["b"]
    Z = model.symbol("Z")
    weights = sp.symbols("w_Sigma w_S")
    basis = ((a0**2 + b0**2) / (2 * Z), a0 * b0 / Z)
    found = {}
    for symbol, summand in cf.sums.items():
        residual = sp.expand(summand - sum(w * e for w, e in zip(weights, basis, strict=True)))
        solution = sp.solve(sp.Poly(residual, a0, b0).coeffs(), weights, dict=True)
        if solution and set(solution[0]) == set(weights):
            found[symbol] = solution[0][weights[0]] * H.Sigma0 + solution[0][weights[1]] * H.S0
    return found


def derived_clock_rates(model: Model) -> tuple[sp.Expr, sp.Expr]:
    r""":math:`\dot\gamma(0)` and :math:`\ddot\gamma(0)` of ``model``'s derived clock, in the paper's
    :math:`\Sigma_0`, :math:`\mathcal S_0` (``derived_sums``): the closed form's initial rate (checked in its
    derivation against the clock equation at t = 0) and the derivative of the clock equation along the flow,
    :math:`\tfrac{d}{dt}q(\gamma) = q'(\gamma)\dot\gamma`, at the start (``sympy.diff`` of the derived
    right-hand side). Nothing of the paper's eqs 86–87 enters.

    Arguments:
        model: a model solved by one Riccati clock whose sums ``derived_sums`` expresses (``two_layer_scalar`` or
            a variant of it).

    Returns:
        ``(rate, acceleration)`` at t = 0.
    """
    cf = model.closed_form
    ((clock, solution),) = cf.riccati.items()
    notation = derived_sums(model, cf)
    rate = cf.initial_rates[clock]
    acceleration = sp.diff(solution.rhs, clock).xreplace({clock: solution.y0}) * rate
    return sp.factor(rate.xreplace(notation)), sp.factor(acceleration.xreplace(notation))


def _printed(model: Model) -> dict[str, tuple[sp.Basic, str]]:
    """Each App. H formula as reconstructed (paper notation), with the derived object it is compared with."""
    S, Z, theta = model.symbol("S"), model.symbol("Z"), model.symbol("theta")
    a, b = model.symbol("a"), model.symbol("b")
    a0, b0 = model.init_symbol("a"), model.init_symbol("b")
    Sigma0, S0, D0, g, gp, gm, t = H.Sigma0, H.S0, H.D0, H.gamma, H.gamma_plus, H.gamma_minus, H.t
    decay = sp.exp(-2 * D0 * t / Z)
    return {
        "77": (sp.Eq(sp.Symbol("a_dot"), b * (S - theta) / Z), "flow of a"),
        "78": (sp.Eq(sp.Symbol("u_dot"), (S - theta) * (a + b) / Z), "rate of u = a + b"),
        "79–81": (sp.Eq(sp.Symbol("gamma_dot"), 2 * (S - theta) * g / Z), "clock rate"),
        "72–73": (sp.Eq(sp.Function("a")(t), (a0 + b0) / 2 * sp.sqrt(g) + (a0 - b0) / (2 * sp.sqrt(g))), "state a"),
        "82–85": (sp.Eq(theta, ((Sigma0 + S0) * g - (Sigma0 - S0) / g) / 2), "output along the clock"),
        "86–87": (
            sp.Eq(sp.Symbol("gamma_dot"), (-(Sigma0 + S0) * g**2 + 2 * S * g + (Sigma0 - S0)) / Z),
            "clock ODE",
        ),
        "88": (sp.Eq(sp.Symbol("Delta"), 4 * (S**2 + Sigma0**2 - S0**2) / Z**2), "discriminant"),
        "76": (sp.Eq(gp, (S + D0) / (Sigma0 + S0)), "attracting root"),
        "89–90": (sp.Eq(sp.Symbol("gamma_dot"), -(Sigma0 + S0) / Z * (g - gp) * (g - gm)), "factorization"),
        "91–93": (sp.Eq(sp.Symbol("k"), 2 * D0 / Z), "rate (Sigma_0 + S_0)(gamma_+ - gamma_-) / Z = 2 D_0 / Z"),
        "94": (sp.Eq((g - gp) * (1 - gm) / ((g - gm) * (1 - gp)), decay), "integrated log form"),
        "74": (
            sp.Eq(sp.Function("gamma")(t), (gp * (1 - gm) - gm * (1 - gp) * decay) / ((1 - gm) - (1 - gp) * decay)),
            "closed form of the clock",
        ),
        "96": (
            sp.Eq(sp.Limit(a * b, t, sp.oo), (a0 + b0) ** 2 / 4 * gp - (a0 - b0) ** 2 / (4 * gp)),
            "limit of a_i b_i",
        ),
    }


def _residuals(model: Model, cf: ClosedForm) -> dict[str, sp.Expr]:
    """Reconstructed minus derived, per tag, in the derivation's symbols (zero iff the reconstructed formula holds)."""
    printed = {tag: relation for tag, (relation, _) in _printed(model).items()}
    notation = paper_notation(model, cf)
    ((clock, solution),) = cf.riccati.items()
    to_clock = {H.gamma: clock, H.t: cf.t}
    a, b = model.symbol("a"), model.symbol("b")
    field = model.unit_field
    along = {s.relation.lhs: s.relation.rhs for s in cf.derivation.by_key("sums")}
    (rate_step,) = cf.derivation.by_key("clock_rate")
    k = solution.definitions[solution.k]
    roots = {
        solution.r_plus: solution.definitions[solution.r_plus],
        solution.r_minus: solution.definitions[solution.r_minus],
    }
    exponentiated = solution.derivation.by_key("exponentiate")[0].relation

    def rhs(tag: str) -> sp.Expr:
        return printed[tag].rhs.xreplace(notation).xreplace(to_clock)

    state = cf.in_initial_values()
    state_at_limit = {n: e.xreplace({clock: roots[solution.r_plus]}) for n, e in state.items()}
    return {
        "77": field[a] - rhs("77"),
        "78": model.unit_time_derivative(a + b) - rhs("78"),
        "79–81": rate_step.relation.rhs - rhs("79–81"),
        "72–73": state["a"] - rhs("72–73"),
        "82–85": along[model.symbol("theta")] - rhs("82–85"),
        "86–87": solution.rhs - rhs("86–87"),
        "88": solution.discriminant - rhs("88"),
        "76": roots[solution.r_plus] - rhs("76"),
        "89–90": solution.rhs - rhs("89–90"),
        "91–93": k - rhs("91–93"),
        "94": (exponentiated.lhs - exponentiated.rhs).xreplace(roots).xreplace({solution.k: k})
        - (printed["94"].lhs - printed["94"].rhs).xreplace(notation).xreplace(to_clock),
        "74": solution.solution - rhs("74"),
        "96": (state_at_limit["a"] * state_at_limit["b"]) - rhs("96"),
    }


def _sampler(model: Model, cf: ClosedForm) -> Callable[[int], dict[sp.Symbol, mpmath.mpf]]:
    """Consistent random points: a few units' initial values (their sums), parameters, the clock and the time."""

    def sample(i: int) -> dict[sp.Symbol, mpmath.mpf]:
        rng = random.Random(7919 + i)
        point: dict[sp.Symbol, mpmath.mpf] = {}
        for name in model.shared_param_names:
            low = 0.2 if model.domains.get(name) == "positive" else -3
            point[model.symbol(name)] = mpmath.mpf(rng.uniform(low, 3))
        units = [{cf.init[n]: mpmath.mpf(rng.gauss(0, 1)) for n in cf.init} for _ in range(rng.randint(1, 4))]
        one = dict(units[0])
        for symbol, summand in cf.sums.items():
            f = sp.lambdify(sorted(summand.free_symbols, key=str), summand, "mpmath")
            names = sorted(summand.free_symbols, key=str)
            point[symbol] = sum(f(*({**point, **u}[s] for s in names)) for u in units)
        point.update(one)
        point[cf.t] = mpmath.mpf(rng.uniform(0.05, 3))
        ((clock, _),) = cf.clocks.items()
        point[clock] = mpmath.mpf(rng.uniform(0.2, 4))
        point[model.symbol("theta")] = mpmath.mpf(rng.uniform(-2, 2))
        point[model.symbol("a")], point[model.symbol("b")] = one[cf.init["a"]], one[cf.init["b"]]
        return point

    return sample


@cache
def appendix_h_checks(model: Model) -> dict[str, tuple[sp.Basic, Callable[[], Outcome]]]:
    """For every App. H tag, the reconstructed formula and a check that it equals ``model``'s derived step: proved
    exactly, or refuted with a 30-digit counterexample."""
    cf = model.closed_form
    residuals = _residuals(model, cf)
    sampler = _sampler(model, cf)
    out: dict[str, tuple[sp.Basic, Callable[[], Outcome]]] = {}
    for tag, (relation, what) in _printed(model).items():

        def check(residual: sp.Expr = residuals[tag], what: str = what) -> Outcome:
            proof = prove_zero(_canonical_radicals(residual))
            if proof.holds and proof.exact:
                return Outcome.proved(proof.method, f"reconstructed {what} = the derived step")
            point = _counterexample(residual, sampler)
            return Outcome.refuted(
                "reconstructed vs derived (30 digits)", point or {}, f"{what}: residual {proof.residual}"
            )

        out[tag] = (relation, check)
    return out


def _canonical_radicals(expr: sp.Expr) -> sp.Expr:
    """Radicands expanded, so that one square root written two ways is one atom for the exact checker."""
    return expr.replace(
        lambda e: isinstance(e, sp.Pow) and isinstance(e.exp, sp.Rational) and e.exp.q == 2,
        lambda e: sp.sqrt(sp.expand(e.base)) ** e.exp.p,
    )


def _counterexample(expr: sp.Expr, sampler: Callable[[int], Mapping[sp.Symbol, mpmath.mpf]]) -> dict[str, str] | None:
    with mpmath.workdps(30):
        names = sorted(expr.free_symbols, key=str)
        f = sp.lambdify(names, expr, "mpmath")
        for i in range(40):
            point = sampler(i)
            try:
                value = f(*(point[s] for s in names))
            except (KeyError, ZeroDivisionError, ValueError):
                continue
            if abs(value) > mpmath.mpf(10) ** -20:
                return {**{str(s): mpmath.nstr(point[s], 10) for s in names}, "residual": mpmath.nstr(value, 10)}
    return None
