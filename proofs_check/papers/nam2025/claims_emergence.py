r"""Claims of Nam et al. 2025 on the emergence model (eq 11 with eq 9 per skill; spec ``models-nam2025.md`` §6), after
Nam et al. 2024, and on the greedy mode ordering of §5.1.

The model is ``emergence`` (``derivations.models.emergence``): :math:`f = \sum_k a_kb_kg_k(x)`, target
:math:`S\sum_kg_k`, skill frequencies :math:`\mathbb E[g_k^2] = P_k`. Convention for the power law (the spec marks the
exponent [uncertain]): :math:`P_s(k) = k^{-(\alpha+1)}/\sum_{j\le n_s}j^{-(\alpha+1)}`. The skill functions are built
explicitly as sparse parities (``proofs_check.papers.nam2025.features.sparse_parity_skills``: 4 skills on 3 bits,
parities of 2
bits), and their moments are derived from that definition. Every skill starts balanced, :math:`a_k(0) = b_k(0) =
\sqrt{w_0}`; data emergence is the paper's one-shot statement, in the limit :math:`w_0\to0` of the exact
:math:`\mathbb E[R_k(\infty)] = S - (S - w_0)(1 - P_s(k))^n` (an unseen skill keeps :math:`R_k = w_0`). The
:math:`D_k`-shot and :math:`N_k`-neuron extensions of the cited work are not checked.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache

import sympy as sp

from derivations import models
from derivations.model import Model
from derivations.models.emergence import skill_frequencies
from derivations.proof import prove_zero
from proofs_check.checkers import all_of, derivation_steps
from proofs_check.claims import Outcome
from proofs_check.paper import Measurement
from proofs_check.papers.nam2025.claims import PAPER
from proofs_check.papers.nam2025.features import Skills, feature_loss, finite_expectation, sparse_parity_skills
from proofs_check.papers.nam2025.half_time import START, TARGET, half_time

EMERGENCE = models.get("emergence")
DIAGONAL = models.get("diagonal_linear_network")
SKILLS, BITS, ORDER = 4, 3, 2
"""The explicit skill functions: 4 skills on 3 bits, each the parity of 2 bits."""
ALPHA = 1
"""The power-law exponent of the exact and numeric checks: P_s(k) ∝ k⁻²."""
DATA_SIZES, DATA_TRIALS, DATA_SKILLS, DATA_TOLERANCE = (1, 4, 16, 64), 4000, 8, 0.04
"""Data-emergence simulation: sample sizes n, draws per n, skills; tolerance ≈ 5 standard errors of a mean of
4000 indicators."""
ENUMERATED = 4
"""Data emergence is enumerated exactly for n = 1 … 4 draws of the 4 skills (4^n sequences)."""

S, w0, t = TARGET, START, sp.Symbol("t", nonnegative=True)
P = EMERGENCE.symbol("P")
a, b = EMERGENCE.symbol("a"), EMERGENCE.symbol("b")
k, alpha, A = (PAPER.symbol(n, latex, positive=True) for n, latex in (("k", "k"), ("alpha", r"\alpha"), ("A", "A")))
n_draws = PAPER.symbol("n", "n", positive=True, integer=True)


def _skills(frequencies: tuple[sp.Expr, ...] | None = None) -> Skills:
    return sparse_parity_skills(frequencies or sp.symbols(f"P_1:{SKILLS + 1}", positive=True), BITS, ORDER)


# ---------------------------------------------------------------- the skill functions and the model's moments
def _losses(width: int, target_skills: int) -> tuple[sp.Expr, sp.Expr]:
    """The loss ½E[(f − f*)²] with f the model at ``width`` on the explicit skills and f* = S Σ_{k ≤ target_skills}
    g_k, by exact expectation over the skill inputs; and the model's own loss (from its moments)."""
    skills = _skills()
    inst = EMERGENCE.instance(width)
    target = inst.sym["S"] * sum(skills.functions[:target_skills])
    return feature_loss(inst, skills.functions[:width], skills.expectation, target), inst.loss


L_skills = PAPER.symbol("L_skills", r"\tfrac12\mathbb E[(f - f^*)^2]_{g}", lambda: _losses(SKILLS, SKILLS)[0])
L_model = PAPER.symbol("L_model", r"\mathcal L", lambda: _losses(SKILLS, SKILLS)[1])
PAPER.claim(
    "emergence.skills",
    sp.Eq(L_skills, L_model),
    where="§4.3, App. D",
    eq="11",
    assume=(
        "g_k = 1[I = k] × the parity of 2 of 3 uniform bits, P(I = k) = P_k (4 skills, sparse_parity_skills)",
        "left: expectation over the explicit skill inputs; right: the model's loss from E[g_k g_j] = P_k δ_kj",
    ),
)


# ---------------------------------------------------------------- time emergence
def _half_time() -> sp.Expr:
    return half_time(EMERGENCE).t_half


def with_steps(model: Model, claim_id: str) -> Callable[[], Outcome]:
    """The claim's statement decided, and the steps of the half-time derivation it uses re-checked."""
    return all_of(derivation_steps(half_time(model).derivation, [""]), lambda: PAPER.decide(PAPER[claim_id]))


R_t = PAPER.symbol("R_k(t)", r"R_k(t)", lambda: half_time(EMERGENCE).product, real=True)
PAPER.claim(
    "emergence.sigmoid",
    sp.Eq(R_t / S, 1 / (1 + (S / w0 - 1) * sp.exp(-2 * S * P * t))),
    where="§4.3, App. D",
    eq="11, 9",
    assume=("a_k(0) = b_k(0) = √(w_k(0)), S > 0", "R_k = a_k b_k read off the derived closed form of emergence"),
)
frequency = k ** (-(alpha + 1)) / A
t_k = PAPER.symbol("t_1/2(k)", r"t_{1/2}(k)", lambda: _half_time().xreplace({P: frequency}), positive=True)
t_1 = PAPER.symbol("t_1/2(1)", r"t_{1/2}(1)", lambda: _half_time().xreplace({P: 1 / A}), positive=True)
PAPER.claim(
    "emergence.time",
    sp.Eq(t_k / t_1, k ** (alpha + 1)),
    where="§4.3 (time emergence)",
    eq="11",
    assume=(
        "P_s(k) = k^{-(α+1)}/A (A the normalization), α > -1: t_1/2(k) increases with k",
        "t_1/2 solved (sympy.solve) from the derived closed form, equal starts 0 < w_0 < S/2",
    ),
    check=lambda: with_steps(EMERGENCE, "emergence.time")(),
)


def half_time_ratios(exponent: Callable[[int], float] = lambda alpha: alpha + 1) -> Measurement:
    """t_1/2(k)/(t_1/2(1) k^(exponent(α))) for k = 1 … 6, the half-times measured on the DOP853 integration of the
    emergence model's flow (P_s ∝ k⁻², S = 1, w_0 = 1e-6), by interpolation on a fine grid."""
    import numpy as np

    from numerics import trajectory
    from proofs_check.papers.nam2025.emergence import crossing_times, skill_probabilities

    frequencies = skill_probabilities(6, ALPHA)
    times = np.linspace(0.0, 1.3 * np.log(1e6) / (2 * frequencies[-1]), 6001)
    start = np.full(6, 1e-3)
    run = trajectory("emergence", times, {"S": 1.0, "P": frequencies}, {"a": start, "b": start}, method="scipy")
    half = crossing_times(times, run["R"], 0.5)
    ratios = half / (half[0] * np.arange(1, 7) ** exponent(ALPHA))
    detail = f"half-times {np.round(half, 3).tolist()}, increasing: {bool(np.all(np.diff(half) > 0))}"
    return Measurement(ratios, "DOP853 (method='scipy') on the emergence model, 6 skills, 6001 grid points", detail)


PAPER.experiment(
    "emergence.time.numeric",
    half_time_ratios,
    quantity=PAPER.symbol("t_ratio", r"t_{1/2}(k)/(t_{1/2}(1)\,k^{\alpha+1})", positive=True),
    expected=1.0,
    tolerance=1e-3,
    where="§4.3 (time emergence)",
    assume=("P_s(k) ∝ k⁻² (α = 1), 6 skills, S = 1, a_k(0) = b_k(0) = 10⁻³",),
)


# ---------------------------------------------------------------- data emergence
@cache
def limit_strength(frequency: sp.Expr) -> sp.Expr:
    """R_k(∞) of the derived closed form at the (empirical) frequency ``frequency``: S for a seen skill, w_0 for an
    unseen one (at P = 0 the derived field vanishes and the closed form is the constant w_0)."""
    return sp.limit(half_time(EMERGENCE).product.xreplace({P: frequency}), t, sp.oo)


def _sample_loss_matches(counts: tuple[int, ...], skills: Skills) -> bool:
    """The empirical loss of a sample with these skill counts (explicit skill inputs, mixed bit signs) equals the
    model's loss at the empirical frequencies counts/n, exactly."""
    n = sum(counts)
    drawn = [s for s, c in enumerate(counts) for _ in range(c)]
    points = [(sp.Rational(1, n), skills.input(s, [(-1) ** (i + j) for j in range(BITS)])) for i, s in enumerate(drawn)]
    inst = EMERGENCE.instance(len(counts))
    empirical = feature_loss(inst, skills.functions, finite_expectation(points))
    model = inst.loss.xreplace({p: sp.Rational(c, n) for p, c in zip(inst.sym["P"], counts, strict=True)})
    return prove_zero(empirical - model).holds


def data_enumeration(formula: Callable[[sp.Expr, int], sp.Expr]) -> Outcome:
    """lim_{w_0 → 0} E[R_k(∞)]/S, enumerated over all 4^n sequences of n ≤ 4 draws of the 4 skills (P_s ∝ k⁻²,
    exact rationals), against ``formula(P_s(k), n)``: numerically supported (exact on that finite sample, not a
    proof for every n), refuted with the mismatches."""
    frequencies = skill_frequencies(SKILLS, ALPHA)
    skills = _skills(frequencies)
    mismatches, checked = {}, set()
    for n in range(1, ENUMERATED + 1):
        expected = [sp.S.Zero] * SKILLS
        for sequence in itertools.product(range(SKILLS), repeat=n):
            counts = tuple(sequence.count(s) for s in range(SKILLS))
            if counts not in checked and not _sample_loss_matches(counts, skills):
                return Outcome.error(f"the empirical loss of counts {counts} is not the model's at counts/n")
            checked.add(counts)
            probability = sp.Mul(*(frequencies[s] for s in sequence))
            for skill in range(SKILLS):
                expected[skill] += probability * limit_strength(sp.Rational(counts[skill], n))
        for skill in range(SKILLS):
            value = sp.expand(expected[skill] / S).xreplace({w0: 0})
            if sp.simplify(value - formula(frequencies[skill], n)) != 0:
                mismatches[f"k = {skill + 1}, n = {n}"] = f"{value} vs {formula(frequencies[skill], n)}"
    if mismatches:
        return Outcome.refuted("exact enumeration (rational arithmetic)", mismatches)
    detail = (
        f"exact on the sample k = 1 … {SKILLS}, n = 1 … {ENUMERATED} only (not proved for every n or number of "
        "skills); the empirical loss of every sample is the model's at the empirical frequencies (exact), and R_k(∞) "
        "is the derived closed form's limit"
    )
    return Outcome.numeric("exact enumeration of all skill sequences (rational arithmetic), a finite sample", detail)


def paper_formula(frequency: sp.Expr, n: int) -> sp.Expr:
    """Cor. 1 (one-shot): E[R_k(∞)]/S = 1 − (1 − P_s(k))^n."""
    return 1 - (1 - frequency) ** n


ER = PAPER.symbol("E[R_k]", r"\mathbb E[R_k(\infty)]", real=True)
P_s = PAPER.symbol("P_s(k)", r"P_s(k)", positive=True)
PAPER.claim(
    "emergence.data.exact",
    sp.Eq(sp.Limit(ER / S, w0, 0), 1 - (1 - P_s) ** n_draws),
    where="§4.3, App. D (data emergence, one-shot, after Nam et al. 2024)",
    assume=(
        f"{SKILLS} skills, P_s(k) ∝ k⁻², n = 1 … {ENUMERATED} i.i.d. draws: every sequence enumerated exactly",
        "each sample's empirical loss is the model's at frequencies n_k/n; R_k(∞) from the derived closed form",
    ),
    check=lambda: data_enumeration(paper_formula),
)


def data_deviation(formula: Callable[[float, int], float] = paper_formula) -> Measurement:
    """|mean R_k/S − formula(P_s(k), n)| over the simulated draws (nam2025.emergence.data_emergence)."""
    import numpy as np

    from proofs_check.papers.nam2025.emergence import data_emergence, skill_probabilities

    frequencies = skill_probabilities(DATA_SKILLS, ALPHA)
    simulated = data_emergence(frequencies, DATA_SIZES, DATA_TRIALS)
    predicted = np.array([[formula(p, n) for p in frequencies] for n in DATA_SIZES])
    method = f"gradient descent on the empirical loss of sampled data, {DATA_TRIALS} draws per n"
    return Measurement(np.abs(simulated - predicted), method, f"n = {DATA_SIZES}, {DATA_SKILLS} skills")


PAPER.experiment(
    "emergence.data.simulation",
    data_deviation,
    quantity=PAPER.symbol("dev_data", r"\bigl|\overline{R_k}/S - 1 + (1 - P_s(k))^n\bigr|", nonnegative=True),
    tolerance=DATA_TOLERANCE,
    where="§4.3, App. D (data emergence, one-shot, after Nam et al. 2024)",
    assume=(f"{DATA_SKILLS} skills, P_s(k) ∝ k⁻², S = 1, w_0 = 10⁻⁴, n ∈ {DATA_SIZES}",),
)


# ---------------------------------------------------------------- parameter emergence
@cache
def _strengths() -> tuple[sp.Expr, ...]:
    """The model at width p = 3 trained on the 4 explicit skills: R_1 and R_4 (E[f g_k]/E[g_k²] by expectation), the
    loss the missing skill adds (state-free, so the flow is the model's), and lim R_k(t) of the closed form."""
    skills = _skills()
    inst = EMERGENCE.instance(SKILLS - 1)
    f = sp.sympify(inst.network).xreplace(dict(zip(inst.inputs, skills.functions, strict=False)))
    g1, g4 = skills.functions[0], skills.functions[-1]
    E = skills.expectation
    full, model = _losses(SKILLS - 1, SKILLS)
    positive = {EMERGENCE.symbol("S"): S}
    return E(f * g1) / E(g1**2), E(f * g4) / E(g4**2), (full - model).xreplace(positive), limit_strength(P)


R_1, R_4, dL, R_inf = (
    PAPER.symbol(name, latex, lambda i=i: _strengths()[i], real=True)
    for i, (name, latex) in enumerate(
        (("R_1", "R_1"), ("R_4", "R_4"), ("Delta_L", r"\Delta\mathcal L"), ("R_k(inf)", r"R_k(\infty)"))
    )
)
a_1, b_1 = sp.symbols("a_1 b_1", real=True)
P_4 = PAPER.symbol("P_4", "P_4", positive=True)
PAPER.claim(
    "emergence.parameter",
    sp.Eq(sp.Matrix([R_1, R_4, dL, R_inf]), sp.Matrix([a_1 * b_1, 0, S**2 * P_4 / 2, S]), evaluate=False),
    where="§4.3, App. D (parameter emergence, after Nam et al. 2024)",
    assume=(
        "model width p = 3, target S Σ g_k on 4 explicit skills: R_k(∞) = S for k ≤ p, R_4 = 0",
        "ΔL: the loss of the unrepresented skill, free of the state",
        "S > 0, a_k(0) = b_k(0) > 0",
    ),
)


# ---------------------------------------------------------------- §5.1: greedy mode ordering
lam_i, lam_j = (PAPER.symbol(f"lam_{i}", rf"\lambda_{i}", positive=True) for i in "ij")
S_i, S_j = (PAPER.symbol(f"S_{i}^+", f"S_{i}", positive=True) for i in "ij")


def _mode_half_time(target: sp.Symbol, rate: sp.Symbol) -> sp.Expr:
    return half_time(DIAGONAL).t_half.xreplace({S: target, DIAGONAL.symbol("lam"): rate})


t_i, t_j = (
    PAPER.symbol(f"t_1/2,{i}", rf"t_{{1/2,{i}}}", lambda s=s, r=r: _mode_half_time(s, r), positive=True)
    for i, s, r in (("i", S_i, lam_i), ("j", S_j, lam_j))
)
PAPER.claim(
    "sec5.ordering",
    sp.Eq(sp.Limit(t_i / t_j, w0, 0), S_j * lam_j / (S_i * lam_i)),
    where="§4.1",
    eq="9",
    assume=(
        "modes i, j of the diagonal network from equal balanced starts a(0) = b(0) = √(w_0), S_i, S_j > 0",
        "t_1/2 solved from the derived closed form: at small init the mode with larger S λ is learned first",
    ),
    check=lambda: with_steps(DIAGONAL, "sec5.ordering")(),
)
MODES = ((4.0, 0.5), (1.0, 3.0), (2.0, 0.75), (0.5, 1.6))
"""(S_i, λ_i) of the numeric check: the order of S λ differs from that of S and from that of λ."""


def mode_order(key: Callable[[float, float], float] = lambda target, rate: target * rate) -> Outcome:
    """The diagonal network's modes (``MODES``, w_0 = 1e-6) integrated by DOP853: their measured half-times must come
    in decreasing order of ``key(S, λ)`` and match the derived t_1/2 (relative 1e-3)."""
    import numpy as np

    from numerics import trajectory
    from proofs_check.papers.nam2025.emergence import crossing_times

    targets, rates = (np.array(column) for column in zip(*MODES, strict=True))
    times = np.linspace(0.0, 12.0, 6001)
    start = np.full(len(MODES), 1e-3)
    run = trajectory("diagonal_linear_network", times, {"S": targets, "lam": rates}, {"a": start, "b": start}, "scipy")
    measured = crossing_times(times, run["a"] * run["b"] / targets, 0.5)
    derived = sp.lambdify((S, DIAGONAL.symbol("lam"), w0), half_time(DIAGONAL).t_half)(targets, rates, 1e-6)
    order = np.argsort(measured).tolist()
    predicted = np.argsort([-key(s, r) for s, r in MODES]).tolist()
    error = float(np.max(np.abs(measured / derived - 1)))
    detail = (
        f"half-times {np.round(measured, 4).tolist()}, order {order}, predicted {predicted}, vs derived {error:.1e}"
    )
    if order != predicted or error > 1e-3:
        return Outcome.refuted("DOP853 on the diagonal network", {"order": order, "predicted": predicted}, detail)
    return Outcome.numeric("DOP853 on the diagonal network (4 modes), half-times by interpolation", detail)


PAPER.claim(
    "sec5.ordering.numeric",
    "The modes' half-times come in decreasing order of S_i λ_i and equal the derived t_1/2",
    where="§4.1",
    assume=("(S, λ) = (4, 0.5), (1, 3), (2, 0.75), (0.5, 1.6); a(0) = b(0) = 10⁻³",),
    check=mode_order,
)
