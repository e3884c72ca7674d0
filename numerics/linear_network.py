r"""Matrices of the two-layer linear network: conversion to and from the per-unit state, aligned and
λ-balanced initializations, the NTK Gram matrix, the kernel distance, and batched matrix gradient descent.

Paper orientation (Nam et al. 2025 eq 4): :math:`f(x) = W_2^\top W_1^\top x`, :math:`W_1 \in \mathbb R^{d\times p}`,
:math:`W_2 \in \mathbb R^{p\times c}`; ``orientation="code"`` takes and returns the transposes
(:math:`f = W_2W_1x`, the authors' code). Arrays may carry leading batch axes, and object arrays of
``mpmath.mpf`` pass through unchanged (numpy's ``@`` works on them), for 30-digit checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import count

import numpy as np

from derivations.models.linear_network import linear_network, moment_entries, state_rows

from .budget import MAX_STEPS
from .validation import SYMMETRY_TOLERANCE as SYMMETRY_TOLERANCE  # re-exported: its old home
from .validation import (
    finite_array,
    integer,
    mapping,
    matrix_entries,
    matrix_rows,
    positive_number,
)

__all__ = [
    "aligned_weights",
    "init_to_weights",
    "kernel_distance",
    "lambda_balanced_singular_values",
    "lambda_balanced_weights",
    "matrix_gradient_descent",
    "moment_params",
    "ntk_gram",
    "oriented_weights",
    "weights_to_init",
]

ORIENTATIONS = ("paper", "code")
ORTHONORMAL_TOLERANCE = 1e-8
"""Largest admissible entry of |MᵀM − I| for the frames of :func:`aligned_weights`."""
_STATE_PREFIXES = tuple(f"{name}_" for name in state_rows(1, 1))


def _orientation(orientation: object) -> str:
    if not isinstance(orientation, str) or orientation not in ORIENTATIONS:
        raise ValueError(f"orientation must be one of {ORIENTATIONS}, got {orientation!r}")
    return orientation


def _matrix(name: str, value: object) -> np.ndarray:
    """A finite real array with at least two axes, nonempty (``mpmath.mpf`` entries kept)."""
    array = finite_array(name, value, exact=True)
    if array.ndim < 2 or 0 in array.shape:
        raise ValueError(f"{name} must be a nonempty matrix (batch axes first), got shape {array.shape}")
    return array


def oriented_weights(W1: object, W2: object, orientation: object = "paper") -> tuple[np.ndarray, np.ndarray]:
    """``W1``, ``W2`` as arrays in the paper orientation (transposed from ``orientation="code"``), batch axes first.

    Returns (W1: ... x d x p, W2: ... x p x c), finite (``mpmath.mpf`` entries kept). Raises ``ValueError`` for an
    unknown orientation, an empty or non-matrix argument or shapes that do not chain (hidden width p, batch axes),
    ``TypeError`` for non-real entries."""
    orientation = _orientation(orientation)
    W1, W2 = _matrix("W1", W1), _matrix("W2", W2)
    if orientation == "code":
        W1, W2 = np.swapaxes(W1, -1, -2), np.swapaxes(W2, -1, -2)
    if W1.shape[-1] != W2.shape[-2] or W1.shape[:-2] != W2.shape[:-2]:
        raise ValueError(
            f"W1 and W2 must be matrices with matching hidden width p and batch axes, got {W1.shape} and {W2.shape}"
        )
    return W1, W2


_oriented = oriented_weights


def weights_to_init(W1: np.ndarray, W2: np.ndarray, orientation: str = "paper") -> dict[str, np.ndarray]:
    """The ``init`` of ``linear_network`` for weights ``W1``, ``W2`` (batch axes first), by state name: row ``k``
    of ``W1`` is the state ``W1_k`` over the units, column ``m`` of ``W2`` (row ``m`` of its transpose) the state
    ``W2T_m`` (the model's ``matrix_states``; ``trajectory`` also takes ``{"W1": W1, "W2T": W2.T}`` directly).

    Arguments: ``W1`` (d×p), ``W2`` (p×c), or their transposes for ``orientation="code"``.
    Returns: the dict from each state name to its array (batch axes first, units last).
    Raises: ``ValueError``/``TypeError`` naming ``W1``, ``W2`` or ``orientation``."""
    W1, W2 = _oriented(W1, W2, orientation)
    rows = state_rows(W1.shape[-2], W2.shape[-1])
    return {
        **matrix_rows("W1", W1, rows["W1"], exact=True, batch_axes=None),
        **matrix_rows("W2", np.swapaxes(W2, -1, -2), rows["W2T"], exact=True, batch_axes=None),
    }


def init_to_weights(state: Mapping[str, np.ndarray], orientation: str = "paper") -> tuple[np.ndarray, np.ndarray]:
    """The weight matrices from per-unit states (an ``init`` or a ``trajectory`` result, units on the last axis).

    Arguments: ``state`` holding the states ``W1_1 … W1_d`` and ``W2T_1 … W2T_c`` of ``linear_network(d, c)``
    (its ``matrix_states``, numbered from 1 without gaps, one shape); other keys are ignored.
    Returns: ``(W1, W2)`` in the paper orientation (d×p, p×c, batch axes first), transposed for ``"code"``.
    Raises: ``ValueError`` naming ``state`` if the rows are missing, have a gap or differ in shape."""
    orientation = _orientation(orientation)
    given = mapping("state", state)
    # d and c: the number of rows of W1 and W2T present, counted through the model's own naming
    d = next(n for n in count() if state_rows(n + 1, 1)["W1"][-1] not in given)
    c = next(n for n in count() if state_rows(1, n + 1)["W2T"][-1] not in given)
    rows = state_rows(d, c)
    expected = "the linear_network states W1_1 … W1_n without gaps and W2T_1 … W2T_m without gaps (n, m >= 1)"
    if d == 0 or c == 0:
        raise ValueError(f"state must hold {expected}; got the keys {list(given)}")
    known = {name for names in rows.values() for name in names}
    for key in given:
        if isinstance(key, str) and key.startswith(_STATE_PREFIXES) and key not in known:
            raise ValueError(f"state key {key!r} is not one of {expected}")
    arrays = {key: finite_array(f"state[{key!r}]", given[key], exact=True) for key in sorted(known)}
    if len({a.shape for a in arrays.values()}) != 1 or next(iter(arrays.values())).ndim < 1:
        raise ValueError(
            f"state arrays must have one shape (..., p), got { ({k: a.shape for k, a in arrays.items()}) }"
        )
    W1 = np.stack([arrays[name] for name in rows["W1"]], axis=-2)
    W2 = np.stack([arrays[name] for name in rows["W2T"]], axis=-1)
    return (W1, W2) if orientation == "paper" else (np.swapaxes(W1, -1, -2), np.swapaxes(W2, -1, -2))


def moment_params(Sxx: np.ndarray, Sxy: np.ndarray, Syy: np.ndarray | None = None) -> dict[str, object]:
    r"""The ``params`` of ``linear_network`` from :math:`\Sigma_{xx}` (d×d, symmetric), :math:`\Sigma_{xy}` (d×c)
    and :math:`\Sigma_{yy}` (c×c, symmetric; default the realizable :math:`\Sigma_{xy}^\top\Sigma_{xx}^{+}
    \Sigma_{xy}`, so that the loss is the excess risk). Entries may be ``mpmath.mpf``.

    Returns: the dict from each parameter name of the model's ``matrix_params`` (``Sxx_k_l`` with k <= l,
    ``Sxy_k_m``, ``Syy_m_n``) to its entry (``trajectory`` also takes ``{"Sxx": Sxx, "Sxy": Sxy, "Syy": Syy}``).
    Raises: ``ValueError`` naming the block and its expected shape ((d, d), (d, c), (c, c)) if a shape is wrong,
    ``TypeError`` for entries that are not real numbers, ``ValueError`` if ``Sxx`` or ``Syy`` is not symmetric (to
    ``SYMMETRY_TOLERANCE`` relative) or the joint moments of :math:`(x, y)` are not realizable (positive
    semidefinite; the model's ``param_check``, ``derivations.models.linear_network.check_second_moments``)."""
    Sxx, Sxy = finite_array("Sxx", Sxx, exact=True), finite_array("Sxy", Sxy, exact=True)
    if Sxx.ndim != 2 or Sxx.shape[0] != Sxx.shape[1] or Sxx.shape[0] == 0:
        raise ValueError(f"Sxx must have shape (d, d) with d >= 1 (a square matrix, no batch axes), got {Sxx.shape}")
    d = Sxx.shape[0]
    if Sxy.ndim != 2 or Sxy.shape[0] != d or Sxy.shape[1] == 0:
        raise ValueError(f"Sxy must have shape ({d}, c) with c >= 1 (d = {d} from Sxx, no batch axes), got {Sxy.shape}")
    if Syy is None:
        Syy = Sxy.T @ np.linalg.pinv(Sxx.astype(float)) @ Sxy
    layout = moment_entries(*Sxy.shape)
    params: dict[str, object] = {}
    for name, matrix in (("Sxx", Sxx), ("Sxy", Sxy), ("Syy", Syy)):
        params.update(matrix_entries(name, matrix, layout[name], exact=True, batch_axes=0))
    check = linear_network(*Sxy.shape).param_check
    if check is not None:  # always: linear_network declares check_second_moments
        check(params)
    return params


def _batch(shapes: Mapping[str, tuple[int, ...]]) -> tuple[int, ...]:
    """The broadcast batch shape of arrays whose last two axes are matrices (or last axis, for vectors)."""
    try:
        return np.broadcast_shapes(*shapes.values())
    except ValueError as exc:
        raise ValueError(f"the batch axes of {list(shapes)} must broadcast, got {dict(shapes)}") from exc


def _orthonormal(name: str, frame: np.ndarray, rows: bool) -> None:
    """``ValueError`` unless ``frame`` has orthonormal rows (or columns) to ``ORTHONORMAL_TOLERANCE``."""
    M = np.asarray(frame, dtype=float)
    gram = M @ np.swapaxes(M, -1, -2) if rows else np.swapaxes(M, -1, -2) @ M
    if not np.all(np.abs(gram - np.eye(gram.shape[-1])) <= ORTHONORMAL_TOLERANCE):
        raise ValueError(f"{name} must have orthonormal {'rows' if rows else 'columns'} (to {ORTHONORMAL_TOLERANCE:g})")


def aligned_weights(
    U: np.ndarray, V: np.ndarray, R: np.ndarray, a: np.ndarray, b: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    r"""The task-aligned weights :math:`W_1 = U\,\mathrm{diag}(a)\,R`, :math:`W_2 = R^\top\mathrm{diag}(b)\,V^\top`
    (spec §3 eq 47, paper orientation): ``U`` (d×c, orthonormal columns), ``V`` (c×c orthogonal), ``R``
    (c×p, orthonormal rows), ``a``, ``b`` the modes' singular values (batch axes first, broadcasting)."""
    U, V, R = _matrix("U", U), _matrix("V", V), _matrix("R", R)
    a, b = finite_array("a", a, exact=True), finite_array("b", b, exact=True)
    c = U.shape[-1]
    if V.shape[-2:] != (c, c) or R.shape[-2] != c or a.ndim < 1 or a.shape[-1] != c or b.shape != a.shape:
        raise ValueError(
            f"U (d, c), V (c, c), R (c, p), a and b (c,) need one c: got U {U.shape}, V {V.shape}, R {R.shape}, "
            f"a {a.shape}, b {b.shape}"
        )
    _batch({"U": U.shape[:-2], "V": V.shape[:-2], "R": R.shape[:-2], "a": a.shape[:-1]})
    for name, frame, rows in (("U", U, False), ("V", V, False), ("R", R, True)):
        _orthonormal(name, frame, rows)
    diag_a = a[..., :, None] * np.eye(c, dtype=int)
    diag_b = b[..., :, None] * np.eye(c, dtype=int)
    return U @ diag_a @ R, np.swapaxes(R, -1, -2) @ diag_b @ np.swapaxes(V, -1, -2)


def lambda_balanced_singular_values(rho: np.ndarray, lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""The mode singular values :math:`s_{1/2} = \sqrt{(\sqrt{\lambda^2 + 4\rho^2} \mp \lambda)/2}` with
    :math:`s_1s_2 = \rho` (> 0) and :math:`s_2^2 - s_1^2 = \lambda` (spec §4, as in the authors'
    ``get_lambda_balanced``); ``lam`` broadcasts against ``rho``'s batch axes (the last axis is the modes).

    Evaluated without overflow or cancellation: the larger one from :math:`(\sqrt{\lambda^2 + 4\rho^2} +
    |\lambda|)/2` (``hypot``), the smaller as :math:`\rho` divided by it."""
    rho, lam = finite_array("rho", rho), finite_array("lam", lam)
    if rho.ndim < 1 or rho.size == 0 or np.any(rho <= 0):
        raise ValueError("rho must be > 0 (admissible range: (0, inf)), a nonempty array (last axis: the modes)")
    lam = lam[..., None]
    _batch({"rho": rho.shape, "lam": lam.shape})
    with np.errstate(over="ignore"):
        larger = np.sqrt(np.hypot(lam / 2, rho) + np.abs(lam) / 2)
        smaller = rho / larger
    if not np.all(np.isfinite(larger)):
        raise OverflowError("lambda_balanced_singular_values: sqrt(lam^2 + 4 rho^2) is beyond the float64 range")
    return np.where(lam >= 0, smaller, larger), np.where(lam >= 0, larger, smaller)


def lambda_balanced_weights(
    rho: np.ndarray, lam: np.ndarray, U: np.ndarray, V: np.ndarray, R: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    r"""Weights with :math:`W_2W_2^\top - W_1^\top W_1 = \lambda I` and product singular values ``rho``: the
    singular values of :func:`lambda_balanced_singular_values` in the frames ``U``, ``V``, ``R`` (task-aligned if
    they are the SVD frames of :math:`\Sigma_{xy}`)."""
    return aligned_weights(U, V, R, *lambda_balanced_singular_values(rho, lam))


def ntk_gram(W1: np.ndarray, W2: np.ndarray, X: np.ndarray, orientation: str = "paper") -> np.ndarray:
    r"""The ``cN × cN`` NTK Gram matrix on data ``X`` (d×N): :math:`I_c\otimes X^\top W_1W_1^\top X +
    W_2^\top W_2\otimes X^\top X` in the paper orientation (spec §6; the authors' ``utils.get_ntk`` in theirs),
    rows ordered output-major. Batch axes of the weights are kept. ``OverflowError`` if it is beyond float64."""
    W1, W2 = _oriented(W1, W2, orientation)
    W1, W2 = W1.astype(float), W2.astype(float)
    X = finite_array("X", X, ndim=2)
    if X.shape[0] != W1.shape[-2] or X.shape[1] < 1:
        raise ValueError(f"X must have shape (d, N) with d = {W1.shape[-2]} rows and N >= 1, got {X.shape}")
    with np.errstate(over="ignore", invalid="ignore"):
        features = np.swapaxes(W1, -1, -2) @ X
        first = np.swapaxes(features, -1, -2) @ features
        second = np.swapaxes(W2, -1, -2) @ W2
        c = W2.shape[-1]
        eye = np.eye(c)
        gram = X.T @ X
        kernel = np.einsum("mn,...ij->...minj", eye, first).reshape(*first.shape[:-2], c * X.shape[1], -1) + np.einsum(
            "...mn,ij->...minj", second, gram
        ).reshape(*second.shape[:-2], c * X.shape[1], -1)
    if not np.all(np.isfinite(kernel)):
        raise OverflowError("ntk_gram: the NTK Gram matrix is beyond the float64 range for these W1, W2 and X")
    return kernel


def kernel_distance(K0: np.ndarray, Kt: np.ndarray) -> np.ndarray:
    r"""Kernel distance :math:`1 - \langle K_0, K_t\rangle_F / (\|K_0\|_F\|K_t\|_F)` (Fort et al. 2020), over
    the last two axes; evaluated as :math:`\tfrac12\|K_0/\|K_0\|_F - K_t/\|K_t\|_F\|_F^2` (in [0, 2], no
    cancellation for nearly parallel kernels, no overflow)."""
    K0, Kt = _matrix("K0", K0).astype(float), _matrix("Kt", Kt).astype(float)
    if K0.shape[-2:] != Kt.shape[-2:]:
        raise ValueError(f"K0 and Kt must be matrices of one shape, got {K0.shape} and {Kt.shape}")
    _batch({"K0": K0.shape[:-2], "Kt": Kt.shape[:-2]})
    units = []
    for name, K in (("K0", K0), ("Kt", Kt)):
        scale = np.max(np.abs(K), axis=(-2, -1), keepdims=True)
        if np.any(scale == 0):
            raise ValueError(f"kernel_distance needs non-zero kernels K0 and Kt; {name} is zero")
        K = K / scale
        units.append(K / np.sqrt(np.einsum("...ij,...ij->...", K, K))[..., None, None])
    difference = units[0] - units[1]
    return np.einsum("...ij,...ij->...", difference, difference) / 2


def matrix_gradient_descent(
    W1: np.ndarray,
    W2: np.ndarray,
    Sxx: np.ndarray,
    Sxy: np.ndarray,
    lr: float,
    steps: int,
    max_steps: int = MAX_STEPS["gd"],
) -> tuple[np.ndarray, np.ndarray]:
    r"""``steps`` steps of full-batch GD on the weight matrices (paper orientation, batch axes first):
    :math:`W_1 \leftarrow W_1 + \eta MW_2^\top`, :math:`W_2 \leftarrow W_2 + \eta W_1^\top M`,
    :math:`M = \Sigma_{xy} - \Sigma_{xx}W_1W_2` (the derived matrix flow of ``derivations.matrix_flow``, one
    simultaneous update per step), vectorized over a batch of networks and moments.

    ``steps`` is at most ``max_steps`` (the budget of ``trajectory``'s ``method="gd"``, default 10⁶);
    ``OverflowError`` naming ``lr`` if the weights diverge beyond the float64 range."""
    W1, W2 = (w.astype(float) for w in _oriented(W1, W2, "paper"))
    Sxx, Sxy = _matrix("Sxx", Sxx).astype(float), _matrix("Sxy", Sxy).astype(float)
    d, c = W1.shape[-2], W2.shape[-1]
    if Sxx.shape[-2:] != (d, d) or Sxy.shape[-2:] != (d, c):
        raise ValueError(f"Sxx must be ({d}, {d}) and Sxy ({d}, {c}) matrices, got {Sxx.shape} and {Sxy.shape}")
    _batch({"W1": W1.shape[:-2], "Sxx": Sxx.shape[:-2], "Sxy": Sxy.shape[:-2]})
    lr = positive_number("lr", lr)
    max_steps = integer("max_steps", max_steps, 1)
    steps = integer("steps", steps, 0, max_steps)
    try:
        with np.errstate(over="raise", invalid="raise"):
            for _ in range(steps):
                M = Sxy - Sxx @ W1 @ W2
                W1, W2 = W1 + lr * M @ np.swapaxes(W2, -1, -2), W2 + lr * np.swapaxes(W1, -1, -2) @ M
    except FloatingPointError as exc:
        raise OverflowError(
            f"matrix_gradient_descent diverged beyond the float64 range with lr = {lr!r}; lower lr"
        ) from exc
    # a BLAS matmul does not always raise the floating-point flags that errstate watches: check the result
    if not (np.all(np.isfinite(W1)) and np.all(np.isfinite(W2))):
        raise OverflowError(f"matrix_gradient_descent diverged beyond the float64 range with lr = {lr!r}; lower lr")
    return W1, W2
