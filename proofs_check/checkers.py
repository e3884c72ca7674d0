"""Checkers that turn exact proofs (``derivations.proof``) and numeric evidence into claim outcomes.

Each records the routes that decide it (:data:`proofs_check.outcome.ROUTES`) in the outcome it returns; the two that
re-check the package's own derivation steps (:func:`derivation_steps`, :func:`derivation_verified`) mark their
outcomes self-referential.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import mpmath
import numpy as np
import sympy as sp

from derivations.derivation import Derivation
from derivations.model import Model
from proofs_check.outcome import (
    DERIVATION_STEPS,
    FREE_ALGEBRA,
    NUMERIC_FLOAT64,
    NUMERIC_GD,
    NUMERIC_MPMATH_30,
    Outcome,
    Status,
)
from proofs_check.paper import Bound, Measurement

__all__ = [
    "aligned_full_flow",
    "all_of",
    "closed_form_error",
    "deferred",
    "derivation_steps",
    "derivation_verified",
    "float64_allowance",
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
                detail = f"step {step.justification!r}: residual {proof.residual}"
                return Outcome.refuted(proof.method, {}, detail, routes=(DERIVATION_STEPS,), self_referential=True)
            methods.append(proof.method)
        method, detail = ", ".join(sorted(set(methods))), f"{len(steps)} derivation step(s)"
        return Outcome.proved(method, detail, routes=(DERIVATION_STEPS,), self_referential=True)

    return check


def derivation_verified(derivation: Derivation) -> Outcome:
    """Every step of ``derivation`` re-checks exactly (``Derivation.check``): proved, with the proof methods used;
    refuted naming the failing steps otherwise. Self-referential: the statement is the package's own derivation.

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
        detail = f"failing steps: {failed}"
        return Outcome.refuted("re-check of every step", {}, detail, routes=(DERIVATION_STEPS,), self_referential=True)
    methods = sorted({check.proof.method for check in checks})
    detail = f"{len(derivation.steps)} steps"
    return Outcome.proved(", ".join(methods), detail, routes=(DERIVATION_STEPS,), self_referential=True)


def all_of(*checks: Callable[[], Outcome]) -> Callable[[], Outcome]:
    """Proved iff all are proved; numerically supported if the weakest is; else the first failure. The routes are
    those of every part, and the whole is self-referential if a part is."""

    def check() -> Outcome:
        outcomes = [c() for c in checks]
        for outcome in outcomes:
            if outcome.status not in (Status.PROVED, Status.NUMERIC):
                return outcome
        method = "; ".join(o.method for o in outcomes)
        detail = "; ".join(o.detail for o in outcomes if o.detail)
        numeric = any(o.status is Status.NUMERIC for o in outcomes)
        whole = Outcome.numeric(method, detail) if numeric else Outcome.proved(method, detail)
        referential = any(o.self_referential for o in outcomes)
        return whole.with_routes([r for o in outcomes for r in o.routes], self_referential=referential)

    return check


def reference_integrator() -> tuple[str, str]:
    """The 30-digit integrator of the derived flow that closed forms are checked against, as (``trajectory``
    method, name): heyoka's Taylor method in MPFR precision where the optional extra ``[taylor]`` is installed
    (about 10x faster than ``mpmath.odefun`` at 30 digits, with errors of the order of 1e-35), ``mpmath.odefun``
    otherwise. Both integrate the derived ODE independently of the closed form."""
    from numerics import taylor

    return ("taylor", "heyoka Taylor (MPFR)") if taylor.available() else ("mpmath", "mpmath.odefun")


def float64_allowance(conditioning: float) -> float:
    """The error, relative to a state vector's norm, that the float64 closed form may have where the state's
    conditioning (relative change of the state per relative change of the inputs) is ``conditioning``: the
    kernel's own allowance (``numerics.closed_form``), ``CANCELLATION`` times float64's ``EPS`` beyond the
    conditioning (a sum cancelling by more is evaluated again with more digits).

    Arguments:
        conditioning: a number >= 0 (below 1 counts as 1).

    Returns:
        ``CANCELLATION * EPS * max(1, conditioning)``.

    Raises:
        ValueError: ``conditioning`` is negative or not finite.
    """
    from numerics.closed_form import CANCELLATION, EPS

    if not (isinstance(conditioning, (int, float)) and np.isfinite(conditioning) and conditioning >= 0):
        raise ValueError(f"conditioning must be a finite number >= 0, got {conditioning!r}")
    return float(CANCELLATION * EPS * max(1.0, conditioning))


def _relative(value: Sequence, reference: Sequence) -> mpmath.mpf:
    """``|value - reference| / |reference|`` of two state vectors (Euclidean norms, in the working precision)."""
    diff = sum((mpmath.mpf(x) - y) ** 2 for x, y in zip(value, reference, strict=True))
    return mpmath.sqrt(diff / sum(mpmath.mpf(y) ** 2 for y in reference))


def _perturbed(values: Mapping[str, object], rng: np.random.Generator, size: float) -> dict[str, np.ndarray]:
    """``values`` (numbers or arrays) each times ``1 ± size``, the signs at random."""
    arrays = {k: np.asarray(v, dtype=float) for k, v in values.items()}
    return {k: v * (1 + size * rng.choice((-1.0, 1.0), size=v.shape)) for k, v in arrays.items()}


def closed_form_error(
    model: str | Model, cases: Sequence[tuple[dict, dict]], times: Sequence[float], dps: int = 30
) -> Measurement:
    """The largest error, relative to each state vector's norm, of the closed form at ``dps`` digits against the
    :func:`reference_integrator` of the derived flow at ``dps`` digits, over the cases (params, init) and times: an
    experiment's measurement (route ``numeric-mpmath-30``).

    It carries a :class:`proofs_check.paper.Bound` on the float64 kernel (route ``numeric-float64``): the float64
    closed form (``numerics.trajectory``'s default) against the same reference, as a multiple of its
    :func:`float64_allowance`, which must be at most 1. The conditioning of each case is estimated from the closed
    form at ``dps`` digits (not the kernel under test), from every input times ``1 ± PROBE`` (random signs, the
    probe of ``numerics.closed_form``): the largest relative change of a state vector over ``PROBE``."""
    from numerics import trajectory
    from numerics.closed_form import PROBE

    method, name = reference_integrator()
    worst, worst_float64, float64_worst = mpmath.mpf(0), 0.0, 0.0
    rng = np.random.default_rng(0)
    for params, init in cases:
        closed = trajectory(model, times, params, init, dps=dps)
        flow = trajectory(model, times, params, init, method=method, dps=dps)
        float64 = trajectory(model, times, params, init)
        moved = trajectory(model, times, _perturbed(params, rng, PROBE), _perturbed(init, rng, PROBE), dps=dps)
        with mpmath.workdps(dps):
            at = [(state, k) for state in init for k in range(len(times))]
            worst = max(worst, *(_relative(closed[s][k], flow[s][k]) for s, k in at))
            conditioning = max(float(_relative(moved[s][k], closed[s][k])) / PROBE for s, k in at)
            float64_error = max(float(_relative(float64[s][k], flow[s][k])) for s, k in at)
        worst_float64 = max(worst_float64, float64_error / float64_allowance(conditioning))
        float64_worst = max(float64_worst, float64_error)
    detail = f"{len(cases)} cases, t = {list(times)}; float64 kernel: largest relative error {float64_worst:.3g}"
    bound = Bound("float64 error / allowance", worst_float64, 1.0, NUMERIC_FLOAT64)
    method_text = f"closed form vs {name} ({dps} digits); float64 kernel within its conditioning allowance"
    return Measurement(float(worst), method_text, detail, routes=(NUMERIC_MPMATH_30,), bounds=(bound,))


def free_algebra_zero(residuals: Callable[[], Mapping[str, sp.Basic]], what: str) -> Callable[[], Outcome]:
    """Proved iff every residual (matrix calculus, expanded in the free algebra) is exactly zero; a zero matrix
    counts (``ZeroMatrix == 0`` is False in SymPy)."""

    def check() -> Outcome:
        nonzero = {k: str(v) for k, v in residuals().items() if not (v == 0 or isinstance(v, sp.ZeroMatrix))}
        if nonzero:
            detail = f"non-zero residuals {nonzero}"
            return Outcome.refuted("matrix calculus + free-algebra expansion", {}, detail, routes=(FREE_ALGEBRA,))
        method = "matrix calculus + free-algebra expansion (general sizes d, p, c)"
        return Outcome.proved(method, what, routes=(FREE_ALGEBRA,))

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
        routes = (NUMERIC_MPMATH_30, NUMERIC_GD)
        if max(errors.values()) > tolerance or not all(1.8 < r < 2.2 for r in ratios):
            return Outcome.refuted(f"full matrix flow ({name}, 30 digits) and GD", {}, detail, routes=routes)
        method = f"full matrix flow (d = 3, p = c = 2, {name} 30 digits) and GD as lr -> 0"
        return Outcome.numeric(method, detail, routes=routes)

    return check
