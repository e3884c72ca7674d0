r"""The utility of Kunin et al. 2025 (AGF, eq 2; spec agf-kunin2025.md §2) derived from the two-layer network's loss.

Network :math:`f(x) = \sum_i a_i\,\sigma(w_i^\top x)` with :math:`\sigma(z) = z^{\kappa-1}` (κ = 2: linear, κ = 3:
quadratic), neurons :math:`\theta_i = (a_i, w_i) \in \mathbb R^{c}\times\mathbb R^{d}`, n data points
:math:`(x_m, y_m)` kept symbolic, loss :math:`\mathcal L = \tfrac1{2n}\sum_m\|y_m - f(x_m)\|^2` (the package's
convention), residual :math:`r = y - f` (the negative output gradient of this loss) and utility
:math:`\mathcal U(\theta; r) = \tfrac1n\sum_m\langle a\,\sigma(w^\top x_m), r_m\rangle`. Everything is computed by
SymPy at concrete sizes (``SIZES``: d = c = n = 2, two neurons) from these definitions:

* ``gradient``: :math:`-\nabla_{\theta_1}\mathcal L` and :math:`\nabla_\theta\mathcal U(\theta_1; r)` (r the residual
  of the whole network): equal, exactly;
* ``dormant_gap``: :math:`\Delta(\theta_1) = -\nabla_{\theta_1}\mathcal L - \nabla\mathcal U(\theta_1; r_A)`, r_A the
  residual of the other (active) neuron: the "higher-order terms" of eq 2, homogeneous of degree 2κ − 1 in θ_1;
* ``euler``: :math:`\langle\theta, \nabla\mathcal U(\theta)\rangle` against :math:`\kappa\,\mathcal U(\theta)`;
* ``norm_rate`` / ``direction_rate``: along the dormant flow :math:`\dot\theta = \eta\nabla\mathcal U(\theta)`,
  :math:`\tfrac{d}{dt}\|\theta\|` and :math:`\tfrac{d}{dt}\bar\theta` (:math:`\bar\theta = \theta/\|\theta\|`),
  against :math:`\eta\kappa\|\theta\|^{\kappa-1}\mathcal U(\bar\theta)` and
  :math:`\eta\|\theta\|^{\kappa-2}P^\perp_{\bar\theta}\nabla\mathcal U(\bar\theta)` (projected gradient ascent);
* ``threshold_integrals``: the norm equation separated, :math:`\int_{\|\theta_0\|}^{1}\nu^{1-\kappa}d\nu`
  (:math:`\eta\mathcal S` at norm 1, the package's threshold) and the blow-up value
  :math:`\int_{\|\theta_0\|}^{\infty}\nu^{1-\kappa}d\nu` (κ > 2), by ``sympy.integrate``.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

__all__ = [
    "KAPPAS",
    "SIZES",
    "NeuronSymbols",
    "direction_rate",
    "dormant_gap",
    "euler",
    "gradient",
    "norm_rate",
    "threshold_integrals",
    "utility",
]

KAPPAS = (2, 3)
SIZES = {"d": 2, "c": 2, "n": 2}
eta = sp.Symbol("eta", positive=True)
scale = sp.Symbol("s", positive=True)
norm0 = sp.Symbol("N_0", positive=True)
excess = sp.Symbol("m", positive=True)
"""kappa - 2 > 0 in the kappa > 2 threshold integrals."""


class NeuronSymbols:
    """Data x[m][k], y[m][j] and two neurons' (a, w), all real symbols."""

    def __init__(self) -> None:
        d, c, n = SIZES["d"], SIZES["c"], SIZES["n"]
        self.x = [[sp.Symbol(f"x_{m}{k}", real=True) for k in range(d)] for m in range(n)]
        self.y = [[sp.Symbol(f"y_{m}{j}", real=True) for j in range(c)] for m in range(n)]
        self.a = [[sp.Symbol(f"a_{i}{j}", real=True) for j in range(c)] for i in (1, 2)]
        self.w = [[sp.Symbol(f"w_{i}{k}", real=True) for k in range(d)] for i in (1, 2)]

    def theta(self, i: int) -> list[sp.Symbol]:
        """Neuron i (0-based) as (a_i, w_i)."""
        return [*self.a[i], *self.w[i]]


SYMBOLS = NeuronSymbols()


def _output(theta: list[sp.Expr], x: list[sp.Symbol], kappa: int) -> list[sp.Expr]:
    c = SIZES["c"]
    a, w = theta[:c], theta[c:]
    hidden = sum(wk * xk for wk, xk in zip(w, x, strict=True)) ** (kappa - 1)
    return [aj * hidden for aj in a]


def _network(thetas: list[list[sp.Expr]], x: list[sp.Symbol], kappa: int) -> list[sp.Expr]:
    outputs = [_output(theta, x, kappa) for theta in thetas]
    return [sum(parts) for parts in zip(*outputs, strict=True)]


def _loss(thetas: list[list[sp.Expr]], kappa: int) -> sp.Expr:
    s = SYMBOLS
    n = SIZES["n"]
    errors = [
        (yj - fj) ** 2
        for xm, ym in zip(s.x, s.y, strict=True)
        for yj, fj in zip(ym, _network(thetas, xm, kappa), strict=True)
    ]
    return sp.Add(*errors) / (2 * n)


def _residual(thetas: list[list[sp.Expr]], kappa: int) -> list[list[sp.Expr]]:
    s = SYMBOLS
    return [
        [yj - fj for yj, fj in zip(ym, _network(thetas, xm, kappa), strict=True)]
        for xm, ym in zip(s.x, s.y, strict=True)
    ]


def utility(theta: list[sp.Expr], r: list[list[sp.Expr]], kappa: int) -> sp.Expr:
    """U(theta; r) = (1/n) sum_m <a sigma(w^T x_m), r_m> (spec §2)."""
    s = SYMBOLS
    terms = [
        fj * rj for xm, rm in zip(s.x, r, strict=True) for fj, rj in zip(_output(theta, xm, kappa), rm, strict=True)
    ]
    return sp.Add(*terms) / SIZES["n"]


def _grad(expr: sp.Expr, theta: list[sp.Symbol]) -> sp.Matrix:
    return sp.Matrix([sp.diff(expr, v) for v in theta])


@cache
def gradient(kappa: int) -> tuple[sp.Matrix, sp.Matrix]:
    """(-grad_{theta_1} L, grad_theta U(theta_1; r)) with r the residual of both neurons."""
    s = SYMBOLS
    thetas = [s.theta(0), s.theta(1)]
    r = _residual(thetas, kappa)
    frozen = {v: sp.Dummy(v.name) for v in s.theta(0)}
    # differentiate U in its first argument only: the residual is held fixed
    u = utility(s.theta(0), [[e.xreplace(frozen) for e in row] for row in r], kappa)
    back = {dummy: v for v, dummy in frozen.items()}
    return -_grad(_loss(thetas, kappa), s.theta(0)), _grad(u, s.theta(0)).xreplace(back)


@cache
def dormant_gap(kappa: int) -> tuple[sp.Matrix, sp.Matrix]:
    """(Delta(s theta_1), Delta(theta_1)) with Delta = -grad_{theta_1} L - grad U(theta_1; r_A), r_A = y - f_2."""
    s = SYMBOLS
    theta = s.theta(0)
    r_active = _residual([s.theta(1)], kappa)
    gap = -_grad(_loss([theta, s.theta(1)], kappa), theta) - _grad(utility(theta, r_active, kappa), theta)
    return gap.xreplace({v: scale * v for v in theta}).applyfunc(sp.expand), gap.applyfunc(sp.expand)


def _dormant(kappa: int) -> tuple[list[sp.Symbol], sp.Expr, sp.Matrix]:
    """(theta, U(theta; y), grad U): a neuron at the start of AGF, against the residual r = y."""
    s = SYMBOLS
    theta = s.theta(0)
    u = utility(theta, s.y, kappa)
    return theta, u, _grad(u, theta)


@cache
def euler(kappa: int) -> tuple[sp.Expr, sp.Expr]:
    """(<theta, grad U(theta)>, kappa U(theta))."""
    theta, u, g = _dormant(kappa)
    return sp.expand(sum(v * gv for v, gv in zip(theta, g, strict=True))), kappa * u


def _unit(theta: list[sp.Symbol]) -> tuple[sp.Expr, dict[sp.Symbol, sp.Expr]]:
    norm = sp.sqrt(sum(v**2 for v in theta))
    return norm, {v: v / norm for v in theta}


@cache
def norm_rate(kappa: int) -> tuple[sp.Expr, sp.Expr]:
    """(d||theta||/dt along theta' = eta grad U(theta), eta kappa ||theta||^{kappa-1} U(theta_bar))."""
    theta, u, g = _dormant(kappa)
    norm, unit = _unit(theta)
    rate = sum(v * eta * gv for v, gv in zip(theta, g, strict=True)) / norm
    return rate, eta * kappa * norm ** (kappa - 1) * u.xreplace(unit)


@cache
def direction_rate(kappa: int) -> tuple[sp.Matrix, sp.Matrix]:
    """(d theta_bar/dt along theta' = eta grad U(theta), eta ||theta||^{kappa-2} P^perp grad U(theta_bar))."""
    theta, _, g = _dormant(kappa)
    norm, unit = _unit(theta)
    flow = eta * g
    norm_dot = sum(v * fv for v, fv in zip(theta, flow, strict=True)) / norm
    rate = sp.Matrix([fv / norm - v * norm_dot / norm**2 for v, fv in zip(theta, flow, strict=True)])
    bar = sp.Matrix([unit[v] for v in theta])
    g_bar = g.xreplace(unit)
    projected = g_bar - bar * (bar.T * g_bar)[0, 0]
    return rate, eta * norm ** (kappa - 2) * projected


@cache
def threshold_integrals() -> tuple[sp.Matrix, sp.Matrix]:
    r"""(the integrals :math:`\int_{N_0}^{1}\nu^{-1}d\nu`, :math:`\int_{N_0}^{1}\nu^{1-\kappa}d\nu`,
    :math:`\int_{N_0}^{\infty}\nu^{1-\kappa}d\nu` with κ = 2 + m, m > 0, computed; the spec's thresholds
    :math:`-\log N_0`, :math:`(N_0^{2-\kappa} - 1)/(\kappa - 2)`, :math:`N_0^{2-\kappa}/(\kappa - 2)`)."""
    nu = sp.Symbol("nu", positive=True)
    kappa = 2 + excess
    computed = sp.Matrix(
        [
            sp.integrate(1 / nu, (nu, norm0, 1)),
            sp.integrate(nu ** (1 - kappa), (nu, norm0, 1)),
            sp.integrate(nu ** (1 - kappa), (nu, norm0, sp.oo)),
        ]
    )
    spec = sp.Matrix([-sp.log(norm0), (norm0 ** (2 - kappa) - 1) / (kappa - 2), norm0 ** (2 - kappa) / (kappa - 2)])
    return computed, spec
