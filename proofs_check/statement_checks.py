"""The checks that follow from a statement: how :meth:`proofs_check.Paper.claim` decides a claim.

* ``Eq(lhs, rhs)`` (entrywise for matrices): after the paper's notation is substituted, ``lhs - rhs`` is proved to
  vanish identically by :func:`derivations.proof.prove_zero`; otherwise it is refuted with a counterexample, a
  sampled point (30 digits) where the two sides differ and every SymPy assumption of the claim holds; if neither,
  the claim is an error (undecided), never a verdict.
* Any other relation or Boolean combination: z3 over the reals, under the claim's SymPy assumptions
  (:func:`proofs_check.z3_checks.inequality`): proved, refuted with z3's model, or an error if z3 cannot decide.
* An erratum: the printed statement must be refuted and the corrected one proved or numerically supported.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

import mpmath
import sympy as sp

from derivations.proof import Proof, prove_zero
from proofs_check.outcome import COUNTEREXAMPLE, SYMPY_EQ, Outcome, Status
from proofs_check.z3_checks import inequality

__all__ = ["SAMPLES", "decide", "equal_sides", "erratum", "sample_counterexample"]

SAMPLES = 400
"""Points tried when looking for a counterexample."""
DIGITS = 30
SEPARATION = mpmath.mpf(10) ** -15
"""Relative gap between the two sides that makes a sampled point a counterexample (far above 30-digit round-off)."""

Substitute = Callable[[sp.Basic], sp.Basic]


def decide(statement: sp.Basic, substitute: Substitute, conditions: Sequence[sp.Basic] = ()) -> Outcome:
    """The verdict on ``statement`` (see the module docstring); ``substitute`` applies the paper's notation."""
    if isinstance(statement, sp.Equality):
        return _equality(statement, substitute, conditions)
    if isinstance(statement, (sp.core.relational.Relational, sp.logic.boolalg.Boolean)):
        return inequality(substitute(statement), [substitute(c) for c in conditions])()
    raise ValueError(f"a statement must be an Eq, another relation or a Boolean combination, got {statement}")


def erratum(
    claim_id: str,
    printed: sp.Basic,
    corrected: sp.Basic,
    substitute: Substitute,
    conditions: Sequence[sp.Basic] = (),
) -> Outcome:
    """The printed form must be refuted and the corrected one verified; an ERROR naming ``claim_id`` if the printed
    form is in fact true (then ``corrected=`` is misused)."""
    printed_outcome = decide(printed, substitute, conditions)
    outcome = Outcome.erratum(printed_outcome, decide(corrected, substitute, conditions), str(printed), str(corrected))
    if printed_outcome.status is Status.PROVED:
        detail = f"claim {claim_id}: corrected= is given but the printed statement is proved true, so it is no erratum"
        return Outcome.error(f"{detail}; {outcome.detail}", routes=outcome.routes)
    return outcome


def _sides(statement: sp.Equality, substitute: Substitute) -> tuple[list[sp.Expr], list[sp.Expr]]:
    lhs, rhs = substitute(statement.lhs), substitute(statement.rhs)
    if isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
        return list(sp.Matrix(lhs)), list(sp.Matrix(rhs))
    return [lhs], [rhs]


def _equality(statement: sp.Equality, substitute: Substitute, conditions: Sequence[sp.Basic]) -> Outcome:
    lhs, rhs = _sides(statement, substitute)
    conditions = [substitute(c) for c in conditions]
    # equations among the assumptions are side relations of the proof (Gröbner normal form)
    relations = [c.lhs - c.rhs for c in conditions if isinstance(c, sp.Equality)]
    return equal_sides(lhs, rhs, relations, conditions)


def equal_sides(
    lhs: Sequence[sp.Expr],
    rhs: Sequence[sp.Expr],
    relations: Sequence[sp.Expr] = (),
    conditions: Sequence[sp.Basic] = (),
) -> Outcome:
    """Proved if every ``lhs[k] - rhs[k]`` vanishes identically (given the polynomial ``relations``); refuted with a
    sampled counterexample under ``conditions`` otherwise; an error (undecided) if neither."""
    methods = set()
    for left, right in zip(lhs, rhs, strict=True):
        proof = _prove(sp.sympify(left, strict=True) - sp.sympify(right, strict=True), relations)
        if not proof.holds:
            witness = sample_counterexample(left, right, conditions)
            # the verdict rests on both: the exact proof did not close, and the sampler found (or missed) a point
            routes = (SYMPY_EQ, COUNTEREXAMPLE)
            if witness is not None:
                method = f"numeric counterexample ({DIGITS} digits)"
                return Outcome.refuted(method, witness, f"residual {proof.residual}", routes=routes)
            return Outcome.error(
                f"undecided: no exact method proved lhs - rhs = 0 (residual {proof.residual}) and no counterexample "
                f"was found at {SAMPLES} sampled points",
                routes=routes,
            )
        methods.add(proof.method)
    return Outcome.proved(", ".join(sorted(methods)), routes=(SYMPY_EQ,))


def _prove(residual: sp.Expr, relations: Sequence[sp.Expr]) -> Proof:
    """``prove_zero`` on the residual and on it with (inverse) hyperbolic functions written as exp and log, which the
    rational and Gröbner methods handle (tried first when the residual has such functions); the first failure is
    returned if none closes."""
    proofs = (prove_zero(candidate, relations=relations) for candidate in _rewritten(residual))
    first = next(proofs)
    return first if first.holds else next((proof for proof in proofs if proof.holds), first)


def _rewritten(residual: sp.Expr) -> Iterator[sp.Expr]:
    """The residual as it is and in exp / log form, each distinct form once, built as they are asked for."""
    as_is = [lambda e: e]
    rewrites = [lambda e: e.rewrite(sp.exp), lambda e: e.rewrite(sp.log), lambda e: e.rewrite(sp.exp).rewrite(sp.log)]
    hyperbolic = residual.has(sp.sinh, sp.cosh, sp.tanh, sp.coth, sp.asinh, sp.acosh, sp.atanh, sp.acoth)
    tried = set()
    for rewrite in [*rewrites, *as_is] if hyperbolic else [*as_is, *rewrites]:
        candidate = rewrite(residual)
        if candidate not in tried:
            tried.add(candidate)
            yield candidate


def _draw(symbol: sp.Symbol, rng: random.Random) -> mpmath.mpf:
    """A value in the symbol's domain: magnitudes log-uniform in [0.1, 10], the sign its assumptions allow."""
    if symbol.is_integer:
        return mpmath.mpf(rng.randint(1, 6) * (-1 if symbol.is_negative else 1))
    magnitude = mpmath.mpf(10) ** mpmath.mpf(rng.uniform(-1, 1))
    if symbol.is_negative or symbol.is_nonpositive:
        return -magnitude
    if symbol.is_nonnegative:
        return magnitude
    return magnitude if rng.random() < 0.5 else -magnitude


def _real(value: object) -> mpmath.mpf | None:
    if isinstance(value, mpmath.mpc):
        return value.real if abs(value.imag) <= SEPARATION * max(1, abs(value.real)) else None
    try:
        return mpmath.mpf(value)
    except (TypeError, ValueError):
        return None


def _solve_definitions(
    lhs: sp.Expr, rhs: sp.Expr, conditions: list[sp.Basic]
) -> tuple[sp.Expr, sp.Expr, list[sp.Basic]]:
    """Use each condition ``Eq(x**n, e)`` (x a symbol not in e) to eliminate x from the sides and the rest."""
    for condition in list(conditions):
        if not isinstance(condition, sp.Equality):
            continue
        base = condition.lhs.base if isinstance(condition.lhs, sp.Pow) else condition.lhs
        if not isinstance(base, sp.Symbol) or base in condition.rhs.free_symbols:
            continue
        roots = sp.solve(condition, base)
        if not roots:
            continue
        conditions.remove(condition)
        lhs, rhs = lhs.xreplace({base: roots[0]}), rhs.xreplace({base: roots[0]})
        conditions = [c.xreplace({base: roots[0]}) for c in conditions]
    return lhs, rhs, [c for c in conditions if c is not sp.true]


def sample_counterexample(
    lhs: sp.Expr, rhs: sp.Expr, conditions: Sequence[sp.Basic] = (), samples: int = SAMPLES, seed: int = 0
) -> dict[str, str] | None:
    """A point (30 digits) where every condition holds and ``lhs`` and ``rhs`` differ by more than
    :data:`SEPARATION` relative to their size, or None. Points where a side is not real or not defined are skipped.

    An equation ``Eq(x**n, e)`` or ``Eq(x, e)`` among the conditions defines ``x`` (the root its assumptions allow);
    the other conditions are imposed by rejection."""
    lhs, rhs, conditions = _solve_definitions(
        sp.sympify(lhs, strict=True), sp.sympify(rhs, strict=True), list(conditions)
    )
    symbols = sorted(lhs.free_symbols.union(rhs.free_symbols, *(c.free_symbols for c in conditions)), key=str)
    if any(isinstance(f, sp.core.function.AppliedUndef) for f in (lhs - rhs).atoms(sp.Function)):
        return None
    rng = random.Random(seed)
    with mpmath.workdps(DIGITS):
        left, right = (sp.lambdify(symbols, side, modules="mpmath") for side in (lhs, rhs))
        tests = [sp.lambdify(symbols, c, modules="mpmath") for c in conditions]
        for _ in range(samples):
            point = [_draw(s, rng) for s in symbols]
            try:
                if not all(bool(test(*point)) for test in tests):
                    continue
                a, b = _real(left(*point)), _real(right(*point))
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                continue
            if a is None or b is None or not (mpmath.isfinite(a) and mpmath.isfinite(b)):
                continue
            if abs(a - b) > SEPARATION * max(1, abs(a), abs(b)):
                witness = {str(s): mpmath.nstr(v, 12) for s, v in zip(symbols, point, strict=True)}
                return {**witness, "lhs": mpmath.nstr(a, 12), "rhs": mpmath.nstr(b, 12)}
    return None
