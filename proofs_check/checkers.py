"""Checkers that turn exact proofs (``derivations.proof``) and numeric evidence into claim outcomes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import mpmath
import sympy as sp

from derivations.derivation import Derivation
from derivations.proof import prove_zero
from numerics import trajectory
from numerics.aligned import aligned_case, full_flow_error, gd_errors
from proofs_check.claims import Outcome

__all__ = [
    "aligned_full_flow",
    "all_of",
    "closed_form_vs_ode",
    "derivation_steps",
    "erratum",
    "free_algebra_zero",
    "identities",
    "sampled",
]

Point = Mapping[sp.Symbol, mpmath.mpf]
Sampler = Callable[[int], Point]


def identities(
    residuals: Iterable[sp.Expr],
    relations: Sequence[sp.Expr] = (),
    substitutions: Mapping[sp.Basic, sp.Expr] | None = None,
    sampler: Sampler | None = None,
) -> Callable[[], Outcome]:
    """Every residual vanishes identically (exactly); otherwise refuted, with a sampled counterexample."""

    def check() -> Outcome:
        methods = []
        for residual in residuals:
            proof = prove_zero(residual, relations=relations, substitutions=substitutions)
            if not proof.holds:
                if sampler is not None:
                    expr = sp.sympify(residual, strict=True).subs(dict(substitutions or {})).doit()
                    point = counterexample(expr, sampler)
                    if point is not None:
                        return Outcome.refuted(
                            "numeric counterexample (30 digits)", point, f"residual {proof.residual}"
                        )
                return Outcome.refuted("exact normal form", {}, f"non-zero residual: {proof.residual}")
            methods.append(proof.method)
        return Outcome.proved(", ".join(sorted(set(methods))))

    return check


def derivation_steps(derivation: Derivation, tags: Iterable[str]) -> Callable[[], Outcome]:
    """Every step of ``derivation`` carrying one of ``tags`` re-checks exactly (there must be one)."""
    wanted = set(tags)

    def check() -> Outcome:
        steps = [s for s in derivation.steps if s.tag in wanted]
        if not steps:
            return Outcome.error(f"no derivation step tagged {sorted(wanted)}")
        methods = []
        for step in steps:
            proof = step.check(derivation.relations, derivation.definitions)
            if not (proof.holds and proof.exact):
                return Outcome.refuted(proof.method, {}, f"step {step.justification!r}: residual {proof.residual}")
            methods.append(proof.method)
        return Outcome.proved(", ".join(sorted(set(methods))), f"{len(steps)} derivation step(s)")

    return check


def sampled(
    predicate: Callable[[Point], bool], sampler: Sampler, n: int = 300, what: str = ""
) -> Callable[[], Outcome]:
    """Numeric support: ``predicate`` holds at ``n`` sampled points (30 digits), else a counterexample."""

    def check() -> Outcome:
        with mpmath.workdps(30):
            for i in range(n):
                point = sampler(i)
                if not predicate(point):
                    return Outcome.refuted("sampling (30 digits)", _strings(point), what)
        return Outcome.numeric(f"sampling, {n} random cases (30 digits)", what)

    return check


def all_of(*checks: Callable[[], Outcome]) -> Callable[[], Outcome]:
    """Proved iff all are proved; numerically supported if the weakest is; else the first failure."""

    def check() -> Outcome:
        outcomes = [c() for c in checks]
        for outcome in outcomes:
            if outcome.status.value not in ("proved", "numerically-supported"):
                return outcome
        weakest = "numeric" if any(o.status.value == "numerically-supported" for o in outcomes) else "proved"
        method = "; ".join(o.method for o in outcomes)
        detail = "; ".join(o.detail for o in outcomes if o.detail)
        return Outcome.numeric(method, detail) if weakest == "numeric" else Outcome.proved(method, detail)

    return check


def erratum(
    printed: Callable[[], Outcome], corrected: Callable[[], Outcome], printed_text: str, corrected_text: str
) -> Callable[[], Outcome]:
    """The printed form must be refuted and the corrected one proved."""
    return lambda: Outcome.erratum(printed(), corrected(), printed_text, corrected_text)


def counterexample(expr: sp.Expr, sampler: Sampler, tries: int = 50) -> dict[str, str] | None:
    """A sampled point where ``expr`` is clearly non-zero (30 digits), or None."""
    with mpmath.workdps(30):
        symbols = sorted(expr.free_symbols, key=str)
        f = sp.lambdify(symbols, expr, modules="mpmath")
        for i in range(tries):
            point = sampler(i)
            value = f(*(point[s] for s in symbols))
            if abs(value) > mpmath.mpf(10) ** -20:
                return {**_strings({s: point[s] for s in symbols}), "residual": mpmath.nstr(value, 10)}
    return None


def _strings(point: Mapping[object, object]) -> dict[str, str]:
    return {str(k): mpmath.nstr(v, 12) if isinstance(v, mpmath.mpf) else str(v) for k, v in point.items()}


def closed_form_vs_ode(
    model: str, cases: Sequence[tuple[dict, dict]], times: Sequence[float], dps: int = 30, tolerance: float = 1e-25
) -> Callable[[], Outcome]:
    """The closed form at ``dps`` digits against ``mpmath.odefun`` on the derived flow, for each (params, init):
    numerically supported if the largest error relative to each state vector's norm is below ``tolerance``."""

    def check() -> Outcome:
        worst = mpmath.mpf(0)
        method = f"closed form vs mpmath.odefun ({dps} digits)"
        for params, init in cases:
            closed = trajectory(model, times, params, init, dps=dps)
            flow = trajectory(model, times, params, init, method="mpmath", dps=dps)
            with mpmath.workdps(dps):
                for name in init:
                    for k in range(len(times)):
                        diff = sum((x - y) ** 2 for x, y in zip(closed[name][k], flow[name][k], strict=True))
                        worst = max(worst, mpmath.sqrt(diff / sum(y**2 for y in flow[name][k])))
        if worst > tolerance:
            return Outcome.refuted(method, {"relative error": mpmath.nstr(worst, 5)})
        return Outcome.numeric(method, f"max relative error {mpmath.nstr(worst, 3)}")

    return check


def free_algebra_zero(residuals: Callable[[], Mapping[str, sp.Basic]], what: str) -> Callable[[], Outcome]:
    """Proved iff every residual (matrix calculus, expanded in the free algebra) is exactly zero; a zero matrix
    counts (``ZeroMatrix == 0`` is False in SymPy)."""

    def check() -> Outcome:
        nonzero = {k: str(v) for k, v in residuals().items() if not (v == 0 or isinstance(v, sp.ZeroMatrix))}
        if nonzero:
            return Outcome.refuted("matrix calculus + free-algebra expansion", {}, f"non-zero residuals {nonzero}")
        return Outcome.proved("matrix calculus + free-algebra expansion (general sizes d, p, c)", what)

    return check


def aligned_full_flow(
    model: str, cases: Sequence[tuple[int, float]], times: Sequence[float] = (0.8, 3.0), tolerance: float = 1e-25
) -> Callable[[], Outcome]:
    """Closed-form modes of ``model`` against 30-digit integration of the full matrices (d = 3, p = c = 2) from
    aligned starts ``(seed, lambda)``, and GD on the full matrices from the last one: numerically supported if the
    relative error is below ``tolerance`` and the GD error halves (ratio 1.8-2.2) with each halving of lr."""

    def check() -> Outcome:
        errors = {
            lam: full_flow_error(aligned_case(lam=lam, seed=seed), list(times), model=model) for seed, lam in cases
        }
        seed, lam = cases[-1]
        gd = gd_errors(aligned_case(lam=lam, seed=seed), [0.02, 0.01, 0.005], times[-1], model=model)
        ratios = [gd[i] / gd[i + 1] for i in range(len(gd) - 1)]
        detail = "; ".join(f"lambda = {lam}: {mpmath.nstr(e, 3)}" for lam, e in errors.items())
        detail += f"; GD errors {[round(e, 8) for e in gd]}, ratios {[round(r, 3) for r in ratios]}"
        if max(errors.values()) > tolerance or not all(1.8 < r < 2.2 for r in ratios):
            return Outcome.refuted("full matrix flow (mpmath.odefun, 30 digits) and GD", {}, detail)
        return Outcome.numeric("full matrix flow (d = 3, p = c = 2, mpmath.odefun 30 digits) and GD as lr -> 0", detail)

    return check
