r"""Conservation-law claims after Marcotte, Gribonval & Peyré 2023 (NeurIPS; arXiv 2307.00144), tooling-notes §2.

The checks of the ``marcotte2023`` claims (``proofs_check.papers.marcotte2023.claims``):

* per built-in model handled by ``derivations.conservation`` (network linear in its inputs, polynomial flow),
  *completeness*: the independent polynomial laws for every loss found up to degree :data:`DEGREE` at width
  :data:`WIDTH` are as many as :math:`D - \dim\mathrm{Lie}(W)(\theta)`. The found laws are proved exactly and
  certified independent at a rational point, and the computed count is never below the true one, so equality
  proves completeness; a smaller number of polynomial laws refutes it (the missing laws are then not
  polynomial of degree ≤ :data:`DEGREE`). A model that cannot be handled is an error saying why (see
  :func:`skipped_models`);
* for the two-layer linear network :math:`\varphi = U_1U_2` (:math:`U_1 \in \mathbb R^{d\times r}`,
  :math:`U_2 \in \mathbb R^{r\times c}`), the :math:`r(r+1)/2` independent laws, the entries of
  :math:`U_1^\top U_1 - U_2U_2^\top`, at several :math:`(d, r, c)`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache

import sympy as sp

from derivations import models
from derivations.conservation import (
    UnsupportedModelError,
    conserved_quantities,
    count_conservation_laws,
    count_laws_for_reparametrization,
    flow_fields,
    independent,
    laws_for_reparametrization,
)
from derivations.model import Model
from derivations.proof import Proof, prove_zero
from proofs_check.outcome import Outcome

__all__ = [
    "DEGREE",
    "LINEAR_CASES",
    "NON_POLYNOMIAL",
    "WIDTH",
    "completeness",
    "linear_count",
    "power_activation_laws",
    "skipped_models",
]

WIDTH = 2
DEGREE = 4
# (d, r, c) of the two-layer linear networks: the four of tooling-notes §2 and a larger one (D = 24)
LINEAR_CASES = ((1, 1, 1), (2, 2, 2), (2, 3, 2), (3, 2, 3), (4, 3, 4))
# Models whose laws are not all polynomial: how to build the known non-polynomial laws at WIDTH, and where they are
# derived. Each is proved conserved along every field and independent of the polynomial laws before it is counted.
NON_POLYNOMIAL_WHERE = {
    "power_activation": (
        "Delta_1 - Delta_2 = F(w_1; c_1) - F(w_2; c_2), F the asinh antiderivative of Xu & Ziyin 2025 eq. 30 at "
        "beta = 2 (derivations.power_activation.F_BETA2, checked there) with each neuron's law c_i substituted"
    ),
}
COUNT_METHOD = "D − dim Lie(W)(θ): iterated brackets, exact ranks over Q at 3 random rational points"
FIND_METHOD = "polynomial ansatz, exact nullspace over Q(parameters), gradient-rank independence"


def _two_layer_linear(d: int, r: int, c: int) -> tuple[sp.Matrix, sp.Matrix]:
    """Symbolic weights ``U1`` (d × r) and ``U2`` (r × c) of a two-layer linear network."""
    U1 = sp.Matrix(d, r, lambda i, k: sp.Symbol(f"U1_{i + 1}_{k + 1}", real=True))
    U2 = sp.Matrix(r, c, lambda k, j: sp.Symbol(f"U2_{k + 1}_{j + 1}", real=True))
    return U1, U2


@cache
def _unsupported(model: Model) -> str | None:
    """Why ``model`` cannot be handled at :data:`WIDTH`, or None."""
    try:
        instance = model.instance(WIDTH)
        for loss in ("all", "given"):
            flow_fields(instance, loss)
    except UnsupportedModelError as error:
        return str(error)
    return None


def skipped_models() -> dict[str, str]:
    """Registered models left out of :func:`claims`, with the reason."""
    reasons = {name: _unsupported(models.get(name)) for name in models.names()}
    return {name: reason for name, reason in reasons.items() if reason is not None}


def power_activation_laws(model: Model) -> tuple[sp.Expr, ...]:
    r"""The non-polynomial law of ``power_activation`` (beta = 2) at :data:`WIDTH` in the instance's variables:
    :math:`\Delta_1 - \Delta_2 = F(w_1; c_1) - F(w_2; c_2)` with :math:`F(w; c) = -\operatorname{asinh}(\sqrt c /
    (\sqrt{\eta_u}w))/\sqrt{2\eta_w c}` (``derivations.power_activation.F_BETA2``, whose derivative is the integrand
    of eq. 30) and each neuron's polynomial law :math:`c_i = 2\eta_w u_i^2 - \eta_u w_i^2` substituted; real where
    :math:`c_i > 0` and :math:`w_i > 0`. Empty for another exponent (no explicit :math:`F`)."""
    from derivations.models.power_activation import power_activation, u, w
    from derivations.power_activation import F_BETA2, c_pos, conserved_quantity, w_pos

    if model is not power_activation(2):
        return ()
    variables = model.instance(WIDTH).variables
    us, ws = ([v for v in variables if v.name.startswith(f"{n}_")] for n in ("u", "w"))

    def f(ui: sp.Symbol, wi: sp.Symbol) -> sp.Expr:
        return F_BETA2.xreplace({c_pos: conserved_quantity(2).xreplace({u: ui, w: wi}), w_pos: wi})

    return (f(us[0], ws[0]) - f(us[1], ws[1]),)


NON_POLYNOMIAL: dict[str, Callable[[Model], tuple[sp.Expr, ...]]] = {"power_activation": power_activation_laws}
"""Model name -> the builder of its known non-polynomial laws at :data:`WIDTH` (``NON_POLYNOMIAL_WHERE`` says what
they are); ``completeness`` counts a law only once it is proved conserved and independent."""


def _split_radicals(expr: sp.Expr) -> sp.Expr:
    """Every square root's radicand factored, so that positive factors split out (exact for positive symbols)."""
    return expr.replace(
        lambda e: isinstance(e, sp.Pow) and e.exp.is_Rational and e.exp.q == 2,
        lambda e: sp.factor(e.base) ** e.exp,
    )


def _conserved(law: sp.Expr, instance, point: dict) -> list[tuple[str, Proof]]:
    """``law`` differentiated along every field for every loss (``P grad phi_j``) and along the model's own flow,
    on the domain where it is real (the variables positive): (field, proof) of each. A rate that is not zero at
    ``point`` (30 digits) is refuted there without the exact checker, whose failure on such an expression can take
    minutes."""
    variables = tuple(instance.variables)
    positive = {v: sp.Symbol(v.name, positive=True) for v in variables}
    at_point = {positive.get(s, s): value for s, value in point.items()}
    on_domain = law.xreplace(positive)
    found = []
    for loss in ("all", "given"):
        for j, field in enumerate(flow_fields(instance, loss)):
            rate = sum(
                sp.diff(on_domain, positive[v]) * x.xreplace(positive) for v, x in zip(variables, field, strict=True)
            )
            value = sp.N(rate.xreplace(at_point), 30)
            if value.is_number and abs(value) > 1e-20:
                proof = Proof(False, "value at a point (30 digits)", True, f"{sp.N(value, 6)} at {point}")
            else:
                proof = prove_zero(_split_radicals(rate))
            found.append((f"{loss} loss, field {j + 1}", proof))
    return found


def _independent_at(laws: list[sp.Expr], variables: tuple[sp.Symbol, ...], point: dict) -> tuple[bool, str]:
    """Whether the gradients of ``laws`` are independent at ``point`` (exact): some maximal minor of the Jacobian
    there is a non-zero number, proved equal to its 40-digit rational approximation (``prove_zero``)."""
    jacobian = sp.Matrix([[sp.diff(law, v) for v in variables] for law in laws]).xreplace(point)
    n = len(laws)
    for columns in itertools.combinations(range(len(variables)), n):
        minor = jacobian[:, list(columns)].det()
        value = sp.nsimplify(sp.N(minor, 40), rational=True, tolerance=sp.Rational(1, 10**30))
        if value != 0 and prove_zero(minor - value).holds:
            return True, f"the minor of columns {[str(variables[c]) for c in columns]} is {value}"
    return False, f"no non-zero maximal minor of the {n} laws' Jacobian proved at {point}"


def _domain_point(model: Model, variables: tuple[sp.Symbol, ...]) -> dict[sp.Symbol, sp.Rational]:
    """A rational point inside the domain of the non-polynomial laws: the i-th variable of each layer = i + 1 for
    the first layer, 1 for the others (c_i = 2 eta_w u_i^2 - eta_u w_i^2 > 0 there), every parameter 1."""
    point: dict[sp.Symbol, sp.Rational] = {}
    first = variables[0].name.split("_")[0]
    for v in variables:
        name, index = v.name.rsplit("_", 1)
        point[v] = sp.Integer(int(index) if name == first else 1)
    for name in model.shared_param_names:
        point[model.symbol(name)] = sp.Integer(1)
    return point


def _non_polynomial(model: Model, polynomial: list[sp.Expr]) -> tuple[list[sp.Expr], str, str]:
    """The model's known non-polynomial laws that are proved conserved and independent of ``polynomial`` (and of
    each other), with what was proved, or the reason (third item) one of them is not counted."""
    builder = NON_POLYNOMIAL.get(model.name)
    laws = list(builder(model)) if builder else []
    if not laws:
        return [], "", ""
    instance = model.instance(WIDTH)
    variables = tuple(instance.variables)
    point = _domain_point(model, variables)
    for law in laws:
        failing = [(where, proof) for where, proof in _conserved(law, instance, point) if not proof.holds]
        if failing:
            where, proof = failing[0]
            return [], "", f"the non-polynomial law is not conserved ({where}): residual {proof.residual}"
    independent_, how = _independent_at([*polynomial, *laws], variables, point)
    if not independent_:
        return [], "", f"the non-polynomial laws are not independent of the polynomial ones: {how}"
    proved = (
        f"{len(laws)} non-polynomial law(s), {NON_POLYNOMIAL_WHERE[model.name]}: proved conserved along every "
        f"field P grad phi_j and the model's own flow (Gröbner normal form, u_i, w_i > 0), independent of the "
        f"polynomial laws ({how}, exact)"
    )
    return laws, proved, ""


def completeness(model: Model) -> Callable[[], Outcome]:
    """The check that ``model``'s laws are complete (an error if the model cannot be handled): the independent
    polynomial laws found, plus the known non-polynomial laws (``NON_POLYNOMIAL``) once each is proved conserved
    and independent of them, are as many as D - dim Lie(W)(theta)."""

    def check() -> Outcome:
        reason = _unsupported(model)
        if reason is not None:
            return Outcome.error(f"{model.name} is not handled by derivations.conservation: {reason}")
        counted = count_conservation_laws(model, WIDTH, "all")
        laws = conserved_quantities(model, DEGREE, WIDTH, "all")
        methods = ", ".join(sorted({law.method for law in laws})) or "none needed"
        method = f"{COUNT_METHOD}; {FIND_METHOD}; each law proved along the flow ({methods})"
        found = [str(law.expr) for law in laws]
        detail = f"p = {WIDTH}, D = {len(model.instance(WIDTH).variables)}: found {found}; counted {counted}"
        extra, proved, why_not = _non_polynomial(model, [law.expr for law in laws])
        if why_not:
            detail += f"; {why_not}"
        if extra:
            method += "; the non-polynomial law proved conserved (Gröbner normal form) and independent (exact minor)"
        if len(laws) + len(extra) == counted:
            return Outcome.proved(method, detail + (f"; plus {proved}" if extra else ""))
        witness = {
            "p": WIDTH,
            f"polynomial laws (degree <= {DEGREE})": len(laws),
            "non-polynomial laws proved": len(extra),
            "D - dim Lie(W)": counted,
        }
        return Outcome.refuted(method, witness, detail + "; the missing laws are not polynomial of low degree")

    return check


def linear_count(d: int, r: int, c: int) -> Callable[[], Outcome]:
    """The check that the two-layer linear network (d, r, c) has r(r+1)/2 independent laws, U1ᵀU1 − U2U2ᵀ."""
    expected = r * (r + 1) // 2

    def check() -> Outcome:
        U1, U2 = _two_layer_linear(d, r, c)
        phi, variables = list(U1 * U2), (*U1, *U2)
        known = [h for i, row in enumerate((U1.T * U1 - U2 * U2.T).tolist()) for h in row[i:]]
        for h in known:
            for f in phi:
                proof = prove_zero(sum(sp.diff(h, s) * sp.diff(f, s) for s in variables))
                if not proof.holds:
                    return Outcome.refuted("exact normal form", {"law": h, "phi_j": f}, proof.residual)
        counts = {
            "counted": count_laws_for_reparametrization(phi, variables),
            "found": len(laws_for_reparametrization(phi, variables, 2)),
            "known independent": len(independent(known, variables)),
        }
        method = f"{COUNT_METHOD}; {FIND_METHOD}; U1ᵀU1 − U2U2ᵀ proved conserved (rational identity)"
        detail = f"D = {len(variables)}, r(r+1)/2 = {expected}: " + ", ".join(f"{k} {v}" for k, v in counts.items())
        if all(v == expected for v in counts.values()):
            return Outcome.proved(method, detail)
        return Outcome.refuted(method, {"d": d, "r": r, "c": c, **counts}, detail)

    return check
