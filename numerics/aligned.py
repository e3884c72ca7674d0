r"""Task-aligned initializations of the full linear network, and the comparison of the closed-form modes
with the full matrix flow (spec models-nam2025.md §3–§4; the check "closed-form modes agree with 30-digit
integration of the full matrix flow").

An :class:`AlignedCase` holds orthogonal frames :math:`U` (d×c), :math:`V` (c×c), :math:`R` (c×c, so p = c)
exact to ``dps + 10`` digits (``mpmath.qr`` of a Gaussian matrix), target singular values :math:`\rho_i` and
λ-balanced mode singular values :math:`a_i = s_{1,i}`, :math:`b_i = s_{2,i}` with :math:`b_i^2 - a_i^2 = \lambda`
(:math:`\lambda = 0`: Saxe's balanced start), all as ``mpmath.mpf`` object arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from derivations.models.linear_network import linear_network

from ._trajectory import trajectory
from .linear_network import aligned_weights, init_to_weights, moment_params, weights_to_init

__all__ = ["AlignedCase", "aligned_case", "full_flow_error", "gd_errors", "orthonormal_frame"]


@dataclass(frozen=True)
class AlignedCase:
    """Frames, target singular values ``rho``, imbalance ``lam`` and mode singular values ``a``, ``b``."""

    U: np.ndarray
    V: np.ndarray
    R: np.ndarray
    rho: np.ndarray
    lam: mpmath.mpf
    a: np.ndarray
    b: np.ndarray
    dps: int

    def weights(self) -> tuple[np.ndarray, np.ndarray]:
        """The initial full matrices (paper orientation), computed at ``dps`` digits."""
        with mpmath.workdps(self.dps):
            return aligned_weights(self.U, self.V, self.R, self.a, self.b)

    def params(self) -> dict[str, Any]:
        r""":math:`\Sigma_{xx} = I`, :math:`\Sigma_{xy} = U\,\mathrm{diag}(\rho)\,V^\top` and the realizable
        :math:`\Sigma_{yy}`, at ``dps`` digits."""
        d, c = self.U.shape
        with mpmath.workdps(self.dps):
            Sxy = self.U @ (self.rho[:, None] * np.eye(c, dtype=int)) @ self.V.T
            Syy = self.V @ (self.rho[:, None] ** 2 * np.eye(c, dtype=int)) @ self.V.T
            return moment_params(np.eye(d, dtype=int) * mpmath.mpf(1), Sxy, Syy)


def orthonormal_frame(rng: np.random.Generator, n: int, m: int) -> np.ndarray:
    """An n x m matrix with orthonormal columns (m <= n) at the working precision: mpmath.qr of a Gaussian matrix."""
    Q, _ = mpmath.qr(mpmath.matrix([[rng.normal() for _ in range(m)] for _ in range(n)]))
    return np.array([[Q[i, j] for j in range(m)] for i in range(n)], dtype=object)


def aligned_case(d: int = 3, c: int = 2, lam: float | None = None, seed: int = 0, dps: int = 40) -> AlignedCase:
    """A random aligned λ-balanced case (``lam`` random in [-2, 2] if None); frames exact to ``dps`` digits."""
    if not (isinstance(d, int) and isinstance(c, int) and 1 <= c <= d):
        raise ValueError(f"need integers 1 <= c <= d, got d={d!r}, c={c!r}")
    rng = np.random.default_rng(seed)
    with mpmath.workdps(dps):
        U, V, R = orthonormal_frame(rng, d, c), orthonormal_frame(rng, c, c), orthonormal_frame(rng, c, c)
        lam_mp = mpmath.mpf(rng.uniform(-2, 2) if lam is None else lam)
        rho0 = [mpmath.mpf(rng.uniform(0.05, 1.5)) for _ in range(c)]
        K = [mpmath.sqrt(lam_mp**2 + 4 * r**2) for r in rho0]
        a = np.array([mpmath.sqrt((k - lam_mp) / 2) for k in K], dtype=object)
        b = np.array([mpmath.sqrt((k + lam_mp) / 2) for k in K], dtype=object)
        rho = np.array([mpmath.mpf(rng.uniform(0.3, 2.0)) for _ in range(c)], dtype=object)
    return AlignedCase(U, V, R, rho, lam_mp, a, b, dps)


def full_flow_error(
    case: AlignedCase, times: list[float], dps: int = 30, model: str = "lambda_balanced", method: str = "mpmath"
) -> mpmath.mpf:
    """Largest relative error, over ``times`` and both layers, between the full matrix flow (``linear_network``
    integrated at ``dps`` digits by ``method``: ``"mpmath"`` for ``mpmath.odefun``, ``"taylor"`` for heyoka's
    Taylor integrator) and the aligned closed-form modes of ``model``."""
    if method not in ("mpmath", "taylor"):
        raise ValueError(f"method must be 'mpmath' or 'taylor' (a {dps}-digit integrator), got {method!r}")
    d, c = case.U.shape
    full = trajectory(
        linear_network(d, c), times, case.params(), weights_to_init(*case.weights()), method=method, dps=dps
    )
    modes = trajectory(model, times, {"S": case.rho}, {"a": case.a, "b": case.b}, dps=dps)
    worst = mpmath.mpf(0)
    with mpmath.workdps(dps):
        for k in range(len(times)):
            flow = init_to_weights({n: v[k] for n, v in full.items() if n.startswith("W")})
            closed = aligned_weights(case.U, case.V, case.R, modes["a"][k], modes["b"][k])
            for W, C in zip(flow, closed, strict=True):
                worst = max(
                    worst,
                    mpmath.sqrt(
                        sum((x - y) ** 2 for x, y in zip(W.ravel(), C.ravel(), strict=True))
                        / sum(y**2 for y in C.ravel())
                    ),
                )
    return worst


def gd_errors(case: AlignedCase, lrs: list[float], time: float, model: str = "lambda_balanced") -> list[float]:
    """For each learning rate, the relative error of GD on the full matrices (``linear_network``, float64) after
    ``time / lr`` steps against the closed-form modes at ``time``."""
    d, c = case.U.shape
    to_float = np.vectorize(float)
    params = {k: float(v) for k, v in case.params().items()}
    init = {k: to_float(v) for k, v in weights_to_init(*case.weights()).items()}
    modes = trajectory(model, [time], {"S": to_float(case.rho)}, {"a": to_float(case.a), "b": to_float(case.b)})
    closed = aligned_weights(to_float(case.U), to_float(case.V), to_float(case.R), modes["a"][0], modes["b"][0])
    errors = []
    for lr in lrs:
        run = trajectory(linear_network(d, c), [time], params, init, method="gd", lr=lr)
        flow = init_to_weights({n: v[0] for n, v in run.items() if n.startswith("W")})
        errors.append(max(np.linalg.norm(W - C) / np.linalg.norm(C) for W, C in zip(flow, closed, strict=True)))
    return errors
