"""Checkers that turn exact proofs (``derivations.proof``) and numeric evidence into claim outcomes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import mpmath
import sympy as sp

from derivations.derivation import Derivation
from derivations.model import Model
from proofs_check.outcome import Outcome
from proofs_check.paper import Measurement

__all__ = [
    "aligned_full_flow",
    "all_of",
    "closed_form_error",
    "deferred",
    "derivation_steps",
    "derivation_verified",
    "free_algebra_zero",
    "identities",
    "reference_integrator",
]


def identities(
    residuals: Iterable[sp.Expr],
    relations: Sequence[sp.Expr] = (),
    substitutions: Mapping[sp.Basic, sp.Expr] | None = None,
) -> Callable[[], Outcome]:
    """Every residual vanishes identically (exactly); otherwise refuted with a sampled counterexample, or an error
    if no counterexample is found either (:func:`proofs_check.statement_checks.equal_sides`)."""

    def check() -> Outcome:
        from proofs_check.statement_checks import equal_sides

        exprs = [sp.sympify(r, strict=True).subs(dict(substitutions or {})).doit() for r in residuals]
        return equal_sides(exprs, [sp.S.Zero] * len(exprs), relations)

    return check


def deferred(build: Callable[[], Callable[[], Outcome]]) -> Callable[[], Outcome]:
    """A check that is built when it runs (declaring a claim computes nothing)."""
    return lambda: build()()


def derivation_steps(derivation: Derivation, tags: Iterable[str], keys: Iterable[str] = ()) -> Callable[[], Outcome]:
    """Every step of ``derivation`` carrying one of ``tags`` (or recorded under one of ``keys``) re-checks exactly
    (there must be one)."""
    wanted, keyed = set(tags), set(keys)

    def check() -> Outcome:
        steps = [s for s in derivation.steps if s.tag in wanted or (s.key and s.key in keyed)]
        if not steps:
            return Outcome.error(f"no derivation step tagged {sorted(wanted)} or keyed {sorted(keyed)}")
        methods = []
        for step in steps:
            proof = step.check(derivation.relations, derivation.definitions)
            if not (proof.holds and proof.exact):
                return Outcome.refuted(proof.method, {}, f"step {step.justification!r}: residual {proof.residual}")
            methods.append(proof.method)
        return Outcome.proved(", ".join(sorted(set(methods))), f"{len(steps)} derivation step(s)")

    return check


def derivation_verified(derivation: Derivation) -> Outcome:
    """Every step of ``derivation`` re-checks exactly (``Derivation.check``): proved, with the proof methods used;
    refuted naming the failing steps otherwise.

    Arguments:
        derivation: a recorded derivation, e.g. ``model.closed_form.derivation``.

    Returns:
        The outcome.

    Raises:
        TypeError: ``derivation`` is not a :class:`derivations.derivation.Derivation`.
    """
    if not isinstance(derivation, Derivation):
        raise TypeError(f"derivation must be a Derivation, got {type(derivation).__name__}")
    checks = derivation.check()
    failed = [check.step.justification for check in checks if not (check.proof.holds and check.proof.exact)]
    if failed:
        return Outcome.refuted("re-check of every step", {}, f"failing steps: {failed}")
    methods = sorted({check.proof.method for check in checks})
    return Outcome.proved(", ".join(methods), f"{len(derivation.steps)} steps")


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


def reference_integrator() -> tuple[str, str]:
    """The 30-digit integrator of the derived flow that closed forms are checked against, as (``trajectory``
    method, name): heyoka's Taylor method in MPFR precision where the optional extra ``[taylor]`` is installed
    (about 10x faster than ``mpmath.odefun`` at 30 digits, with errors of the order of 1e-35), ``mpmath.odefun``
    otherwise. Both integrate the derived ODE independently of the closed form."""
    from numerics import taylor

    return ("taylor", "heyoka Taylor (MPFR)") if taylor.available() else ("mpmath", "mpmath.odefun")


def closed_form_error(
    model: str | Model, cases: Sequence[tuple[dict, dict]], times: Sequence[float], dps: int = 30
) -> Measurement:
    """The largest error, relative to each state vector's norm, of the closed form at ``dps`` digits against the
    :func:`reference_integrator` of the derived flow at ``dps`` digits, over the cases (params, init) and times: an
    experiment's measurement."""
    from numerics import trajectory

    method, name = reference_integrator()
    worst = mpmath.mpf(0)
    for params, init in cases:
        closed = trajectory(model, times, params, init, dps=dps)
        flow = trajectory(model, times, params, init, method=method, dps=dps)
        with mpmath.workdps(dps):
            for state in init:
                for k in range(len(times)):
                    diff = sum((x - y) ** 2 for x, y in zip(closed[state][k], flow[state][k], strict=True))
                    worst = max(worst, mpmath.sqrt(diff / sum(y**2 for y in flow[state][k])))
    detail = f"{len(cases)} cases, t = {list(times)}"
    return Measurement(float(worst), f"closed form vs {name} ({dps} digits)", detail)


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
    """Closed-form modes of ``model`` against 30-digit integration of the full matrices (d = 3, p = c = 2, by the
    :func:`reference_integrator`) from aligned starts ``(seed, lambda)``, and GD on the full matrices from the last
    one: numerically supported if the relative error is below ``tolerance`` and the GD error halves (ratio 1.8-2.2)
    with each halving of lr."""

    def check() -> Outcome:
        from numerics.aligned import aligned_case, full_flow_error, gd_errors

        method, name = reference_integrator()
        errors = {
            lam: full_flow_error(aligned_case(lam=lam, seed=seed), list(times), model=model, method=method)
            for seed, lam in cases
        }
        seed, lam = cases[-1]
        gd = gd_errors(aligned_case(lam=lam, seed=seed), [0.02, 0.01, 0.005], times[-1], model=model)
        ratios = [gd[i] / gd[i + 1] for i in range(len(gd) - 1)]
        detail = "; ".join(f"lambda = {lam}: {mpmath.nstr(e, 3)}" for lam, e in errors.items())
        detail += f"; GD errors {[round(e, 8) for e in gd]}, ratios {[round(r, 3) for r in ratios]}"
        if max(errors.values()) > tolerance or not all(1.8 < r < 2.2 for r in ratios):
            return Outcome.refuted(f"full matrix flow ({name}, 30 digits) and GD", {}, detail)
        return Outcome.numeric(f"full matrix flow (d = 3, p = c = 2, {name} 30 digits) and GD as lr -> 0", detail)

    return check
