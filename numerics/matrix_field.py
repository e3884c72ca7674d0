r"""A model's flow evaluated as matrix products: its declared ``derivations.matrix_field.MatrixField`` compiled to
batched numpy code.

Each matrix expression is translated node by node into generated Python (``numpy.matmul`` for a product,
``numpy.swapaxes(·, -1, -2)`` for a transpose, ``numpy.trace`` over the last two axes), so that every product is
one batched BLAS call over the leading (batch, time) axes and a common subexpression (the residual :math:`M` of a
linear network, shared by both components) is computed once. The cost is a few matrix products at any size, where
the entrywise unit field (``numerics.compiled``) grows with the number of entries. Object arrays of ``mpmath.mpf``
go through the same code (numpy's ``matmul`` and ``trace`` work on them), for the ``"mpmath"`` method.

The states keep the layout of the entrywise route (each matrix state's rows are state names, e.g. ``W1_1 … W1_d``;
the integrators pack them as (states, batch, p)); the parameters are assembled into matrices (batch, r, c) from
their entries once per run (:func:`parameter_matrices`).
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .arithmetic import Arithmetic, fp
from .cache import Generated, artifact
from .compiled import BatchField, CompiledModel, compiled
from .model_spec import ModelSpec, spec_of

if TYPE_CHECKING:
    import sympy as sp

    from derivations.model import Model

__all__ = [
    "MatrixBatchField",
    "MatrixCompiled",
    "batch_field",
    "flow_functions",
    "matrix_compiled",
    "matrix_descent",
    "matrix_quantities",
    "parameter_matrices",
    "translate",
]


@dataclass(frozen=True)
class MatrixCompiled:
    """The compiled matrix field of ``model``: ``field(*states, *params)`` → :math:`\\dot W` of each matrix
    state (lists in :attr:`state_matrices` order, each (..., r, p)), ``tangent(*states, *tangents, *params)`` →
    :math:`J(W)V`; ``quantities``: (quantity name, its entries' names or None for a scalar, function of
    ``(*states, *params)``). ``state_matrices``: (matrix name, the indices of its rows in ``model.state_names``)."""

    model: ModelSpec
    state_matrices: tuple[tuple[str, tuple[int, ...]], ...]
    param_matrices: tuple[str, ...]
    field: Generated
    tangent: Generated
    quantities: tuple[tuple[str, tuple[tuple[str, ...], ...] | None, Generated], ...]

    def matrices(self, rows: Sequence[Any] | np.ndarray) -> list[Any]:
        """The matrix states (..., r, p) from the packed rows (``rows[i]`` is state ``i``, shape (..., p)): views of
        a packed array whose matrix rows are consecutive (matmul reads strided arrays), else stacked copies."""
        out = []
        for _, index in self.state_matrices:
            first, last = index[0], index[-1] + 1
            if isinstance(rows, np.ndarray) and index == tuple(range(first, last)):
                out.append(np.moveaxis(rows[first:last], 0, -2))
            else:
                out.append(np.stack([rows[i] for i in index], axis=-2))
        return out

    def rows(self, matrices: Sequence[Any], like: Any) -> Any:
        """The packed rows (states, ..., p) of the matrix states ``matrices``, in an array like ``like``."""
        out = np.empty_like(like)
        for (_, index), matrix in zip(self.state_matrices, matrices, strict=True):
            out[list(index)] = np.moveaxis(matrix, -2, 0)
        return out

    def rhs(self, env: Mapping[str, Any]) -> dict[str, Any]:
        """The field at the states in ``env`` (rows by name, arrays (..., p); parameters by entry, or as
        matrices under their matrix names), one entry per state name (``numerics.evaluate.unit_rhs``)."""
        names = self.model.state_names
        states = self.matrices([env[n] for n in names])
        derivatives = self.field(*states, *parameter_matrices(self, env))
        out = {}
        for (_, index), derivative in zip(self.state_matrices, derivatives, strict=True):
            for k, i in enumerate(index):
                out[names[i]] = derivative[..., k, :]
        return out


@dataclass(frozen=True)
class MatrixBatchField(BatchField):
    """The :class:`numerics.compiled.BatchField` of a matrix model: the packed state ``y`` (states, batch, p)
    viewed as its matrices, the field and its tangent evaluated as matrix products; ``params`` are the parameter
    matrices (:func:`parameter_matrices`, batch axis first)."""

    compiled: MatrixCompiled

    def __call__(self, y: np.ndarray, params: Sequence[object]) -> np.ndarray:
        return self.compiled.rows(self.field(*self.compiled.matrices(y), *params), y)

    def jvp(self, y: np.ndarray, v: np.ndarray, params: Sequence[object]) -> np.ndarray:
        c = self.compiled
        return c.rows(self.tangent(*c.matrices(y), *c.matrices(v), *params), y)


def batch_field(compiled: MatrixCompiled) -> MatrixBatchField:
    """The batch field of DOP853 (``numerics.dop853``) for ``compiled``."""
    return MatrixBatchField(compiled.param_matrices, compiled.field, compiled.tangent, compiled)


def flow_functions(model: str | Model | ModelSpec, ctx: Arithmetic | str = fp) -> CompiledModel | MatrixCompiled:
    """What the integrators evaluate the field of ``model`` with: its :class:`MatrixCompiled` if it declares a
    matrix field (the same code for every arithmetic), else its entrywise ``compiled(model, ctx)``."""
    spec = spec_of(model)
    return matrix_compiled(spec) if spec.has_matrix_field else compiled(spec, ctx)


def matrix_compiled(model: str | Model | ModelSpec) -> MatrixCompiled:
    """The compiled matrix field of ``model`` (built once, kept in the disk cache).

    Raises:
        ValueError: ``model`` declares no matrix field, or its states are not all rows of its matrix states, or it
            has unit parameters or shared parameters outside its matrix parameters (naming them).
    """
    spec = spec_of(model)
    return artifact(spec.key, "matrix-field", lambda: _compiled(spec))


def _compiled(spec: ModelSpec) -> MatrixCompiled:
    import sympy as sp

    declared = spec.model.matrix_field
    if declared is None:
        raise ValueError(f"{spec.name}: the model declares no matrix field (Model.matrix_field_of)")
    rows = [r for rows in spec.matrix_states.values() for r in rows]
    entries = {n for layout in spec.matrix_params.values() for row in layout for n in row}
    loose = [n for n in spec.state_names if n not in rows] + [n for n in spec.shared_param_names if n not in entries]
    if loose or spec.unit_param_names:
        raise ValueError(
            f"{spec.name}: a matrix field needs every state a row of a matrix state and every parameter an entry of a "
            f"matrix parameter; not so: {loose + list(spec.unit_param_names)}"
        )
    order = tuple(declared.states)
    states = [declared.states[n] for n in order]
    params = [declared.params[n] for n in spec.matrix_params]
    tangents = {n: sp.MatrixSymbol(f"d{n}", *declared.states[n].shape) for n in order}
    along = declared.tangent(tangents)
    index = {n: i for i, n in enumerate(spec.state_names)}
    return MatrixCompiled(
        spec,
        tuple((n, tuple(index[r] for r in spec.matrix_states[n])) for n in order),
        tuple(spec.matrix_params),
        translate([*states, *params], [declared.field[n] for n in order]),
        translate([*states, *(tangents[n] for n in order), *params], [along[n] for n in order]),
        tuple((name, q.entries, translate([*states, *params], [q.expr])) for name, q in declared.quantities.items()),
    )


_GLOBALS = {"matmul": np.matmul, "swapaxes": np.swapaxes, "trace": np.trace}


def translate(arguments: Sequence[sp.MatrixSymbol], exprs: Sequence[sp.Expr]) -> Generated:
    """``exprs`` as one generated function of ``arguments`` (matrix symbols, in order) returning their values as a
    list, batched over leading axes: a product is ``numpy.matmul`` (left to right), a transpose swaps the last two
    axes (pushed through products onto their factors, so that ``(W_1^T M)^T`` is computed as ``M^T W_1``), a
    trace sums the diagonal of the last two axes; a repeated subexpression is computed once.

    Raises:
        ValueError: an expression holds a node other than matrix symbols, sums, products, numbers, transposes and
            traces (naming it).
    """
    import sympy as sp

    lines: list[str] = []
    known: dict[sp.Basic, str] = {a: f"a{i}" for i, a in enumerate(arguments)}

    def emit(node: sp.Basic) -> str:
        if node in known:
            return known[node]
        if isinstance(node, sp.MatrixSymbol):
            raise ValueError(f"translate: the matrix {node} is not among the arguments {list(arguments)}")
        code = _code(node)
        name = f"t{len(lines)}"
        lines.append(f"    {name} = {code}")
        known[node] = name
        return name

    def _code(node: sp.Basic) -> str:
        if isinstance(node, (sp.MatAdd, sp.Add)):
            # a term with a negative coefficient is subtracted (no pass over the array for the sign)
            terms = [(_negative(a), emit(-a if _negative(a) else a)) for a in node.args]
            terms.sort(key=lambda term: term[0])  # a positive term first, where there is one
            code = ("-" if terms[0][0] else "") + terms[0][1]
            return code + "".join(f" {'-' if negative else '+'} {name}" for negative, name in terms[1:])
        if isinstance(node, (sp.MatMul, sp.Mul)):
            coefficient = sp.S.One
            factors = []
            for a in node.args:
                if a.is_Number:
                    coefficient *= a
                else:
                    factors.append(a)
            if not factors:
                return _number(coefficient)
            value = emit(factors[0])
            for f in factors[1:]:
                value = f"matmul({value}, {emit(f)})" if isinstance(node, sp.MatMul) else f"{value} * {emit(f)}"
            if coefficient == 1:
                return value
            p, q = sp.fraction(coefficient)
            return f"({_number(p)} * {value})" + ("" if q == 1 else f" / {_number(q)}")
        if isinstance(node, sp.Transpose):
            inner = node.arg
            if isinstance(inner, sp.MatMul):
                return emit(sp.MatMul(*(sp.Transpose(f) if not f.is_Number else f for f in reversed(inner.args))))
            if isinstance(inner, sp.Transpose):
                return emit(inner.arg)
            return f"swapaxes({emit(inner)}, -1, -2)"
        if isinstance(node, sp.MatPow) and node.exp.is_Integer and node.exp > 0:
            return emit(sp.MatMul(*[node.base] * int(node.exp)))
        if isinstance(node, sp.Trace):
            return f"trace({emit(node.arg)}, axis1=-2, axis2=-1)"
        if node.is_Number:
            return _number(node)
        raise ValueError(f"translate: no numpy form for {type(node).__name__} in {node}")

    results = [emit(e) for e in exprs]
    signature = ", ".join(f"a{i}" for i in range(len(arguments)))
    source = "\n".join([f"def matrix_function({signature}):", *lines, f"    return [{', '.join(results)}]"])
    namespace = dict(_GLOBALS)
    exec(compile(source, "<numerics.matrix_field>", "exec"), namespace)  # generated from SymPy, not text input
    function = namespace["matrix_function"]
    assert isinstance(function, types.FunctionType)
    return Generated(function)


def _negative(term: sp.Basic) -> bool:
    """Whether ``term`` is a product with a negative numeric coefficient."""
    import sympy as sp

    if isinstance(term, (sp.MatMul, sp.Mul)):
        coefficient = sp.Mul(*(a for a in term.args if a.is_Number))
        return bool(coefficient.is_negative)
    return bool(term.is_Number and term.is_negative)


def _number(value: sp.Basic) -> str:
    """An integer as Python source (rationals are written as integer quotients by the caller)."""
    if not value.is_Integer:
        raise ValueError(f"translate: expected an integer, got {value}")
    return f"({int(value)})"


def parameter_matrices(compiled: MatrixCompiled, env: Mapping[str, Any]) -> list[Any]:
    """The parameter matrices (B, r, c), B the parameters' batch (1 if none is batched), from their entries in
    ``env`` (numbers, or arrays (batch, 1) as ``numerics.validation`` gives them); a matrix already in ``env``
    under its own name is taken as it is. Object entries (``mpmath.mpf``) give an object array."""
    out = []
    for name in compiled.param_matrices:
        if name in env:
            out.append(env[name])
            continue
        layout = compiled.model.matrix_params[name]
        values = {n: np.reshape(np.asarray(env[n]), -1) for row in layout for n in row}
        batch = max(len(v) for v in values.values())
        dtype = object if any(v.dtype == object for v in values.values()) else float
        matrix = np.empty((batch, len(layout), len(layout[0])), dtype=dtype)
        for i, row in enumerate(layout):
            for j, n in enumerate(row):
                matrix[:, i, j] = values[n]
        out.append(matrix)
    return out


def matrix_quantities(
    compiled: MatrixCompiled,
    states: Mapping[str, Any],
    params: Mapping[str, Any],
    names: frozenset[str] | None = None,
) -> dict[str, Any]:
    """The quantities (those in ``names``, all if None) along ``states`` (rows by name, (T, batch, p)) as matrix
    products: each matrix quantity's entries by their names, each scalar quantity by its own, arrays (T, batch)."""
    matrices = compiled.matrices([states[n] for n in compiled.model.state_names])
    # the parameter matrices (B, r, c) broadcast against (T, batch, r, p): B is the batch
    values = [*matrices, *parameter_matrices(compiled, params)]
    out: dict[str, Any] = {}
    for name, entries, function in compiled.quantities:
        wanted = [name] if entries is None else [n for row in entries for n in row]
        if names is not None and not set(wanted) & names:
            continue
        (value,) = function(*values)
        if entries is None:
            out[name] = np.broadcast_to(value, matrices[0].shape[:-2])
            continue
        for i, row in enumerate(entries):
            for j, n in enumerate(row):
                if names is None or n in names:
                    out[n] = value[..., i, j]
    return out


def matrix_descent(
    compiled: MatrixCompiled, state: Mapping[str, np.ndarray], params: Mapping[str, Any], steps: np.ndarray, lr: float
) -> dict[str, np.ndarray]:
    """Full-batch GD on the matrices, ``W <- W + lr * field(W)`` (one batched product per matrix product of the
    field), recorded after ``steps[i]`` steps into preallocated arrays; rows by name, (T, batch, p).
    ``OverflowError`` naming ``lr`` if the weights leave the float64 range."""
    names = compiled.model.state_names
    current = [np.ascontiguousarray(m, dtype=float) for m in compiled.matrices([state[n] for n in names])]
    matrices = parameter_matrices(compiled, params)
    records = [np.empty((len(steps), *m.shape)) for m in current]
    done = 0
    for index in np.argsort(steps):
        try:
            with np.errstate(over="raise", invalid="raise"):
                while done < steps[index]:
                    for w, derivative in zip(current, compiled.field(*current, *matrices), strict=True):
                        w += lr * derivative
                    done += 1
        except FloatingPointError as exc:
            raise _diverged(done + 1, lr) from exc
        # a BLAS product does not always raise the floating-point flags that errstate watches
        if not all(np.isfinite(np.sum(w)) or np.all(np.isfinite(w)) for w in current):
            raise _diverged(done, lr)
        for record, w in zip(records, current, strict=True):
            record[index] = w
    out = {}
    for (_, index_rows), record in zip(compiled.state_matrices, records, strict=True):
        for k, i in enumerate(index_rows):
            out[names[i]] = record[..., k, :]
    return out


def _diverged(step: int, lr: float) -> OverflowError:
    return OverflowError(
        f"method='gd' diverged: the state left the float64 range by step {step} with lr = {lr!r} "
        "(GD is stable only for lr below about 2 / the loss curvature); lower lr"
    )
