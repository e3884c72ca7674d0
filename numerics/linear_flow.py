r"""Evaluate a ``derivations.projective.LinearFlowSolution``: :math:`u(t) = e^{Kt}x_0` and
:math:`\kappa(t) = (1 - 2J(t))^{-1/2}`, :math:`J(t) = x_0^\top W(t) x_0`,
:math:`W(t) = \int_0^t e^{K^\top\tau}Qe^{K\tau}d\tau`.

:math:`W` comes from one block exponential (Van Loan 1978, "Computing integrals involving the matrix exponential"):
:math:`Y(\tau) = e^{K^\top\tau}Qe^{K\tau}` solves the linear equation :math:`\dot Y = K^\top Y + YK`, i.e.
:math:`\operatorname{vec}Y = e^{L\tau}\operatorname{vec}Q` with :math:`L = I\otimes K^\top + K^\top\otimes I`, so
:math:`\operatorname{vec}W(t)` is the top-right column of :math:`\exp\begin{pmatrix}L & \operatorname{vec}Q\\ 0 & 0
\end{pmatrix}t`. (The classic block :math:`\begin{pmatrix}-K^\top & Q\\ 0 & K\end{pmatrix}` is smaller but carries
:math:`e^{-K^\top t}`, which for a decaying mode of :math:`K` grows and swamps :math:`W` in rounding.)

float64, once per distinct :math:`(K, Q)` (a parameter set and a unit's laws' constants), vectorized over the
starts and times: in the eigenbasis of :math:`K` where it is well conditioned (``EIGEN_CONDITION``; e.g. a symmetric
:math:`K`), which keeps the digits the quadratic form :math:`x_0^\top Wx_0` cancels when :math:`x_0` lies close to
the decaying modes; else ``scipy.linalg.expm`` of :math:`Kt` and of the block above. mpmath: ``mpmath.expm`` of
Van Loan's smaller block at the working precision plus guard digits for its growth. ``ValueError`` where
:math:`1 - 2J \le 0` (a finite-time blow-up, which a gradient flow of a loss bounded below does not have: a wrong
input or a lost digit, never returned), where the float64 values overflow (:math:`e^{2\lambda t}` beyond 1e308), or
where the estimated float64 rounding exceeds ``FLOAT64_PROMISE`` of the state's scale.
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

__all__ = [
    "EIGEN_CONDITION",
    "FLOAT64_PROMISE",
    "CompiledLinearFlow",
    "compile_linear_flow",
    "linear_flow_mpmath",
    "linear_flow_numpy",
]

FLOAT64_PROMISE = 1e-10
"""Largest estimated float64 rounding of the state, relative to its scale, that ``linear_flow_numpy`` returns."""
EIGEN_CONDITION = 1e3
"""Largest condition number of ``K``'s eigenvector basis for which float64 evaluates in that basis."""


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
    r"""``u`` (T, N, n) and ``kappa`` (T, N) in float64 for the N rows of ``K`` (N, n, n), ``Q`` (N, n, n) and
    ``x0`` (N, n) at the times ``t`` (T,), computed once per distinct ``(K, Q)``.

    Where ``K`` has a basis of eigenvectors ``V`` with condition number at most ``EIGEN_CONDITION`` (e.g. a
    symmetric ``K``), in the eigenbasis: :math:`u = V(e^{\lambda t}\circ c)`, :math:`c = V^{-1}x_0`, and
    :math:`J = \sum_{ij} c_i c_j (V^\top QV)_{ij}\,(e^{(\lambda_i+\lambda_j)t} - 1)/(\lambda_i + \lambda_j)`
    (``expm1``), which keeps the digits that the quadratic form :math:`x_0^\top W x_0` of the block exponential
    cancels when :math:`x_0` has a small component along the growing mode; else by the block exponentials.

    Raises:
        ValueError: a finite-time blow-up, an overflow, or an estimated rounding above ``FLOAT64_PROMISE``.
    """
    n = K.shape[-1]
    pairs = np.concatenate([K.reshape(len(K), -1), Q.reshape(len(Q), -1)], axis=-1)
    distinct, which = np.unique(pairs, axis=0, return_inverse=True)
    which = which.reshape(-1)
    Kd, Qd = distinct[:, : n * n].reshape(-1, n, n), distinct[:, n * n :].reshape(-1, n, n)
    u = np.empty((len(t), len(K), n))
    J, du, dJ = (np.empty((len(t), len(K))) for _ in range(3))
    du = np.empty_like(u)
    with np.errstate(all="ignore"):
        lam, V = np.linalg.eig(Kd)
        condition = np.linalg.cond(V)
        spectral = (np.isfinite(condition) & (condition <= EIGEN_CONDITION))[which]
        for rows, method in ((spectral, _spectral), (~spectral, _blocks)):
            if np.any(rows):
                picked = which[rows]
                values = method(Kd[picked], Qd[picked], x0[rows], t, lam[picked], V[picked], condition[picked])
                u[:, rows], J[:, rows], du[:, rows], dJ[:, rows] = values
        if not (np.all(np.isfinite(u)) and np.all(np.isfinite(J))):
            raise ValueError("the linear-flow closed form overflows float64 (expm(K t) too large): use dps=30")
        denominator = 1 - 2 * J
        _refuse_blow_up(denominator)
        kappa = 1 / np.sqrt(denominator)
        # the rounding of kappa u: kappa du + |u| dkappa, dkappa = kappa^3 dJ
        error = kappa[..., None] * du + np.abs(u) * (kappa**3 * dJ)[..., None]
        scale = np.maximum(np.max(np.abs(kappa[..., None] * u), axis=-1), np.max(np.abs(x0), axis=-1)[None])
        relative = np.max(error, axis=-1) / np.where(scale > 0, scale, 1)
    if not np.all(relative <= FLOAT64_PROMISE):
        raise ValueError(
            f"the linear-flow closed form loses digits in float64 here (estimated relative error "
            f"{float(np.max(relative)):.2g} > {FLOAT64_PROMISE:g}): use trajectory(..., dps=30)"
        )
    return u, kappa


Parts = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _spectral(
    K: np.ndarray, Q: np.ndarray, x0: np.ndarray, t: np.ndarray, lam: np.ndarray, V: np.ndarray, cond: np.ndarray
) -> Parts:
    """``u``, ``J`` and their estimated rounding in the eigenbasis (``linear_flow_numpy``), rows (N, ...)."""
    n = K.shape[-1]
    eps = np.finfo(float).eps * 4 * n
    c = np.linalg.solve(V, x0[..., None].astype(complex))[..., 0]
    dc = eps * cond[:, None] * np.max(np.abs(x0), axis=-1, keepdims=True)
    e = np.exp(t[:, None, None] * lam[None])  # (T, N, n)
    u = np.einsum("nij,tnj->tni", V, e * c[None]).real
    qq = np.einsum("nki,nkl,nlj->nij", V, Q, V)  # V^T Q V (a transpose, no conjugate: u is real)
    S = lam[:, :, None] + lam[:, None, :]
    St = t[:, None, None, None] * S[None]
    phi = np.where(St == 0, t[:, None, None, None], np.expm1(St) / np.where(S == 0, 1, S)[None])
    terms = qq[None] * phi
    J = np.einsum("ni,tnij,nj->tn", c, terms, c).real
    du = np.einsum("nij,tnj->tni", np.abs(V), np.abs(e) * (dc + eps * np.abs(c))[None])
    size = np.abs(terms)
    dJ = eps * cond[None] * np.einsum("ni,tnij,nj->tn", np.abs(c), size, np.abs(c))
    dJ = dJ + 2 * np.einsum("ni,tnij,nj->tn", dc, size, np.abs(c))
    return u, J, du, dJ


def _blocks(
    K: np.ndarray, Q: np.ndarray, x0: np.ndarray, t: np.ndarray, lam: np.ndarray, V: np.ndarray, cond: np.ndarray
) -> Parts:
    """``u``, ``J`` and their estimated rounding by ``expm(K t)`` and the block exponential of ``W``."""
    from scipy.linalg import expm  # imported here: scipy.linalg costs a fraction of a second

    n = K.shape[-1]
    G = _generator(K, Q)
    E = expm(t[:, None, None, None] * K[None])  # (T, N, n, n)
    B = expm(t[:, None, None, None] * G[None])
    W = np.swapaxes(B[..., : n * n, -1].reshape(*B.shape[:2], n, n), -1, -2)
    u = np.einsum("tnij,nj->tni", E, x0)
    J = np.einsum("ni,tnij,nj->tn", x0, W, x0)
    # expm to a few ulp of its norm, scaled by the size; the quadratic form to eps of its absolute terms
    eps = np.finfo(float).eps * 4 * (n * n + 1)
    du = eps * np.einsum("tnij,nj->tni", np.abs(E), np.abs(x0))
    dJ = eps * np.einsum("ni,tnij,nj->tn", np.abs(x0), np.abs(W), np.abs(x0)) + eps * np.abs(J)
    return u, J, du, dJ


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
