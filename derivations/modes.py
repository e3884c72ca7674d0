r"""Matrix networks reduced to modes: a two-layer linear network :math:`W_2W_1x` recognised from its derived
flow, on the aligned invariant set, solved mode by mode by the registered ``deep_linear_whitened`` closed form.

Recognised structure (:func:`product_structure`, read off ``Model.unit_field``, whatever the model is called): a
unit (hidden neuron) carries a column :math:`w_1 \in \mathbb R^d` of :math:`W_1` and a row :math:`w_2 \in
\mathbb R^c` of :math:`W_2` (as a column of :math:`W_2^\top`), the units couple through the sums :math:`P_{km} =
\sum_j (w_1)_k(w_2)_m` (a product of one state of each group), and the derived field is

.. math:: \dot w_1 = (\Sigma_{xy} - \Sigma_{xx}P)\,w_2, \qquad \dot w_2 = (\Sigma_{xy} - \Sigma_{xx}P)^\top w_1

with matrices :math:`\Sigma_{xy}` (d×c) and :math:`\Sigma_{xx}` (d×d) of parameter expressions, extracted as
the field's coefficients and proved equal to it (Nam et al. 2025, App. C.3, eqs 36–45).

Whitening: the reduction needs :math:`\Sigma_{xx} = I`. Numbers other than the identity are refused with the
reason; free parameters (``linear_network``'s ``Sxx_k_l``) make :math:`\Sigma_{xx} = I` a *condition on the
parameters*: it is recorded as an assumption of the derivation and the evaluator (``numerics.modes``) refuses
other values (``ValueError`` naming ``params``).

Aligned set (Saxe et al. 2014; spec models-nam2025.md §3, eqs 49–53): with the SVD :math:`\Sigma_{xy} = USV^\top`
(new symbols :math:`U_{k\alpha}`, :math:`s_\alpha`, :math:`V_{m\alpha}`, :math:`r = \min(d, c)` modes; the SVD
itself is computed numerically by the evaluator), :math:`W_1 = UAR^\top`, :math:`W_2^\top = VBR^\top`
(:math:`R` p×r with orthonormal columns: unit ``j`` carries row :math:`R_j`, constant; :math:`A`, :math:`B`
diagonal) is invariant and each mode obeys :math:`\dot a_\alpha = b_\alpha(s_\alpha - a_\alpha b_\alpha)`,
:math:`\dot b_\alpha = a_\alpha(s_\alpha - a_\alpha b_\alpha)`: the flow of the mode model
(``aligned_modes.mode_model``, registered as ``deep_linear_whitened``), whose closed form ``solve`` derives; it
is reused, not derived again. The steps, each checked exactly at the model's sizes: the field's form, the sums
on the set (:math:`P = UABV^\top` from :math:`R^\top R = I`) and the back-substitution of the ansatz into the
field (modulo :math:`U^\top U = V^\top V = I`, a Gröbner normal form), followed by the mode model's own
derivation. Off the aligned set the pipeline keeps its reason (``ClosedForm.general``).

Not covered: λ-balanced starts off the aligned set (:math:`W_2W_2^\top - W_1^\top W_1 = \lambda I`, Dominé et
al. 2025). There :math:`Q = [W_1; W_2^\top]` obeys :math:`\dot Q = FQ - \tfrac12 QQ^\top Q`,
:math:`F = [[-\tfrac\lambda2 I, \Sigma_{xy}], [\Sigma_{yx}, \tfrac\lambda2 I]]`, and with :math:`Y = e^{Ft}Q_0`,
:math:`M = I + Q_0^\top\int_0^t e^{2Fs}ds\,Q_0` the product :math:`QQ^\top = YM^{-1}Y^\top` is closed (the matrix
Riccati equation, linearized: Dominé et al.'s QQᵀ solution), but the units' own state is
:math:`Q = YG` with :math:`GG^\top = M^{-1}` and :math:`\dot G = -\tfrac12 M^{-1}\dot M G`, a time-ordered
exponential unless :math:`M` and :math:`\dot M` commute (as on the aligned set): a per-unit closed form does not
exist in this form, only one for the sums :math:`P = W_1W_2` (a block of :math:`QQ^\top`). An aligned λ-balanced
start is an aligned start and is solved here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache

import sympy as sp

from . import registry
from .closed_form import ClosedForm
from .derivation import Derivation
from .model import Model
from .proof import Proof, prove_zero

__all__ = [
    "AlignedModes",
    "ProductStructure",
    "aligned_modes",
    "candidates",
    "has_product_sums",
    "mode_closed_form",
    "product_structure",
]


@dataclass(frozen=True)
class ProductStructure:
    """A unit field of the form :math:`\\dot w_1 = (\\Sigma_{xy} - \\Sigma_{xx}P)w_2`,
    :math:`\\dot w_2 = (\\Sigma_{xy} - \\Sigma_{xx}P)^\\top w_1`: ``first`` names the states of :math:`w_1`
    (length d), ``second`` those of :math:`w_2` (length c), ``products[k][m]`` the sum symbol of
    :math:`(w_1)_k(w_2)_m`, ``sxy`` (d×c) and ``sxx`` (d×d) the coefficient matrices (parameter expressions)."""

    first: tuple[str, ...]
    second: tuple[str, ...]
    products: tuple[tuple[sp.Symbol, ...], ...]
    sxy: sp.Matrix
    sxx: sp.Matrix

    def template(self, model: Model, sxy: sp.Matrix, sxx: sp.Matrix) -> dict[str, sp.Expr]:
        """The field of the form with the matrices ``sxy``, ``sxx`` (state name → expression in the unit's
        states and the sums)."""
        w1 = sp.Matrix([model.symbol(n) for n in self.first])
        w2 = sp.Matrix([model.symbol(n) for n in self.second])
        residual = sxy - sxx * sp.Matrix(self.products)
        return {
            **{n: e for n, e in zip(self.first, residual * w2, strict=True)},
            **{n: e for n, e in zip(self.second, residual.T * w1, strict=True)},
        }


def _product_pairs(model: Model) -> dict[frozenset[str], sp.Symbol]:
    """The sums whose summand is a product of two distinct states (the pair of names → the sum's symbol)."""
    states = {model.symbol(n): n for n in model.state_names}
    pairs = {}
    for name, quantity in model.quantities.items():
        if quantity.kind != "sum":
            continue
        factors = sp.Mul.make_args(sp.sympify(quantity.expr))
        if len(factors) == 2 and all(f in states for f in factors) and factors[0] != factors[1]:
            pairs[frozenset(states[f] for f in factors)] = model.symbol(name)
    return pairs


def _groups(model: Model, pairs: dict[frozenset[str], sp.Symbol]) -> tuple[tuple[str, ...], tuple[str, ...]] | str:
    """The two groups of states of a bipartite product structure (the group of the first state first)."""
    color: dict[str, int] = {}
    for start in model.state_names:
        if start in color:
            continue
        color[start] = 0
        stack = [start]
        while stack:
            node = stack.pop()
            for pair in pairs:
                if node in pair:
                    (other,) = pair - {node}
                    if other not in color:
                        color[other] = 1 - color[node]
                        stack.append(other)
                    elif color[other] == color[node]:
                        return f"the product sums pair {node} with {other} of the same factor: not a product W2 W1"
    first = tuple(n for n in model.state_names if color[n] == 0)
    second = tuple(n for n in model.state_names if color[n] == 1)
    missing = [(a, b) for a in first for b in second if frozenset((a, b)) not in pairs]
    if not second or missing:
        return (
            "the units' states are not two factors coupled through every product sum "
            f"(no sum of {' * '.join(missing[0]) if missing else 'two states'})"
        )
    return first, second


def _fit(model: Model, first: tuple[str, ...], second: tuple[str, ...], pairs) -> ProductStructure | str:
    """The coefficient matrices of the form with ``first`` as :math:`w_1`, or why the field is not of it."""
    field_ = {str(s): e for s, e in model.unit_field.items()}
    w2 = [model.symbol(n) for n in second]
    products = tuple(tuple(pairs[frozenset((a, b))] for b in second) for a in first)
    flat = [q for row in products for q in row]
    d, c = len(first), len(second)
    sxy = sp.zeros(d, c)
    sxx = sp.zeros(d, d)
    for k, name in enumerate(first):
        expr = sp.expand(field_[name])
        if not expr.is_polynomial(*w2, *flat):
            return f"the field of {name} is not polynomial in {', '.join(second)} and the product sums"
        poly = sp.Poly(expr, *w2, *flat)
        for m in range(c):
            sxy[k, m] = poly.coeff_monomial(w2[m])
        for j in range(d):
            sxx[k, j] = -poly.coeff_monomial(products[j][0] * w2[0])
    allowed = {model.symbol(n) for n in model.shared_param_names}
    extra = (sxy.free_symbols | sxx.free_symbols) - allowed
    if extra:
        return f"the field's coefficients depend on {', '.join(sorted(map(str, extra)))}, not only shared parameters"
    structure = ProductStructure(first, second, products, sxy, sxx)
    for name, expr in structure.template(model, sxy, sxx).items():
        if sp.expand(field_[name] - expr) != 0:
            return f"the field of {name} is not (Sxy - Sxx P) w2 (resp. its transpose) with constant Sxy, Sxx"
    if sp.expand(sxx - sxx.T) != sp.zeros(d, d):
        return f"the input moments Sxx = {sxx.tolist()} are not symmetric"
    return structure


def product_structure(model: Model) -> ProductStructure | str:
    """The product structure of ``model``'s derived unit field (module docstring), or the reason it has none.

    Arguments:
        model: any model; its ``unit_field`` and its sums are read, its name is not.

    Returns:
        A :class:`ProductStructure` (the orientation with the model's first state in :math:`w_1` if both fit),
        or a reason (a string).
    """
    pairs = _product_pairs(model)
    if not pairs:
        return "no sum is a product of two states (a matrix network W2 W1 couples its units through W1 W2)"
    groups = _groups(model, pairs)
    if isinstance(groups, str):
        return groups
    first, second = groups
    found = _fit(model, first, second, pairs)
    if isinstance(found, str):
        other = _fit(model, second, first, pairs)
        return other if not isinstance(other, str) else found
    return found


@dataclass(frozen=True)
class AlignedModes:
    """The clock solution of a matrix network on the aligned set (``numerics.modes`` evaluates it): the SVD
    factors ``U`` (d×r), ``s`` (r), ``V`` (c×r) of :math:`\\Sigma_{xy}` (``sxy``, parameter expressions), each
    unit's row ``R`` (r) of :math:`R`, and the modes ``a``, ``b`` (r) at the time, which follow ``mode_model``'s
    closed form (every mode from its start; ``mode_model`` is a registered model's name). ``first`` and
    ``second`` are the initial-value symbols of :math:`w_1` and :math:`w_2`; ``sxx`` must be the identity at the
    parameters (``whitening`` says whether that is a condition on them)."""

    U: tuple[tuple[sp.Symbol, ...], ...]
    s: tuple[sp.Symbol, ...]
    V: tuple[tuple[sp.Symbol, ...], ...]
    R: tuple[sp.Symbol, ...]
    a: tuple[sp.Symbol, ...]
    b: tuple[sp.Symbol, ...]
    first: tuple[sp.Symbol, ...]
    second: tuple[sp.Symbol, ...]
    sxy: tuple[tuple[sp.Expr, ...], ...]
    sxx: tuple[tuple[sp.Expr, ...], ...]
    mode_model: str
    derivation: Derivation
    whitening: bool = False

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        """The clock symbols: U, s, V (per start), R (per unit), a, b (per start and time)."""
        return (
            *(u for row in self.U for u in row),
            *self.s,
            *(v for row in self.V for v in row),
            *self.R,
            *self.a,
            *self.b,
        )

    @property
    def arguments(self) -> frozenset[sp.Symbol]:
        """The initial values and the parameters of Σxy, Σxx."""
        moments = [e for rows in (self.sxy, self.sxx) for row in rows for e in row]
        return frozenset({*self.first, *self.second, *set().union(*(sp.sympify(e).free_symbols for e in moments))})


@cache
def mode_closed_form() -> ClosedForm:
    """The closed form of the registered mode model ``deep_linear_whitened`` (``derivations.solve``)."""
    solution = registry_mode_model().solution
    if not isinstance(solution, ClosedForm):
        raise ValueError(f"the mode model is not solved: {solution}")
    return solution


def _all_zero(residuals: list[sp.Expr], relations: tuple[sp.Expr, ...] = ()) -> Proof:
    """One proof that every residual vanishes (modulo ``relations``)."""
    for residual in residuals:
        proof = prove_zero(residual, relations=relations)
        if not (proof.holds and proof.exact):
            return proof
    return Proof(True, f"{len(residuals)} residuals, each proved zero", True)


Aligned = tuple[AlignedModes, dict[str, sp.Expr], dict[sp.Symbol, sp.Expr], Derivation]
"""What :func:`aligned_modes` derives: the clock, the state, the sums along it and the derivation."""


def aligned_modes(model: Model, structure: ProductStructure, fresh: Callable[..., sp.Symbol]) -> Aligned:
    """The aligned-set solution of a product structure: the clock, the state (name → expression in the clocks),
    the sums along it and the derivation (every step checked exactly). ``fresh(base)`` gives unused symbols.

    Arguments:
        model: the model whose field has ``structure``.
        structure: from :func:`product_structure`.
        fresh: ``catalogue.Context.fresh``.

    Returns:
        ``(clock, state, along, derivation)``.

    Raises:
        ValueError: the mode model has no closed form (never for the registered one).
    """
    d, c = len(structure.first), len(structure.second)
    r = min(d, c)
    modes, mode = mode_closed_form(), registry_mode_model()
    U = sp.Matrix(d, r, lambda k, al: fresh(f"U_{k + 1}_{al + 1}", real=True))
    V = sp.Matrix(c, r, lambda m, al: fresh(f"V_{m + 1}_{al + 1}", real=True))
    s = tuple(fresh(f"s_{al + 1}", nonnegative=True) for al in range(r))
    R = tuple(fresh(f"R_{al + 1}", real=True) for al in range(r))
    a = tuple(fresh(f"a_{al + 1}", real=True) for al in range(r))
    b = tuple(fresh(f"b_{al + 1}", real=True) for al in range(r))
    S = sp.diag(*s)
    A, B = sp.diag(*a), sp.diag(*b)
    rho = sp.Matrix(R)
    w1, w2 = U * A * rho, V * B * rho
    state = {n: e for n, e in zip(structure.first, w1, strict=True)} | {
        n: e for n, e in zip(structure.second, w2, strict=True)
    }
    ma, mb, mS = (mode.symbol(n) for n in ("a", "b", "S"))
    rates = {
        "a": [mode.unit_field[ma].xreplace({ma: a[al], mb: b[al], mS: s[al]}) for al in range(r)],
        "b": [mode.unit_field[mb].xreplace({ma: a[al], mb: b[al], mS: s[al]}) for al in range(r)],
    }
    d_ = Derivation(f"{model.title}: aligned modes of the matrix network")
    t = sp.Symbol("t")
    # 1. the field's form, read off the derived field and proved equal to it
    template = structure.template(model, structure.sxy, structure.sxx)
    for name in (*structure.first, *structure.second):
        d_.add(
            sp.Eq(sp.Derivative(sp.Function(name)(t), t), template[name]),
            "the derived field is (Sxy - Sxx P) w2 for the column w1 of W1 and (Sxy - Sxx P)^T w1 for the row w2 "
            "of W2 (coefficients read off the field)",
            residual=model.unit_field[model.symbol(name)] - template[name],
            key="structure",
        )
    eye = sp.eye(d)
    whitening = bool(structure.sxx.free_symbols)
    if whitening:
        entries = ", ".join(f"{e} = {eye[i, j]}" for (i, j), e in _entries(structure.sxx) if i <= j)
        d_.assumptions = (
            *d_.assumptions,
            f"whitened input: Sxx = I, i.e. {entries} (a condition on the parameters, checked by the evaluator)",
        )
    else:
        d_.add(
            sp.Eq(sp.Symbol("Sigma_xx"), sp.Symbol("I")),
            "the input is whitened: Sxx = I",
            verifier=lambda: _all_zero([e - eye[i, j] for (i, j), e in _entries(structure.sxx)]),
            key="whitened",
        )
    d_.assumptions = (
        *d_.assumptions,
        f"Sxy = U S V^T (thin SVD, U {d}x{r} and V {c}x{r} with orthonormal columns, S = diag(s) >= 0; computed "
        "numerically by the evaluator)",
        "aligned start: W1 = U A R^T, W2^T = V B R^T, R (p x r) with orthonormal columns, A, B diagonal; unit j "
        "carries the row R_j",
    )
    svd = U * S * V.T
    # 2. the sums on the aligned set: P = U A (R^T R) B V^T = U A B V^T
    gram = sp.Matrix(r, r, lambda i, j: sp.Symbol(f"G_{min(i, j) + 1}_{max(i, j) + 1}", real=True))  # R^T R
    orthonormal_R = tuple(gram[i, j] - (1 if i == j else 0) for i in range(r) for j in range(i, r))
    along_matrix = U * A * B * V.T
    summed = U * A * gram * B * V.T  # sum over the units j of w1_j w2_j^T, G = R^T R
    along: dict[sp.Symbol, sp.Expr] = {}
    for k in range(d):
        for m in range(c):
            q = structure.products[k][m]
            along[q] = along_matrix[k, m]
            d_.add(
                sp.Eq(q, along_matrix[k, m]),
                f"the sum {q} over the units on the aligned set, with G = R^T R = I",
                residual=summed[k, m] - along_matrix[k, m],
                relations=orthonormal_R,
                key="sums",
            )
    # 3. back-substitution: the ansatz moved by the mode flow satisfies the field (modulo U^T U = V^T V = I)
    values = {model.symbol(n): e for n, e in state.items()} | along
    moved = structure.template(model, svd, eye)
    orthonormal_U = _orthonormal(U)
    orthonormal_V = _orthonormal(V)
    for name, expr in state.items():
        derivative = sum(sp.diff(expr, x) * rate for x, rate in zip((*a, *b), (*rates["a"], *rates["b"]), strict=True))
        first = name in structure.first
        d_.add(
            sp.Eq(sp.Derivative(sp.Function(name)(t), t), sp.expand(moved[name].xreplace(values))),
            f"check: {name} = ({'U A' if first else 'V B'} R^T)_j along the mode flow a' = b (s - a b), "
            "b' = a (s - a b) satisfies the derived field (the aligned set is invariant)",
            residual=sp.expand(derivative - moved[name].xreplace(values)),
            relations=orthonormal_V if first else orthonormal_U,
            key="aligned",
        )
    # 4. each mode: the mode model's flow and its closed form (derived by solve, reused)
    for al in range(r):
        for x, rate, n in ((a[al], rates["a"][al], "a"), (b[al], rates["b"][al], "b")):
            d_.add(
                sp.Eq(sp.Derivative(sp.Function(str(x))(t), t), rate),
                f"mode {al + 1} follows the derived flow of {mode.name} (unit field of {n} at s = s_{al + 1})",
                residual=rate - mode.unit_field[mode.symbol(n)].xreplace({ma: a[al], mb: b[al], mS: s[al]}),
                key="modes",
            )
    for step in modes.derivation.steps:
        d_.steps.append(
            replace(
                step,
                justification=f"{mode.name} (each mode): {step.justification}",
                key=f"mode_{step.key}" if step.key else "mode",
            )
        )
    d_.relations = (*d_.relations, *modes.derivation.relations)
    d_.definitions.update(modes.derivation.definitions)
    clock = AlignedModes(
        tuple(tuple(U[k, al] for al in range(r)) for k in range(d)),
        s,
        tuple(tuple(V[m, al] for al in range(r)) for m in range(c)),
        R,
        a,
        b,
        tuple(model.init_symbol(n) for n in structure.first),
        tuple(model.init_symbol(n) for n in structure.second),
        tuple(tuple(row) for row in structure.sxy.tolist()),
        tuple(tuple(row) for row in structure.sxx.tolist()),
        mode.name,
        d_,
        whitening,
    )
    return clock, state, along, d_


def registry_mode_model() -> Model:
    """The registered mode model ``deep_linear_whitened`` (``aligned_modes.mode_model``)."""
    return registry.get("deep_linear_whitened")


def _entries(matrix: sp.Matrix) -> list[tuple[tuple[int, int], sp.Expr]]:
    return [((i, j), matrix[i, j]) for i in range(matrix.rows) for j in range(matrix.cols)]


def _orthonormal(M: sp.Matrix) -> tuple[sp.Expr, ...]:
    """The relations M^T M = I (upper triangle)."""
    gram = M.T * M
    return tuple(sp.expand(gram[i, j] - (1 if i == j else 0)) for i in range(M.cols) for j in range(i, M.cols))


def candidates(model: Model, fresh: Callable[..., sp.Symbol]) -> Iterator[Aligned | str]:
    """The matrix-modes candidate (``catalogue.MatrixModes``): a reason, or ``(clock, state, along, derivation)``."""
    structure = product_structure(model)
    if isinstance(structure, str):
        yield structure
        return
    eye = sp.eye(len(structure.first))
    fixed = [(i, j) for i in range(eye.rows) for j in range(eye.cols) if not structure.sxx[i, j].free_symbols]
    if any(sp.simplify(structure.sxx[i, j] - eye[i, j]) != 0 for i, j in fixed):
        yield (
            f"the input is not whitened: Sxx = {structure.sxx.tolist()} is not the identity (the aligned modes "
            "need Sxx = I; whiten x first)"
        )
        return
    yield aligned_modes(model, structure, fresh)


def has_product_sums(model: Model) -> bool:
    """Whether some sum of ``model`` is a product of two of its states (a matrix network's coupling)."""
    return bool(_product_pairs(model))
