r"""The λ-balanced mode solution (Dominé et al. 2025; Nam et al. 2025 Theorem 2, App. F.1; spec §4).

For a mode with state ``(a, b)`` = :math:`(s_1, s_2)` and flow :math:`\dot a = b(S - ab)`,
:math:`\dot b = a(S - ab)` (``S`` = :math:`\tilde\rho`), the derivation is

1. :math:`\lambda = b^2 - a^2` is conserved and :math:`\rho = ab` obeys :math:`\dot\rho = (a^2+b^2)(S-\rho)`,
   with :math:`(a^2+b^2)^2 = \lambda^2 + 4\rho^2`: the mode equation :math:`\dot\rho=\sqrt{\lambda^2+4\rho^2}(S-\rho)`;
2. for :math:`\ell = |\lambda| > 0`, the substitution :math:`\rho = \tfrac{\ell}{4}(w - w^{-1})`, :math:`w > 0`,
   gives :math:`\sqrt{\lambda^2+4\rho^2} = \tfrac{\ell}{2}(w + w^{-1})` and the Riccati equation
   :math:`\dot w = -\tfrac{\ell}{2}w^2 + 2Sw + \tfrac{\ell}{2}`, solved by the one Riccati engine: rate
   :math:`K = \sqrt{\lambda^2 + 4S^2}`, roots :math:`w_\pm = (2S \pm K)/\ell`, :math:`w_0 = (2\rho_0 + K_0)/\ell`;
3. :math:`\gamma(t;\lambda) = (\rho(t) - \rho_0)/(S - \rho_0)` (the spec's reading of Theorem 2, [uncertain
   form]) obeys :math:`\dot\gamma = \sqrt{\lambda^2+4\rho^2}\,(1-\gamma)`;
4. the singular values: :math:`u = a + b` obeys :math:`\dot u = (S-\rho)u`, so :math:`u^2/w` and
   :math:`v^2 w` (:math:`v = b - a`) are constant: :math:`a, b = \tfrac12(u_0\sqrt{\gamma_w} \mp v_0/\sqrt{\gamma_w})`
   with the clock :math:`\gamma_w = w/w_0`, which obeys :math:`\dot\gamma_w = -\tfrac{u_0^2}{2}\gamma_w^2 + 2S\gamma_w +
   \tfrac{v_0^2}{2}` (:math:`\ell w_0 = u_0^2`, :math:`\ell / w_0 = v_0^2`): this form has no :math:`\ell` in a
   denominator and extends to the zero-balanced case :math:`\lambda = 0`, so the numerics evaluate it.

The limits :math:`\lambda\to0` (sigmoid) and :math:`|\lambda|\to\infty` (exponential in :math:`|\lambda|t`) are
proved by ``lambda_limits``.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from .closed_form import ClosedForm
from .derivation import Derivation
from .model import Model
from .proof import Proof, prove_zero
from .riccati import RiccatiSolution, riccati_solution

__all__ = ["SYMBOLS", "lambda_balanced_solution", "lambda_limits", "mode_rho", "transition_function"]


class LambdaSymbols:
    r"""Notation of spec §4: :math:`\ell = |\lambda|`, :math:`K`, :math:`K_0`, :math:`w`, :math:`w_0`,
    :math:`\rho_0`."""

    lam = sp.Symbol("lambda", real=True)
    ell = sp.Symbol("ell", positive=True)
    K = sp.Symbol("K", positive=True)
    K0 = sp.Symbol("K_0", positive=True)
    w = sp.Symbol("w", positive=True)
    w0 = sp.Symbol("w_0", positive=True)
    rho = sp.Symbol("rho", real=True)
    rho0 = sp.Symbol("rho_0", real=True)
    gamma_w = sp.Symbol("gamma_w", positive=True)
    tau = sp.Symbol("tau", nonnegative=True)
    t = sp.Symbol("t", nonnegative=True)


SYMBOLS = LambdaSymbols()


def mode_rho(S: sp.Expr, rho0: sp.Expr, ell: sp.Expr, t: sp.Expr) -> sp.Expr:
    r""":math:`\rho(t)` of one mode with :math:`\ell = |\lambda| > 0`, from the engine's solution for ``w``."""
    solution = _w_riccati(S)
    K0 = sp.sqrt(ell**2 + 4 * rho0**2)
    w_t = solution.solution.xreplace({SYMBOLS.ell: ell, SYMBOLS.w0: (2 * rho0 + K0) / ell, SYMBOLS.t: t})
    return ell / 4 * (w_t - 1 / w_t)


def transition_function(S: sp.Expr, rho0: sp.Expr, ell: sp.Expr, t: sp.Expr) -> sp.Expr:
    r""":math:`\gamma(t;\lambda) = (\rho(t) - \rho_0)/(S - \rho_0)` (spec §4, [uncertain form] of Theorem 2)."""
    return (mode_rho(S, rho0, ell, t) - rho0) / (S - rho0)


@cache  # one derivation per target, shared by the closed form, mode_rho and the limits
def _w_riccati(S: sp.Expr) -> RiccatiSolution:
    sym = SYMBOLS
    return riccati_solution(
        -sym.ell / 2,
        2 * S,
        sym.ell / 2,
        sym.w0,
        sym.t,
        name="w",
        branch="generic",
        relations=(sym.K**2 - (sym.ell**2 + 4 * S**2),),
        root_names=("w_+", "w_-"),
        rate=(sym.K, sp.sqrt(sym.ell**2 + 4 * S**2)),
        tags={"solution": "Thm 2"},
    )


def lambda_balanced_solution(model: Model) -> ClosedForm:
    """Derive the closed form of the λ-balanced mode model (see the module docstring for the steps)."""
    sym = SYMBOLS
    u = model.unit_symbols
    a, b, S = u["a"], u["b"], u["S"]
    a0, b0 = model.init_symbol("a"), model.init_symbol("b")
    t, w, ell, lam, rho = sym.t, sym.w, sym.ell, sym.lam, sym.rho
    d = Derivation(
        f"{model.title}: closed form via the substitution rho = (l/4)(w - 1/w)",
        assumptions=("l = |lambda| > 0 for the w-substitution (lambda = 0 is its limit)", "w > 0"),
    )
    field = model.unit_field
    d.add(
        sp.Eq(sp.Symbol(r"\dot a"), b * (S - a * b)),
        "mode flow derived from the loss",
        "F.1",
        residual=field[a] - b * (S - a * b),
    )
    d.add(
        sp.Eq(sp.Symbol(r"\dot b"), a * (S - a * b)),
        "mode flow derived from the loss",
        "F.1",
        residual=field[b] - a * (S - a * b),
    )
    d.add(
        sp.Eq(sp.Derivative(b**2 - a**2, t), 0),
        "the imbalance lambda = b^2 - a^2 is conserved",
        "14",
        residual=model.unit_time_derivative(b**2 - a**2),
    )
    d.add(
        sp.Eq(sp.Derivative(rho, t), (a**2 + b**2) * (S - rho)),
        "rho = a b",
        "F.1",
        residual=model.unit_time_derivative(a * b) - (a**2 + b**2) * (S - a * b),
    )
    d.add(
        sp.Eq((a**2 + b**2) ** 2, lam**2 + 4 * rho**2),
        "with lambda = b^2 - a^2 and rho = a b; a^2 + b^2 >= 0 takes the positive root",
        "F.1",
        residual=(a**2 + b**2) ** 2 - ((b**2 - a**2) ** 2 + 4 * (a * b) ** 2),
    )
    mode_rhs = sp.sqrt(lam**2 + 4 * rho**2) * (S - rho)
    d.add(
        sp.Eq(sp.Derivative(rho, t), mode_rhs),
        "the mode equation (depends on lambda only through l = |lambda|)",
        "F.1",
        residual=sp.S.Zero,
    )
    rho_w = ell / 4 * (w - 1 / w)
    d.add(sp.Eq(rho, rho_w), "substitution, w = e^phi, rho = (l/2) sinh phi", "F.1 (w)", residual=sp.S.Zero)
    d.add(
        sp.Eq(sp.sqrt(lam**2 + 4 * rho**2), ell / 2 * (w + 1 / w)),
        "both sides positive; their squares agree (lambda^2 = l^2)",
        "F.1 (w)",
        residual=(ell**2 + 4 * rho_w**2) - (ell / 2 * (w + 1 / w)) ** 2,
    )
    w_rhs = -ell / 2 * w**2 + 2 * S * w + ell / 2
    d.add(
        sp.Eq(sp.Derivative(w, t), w_rhs),
        "w' = rho' / (d rho / d w): a Riccati equation",
        "F.1 (w)",
        residual=sp.diff(rho_w, w) * w_rhs - ell / 2 * (w + 1 / w) * (S - rho_w),
    )
    K0 = sym.K0
    w0_value = (2 * sym.rho0 + K0) / ell
    d.add(
        sp.Eq(sym.w0, w0_value),
        "inverse of the substitution at t = 0, K_0 = sqrt(lambda^2 + 4 rho_0^2)",
        "F.1 (w)",
        residual=ell / 4 * (w0_value - 1 / w0_value) - sym.rho0,
        relations=(K0**2 - (ell**2 + 4 * sym.rho0**2),),
    )
    solution = _w_riccati(S)
    d.extend(solution.derivation)
    for root, sign in ((solution.r_plus, 1), (solution.r_minus, -1)):
        d.add(
            sp.Eq(root, (2 * S + sign * sym.K) / ell),
            "the roots w_± = (2 rho~ ± K)/l, w_+ w_- = -1",
            "F.1 (w)",
            residual=solution.definitions[root].xreplace({solution.definitions[solution.k]: sym.K})
            - (2 * S + sign * sym.K) / ell,
        )
    gamma = (rho - sym.rho0) / (S - sym.rho0)
    d.add(
        sp.Eq(sp.Derivative(sp.Symbol("gamma"), t), sp.sqrt(lam**2 + 4 * rho**2) * (1 - gamma)),
        "transition function gamma = (rho - rho_0)/(rho~ - rho_0): gamma(0) = 0, gamma -> 1 [uncertain form]",
        "Thm 2",
        residual=mode_rhs / (S - sym.rho0) - sp.sqrt(lam**2 + 4 * rho**2) * (1 - gamma),
    )
    u0, v0 = a0 + b0, b0 - a0
    d.add(
        sp.Eq(sym.w0, (a0 + b0) ** 2 / ell),
        "w_0 from the state: 2 rho_0 + K_0 = (a_0 + b_0)^2",
        "",
        residual=(2 * a0 * b0 + (a0**2 + b0**2)) - (a0 + b0) ** 2,
    )
    d.add(
        sp.Eq(sp.Derivative((a + b) ** 2 / w, t), 0),
        "u = a + b: u' = (rho~ - rho) u, so u^2 / w is constant",
        "",
        residual=model.unit_time_derivative(a + b) - (S - a * b) * (a + b),
    )
    gw = sym.gamma_w
    clock_rhs = -(u0**2) / 2 * gw**2 + 2 * S * gw + v0**2 / 2
    d.add(
        sp.Eq(sp.Derivative(gw, t), clock_rhs),
        "the clock gamma_w = w / w_0 with l w_0 = u_0^2 and l / w_0 = v_0^2 (l = |u_0 v_0|): no l in a denominator",
        "",
        residual=(w_rhs / sym.w0)
        .xreplace({w: sym.w0 * gw})
        .xreplace({sym.w0: u0**2 / ell})
        .xreplace({ell: sp.Abs(u0 * v0)})
        - clock_rhs,
    )
    a_t = (u0 * sp.sqrt(gw) - v0 / sp.sqrt(gw)) / 2
    b_t = (u0 * sp.sqrt(gw) + v0 / sp.sqrt(gw)) / 2
    d.add(
        sp.Eq(sp.Function("a")(t), a_t),
        "a = (u - v)/2 with u = u_0 sqrt(gamma_w), v = v_0 / sqrt(gamma_w)",
        "",
        residual=a_t * b_t - (u0**2 * gw - v0**2 / gw) / 4,
    )
    d.add(sp.Eq(sp.Function("b")(t), b_t), "b = (u + v)/2", "", residual=b_t**2 - a_t**2 - u0 * v0)
    clock = riccati_solution(
        -(u0**2) / 2, 2 * S, v0**2 / 2, 1, t, name="gamma_w", branch="generic", root_names=("gamma_w+", "gamma_w-")
    )
    return ClosedForm(
        model=model.name,
        t=t,
        init={"a": a0, "b": b0},
        sums={},
        riccati={gw: clock},
        state={"a": a_t, "b": b_t},
        derivation=d,
        notes=(
            "the w-substitution needs l = |lambda| > 0; the clock form used by the numerics covers lambda = 0",
            "degenerate a_0 = -b_0 (u_0 = 0, then lambda = 0): c2 = 0, linear Riccati branch",
            "degenerate S = rho_0: a fixed point",
        ),
    )


@cache
def lambda_limits() -> dict[str, Proof]:
    r"""Proofs of the two limits of spec §4 for :math:`\tilde\rho > 0`, :math:`\rho_0 \ne 0`.

    ``"zero"``: :math:`\lim_{\ell\to0^+}\rho(t) = \tilde\rho e^{2\tilde\rho t}/(e^{2\tilde\rho t} - 1 +
    \tilde\rho/\rho_0)` for :math:`0 < \rho_0` (the sigmoid; for :math:`\rho_0 < 0` the limit is the saddle
    :math:`\rho = 0`, not claimed here). ``"infinity"``: :math:`\lim_{\ell\to\infty}\rho(\tau/\ell) = \tilde\rho +
    (\rho_0 - \tilde\rho)e^{-\tau}` (lazy: the linear model, eq 10, with time :math:`\ell t`). Both limits are
    computed by ``sympy.limit`` on the derived :math:`\rho(t)` and then checked equal to the target form.
    """
    sym = SYMBOLS
    S = sp.Symbol("S", positive=True)
    rho0 = sp.Symbol("rho_0", positive=True)
    rho = mode_rho(S, rho0, sym.ell, sym.t)
    zero = sp.limit(rho, sym.ell, 0, "+")
    sigmoid = S * sp.exp(2 * S * sym.t) / (sp.exp(2 * S * sym.t) - 1 + S / rho0)
    rho_any = sp.Symbol("rho_0", real=True)
    lazy = sp.limit(mode_rho(S, rho_any, sym.ell, sym.tau / sym.ell), sym.ell, sp.oo)
    exponential = S + (rho_any - S) * sp.exp(-sym.tau)
    return {"zero": prove_zero(zero - sigmoid), "infinity": prove_zero(lazy - exponential)}
