r"""Evaluate a ``derivations.projective.LinearFlowSolution``: :math:`u(t) = e^{Kt}x_0` and
:math:`\kappa(t) = (1 - 2J(t))^{-1/2}`, :math:`J(t) = x_0^\top W(t) x_0`,
:math:`W(t) = \int_0^t e^{K^\top\tau}Qe^{K\tau}d\tau`.

:math:`W` comes from one block exponential (Van Loan 1978, "Computing integrals involving the matrix exponential"):
:math:`Y(\tau) = e^{K^\top\tau}Qe^{K\tau}` solves the linear equation :math:`\dot Y = K^\top Y + YK`, i.e.
:math:`\operatorname{vec}Y = e^{L\tau}\operatorname{vec}Q` with :math:`L = I\otimes K^\top + K^\top\otimes I`, so
:math:`\operatorname{vec}W(t)` is the top-right column of :math:`\exp\begin{pmatrix}L & \operatorname{vec}Q\\ 0 & 0
\end{pmatrix}t`. (The classic block :math:`\begin{pmatrix}-K^\top & Q\\ 0 & K\end{pmatrix}` is smaller but carries
:math:`e^{-K^\top t}`, which for a decaying mode of :math:`K` grows and swamps :math:`W` in rounding.)

float64: ``scipy.linalg.expm`` on stacks of matrices, one per distinct :math:`(K, Q)` (a parameter set and the
laws' constants of a unit) and time; mpmath: ``mpmath.expm`` at the working precision plus guard digits for the
norm of the exponent. ``ValueError`` where :math:`1 - 2J \le 0` (a finite-time blow-up, which a gradient flow of a
loss bounded below does not have: a wrong input or a lost digit, never returned), where the float64 values
overflow, or where the estimated float64 rounding exceeds ``FLOAT64_PROMISE`` of the state's scale.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np

from .arithmetic import Arithmetic
from .clocks import register_clock
from .compiled import Lambdified, lambdified
from .evaluate import apply

if TYPE_CHECKING:
    from derivations.projective import LinearFlowSolution

__all__ = ["FLOAT64_PROMISE", "CompiledLinearFlow", "compile_linear_flow", "linear_flow_mpmath", "linear_flow_numpy"]

FLOAT64_PROMISE = 1e-10
"""Largest estimated float64 rounding of the state, relative to its scale, that ``linear_flow_numpy`` returns."""


@dataclass(frozen=True)
class CompiledLinearFlow:
    """The compiled entries of ``K`` and ``Q`` (row by row) and of the start; ``u`` and ``kappa`` are the clock
    names."""

    u: tuple[str, ...]
    kappa: str
    K: tuple[Lambdified, ...]
    Q: tuple[Lambdified, ...]
    start: tuple[Lambdified, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The clock names: ``u_1 … u_n`` and ``kappa``."""
        return (*self.u, self.kappa)

    def values(self, env: Mapping[str, Any], t: np.ndarray, ctx: Arithmetic) -> dict[str, Any]:
        """Each clock at the times ``t`` (T, 1, 1) from ``env`` (arrays (1, batch, p) or scalars): arrays
        (T, batch, p) in the arithmetic ``ctx``."""
        n = len(self.u)
        pieces = [apply(f, env, ctx) for f in (*self.K, *self.Q, *self.start)]
        dtype = float if ctx.machine else object
        arrays = [np.asarray(p, dtype=dtype) for p in pieces]
        shape = np.broadcast_shapes(*(a.shape for a in arrays), (1, 1, 1))
        flat = [np.broadcast_to(a, shape).reshape(-1) for a in arrays]
        K = np.stack(flat[: n * n], axis=-1).reshape(-1, n, n)
        Q = np.stack(flat[n * n : 2 * n * n], axis=-1).reshape(-1, n, n)
        x0 = np.stack(flat[2 * n * n :], axis=-1)
        times = np.asarray(t, dtype=dtype).reshape(-1)
        u, kappa = (linear_flow_numpy if ctx.machine else linear_flow_mpmath)(K, Q, x0, times)
        out = (len(times), *shape[1:])
        result = {name: u[..., i].reshape(out) for i, name in enumerate(self.u)}
        result[self.kappa] = kappa.reshape(out)
        return result


def compile_linear_flow(solution: LinearFlowSolution, ctx: Arithmetic) -> CompiledLinearFlow:
    """The compiled form of ``solution`` in the arithmetic ``ctx`` (registered with ``numerics.clocks``)."""
    return CompiledLinearFlow(
        tuple(str(u) for u in solution.u),
        str(solution.kappa),
        tuple(lambdified(e, ctx) for e in solution.K),
        tuple(lambdified(e, ctx) for e in solution.Q),
        tuple(lambdified(e, ctx) for e in solution.start),
    )


def _generator(K: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """The block matrices ``[[L, vec Q], [0, 0]]`` (``L = I (x) K^T + K^T (x) I``), one per leading index, in the
    dtype of ``K`` (object arrays of ``mpf`` stay exact to the working precision)."""
    n = K.shape[-1]
    eye = np.eye(n, dtype=int).astype(K.dtype)
    m = n * n + 1
    out = np.zeros((K.shape[0], m, m), dtype=K.dtype)
    for row in range(K.shape[0]):
        KT = K[row].T
        out[row, : n * n, : n * n] = np.kron(eye, KT) + np.kron(KT, eye)
        out[row, : n * n, -1] = Q[row].T.reshape(-1)  # vec: the columns stacked
    return out


def _refuse_blow_up(denominator: Any) -> None:
    if not np.all(np.asarray(denominator > 0, dtype=bool)):
        raise ValueError(
            "the linear-flow closed form gives 1 - 2 int s(u) <= 0, a finite-time blow-up, which a gradient flow of a "
            "loss bounded below does not have: the parameters or the start are outside the model's domain, or the "
            "evaluation lost its digits (try trajectory(..., dps=40))"
        )


def linear_flow_numpy(K: np.ndarray, Q: np.ndarray, x0: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``u`` (T, N, n) and ``kappa`` (T, N) in float64 for the N rows of ``K`` (N, n, n), ``Q`` (N, n, n) and
    ``x0`` (N, n) at the times ``t`` (T,).

    Raises:
        ValueError: a finite-time blow-up, an overflow, or an estimated rounding above ``FLOAT64_PROMISE``.
    """
    from scipy.linalg import expm  # imported here: scipy.linalg costs a fraction of a second

    n = K.shape[-1]
    pairs = np.concatenate([K.reshape(len(K), -1), Q.reshape(len(Q), -1)], axis=-1)
    distinct, which = np.unique(pairs, axis=0, return_inverse=True)
    which = which.reshape(-1)
    Kd, Qd = distinct[:, : n * n].reshape(-1, n, n), distinct[:, n * n :].reshape(-1, n, n)
    G = _generator(Kd, Qd)
    with np.errstate(all="ignore"):
        E = expm(t[:, None, None, None] * Kd[None])  # (T, D, n, n)
        B = expm(t[:, None, None, None] * G[None])
        W = np.swapaxes(B[..., : n * n, -1].reshape(*B.shape[:2], n, n), -1, -2)
        E, W = E[:, which], W[:, which]  # (T, N, n, n)
        u = np.einsum("tnij,nj->tni", E, x0)
        J = np.einsum("ni,tnij,nj->tn", x0, W, x0)
        if not (np.all(np.isfinite(u)) and np.all(np.isfinite(J))):
            raise ValueError("the linear-flow closed form overflows float64 (expm(K t) too large): use dps=30")
        denominator = 1 - 2 * J
        _refuse_blow_up(denominator)
        kappa = 1 / np.sqrt(denominator)
        # rounding: expm to a few ulp of its norm (scaled by the size), then kappa^3 dJ / 2 ... on kappa u
        eps = np.finfo(float).eps * 4 * (n * n + 1)
        du = eps * np.einsum("tnij,nj->tni", np.abs(E), np.abs(x0))
        dJ = eps * np.einsum("ni,tnij,nj->tn", np.abs(x0), np.abs(W), np.abs(x0)) + eps * np.abs(J)
        error = kappa[..., None] * du + np.abs(u) * (kappa**3 * dJ)[..., None]
        scale = np.maximum(np.max(np.abs(kappa[..., None] * u), axis=-1), np.max(np.abs(x0), axis=-1)[None])
        relative = np.max(error, axis=-1) / np.where(scale > 0, scale, 1)
    if not np.all(relative <= FLOAT64_PROMISE):
        raise ValueError(
            f"the linear-flow closed form loses digits in float64 here (estimated relative error "
            f"{float(np.max(relative)):.2g} > {FLOAT64_PROMISE:g}): use trajectory(..., dps=30)"
        )
    return u, kappa


def linear_flow_mpmath(K: np.ndarray, Q: np.ndarray, x0: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``u`` (T, N, n) and ``kappa`` (T, N) at the working mpmath precision (object arrays of ``mpf``): one
    ``mpmath.expm`` per row and time of Van Loan's block ``[[-K^T, Q], [0, K]] t`` (size 2n, a seventh of the cost
    of the n^2 + 1 block at n = 4), whose bottom-right block is ``expm(K t)`` and whose top-right block ``G`` gives
    ``W = expm(K t)^T G``; the digits that its growing ``expm(-K^T t)`` costs are paid by guard digits.

    Raises:
        ValueError: a finite-time blow-up.
    """
    n = K.shape[-1]
    T, N = len(t), len(K)
    u = np.empty((T, N, n), dtype=object)
    kappa = np.empty((T, N), dtype=object)
    dps = mpmath.mp.dps
    # mpf from the start: sums of Python floats would round in double precision
    K, Q, x0 = (np.vectorize(mpmath.mpf, otypes=[object])(np.asarray(v, dtype=object)) for v in (K, Q, x0))
    for row in range(N):
        x = mpmath.matrix([x0[row, i] for i in range(n)])
        block = mpmath.zeros(2 * n, 2 * n)
        for i in range(n):
            for j in range(n):
                block[i, j] = -K[row, j, i]
                block[i, n + j] = Q[row, i, j]
                block[n + i, n + j] = K[row, i, j]
        size_K = mpmath.mnorm(mpmath.matrix(K[row].tolist()), 1)
        size_Q = mpmath.mnorm(mpmath.matrix(Q[row].tolist()), 1)
        for index in range(T):
            time = mpmath.mpf(t[index])
            # expm(-K^T t) and expm(K t) up to e^{|K t|} each: W (their product's scale or less) loses up to
            # 2 |K t| / ln 10 digits; the squaring loses a few more
            guard = 10 + int((2 * size_K * abs(time) + mpmath.log(1 + size_Q * abs(time))) / mpmath.log(10))
            with mpmath.workdps(dps + guard):
                B = mpmath.expm(block * time)
                E = B[n:, n:]
                W = E.T * B[:n, n:]
                ux = E * x
                J = (x.T * W * x)[0, 0]
                denominator = 1 - 2 * J
                _refuse_blow_up(denominator)
                k = 1 / mpmath.sqrt(denominator)
            for i in range(n):
                u[index, row, i] = +ux[i]
            kappa[index, row] = +k
    return u, kappa


# by name: loading this module (e.g. to unpickle a cached closed form) imports neither derivations nor SymPy
register_clock("derivations.projective.LinearFlowSolution", compile_linear_flow)
