"""Power activation f = γ Σ u_i (w_i ξ)^β (spec models-xu-ziyin2025.md §3, §8 erratum 2): the derived model and
the exact derivations. Expected values are the spec's formulas typed in below."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from derivations import models
from derivations import power_activation as pa
from derivations.closed_form import Unsolved
from derivations.models import power_activation as pa_model
from derivations.models.power_activation import MODEL, power_activation
from derivations.proof import prove_zero

BETAS = (1, 2, 3)
u, w, V = sp.symbols("u w V", real=True)
gamma, eta_u, eta_w, a = sp.symbols("gamma eta_u eta_w a", positive=True)
b = sp.Symbol("b", real=True)


def assert_zero(expr: sp.Expr) -> None:
    assert sp.simplify(expr) == 0, expr


def spec_E(V_: sp.Expr) -> sp.Expr:
    """Spec §3: E_β = γ a_β V − b_β."""
    return gamma * a * V_ - b


# --- the model -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [0, -1, 2.5, 2.0, True, "2", None])
def test_bad_beta_raises_value_error_naming_beta(bad) -> None:
    with pytest.raises(ValueError, match="beta"):
        power_activation(bad)


def test_one_model_per_beta_and_the_default() -> None:
    assert power_activation(2) is MODEL is pa_model.MODEL
    assert power_activation(3) is power_activation(3)
    assert {power_activation(beta).name for beta in (1, 2, 3, 4)} == {"power_activation"}
    assert len({power_activation(beta).title for beta in (1, 2, 3, 4)}) == 4
    assert models.get("power_activation") is MODEL
    assert isinstance(MODEL.solution, Unsolved)
    assert "one clock per unit" in MODEL.solution.reason
    assert dict(MODEL.learning_rates) == {"u": "eta_u", "w": "eta_w"}
    assert MODEL.shared_param_names == ("gamma", "eta_u", "eta_w", "a", "b")
    with pytest.raises(ValueError, match="no closed form"):
        _ = MODEL.closed_form


@pytest.mark.parametrize("beta", BETAS)
@pytest.mark.parametrize("p", [1, 2, 3])
def test_loss_and_flow_are_the_spec_ones(beta, p) -> None:
    """Loss ½ E(f − y)² − ½ min = (a/2)(γV − b/a)², flow u̇_i = −η_u γ E w_i^β, ẇ_i = −η_w γ E β u_i w_i^{β−1}."""
    inst = power_activation(beta).instance(p)
    us, ws = inst.state["u"], inst.state["w"]
    Vp = sum(ui * wi**beta for ui, wi in zip(us, ws, strict=True))
    assert_zero(inst.loss - a * (gamma * Vp - b / a) ** 2 / 2)
    assert_zero(inst.quantity("output") - gamma * Vp)
    for ui, wi in zip(us, ws, strict=True):
        assert_zero(inst.vector_field[ui] + eta_u * gamma * spec_E(Vp) * wi**beta)
        assert_zero(inst.vector_field[wi] + eta_w * gamma * spec_E(Vp) * beta * ui * wi ** (beta - 1))


@pytest.mark.parametrize("beta", (*BETAS, 4))
def test_unit_field_and_clock_field(beta) -> None:
    field = power_activation(beta).unit_field
    assert_zero(field[u] + eta_u * gamma * spec_E(V) * w**beta)
    assert_zero(field[w] + eta_w * gamma * spec_E(V) * beta * u * w ** (beta - 1))
    clock = pa.clock_field(beta)
    assert_zero(clock[u] + eta_u * w**beta)
    assert_zero(clock[w] + eta_w * beta * u * w ** (beta - 1))
    assert_zero(pa.CLOCK_RATE - gamma * spec_E(V))


# --- conservation --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("beta", BETAS)
def test_c_i_conserved_for_every_neuron_of_the_explicit_network(beta) -> None:
    inst = power_activation(beta).instance(3)
    for ui, wi in zip(inst.state["u"], inst.state["w"], strict=True):
        proof = inst.verify_conserved(beta * eta_w * ui**2 - eta_u * wi**2)
        assert proof.holds and proof.exact, proof


@pytest.mark.parametrize("beta", BETAS)
def test_non_laws_are_rejected(beta) -> None:
    model = power_activation(beta)
    assert model.verify_unit_conserved(pa.conserved_quantity(beta)).holds
    candidates = [pa.non_law(beta), u * w**beta, beta * eta_w * u**2 - 2 * eta_u * w**2]
    if beta >= 2:
        candidates.append(eta_w * u**2 - eta_u * w**2)  # the β = 1 law
    for candidate in candidates:
        proof = model.verify_unit_conserved(candidate)
        assert not proof.holds and proof.residual != "0", candidate


# --- recorded derivations ------------------------------------------------------------------------------------


@pytest.mark.parametrize("beta", (*BETAS, 4))
def test_derivation_steps_are_proved_exactly(beta) -> None:
    d = pa.derivation(beta)
    assert {s.tag for s in d.steps} == {"clock", "conservation", "curve", "Delta"}
    for check in d.check():
        assert check.proof.holds and check.proof.exact, (check.step.justification, check.proof)
    assert "\\begin{align}" in d.latex()


@pytest.mark.parametrize("beta", BETAS)
def test_delta_step_is_not_vacuous(beta) -> None:
    """With the state on the other branch (u = −s|u|) or a wrong integrand, d/dt [F_i(w_i) + τ] ≠ 0."""
    (step,) = pa.derivation(beta).by_tag("Delta")
    s, m = sp.Symbol("s", real=True), sp.Symbol("m", positive=True)
    c = sp.Symbol("c", real=True)
    definitions = {sp.Symbol(r"\dot\tau", real=True): pa.CLOCK_RATE}
    wrong_branch = {**step.substitutions, u: -s * m}
    assert not prove_zero(step.residual, (s**2 - 1,), {**definitions, **wrong_branch}).holds
    no_curve = {c: beta * eta_w * m**2 + eta_u * w**2, u: s * m}
    assert not prove_zero(step.residual, (s**2 - 1,), {**definitions, **no_curve}).holds


def test_beta1_log_p_derivation() -> None:
    for check in pa.beta1_derivation().check():
        assert check.proof.holds and check.proof.exact, (check.step.justification, check.proof)


def test_erratum2_printed_exp_refuted_corrected_log_proved() -> None:
    """Spec §8 erratum 2: F_i(x) = ln x + c (β = 1), not e^x."""
    for F in (sp.log, lambda y: sp.log(y) + 7, lambda y: sp.log(3 * y)):
        assert prove_zero(pa.beta1_clock_residual(F)).holds
    for F in (sp.exp, lambda y: sp.exp(y) + 7, lambda y: sp.log(y) / 2, lambda y: y):
        assert not prove_zero(pa.beta1_clock_residual(F)).holds
    # the printed form at a point: d/dτ' e^p = −p e^p ≠ −1
    residual = pa.beta1_clock_residual(sp.exp)
    point = {gamma: 1, eta_u: 1, eta_w: 1, a: 1, b: 0, V: 1, u: sp.Rational(1, 2), w: sp.Rational(1, 4)}
    p = sp.Rational(3, 4)
    assert sp.simplify(residual.subs(point) - (-p * sp.exp(p) + 1)) == 0
    assert residual.subs(point).evalf() != 0


def test_beta2_explicit_F() -> None:
    for check in pa.beta2_derivation().check():
        assert check.proof.holds and check.proof.exact, (check.step.justification, check.proof)


def test_beta2_explicit_F_numerically() -> None:
    """mpmath: d/dw of the spec's F equals 1/(2 η_w u(w) w), u(w) = sqrt((c + η_u w²)/(2 η_w)), at c, u, w > 0."""
    for eu, ew, c, x in ((0.7, 1.1, 0.3, 0.4), (2.0, 0.5, 1.7, 2.5), (1.0, 1.0, 1e-3, 1e-2)):
        with mpmath.workdps(30):
            eu, ew, c, x = map(mpmath.mpf, (eu, ew, c, x))

            def F(y, eu=eu, ew=ew, c=c):
                return -mpmath.asinh(mpmath.sqrt(c) / (mpmath.sqrt(eu) * y)) / mpmath.sqrt(2 * ew * c)

            integrand = 1 / (2 * ew * mpmath.sqrt((c + eu * x**2) / (2 * ew)) * x)
            assert abs(mpmath.diff(F, x) - integrand) < mpmath.mpf(10) ** -20 * abs(integrand)
