"""Claim of Kunin et al. 2025, Algorithm 1 (§3): the loop halts when every dormant neuron has zero utility gradient.

The halting rule ``while D ≠ ∅ and ∇_{Θ_D} L ≠ 0`` (spec §3, from the authors' clarifications [R]) stops AGF with
dormant neurons left over when none of them can learn anything (the paper's example: dead ReLUs). The package's
network has no ReLU, so the test problem here is the linear analogue, ours (the spec gives none): a diagonal linear
network whose inputs include two all-zero feature columns. The neurons on those features are dead, since their
utility U_i = u_i v_i (Xᵀr)_i/n and its gradient vanish for every residual r. The targets keep a component
orthogonal to the live features, so at the halt the residual is not zero: the loop stops because of the dead
neurons, not because the targets are fitted.

The check recomputes, from the data and each recorded state alone (not from the algorithm's internals), the
dormant neurons' utility gradients (the moments (Xᵀr)_i/n on their supports). It requires that the run stopped
with the zero-utility reason, within its jump budget, and with the dead neurons still dormant. Every dormant
gradient must be zero at the last state, and some dormant gradient must be nonzero at every earlier state, so the
run did not halt early. The last loss must equal the least-squares loss on the live features, computed by
``numpy.linalg.lstsq``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from proofs_check.claims import Outcome
from proofs_check.papers.kunin2025.claims import PAPER

__all__ = ["DEAD", "HALT_REASON", "halting_check", "halting_problem", "halting_run"]

DEAD = (2, 3)
"""The all-zero feature columns of the test problem (d = 4): their neurons are dead."""
HALT_REASON = "no dormant neuron reaches its threshold (zero"
"""The start of ``AGFResult.halted`` when the loop stops because no dormant neuron has utility to accumulate."""
ALPHA = 1e-6
MAX_JUMPS = 20
ZERO = 1e-12
"""Relative size (to rms(x) rms(y)) below which a utility gradient counts as zero; the dead ones are exactly 0."""


def halting_problem() -> tuple[Any, Any]:
    """(X: 12 x 4, y): Gaussian X (seed 3) with columns ``DEAD`` set to 0; y = X(2, −1, 0, 0) + ½e with e
    orthogonal to the live columns, so the least-squares loss on the live features is ‖e‖²/(8n) > 0."""
    import numpy as np

    rng = np.random.default_rng(3)
    X = rng.normal(size=(12, 4))
    X[:, list(DEAD)] = 0.0
    e = rng.normal(size=12)
    q = np.linalg.qr(X[:, [i for i in range(4) if i not in DEAD]])[0]
    e -= q @ (q.T @ e)
    return X, X @ np.array([2.0, -1.0, 0.0, 0.0]) + 0.5 * e


def halting_run() -> Any:
    """``numerics.alternating.agf`` on the diagonal network (support = identity, u = √2α, v = 0, α = 1e-6)."""
    import numpy as np

    from numerics.alternating import agf

    X, y = halting_problem()
    d = X.shape[1]
    a0, w0 = np.full(d, np.sqrt(2) * ALPHA), np.zeros((d, d))
    return agf(X, y, a0, w0, ALPHA, support=np.eye(d, dtype=bool), max_jumps=MAX_JUMPS)


def halting_check(run: Callable[[], Any] = halting_run) -> Outcome:
    """The halting criteria of the module docstring on the ``AGFResult`` of ``run`` (default ``halting_run``)."""
    import numpy as np

    X, y = halting_problem()
    n, d = X.shape
    scale = np.sqrt(np.mean(X**2) * np.mean(y**2))
    result = run()

    def dormant_gradients(jump: Any) -> np.ndarray:
        # diagonal network: f = X β with β_i = a_i w_ii; dormant neuron i's utility gradient is (Xᵀr)_i/n
        beta = np.asarray(jump.a)[:, 0] * np.diag(np.asarray(jump.w))
        moments = X.T @ (y - X @ beta) / n
        return np.abs(np.delete(moments, list(jump.active)))

    failures = []
    if not result.halted.startswith(HALT_REASON):
        failures.append(f"the run stopped with {result.halted!r}, not because no dormant neuron has utility")
    if len(result.jumps) - 1 >= MAX_JUMPS:
        failures.append(f"the run used its whole budget of {MAX_JUMPS} jumps (it did not halt)")
    last = result.jumps[-1]
    if set(DEAD) & set(last.active):
        failures.append(f"dead neurons {sorted(set(DEAD) & set(last.active))} were activated")
    final = dormant_gradients(last)
    if final.size == 0 or final.max() > ZERO * scale:
        failures.append(f"at the halt the dormant utility gradients are {final.tolist()} (must be nonempty and 0)")
    early = [k for k, jump in enumerate(result.jumps[:-1]) if dormant_gradients(jump).max() <= ZERO * scale]
    if early:
        failures.append(f"states {early} before the halt already had zero dormant utility gradient")
    live = [i for i in range(d) if i not in DEAD]
    residual = y - X[:, live] @ np.linalg.lstsq(X[:, live], y, rcond=None)[0]
    best = float(residual @ residual / (2 * n))
    if abs(last.loss - best) > 1e-6 * best:
        failures.append(f"the last loss {last.loss:.6g} is not the least-squares loss {best:.6g} on the live features")
    detail = (
        f"dead features {DEAD}; halted after {len(result.jumps) - 1} jumps ({result.halted}); active sets "
        f"{result.active_sets}; loss levels {np.round(result.loss_levels, 5).tolist()} (live least squares "
        f"{best:.5g} > 0); dormant gradients at the halt {final.tolist()}"
    )
    if failures:
        return Outcome.refuted("Algorithm 1 on a diagonal network with dead features", {"failures": failures}, detail)
    return Outcome.numeric(f"Algorithm 1 (numerics.alternating.agf, α = {ALPHA:g}) on the dead-feature problem", detail)


PAPER.claim(
    "algorithm1.halting",
    "Algorithm 1 halts, with dormant neurons left, once every dormant neuron has zero utility gradient "
    "(∇_{Θ_D} L = 0), and not before: dead neurons stay dormant while the residual is not zero",
    where="Algorithm 1",
    assume=(
        "halting rule `while D is not empty and ∇_{Θ_D} L ≠ 0` as the authors clarified it (§3); the paper's "
        "example is dead ReLUs, here the linear analogue (the package has no ReLU)",
        "test problem ours: diagonal linear network, X 12 x 4 (seed 3) with features 2, 3 all zero, "
        "y = X(2, −1, 0, 0) + ½e, e orthogonal to the live features; u = √2α, v = 0, α = 1e-6",
    ),
    check=halting_check,
)
