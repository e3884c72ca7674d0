"""AGF when the initialization scale is not small (issue 13, item 1): the Pesme–Flammarion 2-D example of spec §5B.

With u = sqrt(2) alpha, v = 0 each neuron conserves u_i² - v_i² = 2 alpha², so its norm never falls below
sqrt(2) alpha. Judged against an absolute collapse_tol = 1e-3 the collapse of beta_1 at t = 0.600 was missed for
alpha >= 1e-3 and AGF ended after 2 jumps at loss 0; gradient flow (``dln_gradient_flow``, the exact GF of the
network) instead stays on a plateau at loss ~0.0698 until t ~ 3.86 (alpha = 1e-2) and then jumps a third time.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from numerics import agf
from numerics.alternating import InitializationScaleWarning, agreement
from numerics.alternating.two_layer import Network
from proofs_check.papers.kunin2025.reference_problems import dln_problem_b
from proofs_check.papers.kunin2025.settings import dln_gradient_flow, pesme_flammarion


def _agf_b(alpha: float):
    X, y = dln_problem_b()
    return agf(X, y, np.full(2, np.sqrt(2) * alpha), np.zeros((2, 2)), alpha, support=np.eye(2, dtype=bool))


def _scaled_errors(result, alpha: float) -> np.ndarray:
    """GF's relative jump-time errors against AGF's prediction, times log(1/alpha)."""
    X, y = dln_problem_b()
    run = agreement(dln_gradient_flow(X, y, alpha, 8.0), result.jump_times, result.loss_levels, alpha)
    return run.relative_errors * np.log(1 / alpha), run.plateau_errors


@pytest.fixture(scope="module")
def small_alpha_errors() -> np.ndarray:
    """The reference where alpha is small by any standard (1e-8: floor 1.4e-8, no warning)."""
    return _scaled_errors(_agf_b(1e-8), 1e-8)[0]


@pytest.mark.parametrize("alpha", [1e-2, 3e-3, 1e-3])
def test_three_jumps_and_the_plateau_at_every_alpha(alpha: float, small_alpha_errors: np.ndarray) -> None:
    """Three jumps with the collapse of beta_1 at the second, and the plateau at PF's level 0.07, as GF shows.

    Agreement with GF at the same alpha: GF's loss at the midpoint of the 0.07 plateau is within 0.5 % of it
    (0.0698 at alpha = 1e-2), and each jump is late or early by a relative error that is the same multiple of
    1/log(1/alpha) as at alpha = 1e-8 (within 0.02; -0.33, 1.46, 0.54): the O(1/log(1/alpha)) convergence of
    spec §5A, at alpha = 1e-2 a third jump at t = 3.457 against GF's 3.863.
    """
    with pytest.warns(InitializationScaleWarning, match="norm >= "):
        result = _agf_b(alpha)
    assert len(result.jump_times) == 3
    assert result.jumps[2].collapsed == (0,) and result.jumps[3].activated == (0,)
    assert result.loss_levels[2] == pytest.approx(pesme_flammarion(*dln_problem_b())[2].loss, rel=1e-9)
    assert result.loss_levels[2] == pytest.approx(0.07, abs=5e-4)
    scaled, plateau = _scaled_errors(result, alpha)
    assert plateau[2] < 5e-3, plateau
    assert np.allclose(scaled, small_alpha_errors, atol=0.02), (scaled, small_alpha_errors)


def test_gradient_flow_plateau_the_issue_reports() -> None:
    """The ground truth itself: at alpha = 1e-2 GF sits at loss 0.0698 and leaves it at t = 3.86 (issue 13)."""
    X, y = dln_problem_b()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InitializationScaleWarning)
        levels = _agf_b(1e-2).loss_levels
    run = agreement(dln_gradient_flow(X, y, 1e-2, 8.0), [0.193, 0.600, 3.457], levels, 1e-2)
    assert run.jump_times[2] == pytest.approx(3.86, abs=0.01)
    midpoint = dln_gradient_flow(X, y, 1e-2, 8.0).loss(np.array([(run.jump_times[1] + run.jump_times[2]) / 2]))
    assert midpoint[0] == pytest.approx(0.0698, abs=1e-4)


def test_small_alpha_gives_no_warning_and_the_same_staircase() -> None:
    """At alpha = 7e-4 the floor sqrt(2) alpha = 9.9e-4 is below collapse_tol: no warning, the same three jumps."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", InitializationScaleWarning)
        result = _agf_b(7e-4)
    assert np.allclose(result.jump_times, [0.193, 0.600, 3.457], atol=1e-3)


def test_an_absolute_collapse_test_misses_the_plateau(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wrong variant, refuted: ignoring the conserved floor (||theta||² against collapse_tol², the old absolute
    test) gives 2 jumps."""
    monkeypatch.setattr(Network, "collapse_margins", lambda self, a, w: np.sum(a**2, axis=1) + np.sum(w**2, axis=1))
    with pytest.warns(InitializationScaleWarning):
        result = _agf_b(1e-2)
    assert len(result.jump_times) == 2 and result.loss_levels[-1] < 1e-12
