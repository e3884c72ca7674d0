r"""The attention-only linear transformer's population loss and its per-component levels, derived by SymPy from the
data model of spec §4c (``proofs_check.papers.kunin2025.attention``), nothing of the loss typed in.

Data: :math:`x_n, x_q \sim N(0, \Sigma)`, :math:`\Sigma = \operatorname{diag}(\lambda)`, :math:`w \sim N(0, I_D)`,
all independent, :math:`y = w^\top x`; prediction :math:`\hat y = x_q^\top\Gamma z`, :math:`z = \sum_n x_ny_n`.

1. The residual :math:`y_q - \hat y` is written out in the Gaussian coordinates (``residual``) for ``N`` explicit
   samples, and :math:`\tfrac12\mathbb E(y_q - \hat y)^2` is computed monomial by monomial: the coordinates are
   independent, so each monomial's mean is the product of one-dimensional moments, each from ``sympy.stats``.
2. The residual is linear in :math:`C = \sum_n x_nx_n^\top`, so the mean of its square is a sum over pairs of
   samples: :math:`N` pairs with :math:`n = m`, :math:`N(N-1)` with :math:`n \ne m`, a polynomial of degree 2 in
   :math:`N`. Its values at :math:`N = 1, 2, 3` therefore give it for every :math:`N` (``sympy.interpolate``).
3. For diagonal :math:`\Gamma = \operatorname{diag}(\gamma)` the loss separates into one term per component (every
   mixed second derivative vanishes); each term's critical point (``sympy.solve``) and the loss with components
   ``1..k`` at their critical points and the others at 0 give the levels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import sympy as sp
from sympy import stats

__all__ = ["AttentionLevels", "N", "attention_levels", "population_loss", "residual"]

N = sp.Symbol("N", positive=True, integer=True)


def residual(x_q: sp.Matrix, w: sp.Matrix, samples: Sequence[sp.Matrix], gamma: sp.Matrix) -> sp.Expr:
    """The data model's residual :math:`y_q - \\hat y = w^\\top x_q - x_q^\\top\\Gamma\\sum_n x_n(w^\\top x_n)`.

    Arguments:
        x_q: the query (a column).
        w: the task vector (a column).
        samples: the context inputs ``x_n`` (columns).
        gamma: the matrix ``Gamma``.

    Returns:
        The residual, a polynomial in the entries.
    """
    z = sum(((x * (w.T * x)[0]) for x in samples), sp.zeros(*x_q.shape))
    return (w.T * x_q)[0] - (x_q.T * gamma * z)[0]


@cache
def _moment(power: int) -> sp.Expr:
    """:math:`\\mathbb E\\xi^{power}` for a standard normal :math:`\\xi` (``sympy.stats``)."""
    return sp.simplify(stats.E(stats.Normal("xi", 0, 1) ** power))


def _mean(expr: sp.Expr, gaussians: dict[sp.Symbol, sp.Expr]) -> sp.Expr:
    """The mean of the polynomial ``expr`` in independent centred normal ``gaussians`` (symbol -> variance):
    monomial by monomial, the product of the one-dimensional moments :math:`\\sigma^a\\mathbb E\\xi^a`."""
    variables = list(gaussians)
    poly = sp.Poly(sp.expand(expr), *variables)
    total = sp.S.Zero
    for powers, coefficient in poly.terms():
        factor = sp.S.One
        for v, a in zip(variables, powers, strict=True):
            factor *= gaussians[v] ** sp.Rational(a, 2) * _moment(a) if a else 1
        total += coefficient * factor
    return sp.expand(total)


def population_loss(
    lam: Sequence[sp.Symbol], gamma: sp.Matrix, samples: int, model: Callable[..., sp.Expr] | None = None
) -> sp.Expr:
    """:math:`\\tfrac12\\mathbb E(y_q - \\hat y)^2` with ``samples`` explicit context inputs (step 1).

    Arguments:
        lam: the eigenvalues of ``Sigma`` (positive symbols), one per dimension.
        gamma: the ``D x D`` matrix ``Gamma`` (its entries symbols or numbers).
        samples: the context length (an integer >= 1).
        model: the residual's definition (default: ``residual``, looked up when called).

    Returns:
        The loss, a polynomial in ``lam`` and the entries of ``gamma``.

    Raises:
        ValueError: ``samples`` is not an integer >= 1, or ``gamma`` is not ``D x D``.
    """
    D = len(lam)
    if not (isinstance(samples, int) and samples >= 1):
        raise ValueError(f"samples must be an integer >= 1, got {samples!r}")
    if gamma.shape != (D, D):
        raise ValueError(f"gamma must be {D} x {D}, got {gamma.shape}")

    def column(name: str) -> sp.Matrix:
        return sp.Matrix([sp.Symbol(f"{name}_{i + 1}", real=True) for i in range(D)])

    x_q, w = column("xq"), column("w")
    xs = [column(f"x{n + 1}") for n in range(samples)]
    variances = {**{v: lam[i] for x in (x_q, *xs) for i, v in enumerate(x)}, **dict.fromkeys(w, sp.S.One)}
    return _mean((model or residual)(x_q, w, xs, gamma) ** 2, variances) / 2


@dataclass(frozen=True)
class AttentionLevels:
    """What ``attention_levels`` derived: the loss for diagonal ``Gamma`` at every context length ``N``, its mixed
    second derivatives (zero when the components separate), each component's critical gain, and the levels
    ``l_0..l_D`` (components ``1..k`` at their critical gains, the others 0)."""

    lam: tuple[sp.Symbol, ...]
    gammas: tuple[sp.Symbol, ...]
    loss: sp.Expr
    mixed: tuple[sp.Expr, ...]
    gains: tuple[sp.Expr, ...]
    levels: tuple[sp.Expr, ...]


def attention_levels(dimension: int = 3, model: Callable[..., sp.Expr] | None = None) -> AttentionLevels:
    """Steps 1–3 of the module docstring for ``dimension`` components.

    Arguments:
        dimension: ``D`` (an integer >= 1).
        model: the residual's definition (default: ``residual``, looked up when called).

    Returns:
        The derived ``AttentionLevels`` (``N`` is the positive integer symbol ``N``).

    Raises:
        ValueError: ``dimension`` is not an integer >= 1; RuntimeError: a component's loss has not exactly one
            critical point.
    """
    if not (isinstance(dimension, int) and dimension >= 1):
        raise ValueError(f"dimension must be an integer >= 1, got {dimension!r}")
    lam = tuple(sp.Symbol(f"lambda_{i + 1}", positive=True) for i in range(dimension))
    gammas = tuple(sp.Symbol(f"gamma_{i + 1}", real=True) for i in range(dimension))
    diagonal = sp.diag(*gammas)
    # a polynomial of degree 2 in N (pairs of samples): its values at N = 1, 2, 3 determine it
    points = [(n, population_loss(lam, diagonal, n, model)) for n in (1, 2, 3)]
    loss = sp.expand(sp.interpolate(points, N))
    mixed = tuple(sp.diff(loss, gammas[i], gammas[j]) for i in range(dimension) for j in range(i + 1, dimension))
    gains = []
    for g in gammas:
        critical = sp.solve(sp.diff(loss, g), g)
        if len(critical) != 1:
            raise RuntimeError(f"the loss has the critical points {critical} in {g}")
        gains.append(sp.factor(critical[0]))
    levels = tuple(
        sp.factor(loss.xreplace({g: (gains[i] if i < k else 0) for i, g in enumerate(gammas)}))
        for k in range(dimension + 1)
    )
    return AttentionLevels(lam, gammas, loss, mixed, tuple(gains), levels)
