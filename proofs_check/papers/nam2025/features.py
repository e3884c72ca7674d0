r"""Feature maps in place of coordinates: Nam et al. 2025, App. B (eq 18, :math:`f = \sum_i\theta_i\phi_i(x)`) and the
skill functions of the emergence model (eq 11).

A model of the package sees its inputs only through their second moments. Replacing the inputs :math:`x_i` by
features :math:`\phi_i(x)` of a raw input therefore changes nothing if the features have the same moments. This
module computes those moments from the features' definitions (an exact expectation over the raw input), and the
loss :math:`\tfrac12\mathbb E[(f - f^*)^2]` of a model instance with its inputs replaced by features, by the same
expectation, so that a claim can compare it with the model's own loss.

Two raw inputs are provided: a standard Gaussian scalar (:func:`gaussian_expectation`, features polynomials, e.g.
:func:`hermite_features`) and a finite distribution of weighted points (:func:`finite_expectation`, e.g. the
sparse-parity skills of :func:`sparse_parity_skills`).
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import sympy as sp

from derivations import expression
from derivations.model import Instance

__all__ = [
    "Expectation",
    "Skills",
    "feature_loss",
    "finite_expectation",
    "gaussian_expectation",
    "gram",
    "hermite_features",
    "sparse_parity_skills",
]

Expectation = Callable[[sp.Expr], sp.Expr]
"""An exact expectation over the raw input: expression in the raw input's symbols → its mean."""


@cache
def _gaussian_moment(m: int) -> sp.Expr:
    x = sp.Symbol("x", real=True)
    return sp.integrate(x**m * sp.exp(-(x**2) / 2), (x, -sp.oo, sp.oo)) / sp.sqrt(2 * sp.pi)


def gaussian_expectation(x: sp.Symbol) -> Expectation:
    r""":math:`\mathbb E` over :math:`x \sim \mathcal N(0, 1)` of expressions polynomial in ``x`` (each monomial
    :math:`x^m` integrated against the density by ``sympy.integrate``)."""

    def expectation(expr: sp.Expr) -> sp.Expr:
        expr = sp.expand(expr)
        if not expr.is_polynomial(x):
            raise ValueError(f"gaussian_expectation takes expressions polynomial in {x}, got {expr}")
        poly = sp.Poly(expr, x)
        return sp.expand(sum(c * _gaussian_moment(m) for (m,), c in poly.terms()))

    return expectation


def finite_expectation(points: Sequence[tuple[sp.Expr, Mapping[sp.Symbol, sp.Expr]]]) -> Expectation:
    """:math:`\\mathbb E` over a finite distribution: ``points`` are (probability, values of the raw symbols)."""

    def expectation(expr: sp.Expr) -> sp.Expr:
        expr = expression(expr, "expr")
        return sp.expand(sum(weight * expr.xreplace(dict(values)) for weight, values in points))

    return expectation


def gram(features: Sequence[sp.Expr], expectation: Expectation) -> sp.Matrix:
    r"""The matrix :math:`\mathbb E[\phi_i\phi_j]`."""
    n = len(features)
    return sp.Matrix(n, n, lambda i, j: expectation(features[i] * features[j]))


def feature_loss(
    instance: Instance, features: Sequence[sp.Expr], expectation: Expectation, target: sp.Expr | None = None
) -> sp.Expr:
    r""":math:`\tfrac12\mathbb E[(f - f^*)^2]` of a scalar-output ``instance`` with its inputs replaced by ``features``
    (one per input), the expectation taken over the raw input; ``target`` (an expression in the raw input) replaces
    the instance's target, e.g. one with components the network cannot represent."""
    if len(features) != len(instance.inputs):
        raise ValueError(f"features must give one feature per input ({len(instance.inputs)}), got {len(features)}")
    as_features = dict(zip(instance.inputs, features, strict=True))
    f = sp.sympify(instance.network).xreplace(as_features)
    f_star = sp.sympify(instance.target).xreplace(as_features) if target is None else expression(target, "target")
    return expectation((f - f_star) ** 2) / 2


def hermite_features(n: int, x: sp.Symbol) -> tuple[sp.Expr, ...]:
    r"""The probabilists' Hermite polynomials :math:`He_1, \dots, He_n` of ``x`` (``sympy.hermite_prob``), orthogonal
    under :math:`\mathcal N(0, 1)`."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got {n!r}")
    return tuple(sp.hermite_prob(k, x) for k in range(1, int(n) + 1))


@dataclass(frozen=True)
class Skills:
    r"""Sparse-parity skill functions and their input distribution: ``functions[k]`` is :math:`g_k`, an expression
    in the one-hot ``indicators`` of the skill index and the ``bits``; ``points`` are the inputs with their
    probabilities."""

    functions: tuple[sp.Expr, ...]
    indicators: tuple[sp.Symbol, ...]
    bits: tuple[sp.Symbol, ...]
    points: tuple[tuple[sp.Expr, dict[sp.Symbol, int]], ...]

    @property
    def expectation(self) -> Expectation:
        """The population expectation over the inputs."""
        return finite_expectation(self.points)

    def input(self, skill: int, signs: Sequence[int]) -> dict[sp.Symbol, int]:
        """The raw values of an input of skill ``skill`` (0-based) with bits ``signs`` (each ±1)."""
        one_hot = {e: int(j == skill) for j, e in enumerate(self.indicators)}
        return {**one_hot, **dict(zip(self.bits, signs, strict=True))}


def sparse_parity_skills(frequencies: Sequence[sp.Expr], n_bits: int, order: int = 2) -> Skills:
    r"""Skill functions and their input distribution (Nam et al. 2024; spec §6): the input is a skill index
    :math:`I` (one-hot symbols ``e_1 … e_n``, :math:`P(I = k) = ` ``frequencies[k]``) and ``n_bits`` uniform bits
    :math:`\beta_j = \pm1`; skill :math:`k` is :math:`g_k = \mathbb 1[I = k]\prod_{j \in A_k}\beta_j`, the parity of
    its own ``order`` bits :math:`A_k` (consecutive bits in cyclic order, starting at bit :math:`k`)."""
    n = len(frequencies)
    if n < 1 or isinstance(n_bits, bool) or not isinstance(n_bits, numbers.Integral) or not 1 <= order <= n_bits:
        raise ValueError(f"need >= 1 frequency and integers 1 <= order <= n_bits, got {n}, {order!r}, {n_bits!r}")
    e = sp.symbols(f"e_1:{n + 1}", real=True)
    beta = sp.symbols(f"beta_1:{n_bits + 1}", real=True)
    functions = tuple(e[k] * sp.Mul(*(beta[(k + j) % n_bits] for j in range(order))) for k in range(n))
    skills = Skills(functions, e, beta, ())
    points = tuple(
        (sp.sympify(frequencies[k]) / 2**n_bits, skills.input(k, bits))
        for k in range(n)
        for bits in itertools.product((-1, 1), repeat=n_bits)
    )
    return Skills(functions, e, beta, points)
