r"""Theorem 2 of Nam et al. 2025 (Dominé et al. 2025; App. F.1; spec §4): the λ-balanced mode through the
substitution :math:`\rho = \tfrac{\ell}{4}(w - w^{-1})`.

``derivations.solve`` gives every mode's closed form through its clock. This module derives, from the same mode
flow, the form in which the papers state it:

1. :math:`\lambda = b^2 - a^2` is conserved and :math:`\rho = ab` obeys :math:`\dot\rho = (a^2+b^2)(S-\rho)`,
   with :math:`(a^2+b^2)^2 = \lambda^2 + 4\rho^2`: the mode equation :math:`\dot\rho=\sqrt{\lambda^2+4\rho^2}(S-\rho)`;
2. for :math:`\ell = |\lambda| > 0` the substitution :math:`\rho = \tfrac{\ell}{4}(w - w^{-1})`, :math:`w > 0` (the
   spec's hint), gives :math:`\sqrt{\lambda^2+4\rho^2} = \tfrac{\ell}{2}(w + w^{-1})`, and
   :math:`\dot w = \dot\rho / (d\rho/dw)` is computed: a Riccati equation, solved by the Riccati engine;
3. :math:`\gamma(t;\lambda) = (\rho(t) - \rho_0)/(S - \rho_0)` (the spec's reading of Theorem 2, [uncertain
   form]) obeys :math:`\dot\gamma = \sqrt{\lambda^2+4\rho^2}\,(1-\gamma)`.

The limits :math:`\lambda\to0` (sigmoid) and :math:`|\lambda|\to\infty` (exponential in :math:`|\lambda|t`) are
proved by ``lambda_limits``.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from derivations import models
from derivations.derivation import Derivation
from derivations.proof import Proof, prove_zero, sample_sign
from derivations.riccati import RiccatiSolution, riccati_solution

__all__ = ["SYMBOLS", "lambda_limits", "mode_rho", "theorem2", "transition_function"]


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
    tau = sp.Symbol("tau", nonnegative=True)
    t = sp.Symbol("t", nonnegative=True)


SYMBOLS = LambdaSymbols()


@cache
def _w_equation(S: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    r""":math:`\dot w` from the mode equation through the substitution, and :math:`w_0` from :math:`\rho_0`."""
    sym = SYMBOLS
    rho_w = sym.ell / 4 * (sym.w - 1 / sym.w)
    speed = sym.ell / 2 * (sym.w + 1 / sym.w)
    w_rhs = sp.expand(sp.cancel(speed * (S - rho_w) / sp.diff(rho_w, sym.w)))
    # the two roots multiply to -1: exactly one is positive, the start of w > 0
    roots = sp.solve(sp.Eq(rho_w.subs(sym.w, sym.w0), sym.rho0), sym.w0)
    (w0,) = [r for r in roots if sample_sign(r) > 0]
    return w_rhs, w0


@cache
def _w_riccati(S: sp.Expr) -> RiccatiSolution:
    w_rhs, _ = _w_equation(S)
    return riccati_solution(w_rhs, SYMBOLS.w, SYMBOLS.w0, SYMBOLS.t, tags={"solution": "Thm 2"})


def mode_rho(S: sp.Expr, rho0: sp.Expr, ell: sp.Expr, t: sp.Expr) -> sp.Expr:
    r""":math:`\rho(t)` of one mode with :math:`\ell = |\lambda| > 0`, from the engine's solution for ``w``."""
    _, w0 = _w_equation(S)
    w_t = _w_riccati(S).solution.xreplace({SYMBOLS.w0: w0}).xreplace({SYMBOLS.ell: ell, SYMBOLS.rho0: rho0})
    return ell / 4 * (w_t - 1 / w_t).xreplace({SYMBOLS.t: t})


def transition_function(S: sp.Expr, rho0: sp.Expr, ell: sp.Expr, t: sp.Expr) -> sp.Expr:
    r""":math:`\gamma(t;\lambda) = (\rho(t) - \rho_0)/(S - \rho_0)` (spec §4, [uncertain form] of Theorem 2)."""
    return (mode_rho(S, rho0, ell, t) - rho0) / (S - rho0)


@cache
def theorem2() -> Derivation:
    """The recorded derivation of Theorem 2 from the flow of the ``lambda_balanced`` mode model."""
    model = models.get("lambda_balanced")
    sym = SYMBOLS
    u = model.unit_symbols
    a, b, S = u["a"], u["b"], u["S"]
    t, w, ell, lam, rho = sym.t, sym.w, sym.ell, sym.lam, sym.rho
    d = Derivation(
        f"{model.title}: Theorem 2 via the substitution rho = (l/4)(w - 1/w)",
        assumptions=("l = |lambda| > 0 for the w-substitution (lambda = 0 is its limit)", "w > 0"),
    )
    field = model.unit_field
    for s in (a, b):
        d.add(sp.Eq(sp.Symbol(rf"\dot {s}"), field[s]), "mode flow derived from the loss", "F.1", residual=sp.S.Zero)
    d.add(
        sp.Eq(sp.Derivative(b**2 - a**2, t), 0),
        "the imbalance lambda = b^2 - a^2 is conserved",
        "14",
        residual=model.unit_time_derivative(b**2 - a**2),
    )
    rho_dot = sp.factor(model.unit_time_derivative(a * b))
    d.add(sp.Eq(sp.Derivative(rho, t), rho_dot), "rho = a b, differentiated along the flow", "F.1", residual=sp.S.Zero)
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
        residual=rho_dot - (a**2 + b**2) * (S - a * b),
    )
    rho_w = ell / 4 * (w - 1 / w)
    d.add(sp.Eq(rho, rho_w), "substitution, w = e^phi, rho = (l/2) sinh phi", "F.1 (w)", residual=sp.S.Zero)
    d.add(
        sp.Eq(sp.sqrt(lam**2 + 4 * rho**2), ell / 2 * (w + 1 / w)),
        "both sides positive; their squares agree (lambda^2 = l^2)",
        "F.1 (w)",
        residual=(ell**2 + 4 * rho_w**2) - (ell / 2 * (w + 1 / w)) ** 2,
    )
    w_rhs, w0 = _w_equation(S)
    d.add(
        sp.Eq(sp.Derivative(w, t), w_rhs),
        "w' = rho' / (d rho / d w), computed: a Riccati equation",
        "F.1 (w)",
        residual=sp.diff(rho_w, w) * w_rhs - ell / 2 * (w + 1 / w) * (S - rho_w),
    )
    d.add(
        sp.Eq(sym.w0, w0),
        "inverse of the substitution at t = 0 (sympy.solve, the positive root)",
        "F.1 (w)",
        residual=rho_w.subs(w, w0) - sym.rho0,
    )
    d.extend(_w_riccati(S).derivation)
    gamma = (rho - sym.rho0) / (S - sym.rho0)
    d.add(
        sp.Eq(sp.Derivative(sp.Symbol("gamma"), t), sp.sqrt(lam**2 + 4 * rho**2) * (1 - gamma)),
        "transition function gamma = (rho - rho_0)/(rho~ - rho_0): gamma(0) = 0, gamma -> 1 [uncertain form]",
        "Thm 2",
        residual=mode_rhs / (S - sym.rho0) - sp.sqrt(lam**2 + 4 * rho**2) * (1 - gamma),
    )
    return d


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
