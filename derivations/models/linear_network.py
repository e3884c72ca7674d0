r"""``linear_network``: the two-layer linear network :math:`f(x) = W_2^\top W_1^\top x`, population MSE.

Nam et al. 2025, eq 4 and App. C.3 (spec models-nam2025.md §1). Paper orientation: :math:`W_1 \in
\mathbb R^{d\times p}`, :math:`W_2 \in \mathbb R^{p\times c}`; the authors' code uses :math:`f = W_2W_1x`
with the transposed matrices, a presentation choice only (``weights`` takes ``orientation="code"``).

Units are the ``p`` hidden neurons: unit ``j`` carries column ``j`` of :math:`W_1` (states ``W1_1 … W1_d``,
so the instance symbol ``W1_k_j`` is :math:`(W_1)_{kj}`) and row ``j`` of :math:`W_2`, i.e. column ``j`` of
:math:`W_2^\top` (states ``W2T_1 … W2T_c``, instance symbol ``W2T_m_j`` is :math:`(W_2^\top)_{mj}`).
The input :math:`x \in \mathbb R^d` and the target :math:`y \in \mathbb R^c` are random vectors with
moments :math:`\Sigma_{xx}` (symmetric, parameters ``Sxx_k_l``, ``k <= l``), :math:`\Sigma_{xy}` (``Sxy_k_m``)
and :math:`\Sigma_{yy}` (``Syy_m_n``, ``m <= n``); the loss is :math:`\tfrac12\mathbb E\|y - f(x)\|^2`.
Indices are 1-based and separated by ``_``, so the names are distinct at every size (``Sxy_1_11`` and
``Sxy_11_1``).

The layout is declared on the model (:func:`state_rows`, :func:`moment_entries`; the numerics take and return
these matrices as arrays): ``matrix_states`` ``W1`` (rows ``W1_1 … W1_d``, shape (d, p)) and ``W2T`` (rows
``W2T_1 … W2T_c``, shape (c, p): the transpose of :math:`W_2`), ``matrix_params`` ``Sxx`` (d×d, the entries
``(k, l)`` and ``(l, k)`` both ``Sxx_k_l`` with ``k <= l``), ``Sxy`` (d×c) and ``Syy`` (c×c, symmetric).
The units interact only through the product :math:`P = W_1W_2` (the sums ``P_k_m``), so one unit field
serves every width ``p``. ``linear_network(d, c)`` builds the model; the registry holds ``d = 3``, ``c = 2``.
Its ``param_check`` (:func:`check_second_moments`) refuses moments that no random vector :math:`(x, y)` has.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

import mpmath
import sympy as sp

from ..matrix_field import MatrixField, MatrixQuantity, from_matrix_flow
from ..matrix_flow import matrix_gradient_flow
from ..model import DeferredQuantities, Instance, Model, Quantity

__all__ = [
    "REALIZABLE_TOLERANCE",
    "check_second_moments",
    "linear_network",
    "matrix_field",
    "moment_entries",
    "moment_matrices",
    "product_name",
    "smallest_eigenvalue",
    "state_rows",
    "weights",
]

UNDERFLOW = 2.0**-1022
"""The smallest normal float64: a second moment forced below it (``Sxy**2 / Sxx``) may be given as 0."""
REALIZABLE_TOLERANCE = 1e-9
"""``-REALIZABLE_TOLERANCE`` is the smallest admissible eigenvalue of the joint correlation matrix (rounding in
moments computed from data or from a pseudo-inverse, e.g. the default ``Syy`` of ``moment_params``)."""


def state_rows(d: int, c: int) -> dict[str, tuple[str, ...]]:
    """The ``matrix_states`` of ``linear_network(d, c)``: ``W1`` → ``("W1_1", …, "W1_d")`` (row ``k`` of
    :math:`W_1` over the units) and ``W2T`` → ``("W2T_1", …, "W2T_c")`` (row ``m`` of :math:`W_2^\top`)."""
    return {"W1": tuple(f"W1_{k + 1}" for k in range(d)), "W2T": tuple(f"W2T_{m + 1}" for m in range(c))}


def _entry(prefix: str, i: int, j: int, symmetric: bool) -> str:
    # the separator makes the name injective in (i, j): Sxy_1_11 != Sxy_11_1
    if symmetric and i > j:
        i, j = j, i
    return f"{prefix}_{i + 1}_{j + 1}"


def moment_entries(d: int, c: int) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The ``matrix_params`` of ``linear_network(d, c)``: the parameter name of every entry of ``Sxx`` (d×d),
    ``Sxy`` (d×c) and ``Syy`` (c×c), row by row; the symmetric ``Sxx`` and ``Syy`` name entries ``(k, l)`` and
    ``(l, k)`` by one parameter, ``Sxx_k_l`` with ``k <= l`` (1-based)."""
    return {
        name: tuple(tuple(_entry(name, i, j, symmetric) for j in range(cols)) for i in range(rows))
        for name, rows, cols, symmetric in (("Sxx", d, d, True), ("Sxy", d, c, False), ("Syy", c, c, True))
    }


def product_name(k: int, m: int) -> str:
    """The name of the sum :math:`(W_1W_2)_{km}` (0-based indices)."""
    return f"P_{k + 1}_{m + 1}"


@cache
def linear_network(d: int = 3, c: int = 2) -> Model:
    """The model with input dimension ``d`` and output dimension ``c`` (integers >= 1)."""
    for name, value in (("d", d), ("c", c)):
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    rows = state_rows(d, c)
    rows1, rows2 = rows["W1"], rows["W2T"]
    entries = moment_entries(d, c)
    # each parameter once, in row order (the upper triangle of a symmetric matrix)
    param_names = tuple(dict.fromkeys(n for matrix in entries.values() for row in matrix for n in row))
    unit = {name: sp.Symbol(name, real=True) for name in (*rows1, *rows2)}
    P = [[sp.Symbol(product_name(k, m), real=True) for m in range(c)] for k in range(d)]
    S = {name: sp.Symbol(name, real=True) for name in param_names}
    Sxx, Sxy, Syy = entries["Sxx"], entries["Sxy"], entries["Syy"]

    def moment(s, i, j):
        # z = (x, y): the first d components are x
        if i < d and j < d:
            return s[Sxx[i][j]]
        if i >= d and j >= d:
            return s[Syy[i - d][j - d]]
        k, m = (i, j - d) if i < d else (j, i - d)
        return s[Sxy[k][m]]

    def network(s, x):
        hidden = [sum(s[rows1[k]][j] * x[k] for k in range(d)) for j in range(len(s[rows1[0]]))]
        return tuple(sum(h * w for h, w in zip(hidden, s[rows2[m]], strict=True)) for m in range(c))

    entry_names = [[str(moment(S, i, j)) for j in range(d + c)] for i in range(d + c)]

    def realizable(params: Mapping[str, object]) -> None:
        check_second_moments([[params[n] for n in row] for row in entry_names], entry_names, d)

    def quantities() -> dict[str, Quantity]:
        # sp.Add of all terms at once: a Python sum re-sorts the growing Add at every term (seconds at d = c = 11)
        loss = (
            sp.Add(*(S[Syy[m][m]] for m in range(c))) / 2
            - sp.Add(*(S[Sxy[k][m]] * P[k][m] for k in range(d) for m in range(c)))
            + sp.Add(*(S[Sxx[k][j]] * P[k][m] * P[j][m] for k in range(d) for j in range(d) for m in range(c))) / 2
        )
        products = {
            product_name(k, m): Quantity("sum", unit[rows1[k]] * unit[rows2[m]], f"(W1 W2)_{k + 1},{m + 1}")
            for k in range(d)
            for m in range(c)
        }
        return {**products, "loss": Quantity("scalar", loss, "population loss 1/2 E|y - f(x)|^2")}

    # built when an expression is read: at d = c = 32 the loss has 32 768 terms, which the matrix route never needs
    kinds = {**{product_name(k, m): "sum" for k in range(d) for m in range(c)}, "loss": "scalar"}
    return Model(
        name="linear_network",
        title=f"Two-layer linear network (d = {d}, c = {c})",
        reference="Nam et al. 2025, eq 4 and App. C.3",
        state_names=(*rows1, *rows2),
        unit_param_names=(),
        shared_param_names=param_names,
        network=network,
        target=lambda s, x: tuple(x[d:]),
        moment=moment,
        input_dim=lambda p: d + c,
        quantities=DeferredQuantities(kinds, quantities),
        notes=(
            "paper orientation f(x) = W2^T W1^T x, W1 in R^{d x p}, W2 in R^{p x c}",
            "unit j = hidden neuron j: column j of W1 and row j of W2",
        ),
        param_check=realizable,
        matrix_states=rows,
        matrix_params=entries,
        matrix_field_of=lambda: matrix_field(d, c),
    )


@cache
def matrix_field(d: int, c: int) -> MatrixField:
    r"""The flow of ``linear_network(d, c)`` in matrix form, from the derived ``matrix_gradient_flow``:
    :math:`\dot W_1 = MW_2^\top`, :math:`\dot W_2^\top = M^\top W_1` (``W2T`` = :math:`W_2^\top`), the sums ``P``
    = :math:`W_1W_2` (entries ``P_k_m``) and the loss, the derived trace form of ½E|y − f(x)|²."""
    flow = matrix_gradient_flow()
    products = tuple(tuple(product_name(k, m) for m in range(c)) for k in range(d))
    return from_matrix_flow(
        flow,
        states={"W1": flow.W1, "W2T": flow.W2.T},
        params={"Sxx": flow.Sxx, "Sxy": flow.Sxy, "Syy": flow.Syy},
        quantities={"P": MatrixQuantity(flow.W1 * flow.W2, products), "loss": MatrixQuantity(flow.loss)},
    )


def check_second_moments(matrix: Sequence[Sequence[object]], names: Sequence[Sequence[str]], d: int) -> None:
    r"""``ValueError``, naming the offending block or entries, unless ``matrix`` (the joint second moments
    :math:`\mathbb E[zz^\top]` of :math:`z = (x, y)`, :math:`x` its first ``d`` components, entry names in
    ``names``) is positive semidefinite, i.e. the moments of some random vector.

    Checked scale-free: the diagonal is >= 0, a zero diagonal entry has a zero row (up to entries whose forced
    second moment :math:`M_{ij}^2/M_{jj}` underflows float64, :data:`UNDERFLOW`), and the correlation matrix
    :math:`D^{-1/2}MD^{-1/2}` of the other rows has no eigenvalue below ``-REALIZABLE_TOLERANCE``, first for the
    :math:`x` block (``Sxx``), then for the :math:`y` block (``Syy``), then jointly (``Sxy``). The eigenvalue is
    computed in float64 where that decides the comparison (:func:`smallest_eigenvalue`'s bound), else at 20 digits.
    """
    with mpmath.workdps(20):
        m = [[mpmath.mpf(v) for v in row] for row in matrix]
        size = len(m)
        for i in range(size):
            block = "Sxx" if i < d else "Syy"
            if m[i][i] < 0:
                raise ValueError(
                    f"{block} must have a diagonal >= 0 (second moments): {names[i][i]} = {float(m[i][i])!r}"
                )
            # a zero diagonal is the float64 rounding of the moment a row forces when that moment underflows
            # (only a zero diagonal needs the row: 4096 products at 20 digits for 64x64 joint moments otherwise)
            forced = [j for j in range(size) if m[i][j] ** 2 > m[j][j] * UNDERFLOW] if m[i][i] == 0 else []
            if forced:
                j = forced[0]
                raise ValueError(
                    f"{block} has {names[i][i]} = 0 but {names[i][j]} = {float(m[i][j])!r} != 0: a variable with "
                    "second moment 0 is 0 almost surely, so its moments with every other variable (Sxy, Sxx, Syy) are 0"
                )
        blocks = (
            ("Sxx must be positive semidefinite (the second moments of a random x)", range(d)),
            ("Syy must be positive semidefinite (the second moments of a random y)", range(d, size)),
            (
                "Sxy must be realizable with Sxx and Syy: the joint second moments [[Sxx, Sxy], [Sxy^T, Syy]] of "
                "(x, y) must be positive semidefinite (Syy >= Sxy^T Sxx^+ Sxy)",
                range(size),
            ),
        )
        for label, rows in blocks:
            kept = [i for i in rows if m[i][i] > 0]
            if not kept:
                continue
            # the correlation matrix in float64 first (milliseconds at 64x64), at 20 digits where that cannot decide
            smallest = _certain_float_eigenvalue(_float_correlation(m, kept), -REALIZABLE_TOLERANCE)
            if smallest is None:
                root = {i: mpmath.sqrt(m[i][i]) for i in kept}
                correlation = [[m[i][j] / root[i] / root[j] for j in kept] for i in kept]
                smallest = smallest_eigenvalue(correlation, -REALIZABLE_TOLERANCE)
            if smallest < -REALIZABLE_TOLERANCE:
                raise ValueError(f"{label}; the correlation matrix has eigenvalue {float(smallest):.3g} < 0")


def smallest_eigenvalue(matrix: Sequence[Sequence[mpmath.mpf]], threshold: float) -> mpmath.mpf | float:
    r"""The smallest eigenvalue of the symmetric ``matrix`` (``mpmath.mpf`` entries), exact enough to compare with
    ``threshold``: the float64 eigenvalue (LAPACK, milliseconds at 64×64) where it is farther from ``threshold``
    than its error bound, else mpmath's ``eigsy`` at the working precision (seconds at 64×64).

    The bound: the float64 matrix differs from ``matrix`` by at most :math:`arepsilon\|A\|_F` in norm (rounding
    of the entries), and LAPACK's symmetric eigenvalues are backward stable, within :math:`p(n)arepsilon\|A\|_2`;
    by Weyl's inequality every eigenvalue moves by at most the sum. The margin :math:`64 n arepsilon\|A\|_F` is a
    generous :math:`p(n)` (the eigenvalues of a correlation matrix are at most n).
    """
    import numpy as np

    with np.errstate(over="ignore", invalid="ignore"):
        approximate = np.array([[float(v) for v in row] for row in matrix], dtype=float)
    value = _certain_float_eigenvalue(approximate, threshold)
    return min(mpmath.eigsy(mpmath.matrix(matrix))[0]) if value is None else value


def _certain_float_eigenvalue(approximate: object, threshold: float) -> float | None:
    """The smallest float64 eigenvalue of ``approximate`` (a float64 matrix within a few units of rounding of the
    exact one, entry by entry) if it is farther from ``threshold`` than the bound of :func:`smallest_eigenvalue`,
    else None (also for None or a matrix with entries that are not finite)."""
    import numpy as np

    if not isinstance(approximate, np.ndarray) or not np.all(np.isfinite(approximate)):
        return None
    value = float(np.linalg.eigvalsh(approximate)[0])
    margin = 64 * len(approximate) * np.finfo(float).eps * float(np.linalg.norm(approximate))
    return value if abs(value - threshold) > margin else None


def _float_correlation(m: Sequence[Sequence[mpmath.mpf]], kept: Sequence[int]) -> object:
    """:math:`D^{-1/2}MD^{-1/2}` of the rows ``kept`` in float64, each entry within 3 roundings of the exact one;
    None where float64 cannot promise that (an entry or diagonal outside the normal range, or one that
    underflows)."""
    import numpy as np

    with np.errstate(all="ignore"):
        block = np.array([[float(m[i][j]) for j in kept] for i in kept], dtype=float)
        normal = np.finfo(float).tiny * 2.0**60
        root = np.sqrt(np.diag(block))
        correlation = block / root[:, None] / root[None, :]
    finite = np.all(np.isfinite(block)) and np.all(np.isfinite(correlation))
    if not finite or np.any(np.diag(block) < normal) or np.any((block != 0) & (np.abs(block) < normal)):
        return None
    if np.any((correlation != 0) & (np.abs(correlation) < normal)):
        return None
    return correlation


def weights(instance: Instance, orientation: str = "paper") -> tuple[sp.Matrix, sp.Matrix]:
    r"""The weight matrices of an explicit instance: :math:`(W_1, W_2)` in the paper orientation
    (:math:`d\times p`, :math:`p\times c`), or their transposes for ``orientation="code"`` (:math:`f = W_2W_1x`)."""
    if orientation not in ("paper", "code"):
        raise ValueError(f"orientation must be 'paper' or 'code', got {orientation!r}")
    rows = instance.model.matrix_states
    W1 = sp.Matrix([list(instance.state[n]) for n in rows["W1"]])
    W2 = sp.Matrix([list(instance.state[n]) for n in rows["W2T"]]).T
    return (W1, W2) if orientation == "paper" else (W1.T, W2.T)


def moment_matrices(instance: Instance) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    r""":math:`(\Sigma_{xx}, \Sigma_{xy}, \Sigma_{yy})` as matrices of the instance's parameter symbols."""
    W1, W2 = weights(instance)
    d, c = W1.shape[0], W2.shape[1]
    m = instance.model.moment
    return (
        sp.Matrix(d, d, lambda i, j: m(instance.sym, i, j)),
        sp.Matrix(d, c, lambda i, j: m(instance.sym, i, d + j)),
        sp.Matrix(c, c, lambda i, j: m(instance.sym, d + i, d + j)),
    )


MODEL = linear_network(3, 2)
