r"""The unaligned λ-balanced solution of Dominé et al. 2025 evaluated: :math:`P(t) = Q(t)Q(t)^\top` from any
λ-balanced start (derivation and conventions: ``proofs_check.papers.domine2025.unaligned``).

Paper orientation (:math:`W_1 \in \mathbb R^{d\times p}`, :math:`W_2 \in \mathbb R^{p\times c}`, :math:`f = W_2^\top
W_1^\top x`; ``orientation="code"`` takes the transposes), whitened input, :math:`Q = [W_1; W_2^\top]`. With
:math:`F = [[-\tfrac\lambda2 I_d, \Sigma_{xy}], [\Sigma_{yx}, \tfrac\lambda2 I_c]] = O\,\mathrm{diag}(\mu)O^\top` and
:math:`q = O^\top Q_0`:

.. math:: P(t) = O\,e^{\mu t}q\,M^{-1}q^\top e^{\mu t}O^\top,\qquad
          M = I_p + q^\top\mathrm{diag}\big(\tfrac{e^{2\mu t} - 1}{2\mu}\big)q

(derivation step 5). M carries the factors :math:`e^{2\mu t}` that :math:`M^{-1}` cancels against
:math:`e^{\mu t}q`, so evaluated as written about :math:`2\max|\mu|t/\ln 10` digits are lost (in float64, 1e-5 at
:math:`\max|\mu| t \approx 12`; a singular M by :math:`\approx 40`). Two evaluations:

- mpmath (``mpmath.eigsy``, ``mpmath.inverse``) with the working precision raised by the lost digits
  (``working_digits``; budget ``MAX_DIGITS``): ``dps=N`` returns ``mpmath.mpf`` arrays correct to about N digits
  (``mpf`` inputs keep their digits).
- float64 without the cancellation (:func:`qqt_float64`), where F has exactly p positive eigenvalues
  (:math:`\mu_+`, e.g. d = p = c with λ ≠ 0) and :math:`q_+` (their rows of q) is invertible: with
  :math:`G = e^{\mu_+t}q_+`, :math:`h = (1 - e^{-2\mu_+t})/(2\mu_+)` and :math:`N = q_-^\top k(\mu_-) q_-` (the
  other modes, bounded), :math:`M = I + G^\top hG + N`, hence
  :math:`P_{++} = GM^{-1}G^\top = Y^{-1}` with :math:`Y = e^{-\mu_+t}q_+^{-\top}(I + N)q_+^{-1}e^{-\mu_+t} + h`
  and :math:`P = O\,ZY^{-1}Z^\top O^\top`, :math:`Z = [I;\ e^{\mu_-t}q_-q_+^{-1}e^{-\mu_+t}]`: only decaying
  exponentials, Y positive definite (Cholesky). Its error is estimated as
  :math:`10(d + c)\,\epsilon\,(\mathrm{cond}\,Y + \mathrm{cond}(q_+)^2 + \|F\|t + 1)` (ε the float64 unit
  round-off; the observed error was at most 5 % of it on random starts, ``tests``).

``dps=None`` returns float64: :func:`qqt_float64` at the times where the estimate is at most
``FLOAT64_TOLERANCE`` relative to max|P(t)|, mpmath at 16 digits at the others (and wherever the float64 form does
not apply).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import mpmath
import numpy as np

from numerics.aligned import orthonormal_frame
from numerics.linear_network import oriented_weights
from numerics.validation import finite_array

__all__ = [
    "FLOAT64_TOLERANCE",
    "MAX_DIGITS",
    "Float64QQT",
    "balance",
    "qqt",
    "qqt_blocks",
    "qqt_float64",
    "unaligned_start",
    "working_digits",
]

MAX_DIGITS = 2000
"""Budget on the working precision: dps + 10 + 2 max|mu| t / ln 10 digits (the terms exp(2 mu t) that M carries
cancel in M^{-1}: that many digits are lost)."""

FLOAT64_TOLERANCE = 1e-10
"""Largest error estimate of :func:`qqt_float64` (relative to max|P(t)|) at which ``qqt(..., dps=None)`` keeps the
float64 value; above it, that time is evaluated in mpmath."""


def balance(W1: np.ndarray, W2: np.ndarray, dps: int | None = None) -> float | mpmath.mpf:
    r""":math:`\lambda` of :math:`W_2W_2^\top - W_1^\top W_1 = \lambda I_p` (paper orientation); ``ValueError`` if the
    weights are not λ-balanced to 1e-10 (float64) or :math:`10^{5 - \text{dps}}` (mpmath), relative to
    :math:`\max(1, \|W_1\|^2, \|W_2\|^2)`."""
    with mpmath.workdps(dps or 16):
        C = W2 @ W2.T - W1.T @ W1
        p = C.shape[0]
        lam = sum(C[i, i] for i in range(p)) / p
        gap = max(abs(C[i, j] - (lam if i == j else 0)) for i in range(p) for j in range(p))
        scale = max(1, *(abs(v) ** 2 for v in (*W1.ravel(), *W2.ravel())))
        tolerance = 1e-10 if dps is None else mpmath.mpf(10) ** (5 - dps)
    if gap > tolerance * scale * p:
        raise ValueError(
            f"W1, W2 must be lambda-balanced (W2 W2^T - W1^T W1 = lambda I), off by {float(gap):.3g}; admissible: "
            f"<= {float(tolerance):.1g} relative"
        )
    return lam


def _eigh(F: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    values, vectors = mpmath.eigsy(mpmath.matrix(F.tolist()))
    n = F.shape[0]
    return (
        np.array([values[i] for i in range(n)], dtype=object),
        np.array([[vectors[i, j] for j in range(n)] for i in range(n)], dtype=object),
    )


def _inverse(M: np.ndarray) -> np.ndarray:
    return np.array(mpmath.inverse(mpmath.matrix(M.tolist())).tolist(), dtype=object)


def working_digits(F: np.ndarray, t_max: float, dps: int) -> int:
    """Digits that keep ``dps`` digits of P up to ``t_max``: dps + 10 + 2 ||F||_2 t_max / ln 10; ValueError beyond
    ``MAX_DIGITS``."""
    spectral = float(np.linalg.norm(np.vectorize(float)(F), 2)) * 1.01
    digits = dps + 10 + int(np.ceil(2 * spectral * float(t_max) / np.log(10)))
    if digits > MAX_DIGITS:
        raise ValueError(
            f"times up to {float(t_max):.3g} need {digits} digits (> MAX_DIGITS = {MAX_DIGITS}, the budget): "
            "shorter times, or raise proofs_check.papers.domine2025.qqt.MAX_DIGITS"
        )
    return digits


def qqt(
    W1: object,
    W2: object,
    Sxy: object,
    times: Sequence[float],
    *,
    dps: int | None = None,
    orientation: str = "paper",
) -> np.ndarray:
    r""":math:`P(t) = QQ^\top` at ``times`` (shape (T, d + c, d + c)) from the λ-balanced start ``W1``, ``W2`` with
    whitened input and :math:`\Sigma_{xy}` (d×c; :math:`\Sigma_{yx}` (c×d) in the code orientation).

    ``dps=None``: float64, from :func:`qqt_float64` at the times where its error estimate is at most
    ``FLOAT64_TOLERANCE``, from mpmath at 16 digits elsewhere; ``dps=N``: mpmath, N digits (module docstring)."""
    exact = dps is not None
    if exact and not (isinstance(dps, int) and dps >= 15):
        raise ValueError(f"dps must be an integer >= 15 or None (float64), got {dps!r}")
    W1 = finite_array("W1", W1, ndim=2, exact=True)
    W2 = finite_array("W2", W2, ndim=2, exact=True)
    W1, W2 = oriented_weights(W1, W2, orientation)
    Sxy = finite_array("Sxy", Sxy, ndim=2, exact=True)
    Sxy = Sxy.T if orientation == "code" else Sxy
    d, c = W1.shape[0], W2.shape[1]
    if Sxy.shape != (d, c):
        raise ValueError(f"Sxy must have shape (d, c) = {(d, c)} in the {orientation} orientation, got {Sxy.shape}")
    t = finite_array("times", times, ndim=1, exact=True)
    if np.any(t < 0):
        raise ValueError("times must be >= 0")
    lam = balance(W1, W2, dps)
    if dps is not None:
        return _qqt_mpmath(W1, W2, Sxy, lam, t, dps)
    out = np.empty((len(t), d + c, d + c))
    fallback = np.ones(len(t), dtype=bool)
    W1f, W2f, Sxyf = (np.vectorize(float, otypes=[float])(m) for m in (W1, W2, Sxy))
    fast = _float64_form(W1f, W2f, Sxyf, float(lam), t.astype(float)) if len(t) else None
    if fast is not None:
        fallback = ~(fast.estimate <= FLOAT64_TOLERANCE)
        out[~fallback] = fast.P[~fallback]
    if fallback.any():
        out[fallback] = np.vectorize(float)(_qqt_mpmath(W1, W2, Sxy, lam, t[fallback], 16))
    return out


@dataclass(frozen=True)
class Float64QQT:
    """:func:`qqt_float64`'s result: ``P`` (T, d + c, d + c) and ``estimate`` (T,), the estimated error of each
    P(t) relative to max|P(t)|."""

    P: np.ndarray
    estimate: np.ndarray


def qqt_float64(
    W1: object, W2: object, Sxy: object, times: Sequence[float], *, orientation: str = "paper"
) -> Float64QQT:
    r""":math:`P(t) = QQ^\top` in float64 by the cancellation-free form of the module docstring, with its error
    estimate (``qqt`` keeps it where the estimate is at most ``FLOAT64_TOLERANCE``).

    Arguments: as :func:`qqt` (the start λ-balanced, Sxy d×c in the paper orientation, times >= 0).
    Returns: a :class:`Float64QQT`.
    Raises: ``ValueError`` as :func:`qqt`, and if F does not have exactly p positive eigenvalues or :math:`q_+` is
    singular (the form does not apply: use :func:`qqt`)."""
    W1 = finite_array("W1", W1, ndim=2)
    W2 = finite_array("W2", W2, ndim=2)
    W1, W2 = oriented_weights(W1, W2, orientation)
    Sxy = finite_array("Sxy", Sxy, ndim=2)
    Sxy = Sxy.T if orientation == "code" else Sxy
    if Sxy.shape != (W1.shape[0], W2.shape[1]):
        raise ValueError(f"Sxy must have shape (d, c) = {(W1.shape[0], W2.shape[1])}, got {Sxy.shape}")
    t = finite_array("times", times, ndim=1)
    if np.any(t < 0):
        raise ValueError("times must be >= 0")
    fast = _float64_form(W1, W2, Sxy, float(balance(W1, W2)), t)
    if fast is None:
        raise ValueError(
            "the float64 form needs F with exactly p positive eigenvalues and q_+ invertible (e.g. d = p = c, "
            "lambda != 0); use qqt"
        )
    return fast


def _float64_form(W1: np.ndarray, W2: np.ndarray, Sxy: np.ndarray, lam: float, t: np.ndarray) -> Float64QQT | None:
    """The float64 form and its error estimate, or None where it does not apply (module docstring)."""
    (d, p), c = W1.shape, W2.shape[1]
    F = np.block([[-lam / 2 * np.eye(d), Sxy], [Sxy.T, lam / 2 * np.eye(c)]])
    mu, basis = np.linalg.eigh(F)
    q = basis.T @ np.vstack([W1, W2.T])
    growing = mu > 0
    if np.count_nonzero(growing) != p:
        return None
    mu_plus, mu_minus, q_plus, q_minus = mu[growing], mu[~growing], q[growing], q[~growing]
    condition = np.linalg.cond(q_plus)
    if not np.isfinite(condition) or condition * np.finfo(float).eps > 1e-3:
        return None
    q_plus_inv = np.linalg.inv(q_plus)
    T = t[:, None]
    h = -np.expm1(-2 * mu_plus * T) / (2 * mu_plus)  # (1 - e^{-2 mu t}) / (2 mu), in (0, t]
    shrink = np.exp(-mu_plus * T)
    # k(mu) = (e^{2 mu t} - 1) / (2 mu) of the other modes, t at mu = 0: in [0, t]
    safe = np.where(mu_minus == 0, 1.0, mu_minus)
    k = np.where(mu_minus == 0, T, np.expm1(2 * mu_minus * T) / (2 * safe))
    N = np.einsum("ip,ti,iq->tpq", q_minus, k, q_minus)
    C = q_plus_inv.T @ (np.eye(p) + N) @ q_plus_inv
    Y = shrink[:, :, None] * C * shrink[:, None, :] + h[:, :, None] * np.eye(p)
    Z = np.zeros((len(t), d + c, p))
    Z[:, growing] = np.eye(p)
    Z[:, ~growing] = np.exp(mu_minus * T)[:, :, None] * (q_minus @ q_plus_inv) * shrink[:, None, :]
    root = np.linalg.solve(np.linalg.cholesky(Y), np.swapaxes(Z, -1, -2))
    P = basis @ (np.swapaxes(root, -1, -2) @ root) @ basis.T
    eps = np.finfo(float).eps
    estimate = 10 * (d + c) * eps * (np.linalg.cond(Y) + condition**2 + np.linalg.norm(F, 2) * t + 1)
    return Float64QQT(P, estimate)


def _qqt_mpmath(
    W1: np.ndarray, W2: np.ndarray, Sxy: np.ndarray, lam: float | mpmath.mpf, t: np.ndarray, dps: int
) -> np.ndarray:
    """P at times t in mpmath with the working precision that keeps ``dps`` digits (``working_digits``)."""
    (d, p), c = W1.shape, W2.shape[1]
    F = np.block([[-lam / 2 * np.eye(d, dtype=int), Sxy], [Sxy.T, lam / 2 * np.eye(c, dtype=int)]])
    with mpmath.workdps(working_digits(F, max(t, default=0), dps)):
        F = np.array([[mpmath.mpf(v) for v in row] for row in F], dtype=object)
        mu, basis = _eigh(F)
        q = basis.T @ np.vstack([W1, W2.T])
        out = []
        for time in t:
            time = mpmath.mpf(time)
            growth = np.array([mpmath.exp(m * time) for m in mu], dtype=object)
            k = np.array([time if m == 0 else mpmath.expm1(2 * m * time) / (2 * m) for m in mu], dtype=object)
            M = np.eye(p, dtype=int) + q.T @ (k[:, None] * q)
            grown = growth[:, None] * q
            out.append(basis @ grown @ _inverse(M) @ grown.T @ basis.T)
        return np.array(out).reshape(len(t), d + c, d + c)


def qqt_blocks(P: np.ndarray, d: int) -> dict[str, np.ndarray]:
    r"""The blocks of :math:`P = QQ^\top` (paper orientation, batch axes first): ``"W1W1T"`` (d×d), ``"W1W2"``
    (d×c), ``"map"`` = :math:`W_2^\top W_1^\top` (c×d, the network map) and ``"W2TW2"`` (c×c)."""
    return {
        "W1W1T": P[..., :d, :d],
        "W1W2": P[..., :d, d:],
        "map": P[..., d:, :d],
        "W2TW2": P[..., d:, d:],
    }


def unaligned_start(
    d: int, p: int, c: int, lam: float, seed: int = 0, dps: int = 40
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""A random λ-balanced start not aligned with the task, exact to ``dps`` digits (``mpmath.mpf`` arrays):
    :math:`W_1 = U\,\mathrm{diag}(s_1)R`, :math:`W_2 = R^\top\mathrm{diag}(s_2)V^\top` with random orthonormal
    :math:`U` (d×p), :math:`V` (c×p), orthogonal :math:`R`, :math:`s_2^2 - s_1^2 = \lambda`, and a random
    :math:`\Sigma_{xy}` (d×c, Gaussian). Needs 1 <= p <= min(d, c). Returns (W1, W2, Sxy)."""
    if not all(isinstance(n, int) and n >= 1 for n in (d, p, c)) or p > min(d, c):
        raise ValueError(f"need integers d, c >= p >= 1, got d={d!r}, p={p!r}, c={c!r}")
    rng = np.random.default_rng(seed)
    with mpmath.workdps(dps):
        U, V, R = orthonormal_frame(rng, d, p), orthonormal_frame(rng, c, p), orthonormal_frame(rng, p, p)
        lam_mp = mpmath.mpf(lam)
        small = [mpmath.mpf(rng.uniform(0.2, 1.2)) for _ in range(p)]
        large = [mpmath.sqrt(s**2 + abs(lam_mp)) for s in small]
        s1, s2 = (small, large) if lam_mp >= 0 else (large, small)
        W1 = U @ (np.array(s1, dtype=object)[:, None] * R)
        W2 = R.T @ (np.array(s2, dtype=object)[:, None] * V.T)
        Sxy = np.array([[mpmath.mpf(rng.normal()) for _ in range(c)] for _ in range(d)], dtype=object)
    return W1, W2, Sxy
