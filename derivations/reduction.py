r"""Reduction of a model's unit flow to one scalar ODE: the shared clock of layerwise-linear units.

For two-layer units the derived flow has the form :math:`\dot x = (g\,A + C)\,x`, with :math:`x` the unit's
state, :math:`g` one scalar (a function of the sums through which the units couple, or of the unit's own state
when the units do not couple) and :math:`A`, :math:`C` constant commuting matrices (Nam et al. 2025, App. H,
eqs 77–81: :math:`g = (S-\theta)/Z`, :math:`A = \begin{psmallmatrix}0&1\\1&0\end{psmallmatrix}`). Everything
below is computed from the model's own field:

1. ``C`` collects the terms linear in the state with coefficients free of the state and the sums, ``g`` is the
   greatest common divisor of the rest (``sympy.gcd``) and ``A`` the Jacobian of the quotient, which must be
   linear in the state with constant coefficients;
2. the left eigenvectors :math:`\ell_j` of ``A`` (``Matrix.eigenvects``; ``C`` must be diagonal in the same
   basis, :math:`\ell_j C = \mu_j\ell_j`) give coordinates :math:`\chi_j = \ell_j\cdot x` with
   :math:`\dot\chi_j = (\lambda_j g + \mu_j)\chi_j` (for two-layer units :math:`\chi_1\chi_2` is the conserved
   :math:`a^2-b^2`, eq 78);
3. the clock :math:`\gamma = (\chi_*(t)/\chi_*(0))^e` of one coordinate (the one whose square enters the
   network's output with a positive sign) gives every coordinate as
   :math:`\chi_j(t) = \chi_j(0)\,\gamma^{\lambda_j/(e\lambda_*)}e^{(\mu_j - \mu_*\lambda_j/\lambda_*)t}`
   (eqs 79–81), the state back as :math:`x = R\chi` (eqs 72–73), and each coupling sum as a Laurent polynomial
   in :math:`\gamma` whose coefficients are new sums over the units' initial values (eqs 82–85);
4. :math:`\dot\gamma = e(\lambda_* g + \mu_*)\gamma` with those sums substituted is the clock ODE (eqs 86–87).

Invariant subsets: when the clock ODE depends on time (e.g. weight decay) it is retried with some coordinates
zero for every unit (a set the flow preserves), which removes their terms. Units whose field is not of this
form may still be solvable on the *balanced line* (all of a unit's states equal), when the flow preserves it and
the units do not couple: the state then obeys one autonomous scalar ODE.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import sympy as sp

from .derivation import Derivation, Step
from .model import Model, input_coefficients
from .naming import dot_symbol, unit_sum
from .proof import Proof, prove_zero

__all__ = [
    "LinearStructure",
    "ScalarReduction",
    "balanced_line",
    "clock_reduction",
    "invariant_subsets",
    "linear_structure",
    "prove_structure",
    "structure_step",
]


@dataclass(frozen=True)
class LinearStructure:
    """The unit field as :math:`(gA + C)x`: ``g`` scalar, ``A``, ``C`` constant; the rows of ``L`` are the left
    eigenvectors of ``A`` for its non-zero eigenvalues ``lam`` (with ``mu`` those of ``C``), the columns of ``R``
    the right ones (``L R = I``), and ``P0 = I - R L`` projects on the null space of ``A``."""

    states: tuple[sp.Symbol, ...]
    g: sp.Expr
    A: sp.Matrix
    C: sp.Matrix
    L: sp.Matrix
    R: sp.Matrix
    P0: sp.Matrix
    lam: tuple[sp.Expr, ...]
    mu: tuple[sp.Expr, ...]


@dataclass(frozen=True)
class ScalarReduction:
    """A scalar ODE ``y' = rhs`` reached by a reduction, with what maps its solution back to the unit's state.

    ``state`` expresses each state name through ``y`` (and ``t``), the initial values, the per-unit
    ``coordinates`` (symbol → expression in the unit's initial values, e.g. chi_1(0) = a_0 + b_0) and the new
    ``sums`` (symbol → per-unit summand in the initial values); ``y0`` is the start of ``y``; ``condition`` lists
    per-unit expressions in the initial values that must vanish (the invariant set); ``derivation`` the checked
    steps."""

    y: sp.Symbol
    rhs: sp.Expr
    y0: sp.Expr
    state: dict[str, sp.Expr]
    sums: dict[sp.Symbol, sp.Expr]
    condition: tuple[sp.Expr, ...]
    derivation: Derivation
    description: str
    coupled: bool
    nonzero: tuple[sp.Expr, ...] = ()
    coordinates: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    initial_rate: sp.Expr | None = None


def _coupling_sums(model: Model) -> dict[sp.Symbol, sp.Expr]:
    """The sums that appear in the unit field (symbol → per-unit summand)."""
    free = set().union(*(f.free_symbols for f in model.unit_field.values()))
    return {model.symbol(n): q.expr for n, q in model.quantities.items() if q.kind == "sum" and model.symbol(n) in free}


def linear_structure(model: Model) -> LinearStructure | str:
    """The field's form ``(gA + C)x`` (module docstring, item 1), or the reason it has none."""
    field = model.unit_field
    states = tuple(model.symbol(n) for n in model.state_names)
    sums = tuple(_coupling_sums(model))
    variables = (*states, *sums)
    F = sp.Matrix([sp.expand(field[s]) for s in states])
    if not all(f.is_polynomial(*variables) for f in F):
        return "the unit field is not polynomial in the unit's state and the sums"
    # first the whole field over one common factor (C = 0), then with the constant linear part C split off
    C = sp.Matrix(len(states), len(states), lambda i, j: _linear_constant_coefficient(F[i], states[j], variables))
    for constant in (sp.zeros(len(states)), C):
        found = _common_factor(sp.expand(F - constant * sp.Matrix(states)), states, variables)
        if not isinstance(found, str):
            (g, A), C = found, constant
            break
        reason = found
    else:
        return reason
    if sp.expand(A * C - C * A) != sp.zeros(*A.shape):
        return f"the constant parts A = {A.tolist()} and C = {C.tolist()} do not commute"
    return _eigen_structure(states, g, A, C)


def _eigen_structure(states: tuple[sp.Symbol, ...], g: sp.Expr, A: sp.Matrix, C: sp.Matrix) -> LinearStructure | str:
    """Left and right eigenvectors of ``A`` for its non-zero eigenvalues, biorthonormal (``L R = I``), and the
    projector ``P0 = I - R L`` on its null space, on which ``C`` must vanish (those coordinates stay constant)."""
    left = {value: vectors for value, _, vectors in A.T.eigenvects()}
    right = {value: vectors for value, _, vectors in A.eigenvects()}
    if any(value.is_real is False for value in left):
        return f"A = {A.tolist()} has complex eigenvalues: the units rotate, no real clock"
    if sum(len(v) for v in left.values()) < len(states):
        return f"A = {A.tolist()} is not diagonalizable"
    rows, columns, lam = [], [], []
    for value in sorted((v for v in left if v != 0), key=lambda v: -_sort_value(v)):
        block_left = sp.Matrix([_normalized(v) for v in left[value]])
        block_right = sp.Matrix.hstack(*right[value])
        block_right = sp.simplify(block_right * (block_left * block_right).inv())
        rows.extend(block_left.tolist())
        columns.extend(block_right.T.tolist())
        lam.extend([value] * len(left[value]))
    L, R = sp.Matrix(rows), sp.Matrix(columns).T
    P0 = sp.simplify(sp.eye(len(states)) - R * L)
    if sp.simplify(C * P0) != sp.zeros(*C.shape):
        return f"C = {C.tolist()} does not vanish on the null space of A = {A.tolist()}"
    M = sp.simplify(L * C * R)
    if not M.is_diagonal():
        return f"C = {C.tolist()} is not diagonal in the eigenbasis of A"
    return LinearStructure(states, g, A, C, L, R, P0, tuple(lam), tuple(M[j, j] for j in range(len(lam))))


def _common_factor(
    rest: sp.Matrix, states: tuple[sp.Symbol, ...], variables: tuple[sp.Symbol, ...]
) -> tuple[sp.Expr, sp.Matrix] | str:
    """``(g, A)`` with ``rest = g A x``, ``g`` the gcd of the components and ``A`` constant, or the reason."""
    if rest == sp.zeros(*rest.shape):
        return "the unit field is linear with constant coefficients (no product of layers)"
    g = sp.S.Zero
    for component in rest:
        g = sp.gcd(g, component)
    quotient = sp.Matrix([sp.cancel(component / g) for component in rest])
    A = quotient.jacobian(states)
    varying = sorted(map(str, A.free_symbols & set(variables)))
    if varying or sp.expand(quotient - A * sp.Matrix(states)) != sp.zeros(*quotient.shape):
        why = f"its Jacobian depends on {', '.join(varying)}" if varying else "it is not linear in the state"
        return f"the unit field is not (g A + C) x with constant A, C: after the common factor g = {g}, {why}"
    return g, A


def _normalized(vector: sp.Matrix) -> list[sp.Expr]:
    """The vector scaled to first non-zero entry 1, then cleared of the entries' common denominator."""
    first = next(v for v in vector if v != 0)
    entries = [sp.simplify(v / first) for v in vector]
    denominator = sp.lcm_list([sp.fraction(sp.together(v))[1] for v in entries])
    return [sp.simplify(v * denominator) for v in entries]


def _sort_value(value: sp.Expr) -> float:
    sample = value.xreplace({s: sp.Rational(3, 2) for s in value.free_symbols})
    return float(sp.N(sample))


def _linear_constant_coefficient(component: sp.Expr, state: sp.Symbol, variables: tuple[sp.Symbol, ...]) -> sp.Expr:
    """The coefficient of the monomial ``state`` (degree 1, nothing else of ``variables``) in ``component``."""
    poly = sp.Poly(component, *variables)
    monomial = tuple(1 if v == state else 0 for v in variables)
    return poly.as_dict().get(monomial, sp.S.Zero)


def _output_sign(model: Model, structure: LinearStructure, j: int) -> bool:
    """True if the square of coordinate ``j`` enters the network's output with a positive coefficient."""
    inst = model.instance(1)
    coefficient = next(
        c for c in input_coefficients(inst.outputs[0], inst.inputs) if c.free_symbols & set(inst.variables)
    )
    unit = coefficient.xreplace(inst.unit_renaming(0))
    chi = sp.symbols(f"chi_1:{len(structure.lam) + 1}", real=True)
    in_chi = sp.expand(unit.xreplace(dict(zip(structure.states, structure.R * sp.Matrix(chi), strict=True))))
    return bool(sp.Poly(in_chi, *chi).coeff_monomial(chi[j] ** 2).is_positive)


def clock_reduction(
    model: Model,
    structure: LinearStructure,
    zero: tuple[int, ...],
    names: dict[str, sp.Symbol],
    tags: Mapping[str, str] | None = None,
) -> ScalarReduction | str:
    """The clock ODE of module docstring items 2–4 with the coordinates ``zero`` vanishing for every unit; its steps
    tagged by ``tags`` (step key -> tag, ``Derivation.tagged``), if given."""
    states, n = structure.states, len(structure.lam)
    sums = _coupling_sums(model)
    g_free = structure.g.free_symbols
    per_unit = bool(g_free & set(states))
    if per_unit and sums:
        return (
            f"the clock rate g = {structure.g} depends on the unit's own state and the units couple through "
            f"{sorted(map(str, sums))}: one clock per unit, coupled, no scalar reduction"
        )
    survivors = [j for j in range(n) if j not in zero]
    candidates = survivors
    if not candidates:
        return "every coordinate with a non-zero rate is set to zero"
    star = next((j for j in candidates if _output_sign(model, structure, j)), candidates[0])
    t, gamma = names["t"], names["clock"]
    lam, mu = structure.lam, structure.mu
    chi0 = sp.symbols(f"chi_1:{n + 1}(0)", real=True)
    init = [model.init_symbol(s.name) for s in states]
    unit_symbols = _UnitSymbols(
        tuple(model.symbol(n) for n in model.unit_param_names),
        tuple(init),
        frozenset((*model.unit_symbols, *model.quantities)),
    )
    d = Derivation("clock reduction")
    x = sp.Matrix(states)
    for j in range(n):
        coordinate = (structure.L[j, :] * x)[0]
        d.add(
            sp.Eq(sp.Symbol(f"chi_{j + 1}"), coordinate),
            f"a left eigenvector of A (sympy eigenvects, normalized), eigenvalue {j + 1} of {n}",
            verifier=lambda j=j: _all_zero(structure.L[j, :] * structure.A - lam[j] * structure.L[j, :]),
            key="eigen",
        )
        d.add(
            sp.Eq(
                sp.Derivative(sp.Function(f"chi_{j + 1}")(t), t),
                (lam[j] * structure.g + mu[j]) * sp.Symbol(f"chi_{j + 1}"),
            ),
            f"so chi_{j + 1} grows at its own rate",
            residual=model.unit_time_derivative(coordinate) - (lam[j] * structure.g + mu[j]) * coordinate,
            key="eigen",
        )
    G = sp.Symbol("G", positive=True)
    ratio = {j: lam[j] / lam[star] for j in survivors}
    drift = {j: mu[j] - mu[star] * ratio[j] for j in survivors}
    growth = {j: G ** ratio[j] * sp.exp(drift[j] * t) for j in survivors}
    constant = structure.P0 * sp.Matrix(init)
    x_G = structure.R * sp.Matrix([chi0[j] * growth[j] if j in survivors else 0 for j in range(n)]) + constant
    in_G = dict(zip(states, x_G, strict=True))
    laurent = {Q: _laurent(q.xreplace(in_G), G) for Q, q in sums.items()}
    rate = _laurent(structure.g.xreplace(in_G), G) if per_unit else structure.g
    exponents = {e for expr in (*laurent.values(), rate) for e in _G_exponents(expr, G)} - {0}
    if not all(e.is_rational for e in exponents):
        return f"the coordinates grow at incommensurate powers {sorted(map(str, exponents))} of one clock"
    e = sp.gcd_list([sp.Rational(v) for v in exponents]) if exponents else sp.Integer(2)
    to_gamma = {G: gamma ** (1 / e)}
    d.add(
        sp.Eq(gamma, (sp.Function(f"chi_{star + 1}")(t) / chi0[star]) ** e),
        f"the clock: chi_{star + 1} (whose square enters the output positively) relative to its start, to the power "
        f"{e}, so gamma(0) = 1",
        residual=sp.S.Zero,
        key="clock",
    )
    gamma_dot = e * (lam[star] * structure.g + mu[star]) * gamma
    d.add(
        sp.Eq(sp.Derivative(sp.Function(str(gamma))(t), t), gamma_dot),
        f"the clock's rate, from the rate of chi_{star + 1}",
        residual=sp.diff((sp.Symbol("X") / chi0[star]) ** e, sp.Symbol("X"))
        * (lam[star] * structure.g + mu[star])
        * sp.Symbol("X")
        - gamma_dot.xreplace({gamma: (sp.Symbol("X") / chi0[star]) ** e}),
        key="clock_rate",
    )
    chi_t = {}
    for j in survivors:
        value = (chi0[j] * growth[j]).xreplace(to_gamma)
        chi_t[j] = value
        d.add(
            sp.Eq(sp.Function(f"chi_{j + 1}")(t), value),
            f"chi_{j + 1} along the clock",
            residual=sp.diff(value, gamma) * gamma_dot + sp.diff(value, t) - (lam[j] * structure.g + mu[j]) * value,
            key="coordinates",
        )
    for j in zero:
        d.add(
            sp.Eq(sp.Function(f"chi_{j + 1}")(t), 0),
            f"chi_{j + 1}(0) = 0 for every unit, and chi_{j + 1}' is proportional to chi_{j + 1}: it stays 0",
            residual=sp.S.Zero,
            key="coordinates",
        )
    chi_init = {chi0[j]: (structure.L[j, :] * sp.Matrix(init))[0] for j in range(n)}
    x_t = structure.R * sp.Matrix([chi_t.get(j, 0) for j in range(n)]) + constant
    state = dict(zip((s.name for s in states), x_t, strict=True))
    for j in survivors:
        d.add(
            sp.Eq(chi0[j], chi_init[chi0[j]]),
            f"the start of chi_{j + 1}, one per unit",
            residual=sp.S.Zero,
            key="coordinates_init",
        )
    for s in states:
        d.add(
            sp.Eq(sp.Function(s.name)(t), state[s.name]),
            f"{s.name} = (R chi + P0 x(0))_{s.name}: the null-space part P0 x stays constant",
            residual=sp.S.Zero,
            key="state",
        )
    identities = (
        structure.L * structure.R - sp.eye(n),
        structure.L * structure.P0,
        structure.P0 * structure.R,
        structure.P0 * structure.P0 - structure.P0,
    )
    d.add(
        sp.Eq(sp.Symbol("L x(t)"), sp.Symbol("chi(t)")),
        "check: L R = I, L P0 = 0, P0 R = 0, P0^2 = P0, so the state has the eigen-coordinates chi(t) and the "
        "constant null-space part",
        verifier=lambda: _all_zero(entry for matrix in identities for entry in matrix),
        key="state",
    )
    new_sums: dict[sp.Symbol, sp.Expr] = {}
    in_gamma: dict[sp.Symbol, sp.Expr] = {}
    for Q, expr in laurent.items():
        q = sums[Q]
        terms = _G_terms(expr, G, e)
        total = sp.S.Zero
        for power, coefficient in terms.items():
            # a sum is over the units' initial values: a factor that depends on time stays outside it
            summand, time_factor = sp.factor(coefficient).as_independent(t, as_Add=False)
            symbol = sp.Symbol(f"{Q}[{'+' if power > 0 else ''}{power}]", real=True)
            new_sums[symbol] = summand.xreplace(chi_init)
            total += symbol * time_factor * gamma**power
        in_gamma[Q] = total
        d.add(
            sp.Eq(Q, total),
            f"the sum {Q} along the clock, one unit's summand at a time (so for every width), with the sums over the "
            "units' initial values defined next",
            residual=q.xreplace({s: state[s.name] for s in states}).xreplace(chi_init) - total.xreplace(new_sums),
            key="sums",
        )
        for symbol in (s for s in new_sums if str(s).startswith(f"{Q}[")):
            _define_sum(d, symbol, new_sums[symbol], unit_symbols)
    rate_gamma = rate.xreplace(to_gamma) if per_unit else structure.g.xreplace(in_gamma)
    # collected in gamma with factored coefficients, so that (a_0 ± b_0)^2 stay squares (no cancellation)
    expanded = sp.expand(sp.powsimp(sp.expand(e * (lam[star] * rate_gamma + mu[star]) * gamma)))
    rhs = sp.collect(expanded, gamma, sp.factor).xreplace(chi_init)
    rate_gamma = rate_gamma.xreplace(chi_init)
    d.add(
        sp.Eq(sp.Derivative(sp.Function(str(gamma))(t), t), rhs),
        "the clock equation: gamma' = e (lambda g + mu) gamma with the sums along the clock",
        residual=e * (lam[star] * rate_gamma + mu[star]) * gamma - rhs,
        key="clock_ode",
    )
    condition = tuple((structure.L[j, :] * sp.Matrix(init))[0] for j in zero)
    initial_rate = _initial_rate(
        d,
        structure,
        (states, init, unit_symbols),
        (sums, new_sums, in_gamma),
        rhs,
        (e, lam[star], mu[star]),
        (gamma, t),
        per_unit,
        condition,
    )
    description = f"clock gamma = (chi_{star + 1}(t)/chi_{star + 1}(0))^{e}"
    if zero:
        description += " on the invariant set " + ", ".join(f"{c} = 0" for c in condition)
    # the eigen-decomposition divides by these parameter expressions: the closed form assumes them non-zero
    denominators = {sp.fraction(sp.together(v))[1] for v in (*structure.L, *structure.R)} | {lam[star]}
    nonzero = tuple(sorted((q for q in denominators if q.free_symbols), key=str))
    coordinates = {chi0[j]: chi_init[chi0[j]] for j in survivors}
    return ScalarReduction(
        gamma,
        rhs,
        sp.S.One,
        state,
        new_sums,
        condition,
        d.tagged(tags) if tags else d,
        description,
        not per_unit,
        nonzero,
        coordinates,
        initial_rate,
    )


def _initial_rate(d, structure, unit, sums_, rhs, rates, symbols, per_unit, condition) -> sp.Expr:
    """The clock's rate at t = 0 from the start itself, e (lambda g(x(0)) + mu) with the coupling sums at t = 0
    as new sums ``Q(0)`` of the units' initial values: no cancellation between the clock equation's coefficients
    (which the numerics' increment form needs when the clock barely moves). Recorded and checked against the
    clock equation at gamma = 1 (on the invariant set ``condition`` when there is one)."""
    states, init, unit_symbols = unit
    sums, new_sums, in_gamma = sums_
    e, lam, mu = rates
    gamma, t = symbols
    at_start = {s: i for s, i in zip(states, init, strict=True)}
    if per_unit:
        rate = e * (lam * structure.g.xreplace(at_start) + mu)
        check = rate - rhs.xreplace({gamma: 1, t: 0})
        d.add(
            sp.Eq(sp.Derivative(sp.Function(str(gamma))(t), t).subs(t, 0), rate),
            "the clock's rate at the start, from the unit's initial state",
            residual=check,
            key="initial_rate",
        )
        return rate
    starts = {}
    for Q, q in sums.items():
        symbol = sp.Symbol(f"{Q}(0)", real=True)
        new_sums[symbol] = q.xreplace(at_start)
        starts[Q] = symbol
    rate = e * (lam * structure.g.xreplace(starts) + mu)
    along_at_start = {symbol: in_gamma[Q].xreplace({gamma: 1, t: 0}) for Q, symbol in starts.items()}
    d.add(
        sp.Eq(sp.Derivative(sp.Function(str(gamma))(t), t).subs(t, 0), rate),
        "the clock's rate at the start, with the coupling sums of the initial values (sums defined next)",
        verifier=lambda: _all_zero(
            [
                rate.xreplace(along_at_start) - rhs.xreplace({gamma: 1, t: 0}),
                *(new_sums[s] - in_gamma[Q].xreplace({gamma: 1, t: 0}).xreplace(new_sums) for Q, s in starts.items()),
            ],
            condition,
        ),
        key="initial_rate",
    )
    for symbol in starts.values():
        _define_sum(d, symbol, new_sums[symbol], unit_symbols)
    return rate


@dataclass(frozen=True)
class _UnitSymbols:
    """What a sum over the units of initial values renames for unit i (the unit parameters, the states' initial
    values) and the model's names that its index must not be read as."""

    parameters: tuple[sp.Symbol, ...]
    init: tuple[sp.Symbol, ...]
    taken: frozenset[str]


def _define_sum(d: Derivation, symbol: sp.Symbol, summand: sp.Expr, unit: _UnitSymbols) -> None:
    """Record ``symbol`` as the sum of ``summand`` over the units (a definition, so its residual is zero), its
    symbols written for unit i (``naming.unit_sum``)."""
    d.add(
        sp.Eq(symbol, unit_sum(summand, unit.parameters, unit.init, unit.taken)),
        "a sum over the units of their initial values",
        residual=sp.S.Zero,
        key="sum_definition",
    )


def _all_zero(entries: Iterable[sp.Expr], relations: Iterable[sp.Expr] = ()) -> Proof:
    """Proved iff every entry vanishes (each checked alone, so that each stays small), given ``relations``."""
    relations = tuple(relations)
    for entry in entries:
        proof = prove_zero(entry, relations=relations)
        if not (proof.holds and proof.exact):
            return proof
    return Proof(True, "entrywise", True)


def _laurent(expr: sp.Expr, G: sp.Symbol) -> sp.Expr:
    """``expr`` as a sum of powers of ``G`` with simplified, non-zero coefficients (radicals of the parameters can
    hide a zero coefficient from ``expand``)."""
    terms: dict[sp.Expr, sp.Expr] = {}
    for term in sp.Add.make_args(sp.expand(sp.powsimp(sp.expand(expr)))):
        power = term.as_powers_dict().get(G, sp.S.Zero)
        terms[power] = terms.get(power, sp.S.Zero) + term / G**power
    return sp.Add(*(G**p * c for p, c in ((p, sp.simplify(c)) for p, c in terms.items()) if c != 0))


def _G_exponents(expr: sp.Expr, G: sp.Symbol) -> set[sp.Expr]:
    return {term.as_powers_dict().get(G, sp.S.Zero) for term in sp.Add.make_args(expr)}


def _G_terms(expr: sp.Expr, G: sp.Symbol, e: sp.Expr) -> dict[int, sp.Expr]:
    """Coefficients of ``expr`` (a Laurent polynomial in ``G = gamma^(1/e)``) by integer power of ``gamma``."""
    terms: dict[int, sp.Expr] = {}
    for term in sp.Add.make_args(sp.expand(expr)):
        power = term.as_powers_dict().get(G, sp.S.Zero)
        terms[int(power / e)] = terms.get(int(power / e), sp.S.Zero) + term / G**power
    return {p: sp.expand(c) for p, c in sorted(terms.items(), reverse=True) if sp.expand(c) != 0}


def invariant_subsets(model: Model, structure: LinearStructure) -> list[tuple[int, ...]]:
    """Proper subsets of the coordinates to set to zero, smallest first; coordinates whose square does not enter
    the output positively are dropped first (for two-layer units: a_i = b_i before a_i = -b_i)."""
    n = len(structure.lam)
    order = sorted(range(n), key=lambda j: _output_sign(model, structure, j))
    return [combo for size in range(1, n) for combo in itertools.combinations(order, size)]


def balanced_line(
    model: Model, names: dict[str, sp.Symbol], tags: Mapping[str, str] | None = None
) -> ScalarReduction | str:
    """The balanced line (all of a unit's states equal): invariant if the field's components agree there; on it
    the first state obeys one autonomous scalar ODE, provided the units do not couple. Its steps are tagged by
    ``tags`` (step key -> tag, ``Derivation.tagged``), if given."""
    if _coupling_sums(model):
        return "the units couple through sums, so the balanced line gives one equation per unit"
    states = [model.symbol(n) for n in model.state_names]
    y, field = states[0], model.unit_field
    line = {s: y for s in states}
    on_line = [sp.expand(field[s].xreplace(line)) for s in states]
    if any(sp.expand(v - on_line[0]) != 0 for v in on_line[1:]):
        return "the balanced line (all states of a unit equal) is not invariant"
    t = names["t"]
    init = [model.init_symbol(s.name) for s in states]
    d = Derivation("balanced line")
    for s in states[1:]:
        d.add(
            sp.Eq(sp.Derivative(sp.Function(f"{s}")(t) - sp.Function(f"{y}")(t), t), 0),
            f"on the line {', '.join(f'{v} = {y}' for v in states[1:])} the velocities agree, so it is invariant",
            residual=(field[s] - field[y]).xreplace(line),
            key="balanced",
        )
    d.add(
        sp.Eq(sp.Derivative(sp.Function(str(y))(t), t), on_line[0]),
        "the flow on the balanced line",
        residual=field[y].xreplace(line) - on_line[0],
        key="clock_ode",
    )
    condition = tuple(i - init[0] for i in init[1:])
    state = {s.name: y for s in states}
    return ScalarReduction(
        y,
        on_line[0],
        init[0],
        state,
        {},
        condition,
        d.tagged(tags) if tags else d,
        "the balanced line " + ", ".join(f"{s} = {y}" for s in states[1:]),
        False,
    )


def prove_structure(model: Model, structure: LinearStructure) -> sp.Expr:
    """The residual of ``field - (gA + C)x`` (a vector, zero iff the structure is right)."""
    x = sp.Matrix(structure.states)
    field = sp.Matrix([model.unit_field[s] for s in structure.states])
    return field - (structure.g * structure.A + structure.C) * x


def structure_step(model: Model, structure: LinearStructure, d: Derivation) -> None:
    """Insert, as the first step of ``d``, the field's form ``(g A + C) x``, checked against the derived field."""
    x = sp.Matrix(structure.states)
    rates = sp.Matrix([dot_symbol(s) for s in structure.states])
    step = Step(
        sp.Eq(rates, sp.MatMul(structure.g * structure.A + structure.C, x, evaluate=False), evaluate=False),
        "the field is (g A + C) x: g the greatest common divisor of its non-constant part (sympy.gcd), A and C "
        "constant",
        residual=sp.Add(*(c**2 for c in prove_structure(model, structure))),
        key="structure",
    )
    d.steps.insert(0, step)
