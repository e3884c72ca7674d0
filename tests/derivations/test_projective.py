"""The projective linearization (``derivations.projective``, catalogue reduction ``projective-linear``): the
decomposition F = K x + s(x) x found for the single neuron of Kunin et al. 2024 (d = 2, 3, with and without layer
learning rates), refused with a reason where the field has no such form, and its checks refuting wrong variants
(a flipped sign of the law's constant in K, a wrong rate of kappa, a K that depends on the state)."""

from __future__ import annotations

from dataclasses import replace

import pytest
import sympy as sp

from derivations import models
from derivations.catalogue import REDUCTIONS, Context, ProjectiveLinear
from derivations.closed_form import ClosedForm
from derivations.derivation import Derivation
from derivations.models.single_neuron import single_neuron
from derivations.pipeline import _law_steps
from derivations.projective import Decomposition, LinearFlowSolution, decompose, linear_flow_solution, record_steps


def context(model) -> Context:
    laws, _ = _law_steps(model, Derivation(""))
    return Context(model, sp.Symbol("t", nonnegative=True), sp.Symbol("gamma", positive=True), laws)


def solved(model) -> tuple[LinearFlowSolution, Decomposition]:
    c = context(model)
    found = linear_flow_solution(model, c.laws, c.t, c.fresh)
    assert not isinstance(found, str), found
    return found


def test_the_reduction_sits_after_the_shared_clock() -> None:
    names = [r.name for r in REDUCTIONS]
    assert names.index("projective-linear") == names.index("shared-clock") + 1 or (
        names[names.index("shared-clock") + 1] == "elimination"
        and names.index("projective-linear") == names.index("shared-clock") + 2
    )
    assert ProjectiveLinear.general


@pytest.mark.parametrize("d", [2, 3])
def test_single_neuron_decomposition(d: int) -> None:
    """K = [[Delta, beta^T], [beta, 0]], s(x) = -a^2 with Delta = a_0^2 - |w_0|^2 (modulo the law, one of the
    decompositions s -> s + mu (a^2 - |w|^2 - Delta), K -> K - mu Delta I)."""
    model = single_neuron(d)
    solution, decomposition = solved(model)
    (delta,) = decomposition.constants
    beta = sp.Matrix([sp.Symbol(f"beta_{k + 1}", real=True) for k in range(d)])
    expected = sp.Matrix(sp.BlockMatrix([[sp.Matrix([[delta]]), beta.T], [beta, sp.zeros(d, d)]]))
    assert sp.simplify(sp.Matrix(solution.K) - expected) == sp.zeros(d + 1, d + 1)
    assert sp.Matrix(solution.Q) == sp.diag(-1, *[0] * d)
    a0, w0 = sp.Symbol("a_0", real=True), [sp.Symbol(f"w_{k + 1}_0", real=True) for k in range(d)]
    assert sp.expand(decomposition.constants[delta] - (a0**2 - sum(w**2 for w in w0))) == 0


def test_the_ratios_obey_the_issue_s_vector_riccati_equation() -> None:
    """z = w/a obeys z' = beta - delta z - (beta^T z) z (Kunin et al. 2024; issue 22), recorded and checked."""
    model = single_neuron(3)
    steps = model.solution.derivation.by_key("ratio_riccati")
    (delta,) = model.solution.coordinates
    z = [sp.Symbol(f"z_w_{k + 1}", real=True) for k in range(3)]
    beta = [sp.Symbol(f"beta_{k + 1}", real=True) for k in range(3)]
    along = sum(b * zk for b, zk in zip(beta, z, strict=True))
    assert len(steps) == 3
    for step, zk, b in zip(steps, z, beta, strict=True):
        assert sp.expand(step.relation.rhs - (b - delta * zk - along * zk)) == 0
        assert step.check().holds


def test_single_neuron_with_layer_learning_rates() -> None:
    """With eta_a, eta_w the law is eta_w a^2 - eta_a |w|^2 = Delta and no rescaling of the states is needed:
    K = [[Delta, eta_a beta^T], [eta_w beta, 0]], s = -eta_w a^2."""
    solution, decomposition = solved(single_neuron(2, learning_rates=True))
    (delta,) = decomposition.constants
    eta_a, eta_w = sp.symbols("eta_a eta_w", positive=True)
    b1, b2 = sp.symbols("beta_1 beta_2", real=True)
    assert sp.Matrix(solution.K) == sp.Matrix([[delta, eta_a * b1, eta_a * b2], [eta_w * b1, 0, 0], [eta_w * b2, 0, 0]])
    assert sp.Matrix(solution.Q) == sp.diag(-eta_w, 0, 0)


@pytest.mark.parametrize("model", [single_neuron(2), single_neuron(3), single_neuron(2, learning_rates=True)])
def test_the_pipeline_solves_the_single_neuron_from_every_start(model) -> None:
    result = model.solution
    assert isinstance(result, ClosedForm), str(result)
    assert not result.condition and result.general is None
    assert {type(c) for c in result.clocks.values()} == {LinearFlowSolution}
    checked = result.derivation.check()
    assert all(c.proof.holds and c.proof.exact for c in checked)
    keys = {c.step.key for c in checked}
    assert {"linear_decomposition", "ratio_riccati", "level_set", "linear_system", "kappa", "back_substitution"} <= keys


def test_the_registered_model_is_the_default_and_d_is_a_parameter() -> None:
    assert models.get("single_neuron") is single_neuron() is single_neuron(2)
    assert single_neuron(3).state_names == ("a", "w_1", "w_2", "w_3")
    with pytest.raises(ValueError, match="d must be"):
        single_neuron(0)
    with pytest.raises(TypeError, match="learning_rates"):
        single_neuron(2, learning_rates=1)  # type: ignore[arg-type]  # the wrong type is the point


def test_units_are_independent_neurons() -> None:
    """Width 2: two neurons side by side; unit 1's field has no trace of unit 2 and is the single neuron's."""
    inst = single_neuron(2).instance(2)
    a1, w11, w21 = inst.state["a"][0], inst.state["w_1"][0], inst.state["w_2"][0]
    b1, b2 = sp.symbols("beta_1 beta_2", real=True)
    assert sp.expand(inst.vector_field[a1] - (b1 * w11 + b2 * w21 - a1 * (w11**2 + w21**2))) == 0
    assert sp.expand(inst.vector_field[w11] - a1 * (b1 - a1 * w11)) == 0
    assert set(inst.vector_field[a1].free_symbols) <= {a1, w11, w21, b1, b2}


def test_a_field_without_the_structure_is_refused() -> None:
    x, y = sp.symbols("x y", real=True)
    c = sp.Symbol("c")
    # a quadratic term: not K x + s(x) x on any level set of x^2 + y^2
    reason = decompose([x**2, y], [x, y], [x**2 + y**2], [c])
    assert isinstance(reason, str) and "no solution" in reason
    assert isinstance(decompose([sp.exp(x), y], [x, y], [], []), str)
    # the same test accepts K x + s x itself (the ansatz is not vacuous)
    found = decompose([2 * x + y - x * (x**2 + y**2), -y - y * (x**2 + y**2)], [x, y], [], [])
    assert not isinstance(found, str)
    K, Q = found
    assert sp.Matrix(K) == sp.Matrix([[2, 1], [0, -1]]) and sp.Matrix(Q) == -sp.eye(2)


def test_models_outside_the_class_get_a_reason() -> None:
    chain = list(ProjectiveLinear().candidates(context(models.get("deep_scalar_chain"))))
    assert chain and all(isinstance(r, str) and "no solution" in r for r in chain)
    coupled = list(ProjectiveLinear().candidates(context(models.get("two_layer_scalar_decay"))))
    assert coupled == ["the units couple through the sums ['theta']"]


def _steps(model, decomposition: Decomposition, solution: LinearFlowSolution, **kwargs) -> list:
    d = Derivation("variant")
    record_steps(d, model, decomposition, solution.u, solution.kappa, solution.t, **kwargs)
    return d.check()


def _failing(checked: list) -> set[str]:
    return {c.step.key for c in checked if not (c.proof.holds and c.proof.exact)}


def test_the_recorded_steps_hold_and_wrong_variants_are_refuted() -> None:
    model = single_neuron(2)
    solution, decomposition = solved(model)
    assert _failing(_steps(model, decomposition, solution)) == set()
    (delta,) = decomposition.constants
    # K with the law's constant's sign flipped: the decomposition no longer matches the field
    flipped = replace(decomposition, K=decomposition.K.xreplace({delta: -delta}))
    assert {"linear_decomposition", "ratio_riccati"} <= _failing(_steps(model, flipped, solution))
    # the level set of a different law (a^2 + |w|^2): the decomposition fails modulo it
    a, w1, w2 = (model.symbol(n) for n in model.state_names)
    other = replace(decomposition, relations=(a**2 + w1**2 + w2**2 - delta,))
    assert "linear_decomposition" in _failing(_steps(model, other, solution))
    # a wrong rate of kappa (s(u) kappa instead of s(u) kappa^3): the back-substitution fails
    u, kappa = solution.u, solution.kappa
    wrong = decomposition.s(u) * kappa
    assert _failing(_steps(model, decomposition, solution, kappa_rate=wrong)) == {"back_substitution"}
    # a K that depends on the state: the linear system's check fails
    moving = replace(decomposition, K=decomposition.K.xreplace({delta: a**2 - w1**2 - w2**2}))
    assert "linear_system" in _failing(_steps(model, moving, solution))
