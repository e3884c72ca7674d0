"""Claims of Nam et al. 2025, "Position: Solve layerwise linear models first" (ICML; arXiv 2502.21009).

Spec: ``shared/spec/models-nam2025.md`` §1, §2, §5; the matrix networks of §3, §6, §7 are in
``nam2025_matrix``. Every claim is checked against the package's own
derivations: the flows are derived from the loss, the closed forms by the Riccati engine.
"""

from __future__ import annotations

import random

import mpmath
import numpy as np
import sympy as sp

from derivations import models
from derivations.hyperbolic import SYMBOLS as H
from derivations.riccati import riccati_solution
from proofs_check.checkers import all_of, closed_form_vs_ode, derivation_steps, erratum, identities
from proofs_check.claims import Citation, Claim, Outcome, register
from proofs_check.papers import nam2025_matrix
from proofs_check.z3_checks import inequality

PAPER = "nam2025"
LINEAR = models.get("linear_model")
DIAGONAL = models.get("diagonal_linear_network")
SCALAR = models.get("two_layer_scalar")
S, Z, t = SCALAR.symbol("S"), SCALAR.symbol("Z"), H.t
Sigma0, S0, D0, gp, gm, g = H.Sigma0, H.S0, H.D0, H.gamma_plus, H.gamma_minus, H.gamma
D0_RELATION = D0**2 - (S**2 + Sigma0**2 - S0**2)
ROOTS = {gp: (S + D0) / (Sigma0 + S0), gm: (S - D0) / (Sigma0 + S0)}
# Theorem 3's setting for the z3 proofs: D0 is the non-negative root (the symbol is nonnegative), the
# non-degenerate case Sigma0 + S0 > 0, and Sigma0 >= |S0| (proved per unit by SIGMA_BOUND).
APP_H = (sp.Eq(D0**2, S**2 + Sigma0**2 - S0**2), Sigma0 + S0 > 0, Sigma0 >= sp.Abs(S0))
_ua, _ub = SCALAR.symbol("a"), SCALAR.symbol("b")
SIGMA_BOUND = inequality(
    (_ua**2 + _ub**2) / (2 * Z) >= sp.Abs(_ua * _ub) / Z,
    what="per unit (a_i^2 + b_i^2)/(2Z) >= |a_i b_i|/Z; summed over the units, Sigma_0 >= |S_0|",
)


def _cite(section: str, equation: str = "") -> Citation:
    where = f"{section}, eq. ({equation})" if equation else section
    return Citation(PAPER, f"Nam et al. 2025, {where}", section, equation)


def claim(cid: str, section: str, equation: str, title: str, statement: object, check, assumptions=()) -> None:
    register(Claim(f"{PAPER}.{cid}", _cite(section, equation), statement, check, tuple(assumptions), title))


def appH_point(i: int) -> dict[sp.Symbol, mpmath.mpf]:
    """A random consistent point (weights → Σ0, S0, D0, γ±) for App. H claims (deterministic in i)."""
    rng = random.Random(1000 + i)
    p = rng.randint(1, 6)
    scale = 10 ** rng.uniform(-2, 1)
    a = [mpmath.mpf(rng.gauss(0, 1)) * scale for _ in range(p)]
    b = [mpmath.mpf(rng.gauss(0, 1)) * scale for _ in range(p)]
    z = mpmath.mpf(rng.uniform(0.2, 5))
    s = mpmath.mpf(rng.uniform(-3, 3))
    sigma = sum(x**2 + y**2 for x, y in zip(a, b, strict=True)) / (2 * z)
    s0 = sum(x * y for x, y in zip(a, b, strict=True)) / z
    d0 = mpmath.sqrt(s**2 + sigma**2 - s0**2)
    point = {S: s, Z: z, Sigma0: sigma, S0: s0, D0: d0, t: mpmath.mpf(rng.uniform(0, 5))}
    point[gp], point[gm] = (s + d0) / (sigma + s0), (s - d0) / (sigma + s0)
    return point


# ---------------------------------------------------------------- §1: models, flows, conservation
def _explicit_flow_residuals(model, printed) -> list[sp.Expr]:
    inst = model.instance(3)
    return [inst.vector_field[inst.state[n][i]] - printed(inst, n, i) for n in model.state_names for i in range(3)]


def _diag_printed(inst, n, i) -> sp.Expr:
    a, b, s, lam = (inst.sym[k][i] for k in ("a", "b", "S", "lam"))
    return (b if n == "a" else a) * lam * (s - a * b)


claim(
    "eq6",
    "§2",
    "6",
    "Diagonal network gradient flow ȧ_i = b_i λ_i (S_i − a_i b_i), ḃ_i = a_i λ_i (S_i − a_i b_i)",
    "a_i' = b_i lam_i (S_i - a_i b_i)",
    identities(_explicit_flow_residuals(DIAGONAL, _diag_printed)),
    ("E[x_i x_j] = lam_i delta_ij", "width 3 explicitly; the unit field is width-free"),
)


def _linear_printed(inst, n, i) -> sp.Expr:
    return inst.sym["lam"][i] * (inst.sym["S"][i] - inst.sym["theta"][i])


claim(
    "eq7",
    "§2",
    "7",
    "Linear model gradient flow θ̇_i = λ_i (S_i − θ_i)",
    "theta_i' = lam_i (S_i - theta_i)",
    identities(_explicit_flow_residuals(LINEAR, _linear_printed)),
)


def _decoupled_loss() -> sp.Expr:
    inst = DIAGONAL.instance(3)
    printed = (
        sum(inst.sym["lam"][i] * (inst.sym["S"][i] - inst.sym["a"][i] * inst.sym["b"][i]) ** 2 for i in range(3)) / 2
    )
    return inst.loss - printed


claim(
    "sec1.decoupling",
    "§1",
    "2",
    "With E[x_i x_j] = 0 (i ≠ j) the loss decouples: L = ½ Σ λ_i (S_i − a_i b_i)²",
    "L = 1/2 sum_i lam_i (S_i - a_i b_i)^2",
    identities([_decoupled_loss()]),
)

_diag3 = DIAGONAL.instance(3)
claim(
    "eq8",
    "§2",
    "8",
    "a_i² − b_i² is conserved by the diagonal network's flow",
    "d/dt (a_i^2 - b_i^2) = 0",
    identities([_diag3.time_derivative(_diag3.sym["a"][i] ** 2 - _diag3.sym["b"][i] ** 2) for i in range(3)]),
)

# ---------------------------------------------------------------- §2: exponential vs sigmoidal modes
_lin_cf = LINEAR.closed_form
_theta0, _lam, _S_i = LINEAR.init_symbol("theta"), LINEAR.symbol("lam"), LINEAR.symbol("S")
_theta_t = _lin_cf.explicit()["theta"]
claim(
    "eq10",
    "§2, App. C.1",
    "10",
    "Linear model: θ_i(t) = S_i + (θ_i(0) − S_i) e^{−λ_i t}; θ_i/S_i = 1 − e^{−λ_i t} from 0",
    sp.Eq(sp.Symbol("theta(t)"), _S_i + (_theta0 - _S_i) * sp.exp(-_lam * t)),
    identities(
        [
            _theta_t - (_S_i + (_theta0 - _S_i) * sp.exp(-_lam * t)),
            (_theta_t / _S_i).subs(_theta0, 0) - (1 - sp.exp(-_lam * t)),
        ]
    ),
)

_a0, _b0 = DIAGONAL.init_symbol("a"), DIAGONAL.init_symbol("b")
_Sp, _w0 = sp.Symbol("S_i", positive=True), sp.Symbol("w_0", positive=True)
_dlam = DIAGONAL.symbol("lam")
_diag_cf = DIAGONAL.closed_form
_diag_state = _diag_cf.explicit()
_balanced = {_b0: _a0}
_w_t = (_diag_state["a"] * _diag_state["b"]).xreplace(_balanced).subs(DIAGONAL.symbol("S"), _Sp)
_eq9 = _Sp / (1 + (_Sp / _a0**2 - 1) * sp.exp(-2 * _Sp * _dlam * t))
claim(
    "eq9",
    "§2, App. C.2",
    "9",
    "Balanced diagonal mode a_i(0) = b_i(0): a_i b_i / S_i = 1/(1 + (S_i/(a_i(0) b_i(0)) − 1) e^{−2 S_i λ_i t})",
    sp.Eq(sp.Symbol("a_i b_i / S_i"), _eq9 / _Sp),
    identities([_w_t - _eq9]),
    ("S_i > 0",),
)

_d2 = DIAGONAL
_a, _b, _dS = _d2.symbol("a"), _d2.symbol("b"), _d2.symbol("S")
claim(
    "sec2.balance_preserved",
    "App. C.2",
    "29–35",
    "a_i ≡ b_i is preserved: d/dt(a_i − b_i) = −λ_i (S_i − a_i b_i)(a_i − b_i)",
    "d/dt (a - b) = -lam (S - a b)(a - b)",
    identities([_d2.unit_time_derivative(_a - _b) + _dlam * (_dS - _a * _b) * (_a - _b)]),
)

_t_half = sp.log(_Sp / _w0 - 1) / (2 * _Sp * _dlam)
_logistic = _eq9.subs(_a0**2, _w0)
claim(
    "sec2.half_time",
    "§2",
    "9",
    "The balanced mode reaches S_i/2 at t½ = ln(S_i/w_i(0) − 1)/(2 S_i λ_i)",
    sp.Eq(sp.Symbol("t_1/2"), _t_half),
    identities([_logistic.subs(t, _t_half) - _Sp / 2]),
    ("0 < w_i(0) < S_i",),
)

claim(
    "sec2.general_unbalanced",
    "§2 (Saxe et al. 2014, App. A)",
    "",
    "General a_i ≠ b_i: the mode is Theorem 3 with p = 1, Z = 1, S = S_i and time λ_i t (full recorded derivation)",
    "a_i(t) = [(a_i+b_i)(0) sqrt(gamma_i) + (a_i-b_i)(0)/sqrt(gamma_i)]/2",
    derivation_steps(_diag_cf.derivation, ["6", "8", ""]),
)

_C, _s, _r = sp.symbols("C s r", real=True)
claim(
    "sec2.lambda_balanced_mode",
    "§2 (spec §2, §7)",
    "",
    "The product s_i = a_i b_i obeys ṡ = λ_i sqrt(C_i² + 4 s_i²)(S_i − s_i) with C_i = a_i² − b_i²",
    sp.Eq(sp.Symbol(r"\dot s"), _dlam * sp.sqrt(_C**2 + 4 * _s**2) * (_dS - _s)),
    identities(
        [
            (_a**2 + _b**2) ** 2 - ((_a**2 - _b**2) ** 2 + 4 * (_a * _b) ** 2),
            _d2.unit_time_derivative(_a * _b) - _dlam * (_a**2 + _b**2) * (_dS - _a * _b),
        ]
    ),
    ("sqrt(C^2 + 4 s^2) = a^2 + b^2 >= 0",),
)

# ---------------------------------------------------------------- §5 / App. H: Theorem 3
_scalar_cf = SCALAR.closed_form
_deriv = _scalar_cf.derivation
for tag, title in (
    ("77", "Gradient flow ȧ_i = Z⁻¹ b_i (S − θ), ḃ_i = Z⁻¹ a_i (S − θ), derived from the loss"),
    ("78", "u_i = a_i + b_i, v_i = a_i − b_i decouple; u_i v_i = a_i² − b_i² is conserved"),
    ("79–81", "One shared clock γ: u_i = u_i(0) γ^{1/2}, v_i = v_i(0) γ^{−1/2}"),
    ("72–73", "a_i(t), b_i(t) in terms of γ(t)"),
    ("82–85", "θ(t) = ½[(Σ0 + S0) γ − (Σ0 − S0) γ⁻¹]"),
    ("86–87", "Riccati equation γ̇ = Z⁻¹[−(Σ0+S0) γ² + 2 S γ + (Σ0 − S0)]"),
    ("88", "Discriminant 4(S² + Σ0² − S0²)/Z² ≥ 0 because Σ0 ± S0 are sums of squares"),
    ("89–90", "Factorization −(Σ0+S0)/Z (γ − γ₊)(γ − γ₋)"),
    ("91–93", "Partial fractions and (Σ0 + S0)(γ₊ − γ₋) = 2 D0"),
    ("94", "Integration of the log terms: ln|(γ−γ₊)/(γ−γ₋)| = −2D0 t/Z + ln|(1−γ₊)/(1−γ₋)|"),
    ("74", "Closed form γ(t) = [γ₊(1−γ₋) − γ₋(1−γ₊) e^{−2D0 t/Z}] / [(1−γ₋) − (1−γ₊) e^{−2D0 t/Z}]"),
    ("76", "Roots γ± = (S ± D0)/(Σ0 + S0)"),
    ("96", "Limit a_i(∞) b_i(∞) = (a_i+b_i)²(0) γ₊/4 − (a_i−b_i)²(0)/(4γ₊), θ(∞) = S"),
):
    claim(
        f"appH.eq{tag.replace('–', '-')}",
        "App. H",
        tag,
        title,
        _deriv.by_tag(tag)[-1].relation,
        derivation_steps(_deriv, [tag]),
        ("Z > 0", "Sigma_0 + S_0 > 0"),
    )

claim(
    "appH.eq76.product",
    "App. H",
    "76",
    "γ₊ γ₋ = −(Σ0 − S0)/(Σ0 + S0) ≤ 0",
    sp.Eq(gp * gm, -(Sigma0 - S0) / (Sigma0 + S0)),
    all_of(
        identities([gp * gm + (Sigma0 - S0) / (Sigma0 + S0)], relations=(D0_RELATION,), substitutions=ROOTS),
        SIGMA_BOUND,
        inequality(gp * gm <= 0, APP_H, ROOTS, what="gamma_+ gamma_- <= 0"),
    ),
)

_sc2 = SCALAR.instance(2)
_a1, _b1 = _sc2.sym["a"][0], _sc2.sym["b"][0]
claim(
    "appH.eq77.explicit",
    "App. H",
    "77",
    "The width-2 network's explicit flow equals the unit flow with θ = Z⁻¹ Σ a_j b_j",
    "a_1' = b_1 (S - theta)/Z",
    identities(
        [
            _sc2.vector_field[_a1] - _b1 * (S - _sc2.quantity("theta")) / Z,
            _sc2.vector_field[_b1] - _a1 * (S - _sc2.quantity("theta")) / Z,
        ]
    ),
)

_gamma_t = (gp * (1 - gm) - gm * (1 - gp) * sp.exp(-2 * D0 * t / Z)) / ((1 - gm) - (1 - gp) * sp.exp(-2 * D0 * t / Z))
claim(
    "appH.gamma0",
    "App. H, proof of Theorem 3",
    "74",
    "Initial value of the clock: the proof prints γ(0) = 0; the closed form and the definition give γ(0) = 1",
    sp.Eq(sp.Function("gamma")(0), 1),
    erratum(
        identities([_gamma_t.subs(t, 0) - 0], substitutions=ROOTS, relations=(D0_RELATION,), sampler=appH_point),
        identities([_gamma_t.subs(t, 0) - 1]),
        "gamma(0) = 0",
        "gamma(0) = 1 (gamma = exp(2/Z int_0^t (S - theta)) is 1 at t = 0)",
    ),
)

_gdot0 = (-(Sigma0 + S0) + 2 * S + (Sigma0 - S0)) / Z
claim(
    "appH.monotone",
    "App. H, Theorem 3",
    "74",
    "γ is monotone from 1 to γ₊, increasing iff S > S0 iff γ₊ > 1",
    sp.Equivalent(gp > 1, S > S0),
    all_of(
        identities(
            [_gdot0 - 2 * (S - S0) / Z, D0**2 - (Sigma0 + S0 - S) ** 2 - 2 * (S - S0) * (Sigma0 + S0)],
            relations=(D0_RELATION,),
        ),
        SIGMA_BOUND,
        inequality(sp.Equivalent(gp > 1, S > S0), APP_H, ROOTS, what="gamma_+ > 1 <=> S > S_0"),
    ),
    ("gamma never crosses a root (uniqueness), so gamma' keeps the sign of gamma'(0) = 2 (S - S_0)/Z",),
)

_gddot = -(Sigma0 + S0) / Z * (2 * g - gp - gm)
_rhs = -(Sigma0 + S0) / Z * (g - gp) * (g - gm)
claim(
    "remark4.center",
    "App. H, Remark 4",
    "",
    "Inflection at height (γ₊ + γ₋)/2 = S/(Σ0 + S0), from γ̈ = −(Σ0+S0)/Z (2γ − γ₊ − γ₋) γ̇",
    sp.Eq((gp + gm) / 2, S / (Sigma0 + S0)),
    identities(
        [(gp + gm) / 2 - S / (Sigma0 + S0), sp.diff(_rhs, g) - _gddot],
        substitutions=ROOTS,
        relations=(D0_RELATION,),
    ),
)

claim(
    "remark4.delta0",
    "App. H, Remark 4",
    "",
    "The printed centre S/(Δ0 + Σ0) holds only with Δ0 ≡ S0 (read as D0 it is refuted)",
    sp.Eq((gp + gm) / 2, S / (S0 + Sigma0)),
    erratum(
        identities(
            [(gp + gm) / 2 - S / (D0 + Sigma0)],
            substitutions=ROOTS,
            relations=(D0_RELATION,),
            sampler=appH_point,
        ),
        identities([(gp + gm) / 2 - S / (S0 + Sigma0)], substitutions=ROOTS, relations=(D0_RELATION,)),
        "centre S/(Delta_0 + Sigma_0), concave iff S < Delta_0 + Sigma_0 (Delta_0 undefined; read as D_0)",
        "centre S/(S_0 + Sigma_0), concave on t >= 0 iff S <= Sigma_0 + S_0",
    ),
)


_gamma_ddot0 = _gddot.subs(g, 1) * _gdot0  # gamma''(0), with gamma(0) = 1


claim(
    "remark4.concavity",
    "App. H, Remark 4",
    "",
    "For S > S0, γ is concave on t ≥ 0 iff S ≤ Σ0 + S0 (otherwise it has an inflection point)",
    "gamma concave on [0, oo) <=> S <= Sigma_0 + S_0",
    all_of(
        identities([_gddot.subs(g, 1) - (-2 * (Sigma0 + S0 - S) / Z)], substitutions=ROOTS, relations=(D0_RELATION,)),
        SIGMA_BOUND,
        inequality(
            sp.Implies(S > S0, sp.Equivalent(_gamma_ddot0 <= 0, Sigma0 + S0 >= S)),
            APP_H,
            ROOTS,
            what="S > S_0 => (gamma''(0) <= 0 <=> S <= Sigma_0 + S_0)",
        ),
    ),
    ("gamma''(0) = -2 (Sigma_0 + S_0 - S) gamma'(0) / Z; gamma'' changes sign at most once (at the centre)",),
)


_kappa = (1 - gp) / (1 - gm)


claim(
    "remark4.decreasing",
    "App. H, Remark 4",
    "",
    "For S < S0, κ = (1−γ₊)/(1−γ₋) ∈ (0, 1): γ is a convex, decreasing dilated (1 − e^{−t})⁻¹",
    sp.Implies(S < S0, sp.And(_kappa > 0, _kappa < 1)),
    all_of(
        SIGMA_BOUND,
        inequality(sp.Implies(S < S0, sp.And(_kappa > 0, _kappa < 1)), (*APP_H, D0 > 0), ROOTS, what="0 < kappa < 1"),
    ),
    (
        "D_0 > 0: distinct roots, as the kappa-form of eq. (74) needs; at D_0 = 0 (S = 0, Sigma_0 = S_0) "
        "gamma_+ = gamma_- and kappa = 1 (z3 counterexample without this assumption)",
    ),
)

_Sig_pos = sp.Symbol("Sigma_0", positive=True)
_REMARK5 = sp.And(
    sp.Implies(S > 0, sp.And(gp >= 2 * S / (Sigma0 + S0), 2 * S / (Sigma0 + S0) >= S / Sigma0)),
    sp.Implies(sp.And(S > 0, S0 >= 0), gp <= 1 + 2 * S / Sigma0),
)
claim(
    "remark5.bounds",
    "App. H, Remark 5",
    "",
    "γ₊ ≥ 2S/(Σ0 + S0) ≥ S/Σ0 (S > 0), and γ₊ ≤ 1 + 2S/Σ0 if S0 ≥ 0",
    _REMARK5,
    all_of(
        SIGMA_BOUND,
        inequality(_REMARK5, APP_H, ROOTS, what="Remark 5 bounds"),
    ),
    ("Sigma_0 + S_0 > 0; Sigma_0 >= |S_0| follows from a^2 + b^2 >= 2|ab| per unit",),
)

claim(
    "remark5.symmetric",
    "App. H, Remark 5",
    "",
    "If S0 = 0, γ₊ = exp(arsinh(S/Σ0))",
    sp.Eq(gp, sp.exp(sp.asinh(S / _Sig_pos))),
    identities([((S + sp.sqrt(S**2 + _Sig_pos**2)) / _Sig_pos) - sp.exp(sp.asinh(S / _Sig_pos).rewrite(sp.log))]),
)

# hidden λ-balanced structure and aligned modes
_Sigma_t = ((Sigma0 + S0) * g + (Sigma0 - S0) / g) / 2
_theta_g = ((Sigma0 + S0) * g - (Sigma0 - S0) / g) / 2
_gamma_dot = (-(Sigma0 + S0) * g**2 + 2 * S * g + (Sigma0 - S0)) / Z
claim(
    "sec7.hidden_lambda_balanced",
    "§7 (spec §5, derived)",
    "",
    "Σ(t)² − θ(t)² = Σ0² − S0², and θ̇ = Z⁻¹ sqrt(λ_eff² + 4θ²)(S − θ) with λ_eff = 2 sqrt(Σ0² − S0²)",
    "theta' = sqrt(lam_eff^2 + 4 theta^2)(S - theta)/Z",
    identities(
        [
            _Sigma_t**2 - _theta_g**2 - (Sigma0**2 - S0**2),
            sp.diff(_theta_g, g) * _gamma_dot - 2 * _Sigma_t * (S - _theta_g) / Z,
            (2 * _Sigma_t) ** 2 - (4 * (Sigma0**2 - S0**2) + 4 * _theta_g**2),
        ]
    ),
    ("Sigma(t) >= 0, so sqrt(lam_eff^2 + 4 theta^2) = 2 Sigma(t)",),
)

_sa, _sb, _sth = SCALAR.symbol("a"), SCALAR.symbol("b"), SCALAR.symbol("theta")
_sign = sp.Symbol("sigma")
claim(
    "eq16-17",
    "§7",
    "16–17",
    "±1 init (a_i = σ_i b_i): d(a_i b_i)/dt = 2σ_i a_i b_i (S − θ)/Z, giving θ̇ = 2Δθ(S−θ)/Z and Δθ̇ = 2θ(S−θ)/Z",
    "theta' = 2 Delta theta (S - theta)/Z",
    identities(
        [(SCALAR.unit_time_derivative(_sa * _sb) - 2 * _sign * _sa * _sb * (S - _sth) / Z).subs(_sa, _sign * _sb)],
        relations=(_sign**2 - 1,),
    ),
    ("a_i(0), b_i(0) in {+1, -1}, so a_i = sigma_i b_i for all t",),
)

_ntk = SCALAR.instance(3).ntk()
_x, _xp = sp.Symbol("x_1", real=True), sp.Symbol("x_1'", real=True)
_i3 = SCALAR.instance(3)
claim(
    "sec6.ntk_scalar",
    "§6 (spec §6 table)",
    "",
    "NTK of the scalar network: K = Z⁻² Σ(a_i² + b_i²) x x' = (2Σ/Z) x x'",
    "K(x, x') = Z^-2 sum (a_i^2 + b_i^2) x x'",
    identities([_ntk - sum(_i3.sym["a"][i] ** 2 + _i3.sym["b"][i] ** 2 for i in range(3)) * _x * _xp / Z**2]),
)


# ---------------------------------------------------------------- degenerate cases and limits (spec §5)
_P, _M = H.P0, H.M0


def _saddle() -> Outcome:
    """Sigma0 + S0 = 0: the engine takes the linear branch, theta = -M0/(2 gamma) <= 0 and Sigma = M0/(2 gamma)
    (eq 82–85 with P0 = 0); theta then obeys the output equation theta' = 2 Sigma (S - theta)/Z."""
    sol = riccati_solution(0, 2 * S / Z, _M / Z, 1, t)
    if sol.branch != "linear":
        return Outcome.refuted("Riccati branch", {"branch": sol.branch})
    theta_t, sigma_t = -_M / (2 * sol.solution), _M / (2 * sol.solution)
    return identities([sp.diff(theta_t, t) - 2 * sigma_t * (S - theta_t) / Z])()


claim(
    "appH.degenerate.saddle",
    "App. H (spec §5)",
    "",
    "Σ0 + S0 = 0 (all a_i(0) = −b_i(0)): the Riccati equation is linear; θ(t) = −(Σ0 − S0)/(2γ) ≤ 0 "
    "never reaches S > 0",
    sp.Eq(sp.Function("theta")(t), -(Sigma0 - S0) / (2 * g)),
    _saddle,
    ("gamma > 0",),
)

claim(
    "appH.degenerate.fixed_point",
    "App. H (spec §5)",
    "",
    "S = S0: γ ≡ 1 is a fixed point (the weights do not move)",
    sp.Eq(g, 1),
    identities([(-(Sigma0 + S0) + 2 * S + (Sigma0 - S0)).subs(S, S0)]),
)

_eps = sp.Symbol("epsilon", positive=True)
_Sig, _Spos = sp.Symbol("Sigma_0", positive=True), sp.Symbol("S", positive=True)
_gp_sym0 = (_Spos + sp.sqrt(_Spos**2 + _Sig**2)) / _Sig


def _limits() -> Outcome:
    lazy = sp.limit(_gp_sym0, _Sig, sp.oo)
    rich = sp.limit((_gp_sym0 * _Sig / (2 * _Spos)).subs(_Sig, _eps * _Sig), _eps, 0)
    if lazy != 1 or sp.simplify(rich - 1) != 0:
        return Outcome.refuted("sympy.limit", {"lazy limit": lazy, "rich limit": rich})
    detail = "gamma_+ -> 1 as Sigma_0/S -> oo; gamma_+ (Sigma_0+S_0)/(2S) -> 1 as Sigma_0 -> 0"
    return Outcome.proved("sympy.limit", detail)


claim(
    "sec7.limits",
    "§7 and App. H (spec §5 limits table)",
    "",
    "Lazy: γ₊ → 1 as Σ0/S → ∞; rich: γ₊ ≈ 2S/(Σ0 + S0) → ∞ as Σ0/S → 0 (symmetric init S0 = 0)",
    sp.Eq(sp.Limit(gp, Sigma0, sp.oo), 1),
    _limits,
    ("S_0 = 0", "S > 0"),
)


# ---------------------------------------------------------------- numeric cross-check of Theorem 3
_rng = np.random.default_rng(7)
_THEOREM3_CASES = [
    ({"S": target, "Z": 1.3}, {"a": _rng.normal(size=p) * 0.5, "b": _rng.normal(size=p) * 0.5})
    for p, target in ((3, 2.0), (2, -0.05))
]


claim(
    "appH.theorem3.numeric",
    "App. H, Theorem 3",
    "72–74",
    "The closed form agrees with 30-digit integration of the derived flow (S above and below S0)",
    "|x_closed - x_ode| / |x| <= 1e-25",
    closed_form_vs_ode("two_layer_scalar", _THEOREM3_CASES, [0.0, 0.7, 2.5]),
)

for _claim in nam2025_matrix.claims():
    register(_claim)

__all__ = ["appH_point"]
