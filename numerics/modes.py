r"""Evaluate the aligned modes of a matrix network (``derivations.modes.AlignedModes``) on arrays.

For each start: the thin SVD :math:`\Sigma_{xy} = USV^\top` (``numpy.linalg.svd`` in float64, ``mpmath.svd_r`` at
the working precision), the projection of the start on it (:math:`C_1 = U^\top W_1 = AR^\top`,
:math:`C_2 = V^\top W_2^\top = BR^\top`: each mode's row gives its values :math:`a_\alpha`, :math:`b_\alpha` and
the unit vector :math:`R_\alpha`), a check that the start is aligned (it is rebuilt from the projection and the
modes' rows :math:`a_\alpha R_\alpha` are orthogonal, to ``ALIGNED_TOLERANCE`` relative; else a ``ValueError``
naming ``init``; a mode within rounding of zero, ``ROUNDING``, or within the tolerance of zero and not orthogonal
to a larger one, is zero), then each mode's trajectory by the registered mode model's closed form
(``deep_linear_whitened``, ``numerics.closed_form``), and the clock symbols' values: :math:`U`, :math:`s`,
:math:`V` per start, :math:`R_j` per unit, :math:`a_\alpha(t)`, :math:`b_\alpha(t)` per start and time; the state is
then :math:`W_1 = UA(t)R^\top`, :math:`W_2^\top = VB(t)R^\top` (the closed form's state expressions).

The values are those of the aligned start rebuilt from the projection: with ``dps``, give a start aligned to that
many digits (``mpmath.mpf`` entries), as the tests do; a float64 start is aligned to its rounding only.

A repeated singular value of :math:`\Sigma_{xy}` leaves the frame within its singular space free: a start aligned
with another choice of frame is refused (the error says so). :math:`\Sigma_{xx}` must be the identity (to the same
tolerance): other parameters are a ``ValueError`` naming ``params``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np

from .arithmetic import Arithmetic, fp, mp
from .clocks import register_clock
from .compiled import lambdified
from .evaluate import apply

if TYPE_CHECKING:
    from derivations.modes import AlignedModes

__all__ = ["ALIGNED_TOLERANCE", "ROUNDING", "CompiledModes", "Projection", "compile_modes", "project"]

ALIGNED_TOLERANCE = 1e-12
"""A start is aligned if it is rebuilt from its projection on the SVD frame to this times its largest entry, and
the mode directions of its nonzero modes are orthogonal to this tolerance (as ``CONDITION_TOLERANCE`` of
``numerics.closed_form``)."""


ROUNDING = 64
"""A mode whose projection is at most this many units of rounding (float64's eps, or mpmath's at the working
precision) times the start's largest entry is zero."""


@dataclass(frozen=True)
class Projection:
    """One start on the SVD frame: ``U`` (d×r), ``s`` (r), ``V`` (c×r), the modes ``a``, ``b`` (r) and ``R``
    (r×p, row α the direction of mode α over the units; zero for a zero mode)."""

    U: np.ndarray
    s: np.ndarray
    V: np.ndarray
    a: np.ndarray
    b: np.ndarray
    R: np.ndarray


def _svd(Sxy: np.ndarray, machine: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The thin SVD (U d×r, s r, V c×r) in float64 or at mpmath's working precision."""
    if machine:
        U, s, Vh = np.linalg.svd(np.asarray(Sxy, dtype=float), full_matrices=False)
        return U, s, Vh.T
    U, s, Vh = mpmath.svd_r(mpmath.matrix(Sxy.tolist()), full_matrices=False)
    r = len(s)
    return (
        np.array([[U[i, j] for j in range(r)] for i in range(U.rows)], dtype=object),
        np.array([s[j] for j in range(r)], dtype=object),
        np.array([[Vh[j, i] for j in range(r)] for i in range(Vh.cols)], dtype=object),
    )


def project(
    W1: np.ndarray, W2T: np.ndarray, Sxy: np.ndarray, machine: bool = True, tolerance: float = ALIGNED_TOLERANCE
) -> Projection:
    r"""The start ``W1`` (d×p), ``W2T`` (c×p) on the SVD frame of ``Sxy`` (d×c), in float64 (``machine``) or at
    mpmath's working precision (object arrays).

    Arguments:
        W1, W2T: the start (paper orientation: :math:`W_1` and :math:`W_2^\top`).
        Sxy: :math:`\Sigma_{xy}`.
        machine: float64 (True) or mpmath.
        tolerance: the relative tolerance of the aligned check.

    Returns:
        The :class:`Projection`.

    Raises:
        ValueError: naming ``init``, if the start is not aligned with the frame (the largest violation).
    """
    sqrt = np.sqrt if machine else mpmath.sqrt
    U, s, V = _svd(Sxy, machine)
    C1, C2 = U.T @ W1, V.T @ W2T
    r, p = C1.shape
    zero = 0.0 if machine else mpmath.mpf(0)
    a, b = np.full(r, zero, dtype=U.dtype), np.full(r, zero, dtype=U.dtype)
    R = np.full((r, p), zero, dtype=U.dtype)
    scale = max([abs(x) for x in (*np.ravel(W1), *np.ravel(W2T))] or [zero])
    # a mode within rounding of zero (the projection's own error) is zero: it stays zero, its direction is noise
    rounding = ROUNDING * (np.finfo(float).eps if machine else mpmath.eps) * scale
    for al in range(r):
        n1, n2 = sqrt(np.dot(C1[al], C1[al])), sqrt(np.dot(C2[al], C2[al]))
        if max(n1, n2) <= rounding:
            continue
        if n1 >= n2:
            R[al] = C1[al] / n1
            a[al], b[al] = n1, np.dot(C2[al], R[al])
        else:
            R[al] = C2[al] / n2
            a[al], b[al] = np.dot(C1[al], R[al]), n2
    # the start's mode rows C_alpha = m_alpha R_alpha must be orthogonal: |m_alpha m_beta R_alpha . R_beta| within
    # the tolerance (relative to scale^2); a mode that small but not orthogonal to a larger one is within the
    # tolerance of zero and taken as zero (else the evaluated directions would couple)
    size = [max(abs(x), abs(y)) for x, y in zip(a, b, strict=True)]
    crossed = zero
    for i in range(r):
        for j in range(r):
            overlap = abs(np.dot(R[i], R[j]))
            if i == j or size[i] == 0 or size[j] == 0 or size[i] > size[j] or overlap <= tolerance:
                continue
            crossed = max(crossed, size[i] * size[j] * overlap / scale**2)
            a[i], b[i], R[i], size[i] = zero, zero, zero * R[i], zero
    rebuilt = max(
        [abs(x) for x in (*np.ravel(W1 - U @ (a[:, None] * R)), *np.ravel(W2T - V @ (b[:, None] * R)))] or [zero]
    )
    if rebuilt > tolerance * scale or crossed > tolerance:
        gaps = [abs(s[i] - s[j]) for i in range(r) for j in range(i + 1, r)]
        repeated = bool(gaps) and min(gaps) <= 1e-8 * max(abs(x) for x in s)
        raise ValueError(
            "init: the closed form of a matrix network holds on the aligned set W1 = U A R^T, W2^T = V B R^T "
            f"(Sxy = U S V^T); this start is off it (rebuilt to {float(rebuilt / scale):.3g} relative, its modes "
            f"orthogonal to {float(crossed):.3g}; tolerance {tolerance:.0e})"
            + (
                "; Sxy has a repeated singular value, so its frame is not unique: an aligned start must use the "
                "frame numpy.linalg.svd / mpmath.svd_r computes"
                if repeated
                else ""
            )
        )
    return Projection(U, s, V, a, b, R)


@dataclass(frozen=True)
class CompiledModes:
    """The compiled :class:`derivations.modes.AlignedModes`: the clock names, the initial-value names of
    :math:`W_1` and :math:`W_2^\\top` rows, the compiled entries of :math:`\\Sigma_{xy}` and :math:`\\Sigma_{xx}`
    and the name of the mode model."""

    U: tuple[tuple[str, ...], ...]
    s: tuple[str, ...]
    V: tuple[tuple[str, ...], ...]
    R: tuple[str, ...]
    a: tuple[str, ...]
    b: tuple[str, ...]
    first: tuple[str, ...]
    second: tuple[str, ...]
    sxy: tuple[tuple[Any, ...], ...]
    sxx: tuple[tuple[Any, ...], ...]
    sxx_text: tuple[tuple[str, ...], ...]
    mode_model: str

    @property
    def names(self) -> tuple[str, ...]:
        return (
            *(u for row in self.U for u in row),
            *self.s,
            *(v for row in self.V for v in row),
            *self.R,
            *self.a,
            *self.b,
        )

    def values(self, env: Mapping[str, Any], t: np.ndarray, ctx: Arithmetic) -> dict[str, Any]:
        """The clocks at the times ``t`` (T, 1, 1) for the starts in ``env`` (arrays (1, batch, p))."""
        W1 = np.stack([np.asarray(env[n]) for n in self.first], axis=-2)  # (1, batch, d, p)
        W2T = np.stack([np.asarray(env[n]) for n in self.second], axis=-2)
        batch = W1.shape[1]
        Sxy = self._matrix(self.sxy, env, ctx, batch)
        Sxx = self._matrix(self.sxx, env, ctx, batch)
        d = Sxy.shape[1]
        eye = np.eye(d)
        if np.max(np.abs(np.asarray(Sxx - eye, dtype=float))) > ALIGNED_TOLERANCE * max(
            1.0, float(np.max(np.abs(np.asarray(Sxx, dtype=float))))
        ):
            raise ValueError(
                f"params: the closed form of a matrix network needs whitened inputs, Sxx = I ({self.sxx_text}); "
                f"got {np.asarray(Sxx, dtype=float).tolist()}"
            )
        projections = [project(W1[0, i], W2T[0, i], Sxy[i], ctx.machine) for i in range(batch)]
        modes = self._modes(projections, t, ctx)
        out: dict[str, Any] = {}
        for k, row in enumerate(self.U):
            for al, name in enumerate(row):
                out[name] = np.array([q.U[k, al] for q in projections], dtype=W1.dtype)[None, :, None]
        for m, row in enumerate(self.V):
            for al, name in enumerate(row):
                out[name] = np.array([q.V[m, al] for q in projections], dtype=W1.dtype)[None, :, None]
        for al, name in enumerate(self.s):
            out[name] = np.array([q.s[al] for q in projections], dtype=W1.dtype)[None, :, None]
        for al, name in enumerate(self.R):
            out[name] = np.stack([q.R[al] for q in projections])[None]
        for al, (na, nb) in enumerate(zip(self.a, self.b, strict=True)):
            out[na], out[nb] = modes["a"][..., al : al + 1], modes["b"][..., al : al + 1]
        return out

    def _matrix(self, entries: tuple[tuple[Any, ...], ...], env: Mapping[str, Any], ctx: Arithmetic, batch: int):
        """A matrix of compiled entries per start: (batch, rows, cols)."""
        dtype = float if ctx.machine else object
        out = np.empty((batch, len(entries), len(entries[0])), dtype=dtype)
        for i, row in enumerate(entries):
            for j, f in enumerate(row):
                value = apply(f, env, ctx) if f.names else ctx.number(f())
                out[:, i, j] = np.broadcast_to(np.asarray(value, dtype=dtype), (1, batch, 1))[0, :, 0]
        return out

    def _modes(self, projections: list[Projection], t: np.ndarray, ctx: Arithmetic) -> dict[str, np.ndarray]:
        """Every mode's trajectory (T, batch, r) by the mode model's closed form."""
        from .closed_form import closed_form_numpy, closed_form_state, compiled_closed_form

        env = {
            "a_0": np.stack([q.a for q in projections]),
            "b_0": np.stack([q.b for q in projections]),
            "S": np.stack([q.s for q in projections]),
        }
        times = np.asarray(t).reshape(-1)
        if not ctx.machine:
            states = closed_form_state(compiled_closed_form(self.mode_model, mp), env, times, ctx)
            return {n: np.asarray(states[n]) for n in ("a", "b")}
        values = closed_form_numpy(compiled_closed_form(self.mode_model, fp), env, times)
        if not np.any(values.out_of_range):
            return values.states
        # modes beyond the float64-safe range: evaluated at 40 digits and rounded
        with mpmath.workdps(40):
            exact = closed_form_state(
                compiled_closed_form(self.mode_model, mp),
                {k: mp.numbers(v) for k, v in env.items()},
                mp.numbers(times),
                mp.at(40),
            )
            return {n: np.vectorize(float)(np.asarray(exact[n])) for n in ("a", "b")}


def compile_modes(solution: AlignedModes, ctx: Arithmetic) -> CompiledModes:
    """The compiled clock of ``solution`` in the arithmetic ``ctx`` (registered with ``numerics.clocks``)."""
    import sympy as sp

    def names(symbols: tuple[Any, ...]) -> tuple[str, ...]:
        return tuple(str(x) for x in symbols)

    def compiled(rows: tuple[tuple[Any, ...], ...]) -> tuple[tuple[Any, ...], ...]:
        return tuple(tuple(lambdified(sp.sympify(e, strict=True), ctx) for e in row) for row in rows)

    return CompiledModes(
        tuple(names(row) for row in solution.U),
        names(solution.s),
        tuple(names(row) for row in solution.V),
        names(solution.R),
        names(solution.a),
        names(solution.b),
        names(solution.first),
        names(solution.second),
        compiled(solution.sxy),
        compiled(solution.sxx),
        tuple(tuple(str(e) for e in row) for row in solution.sxx),
        solution.mode_model,
    )


register_clock("derivations.modes.AlignedModes", compile_modes)  # by name: no SymPy at import
