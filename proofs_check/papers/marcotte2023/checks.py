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
from derivations.proof import prove_zero
from proofs_check.outcome import Outcome

__all__ = ["DEGREE", "LINEAR_CASES", "WIDTH", "completeness", "linear_count", "skipped_models"]

WIDTH = 2
DEGREE = 4
# (d, r, c) of the two-layer linear networks: the four of tooling-notes §2 and a larger one (D = 24)
LINEAR_CASES = ((1, 1, 1), (2, 2, 2), (2, 3, 2), (3, 2, 3), (4, 3, 4))
# Models whose laws are not all polynomial: the number of known non-polynomial laws, and where they are proved.
NON_POLYNOMIAL = {
    "power_activation": (
        1,
        "Delta_1 - Delta_2 = F_1(w_1) - F_2(w_2) (an asinh for beta = 2; Xu & Ziyin 2025, §3), "
        "conserved by xu_ziyin2025.power.delta",
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


def completeness(model: Model) -> Callable[[], Outcome]:
    """The check that ``model``'s polynomial laws are complete (an error if the model cannot be handled)."""

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
        extra, where = NON_POLYNOMIAL.get(model.name, (0, ""))
        if len(laws) + extra == counted:
            return Outcome.proved(method, detail + (f"; plus {extra} non-polynomial law(s): {where}" if extra else ""))
        witness = {"p": WIDTH, f"polynomial laws (degree <= {DEGREE})": len(laws), "D - dim Lie(W)": counted}
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
