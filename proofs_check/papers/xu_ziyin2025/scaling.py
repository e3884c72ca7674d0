r"""Exponent algebra of the Xu & Ziyin 2025 phase diagram (spec ``models-xu-ziyin2025.md`` §4.1, §4.2, §4.5, §8).

**Convention (spec §4.1: exponents of variances).** As :math:`\kappa\to\infty`,
:math:`d\propto\kappa^{c_d}`, :math:`\operatorname{Var}u_i(0)=\sigma_u^2\propto\kappa^{c_u}`,
:math:`\operatorname{Var}w_i(0)=\sigma_w^2\propto\kappa^{c_w}`, :math:`\gamma\propto\kappa^{c_\gamma}`,
:math:`\eta_u\propto\kappa^{c_{\eta_u}}`, :math:`\eta_w\propto\kappa^{c_{\eta_w}}`, and :math:`a, b=\Theta(1)`,
:math:`b\ne0` (taken :math:`b>0`; the sign of ``b`` only flips the sign of ``B``).

**Assumption (law of large numbers, spec §4.1).** For independent zero-mean initial weights,
:math:`P, Q = d\,(\eta_w\sigma_u^2+\eta_u\sigma_w^2)\,(1+O(d^{-1/2}))`. For :math:`c_d>0` the correction factor
tends to 1; for :math:`c_d=0` it is a :math:`\Theta(1)` random factor (:math:`P/(d s)` is a :math:`\chi^2_d/d`
variable, non-zero almost surely), so the exponent of ``B`` below holds in probability.

**Exponent rules** (:func:`kappa_exponent`): the exponent of a product is the sum of the exponents, that of a
power the multiple, and that of a *sum of positive terms* the largest exponent (``sympy.Max``) -- no
cancellation can occur because every term is positive. The derivation checks that rule on ``B`` itself:
:math:`B\kappa^{-e_B}` is a positive expression in the :math:`\Theta(1)` prefactors and in powers
:math:`\kappa^{e-\max}\in(0,1]`, one of which is 1, hence bounded above and below by positive constants.

The steps recorded in :data:`DERIVATION` (all checked exactly by ``DERIVATION.check()``):

- ``4.1.lln``: :math:`B` under the law of large numbers;
- ``4.1.exponent``: :math:`B=\kappa^{e_B}\cdot\Theta(1)` with :math:`e_B` built factor by factor (with ``Max``);
- ``4.1``: :math:`\max(x,y)=\frac{x+y}2+\frac{|x-y|}2` turns it into the spec's form
  :math:`e_B=-c_\gamma-c_d-\frac{c_u+c_w}2-\frac12|c_{\eta_w}-c_{\eta_u}+c_u-c_w|` (case split);
- ``4.2.boundary``: :math:`e_B` equals the right minus the left side of the phase boundary
  :math:`c_\gamma+c_d+\max(c_{\eta_w}+c_u,c_{\eta_u}+c_w)=\frac12(c_{\eta_u}+c_{\eta_w})`, so
  :math:`e_B=0` iff on the boundary (and the sign of :math:`e_B` tells the side);
- ``4.5.abc``: invariance of :math:`e_B` under the exponent image of the abc-map :math:`u,w\to Cu,Cw`,
  :math:`\gamma\to C^{-2}\gamma`, :math:`\eta\to C^2\eta` with :math:`C=\kappa^\vartheta`:
  :math:`c_u,c_w\to+2\vartheta`, :math:`c_\gamma\to-2\vartheta`, :math:`c_\eta\to+2\vartheta`;
- ``8.abc``: the spec §8 map (:math:`c_u,c_w\to+\vartheta`, :math:`c_\gamma\to-2\vartheta`,
  :math:`c_\eta\to+2\vartheta`) applied to *variance* exponents shifts :math:`e_B` by :math:`+\vartheta`: §8 is
  stated for exponents of the weight *scale* (standard deviation, :math:`c_u/2`), where it is ``4.5.abc``;
- ``4.1.ratio``: under the law of large numbers ``B`` depends on :math:`\eta_u/\eta_w` only;
- ``4.1.balanced``: :math:`B_{\max}-B` is a square times positive factors, with
  :math:`B_{\max}=B` iff :math:`\eta_u\sigma_w^2=\eta_w\sigma_u^2` (the maximiser is obtained by ``solve``);
- ``4.1.balanced.exact``: the same at finite width without the law of large numbers, with the empirical
  :math:`U=|u_0|^2`, :math:`W=|w_0|^2`: :math:`1/B^2-1/B_{\max}^2\ge0`, equality iff :math:`\eta_uW=\eta_wU`.
"""

from __future__ import annotations

from collections.abc import Mapping

import sympy as sp

from derivations.derivation import Derivation
from derivations.proof import Proof, prove_zero

__all__ = [
    "ABC_MAP",
    "B_LLN",
    "DERIVATION",
    "EXPONENTS",
    "E_B",
    "E_B_MAX",
    "PHASE_BOUNDARY",
    "e_B",
    "e_B_value",
    "kappa_exponent",
]

C_D, C_U, C_W, C_GAMMA, C_ETA_U, C_ETA_W = sp.symbols("c_d c_u c_w c_gamma c_eta_u c_eta_w", real=True)
NAMES = ("c_d", "c_u", "c_w", "c_gamma", "c_eta_u", "c_eta_w")
SYMBOLS = dict(zip(NAMES, (C_D, C_U, C_W, C_GAMMA, C_ETA_U, C_ETA_W), strict=True))

kappa = sp.Symbol("kappa", positive=True)
d, var_u, var_w, gamma, eta_u, eta_w, a, b = sp.symbols("d sigma_u^2 sigma_w^2 gamma eta_u eta_w a b", positive=True)
P, Q, B = sp.symbols("P Q B", positive=True)
vartheta = sp.Symbol("vartheta", real=True)
delta = sp.Symbol("delta", nonnegative=True)

EXPONENTS: dict[sp.Symbol, sp.Expr] = {
    d: C_D,
    var_u: C_U,
    var_w: C_W,
    gamma: C_GAMMA,
    eta_u: C_ETA_U,
    eta_w: C_ETA_W,
    a: sp.S.Zero,
    b: sp.S.Zero,
}
"""The exponent of κ of every quantity (spec §4.1); ``a`` and ``b`` are Θ(1)."""


def kappa_exponent(expr: sp.Expr, exponents: Mapping[sp.Symbol, sp.Expr] = EXPONENTS) -> sp.Expr:
    """The exponent of κ of a positive expression built from power-law quantities.

    Products add exponents, powers multiply them, a sum of positive terms takes the largest exponent (``Max``);
    positive numbers are Θ(1). Raises ValueError on anything else (e.g. a symbol without an exponent); a string
    is a ``TypeError`` (never parsed).
    """
    if isinstance(expr, (str, bytes)):
        raise TypeError(f"kappa_exponent: expr must be a SymPy expression, got the string {expr!r}")
    expr = sp.sympify(expr, strict=True)
    if expr.is_number:
        if not expr.is_positive:
            raise ValueError(f"kappa_exponent: constant {expr} is not positive")
        return sp.S.Zero
    if isinstance(expr, sp.Symbol):
        if expr not in exponents:
            raise ValueError(f"kappa_exponent: no exponent for {expr}")
        return exponents[expr]
    if isinstance(expr, sp.Mul):
        return sp.Add(*(kappa_exponent(f, exponents) for f in expr.args))
    if isinstance(expr, sp.Pow) and expr.exp.is_number:
        return expr.exp * kappa_exponent(expr.base, exponents)
    if isinstance(expr, sp.Add):
        return sp.Max(*(kappa_exponent(term, exponents) for term in expr.args))
    raise ValueError(f"kappa_exponent: cannot take the exponent of {expr}")


def _power_laws(expr: sp.Expr) -> sp.Expr:
    """Each quantity X replaced by hat(X) κ^{c_X}."""
    return expr.xreplace({x: _hat(x) * kappa**c for x, c in EXPONENTS.items() if c != 0})


def _hat(x: sp.Symbol) -> sp.Symbol:
    """The Θ(1) prefactor of ``x`` (``sigma_u^2`` → ``sigmahat_u^2``, rendered as a hat by ``sympy.latex``)."""
    cut = min((i for i in (x.name.find("_"), x.name.find("^")) if i >= 0), default=len(x.name))
    return sp.Symbol(f"{x.name[:cut]}hat{x.name[cut:]}", positive=True)


def _theta_one_part(expr: sp.Expr) -> sp.Expr:
    """The Θ(1) factor of ``expr``: hats for quantities, each term of a sum weighted by κ^{e(term) − e(sum)}."""
    if expr.is_number:
        return expr
    if isinstance(expr, sp.Symbol):
        return _hat(expr) if EXPONENTS[expr] != 0 else expr
    if isinstance(expr, sp.Add):
        top = kappa_exponent(expr)
        return sp.Add(*(_theta_one_part(t) * kappa ** (kappa_exponent(t) - top) for t in expr.args))
    return expr.func(*(_theta_one_part(arg) for arg in expr.args))


# ---------------------------------------------------------------- the derived exponent
S_LLN = eta_w * var_u + eta_u * var_w
P_LLN = d * S_LLN
B_DEF = 2 * b * sp.sqrt(eta_u * eta_w) / (gamma * a * sp.sqrt(P * Q))
B_LLN = B_DEF.xreplace({P: P_LLN, Q: P_LLN})
"""B of spec §2.2 with P = Q = d(η_w σ_u² + η_u σ_w²) (law of large numbers)."""

E_B_MAX = kappa_exponent(B_LLN)
"""The exponent of B, built factor by factor (contains ``Max``)."""


def _max_to_abs(*args: sp.Expr) -> sp.Expr:
    """max(x, y) = (x + y)/2 + |x − y|/2."""
    x, y = args
    return (x + y) / 2 + sp.Abs(x - y) / 2


E_B = sp.expand(E_B_MAX.replace(sp.Max, _max_to_abs))
"""The exponent of B in the spec's form, with the absolute value (obtained from ``E_B_MAX``)."""

PHASE_BOUNDARY = sp.Eq(kappa_exponent(gamma * a * P_LLN), kappa_exponent(2 * b * sp.sqrt(eta_u * eta_w)))
"""e_B = 0: the exponent of B's denominator equals that of its numerator (spec §4.2)."""


_C = sp.Symbol("C", positive=True)


def _exponent_map(images: Mapping[sp.Symbol, sp.Expr]) -> dict[sp.Symbol, sp.Expr]:
    """The exponent-level image of a parameter-level map with C = κ^ϑ: c_X → the exponent of X's image."""
    with_c = {**EXPONENTS, _C: vartheta}
    return {EXPONENTS[x]: kappa_exponent(image, with_c) for x, image in images.items()}


ABC_MAP = _exponent_map(
    {var_u: _C**2 * var_u, var_w: _C**2 * var_w, gamma: gamma / _C**2, eta_u: _C**2 * eta_u, eta_w: _C**2 * eta_w}
)
"""Spec §4.5's map u, w → Cu, Cw, γ → C⁻²γ, η → C²η at the exponent level (C = κ^ϑ; variances scale by C²)."""

SPEC8_MAP = {C_U: C_U + vartheta, C_W: C_W + vartheta, C_GAMMA: C_GAMMA - 2 * vartheta}
SPEC8_MAP |= {C_ETA_U: C_ETA_U + 2 * vartheta, C_ETA_W: C_ETA_W + 2 * vartheta}


def _exponent(name: str, value: object) -> sp.Expr:
    """``value`` as a finite real SymPy expression, never parsing a string (``TypeError``/``ValueError`` naming
    ``name``)."""
    if isinstance(value, (str, bytes, bool)) or value is None:
        raise TypeError(f"{name} must be a real number or a SymPy expression, got {value!r}")
    try:
        expr = sp.sympify(value, strict=True)
    except sp.SympifyError as exc:
        raise TypeError(f"{name} must be a real number or a SymPy expression, got {value!r}") from exc
    if not isinstance(expr, sp.Expr) or expr.is_extended_real is False or expr.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        raise ValueError(f"{name} must be a finite real exponent, got {value!r}")
    # a float at its exact binary value: e_B is then exact (a 15-digit Float sum of 1e300 and 3 would drop the 3)
    return sp.Rational(expr) if isinstance(expr, sp.Float) else expr


def e_B(**exponents: sp.Expr | float) -> sp.Expr:
    """The exponent e_B (spec §4.1), with the given exponents substituted (the others stay symbolic).

    Keywords: ``c_d, c_u, c_w, c_gamma, c_eta_u, c_eta_w`` (variance convention); each a finite real number or
    SymPy expression (a string is refused, never parsed). Arithmetic is exact: a float is taken at its exact
    binary value (``0.1`` is 3602879701896397/2^55; pass ``sympy.Rational`` or ``fractions.Fraction`` for
    decimals).
    """
    unknown = sorted(set(exponents) - set(NAMES))
    if unknown:
        raise ValueError(f"unknown exponent(s) {unknown}; expected some of {list(NAMES)}")
    return E_B.xreplace({SYMBOLS[name]: _exponent(name, value) for name, value in exponents.items()})


def e_B_value(**exponents: float) -> float:
    """e_B as a float; every one of ``c_d, c_u, c_w, c_gamma, c_eta_u, c_eta_w`` must be given, a finite real
    number."""
    missing = [name for name in NAMES if name not in exponents]
    if missing:
        raise ValueError(f"e_B_value needs all exponents; missing {missing}")
    for name, value in exponents.items():
        if not _exponent(name, value).is_number:
            raise ValueError(f"{name} must be a real number, got {value!r}")
    return float(e_B(**exponents))


# ---------------------------------------------------------------- verifiers
def _by_cases(residual: sp.Expr) -> Proof:
    """``residual`` vanishes for all real exponents: split on the sign of (c_ηw + c_u) − (c_ηu + c_w).

    In each case c_ηw = c_ηu + c_w − c_u ± δ with δ ≥ 0, which evaluates every ``Max`` and ``Abs`` of the
    two term exponents; the case residual is then an exact identity.
    """
    for sign in (1, -1):
        case = sp.sympify(residual, strict=True).xreplace({C_ETA_W: C_ETA_U + C_W - C_U + sign * delta})
        if case.has(sp.Max, sp.Abs):
            return Proof(False, "case split did not evaluate Max/Abs", True, residual=str(case))
        proof = prove_zero(case)
        if not proof:
            return Proof(False, f"case split, sign {sign}: {proof.method}", True, residual=proof.residual)
    return Proof(True, "case split on the sign of c_ηw + c_u − c_ηu − c_w, then rational identity", True)


def _leading_order() -> Proof:
    """B κ^{−e_B} equals its Θ(1) part, whose κ-dependence is only through κ^{e − max} with e a Max argument."""
    identity = prove_zero(_power_laws(B_LLN) * kappa ** (-E_B_MAX) - _theta_one_part(B_LLN))
    if not identity:
        return identity
    powers = [p for p in sp.preorder_traversal(_theta_one_part(B_LLN)) if isinstance(p, sp.Pow) and p.base == kappa]
    for power in powers:
        top = power.exp.atoms(sp.Max)
        if len(top) != 1 or sp.expand(power.exp + next(iter(top))) not in next(iter(top)).args:
            return Proof(False, "a power of κ is not of the form κ^{e − max}", True, residual=str(power))
    return Proof(True, f"{identity.method}; κ enters only as κ^(e − max) ∈ (0, 1], one of them = 1", True)


def _nonnegative_form(lhs: sp.Expr, form: sp.Expr) -> Proof:
    """``lhs == form`` exactly and ``form`` is a product of positive factors and even powers."""
    identity = prove_zero(lhs - form)
    if not identity:
        return identity
    for factor in sp.Mul.make_args(form):
        base, exp = factor.as_base_exp()
        if not (factor.is_positive or (exp.is_even and base.is_real)):
            return Proof(False, "certificate is not manifestly non-negative", True, residual=str(factor))
    return Proof(True, f"{identity.method}; manifestly non-negative (positive factors times a square)", True)


# ---------------------------------------------------------------- the derivation
def _balanced() -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """Maximiser of B over r = η_u/η_w (LLN form), B_max, and the square certificate of B_max − B."""
    r = sp.Symbol("r", positive=True)
    b_of_r = sp.cancel(B_LLN.xreplace({eta_u: r * eta_w}))
    (r_star,) = sp.solve(sp.diff(b_of_r, r), r)
    b_max = b_of_r.xreplace({r: r_star})
    gap = (sp.sqrt(eta_w * var_u) - sp.sqrt(eta_u * var_w)) ** 2
    return r_star, b_max, b * gap / (gamma * a * d * sp.sqrt(var_u * var_w) * S_LLN)


def _balanced_exact() -> tuple[sp.Expr, sp.Expr]:
    """Finite width: 1/B² − 1/B_max² and its square certificate, with P, Q from the empirical U, W, u₀·w₀."""
    u, w = sp.symbols("u w", real=True)
    U, W = sp.symbols("U W", positive=True)
    uw = sp.Symbol("uw_0", real=True)
    per_unit = {(2, 0): U, (1, 1): uw, (0, 2): W}  # the sums over units are linear in these monomials

    def summed(unit: sp.Expr) -> sp.Expr:
        return sum(c * per_unit[m] for m, c in sp.Poly(sp.expand(unit), u, w).terms())

    p_sum = summed((sp.sqrt(eta_w) * u + sp.sqrt(eta_u) * w) ** 2)
    q_sum = summed((sp.sqrt(eta_w) * u - sp.sqrt(eta_u) * w) ** 2)
    b_exact = B_DEF.xreplace({P: p_sum, Q: q_sum})
    b_max = b / (gamma * a * sp.sqrt(U * W - uw**2))  # B at η_u W = η_w U
    gap = 1 / b_exact**2 - 1 / b_max**2
    return gap, gamma**2 * a**2 * (eta_w * U - eta_u * W) ** 2 / (4 * b**2 * eta_u * eta_w)


def _derivation() -> Derivation:
    der = Derivation(
        "Xu & Ziyin 2025 §4.1-4.2: the width exponent e_B of B (reconstructed)",
        assumptions=(
            "d, Var u_i(0), Var w_i(0), gamma, eta_u, eta_w ∝ kappa^c (variance convention); a, b = Theta(1), b > 0",
            "law of large numbers: P, Q = d (eta_w sigma_u^2 + eta_u sigma_w^2)(1 + O(d^-1/2)), zero-mean independent "
            "initial weights (for c_d = 0 a Theta(1) random factor, non-zero almost surely)",
        ),
    )
    der.add(
        sp.Eq(B, B_LLN),
        "definition of B (§2) with P = Q = d s (law of large numbers)",
        "4.1.lln",
        residual=B_DEF.xreplace({P: P_LLN, Q: P_LLN}) - B_LLN,
    )
    der.add(
        sp.Eq(B * kappa ** (-sp.Symbol("e_B")), _theta_one_part(B_LLN)),
        f"exponent rules, e_B = {E_B_MAX}: B kappa^-e_B is bounded above and below by positive constants",
        "4.1.exponent",
        verifier=_leading_order,
    )
    der.add(sp.Eq(E_B_MAX, E_B), "max(x, y) = (x + y)/2 + |x - y|/2", "4.1", verifier=lambda: _by_cases(E_B_MAX - E_B))
    boundary_gap = PHASE_BOUNDARY.rhs - PHASE_BOUNDARY.lhs
    der.add(
        sp.Eq(E_B, boundary_gap),
        "e_B = 0 iff on the phase boundary (same sign off it)",
        "4.2.boundary",
        verifier=lambda: _by_cases(E_B - boundary_gap),
    )
    lam = sp.Symbol("lambda", positive=True)
    for lhs, rhs, why, tag in (
        (E_B.xreplace(ABC_MAP), E_B, f"abc-map at the exponent level {ABC_MAP}", "4.5.abc"),
        (
            E_B.xreplace(SPEC8_MAP),
            E_B + vartheta,
            "the abc-map of §8 read on variance exponents: e_B shifts by vartheta (§8 scales standard deviations)",
            "8.abc",
        ),
        (
            B_LLN.xreplace({eta_u: lam * eta_u, eta_w: lam * eta_w}),
            B_LLN,
            "only the ratio eta_u/eta_w matters",
            "4.1.ratio",
        ),
    ):
        der.add(sp.Eq(lhs, rhs, evaluate=False), why, tag, residual=lhs - rhs)
    r_star, b_max, certificate = _balanced()
    der.add(
        sp.Eq(sp.Symbol("B_max") - B_LLN, certificate),
        f"dB/d(eta_u/eta_w) = 0 at eta_u/eta_w = {r_star}, B_max = {b_max}; "
        "B_max = B iff eta_u sigma_w^2 = eta_w sigma_u^2",
        "4.1.balanced",
        verifier=lambda: _nonnegative_form(b_max - B_LLN, certificate),
    )
    gap, exact_certificate = _balanced_exact()
    der.add(
        sp.Eq(sp.Symbol("B^-2 - B_max^-2"), exact_certificate),
        "finite width: B is largest iff eta_u |w_0|^2 = eta_w |u_0|^2",
        "4.1.balanced.exact",
        verifier=lambda: _nonnegative_form(gap, exact_certificate),
    )
    return der


DERIVATION = _derivation()
"""The recorded steps; ``DERIVATION.check()`` re-verifies each one exactly."""
