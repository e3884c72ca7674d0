"""Claims of Xu & Ziyin 2025, "Three mechanisms of feature learning in a linear network" (ICLR; arXiv 2401.07085).

Spec: ``shared/spec/models-xu-ziyin2025.md``. The paper's body text is not available to us: every formula was
reconstructed in the spec, so citations name the spec section, and the paper's equation numbers are quoted
only where a secondary summary gives them ("per a secondary summary"). The flows are derived from the loss;
the closed form of ``layerwise_lr_linear`` is pulled back from ``two_layer_scalar`` through a verified map.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from derivations import models
from derivations.models.layerwise_lr_linear import phi_riccati, to_two_layer_scalar
from derivations.models.layerwise_lr_matrix import layerwise_lr_matrix
from derivations.models.uv_model import to_layerwise_lr_linear
from numerics import trajectory
from proofs_check.checkers import all_of, closed_form_vs_ode, derivation_steps, identities
from proofs_check.claims import Citation, Claim, Outcome, register
from proofs_check.papers import xu_ziyin2025_phase, xu_ziyin2025_power

PAPER = "xu_ziyin2025"
LW = models.get("layerwise_lr_linear")
UV = models.get("uv_model")
u, w, uw = LW.symbol("u"), LW.symbol("w"), LW.symbol("uw")
gamma, eta_u, eta_w, a, b = (LW.symbol(n) for n in ("gamma", "eta_u", "eta_w", "a", "b"))
E = gamma * a * uw - b
g = gamma * sp.sqrt(eta_u * eta_w) * E
p = sp.sqrt(eta_w) * u + sp.sqrt(eta_u) * w
q = sp.sqrt(eta_w) * u - sp.sqrt(eta_u) * w
P, Q, S_pq = sp.symbols("P Q S_pq", positive=True)
phi, theta, B = sp.symbols("varphi theta B", positive=True)
R = sp.sqrt(P * Q)


def _cite(section: str, equation: str = "") -> Citation:
    where = f"spec {section}" + (f"; paper eq. ({equation}) per a secondary summary" if equation else "")
    return Citation(PAPER, f"Xu & Ziyin 2025 ({where}; reconstructed)", section, equation)


def claim(cid: str, section: str, equation: str, title: str, statement: object, check, assumptions=()) -> None:
    register(Claim(f"{PAPER}.{cid}", _cite(section, equation), statement, check, tuple(assumptions), title))


# ---------------------------------------------------------------- §1: flow and the rank-1 effect
claim(
    "sec1.flow",
    "§1",
    "",
    "Gradient flow with layer-wise learning rates: u̇ = −η_u γ E w, ẇ = −η_w γ E u, E = γ a uᵀw − b",
    sp.Eq(sp.Symbol(r"\dot u_i"), -eta_u * gamma * E * w),
    identities([LW.unit_field[u] + eta_u * gamma * E * w, LW.unit_field[w] + eta_w * gamma * E * u]),
    ("loss 1/2 E[(f - y)^2], a = E xi^2, b = E xi y",),
)

_MAT = layerwise_lr_matrix(3)
_rows = [_MAT.symbol(f"W_{k}") for k in (1, 2, 3)]
_dirs = [_MAT.symbol(f"n_{k}") for k in (1, 2, 3)]
claim(
    "prop1.rank_one",
    "§1 (Proposition 1)",
    "",
    "Rank-1 effect: every row's velocity is parallel to nᵀ, so W(t) − W(0) = (w(t) − w(0)) nᵀ",
    "dW_ik/dt n_l - dW_il/dt n_k = 0",
    identities(
        [
            _MAT.unit_field[_rows[k]] * _dirs[m] - _MAT.unit_field[_rows[m]] * _dirs[k]
            for k in range(3)
            for m in range(k + 1, 3)
        ]
    ),
    ("x = xi n, d0 = 3",),
)


def _rank_one_numeric() -> Outcome:
    rng = np.random.default_rng(11)
    d = 5
    init = {"u": rng.normal(size=d), **{f"W_{k}": rng.normal(size=d) for k in (1, 2, 3)}}
    direction = rng.normal(size=3)
    direction /= np.linalg.norm(direction)
    params = {
        "gamma": 0.8,
        "eta_u": 1.5,
        "eta_w": 0.5,
        "a": 1.0,
        "b": 3.0,
        **{f"n_{k}": direction[k - 1] for k in (1, 2, 3)},
    }
    worst = 0.0
    for method, extra in (("gd", {"lr": 1e-3}), ("scipy", {})):
        r = trajectory(_MAT, [0.0, 2.0], params, init, method=method, **extra)
        W = [np.stack([r[f"W_{k}"][i] for k in (1, 2, 3)], axis=1) for i in (0, 1)]
        sigma = np.linalg.svd(W[1] - W[0], compute_uv=False)
        worst = max(worst, sigma[1] / np.linalg.norm(W[0]))
    if worst > 1e-12:
        return Outcome.refuted("GD and DOP853 on the full matrix", {"sigma_2 / |W(0)|": f"{worst:.3g}"})
    return Outcome.numeric(
        "GD (lr 1e-3) and DOP853 on the full 5x3 matrix", f"sigma_2(W(t)-W(0)) / |W(0)| <= {worst:.2g}"
    )


claim(
    "prop1.rank_one.numeric",
    "§1 (Proposition 1)",
    "",
    "W(t) − W(0) stays rank one under GD and GF on the full matrix",
    "sigma_2(W(t) - W(0)) = 0",
    _rank_one_numeric,
)

# ---------------------------------------------------------------- §2.1: p, q, conserved quantities
claim(
    "sec2.decoupling",
    "§2.1",
    "",
    "p_i = √η_w u_i + √η_u w_i and q_i = √η_w u_i − √η_u w_i obey ṗ = −g p, q̇ = g q",
    sp.Eq(sp.Symbol(r"\dot p_i"), -sp.Symbol("g") * sp.Symbol("p_i")),
    identities([LW.unit_time_derivative(p) + g * p, LW.unit_time_derivative(q) - g * q]),
    ("g = gamma sqrt(eta_u eta_w) (gamma a u.w - b)",),
)
claim(
    "sec2.conserved",
    "§2.1",
    "",
    "Per-neuron conserved p_i q_i = η_w u_i² − η_u w_i²",
    sp.Eq(sp.Derivative(eta_w * u**2 - eta_u * w**2, sp.Symbol("t")), 0),
    identities(
        [sp.expand(p * q) - (eta_w * u**2 - eta_u * w**2), LW.unit_time_derivative(eta_w * u**2 - eta_u * w**2)]
    ),
)
claim(
    "sec2.identities",
    "§2.1",
    "",
    "u_i w_i = (p_i² − q_i²)/(4√(η_u η_w)), η_w u_i² + η_u w_i² = (p_i² + q_i²)/2",
    sp.Eq(u * w, (sp.Symbol("p_i") ** 2 - sp.Symbol("q_i") ** 2) / (4 * sp.sqrt(eta_u * eta_w))),
    identities([u * w - (p**2 - q**2) / (4 * sp.sqrt(eta_u * eta_w)), eta_w * u**2 + eta_u * w**2 - (p**2 + q**2) / 2]),
)
_Pt, _Qt, _gs = sp.symbols("P_t Q_t g", positive=True)
claim(
    "sec2.PQ",
    "§2.1",
    "",
    "(Σ p_i²)(Σ q_i²) = PQ for all t: the flow is one-dimensional",
    sp.Eq(sp.Symbol("P_t") * sp.Symbol("Q_t"), P * Q),
    identities([(-2 * _gs * _Pt) * _Qt + _Pt * (2 * _gs * _Qt)]),
    ("d/dt sum p^2 = -2 g sum p^2, d/dt sum q^2 = 2 g sum q^2",),
)

# ---------------------------------------------------------------- §2.2: the one-dimensional Riccati equation
_v_phi = R * (phi - 1 / phi) / (4 * sp.sqrt(eta_u * eta_w))
_phi_dot = -2 * g.subs(uw, _v_phi) * phi
_printed_rhs = -(gamma**2) * a * R / 2 * (phi**2 - 1) + 2 * gamma * b * sp.sqrt(eta_u * eta_w) * phi
_B = 2 * b * sp.sqrt(eta_u * eta_w) / (gamma * a * R)
_phi_ricc = phi_riccati()
claim(
    "sec2.riccati",
    "§2.2",
    "",
    "φ = Σp²/√(PQ) obeys φ̇ = −(γ² a √(PQ)/2)(φ² − 1) + 2γ b √(η_u η_w) φ",
    sp.Eq(sp.Derivative(sp.Function("varphi")(sp.Symbol("t")), sp.Symbol("t")), _printed_rhs),
    identities([_phi_dot - _printed_rhs]),
    ("v = sqrt(PQ)(phi - 1/phi)/(4 sqrt(eta_u eta_w))",),
)
_alpha_p, _alpha_m = _B + sp.sqrt(_B**2 + 1), _B - sp.sqrt(_B**2 + 1)
_lam = gamma * sp.sqrt(4 * b**2 * eta_u * eta_w + gamma**2 * a**2 * P * Q)
claim(
    "sec2.roots",
    "§2.2",
    "",
    "Roots α± = B ± √(B² + 1), α₊α₋ = −1, α₊ = e^{asinh B}, rate λ = γ²a√(PQ)√(1 + B²)",
    sp.Eq(sp.Symbol("alpha_pm"), B + sp.sqrt(B**2 + 1)),
    all_of(
        identities(
            [
                _printed_rhs.subs(phi, _alpha_p),
                _printed_rhs.subs(phi, _alpha_m),
                _alpha_p * _alpha_m + 1,
                _lam**2 - (gamma**2 * a * R) ** 2 * (1 + _B**2),
                _lam**2 - (_phi_ricc.c1**2 - 4 * _phi_ricc.c2 * _phi_ricc.c0),
            ]
        ),
        identities([sp.exp(sp.asinh(B).rewrite(sp.log)) - (B + sp.sqrt(B**2 + 1))]),
    ),
)
claim(
    "sec2.closed_form",
    "§2.2 (Theorem 1)",
    "",
    "φ(t) = (α₊ − α₋ C e^{−λt})/(1 − C e^{−λt}), derived by the Riccati engine",
    sp.Eq(sp.Function("varphi")(sp.Symbol("t")), _phi_ricc.solution),
    derivation_steps(_phi_ricc.derivation, [""]),
)


def _tanh_form_residuals() -> tuple[list[sp.Expr], tuple[sp.Expr, ...]]:
    """Residuals and relations: with E = e^{-lam t}, s = sqrt(1 + B^2), r = (phi0 - B)/s, tanh(lam t/2) =
    (1 - E)/(1 + E), tanh(artanh r) = r (|r| < 1) or coth(acoth r) = r (|r| > 1), and both addition formulas give
    B + s (T + r)/(1 + T r), T = tanh(lam t/2), which is the closed form (alpha_+ - alpha_- C E)/(1 - C E),
    alpha_pm = B +- s (claims sec2.roots and sec2.closed_form)."""
    phi0, lam, t, E, s, x, y, r = sp.symbols("varphi_0 lambda t E s x y r", real=True)
    alpha_p, alpha_m = B + s, B - s
    C = (phi0 - alpha_p) / (phi0 - alpha_m)
    T, ratio = (1 - E) / (1 + E), (phi0 - B) / s
    tx, cx = sp.Symbol("T_x"), sp.Symbol("C_x")
    return [
        (alpha_p - alpha_m * C * E) / (1 - C * E) - (B + s * (T + ratio) / (1 + T * ratio)),
        (sp.tanh(lam * t / 2) - (1 - sp.exp(-lam * t)) / (1 + sp.exp(-lam * t))).rewrite(sp.exp),
        (sp.tanh(x + y) - (sp.tanh(x) + sp.tanh(y)) / (1 + sp.tanh(x) * sp.tanh(y))).rewrite(sp.exp),
        (sp.coth(x + y) - (1 + sp.coth(x) * sp.coth(y)) / (sp.coth(x) + sp.coth(y))).rewrite(sp.exp),
        (1 + r * cx) / (cx + r) - (tx + r) / (1 + r * tx),
        sp.tanh(sp.atanh(r)) - r,
        sp.coth(sp.acoth(r)) - r,
    ], (s**2 - (1 + B**2), tx * cx - 1)


claim(
    "sec2.tanh_form",
    "§2.2",
    "",
    "Equivalently φ = B + √(1+B²) tanh(λt/2 + artanh((φ₀ − B)/√(1+B²))) (coth above α₊)",
    "phi = B + sqrt(1+B^2) tanh(lam t/2 + artanh((phi0 - B)/sqrt(1+B^2)))",
    identities(*_tanh_form_residuals()),
)

# ---------------------------------------------------------------- §2.3–2.4: weights, output, NTK, alignment
G, u0, w0 = sp.symbols("G u_0 w_0", real=True)
rho = sp.exp(-G)
p0, q0 = p.subs({u: u0, w: w0}), q.subs({u: u0, w: w0})
claim(
    "sec2.boost",
    "§2.3",
    "",
    "Every neuron undergoes the same hyperbolic rotation (Lorentz boost) of rapidity G",
    sp.Eq(sp.Function("u_i")(sp.Symbol("t")), u0 * sp.cosh(G) - sp.sqrt(eta_u / eta_w) * w0 * sp.sinh(G)),
    identities(
        [
            (p0 * rho + q0 / rho) / (2 * sp.sqrt(eta_w))
            - (u0 * sp.cosh(G) - sp.sqrt(eta_u / eta_w) * w0 * sp.sinh(G)).rewrite(sp.exp),
            (p0 * rho - q0 / rho) / (2 * sp.sqrt(eta_u))
            - (w0 * sp.cosh(G) - sp.sqrt(eta_w / eta_u) * u0 * sp.sinh(G)).rewrite(sp.exp),
        ]
    ),
)
_sum_pp, _sum_qq = R * sp.exp(theta), R * sp.exp(-theta)
_eta_u_norm = (_sum_pp + _sum_qq + 2 * S_pq) / 4
_eta_w_norm = (_sum_pp + _sum_qq - 2 * S_pq) / 4
claim(
    "sec2.norms",
    "§2.4",
    "",
    "η_w|u|² = (√(PQ) cosh θ + S)/2 and η_u|w|² = (√(PQ) cosh θ − S)/2",
    sp.Eq(sp.Symbol(r"\eta_w |u|^2"), (R * sp.cosh(theta) + S_pq) / 2),
    identities(
        [
            _eta_u_norm - ((R * sp.cosh(theta) + S_pq) / 2).rewrite(sp.exp),
            _eta_w_norm - ((R * sp.cosh(theta) - S_pq) / 2).rewrite(sp.exp),
        ]
    ),
    ("sum p^2 = sqrt(PQ) e^theta, sum q^2 = sqrt(PQ) e^-theta, sum p q = S conserved",),
)
_xi, _xip = sp.symbols("xi xi'", real=True)
_inst = LW.instance(3)
_f = _inst.network.subs(_inst.inputs[0], _xi)
_weighted_ntk = sum(
    _inst.sym["eta_u"] * sp.diff(_f, s) * sp.diff(_f, s).subs(_xi, _xip) for s in _inst.state["u"]
) + sum(_inst.sym["eta_w"] * sp.diff(_f, s) * sp.diff(_f, s).subs(_xi, _xip) for s in _inst.state["w"])
claim(
    "sec2.ntk",
    "§2.4",
    "13",
    "Learning-rate weighted NTK K = γ² ξξ' (η_u|w|² + η_w|u|²) = γ² ξξ' √(PQ) cosh θ; and ḟ = −K (a f − b)",
    sp.Eq(sp.Symbol("K_t"), gamma**2 * _xi * _xip * R * sp.cosh(theta)),
    identities(
        [
            _weighted_ntk
            - gamma**2 * _xi * _xip * sum(_inst.sym["eta_u"] * x**2 for x in _inst.state["w"])
            - gamma**2 * _xi * _xip * sum(_inst.sym["eta_w"] * x**2 for x in _inst.state["u"]),
            _eta_u_norm + _eta_w_norm - (R * sp.cosh(theta)).rewrite(sp.exp),
            gamma * LW.unit_time_derivative(u * w) + gamma**2 * (eta_u * w**2 + eta_w * u**2) * E,
        ]
    ),
    ("f(t; xi) = gamma u.w xi; the per-unit identity sums to the function-space dynamics",),
)
_tanh = (_sum_pp - _sum_qq) / (_sum_pp + _sum_qq)
claim(
    "sec2.alignment_weighted",
    "§2.4",
    "14",
    "Weighted alignment 2√(η_uη_w) uᵀw/(η_w|u|² + η_u|w|²) = tanh θ → (α₊² − 1)/(α₊² + 1) = B/√(1 + B²)",
    sp.Eq(sp.Symbol("zeta_eta"), sp.tanh(theta)),
    identities(
        [
            2
            * sp.sqrt(eta_u * eta_w)
            * ((_sum_pp - _sum_qq) / (4 * sp.sqrt(eta_u * eta_w)))
            / (_eta_u_norm + _eta_w_norm)
            - _tanh,
            _tanh - sp.tanh(theta).rewrite(sp.exp),
            ((_alpha_p**2 - 1) / (_alpha_p**2 + 1)) - _B / sp.sqrt(1 + _B**2),
        ]
    ),
)
_cos = ((_sum_pp - _sum_qq) / 4) / sp.sqrt(_eta_u_norm * _eta_w_norm)
_cos_spec = sp.sinh(theta) / sp.sqrt(sp.cosh(theta) ** 2 - S_pq**2 / (P * Q))
claim(
    "sec2.alignment_cosine",
    "§2.4 and §8",
    "14",
    "The paper's ζ is the plain cosine: cos∠(u, w) = sinh θ/√(cosh²θ − S²/(PQ)); it equals tanh θ iff S = 0",
    sp.Eq(sp.Symbol("zeta"), _cos_spec),
    all_of(
        identities([(_cos**2 - _cos_spec**2).rewrite(sp.exp), (_cos - _tanh).subs(S_pq, 0)]),
        lambda: (
            Outcome.proved("sympy.limit", "cos -> tanh theta as S^2/(PQ) -> 0 (infinite width)")
            if sp.simplify(sp.limit(_cos_spec.subs(S_pq, sp.Symbol("s") * R), sp.Symbol("s"), 0) - sp.tanh(theta)) == 0
            else Outcome.refuted("sympy.limit", {})
        ),
    ),
    ("cos and sinh theta have the same sign", "S = sum p_i(0) q_i(0) = eta_w|u0|^2 - eta_u|w0|^2"),
)


def _cosine_differs() -> Outcome:
    values = {theta: sp.Rational(1, 2), S_pq: sp.Rational(1, 3), P: 1, Q: 1}
    diff = sp.N((_cos - _tanh).subs(values), 30)
    if diff == 0:
        return Outcome.refuted("evaluation", {"difference": "0"})
    return Outcome.proved("exact evaluation at theta=1/2, S=1/3, P=Q=1", f"cos - tanh = {sp.N(diff, 6)} != 0")


claim(
    "sec2.alignment_differs",
    "§8",
    "",
    "For S ≠ 0 the cosine and tanh θ differ (S = 0, η-balance, is needed)",
    "S != 0 => cos(u, w) != tanh theta (some t)",
    _cosine_differs,
)

# ---------------------------------------------------------------- fixed point, equivalences, abc-symmetry
_map_lw = to_two_layer_scalar(LW)
claim(
    "equiv.two_layer_scalar",
    "§2 (derived)",
    "",
    "layerwise_lr_linear ↔ two_layer_scalar: a = √η_w u, b = √η_u w, S = √(η_uη_w) b/(γ a), Z = 1, time γ² a t "
    "(η_u = η_w is the special case of equal rates); push-forward verified",
    "D phi F_lw = gamma^2 a F_scalar(phi)",
    derivation_steps(_map_lw.derivation(), [""]),
)
_map_uv = to_layerwise_lr_linear(UV)
claim(
    "equiv.uv_model",
    "§8 (answer to reviewers)",
    "",
    "uv model (Lewkowycz et al. 2020, f = vᵀu x/√n) ↔ layerwise_lr_linear with γ = n^{-1/2}, η_u = η_w = 1",
    "D phi F_uv = F_lw(phi)",
    derivation_steps(_map_uv.derivation(), [""]),
)
claim(
    "sec1.fixed_point",
    "§1",
    "",
    "The stable fixed point is the OLS solution γ uᵀw = b/a",
    sp.Eq(gamma * sp.Symbol("v^*"), b / a),
    identities([gamma * _map_lw.params["S"] / sp.sqrt(eta_u * eta_w) - b / a]),
    ("theta(oo) = S in two_layer_scalar, and theta = sqrt(eta_u eta_w) u.w",),
)

_C = sp.Symbol("C", positive=True)
_abc = {u: _C * u, w: _C * w, gamma: gamma / _C**2, eta_u: _C**2 * eta_u, eta_w: _C**2 * eta_w, uw: _C**2 * uw}
_lw_state = LW.closed_form.state
_u0s, _w0s = LW.init_symbol("u"), LW.init_symbol("w")
_abc_init = {_u0s: _C * _u0s, _w0s: _C * _w0s, gamma: gamma / _C**2, eta_u: _C**2 * eta_u, eta_w: _C**2 * eta_w}
_clock = next(iter(LW.closed_form.riccati.values()))
_sums = LW.closed_form.sums
claim(
    "sec4.abc_symmetry",
    "§4.5",
    "",
    "u → Cu, w → Cw, γ → γ/C², η → C²η: the flow is equivariant, the clock's Riccati coefficients and the "
    "sums P0 = P/2, M0 = Q/2 scale by C⁴, so that u(t) → C u(t); f, K, ζ are invariant",
    "F(Cu, Cw; gamma/C^2, C^2 eta) = C F(u, w; gamma, eta)",
    identities(
        [
            LW.unit_field[u].xreplace(_abc) - _C * LW.unit_field[u],
            LW.unit_field[w].xreplace(_abc) - _C * LW.unit_field[w],
            *[
                sp.sympify(c, strict=True).xreplace(_sums).xreplace(_abc_init)
                - sp.sympify(c, strict=True).xreplace(_sums)
                for c in (_clock.c2, _clock.c1, _clock.c0)
            ],
            *[e.xreplace(_abc_init) - _C * e for e in _lw_state.values()],
            *[e.xreplace(_abc_init) - _C**4 * e for e in _sums.values()],
            (gamma * uw).xreplace(_abc) - gamma * uw,
            (gamma**2 * (eta_u * w**2 + eta_w * u**2)).xreplace(_abc) - gamma**2 * (eta_u * w**2 + eta_w * u**2),
            (2 * sp.sqrt(eta_u * eta_w) * uw / (eta_w * u**2 + eta_u * w**2)).xreplace(_abc)
            - 2 * sp.sqrt(eta_u * eta_w) * uw / (eta_w * u**2 + eta_u * w**2),
        ]
    ),
)


_rng = np.random.default_rng(23)
_THEOREM1_CASES = [
    (
        {"gamma": 0.8, "eta_u": 1.7, "eta_w": 0.6, "a": 1.3, "b": b_value},
        {"u": _rng.normal(size=d) * 0.6, "w": _rng.normal(size=d) * 0.6},
    )
    for d, b_value in ((4, 2.0), (3, -0.4))
]


claim(
    "sec2.theorem1.numeric",
    "§2 (Theorem 1)",
    "",
    "The closed form of u(t), w(t) agrees with 30-digit integration of the flow (both sides of the fixed point)",
    "|x_closed - x_ode| / |x| <= 1e-25",
    closed_form_vs_ode("layerwise_lr_linear", _THEOREM1_CASES, [0.0, 0.6, 2.0]),
)

for _claim in (*xu_ziyin2025_power.claims(), *xu_ziyin2025_phase.claims()):
    register(_claim)
