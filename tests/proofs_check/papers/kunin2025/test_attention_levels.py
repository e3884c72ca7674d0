"""kunin2025.attention.levels_exact: the loss levels are derived from the data model, not from a typed per-mode loss.

The check used to solve a per-component loss typed into it. Now the population loss is computed by SymPy from the
data model (Gaussian moments, N = 1, 2, 3, interpolated in N), the components separate, and the printed gains and
levels are compared with the derived ones; the numerics' loss (used by the GF claims) is compared with the derived
loss. A wrong data model (a changed constant, a flipped sign) or a wrong numerical loss refutes the claim."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from proofs_check.claims import Status
from proofs_check.papers.kunin2025 import attention_derivation
from proofs_check.papers.kunin2025 import checks as kunin2025
from proofs_check.papers.kunin2025.attention import attention_loss


def test_the_levels_are_derived_and_the_claim_is_proved() -> None:
    derived = attention_derivation.attention_levels(2)
    (l1, l2), N = derived.lam, attention_derivation.N
    g1, g2 = derived.gammas
    assert derived.mixed == (0,)
    # one component by hand from the data model (E x^4 = 3 lam^2): at N = 1, D = 1 the loss is
    # 1/2 E (w x_q - x_q gamma x^2 w)^2 = 1/2 lam (1 - 2 gamma lam + 3 gamma^2 lam^2)
    lam, gamma = sp.Symbol("lambda", positive=True), sp.Symbol("gamma", real=True)
    one = attention_derivation.population_loss([lam], sp.Matrix([[gamma]]), 1)
    assert sp.expand(one - lam * (1 - 2 * gamma * lam + 3 * gamma**2 * lam**2) / 2) == 0
    assert sp.cancel(derived.gains[0] - 1 / (l1 + l2 + (N + 1) * l1)) == 0
    assert kunin2025._attention_levels_exact().status is Status.PROVED
    assert not derived.loss.has(g1 * g2)


RESIDUAL = attention_derivation.residual


@pytest.mark.parametrize(
    "wrong",
    [
        # the prediction doubled (a changed constant)
        lambda x_q, w, xs, gamma: RESIDUAL(x_q, w, xs, 2 * gamma),
        # the prediction's sign flipped
        lambda x_q, w, xs, gamma: RESIDUAL(x_q, w, xs, -gamma),
    ],
)
def test_a_wrong_data_model_refutes_the_printed_levels(monkeypatch, wrong) -> None:
    monkeypatch.setattr(attention_derivation, "residual", wrong)
    outcome = kunin2025._attention_levels_exact()
    assert outcome.status is Status.REFUTED, outcome
    assert "derived from the data model" in outcome.detail


def test_a_wrong_numerical_loss_is_refuted(monkeypatch) -> None:
    def wrong(Gamma: np.ndarray, lam: object, N: int) -> np.ndarray:
        return attention_loss(Gamma, lam, N) * (1 + 1e-6)

    monkeypatch.setattr(kunin2025, "attention_loss", wrong)
    outcome = kunin2025._attention_levels_exact()
    assert outcome.status is Status.REFUTED and "not the derived one" in outcome.detail
