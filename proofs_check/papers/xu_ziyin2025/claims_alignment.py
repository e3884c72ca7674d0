r"""Alignment and disalignment claims of Xu & Ziyin 2025 (spec ``models-xu-ziyin2025.md`` §2.4, §4, §5, §8).

:math:`\zeta` is the plain cosine of :math:`u` and :math:`w` (the model's ``alignment``, as the authors answered the
reviewers); the learning-rate weighted cosine :math:`\tanh\theta` (``alignment_weighted``) is a different quantity
that coincides with it only when :math:`S = \sum_ip_i(0)q_i(0) = 0`. Along the exact solution everything is a
function of the hyperbolic angle :math:`\theta = \ln\varphi`, which moves monotonically from :math:`\theta_0` to
:math:`\theta_\infty = \operatorname{asinh}B`; with :math:`\sigma = S^2/(PQ) \in [0, 1)` (Cauchy–Schwarz),
:math:`\zeta = \sinh\theta/\sqrt{\cosh^2\theta - \sigma}` is strictly increasing in :math:`\theta`. Hence
:math:`\zeta(t)` is monotone, rising iff :math:`\theta_0 < \theta_\infty`; in the feature (alignment) phase at large
width :math:`\theta_0 = O(d^{-1/2})` and it rises from about 0, in the kernel phase :math:`\theta_0, \theta_\infty
\to 0` and it stays near 0. Disalignment is :math:`|\theta|` decreasing: the closed form says exactly when.

The rate :math:`\dot\theta` is written in :math:`B` by the exact reparametrization
:math:`b = B\gamma a\sqrt{PQ}/(2\sqrt{\eta_u\eta_w})` of the derived Riccati equation. The paper's body is not
available: its definitions (Definition 1, Table 1) are the spec's reconstruction, and the δ values of §4.6 come from
a secondary summary whose "(−)" could not be identified.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from typing import TYPE_CHECKING

import sympy as sp

from derivations import models
from proofs_check.claims import Outcome
from proofs_check.paper import Measurement
from proofs_check.papers.xu_ziyin2025.claims import PAPER, P, Q, S_pq, _phi, _sums, spec
from proofs_check.papers.xu_ziyin2025.claims import theta as theta_positive

if TYPE_CHECKING:
    import numpy as np

LW = models.get("layerwise_lr_linear")
gamma, eta_u, eta_w, a, b = (LW.symbol(n) for n in ("gamma", "eta_u", "eta_w", "a", "b"))
th = PAPER.symbol("theta_r", r"\theta", real=True)
th0 = PAPER.symbol("theta_0", r"\theta_0", real=True)
phi = PAPER.symbol("varphi_r", r"\varphi", positive=True)
B = PAPER.symbol("B_r", "B", real=True)
sigma = S_pq**2 / (P * Q)
IN_B = {b: B * gamma * a * sp.sqrt(P * Q) / (2 * sp.sqrt(eta_u * eta_w))}
"""The exact reparametrization b ↦ B (spec §2.2: B = 2b√(η_uη_w)/(γa√(PQ)))."""


def _in_theta(quantity: str | sp.Expr, angle: sp.Expr = th) -> sp.Expr:
    """A quantity of the model along the solution, as a function of the hyperbolic angle (spec §2.4 coordinates)."""
    return _sums(quantity).xreplace({theta_positive: angle})


@cache
def _riccati():
    """The derived Riccati solution for φ (its right-hand side and roots), rewritten in B."""
    solution = _phi()[0]
    rhs = sp.expand(solution.rhs.xreplace({solution.y: phi}).xreplace(IN_B))
    root = sp.simplify(solution.definitions[solution.r_plus].xreplace(IN_B))
    return rhs, root


# ---------------------------------------------------------------- ζ as a function of θ
def _lagrange() -> tuple[sp.Expr, sp.Expr]:
    """(Σp²)(Σq²) − (Σpq)² and Σ_{i<j}(p_i q_j − p_j q_i)² at width 3, p, q from the model's states."""
    inst = LW.instance(3)
    p_ = [sp.sqrt(eta_w) * u + sp.sqrt(eta_u) * w for u, w in zip(inst.state["u"], inst.state["w"], strict=True)]
    q_ = [sp.sqrt(eta_w) * u - sp.sqrt(eta_u) * w for u, w in zip(inst.state["u"], inst.state["w"], strict=True)]
    gap = sum(x**2 for x in p_) * sum(y**2 for y in q_) - sum(x * y for x, y in zip(p_, q_, strict=True)) ** 2
    return gap, sum((p_[i] * q_[j] - p_[j] * q_[i]) ** 2 for i in range(3) for j in range(i + 1, 3))


gap = PAPER.symbol("PQ-S^2", r"PQ - S^2", lambda: _lagrange()[0])
squares = PAPER.symbol("lagrange", r"\textstyle\sum_{i<j}(p_iq_j - p_jq_i)^2", lambda: _lagrange()[1], nonnegative=True)
PAPER.claim(
    "alignment.cauchy_schwarz",
    sp.Eq(gap, squares),
    where=spec("§2.4, §8"),
    assume=("width 3, p_i, q_i from the states: σ = S²/(PQ) ∈ [0, 1], = 1 only if p ∥ q",),
)
zeta_slope = PAPER.symbol("dzeta/dtheta", r"\partial_\theta\zeta", lambda: sp.diff(_in_theta("alignment"), th))
PAPER.claim(
    "alignment.derivative",
    sp.Eq(zeta_slope, sp.cosh(th) * (1 - sigma) / (sp.cosh(th) ** 2 - sigma) ** sp.Rational(3, 2)),
    where=spec("§2.4, §5", "14"),
    eq="14",
    assume=(
        "ζ: the model's alignment, the plain cosine uᵀw/(|u||w|), along the solution (in the coordinates of §2.4)",
        "> 0 for σ < 1 (alignment.cauchy_schwarz): ζ is strictly increasing in θ",
    ),
)

# ---------------------------------------------------------------- θ(t) monotone, hence ζ(t)
theta_dot = PAPER.symbol("theta_dot", r"\dot\theta", lambda: _riccati()[0] / phi, real=True)
alpha_plus = PAPER.symbol("alpha_+", r"\alpha_+", lambda: _riccati()[1], positive=True)
PAPER.claim(
    "alignment.monotone",
    sp.And(sp.Implies(phi < alpha_plus, theta_dot > 0), sp.Implies(phi > alpha_plus, theta_dot < 0)),
    where=spec("§2.2, §5"),
    assume=(
        "θ = ln φ, θ̇ = φ̇/φ with φ̇ the derived Riccati equation; α₊ its attracting root (φ never crosses it)",
        "so θ(t), and ζ(t) (alignment.derivative), are monotone: rising iff θ₀ < θ_∞ = asinh B",
    ),
)
zeta_limit = PAPER.symbol(
    "zeta_oo", r"\zeta(\infty)", lambda: _in_theta("alignment", sp.log(_riccati()[1])).xreplace(IN_B), real=True
)
PAPER.claim(
    "alignment.limit",
    sp.Eq(zeta_limit**2, B**2 / (1 + B**2 - sigma)),
    where=spec("§2.4, §8", "14"),
    eq="14",
    assume=(
        "θ_∞ = ln α₊ (the derived root); ζ(∞) has the sign of sinh θ_∞ = B",
        "tanh² θ_∞ = B²/(1 + B²) (the weighted form's limit) only if S = 0",
    ),
)

# ---------------------------------------------------------------- disalignment
PAPER.claim(
    "disalignment.condition",
    sp.Equivalent((phi - 1) * theta_dot < 0, (phi - 1) * (phi - alpha_plus) > 0),
    where=spec("§5 (learning by disalignment)"),
    assume=(
        "sign θ = sign(φ − 1), so (φ − 1) θ̇ < 0 iff |θ| decreases",
        "φ(t) stays between φ₀ and α₊: |θ| decreases for all t iff θ₀ > θ_∞ ≥ 0 or θ₀ < θ_∞ ≤ 0",
    ),
)


def _ntk_ratio() -> sp.Expr:
    return (_in_theta("ntk", sp.log(_riccati()[1])) / _in_theta("ntk", th0)).xreplace(IN_B)


K_ratio = PAPER.symbol("K_oo/K_0", r"K_\infty/K_0", _ntk_ratio, positive=True)
PAPER.claim(
    "disalignment.ntk",
    sp.Eq(
        sp.Matrix([K_ratio, sp.Limit(K_ratio, B, 0), sp.Limit(zeta_limit, B, 0)]),
        sp.Matrix([sp.sqrt(1 + B**2) / sp.cosh(th0), 1 / sp.cosh(th0), 0]),
        evaluate=False,
    ),
    where=spec("§4.2, §5 (learning by disalignment)"),
    assume=("K ∝ η_u|w|² + η_w|u|² = √(PQ) cosh θ; B → 0 at finite width (large γ or init): ζ → 0, K shrinks",),
)


# ---------------------------------------------------------------- numerics across widths and phases
PHASE_KEYS = ("mean_field", "xavier", "ntk", "kaiming_fan_in")
PHASE_WIDTHS, PHASE_SEEDS = (64, 256, 1024, 4096), range(48)
BEHAVIOUR = {"alignment": "rises", "kernel": "stays"}
"""What ζ(t) does in each phase of xu_ziyin2025.phase.phase: rises from ≈ 0 by Θ(1), or stays ≈ 0."""
EXPONENT_TOLERANCE = 0.1


def _monotone(zeta: np.ndarray) -> bool:
    """Every draw's ζ(t) (time first) is non-decreasing or non-increasing (to 1e-12)."""
    import numpy as np

    steps = np.diff(zeta, axis=0)
    return bool(np.all(np.all(steps >= -1e-12, axis=0) | np.all(steps <= 1e-12, axis=0)))


def zeta_across_phases(behaviour: dict[str, str] = BEHAVIOUR) -> Outcome:
    """ζ(t) on the closed form of four standard parametrizations (d = 64 … 4096, 48 draws): monotone for every draw,
    and per phase: "rises" — median |ζ(0)| ∝ d^(-1/2) and every draw rises by a median Θ(1) (> 0.3) at the largest
    width; "stays" — the median of sup_t |ζ(t)| ∝ d^(-1/2) and < 0.05 at the largest width."""
    import numpy as np

    from proofs_check.papers.xu_ziyin2025.alignment import alignment_paths
    from proofs_check.papers.xu_ziyin2025.phase import PARAMETRIZATIONS, fit_exponent, phase

    rows, failures = [], {}
    for key in PHASE_KEYS:
        label = phase(**PARAMETRIZATIONS[key].exponents)
        paths = [alignment_paths(key, d, PHASE_SEEDS) for d in PHASE_WIDTHS]
        start = fit_exponent(PHASE_WIDTHS, [np.median(np.abs(p.zeta[0])) for p in paths])
        sups = [float(np.median(np.abs(p.zeta).max(axis=0))) for p in paths]
        rise = paths[-1].zeta[-1] - paths[-1].zeta[0]
        rows.append(
            f"{key} ({label}): |ζ(0)| ∝ d^{start:.2f}, sup|ζ| ∝ d^{fit_exponent(PHASE_WIDTHS, sups):.2f} "
            f"({sups[-1]:.3f} at d = {PHASE_WIDTHS[-1]}), median rise {np.median(rise):.3f}"
        )
        if behaviour[label] == "rises":
            ok = abs(start + 0.5) <= EXPONENT_TOLERANCE and np.all(rise > 0) and np.median(rise) > 0.3
        else:
            ok = abs(fit_exponent(PHASE_WIDTHS, sups) + 0.5) <= EXPONENT_TOLERANCE and sups[-1] < 0.05
        if not (ok and all(_monotone(p.zeta) for p in paths)):
            failures[key] = rows[-1]
    method = (
        f"closed form of layerwise_lr_linear, d = {PHASE_WIDTHS}, {len(PHASE_SEEDS)} draws, phases by numerics.phase"
    )
    if failures:
        return Outcome.refuted(method, failures, "; ".join(rows))
    return Outcome.numeric(method, "; ".join(rows))


PAPER.claim(
    "alignment.phases",
    "ζ(t) is monotone; in the feature (alignment) phase it rises from ζ(0) = O(d^(-1/2)) by Θ(1), in the kernel phase "
    "sup_t |ζ(t)| = O(d^(-1/2)) → 0",
    where=spec("§4.2, §5 (headline)"),
    assume=(
        "mean-field/µP and Xavier (alignment), NTK and Kaiming fan-in (kernel), the §4.3 rows; a = b = 1",
        "ζ: the plain cosine (the model's alignment)",
    ),
    check=zeta_across_phases,
)
ALIGNMENT_WIDTHS, ALIGNMENT_DRAWS = (16, 64, 256, 1024, 4096), 2000


def initial_alignment_scaled(exponent: float = 0.5) -> Measurement:
    """d^{2·exponent} E[ζ(0)²] per width, over independent Gaussian u₀, w₀ (exactly 1 at exponent 1/2, since
    E[ζ(0)²] = 1/d for isotropic independent vectors)."""
    import numpy as np

    from proofs_check.papers.xu_ziyin2025.alignment import initial_alignment
    from proofs_check.papers.xu_ziyin2025.phase import fit_exponent

    second = np.array([np.mean(initial_alignment(d, ALIGNMENT_DRAWS) ** 2) for d in ALIGNMENT_WIDTHS])
    rms = fit_exponent(ALIGNMENT_WIDTHS, np.sqrt(second))
    values = np.array(ALIGNMENT_WIDTHS, dtype=float) ** (2 * exponent) * second
    method = f"closed form at t = 0, {ALIGNMENT_DRAWS} draws per width"
    return Measurement(values, method, f"d = {ALIGNMENT_WIDTHS}; RMS ζ(0) ∝ d^{rms:.3f}")


PAPER.experiment(
    "alignment.width",
    initial_alignment_scaled,
    quantity=PAPER.symbol("d_zeta0", r"d\,\mathbb E[\zeta(0)^2]", positive=True),
    expected=1.0,
    tolerance=0.1,
    where=spec("§4.1, §8 (paper eq. 14: the initial alignment)"),
    assume=("u₀, w₀ independent standard Gaussian in R^d: ζ(0) ~ d^(-1/2)", "tolerance ≈ 4.5 standard errors"),
)
DELTA_WIDTHS, DELTA_SEEDS = (100, 400, 1600, 6400, 25600), range(400)
DERIVED_DELTA = {"ntk": 0.5, "xavier": 0.0, "kaiming_fan_in": 1.5}
"""δ of ‖W − W₀‖/‖W₀‖ ∝ d^(-δ) (W = w for one-dimensional input), as derived from the exact solution."""
QUOTED_DELTA = {"ntk": 0.5, "xavier": 1.0, "kaiming_fan_in": 2.0}
"""The paper's δ for NTK, Xavier(−), Kaiming(−) (per a secondary summary, spec §4.6; "(−)" unidentified)."""
MEASURED_DELTA = {"ntk": 0.47, "xavier": 1.08, "kaiming_fan_in": 1.93}
"""The δ the paper reports measuring for the same three parametrizations."""
DELTA_LABELS = {"ntk": "NTK", "xavier": "Xavier", "kaiming_fan_in": "Kaiming"}


def delta_row(key: str, expected: float | None = None) -> Outcome:
    """The fitted δ of ‖Δw‖/‖w₀‖ for the parametrization ``key`` against ``expected`` (default: the paper's value,
    :data:`QUOTED_DELTA`); the detail sets the paper's quoted and measured values against every fitted exponent
    (‖Δw‖/‖w₀‖, ‖Δu‖/‖u₀‖, the whole parameter vector, ΔK/K). Refuted, with the fitted δ, when they differ by more
    than the phase tolerance."""
    import numpy as np

    from proofs_check.papers.xu_ziyin2025.alignment import parameter_change
    from proofs_check.papers.xu_ziyin2025.phase import TOLERANCE, fit_exponent, width_sweep

    if key not in QUOTED_DELTA:
        raise ValueError(f"key must be one of {sorted(QUOTED_DELTA)}, got {key!r}")
    target = QUOTED_DELTA[key] if expected is None else expected
    fitted = width_sweep(key, DELTA_WIDTHS, DELTA_SEEDS).exponents()
    whole = [np.median(parameter_change(key, d, DELTA_SEEDS)) for d in DELTA_WIDTHS]
    fitted["whole"] = fit_exponent(DELTA_WIDTHS, whole)
    found = ", ".join(f"{q} {-v:.2f}" for q, v in fitted.items())
    delta = -fitted["|dw|/|w0|"]
    detail = (
        f"{key}: fitted δ of {found}; the paper: δ = {QUOTED_DELTA[key]:g} (measured {MEASURED_DELTA[key]:g}), "
        f"derived here {DERIVED_DELTA[key]:g}"
    )
    method = f"closed-form width sweep, d = {DELTA_WIDTHS}, {len(DELTA_SEEDS)} draws, log-log fit of medians"
    if not abs(delta - target) <= TOLERANCE:
        witness = {f"delta_{key}": f"{delta:.3f}", "expected": f"{target:g}", "tolerance": f"{TOLERANCE:g}"}
        return Outcome.refuted(method, witness, detail)
    return Outcome.numeric(method, detail)


def delta_claim(key: str) -> Outcome:
    """The claim of parametrization ``key``: numerically supported where the paper's δ is the derived one (NTK);
    elsewhere an erratum, the paper's δ refuted by the fitted one and the derived δ supported by it (for plain
    Xavier and Kaiming fan-in; the paper's "(−)" variants are unidentified, so this is a discrepancy with the
    paper's stated value under the spec's reading of the parametrizations)."""
    printed = delta_row(key)
    if QUOTED_DELTA[key] == DERIVED_DELTA[key]:
        return printed
    corrected = delta_row(key, DERIVED_DELTA[key])
    return Outcome.erratum(
        printed, corrected, f"δ = {QUOTED_DELTA[key]:g} (the paper)", f"δ = {DERIVED_DELTA[key]:g} (derived here)"
    )


for _key, _label in DELTA_LABELS.items():
    PAPER.claim(
        f"alignment.delta.{_key}",
        sp.Eq(
            PAPER.symbol(f"delta_{_key}", rf"\delta_{{\mathrm{{{_label}}}}}", real=True),
            sp.nsimplify(QUOTED_DELTA[_key]),
        ),
        where=spec("§4.6 (secondary summary: δ = 0.5, 1, 2)"),
        assume=(
            "δ: ‖W − W₀‖/‖W₀‖ ∝ d^(-δ), W = w (one-dimensional input), plain Xavier and Kaiming fan-in (the phase "
            'diagram rows); the paper\'s "(−)" variants are unidentified',
            f"the paper: δ = {QUOTED_DELTA[_key]:g}, measured {MEASURED_DELTA[_key]:g}; derived here from the exact "
            f"solution: δ = {DERIVED_DELTA[_key]:g}",
        ),
        check=partial(delta_claim, _key),
        # the width sweeps are draws the §4.3 row of this parametrization measures (numerics.phase.draw_changes):
        # one worker computes them
        shared_work=f"xu_ziyin2025.phase.{_key}",
    )
DISALIGN_WIDTH, DISALIGN_GAMMA, DISALIGN_SEEDS = 10, 30.0, range(200)


def disalignment_paths(condition: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None) -> Outcome:
    """Finite width d = 10, γ = 30 (c_d = 0, e_B < 0: numerics.phase's "disalignment"), u₀, w₀ ~ N(0, 1), a = b = 1,
    DOP853 on the flow: for every draw |θ(t)| is non-increasing exactly when ``condition(θ₀, θ_∞)`` (default: the
    derived θ₀ > θ_∞ ≥ 0 or θ₀ < θ_∞ ≤ 0), |θ_∞| ≪ |θ₀| and K_∞/K₀ = 1/cosh θ₀ (B → 0)."""
    import numpy as np

    from numerics import trajectory
    from proofs_check.papers.xu_ziyin2025.phase import phase

    label = phase(c_d=0, c_u=0, c_w=0, c_gamma=1, c_eta_u=0, c_eta_w=0)
    rng = np.random.default_rng(17)
    u0, w0 = rng.standard_normal((2, len(DISALIGN_SEEDS), DISALIGN_WIDTH))
    rate = DISALIGN_GAMMA**2 * np.sqrt(((u0 + w0) ** 2).sum(axis=1) * ((u0 - w0) ** 2).sum(axis=1))
    times = np.concatenate([[0.0], 30 / rate.min() * np.logspace(-5, 0, 60)])
    params = {"gamma": DISALIGN_GAMMA, "eta_u": 1.0, "eta_w": 1.0, "a": 1.0, "b": 1.0}
    run = trajectory("layerwise_lr_linear", times, params, {"u": u0, "w": w0}, method="scipy")
    theta = np.arctanh(run["alignment_weighted"])
    start, end = theta[0], theta[-1]
    rule = condition or (lambda t0, t1: ((t0 > t1) & (t1 >= 0)) | ((t0 < t1) & (t1 <= 0)))
    decreasing = np.all(np.diff(np.abs(theta), axis=0) <= 1e-9, axis=0)
    mismatch = int(np.sum(decreasing != rule(start, end)))
    shrink = float(np.median(np.abs(end) / np.abs(start)))
    kernel = float(np.max(np.abs(run["ntk"][-1] / run["ntk"][0] * np.cosh(start) - 1)))
    detail = (
        f"phase {label}; {int(decreasing.sum())} of {len(decreasing)} draws with |θ| decreasing, {mismatch} "
        f"mismatches with the condition; median |θ_∞/θ₀| = {shrink:.3g}; max |K_∞ cosh θ₀/K₀ − 1| = {kernel:.2g}"
    )
    method = f"DOP853 on layerwise_lr_linear, d = {DISALIGN_WIDTH}, γ = {DISALIGN_GAMMA:g}, {len(DISALIGN_SEEDS)} draws"
    if label != "disalignment" or mismatch or shrink > 0.05 or kernel > 1e-3:
        return Outcome.refuted(method, {"mismatches": mismatch, "median |θ_∞/θ₀|": shrink}, detail)
    return Outcome.numeric(method, detail)


PAPER.claim(
    "disalignment.numeric",
    "Finite width, large γ: |θ| falls from Θ(1) to ≈ 0 (ζ → 0, K_∞/K₀ → 1/cosh θ₀), monotonically exactly when "
    "θ₀ > θ_∞ ≥ 0 or θ₀ < θ_∞ ≤ 0",
    where=spec("§4.2, §5 (learning by disalignment)"),
    assume=("c_d = 0, e_B < 0 (numerics.phase: disalignment); |θ| from the weighted cosine tanh θ",),
    check=disalignment_paths,
)
