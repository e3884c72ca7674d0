"""The fixed list of mutants of the engine, the numerics and the checker (issue 23).

Each :class:`Mutant` replaces one short piece of source text, ``old`` (which must occur exactly once in ``path``:
otherwise the mutant is *stale* and the mutation test says so), by ``new``: a flipped sign, a changed constant, an
off-by-one, swapped branches, a loosened tolerance. ``covering_tests`` (pytest node ids, the likeliest killers
first, since the run stops at the first failure) and ``covering_claims`` (claim-id prefixes of
``python -m proofs_check``) are what covers the mutated module; ``why`` says what the mutant breaks.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MUTANTS", "Mutant"]


@dataclass(frozen=True)
class Mutant:
    """One source mutation and what must catch it."""

    name: str
    path: str
    old: str
    new: str
    covering_tests: tuple[str, ...]
    covering_claims: tuple[str, ...]
    why: str


RICCATI_TESTS = ("tests/derivations/test_checked_steps.py", "tests/derivations/test_riccati_engine.py")
SEPARABLE_TESTS = (
    "tests/derivations/test_solve.py::test_implicit_solution_with_a_quadratic_factor_that_has_real_roots",
    "tests/numerics/test_balanced_line.py",
    "tests/derivations/test_solve.py::test_implicit_solution_of_a_separable_equation",
    "tests/derivations/test_solve_never_raises.py::test_separable_engine_says_why_it_cannot_instead_of_raising_a_sympy_error",
    "tests/derivations/test_solve_never_raises.py::test_separable_engine_factors_over_the_algebraic_numbers_of_its_"
    "coefficients",
)
KERNEL_TESTS = (
    "tests/numerics/test_closed_form_kernel.py",
    "tests/numerics/test_closed_form_vs_spec.py",
    "tests/numerics/test_extremes.py",
)
QUADRATURE_TESTS = (
    "tests/numerics/test_quadrature.py::test_a_slow_tied_start_against_the_40_digit_flow",
    "tests/numerics/test_quadrature.py",
    "tests/derivations/test_quadrature.py",
)

MUTANTS: tuple[Mutant, ...] = (
    # ------------------------------------------------------------------ derivations/riccati.py
    Mutant(
        "riccati-case-split-fixed-point",
        "derivations/riccati.py",
        "(sp.factor(poly.as_expr().subs(poly.gen, y0)),)),",
        "(sp.factor(poly.as_expr().subs(poly.gen, -y0)),)),",
        (*RICCATI_TESTS, "tests/numerics/test_degenerate_cases.py"),
        ("nam2025.appH.degenerate",),
        "the degenerate-case split records a wrong fixed-point condition q(y0) = 0 (c1's sign flipped)",
    ),
    Mutant(
        "riccati-classify-fixed-point",
        "derivations/riccati.py",
        "if zero(c2 * y0**2 + c1 * y0 + c0):",
        "if zero(c2 * y0**2 + c1 * y0 - c0):",
        RICCATI_TESTS,
        (),
        "a start at a root is not recognized as a fixed point (and a non-root may be)",
    ),
    Mutant(
        "riccati-stable-form-sign",
        "derivations/riccati.py",
        "(decay + tau * (BETA - c2 * y0))",
        "(decay + tau * (BETA + c2 * y0))",
        (*RICCATI_TESTS, "tests/numerics/test_riccati_evaluation.py"),
        (),
        "the stable Möbius form's denominator has c2 y0 with the wrong sign",
    ),
    Mutant(
        "riccati-rate-split-swapped",
        "derivations/riccati.py",
        "return (k + c1) / 2, (k - c1) / 2",
        "return (k - c1) / 2, (k + c1) / 2",
        (*RICCATI_TESTS, "tests/numerics/test_riccati_evaluation.py"),
        (),
        "alpha and beta of the stable form are swapped",
    ),
    Mutant(
        "riccati-attracting-root-swapped",
        "derivations/riccati.py",
        "return (roots[0], roots[1]) if negative else (roots[1], roots[0])",
        "return (roots[1], roots[0]) if negative else (roots[0], roots[1])",
        RICCATI_TESTS,
        ("nam2025.appH.eq76",),
        "the repelling root is named the attracting one",
    ),
    Mutant(
        "riccati-double-root-multiplicity",
        "derivations/riccati.py",
        "_integrate_and_invert(c2, {r_plus: 2}, y, y0, t)",
        "_integrate_and_invert(c2, {r_plus: 1}, y, y0, t)",
        RICCATI_TESTS,
        (),
        "the double root is integrated as a simple one (off by one in the multiplicity)",
    ),
    Mutant(
        "riccati-linear-rate-sign",
        "derivations/riccati.py",
        "_integrate_and_invert(c1, {r_plus: 1}, y, y0, t)",
        "_integrate_and_invert(-c1, {r_plus: 1}, y, y0, t)",
        RICCATI_TESTS,
        (),
        "the linear branch (c2 = 0) integrates y' = -c1 (y - y+): a flipped sign",
    ),
    Mutant(
        "riccati-case-split-double-root",
        "derivations/riccati.py",
        "(sp.factor(poly.discriminant()),)),",
        "(sp.factor(poly.discriminant() - 1),)),",
        (*RICCATI_TESTS, "tests/numerics/test_degenerate_cases.py"),
        ("nam2025.appH.degenerate",),
        "the degenerate-case split records a wrong double-root condition (Delta = 1 instead of Delta = 0)",
    ),
    # ------------------------------------------------------------------ derivations/separable.py
    Mutant(
        "separable-quadratic-log-not-abs",
        "derivations/separable.py",
        "sp.degree(e.args[0], y) in (1, 2)",
        "sp.degree(e.args[0], y) in (1,)",
        SEPARABLE_TESTS,
        (),
        "log of a quadratic factor is not taken of its absolute value (not real between its roots)",
    ),
    Mutant(
        "separable-quadratic-fixed-points-dropped",
        "derivations/separable.py",
        "if sp.degree(factor, y) in (1, 2):",
        "if sp.degree(factor, y) in (1,):",
        SEPARABLE_TESTS,
        (),
        "the fixed points of quadratic factors are dropped (the inversion may step over one)",
    ),
    Mutant(
        "separable-antiderivative-check-sign",
        "derivations/separable.py",
        "prove_zero(sp.diff(integral, y) - 1 / split)",
        "prove_zero(sp.diff(integral, y) + 1 / split)",
        SEPARABLE_TESTS,
        (),
        "the check of the antiderivative (its derivative is 1/G) has a flipped sign",
    ),
    # ------------------------------------------------------------------ derivations/conservation.py
    Mutant(
        "conservation-bracket-sign",
        "derivations/conservation.py",
        "x[t] * f[s].diff(g) - f[t] * x[s].diff(g)",
        "x[t] * f[s].diff(g) + f[t] * x[s].diff(g)",
        ("tests/derivations/test_conservation_laws.py", "tests/derivations/test_conservation_discovery.py"),
        ("marcotte2023",),
        "the Lie bracket [X, F] = J_F X - J_X F has a flipped sign",
    ),
    Mutant(
        "conservation-count-off-by-one",
        "derivations/conservation.py",
        "return dimension - tracker.rank",
        "return dimension - tracker.rank + 1",
        ("tests/derivations/test_conservation_laws.py", "tests/derivations/test_conservation_discovery.py"),
        ("marcotte2023",),
        "the number of conservation laws D - dim Lie(W) is off by one",
    ),
    Mutant(
        "conservation-independence-filter",
        "derivations/conservation.py",
        "<= self.rank:\n            return False",
        "< self.rank:\n            return False",
        ("tests/derivations/test_conservation_laws.py", "tests/derivations/test_conservation_discovery.py"),
        ("marcotte2023",),
        "a law that does not raise the rank (a function of earlier ones) is kept as independent",
    ),
    # ------------------------------------------------------------------ numerics/closed_form.py
    Mutant(
        "closed-form-condition-tolerance",
        "numerics/closed_form.py",
        "CONDITION_TOLERANCE = 1e-12",
        "CONDITION_TOLERANCE = 1e-1",
        ("tests/numerics/test_balanced_line.py", "tests/numerics/test_trajectory_errors.py"),
        (),
        "a start 5 % off the invariant set of a closed form is silently accepted",
    ),
    Mutant(
        "closed-form-signed-sum",
        "numerics/closed_form.py",
        "out = (np.add if other > 0 else np.subtract)(values[first], values[second], out=out)",
        "out = (np.subtract if other > 0 else np.add)(values[first], values[second], out=out)",
        KERNEL_TESTS,
        (),
        "the kernel's signed sum combines its first two terms with the wrong sign",
    ),
    Mutant(
        "closed-form-cancellation-ignored",
        "numerics/closed_form.py",
        "CANCELLATION = 64\n",
        "CANCELLATION = 64e12\n",
        KERNEL_TESTS,
        (),
        "a settled output whose float64 sum cancels is no longer evaluated again with more digits",
    ),
    Mutant(
        "closed-form-shared-product-sign",
        "numerics/closed_form.py",
        "signed.append((products.index(negated), -1))",
        "signed.append((products.index(negated), 1))",
        KERNEL_TESTS,
        (),
        "a product shared by two outputs with opposite signs gets the sign of the first in both",
    ),
    Mutant(
        "closed-form-increment-expm1",
        "numerics/closed_form.py",
        "return start * np.expm1(exponent)",
        "return start * (np.exp(exponent) - 1)",
        KERNEL_TESTS,
        (),
        "the increment form loses the digits of a clock that barely moved (exp - 1 instead of expm1)",
    ),
    # ------------------------------------------------------------------ reference integrators
    Mutant(
        "taylor-float64-up-to-30-digits",
        "numerics/taylor.py",
        "if dps is None or dps <= 15:",
        "if dps is None or dps <= 30:",
        ("tests/numerics/test_taylor.py",),
        (),
        "method='taylor' at dps <= 30 integrates in float64",
    ),
    Mutant(
        "taylor-guard-bits",
        "numerics/taylor.py",
        "GUARD_BITS = 16",
        "GUARD_BITS = -60",
        ("tests/numerics/test_taylor.py",),
        (),
        "the MPFR precision is 60 bits short of the requested digits",
    ),
    Mutant(
        "taylor-long-double-low-half",
        "numerics/taylor.py",
        "np.longdouble(hi) + np.longdouble(lo)",
        "np.longdouble(hi) + 0 * np.longdouble(lo)",
        (
            "tests/numerics/test_taylor.py::test_mpf_inputs_keep_their_digits_in_long_double",
            "tests/numerics/test_taylor.py",
        ),
        (),
        "a long double start drops the digits beyond float64",
    ),
    Mutant(
        "dop853-rtol",
        "numerics/dop853.py",
        "RTOL = 1e-13",
        "RTOL = 1e-7",
        ("tests/numerics/test_scipy_batch.py", "tests/numerics/test_closed_form_vs_scipy.py"),
        (),
        "DOP853's relative tolerance loosened 10^6 times",
    ),
    Mutant(
        "dop853-lane-norm-loosened",
        "numerics/dop853.py",
        "h * err5 / np.sqrt((err5 + 0.01 * err3) * self.size)",
        "h * err5 / 100 / np.sqrt((err5 + 0.01 * err3) * self.size)",
        ("tests/numerics/test_scipy_batch.py", "tests/numerics/test_closed_form_vs_scipy.py"),
        (),
        "each lane's error norm is 100 times too small: every start is integrated far less accurately than asked",
    ),
    Mutant(
        "dop853-atol",
        "numerics/dop853.py",
        "ATOL_FACTOR = 1e-16",
        "ATOL_FACTOR = 1e-6",
        ("tests/numerics/test_scipy_batch.py", "tests/numerics/test_closed_form_vs_scipy.py"),
        (),
        "DOP853's absolute tolerance (relative to each start's scale) loosened 10^10 times",
    ),
    Mutant(
        "mpmath-half-precision",
        "numerics/integrate.py",
        "    with mpmath.workdps(dps):\n        for j in range(batch):",
        "    with mpmath.workdps(dps // 2):\n        for j in range(batch):",
        ("tests/numerics/test_methods.py", "tests/numerics/test_closed_form_high_precision.py"),
        (),
        "method='mpmath' integrates at half the requested digits",
    ),
    Mutant(
        "mpmath-budget-ignored",
        "numerics/integrate.py",
        "allowed = int(max_steps / mpmath_step_weight(dps)) * mpmath_degree(dps)",
        "allowed = int(max_steps / mpmath_step_weight(dps)) * mpmath_degree(dps) * 10**6",
        ("tests/numerics/test_budgets_and_validation.py",),
        (),
        "method='mpmath' no longer stops at its step budget",
    ),
    Mutant(
        "gd-extra-step",
        "numerics/integrate.py",
        "while done < steps[index]:",
        "while done <= steps[index]:",
        ("tests/numerics/test_gradient_descent_limit.py", "tests/numerics/test_methods.py"),
        (),
        "gradient descent takes one step too many (off by one)",
    ),
    # ------------------------------------------------------------------ numerics/matrix_field.py (issue 25)
    Mutant(
        "matrix-transpose-dropped",
        "numerics/matrix_field.py",
        'return f"swapaxes({emit(inner)}, -1, -2)"',
        'return f"{emit(inner)}"',
        ("tests/numerics/test_matrix_field.py",),
        (),
        "a transpose of a matrix symbol is translated as the matrix itself (a transposed product)",
    ),
    Mutant(
        "matrix-gd-extra-step",
        "numerics/matrix_field.py",
        "                while done < steps[index]:",
        "                while done <= steps[index]:",
        ("tests/numerics/test_matrix_field.py",),
        (),
        "GD on the matrices takes one step too many (off by one)",
    ),
    Mutant(
        "matrix-tangent-one-term",
        "derivations/matrix_field.py",
        "            return sp.MatAdd(*terms) if isinstance(node, sp.MatMul) else sp.Add(*terms)",
        "            return terms[0]",
        ("tests/numerics/test_matrix_field.py", "tests/derivations/test_matrix_field.py"),
        (),
        "the product rule keeps only the first varying factor's term",
    ),
    Mutant(
        "moments-float-margin-dropped",
        "derivations/models/linear_network.py",
        "return value if abs(value - threshold) > margin else None",
        "return value",
        ("tests/derivations/test_matrix_field.py",),
        (),
        "the float64 eigenvalue decides realizability even within its rounding of the threshold",
    ),
    # ------------------------------------------------------------------ numerics/quadrature.py
    Mutant(
        "quadrature-agreement",
        "numerics/quadrature.py",
        "AGREEMENT = 1e-14",
        "AGREEMENT = 1e-4",
        QUADRATURE_TESTS,
        (),
        "the float64 quadrature accepts grids that agree to 1e-4 only",
    ),
    Mutant(
        "quadrature-points-sign",
        "numerics/quadrature.py",
        "y0 - distance * np.expm1(-s)",
        "y0 + distance * np.expm1(-s)",
        QUADRATURE_TESTS,
        (),
        "the variable change y = y_* - D e^{-s} has a flipped sign near the start",
    ),
    Mutant(
        "quadrature-branch-point-ignored",
        "numerics/quadrature.py",
        "if np.any(late & branch[None, :]):",
        "if np.any(late & ~branch[None, :]):",
        QUADRATURE_TESTS,
        (),
        "a time beyond a branch point (where an eliminated state changes sign) is not refused",
    ),
    # ------------------------------------------------------------------ the checker
    Mutant(
        "checker-eq-always-proves",
        "proofs_check/statement_checks.py",
        "if not proof.holds:",
        "if False:",
        ("tests/proofs_check/test_claims_framework.py",),
        (),
        "the Eq route proves every equation",
    ),
    Mutant(
        "checker-counterexample-separation",
        "proofs_check/statement_checks.py",
        "SEPARATION = mpmath.mpf(10) ** -15",
        "SEPARATION = mpmath.mpf(10) ** 3",
        ("tests/proofs_check/test_claims_framework.py",),
        (),
        "a sampled point counts as a counterexample only if the sides differ by 1000 times their size",
    ),
    Mutant(
        "checker-z3-refutation-ignored",
        "proofs_check/z3_checks.py",
        "if not result.holds:",
        "if False:",
        ("tests/proofs_check/test_z3_checks.py", "tests/proofs_check/test_claims_framework.py"),
        (),
        "a z3 counterexample is reported as a proof",
    ),
    Mutant(
        "checker-z3-definedness-skipped",
        "proofs_check/z3_checks.py",
        "for what, hyps, target in checks:",
        "for what, hyps, target in checks[-1:]:",
        ("tests/proofs_check/test_z3_checks.py",),
        (),
        "the definedness obligations (denominators non-zero, radicands non-negative) are not checked",
    ),
    Mutant(
        "checker-numeric-tolerance-loosened",
        "proofs_check/paper.py",
        "if not worst <= self.tolerance or failed:",
        "if not worst <= 1e6 * self.tolerance or failed:",
        ("tests/proofs_check/test_claims_framework.py",),
        (),
        "an experiment's tolerance is loosened 10^6 times",
    ),
    Mutant(
        "checker-derivation-step-ignored",
        "proofs_check/checkers.py",
        "if not (proof.holds and proof.exact):",
        "if not (proof.holds or proof.exact):",
        ("tests/proofs_check/test_claims_framework.py", "tests/proofs_check/papers/nam2025/test_equation_tags.py"),
        ("nam2025.appH",),
        "a derivation step whose exact check fails passes if the check was exact",
    ),
    Mutant(
        "checker-all-of-ignores-refuted",
        "proofs_check/checkers.py",
        "if outcome.status not in (Status.PROVED, Status.NUMERIC):",
        "if outcome.status not in (Status.PROVED, Status.NUMERIC, Status.REFUTED):",
        ("tests/proofs_check/test_claims_framework.py",),
        (),
        "all_of passes a refuted part",
    ),
    Mutant(
        "checker-erratum-corrected-refuted",
        "proofs_check/outcome.py",
        "if corrected_outcome.status not in (Status.PROVED, Status.NUMERIC):",
        "if corrected_outcome.status not in (Status.PROVED, Status.NUMERIC, Status.REFUTED):",
        ("tests/proofs_check/test_claims_framework.py",),
        (),
        "an erratum whose corrected form is refuted passes",
    ),
    Mutant(
        "cli-exit-code-always-0",
        "proofs_check/cli.py",
        "return 1 if broken or any(r.outcome.status in FAILING for r in records) else 0",
        "return 0",
        ("tests/proofs_check/test_cli.py",),
        (),
        "the command exits 0 with refuted claims",
    ),
    Mutant(
        "cli-errors-not-failing",
        "proofs_check/cli.py",
        "FAILING = (Status.REFUTED, Status.ERROR)",
        "FAILING = (Status.REFUTED,)",
        ("tests/proofs_check/test_cli.py",),
        (),
        "the command exits 0 when a claim is in error",
    ),
    Mutant(
        "cli-control-not-judged",
        "proofs_check/cli.py",
        "broken = control.broken(results or [])",
        "broken: list[str] = []",
        ("tests/proofs_check/test_control.py",),
        (),
        "the self-test's verdict is dropped: a checker that proves the known-false controls leaves the run green",
    ),
)
