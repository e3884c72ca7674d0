"""The authors' own tasks, timed side by side with the package in one run (issue 25).

Each task re-implements the authors' loop in plain numpy (no torch), with the source file cited, runs it on the
same data as the package, checks that the two agree, and prints the time of each and the ratio
authors-style / package (above 1: the package is faster). Minimum of interleaved repetitions, so that a change of
load on the shared machine affects both alike.

(a) GD on a 2×2×2 linear network, 4000 steps, the weights recorded every step:
    ``LinearNetwork.train`` of yoonsoonam119/linear_first ``networks/linear_network.py`` vs
    ``trajectory(linear_network(2, 2), ..., method="gd")``.
(b) AGF on Kunin et al.'s d = 5 diagonal linear network (test A of the AGF spec, alpha = 1e-100) plus the
    Pesme–Flammarion times: ``AGF`` and ``pesme_flammarion`` of danielkunin/alternating-gradient-flows
    ``diagonal-linear-network.ipynb`` (cells 5 and 6) vs ``numerics.agf`` + ``kunin2025.settings.pesme_flammarion``.
(c) Dominé et al.'s unaligned λ-balanced QQᵀ solution, 3×3×3, 200 times: ``QQT_lambda_balanced.forward`` of
    Nico31415/LinearNetworkDynamics ``qqt_lambda_balanced.py`` (float64) vs
    ``proofs_check.papers.domine2025.qqt.qqt`` (float64 output).

Not here: (d) the modular-addition AGF from the authors' initialization (theirs 96.6 s; the package's
``agf(activation="quadratic", max_jumps=2)`` had not returned after 240 s). Its utility phase is now 4-16 times
faster (the block-diagonal Jacobian of the dormant flow, 4 to 20 neurons), but on a reduced variant (the authors'
template at p = 11, 6 neurons, alpha = 1e-3) the first cost minimization exhausts ``max_evaluations`` = 4·10⁴,
before and after issue 25, so there is no package time to compare yet; the authors' loop (torch, width 100) is
not re-implemented here.

``python benchmarks/authors.py`` (about a minute; ``--repeats 1`` for a smoke run).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.optimize

from derivations.models.linear_network import linear_network
from numerics import agf, trajectory
from numerics.linear_network import init_to_weights
from proofs_check.papers.domine2025.qqt import qqt, unaligned_start
from proofs_check.papers.kunin2025.reference_problems import dln_problem_a
from proofs_check.papers.kunin2025.settings import pesme_flammarion

# timing.py lies beside this script, which is also loaded by path (tests/test_authors_benchmark.py)
sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import interleaved


@dataclass(frozen=True)
class Task:
    """One task: the authors-style and the package's seconds (minimum of the repetitions) and their largest
    disagreement, relative to the scale of the compared values."""

    what: str
    authors: float
    package: float
    disagreement: float

    @property
    def ratio(self) -> float:
        """authors-style seconds / package seconds (> 1: the package is faster)."""
        return self.authors / self.package


def relative(got: np.ndarray, reference: np.ndarray) -> float:
    return float(np.max(np.abs(got - reference)) / np.max(np.abs(reference)))


# ---------------------------------------------------------------- (a) GD, Nam et al.
def nam_train(W1: np.ndarray, W2: np.ndarray, X: np.ndarray, Y: np.ndarray, epochs: int, lr: float):
    """``LinearNetwork.train`` (linear_first/networks/linear_network.py): code orientation f = W2 W1 x, X (in ×
    batch), Y (out × batch); before each step the weights are copied into lists and the loss mean((W2W1X − Y)²)
    recorded, then ``backward``: dW1 = W2ᵀ(W2W1X − Y)Xᵀ/n, dW2 = (W2W1X − Y)XᵀW1ᵀ/n."""
    W1, W2 = W1.copy(), W2.copy()
    w1s, w2s, losses = [], [], []
    n = X.shape[1]
    for _ in range(epochs):
        losses.append(np.mean((W2 @ W1 @ X - Y) ** 2))
        w1s.append(W1.copy())
        w2s.append(W2.copy())
        forward = W2 @ W1 @ X
        dW1 = 1 / n * W2.T @ (forward - Y) @ X.T
        dW2 = 1 / n * (forward - Y) @ X.T @ W1.T
        W2 -= lr * dW2
        W1 -= lr * dW1
    return w1s, w2s, losses


def task_gd(repeats: int, steps: int = 4000, lr: float = 0.01) -> Task:
    rng = np.random.default_rng(0)
    n = 50
    X = rng.standard_normal((2, n))
    Y = rng.standard_normal((2, 2)) @ X + 0.1 * rng.standard_normal((2, n))
    W1, W2 = 0.1 * rng.standard_normal((2, 2)), 0.1 * rng.standard_normal((2, 2))  # code orientation
    # the package's population moments of the same data (paper orientation: x in R^d, y in R^c, f = W2ᵀW1ᵀx)
    params = {"Sxx": X @ X.T / n, "Sxy": X @ Y.T / n, "Syy": Y @ Y.T / n}
    times = lr * np.arange(steps)
    model = linear_network(2, 2)

    def package() -> dict[str, np.ndarray]:
        return trajectory(model, times, params, {"W1": W1.T, "W2T": W2}, method="gd", lr=lr)

    package()  # compile (cached on disk after the first run)
    authors_s, package_s = interleaved([lambda: nam_train(W1, W2, X, Y, steps, lr), package], repeats)
    w1s, w2s, _ = nam_train(W1, W2, X, Y, steps, lr)
    P1, P2 = init_to_weights(package())
    theirs = np.concatenate([np.array(w1s).reshape(steps, -1), np.array(w2s).reshape(steps, -1)], axis=1)
    ours = np.concatenate(
        [np.swapaxes(P1, -1, -2).reshape(steps, -1), np.swapaxes(P2, -1, -2).reshape(steps, -1)], axis=1
    )
    return Task(f"(a) GD, 2×2×2 linear network, {steps} steps recorded", authors_s, package_s, relative(ours, theirs))


# ---------------------------------------------------------------- (b) AGF, Kunin et al.
def kunin_agf(X: np.ndarray, y: np.ndarray, alpha: float) -> tuple[list[float], list[np.ndarray], list[float]]:
    """``AGF`` of diagonal-linear-network.ipynb (cell 5), without its prints: utility maximization in closed
    form (dormant i's norm grows as sqrt(2) alpha sqrt(cosh(4 U_i t + c_i)), U_i = |grad_i|/2, until it reaches
    1), then cost minimization by the pseudo-inverse least squares on the active coordinates; coordinates whose
    coefficient changes sign go back to dormant. Times are unscaled (rescaled time × log(1/alpha))."""
    n, d = X.shape
    residual = y
    dormant, active = list(range(d)), []
    scale = np.sqrt(2) * alpha
    t = 0.0
    norm, signs = scale * np.ones(d), np.zeros(d)
    levels, times, coefs = [0.5 * np.mean(residual**2)], [t], [np.zeros(d)]
    while dormant:
        grad = -residual @ X / n
        utility = np.abs(grad[dormant]) / 2
        offset = signs[dormant] * np.sign(grad[dormant]) * np.arccosh(norm[dormant] ** 2 / scale**2)
        candidates = (np.arccosh(1 / scale**2) - offset) / (4 * utility)
        tau = np.min(candidates)
        chosen = dormant[int(np.argmin(candidates))]
        norm[dormant] = scale * np.sqrt(np.cosh(4 * utility * tau + offset))
        signs[dormant] = np.sign(4 * utility * tau + offset) * np.sign(grad[dormant])
        t += tau
        active.append(chosen)
        dormant.remove(chosen)
        beta = np.zeros(d)
        beta[active] = np.linalg.pinv(X[:, active].T @ X[:, active]) @ (y @ X)[active]
        flipped = [i for i in active if beta[i] * coefs[-1][i] < 0]
        if flipped:
            for i in flipped:
                active.remove(i)
                dormant.append(i)
            beta = np.zeros(d)
            beta[active] = np.linalg.pinv(X[:, active].T @ X[:, active]) @ (y @ X)[active]
        residual = y - X @ beta
        levels.append(0.5 * np.mean(residual**2))
        times.append(t)
        coefs.append(beta.copy())
    return levels, coefs, times


def kunin_pesme_flammarion(X: np.ndarray, y: np.ndarray, tol_grad: float = 1e-9) -> list[float]:
    """``pesme_flammarion`` of diagonal-linear-network.ipynb (cell 6): s moves along −∇L (∇L = −Xᵀ(y − Xβ), not
    divided by n: its times are n × the spec's) until a coordinate reaches ±1, then β solves the sign-constrained
    least squares (``scipy.optimize.lsq_linear``, 'trf'). Returns the times."""
    d = X.shape[1]
    t, s = 0.0, np.zeros(d)
    grad = -y @ X
    times = [0.0]
    while np.linalg.norm(grad) > tol_grad:
        moving = np.where(np.abs(grad) > tol_grad)[0]
        deltas = [(s[i] - b) / grad[i] for i in moving for b in (1, -1) if (s[i] - b) / grad[i] > 0]
        delta = min(deltas)
        t += delta
        s = np.clip(s - delta * grad, -1.0, 1.0)
        lower, upper = np.full(d, -np.inf), np.full(d, np.inf)
        lower[np.isclose(s, 1, atol=1e-9)] = 0
        upper[np.isclose(s, -1, atol=1e-9)] = 0
        interior = ~np.isclose(s, 1, atol=1e-9) & ~np.isclose(s, -1, atol=1e-9)
        lower[interior], upper[interior] = -1e-10, 1e-10
        beta = scipy.optimize.lsq_linear(X, y, bounds=(lower, upper), method="trf").x
        grad = -(y - X @ beta) @ X
        times.append(t)
    return times


def task_agf(repeats: int, alpha: float = 1e-100) -> Task:
    X, y = dln_problem_a()
    d, n = X.shape[1], len(y)

    def authors() -> tuple[list[float], list[float]]:
        return kunin_agf(X, y, alpha)[2], kunin_pesme_flammarion(X, y)

    def package() -> tuple[np.ndarray, list[float]]:
        run = agf(X, y, np.full(d, np.sqrt(2) * alpha), np.zeros((d, d)), alpha, support=np.eye(d, dtype=bool))
        return run.jump_times, [s.time for s in pesme_flammarion(X, y)]

    authors_s, package_s = interleaved([authors, package], repeats)
    (agf_theirs, pf_theirs), (agf_ours, pf_ours) = authors(), package()
    # their AGF times are in units of log(1/alpha) (arccosh(1/(2 alpha²)) = 2 log(1/alpha) + O(alpha⁴)); their
    # PF's gradient is not divided by n
    theirs = np.concatenate([np.array(agf_theirs[1:]) / np.log(1 / alpha), np.array(pf_theirs[1:]) * n])
    ours = np.concatenate([agf_ours, pf_ours[1:]])
    disagreement = relative(ours, theirs) if theirs.shape == ours.shape else np.inf
    return Task(f"(b) AGF + PF times, d = {d} diagonal network, alpha = {alpha:g}", authors_s, package_s, disagreement)


# ---------------------------------------------------------------- (c) QQᵀ, Dominé et al.
class DomineQQT:
    """``QQT_lambda_balanced`` (LinearNetworkDynamics/qqt_lambda_balanced.py) for equal input and output
    dimension (its branch without the extra-dimension terms), code orientation: W1 (hidden × in), W2 (out ×
    hidden), X (batch × in, whitened), Y (batch × out). The constructor's SVDs and B, C, A, X matrices, then
    ``forward(t)``: the decaying exponentials e^{−μt}, the centre matrix, its Cholesky factor and two solves."""

    def __init__(self, W1: np.ndarray, W2: np.ndarray, X: np.ndarray, Y: np.ndarray) -> None:
        self.lam = (W2.T @ W2 - W1 @ W1.T)[0][0]
        n, self.d = X.shape
        Syx = Y.T @ X / n
        U_, S_, Vt_ = np.linalg.svd(Syx)
        self.U_, self.V_ = U_, Vt_.T
        U, _, Vt = np.linalg.svd(W2 @ W1)
        Xm = (np.sqrt(self.lam**2 + 4 * S_**2) - 2 * S_) / self.lam
        A = 1 / np.sqrt(1 + Xm**2)
        self.A, self.XA = np.diag(A), np.diag(Xm * A)
        s1, s2 = np.linalg.svd(W1)[1], np.linalg.svd(W2)[1]
        S1, S2 = np.diag(s1), np.diag(s2)
        self.B = S2.T @ U.T @ U_ @ (self.XA + self.A) + S1 @ Vt @ self.V_ @ (self.A - self.XA)
        self.C = S2.T @ U.T @ U_ @ (self.A - self.XA) - S1 @ Vt @ self.V_ @ (self.XA + self.A)
        self.eval = np.sqrt(S_**2 + self.lam**2 / 4)
        self.eval_inv = np.diag(1.0 / self.eval)
        if np.isclose(np.linalg.det(self.B), 0):
            raise ArithmeticError("B is singular")
        self.B_inv = np.linalg.inv(self.B)

    def forward(self, t: float) -> np.ndarray:
        eye = np.eye(self.d)
        decay = np.diag(np.exp(-self.eval * t))
        decay2 = np.diag(np.exp(-2 * self.eval * t))
        tail = decay @ self.C.T @ self.B_inv.T @ decay
        Z = np.vstack(
            [
                self.V_ @ ((self.A - self.XA) - (self.A + self.XA) @ tail),
                self.U_ @ ((self.A + self.XA) + (self.A - self.XA) @ tail),
            ]
        )
        centre = (
            4 * decay @ self.B_inv @ self.B_inv.T @ decay
            + (eye - decay2) @ self.eval_inv
            - decay @ self.B_inv @ self.C @ (decay2 - eye) @ self.eval_inv @ self.C.T @ self.B_inv.T @ decay
        )
        L = np.linalg.cholesky(centre)
        return np.linalg.solve(L.T, np.linalg.solve(L, Z.T)).T @ Z.T


def task_qqt(repeats: int, size: int = 3, count: int = 200, lr: float = 0.05, lam: float = 1.0) -> Task:
    W1, W2, Sxy = (np.vectorize(float)(m) for m in unaligned_start(size, size, size, lam, seed=1))
    n = 4 * size
    # a whitened input (XᵀX/n = I) and outputs with Yᵀ X / n = Σyx
    X = np.sqrt(n) * np.linalg.qr(np.random.default_rng(2).standard_normal((n, size)))[0]
    Y = X @ Sxy
    times = lr * np.arange(count)

    def authors() -> np.ndarray:
        model = DomineQQT(W1.T, W2.T, X, Y)
        return np.array([model.forward(t) for t in times])

    def package() -> np.ndarray:
        return qqt(W1, W2, Sxy, times)

    authors_s, package_s = interleaved([authors, package], repeats)
    return Task(
        f"(c) unaligned QQᵀ, {size}×{size}×{size}, {count} times up to {times[-1]:.3g}",
        authors_s,
        package_s,
        relative(package(), authors()),
    )


TASKS: dict[str, Callable[[int], Task]] = {"gd": task_gd, "agf": task_agf, "qqt": task_qqt}


def table(tasks: list[Task]) -> str:
    lines = [
        "| authors' task | authors-style (s) | package (s) | ratio authors/package | disagreement |",
        "|---|---:|---:|---:|---:|",
    ]
    for task in tasks:
        lines.append(
            f"| {task.what} | {task.authors:.3g} | {task.package:.3g} | {task.ratio:.3g} | {task.disagreement:.1e} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="repetitions per task (the minimum is reported)")
    parser.add_argument("--only", choices=sorted(TASKS), action="append", help="run only these tasks")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        raise ValueError(f"--repeats must be >= 1, got {args.repeats}")
    tasks = [TASKS[name](args.repeats) for name in (args.only or TASKS)]
    print(table(tasks))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
