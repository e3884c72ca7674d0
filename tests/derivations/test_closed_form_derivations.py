"""The derived closed forms: their recorded derivations re-check, their LaTeX is one align block, and
(the real test) substituting them into the *explicit* width-p vector field leaves no residual.

Expected structure typed from the spec: eq 75 (Sigma0, S0), eqs 86–87 (gamma' = Z^-1[-(Sigma0+S0) gamma^2 +
2 S gamma + (Sigma0-S0)], gamma(0) = 1), §2 (each diagonal mode is that with p = 1, Z = 1, rate lam_i) and
eq 7/10. ``prove_zero`` is used as a generic checker; every residual is also checked by ``sympy.cancel``
where it is rational.
"""

from __future__ import annotations

import pytest
import sympy as sp

from derivations import models, prove_zero

R = sp.Rational
S, theta = sp.Symbol("S", real=True), sp.Symbol("theta", real=True)
Z, lam = sp.Symbol("Z", positive=True), sp.Symbol("lam", positive=True)


def closed_form(name: str):
    return models.get(name).closed_form


def initial(p: int) -> tuple[list[sp.Symbol], list[sp.Symbol]]:
    return [sp.Symbol(f"A_{i}", real=True) for i in range(1, p + 1)], [
        sp.Symbol(f"B_{i}", real=True) for i in range(1, p + 1)
    ]


# --- recorded derivations ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["linear_model", "diagonal_linear_network", "two_layer_scalar"])
def test_recorded_derivation_rechecks_exactly(name) -> None:
    cf = closed_form(name)
    assert cf.model == name
    checks = cf.derivation.check()
    assert len(checks) == len(cf.derivation.steps) > 3
    for c in checks:
        assert c.proof.holds, (c.index, c.step.justification, c.proof)
        assert c.proof.exact, (c.index, c.step.justification, c.proof)
    assert cf.derivation.verified()


def test_latex_of_the_derivation_is_one_align_block_untagged() -> None:
    """The library tags nothing: every row is ``\\notag`` until a paper tags the steps (Paper.derivation)."""
    latex = closed_form("two_layer_scalar").derivation.latex()
    assert latex.startswith("\\begin{align}") and latex.rstrip().endswith("\\end{align}")
    assert "\\tag{" not in latex
    assert latex.count("\\notag") >= len(closed_form("two_layer_scalar").derivation.steps)


def test_a_tampered_step_is_caught() -> None:
    """The re-check is not vacuous: a copy of the derivation with one wrong step fails at that step."""
    import copy

    d = copy.deepcopy(closed_form("two_layer_scalar").derivation)
    d.add(sp.Eq(theta, S), "a false step", residual=theta - S)
    last = d.check()[-1]
    assert not last.proof.holds
    assert not d.verified()


# --- the closed form's Riccati coefficients are eqs 86–87 -------------------------------------------------


def spec_stats(A: list[sp.Symbol], B: list[sp.Symbol], Zs: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Eq 75: Sigma0 = (2Z)^-1 sum (a_i(0)^2 + b_i(0)^2), S0 = Z^-1 sum a_i(0) b_i(0)."""
    Sigma0 = sum(a**2 + b**2 for a, b in zip(A, B, strict=True)) / (2 * Zs)
    S0 = sum(a * b for a, b in zip(A, B, strict=True)) / Zs
    return Sigma0, S0


@pytest.mark.parametrize("p", [1, 2, 3])
def test_two_layer_riccati_coefficients_are_eqs_86_87(p) -> None:
    cf = closed_form("two_layer_scalar")
    ((_gamma, sol),) = cf.riccati.items()
    A, B = initial(p)
    a0, b0 = cf.init["a"], cf.init["b"]
    sums = {
        sym: sum(summand.xreplace({a0: x, b0: y}) for x, y in zip(A, B, strict=True))
        for sym, summand in cf.sums.items()
    }
    Sigma0, S0 = spec_stats(A, B, Z)
    for coefficient, expected in ((sol.c2, -(Sigma0 + S0) / Z), (sol.c1, 2 * S / Z), (sol.c0, (Sigma0 - S0) / Z)):
        assert sp.cancel(sp.sympify(coefficient).xreplace(sums) - expected) == 0
    assert sol.y0 == 1  # gamma(0) = 1 (the proof's printed gamma(0) = 0 is a typo)


def test_diagonal_riccati_coefficients_are_theorem3_with_p1() -> None:
    cf = closed_form("diagonal_linear_network")
    ((_gamma, sol),) = cf.riccati.items()
    assert cf.sums == {}
    a0, b0 = cf.init["a"], cf.init["b"]
    Sigma0, S0 = (a0**2 + b0**2) / 2, a0 * b0
    for coefficient, expected in ((sol.c2, -lam * (Sigma0 + S0)), (sol.c1, 2 * lam * S), (sol.c0, lam * (Sigma0 - S0))):
        assert sp.expand(sp.sympify(coefficient) - expected) == 0
    assert sol.y0 == 1


# --- substitution of the closed form into the explicit vector field ---------------------------------------

t = sp.Symbol("t", nonnegative=True)


def substitute_shared_clock(p: int, riccati_rhs):
    """States of the scalar network with gamma = H(t)^2, H > 0, and H' = gamma'/(2H) from ``riccati_rhs``."""
    cf = closed_form("two_layer_scalar")
    ((gamma, _),) = cf.riccati.items()
    inst = models.get("two_layer_scalar").instance(p)
    A, B = initial(p)
    H = sp.Function("H")(cf.t)
    states = {}
    for i in range(p):
        for n in ("a", "b"):
            expr = cf.in_initial_values()[n].xreplace({cf.init["a"]: A[i], cf.init["b"]: B[i], gamma: H**2})
            states[inst.state[n][i]] = expr
    Sigma0, S0 = spec_stats(A, B, Z)
    Hdot = riccati_rhs(H**2, Sigma0, S0) / (2 * H)
    Hs = sp.Symbol("H", positive=True)
    residuals = []
    for s in inst.variables:
        lhs = sp.diff(states[s], cf.t).subs(sp.Derivative(H, cf.t), Hdot)
        residuals.append((lhs - inst.vector_field[s].xreplace(states)).xreplace({H: Hs}))
    return residuals


def eq_86_87(g: sp.Expr, Sigma0: sp.Expr, S0: sp.Expr) -> sp.Expr:
    return (-(Sigma0 + S0) * g**2 + 2 * S * g + (Sigma0 - S0)) / Z


@pytest.mark.parametrize("p", [2, 3])
def test_two_layer_closed_form_solves_the_explicit_flow(p) -> None:
    for residual in substitute_shared_clock(p, eq_86_87):
        proof = prove_zero(residual)
        assert proof.holds and proof.exact, proof
        assert sp.cancel(residual) == 0


def test_two_layer_substitution_check_detects_a_wrong_clock() -> None:
    """Negative control: with the sign of 2 S gamma flipped the residual does not vanish."""
    wrong = lambda g, Sigma0, S0: (-(Sigma0 + S0) * g**2 - 2 * S * g + (Sigma0 - S0)) / Z  # noqa: E731
    residuals = substitute_shared_clock(2, wrong)
    assert not any(prove_zero(r).holds for r in residuals)


def test_two_layer_closed_form_initial_condition() -> None:
    cf = closed_form("two_layer_scalar")
    ((gamma, _),) = cf.riccati.items()
    a0, b0 = cf.init["a"], cf.init["b"]
    assert sp.simplify(cf.in_initial_values()["a"].subs(gamma, 1) - a0) == 0
    assert sp.simplify(cf.in_initial_values()["b"].subs(gamma, 1) - b0) == 0


EXPLICIT_CASES = {
    "p=2, S > S0": (2, [R(1, 2), R(-1, 3)], [R(2), R(1, 5)], R(3, 2), R(2)),
    "p=3, S < 0": (3, [R(1), R(-1, 3), R(1, 4)], [R(1, 2), R(1, 5), R(-2)], R(-1, 2), R(1)),
}


@pytest.mark.parametrize("case", list(EXPLICIT_CASES))
def test_two_layer_explicit_closed_form_on_rational_data(case) -> None:
    """``explicit()`` (gamma replaced by its solution, P_0, M_0 by their definitions) solves eq 77 exactly."""
    p, A, B, Sv, Zv = EXPLICIT_CASES[case]
    cf = closed_form("two_layer_scalar")
    inst = models.get("two_layer_scalar").instance(p)
    explicit = cf.explicit()
    sums = {
        sym: sum(summand.xreplace({cf.init["a"]: x, cf.init["b"]: y, Z: Zv}) for x, y in zip(A, B, strict=True))
        for sym, summand in cf.sums.items()
    }
    values = {S: Sv, Z: Zv}
    states = {}
    for i in range(p):
        for n in ("a", "b"):
            states[inst.state[n][i]] = (
                explicit[n].xreplace({cf.init["a"]: A[i], cf.init["b"]: B[i]}).xreplace({**values, **sums})
            )
    for s in inst.variables:
        residual = sp.diff(states[s], cf.t) - inst.vector_field[s].xreplace(states).xreplace(values)
        proof = prove_zero(residual)
        assert proof.holds and proof.exact, (s, proof)
    for i in range(p):  # and the initial condition
        assert sp.simplify(states[inst.state["a"][i]].subs(cf.t, 0) - A[i]) == 0
        assert sp.simplify(states[inst.state["b"][i]].subs(cf.t, 0) - B[i]) == 0


@pytest.mark.slow
def test_two_layer_explicit_closed_form_fully_symbolic() -> None:
    """``explicit()`` with symbolic S, Z and initial values, the derived sums substituted by eq 75's statistics
    (theta[+1] = (Sigma0 + S0)/2, theta[-1] = -(Sigma0 - S0)/2, theta(0) = S0), at p = 2 (two components)."""
    p = 2
    cf = closed_form("two_layer_scalar")
    inst = models.get("two_layer_scalar").instance(p)
    A, B = initial(p)
    explicit = cf.explicit()
    Sigma0, S0 = spec_stats(A, B, Z)
    by_name = {str(symbol): symbol for symbol in cf.sums}
    definitions = {
        by_name["theta[+1]"]: (Sigma0 + S0) / 2,
        by_name["theta[-1]"]: -(Sigma0 - S0) / 2,
        by_name["theta(0)"]: S0,
    }
    assert set(definitions) == set(cf.sums)
    states = {}
    for i in range(p):
        for n in ("a", "b"):
            states[inst.state[n][i]] = explicit[n].xreplace({cf.init["a"]: A[i], cf.init["b"]: B[i]})
    for s in (inst.state["a"][0], inst.state["b"][1]):
        residual = sp.diff(states[s], cf.t) - inst.vector_field[s].xreplace(states)
        proof = prove_zero(residual, substitutions=definitions)
        assert proof.holds and proof.exact, (s, proof)


def test_diagonal_closed_form_solves_the_explicit_flow_p2() -> None:
    """Each mode has its own clock gamma_i = H_i^2 with gamma_i' = lam_i [-(Sigma_i+S_i0) gamma_i^2 + 2 S_i gamma_i
    + (Sigma_i - S_i0)], Sigma_i = (A_i^2 + B_i^2)/2, S_i0 = A_i B_i (spec §2)."""
    p = 2
    cf = closed_form("diagonal_linear_network")
    ((gamma, _),) = cf.riccati.items()
    inst = models.get("diagonal_linear_network").instance(p)
    A, B = initial(p)
    Ss = [sp.Symbol(f"S_{i}", real=True) for i in (1, 2)]
    lams = [sp.Symbol(f"lam_{i}", positive=True) for i in (1, 2)]
    H = [sp.Function(f"H_{i}")(cf.t) for i in (1, 2)]
    states, clocks = {}, {}
    for i in range(p):
        rename = {cf.init["a"]: A[i], cf.init["b"]: B[i], S: Ss[i], lam: lams[i], gamma: H[i] ** 2}
        for n in ("a", "b"):
            states[inst.state[n][i]] = cf.in_initial_values()[n].xreplace(rename)
        Sigma, S0 = (A[i] ** 2 + B[i] ** 2) / 2, A[i] * B[i]
        g = H[i] ** 2
        clocks[sp.Derivative(H[i], cf.t)] = lams[i] * (-(Sigma + S0) * g**2 + 2 * Ss[i] * g + (Sigma - S0)) / (2 * H[i])
    positive_h = {h: sp.Symbol(f"h_{i}", positive=True) for i, h in enumerate(H)}
    for s in inst.variables:
        residual = (sp.diff(states[s], cf.t).subs(clocks) - inst.vector_field[s].xreplace(states)).xreplace(positive_h)
        proof = prove_zero(residual)
        assert proof.holds and proof.exact, (s, proof)
        assert sp.cancel(residual) == 0


def test_diagonal_explicit_closed_form_on_rational_data() -> None:
    cf = closed_form("diagonal_linear_network")
    inst = models.get("diagonal_linear_network").instance(2)
    explicit = cf.explicit()
    A, B = [R(1, 2), R(-3, 2)], [R(2), R(1, 3)]
    Sv, lv = [R(3, 2), R(-1)], [R(1), R(2, 3)]
    states, values = {}, {}
    for i in range(2):
        values.update({sp.Symbol(f"S_{i + 1}", real=True): Sv[i], sp.Symbol(f"lam_{i + 1}", positive=True): lv[i]})
        for n in ("a", "b"):
            states[inst.state[n][i]] = explicit[n].xreplace(
                {cf.init["a"]: A[i], cf.init["b"]: B[i], S: Sv[i], lam: lv[i]}
            )
    for s in inst.variables:
        residual = sp.diff(states[s], cf.t) - inst.vector_field[s].xreplace(states).xreplace(values)
        assert prove_zero(residual).holds, s


@pytest.mark.parametrize("p", [1, 2, 3])
def test_linear_model_closed_form_solves_eq7(p) -> None:
    cf = closed_form("linear_model")
    inst = models.get("linear_model").instance(p)
    explicit = cf.explicit()["theta"]
    theta0 = cf.init["theta"]
    states = {}
    for i in range(p):
        Si, li = sp.Symbol(f"S_{i + 1}", real=True), sp.Symbol(f"lam_{i + 1}", positive=True)
        th0 = sp.Symbol(f"Theta_{i + 1}", real=True)
        states[inst.state["theta"][i]] = explicit.xreplace({theta0: th0, S: Si, lam: li})
        # eq 10 typed in
        assert sp.expand(states[inst.state["theta"][i]] - (Si + (th0 - Si) * sp.exp(-li * cf.t))) == 0
    for s in inst.variables:
        residual = sp.diff(states[s], cf.t) - inst.vector_field[s].xreplace(states)
        assert prove_zero(residual).holds
        assert sp.expand(residual) == 0
