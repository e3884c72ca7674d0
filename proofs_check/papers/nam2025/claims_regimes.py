r"""Claims of Nam et al. 2025 on the lazy/rich regime of the scalar network: the grokking fixes (§6.3, §7.2, App. G.3,
Fig. 8) and the NTK scaling :math:`Z = \sqrt p` (spec ``models-nam2025.md`` §5, limits table).

Every statement is about the attracting root :math:`\gamma_+` of the derived clock equation (the rich regime is a
large :math:`\gamma_+`, the lazy one :math:`\gamma_+\to1`), read from the Riccati solution ``derivations.solve``
produced, never typed in. The grokking fixes act on ``scaled_scalar`` (the network sees :math:`\varepsilon x`, data
:math:`y = Sx`), in terms of the initial statistics of an initialization scaled by :math:`c`:
:math:`\Sigma_0 = c^2A/Z`, :math:`\mathcal S_0 = c^2B/Z` with :math:`A = \tfrac12\sum_i(a_i^2 + b_i^2) > 0`,
:math:`B = \sum_ia_ib_i`, :math:`|B| < A`. The weight-to-target ratio is :math:`\varepsilon\Sigma_0/S` (the target
coefficient the network sees is :math:`S/\varepsilon`). The paper's experiment (a 4-layer tanh MLP on MNIST, Adam,
weight decay) is out of the package's scope: what is checked is the mechanism in the solvable model.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

import sympy as sp

from derivations import models
from derivations.models.scaled_scalar import MODEL as SCALED
from proofs_check.claims import Outcome
from proofs_check.paper import Measurement
from proofs_check.papers.nam2025.claims import PAPER
from proofs_check.papers.nam2025.hyperbolic import SYMBOLS as H

SCALAR = models.get("two_layer_scalar")
OUT_OF_SCOPE = "the paper's MNIST MLP (App. G.3) is out of scope: the mechanism is checked in the scalar model"

S = PAPER.symbol("S^+", "S", positive=True)
Z, eps, c, A = (
    PAPER.symbol(name, latex, positive=True)
    for name, latex in (("Z^+", "Z"), ("epsilon", r"\varepsilon"), ("c", "c"), ("A", "A"))
)
B = PAPER.symbol("B", "B", real=True)
PRIMITIVES = (B < A, -A < B)


def _root(model) -> sp.Expr:
    """The attracting root of ``model``'s derived clock equation, in Σ0 and 𝒮0 (App. H notation)."""
    from proofs_check.papers.nam2025.claims_appH import derived_sums

    cf = model.closed_form
    (solution,) = cf.riccati.values()
    return solution.definitions[solution.r_plus].xreplace(derived_sums(model, cf))


def _scaled_root() -> sp.Expr:
    """γ₊ of ``scaled_scalar`` for an initialization scaled by c: Σ0 = c²A/Z, 𝒮0 = c²B/Z."""
    names = {SCALED.symbol("S"): S, SCALED.symbol("Z"): Z, SCALED.symbol("epsilon"): eps}
    return _root(SCALED).xreplace({H.Sigma0: c**2 * A / Z, H.S0: c**2 * B / Z}).xreplace(names)


RATIO = eps * c**2 * A / (Z * S)
"""The weight-to-target ratio εΣ0/S."""
FIXES = {
    "init": (c, "smaller initialization (a, b → c a, c b with c < 1)", -1),
    "target": (S, "larger target S", +1),
    "input": (eps, "smaller input (ε < 1: the target the network sees, S/ε, grows)", -1),
    "output": (Z, "smaller output multiplier Z⁻¹ (larger Z)", +1),
}
"""Each fix: the knob, what it is, and the direction (+1: the knob grows) in which it is applied."""


def _derivative(knob: sp.Symbol, of: Callable[[], sp.Expr]) -> Callable[[], sp.Expr]:
    return lambda: sp.diff(of(), knob)


for _key, (_knob, _what, _direction) in FIXES.items():
    _d_ratio = PAPER.symbol(
        f"d_ratio/d{_knob}",
        rf"\partial_{{{sp.latex(_knob)}}}(\varepsilon\Sigma_0/S)",
        _derivative(_knob, lambda: RATIO),
    )
    _d_root = PAPER.symbol(
        f"d_gamma_+/d{_knob}", rf"\partial_{{{sp.latex(_knob)}}}\gamma_+", _derivative(_knob, _scaled_root)
    )
    PAPER.claim(
        f"grokking.{_key}",
        sp.And(_d_ratio < 0, _d_root > 0) if _direction > 0 else sp.And(_d_ratio > 0, _d_root < 0),
        where="§6.3, §7.2, App. G.3 (Fig. 8)",
        assume=(
            *PRIMITIVES,
            f"{_what}: lowers the weight-to-target ratio εΣ0/S and raises γ₊ (rich)",
            "γ₊: the attracting root of the clock equation derived for scaled_scalar",
            OUT_OF_SCOPE,
        ),
    )

BASELINE = {"scale": 1.0, "S": 1.0, "Z": 1.0, "epsilon": 1.0}
APPLIED = {"init": ("scale", 0.2), "target": ("S", 10.0), "input": ("epsilon", 0.1), "output": ("Z", 10.0)}
"""The fixes as applied by the authors' code (init w = 5 → 1, target × 10, output × 0.1; input × 0.1 here)."""
REVERSED = {key: (knob, 1 / value) for key, (knob, value) in APPLIED.items()}


def _movement(setting: dict[str, float]) -> tuple[float, float]:
    """‖w(T) − w(0)‖/‖w(0)‖ and K(T)/K(0) of scaled_scalar (p = 8, a, b ~ scale·N(0, 1), seed 5) by DOP853, with
    T = (40 + ln γ₊)/(2εS/Z): the plateau and 40 e-foldings at the slowest rate (γ₊ from the derived root)."""
    import numpy as np

    from numerics import trajectory

    rng = np.random.default_rng(5)
    a0, b0 = (setting["scale"] * rng.standard_normal(8) for _ in range(2))
    S_, Z_, eps_ = setting["S"], setting["Z"], setting["epsilon"]
    root = sp.lambdify(
        (SCALED.symbol("S"), SCALED.symbol("Z"), SCALED.symbol("epsilon"), H.Sigma0, H.S0), _root(SCALED)
    )
    gamma_plus = root(S_, Z_, eps_, (a0**2 + b0**2).sum() / (2 * Z_), (a0 * b0).sum() / Z_)
    horizon = (40 + np.log(max(gamma_plus, 1.0))) * Z_ / (2 * eps_ * S_)
    run = trajectory(SCALED, [0.0, horizon], {"S": S_, "Z": Z_, "epsilon": eps_}, {"a": a0, "b": b0}, method="scipy")
    weights = np.concatenate([run["a"], run["b"]], axis=1)
    kernel = (weights**2).sum(axis=1)
    return float(np.linalg.norm(weights[1] - weights[0]) / np.linalg.norm(weights[0])), float(kernel[1] / kernel[0])


def fixes_move_weights(changes: dict[str, tuple[str, float]] = APPLIED) -> Outcome:
    """Each change, applied alone to the baseline, must raise both the weight movement and the kernel's change."""
    base = _movement(BASELINE)
    rows, failures = [], {}
    for key, (knob, value) in changes.items():
        moved = _movement({**BASELINE, knob: value})
        rows.append(f"{key} ({knob} = {value:g}): movement {moved[0]:.3g}, K(T)/K(0) {moved[1]:.3g}")
        if not (moved[0] > base[0] and abs(math.log(moved[1])) > abs(math.log(base[1]))):
            failures[key] = f"movement {moved[0]:.3g} vs {base[0]:.3g}, K ratio {moved[1]:.3g} vs {base[1]:.3g}"
    detail = f"baseline movement {base[0]:.3g}, K(T)/K(0) {base[1]:.3g}; " + "; ".join(rows)
    if failures:
        return Outcome.refuted("DOP853 on scaled_scalar", failures, detail)
    return Outcome.numeric("DOP853 on scaled_scalar (p = 8), each fix alone against the baseline", detail)


PAPER.claim(
    "grokking.numeric",
    "Each fix alone (init × 0.2, target × 10, input × 0.1, output multiplier × 0.1) moves the weights further and "
    "changes the NTK more than the baseline (rich regime)",
    where="§6.3, §7.2, App. G.3 (Fig. 8)",
    assume=("scaled_scalar, p = 8, baseline a, b ~ N(0, 1), S = Z = ε = 1", "K ∝ Σ(a_i² + b_i²)", OUT_OF_SCOPE),
    check=fixes_move_weights,
)


# ---------------------------------------------------------------- §5 limits table: NTK scaling Z = √p
p = PAPER.symbol("p", "p", positive=True)


@cache
def ntk_states() -> tuple[sp.Expr, sp.Symbol, dict[str, dict[str, sp.Expr]]]:
    """At width p with ±1 starts (p/2 units a = b = 1, p/2 units a = −b = 1, so θ(0) = 0) and Z = √p, from the
    derived closed form of two_layer_scalar: γ₊, the clock symbol, and each kind of unit's ``{"a": …, "b": …}``
    along the clock (kinds ``"aligned"``: a(0) = b(0) = 1, ``"opposed"``: a(0) = −b(0) = 1)."""
    cf = SCALAR.closed_form
    ((clock, solution),) = cf.riccati.items()
    a0, b0, Z_ = cf.init["a"], cf.init["b"], SCALAR.symbol("Z")
    starts = {"aligned": {a0: 1, b0: 1}, "opposed": {a0: 1, b0: -1}}

    def total(summand: sp.Expr) -> sp.Expr:
        return p / 2 * sum(summand.xreplace(start) for start in starts.values())

    sums = {s: total(summand) for s, summand in cf.sums.items()}
    width = {Z_: sp.sqrt(p), SCALAR.symbol("S"): S}
    root = solution.definitions[solution.r_plus].xreplace(sums).xreplace(width)
    state = {n: e.xreplace(sums).xreplace(width) for n, e in cf.in_initial_values().items()}
    units = {kind: {n: e.xreplace(start) for n, e in state.items()} for kind, start in starts.items()}
    return root, clock, units


def _ntk_limits() -> tuple[sp.Expr, ...]:
    """From ``ntk_states``: γ₊, K(∞)/K(0) (K ∝ Σ(a² + b²)), a(∞) − a(0) of a unit a = b = 1, and the initial NTK
    coefficient K(0) = Z⁻² Σ(a² + b²)."""
    root, clock, units = ntk_states()
    norm = {
        when: p / 2 * sum((u["a"] ** 2 + u["b"] ** 2).xreplace({clock: value}) for u in units.values())
        for when, value in (("0", 1), ("oo", root))
    }
    moved = units["aligned"]["a"].xreplace({clock: root}) - 1
    return root, norm["oo"] / norm["0"], moved, norm["0"] / p


g_ntk, K_ratio, a_moved, K_0 = (
    PAPER.symbol(name, latex, lambda i=i: _ntk_limits()[i], real=True)
    for i, (name, latex) in enumerate(
        (
            ("gamma_+^NTK", r"\gamma_+"),
            ("K_oo/K_0", r"K_\infty/K_0"),
            ("a_moved", r"a_i(\infty) - a_i(0)"),
            ("K_0", "K_0"),
        )
    )
)
PAPER.claim(
    "sec7.ntk_scaling",
    sp.Eq(
        sp.Matrix(
            [
                sp.Limit(sp.sqrt(p) * (g_ntk - 1), p, sp.oo),
                sp.Limit(p * (K_ratio - 1), p, sp.oo),
                sp.Limit(sp.sqrt(p) * a_moved, p, sp.oo),
                K_0,
            ]
        ),
        sp.Matrix([S, S**2 / 2, S / 2, 2]),
        evaluate=False,
    ),
    where="§7.1 (NTK initialization)",
    assume=(
        "Z = √p, a_i(0), b_i(0) = ±1 with θ(0) = 0 (p even), so Σ0 = √p: γ₊ − 1 = O(S/√p), lazy",
        "each weight moves O(p^(-1/2)), the NTK by O(S²/p); K(0) = 2Σ0/Z = 2 stays fixed",
        "from the derived root and closed form of two_layer_scalar",
    ),
)
NTK_WIDTHS = (4, 16, 64, 256, 1024)


def weight_movement_exponent(output_scale: Callable[[int], float] = math.sqrt) -> float:
    """The fitted width exponent of max_i |a_i(T) − a_i(0)| of two_layer_scalar from ±1 starts with Z =
    ``output_scale(p)``, S = 1, integrated by DOP853 to T = 15 Z²/(2p) (15 e-foldings of the linear rate 2Σ0/Z)."""
    import numpy as np

    from numerics import trajectory
    from proofs_check.papers.xu_ziyin2025.phase import fit_exponent

    moved = []
    for width in NTK_WIDTHS:
        a0 = np.ones(width)
        b0 = np.where(np.arange(width) % 2 == 0, 1.0, -1.0)
        Z_ = output_scale(width)
        run = trajectory(SCALAR, [0.0, 15 * Z_**2 / (2 * width)], {"S": 1.0, "Z": Z_}, {"a": a0, "b": b0}, "scipy")
        moved.append(float(np.max(np.abs(run["a"][-1] - a0))))
    return fit_exponent(NTK_WIDTHS, moved)


PAPER.experiment(
    "sec7.ntk_scaling.numeric",
    lambda: Measurement(weight_movement_exponent(), "DOP853 at p = 4 … 1024, log-log fit", f"p = {NTK_WIDTHS}"),
    quantity=PAPER.symbol("delta_a", r"\partial\log\max_i|\Delta a_i|/\partial\log p", real=True),
    expected=-0.5,
    tolerance=0.05,
    where="§7.1 (NTK initialization)",
    assume=("Z = √p, ±1 starts with θ(0) = 0, S = 1",),
)
