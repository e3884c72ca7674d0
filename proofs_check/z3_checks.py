"""Inequality claims decided by z3 over the reals (nonlinear real arithmetic, complete for polynomials).

A SymPy claim (a relational or a Boolean combination of them: ``And``, ``Or``, ``Not``, ``Implies``,
``Equivalent``) and its assumptions are translated to z3. Transcendental atoms are replaced by fresh variables
with their defining relations, as in tooling-notes §5: ``sqrt(X)`` by ``r`` with ``r ≥ 0`` and ``r² = X``,
``exp(X)`` by ``E > 0``; ``Abs``, ``Max`` and ``Min`` become ``If`` terms. Because z3's division is total, every
denominator must be proved non-zero and every radicand non-negative under the assumptions (the *definedness*
obligations): a claim is proved only if those and the claim follow, i.e. ``assumptions ∧ ¬claim`` is unsat. A
sat answer is a counterexample, reported from z3's model; an unknown answer is an error, never a verdict.
Symbol assumptions (``positive``, ``nonnegative``, …) are hypotheses too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import sympy as sp

from proofs_check.outcome import Z3, Outcome

try:  # z3-solver is the optional [verify] extra: without it the claims that need it report an error
    import z3
except ImportError:  # pragma: no cover - exercised only without the extra
    z3 = None

__all__ = ["METHOD", "Z3Result", "decide", "inequality", "to_z3"]

METHOD = "z3 (nonlinear real arithmetic)"
MISSING = (
    "z3-solver is not installed; install the verify extra: pip install 'layerwise-linear-flows[verify]' "
    "(from a source checkout: pip install -e '.[verify]')"
)
TIMEOUT_MS = 20_000

_SIGN_ASSUMPTIONS = (
    ("positive", lambda v: v > 0),
    ("negative", lambda v: v < 0),
    ("nonnegative", lambda v: v >= 0),
    ("nonpositive", lambda v: v <= 0),
    ("nonzero", lambda v: v != 0),
)


@dataclass
class _Translation:
    """State of one translation: variables, atom definitions and definedness obligations."""

    variables: dict[sp.Symbol, z3.ArithRef] = field(default_factory=dict)
    hypotheses: list[z3.BoolRef] = field(default_factory=list)
    atoms: dict[sp.Expr, z3.ArithRef] = field(default_factory=dict)
    definitions: list[tuple[sp.Expr, z3.BoolRef]] = field(default_factory=list)
    obligations: list[tuple[str, z3.BoolRef, sp.Expr | None]] = field(default_factory=list)

    def symbol(self, symbol: sp.Symbol) -> z3.ArithRef:
        if symbol not in self.variables:
            if symbol.is_integer:
                raise ValueError(f"claim: integer symbol {symbol} is not supported (real arithmetic only)")
            var = z3.Real(symbol.name)
            self.variables[symbol] = var
            self.hypotheses += [rule(var) for name, rule in _SIGN_ASSUMPTIONS if symbol.assumptions0.get(name)]
        return self.variables[symbol]

    def atom(self, expr: sp.Expr, hypotheses: Callable[[z3.ArithRef], list[z3.BoolRef]]) -> z3.ArithRef:
        """A fresh variable standing for the transcendental ``expr``, with its defining relations."""
        if expr not in self.atoms:
            var = z3.Real(f"atom{len(self.atoms)}[{expr}]")
            self.atoms[expr] = var
            self.definitions += [(expr, h) for h in hypotheses(var)]
        return self.atoms[expr]


def _number(expr: sp.Number) -> z3.ArithRef:
    if not expr.is_Rational:
        raise ValueError(f"claim: the number {expr} is not rational; z3 works with exact rationals")
    return z3.RealVal(f"{expr.p}/{expr.q}") if expr.q != 1 else z3.RealVal(str(expr.p))


def _power(tr: _Translation, expr: sp.Pow) -> z3.ArithRef:
    base, exponent = expr.base, expr.exp
    if exponent == sp.S.Half:
        radicand = _term(tr, base)
        tr.obligations.append((f"radicand of {expr} >= 0", radicand >= 0, expr))
        return tr.atom(expr, lambda r: [r >= 0, r * r == radicand])
    if exponent == -sp.S.Half:
        return _term(tr, 1 / sp.sqrt(base, evaluate=False))
    if not exponent.is_Integer:
        raise ValueError(f"claim: cannot translate the power {expr} (integer or 1/2 exponents only)")
    value = _term(tr, base)
    product = z3.RealVal(1)
    for _ in range(abs(int(exponent))):
        product = product * value
    if exponent < 0:
        tr.obligations.append((f"denominator {base} != 0", value != 0, None))
        return 1 / product
    return product


def _term(tr: _Translation, expr: sp.Expr) -> z3.ArithRef:
    """A real-valued SymPy expression as a z3 term."""
    expr = sp.sympify(expr, strict=True)
    if isinstance(expr, sp.Symbol):
        return tr.symbol(expr)
    if expr.is_Number:
        return _number(expr)
    if isinstance(expr, sp.Add):
        return z3.Sum([_term(tr, a) for a in expr.args])
    if isinstance(expr, sp.Mul):
        num, den = sp.fraction(expr)
        if den != 1:
            denominator = _term(tr, den)
            tr.obligations.append((f"denominator {den} != 0", denominator != 0, None))
            return _term(tr, num) / denominator
        return z3.Product([_term(tr, a) for a in expr.args])
    if isinstance(expr, sp.Pow):
        return _power(tr, expr)
    if isinstance(expr, sp.exp):
        return tr.atom(expr, lambda e: [e > 0])
    if isinstance(expr, sp.Abs):
        value = _term(tr, expr.args[0])
        return z3.If(value >= 0, value, -value)
    if isinstance(expr, (sp.Max, sp.Min)):
        values = [_term(tr, a) for a in expr.args]
        pick = (lambda x, y: z3.If(x >= y, x, y)) if isinstance(expr, sp.Max) else (lambda x, y: z3.If(x <= y, x, y))
        result = values[0]
        for value in values[1:]:
            result = pick(result, value)
        return result
    raise ValueError(f"claim: cannot translate {type(expr).__name__} {expr} to real arithmetic")


_RELATIONS = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def _formula(tr: _Translation, expr: sp.Basic) -> z3.BoolRef:
    """A SymPy relational or Boolean combination as a z3 formula."""
    if expr is sp.true or expr is sp.false:
        return z3.BoolVal(bool(expr))
    if isinstance(expr, sp.core.relational.Relational):
        return _RELATIONS[expr.rel_op](_term(tr, expr.lhs), _term(tr, expr.rhs))
    if not isinstance(expr, sp.logic.boolalg.Boolean):
        raise _unsupported(expr)
    args = [_formula(tr, a) for a in expr.args]
    if isinstance(expr, sp.And):
        return z3.And(args)
    if isinstance(expr, sp.Or):
        return z3.Or(args)
    if isinstance(expr, sp.Not):
        return z3.Not(args[0])
    if isinstance(expr, sp.Implies):
        return z3.Implies(args[0], args[1])
    if isinstance(expr, sp.Equivalent):
        return z3.And([a == args[0] for a in args[1:]])
    raise _unsupported(expr)


def _unsupported(expr: sp.Basic) -> ValueError:
    return ValueError(f"claim: {type(expr).__name__} {expr} is not a relation or a Boolean combination of them")


def to_z3(claim: sp.Basic, assumptions: Iterable[sp.Basic] = ()) -> tuple[z3.BoolRef, list[z3.BoolRef], _Translation]:
    """Translate ``claim`` and ``assumptions``: ``(goal, hypotheses, translation)``; ValueError if impossible."""
    tr = _Translation()
    hypotheses = [_formula(tr, sp.sympify(a, strict=True)) for a in assumptions]
    goal = _formula(tr, sp.sympify(claim, strict=True))
    return goal, hypotheses, tr


@dataclass(frozen=True)
class Z3Result:
    """``holds`` is True (proved), False (a counterexample in ``model``) or None (z3 answered unknown)."""

    holds: bool | None
    model: dict[str, str]
    seconds: float
    failed: str = ""


def _value(model: z3.ModelRef, var: z3.ArithRef) -> str:
    value = model.eval(var, model_completion=True)
    if z3.is_rational_value(value):
        return str(value.as_fraction())
    return value.as_decimal(15).rstrip("?") if z3.is_algebraic_value(value) else str(value)


def _check(hypotheses: list[z3.BoolRef], goal: z3.BoolRef, timeout_ms: int) -> tuple[z3.CheckSatResult, z3.Solver]:
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*hypotheses)
    solver.add(z3.Not(goal))
    return solver.check(), solver


def decide(claim: sp.Basic, assumptions: Iterable[sp.Basic] = (), timeout_ms: int = TIMEOUT_MS) -> Z3Result:
    """Decide whether ``assumptions`` imply ``claim`` (and its definedness) over the reals."""
    if z3 is None:
        raise RuntimeError(MISSING)
    start = time.perf_counter()
    goal, hypotheses, tr = to_z3(claim, assumptions)
    base = [*tr.hypotheses, *hypotheses]
    all_definitions = [h for _, h in tr.definitions]
    checks = [
        (what, [*base, *(h for atom, h in tr.definitions if atom is not own)], obligation)
        for what, obligation, own in tr.obligations
    ]
    checks.append(("the claim", [*base, *all_definitions], goal))
    for what, hyps, target in checks:
        answer, solver = _check(hyps, target, timeout_ms)
        if answer == z3.unknown:
            return Z3Result(None, {}, time.perf_counter() - start, f"{what}: {solver.reason_unknown()}")
        if answer == z3.sat:
            model = solver.model()
            values = {str(s): _value(model, v) for s, v in tr.variables.items()}
            values |= {str(atom): _value(model, v) for atom, v in tr.atoms.items()}
            return Z3Result(False, values, time.perf_counter() - start, what)
    return Z3Result(True, {}, time.perf_counter() - start)


def inequality(
    claim: sp.Basic,
    assumptions: Iterable[sp.Basic] = (),
    definitions: Mapping[sp.Symbol, sp.Expr] | None = None,
    what: str = "",
) -> Callable[[], Outcome]:
    """A claim check: ``claim`` (after substituting ``definitions``) follows from ``assumptions`` over the reals.

    Proved with method :data:`METHOD`; refuted with z3's model as the counterexample; an error if z3 answers
    unknown. ``what`` names the claim in the outcome's detail. The translation happens when the check runs, so
    an untranslatable claim is reported as that claim's error.
    """
    substitutions = dict(definitions or {})
    assumed = tuple(sp.sympify(a, strict=True).xreplace(substitutions) for a in assumptions)
    statement = sp.sympify(claim, strict=True).xreplace(substitutions)

    def check() -> Outcome:
        if z3 is None:
            return Outcome.error(MISSING)
        result = decide(statement, assumed)
        label = f"{what}: " if what else ""
        if result.holds is None:
            return Outcome.error(f"{METHOD}: unknown ({result.failed})", routes=(Z3,))
        if not result.holds:
            return Outcome.refuted(METHOD, result.model, f"{label}z3 model violates {result.failed}", routes=(Z3,))
        return Outcome.proved(METHOD, f"{label}negation unsat ({1000 * result.seconds:.0f} ms)", routes=(Z3,))

    return check
