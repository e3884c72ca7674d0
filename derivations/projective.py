r"""Projective linearization: a unit field :math:`F(x) = Kx + s(x)\,x` solved by a matrix exponential.

Where a unit's derived field is, on the level set of its conservation laws, a constant matrix :math:`K` times the
state plus a quadratic form :math:`s(x) = x^\top Q x` times the state, the ratios :math:`z = x_{\ne k}/x_k` obey a
constant-coefficient vector Riccati equation and the projective substitution linearizes it. Written without the
ratios (which blow up where :math:`x_k` crosses 0): :math:`x = \kappa u` with

.. math::

    \dot u = K u,\quad u(0) = x_0 \qquad\Rightarrow\qquad u(t) = e^{Kt}x_0,

    \dot\kappa = s(u)\,\kappa^3,\quad \kappa(0) = 1 \qquad\Rightarrow\qquad
    \kappa(t)^{-2} = 1 - 2\int_0^t s(u(\tau))\,d\tau,

since :math:`\tfrac{d}{dt}(\kappa u) = s(u)\kappa^3 u + \kappa K u = K(\kappa u) + s(\kappa u)\,\kappa u` by the
homogeneity of :math:`s`. The integral is :math:`x_0^\top\big(\int_0^t e^{K^\top\tau} Q e^{K\tau}d\tau\big) x_0`,
recorded as that statement and evaluated by a block matrix exponential (``numerics.linear_flow``).

The decomposition is *found*, not assumed: an ansatz with unknown :math:`K` (entries in the parameters and the
laws' constants), unknown symmetric :math:`Q` and unknown polynomial multipliers :math:`q_{il}` of the laws'
generators :math:`g_l = L_l(x) - c_l`, and coefficient matching of
:math:`F_i - (Kx)_i - s(x)x_i - \sum_l q_{il}\,g_l = 0` in the states, a linear system solved by ``sympy.linsolve``
(its free unknowns set to 0: the decomposition is unique only up to :math:`s \to s + \mu g`,
:math:`K \to K - \mu c I`). The recorded steps (each checked by ``prove_zero``):

1. ``linear_decomposition``: :math:`F_i = (Kx)_i + s(x)x_i` modulo the laws (Gröbner normal form with the
   relations :math:`g_l = 0`); ``ratio_riccati``: so the ratios :math:`z = x_{2..n}/x_1` obey the constant-coefficient
   vector Riccati equation :math:`\dot z = k + Mz - z(k_{11} + k_1^\top z)` (for display: the solution below never
   divides by :math:`x_1`);
2. ``level_set``: the level set :math:`\{g = 0\}` is invariant under :math:`\dot x = Kx + s(x)x` (each
   :math:`\dot g_l` lies in the ideal of the :math:`g`), so the modified flow started on it stays on it, where it is
   the derived flow;
3. ``linear_system``: :math:`\dot u = Ku` with :math:`K` constant (checked: free of the time, the states and
   :math:`u`), solved by :math:`e^{Kt}x_0`;
4. ``kappa``: :math:`\kappa = (1 - 2J)^{-1/2}` with :math:`\dot J = s(u)`, :math:`J(0) = 0` solves
   :math:`\dot\kappa = s(u)\kappa^3`, :math:`\kappa(0) = 1`;
5. ``back_substitution``: :math:`x = \kappa u` solves :math:`\dot x = Kx + s(x)x` exactly (given
   :math:`\dot u = Ku`, :math:`\dot\kappa = s(u)\kappa^3`), hence stays on the level set of :math:`x(0) = x_0`
   (step 2), and there it satisfies the derived flow (checked modulo the laws at :math:`x = \kappa u`).

A gradient flow of a loss bounded below has no finite-time blow-up, so :math:`1 - 2\int s > 0` for all times (the
numerics refuse loudly where rounding says otherwise). Units coupled through sums are not handled (a reason).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sympy as sp

from .derivation import Derivation
from .inputs import expression
from .model import Model
from .proof import Proof

Fresh = Callable[..., sp.Symbol]

__all__ = ["Decomposition", "LinearFlowSolution", "decompose", "linear_flow_solution", "quadratic_form", "record_steps"]


@dataclass(frozen=True)
class Decomposition:
    r"""``F(x) = K x + (x^T Q x) x`` modulo the laws: ``states`` x, the constant matrix ``K``, the symmetric ``Q``,
    the laws' generators ``relations`` (each :math:`L_l(x) - c_l`) and ``constants`` (each :math:`c_l` -> the
    law :math:`L_l` written in the initial values)."""

    states: tuple[sp.Symbol, ...]
    K: sp.ImmutableMatrix
    Q: sp.ImmutableMatrix
    relations: tuple[sp.Expr, ...]
    constants: dict[sp.Symbol, sp.Expr]

    def s(self, x: Sequence[sp.Expr]) -> sp.Expr:
        """The quadratic form :math:`x^\\top Q x` at ``x``."""
        return quadratic_form(self.Q, x)


@dataclass(frozen=True)
class LinearFlowSolution:
    r"""The clocks :math:`u_1 … u_n` and :math:`\kappa` of a field ``K x + s(x) x`` (module docstring):
    :math:`u(t) = e^{Kt}` ``start``, :math:`\kappa(t) = (1 - 2\int_0^t u^\top Q u\,d\tau)^{-1/2}`; the state is
    :math:`\kappa u`. ``K``, ``Q`` and ``start`` are written in the parameters, the initial values and the laws'
    constants (coordinates of the closed form); ``t`` is the time. ``nonzero``: the parameter expressions ``K`` and
    ``Q`` divide by (the solution holds where none vanishes)."""

    u: tuple[sp.Symbol, ...]
    kappa: sp.Symbol
    K: sp.ImmutableMatrix
    Q: sp.ImmutableMatrix
    start: tuple[sp.Expr, ...]
    t: sp.Symbol
    derivation: Derivation
    nonzero: tuple[sp.Expr, ...] = ()

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        """The clock symbols: ``u_1 … u_n`` and ``kappa``."""
        return (*self.u, self.kappa)

    @property
    def arguments(self) -> frozenset[sp.Symbol]:
        """The symbols of ``K``, ``Q`` and ``start`` (parameters, initial values, the laws' constants)."""
        free = set().union(*(sp.sympify(e).free_symbols for e in (*self.K, *self.Q, *self.start)))
        return frozenset(s for s in free if isinstance(s, sp.Symbol))

    def s(self, x: Sequence[sp.Expr]) -> sp.Expr:
        """The quadratic form :math:`x^\\top Q x` at ``x``."""
        return quadratic_form(self.Q, x)


def quadratic_form(Q: sp.MatrixBase, x: Sequence[sp.Expr]) -> sp.Expr:
    """:math:`x^\\top Q x`, expanded."""
    v = sp.Matrix(list(x))
    return sp.expand((v.T * Q * v)[0, 0])


def _monomials(x: Sequence[sp.Symbol], degree: int) -> list[sp.Expr]:
    """Every monomial in ``x`` of total degree at most ``degree``."""
    return [sp.Mul(*combo) for k in range(degree + 1) for combo in itertools.combinations_with_replacement(x, k)]


def decompose(
    field: Sequence[sp.Expr], states: Sequence[sp.Symbol], laws: Sequence[sp.Expr], constants: Sequence[sp.Symbol]
) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix] | str:
    r"""``(K, Q)`` with ``field = K x + (x^T Q x) x`` modulo the ideal of ``law_l(x) - constant_l``, by the ansatz of
    the module docstring, or the reason none exists.

    Arguments:
        field: the components :math:`F_i(x)`, polynomials in ``states`` (coefficients free of them).
        states: the state symbols :math:`x`.
        laws: polynomial conserved quantities :math:`L_l(x)`.
        constants: one symbol :math:`c_l` per law, its value on the level set.

    Returns:
        ``(K, Q)`` (``K`` constant, ``Q`` symmetric), or a reason (a string).

    Raises:
        TypeError: an entry of ``field`` or ``laws`` is text or not convertible to SymPy.
        ValueError: ``laws`` and ``constants`` differ in length.
    """
    x = list(states)
    if len(laws) != len(constants):
        raise ValueError(f"constants: one per law expected, got {len(constants)} for {len(laws)} laws")
    field = [expression(f, "field") for f in field]  # text is refused, never parsed
    laws = [expression(g, "laws") for g in laws]
    if not all(f.is_polynomial(*x) for f in field):
        return "the field is not polynomial in the states"
    if not all(g.is_polynomial(*x) for g in laws):
        return "a conservation law is not polynomial in the states"
    n = len(x)
    top = max(3, *(sp.Poly(f, *x).total_degree() for f in field if f != 0)) if any(f != 0 for f in field) else 3
    k = sp.Matrix(n, n, lambda i, j: sp.Dummy(f"k{i}{j}"))
    q = sp.Matrix(n, n, lambda i, j: sp.Dummy(f"q{min(i, j)}{max(i, j)}"))
    # symmetric: one unknown per pair (i, j), (j, i)
    q = sp.Matrix(n, n, lambda i, j: q[min(i, j), max(i, j)])
    unknowns = [*k, *dict.fromkeys(q)]
    generators = _generators(laws, constants)
    multipliers = []
    for i in range(n):
        row = []
        for index, g in enumerate(generators):
            basis = _monomials(x, max(top - sp.Poly(g, *x).total_degree(), 0))
            coefficients = [sp.Dummy(f"m{i}_{index}_{j}") for j in range(len(basis))]
            unknowns.extend(coefficients)
            row.append(sum(c * b for c, b in zip(coefficients, basis, strict=True)))
        multipliers.append(row)
    v = sp.Matrix(x)
    s = quadratic_form(q, x)
    equations = []
    for i in range(n):
        residual = (
            field[i] - (k * v)[i] - s * x[i] - sum(m * g for m, g in zip(multipliers[i], generators, strict=True))
        )
        equations.extend(sp.Poly(sp.expand(residual), *x).coeffs())
    solutions = sp.linsolve(equations, unknowns)
    if not solutions:
        return (
            "the field is not K x + s(x) x (K a constant matrix, s a quadratic form) modulo the conservation laws: "
            "the coefficient matching has no solution"
        )
    (solution,) = solutions
    free = set().union(*(sp.sympify(e).free_symbols for e in solution)) & set(unknowns)
    values = dict(zip(unknowns, (sp.sympify(e).xreplace(dict.fromkeys(free, 0)) for e in solution), strict=True))
    K = sp.ImmutableMatrix(k.xreplace(values).applyfunc(sp.factor))
    Q = sp.ImmutableMatrix(q.xreplace(values).applyfunc(sp.factor))
    return K, Q


def _generators(laws: Sequence[sp.Expr], constants: Sequence[sp.Symbol]) -> tuple[sp.Expr, ...]:
    """The level set's ideal: each law minus its constant."""
    return tuple(sp.expand(g - c) for g, c in zip(laws, constants, strict=True))


def _unit_laws(model: Model, laws: Sequence[sp.Expr], fresh: Fresh) -> tuple[list[sp.Symbol], dict]:
    """One constant symbol per law (``delta``, ``delta_2``, …) and its value in the initial values."""
    x = [model.symbol(n) for n in model.state_names]
    starts = {s: model.init_symbol(n) for s, n in zip(x, model.state_names, strict=True)}
    symbols = [fresh("delta") if i == 0 else fresh(f"delta_{i + 1}") for i in range(len(laws))]
    return symbols, {c: sp.expand(g.xreplace(starts)) for c, g in zip(symbols, laws, strict=True)}


def linear_flow_solution(
    model: Model,
    laws: Sequence[sp.Expr],
    t: sp.Symbol,
    fresh: Fresh,
) -> tuple[LinearFlowSolution, Decomposition] | str:
    """The solution ``x = kappa u`` of ``model``'s unit field with every step recorded (module docstring), or the
    reason it does not apply.

    Arguments:
        model: the model (its unit field must not involve the sums).
        laws: one unit's polynomial conservation laws, in the unit's symbols.
        t: the time symbol.
        fresh: ``Context.fresh``: a symbol of a base name that the model does not use.

    Returns:
        The clock solution and the decomposition, or a reason (a string).
    """
    x = [model.symbol(n) for n in model.state_names]
    sums = {model.symbol(n) for n, q in model.quantities.items() if q.kind == "sum"}
    field = [model.unit_field[s] for s in x]
    coupled = set().union(*(f.free_symbols for f in field)) & sums
    if coupled:
        return f"the units couple through the sums {sorted(map(str, coupled))}"
    constants, values = _unit_laws(model, laws, fresh)
    found = decompose(field, x, laws, constants)
    if isinstance(found, str):
        return found
    K, Q = found
    # coefficient matching may divide by parameters (a solution valid where they are non-zero): the divisors are
    # the closed form's ``nonzero``; a divisor that depends on the start would be a condition on it, refused
    divisors = {sp.factor(sp.denom(sp.together(e))) for e in (*K, *Q)} - {sp.S.One}
    shared = {model.symbol(n) for n in model.shared_param_names}
    if any(not divisor.free_symbols <= shared for divisor in divisors):
        return f"the decomposition divides by {sorted(map(str, divisors))}, which depend on the start"
    decomposition = Decomposition(tuple(x), K, Q, _generators(laws, constants), values)
    n = len(x)
    u = [fresh(f"u_{i + 1}") for i in range(n)]
    kappa = fresh("kappa", positive=True)
    start = tuple(model.init_symbol(name) for name in model.state_names)
    d = Derivation("projective linearization x = kappa u")
    record_steps(d, model, decomposition, u, kappa, t)
    nonzero = tuple(sorted(divisors, key=str))
    return LinearFlowSolution(tuple(u), kappa, K, Q, start, t, d, nonzero), decomposition


def record_steps(
    d: Derivation,
    model: Model,
    decomposition: Decomposition,
    u: Sequence[sp.Symbol],
    kappa: sp.Symbol,
    t: sp.Symbol,
    kappa_rate: sp.Expr | None = None,
) -> None:
    r"""Append the checked steps 1–5 of the module docstring to ``d``.

    Arguments:
        d: the derivation to extend.
        model: the model whose unit field is decomposed.
        decomposition: ``K``, ``Q`` and the laws' generators.
        u: the symbols of the linear system's solution.
        kappa: the symbol of the scalar factor.
        t: the time.
        kappa_rate: the rate of :math:`\kappa` the back-substitution uses (default :math:`s(u)\kappa^3`; another
            one is for refuting a wrong variant).
    """
    x = list(decomposition.states)
    K, relations = decomposition.K, decomposition.relations
    field = [model.unit_field[s] for s in x]
    v = sp.Matrix(x)
    s_x = decomposition.s(x)
    modified = [sp.expand((K * v)[i] + s_x * x[i]) for i in range(len(x))]
    for i, name in enumerate(model.state_names):
        d.add(
            sp.Eq(field[i], modified[i], evaluate=False),
            f"the field of {name} is (K x + s(x) x) with K constant and s(x) = x^T Q x, on the level set of the "
            "conservation laws (ansatz and coefficient matching)",
            residual=field[i] - modified[i],
            relations=relations,
            key="linear_decomposition",
        )
    _ratio_steps(d, model, decomposition, t)
    for g in relations:
        rate = sum(sp.diff(g, s) * m for s, m in zip(x, modified, strict=True))
        d.add(
            sp.Eq(sp.Derivative(g, t), rate),
            "the level set of the law is invariant under x' = K x + s(x) x: its rate lies in the ideal of the laws "
            "(so the modified flow started on it stays on it, where it is the derived flow)",
            residual=rate,
            relations=relations,
            key="level_set",
        )
    states = set(x) | set(u) | {kappa, t}
    ku = K * sp.Matrix(list(u))
    functions = [sp.Function(str(ui))(t) for ui in u]
    for i, ui in enumerate(u):

        def constant(K: sp.ImmutableMatrix = K) -> Proof:
            depends = set().union(*(sp.sympify(e).free_symbols for e in K)) & states
            return Proof(not depends, "K is free of the time and the states", True, str(sorted(map(str, depends))))

        d.add(
            sp.Eq(sp.Derivative(functions[i], t), ku[i].xreplace(dict(zip(u, functions, strict=True)))),
            f"the linear system u' = K u, u(0) = x_0 (K constant: u(t) = expm(K t) x_0), component {ui}",
            verifier=constant,
            key="linear_system",
        )
    J = sp.Function("J")(t)
    s_u = decomposition.s(u)
    closed = 1 / sp.sqrt(1 - 2 * J)
    d.add(
        sp.Eq(sp.Derivative(sp.Function(str(kappa))(t), t), s_u * sp.Function(str(kappa))(t) ** 3),
        "kappa = (1 - 2 J)^(-1/2), with J(t) the integral of s(u) from 0 to t (J' = s(u), J(0) = 0), solves "
        "kappa' = s(u) kappa^3 with kappa(0) = 1",
        residual=sp.diff(closed, t).subs(sp.Derivative(J, t), s_u) - s_u * closed**3,
        key="kappa",
    )
    d.add(
        sp.Eq(sp.Function(str(kappa))(0), 1),
        "kappa(0) = 1 (J(0) = 0)",
        residual=closed.subs(J, 0) - 1,
        key="kappa",
    )
    rate = s_u * kappa**3 if kappa_rate is None else kappa_rate
    along = dict(zip(x, (kappa * ui for ui in u), strict=True))
    on_level = tuple(g.xreplace(along) for g in relations)
    for i, name in enumerate(model.state_names):
        d.add(
            sp.Eq(sp.Derivative(sp.Function(name)(t), t), modified[i]),
            f"check: {name} = kappa {u[i]} solves the modified flow x' = K x + s(x) x exactly (u' = K u, "
            "kappa' = s(u) kappa^3, s homogeneous of degree 2), so it stays on the level set of the start",
            residual=sp.expand(rate * u[i] + kappa * ku[i] - modified[i].xreplace(along)),
            key="back_substitution",
        )
    for i, name in enumerate(model.state_names):
        d.add(
            sp.Eq(sp.Derivative(sp.Function(name)(t), t), field[i]),
            f"check: {name} = kappa {u[i]} satisfies the flow (u' = K u, kappa' = s(u) kappa^3, on the level set)",
            residual=sp.expand(rate * u[i] + kappa * ku[i] - field[i].xreplace(along)),
            relations=on_level,
            key="back_substitution",
        )


def _ratio_steps(d: Derivation, model: Model, decomposition: Decomposition, t: sp.Symbol) -> None:
    r"""The ratios :math:`z_j = x_j/x_1` obey the constant-coefficient vector Riccati equation
    :math:`\dot z = k + Mz - z(k_{11} + k_1^\top z)` (:math:`K = [[k_{11}, k_1^\top], [k, M]]`; :math:`s` cancels),
    checked along the derived flow modulo the laws: the form the projective substitution :math:`z = m/\rho`
    linearizes (for the single neuron :math:`\dot z = \beta - \delta z - (\beta^\top z)z`, Kunin et al. 2024)."""
    x, K = list(decomposition.states), decomposition.K
    if len(x) < 2:
        return
    names = model.state_names
    z = [sp.Symbol(f"z_{n}", real=True) for n in names[1:]]
    k11, k1, k, M = K[0, 0], K[0, 1:], K[1:, 0], K[1:, 1:]
    Z = sp.Matrix(z)
    rhs = k + M * Z - Z * (k11 + (k1 * Z)[0, 0])
    field = [model.unit_field[s] for s in x]
    ratios = {zj: xj / x[0] for zj, xj in zip(z, x[1:], strict=True)}
    for j, zj in enumerate(z):
        rate = (field[j + 1] * x[0] - x[j + 1] * field[0]) / x[0] ** 2
        d.add(
            sp.Eq(sp.Derivative(sp.Function(str(zj))(t), t), sp.expand(rhs[j])),
            f"the ratio {zj} = {names[j + 1]}/{names[0]} obeys a constant-coefficient vector Riccati equation "
            f"(where {names[0]} is not 0), the form the projective substitution linearizes",
            residual=rate - rhs[j].xreplace(ratios),
            relations=decomposition.relations,
            key="ratio_riccati",
        )
