r"""Models built from a network function, a target and input moments; the gradient flow is derived.

Convention (every model): population loss :math:`\mathcal L = \tfrac12\,\mathbb E_x[(f(x) - f^*(x))^2]`,
computed exactly from the second moments of the input (and of the target, when it is a random variable of
its own), and gradient flow :math:`\dot\theta = -\eta_\ell\nabla_\theta \mathcal L`, obtained with
``sympy.diff``, where the layer-wise learning rate :math:`\eta_\ell` is 1 unless the model declares one.

A model is a family indexed by its width ``p`` (the number of *units*: neurons or modes), each unit carrying
the same state variables (e.g. ``a``, ``b``) and possibly its own parameters (e.g. ``S_i``, ``lam_i``).
``Model.instance(p)`` builds the explicit model with symbols ``a_1 … a_p``. ``Model.unit_field()`` is the
vector field of one generic unit, in which the other units enter only through the model's *sums*
(e.g. :math:`\theta = Z^{-1}\sum_j a_j b_j`); it is obtained from the explicit width-2 model by eliminating
the second unit through the sums, and it is what the vectorized numerics integrate at any width.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property

import sympy as sp

from .closed_form import ClosedForm, Unsolved
from .definition import call_user, check_definition, real_expressions
from .inputs import expression
from .matrix_field import MatrixField
from .proof import Proof, prove_zero

__all__ = [
    "MAX_INSTANCE_SIZE",
    "MAX_UNIT_FIELD_COST",
    "MOMENT_ENTRIES_PER_SYMBOL",
    "PROBE_MAX_SIZE",
    "DeferredQuantities",
    "Instance",
    "Model",
    "Quantity",
    "input_coefficients",
    "outputs",
    "population_loss",
    "quantity_kinds",
    "use_solver",
]

Symbols = Mapping[str, "sp.Symbol | tuple[sp.Symbol, ...]"]

MOMENT_ENTRIES_PER_SYMBOL = 16
"""Input-moment entries ``E[x_i x_j]`` that cost about as much to build into the loss as one state symbol
(measured: ``linear_model`` at p = 300, 9·10⁴ entries, in 9.8 s; ``linear_network`` at p = 300, 1500 state
symbols and 25 entries, in 4.3 s)."""
PROBE_MAX_SIZE = 48
"""The largest ``Model.instance_size`` at which a ``Model`` builds its probe instances when constructed
(``derivations.definition.check_definition``); beyond it only the definition's types and values are checked then."""
MAX_INSTANCE_SIZE = 1000
"""Default budget of ``Model.instance`` (``Model.instance_size``): about 2 s of work on one core (measured:
``linear_network`` at p = 100, size 500, in 0.9 s; ``two_layer_scalar`` at p = 300, size 600, in 1.0 s;
``linear_model`` at p = 100, size 925, in 0.8 s); ``Model.instance(2000)`` hung for minutes before this budget."""
MAX_UNIT_FIELD_COST = 20_000
"""Default budget of ``Model.unit_field`` (``Model.derive_unit_field``, ``Model.unit_field_cost``: state names ×
the width-2 loss's symbols², about 0.2 to 3 ms each on one core, the most for deep products; measured, on a
shared machine: ``linear_network(3, 2)``, cost 2880, in 5 s; ``deep_scalar_chain(12)``, 9408, in 18 to 28 s;
``single_neuron(16)``, 42 500, in 12 s; ``deep_scalar_chain(16)``, 20 736, in 57 s; ``linear_network(6, 4)``,
47 610, and ``single_neuron(30)``, 262 384, beyond 60 s). The cost is mostly ``sympy.factor`` of the divided
field, which grows with the number of symbols and the degree."""


@dataclass(frozen=True)
class Quantity:
    """A derived quantity: ``kind`` is ``"unit"`` (one value per unit, an expression in the unit's
    symbols), ``"sum"`` (the sum over units of ``expr``) or ``"scalar"`` (an expression in the sums and the
    shared parameters)."""

    kind: str
    expr: sp.Expr
    description: str = ""


class DeferredQuantities(Mapping[str, Quantity]):
    """A model's quantities built on first use of an expression: the names and kinds are known at once (what the
    numerics' spec and the name checks read), the expressions are built by ``build()`` once, when one is read
    (e.g. the 32 768-term loss of ``linear_network(32, 32)``, which its matrix route never needs)."""

    def __init__(self, kinds: Mapping[str, str], build: Callable[[], Mapping[str, Quantity]]) -> None:
        self.kinds = dict(kinds)
        self._build = build
        self._built: dict[str, Quantity] | None = None

    @property
    def built(self) -> bool:
        """Whether the expressions have been built."""
        return self._built is not None

    def _quantities(self) -> dict[str, Quantity]:
        if self._built is None:
            built = dict(self._build())
            if {n: q.kind for n, q in built.items()} != self.kinds:
                raise ValueError(
                    f"DeferredQuantities: the built quantities' kinds differ from the declared {self.kinds}"
                )
            self._built = built
        return self._built

    def __getitem__(self, name: str) -> Quantity:
        if name not in self.kinds:
            raise KeyError(name)
        return self._quantities()[name]

    def __contains__(self, name: object) -> bool:
        return name in self.kinds  # Mapping's own __contains__ would build the expressions

    def __iter__(self) -> Iterator[str]:
        return iter(self.kinds)

    def __len__(self) -> int:
        return len(self.kinds)


def quantity_kinds(quantities: Mapping[str, Quantity]) -> dict[str, str]:
    """Quantity name → kind, without building deferred expressions (:class:`DeferredQuantities`)."""
    if isinstance(quantities, DeferredQuantities):
        return dict(quantities.kinds)
    return {n: q.kind for n, q in quantities.items()}


def outputs(network: object) -> tuple[sp.Expr, ...]:
    """The components of a network output: a tuple, list or matrix of expressions, or one expression."""
    if isinstance(network, (tuple, list, sp.MatrixBase)):
        return tuple(sp.sympify(f, strict=True) for f in network)
    return (sp.sympify(network, strict=True),)


_MODEL_CLASS = (
    "the model class: every output linear in the inputs with no constant term; a nonlinearity in the parameters "
    "is fine, e.g. a*tanh(b)*x_1"
)
"""What ``input_coefficients`` asks of a network and a target, quoted by its ``ValueError``."""

_NONLINEAR_TARGET_FIX = (
    "A target nonlinear in the inputs (e.g. x_1^3 or sin(x_1)) enters this model class through its feature: "
    "pass the feature as an input of its own (say x_2 standing for x_1^3, input_dim one larger) with "
    "its moments in `moment` (E[x_1 x_2] = E[x_1^4], E[x_2^2] = E[x_1^6]), and write the target linear in it"
)
"""The fix quoted when the target (not the network) is outside the model class."""


def input_coefficients(expr: sp.Expr, inputs: tuple[sp.Symbol, ...], what: str = "the expression") -> list[sp.Expr]:
    """The coefficients of ``expr`` in ``inputs``.

    Arguments:
        expr: a network or target output.
        inputs: the input symbols.
        what: how the error names ``expr`` (e.g. ``"two_layer_scalar: the network"``).

    Returns:
        One coefficient per input.

    Raises:
        ValueError: ``expr`` is not linear without a constant in ``inputs``; the message names ``what``, what is
            wrong and the model class (``_MODEL_CLASS``).
    """
    expr = sp.sympify(expr, strict=True)
    fault = ""
    if not expr.is_polynomial(*inputs):
        fault = "it is not polynomial in them"
    else:
        poly = sp.Poly(sp.expand(expr), *inputs)
        if poly.total_degree() > 1:
            fault = f"it has degree {poly.total_degree()} in them"
        elif poly.coeff_monomial(1) != 0:
            fault = f"it has the constant term {poly.coeff_monomial(1)}"
    if fault:
        names = ", ".join(map(str, inputs))
        raise ValueError(f"{what} is not linear in the inputs {names} ({fault}): got {expr}; {_MODEL_CLASS}")
    return [poly.coeff_monomial(x) for x in inputs]


def population_loss(
    network: sp.Expr,
    target: sp.Expr,
    inputs: tuple[sp.Symbol, ...],
    moment: Callable[[int, int], sp.Expr],
    name: str = "",
) -> sp.Expr:
    r"""``½ E[(f − f*)^2]`` for ``f``, ``f*`` linear in the inputs, with ``E[x_i x_j] = moment(i, j)``.

    Arguments:
        network: the network output ``f``.
        target: the target ``f*``.
        inputs: the input symbols.
        moment: ``moment(i, j) = E[x_i x_j]``.
        name: the model's name, for the error message.

    Returns:
        ``½ Σ_ij (f_i − f*_i)(f_j − f*_j) E[x_i x_j]`` over the inputs' coefficients ``f_i``, ``f*_i``
        (:func:`input_coefficients`); the pairs with a zero moment are left out.

    Raises:
        ValueError: ``network`` or ``target`` is not linear (no constant) in the inputs; the message names which.
    """
    prefix = f"{name}: " if name else ""
    f = input_coefficients(network, inputs, f"{prefix}the network")
    try:
        g = input_coefficients(target, inputs, f"{prefix}the target")
    except ValueError as error:
        raise ValueError(f"{error}. {_NONLINEAR_TARGET_FIX}") from None
    coefficients = [fi - gi for fi, gi in zip(f, g, strict=True)]
    return sp.Rational(1, 2) * sum(
        coefficients[i] * coefficients[j] * moment(i, j)
        for i in range(len(inputs))
        for j in range(len(inputs))
        if moment(i, j) != 0
    )


# ``Model.solution`` calls the pipeline, which itself builds on this module: the package's ``__init__`` installs
# ``pipeline.solve`` here (``use_solver``), so that this module does not import the pipeline.
_solver: Callable[[Model], ClosedForm | Unsolved] | None = None


def use_solver(solver: Callable[[Model], ClosedForm | Unsolved]) -> None:
    """Install the function behind ``Model.solution`` (``derivations`` installs ``pipeline.solve`` on import).

    Arguments:
        solver: called with the model, returns its ``ClosedForm`` or ``Unsolved``.

    Raises:
        TypeError: ``solver`` is not callable.
    """
    global _solver
    if not callable(solver):
        raise TypeError(f"solver must be callable, got {type(solver).__name__}")
    _solver = solver


@dataclass(frozen=True, eq=False)
class Model:
    """A solvable model: network, target and moments as functions of the width-``p`` symbols.

    ``network(sym, x)`` and ``target(sym, x)`` get ``sym`` mapping each state and unit-parameter name to
    the tuple of its ``p`` symbols and each shared parameter name to its symbol, and return an expression, or a
    tuple of expressions for several outputs (the loss then sums over the outputs); ``moment(sym, i, j)`` is
    ``E[x_i x_j]``; ``input_dim(p)`` the number of inputs. ``quantities`` name the derived outputs, and
    ``domains`` give each parameter's admissible range (``"real"`` or ``"positive"``).
    ``regularizer(sym)`` (optional) is added to the population loss, e.g. weight decay
    ``(mu/2) sum_i (a_i^2 + b_i^2)``; it enters the flow (and the quantities that declare it), not the NTK.
    ``tags`` (optional, for a user's own model; the built-in models have none, their papers tag them) map the
    step keys of ``derivations.solve`` (``"flow"``, ``"conserved"``, ``"clock_ode"``, ``"solution"``, …) to equation
    numbers, stamped on the solved derivation by ``Derivation.tagged``. ``param_check``, if given, checks the
    parameters jointly (a mapping from each parameter name to its value, after the per-parameter checks) and
    raises ``ValueError`` naming the offending ones, e.g. moments that no random vector has.
    ``matrix_states`` name matrices whose rows are states (``{"W1": ("W1_1", …, "W1_d")}``: row k of W1 is the
    state ``W1_k`` over the units, so W1 has shape (d, p)); ``matrix_params`` name matrices of shared parameters by
    their entries' names, row by row (``{"Sxy": (("Sxy_1_1", …), …)}``; a symmetric matrix names entries
    ``(k, l)`` and ``(l, k)`` by one parameter; a vector is a one-column matrix), so that the numerics take and
    return them as arrays. ``matrix_field_of`` (optional, for a model with ``matrix_states``) is a function
    returning the flow in matrix form (a ``derivations.matrix_field.MatrixField`` produced from a derived matrix
    flow, never typed in), read once through :attr:`matrix_field`: the numerics then evaluate the field and the
    quantities as matrix products (``numerics.matrix_field``), and nothing entrywise is derived unless asked for.

    Raises ``ValueError`` at construction if a state or parameter name repeats (the numerics key everything by
    name, so a repeat would silently merge two variables), if two names would become one SymPy symbol (a shared
    parameter ``a_1`` beside a state or unit parameter ``a``, whose unit 1 the instances call ``a_1``; a name
    ``a_0`` beside a state ``a``, its initial value; an input's name ``x_k``, or a per-unit name ``x``; a quantity
    named like a state or parameter), or if a matrix declaration is not a layout: a matrix
    name that is also a state or parameter name (or declared twice), rows that are not distinct state names,
    entries that are not shared parameters, ragged rows, or an entry name repeated other than at the transposed
    position of a square matrix or used by two matrices.
    """

    name: str
    title: str
    reference: str
    state_names: tuple[str, ...]
    unit_param_names: tuple[str, ...]
    shared_param_names: tuple[str, ...]
    network: Callable[[Symbols, tuple[sp.Symbol, ...]], sp.Expr]
    target: Callable[[Symbols, tuple[sp.Symbol, ...]], sp.Expr]
    moment: Callable[[Symbols, int, int], sp.Expr]
    input_dim: Callable[[int], int]
    quantities: Mapping[str, Quantity]
    domains: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    learning_rates: Mapping[str, str] = field(default_factory=dict)
    regularizer: Callable[[Symbols], sp.Expr] | None = None
    tags: Mapping[str, str] = field(default_factory=dict)
    param_check: Callable[[Mapping[str, object]], None] | None = None
    matrix_states: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    matrix_params: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    matrix_field_of: Callable[[], MatrixField] | None = None

    def __post_init__(self) -> None:
        check_definition(self, lambda p: None)  # the types first: the checks below iterate over the fields
        names = (*self.state_names, *self.unit_param_names, *self.shared_param_names)
        repeated = _repeated(names)
        if repeated:
            raise ValueError(
                f"{self.name}: the state and parameter names must be distinct, but {repeated} repeat (in "
                "state_names, unit_param_names and shared_param_names)"
            )
        _check_symbol_names(self)
        _check_matrix_layout(self, self.matrix_states, self.matrix_params)
        # probe small instances only: a large one (e.g. linear_network(32, 32), whose entrywise loss takes minutes
        # to expand) is checked when first built, through the same wrapped calls
        check_definition(self, lambda p: Instance(self, p) if self.instance_size(p) <= PROBE_MAX_SIZE else None)

    @cached_property
    def matrix_field(self) -> MatrixField | None:
        """The flow in matrix form (``matrix_field_of()``, built once), or None if the model declares none.

        Raises:
            ValueError: its states and params are not the model's ``matrix_states`` and ``matrix_params``, or
                its quantities are not quantities of the model (naming them).
        """
        if self.matrix_field_of is None:
            return None
        declared = self.matrix_field_of()
        if not isinstance(declared, MatrixField):
            raise ValueError(f"{self.name}: matrix_field_of() must return a MatrixField, got {declared!r}")
        if set(declared.states) != set(self.matrix_states) or set(declared.params) != set(self.matrix_params):
            raise ValueError(
                f"{self.name}: the matrix field's states {sorted(declared.states)} and params "
                f"{sorted(declared.params)} must be matrix_states {sorted(self.matrix_states)} and matrix_params "
                f"{sorted(self.matrix_params)}"
            )
        if set(declared.field) != set(self.matrix_states):
            raise ValueError(
                f"{self.name}: the matrix field must give the derivative of each of {sorted(self.matrix_states)}"
            )
        kinds = quantity_kinds(self.quantities)
        named = [n for q_name, q in declared.quantities.items() for n in _entry_names(q_name, q.entries)]
        unknown = [n for n in named if n not in kinds]
        if unknown:
            raise ValueError(f"{self.name}: the matrix field's quantities {unknown} are not quantities of the model")
        return declared

    @property
    def solution(self) -> ClosedForm | Unsolved:
        """``derivations.solve(self)``: the closed form derived from the flow, or why there is none (cached)."""
        if _solver is None:
            raise RuntimeError("no solver is installed: import derivations (its __init__ installs pipeline.solve)")
        return _solver(self)

    @property
    def closed_form(self) -> ClosedForm:
        """The derived closed form; ``ValueError`` quoting ``Unsolved.reason`` if the pipeline found none."""
        solution = self.solution
        if not isinstance(solution, ClosedForm):
            raise ValueError(str(solution))
        return solution

    def symbol(self, name: str) -> sp.Symbol:
        """The generic (one-unit or shared) symbol called ``name``.

        Arguments:
            name: a state, unit-parameter or shared-parameter name (not checked: any name gives a symbol).

        Returns:
            ``Symbol(name, positive=True)`` if ``domains`` declares ``name`` ``"positive"``, else
            ``Symbol(name, real=True)``.
        """
        if name in self.domains and self.domains[name] == "positive":
            return sp.Symbol(name, positive=True)
        return sp.Symbol(name, real=True)

    def init_symbol(self, name: str) -> sp.Symbol:
        """The symbol of a state variable's initial value, e.g. ``a_0``.

        Arguments:
            name: the state's name (not checked).

        Returns:
            The real symbol ``{name}_0``, the name the closed form gives the unit's initial value.
        """
        return sp.Symbol(f"{name}_0", real=True)

    @property
    def unit_symbols(self) -> dict[str, sp.Symbol]:
        """Generic unit state and unit-parameter symbols, and the shared parameters."""
        names = (*self.state_names, *self.unit_param_names, *self.shared_param_names)
        return {name: self.symbol(name) for name in names}

    def instance(self, p: int, max_size: int = MAX_INSTANCE_SIZE) -> Instance:
        """The explicit model at width ``p``.

        Arguments:
            p: the width, a positive integer.
            max_size: the budget of :meth:`instance_size` (default :data:`MAX_INSTANCE_SIZE`), checked before any
                symbol is built.

        Returns:
            The :class:`Instance`.

        Raises:
            ValueError: ``p`` is not a positive integer, ``max_size`` not an integer >= 1, or the instance's size is
                beyond ``max_size`` (the message names it and the size); the errors of :class:`Instance`.
        """
        if isinstance(p, bool) or not isinstance(p, int) or p < 1:
            raise ValueError(f"width p must be a positive integer, got {p!r}")
        if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 1:
            raise ValueError(f"max_size must be an integer >= 1, got {max_size!r}")
        size = self.instance_size(p)
        if size > max_size:
            raise ValueError(
                f"{self.name}: the instance at width p = {p} has size {size:.4g} (state and unit-parameter symbols "
                f"+ input-moment entries / {MOMENT_ENTRIES_PER_SYMBOL}), beyond the budget max_size = {max_size}; "
                f"pass a larger max_size (e.g. max_size={math.ceil(size)}), or a smaller width p"
            )
        return Instance(self, p)

    def instance_size(self, p: int) -> float:
        """The size of the instance at width ``p``, known before it is built: its state and unit-parameter symbols
        (``p`` per name) plus its input-moment entries ``E[x_i x_j]`` (``input_dim(p)^2``) divided by
        :data:`MOMENT_ENTRIES_PER_SYMBOL`; see :data:`MAX_INSTANCE_SIZE`.

        Arguments:
            p: the width, a positive integer (not checked here: :meth:`instance` checks it first).

        Returns:
            ``(len(state_names) + len(unit_param_names)) * p + input_dim(p)**2 / MOMENT_ENTRIES_PER_SYMBOL``.

        Raises:
            ValueError: ``input_dim(p)`` raises or is not a non-negative integer (naming ``input_dim``).
        """
        n_inputs = _input_count(self, p)
        symbols = (len(self.state_names) + len(self.unit_param_names)) * p
        return symbols + n_inputs**2 / MOMENT_ENTRIES_PER_SYMBOL

    @cached_property
    def unit_field(self) -> dict[sp.Symbol, sp.Expr]:
        """The vector field of one generic unit, in terms of its own symbols, the sums and shared params:
        :meth:`derive_unit_field` within the default budget :data:`MAX_UNIT_FIELD_COST` (derive it with a larger
        ``max_cost`` first for a larger model; the property then returns that field)."""
        return self.derive_unit_field()

    def unit_field_cost(self) -> int:
        """The estimated cost of :meth:`derive_unit_field`, from the width-2 instance before any derivation: the
        number of state names (the field's components) times the square of the number of symbols of its loss
        (see :data:`MAX_UNIT_FIELD_COST`).

        Returns:
            ``len(state_names) * (number of free symbols of the width-2 loss)**2``, a non-negative integer.

        Raises:
            ValueError: the errors of :meth:`instance` (the width-2 instance beyond its own budget).
        """
        return len(self.state_names) * len(self.instance(2).loss.free_symbols) ** 2

    def derive_unit_field(self, max_cost: int = MAX_UNIT_FIELD_COST) -> dict[sp.Symbol, sp.Expr]:
        """The vector field of one generic unit (:attr:`unit_field`), derived within the budget ``max_cost``.

        Derived from the explicit width-2 model: each component of unit 1's field is divided (multivariate
        division, lex order with unit 2's state first) by the relations ``q(unit 2) - (Q - q(unit 1))``, one
        per sum ``Q`` with summand ``q``; a remainder free of unit 2 expresses the field through the sums. Unit
        2's non-polynomial atoms (``tanh(b_2)``, ``1/b_2``) are independent indeterminates of the division.
        Derived once per model: later calls (and :attr:`unit_field`) return it without a budget check.

        Arguments:
            max_cost: the budget of :meth:`unit_field_cost` (default :data:`MAX_UNIT_FIELD_COST`), checked before
                the field is derived.

        Returns:
            Unit 1's field, state symbol -> expression in its own symbols, the sums and the shared parameters.

        Raises:
            ValueError: ``max_cost`` is not an integer >= 1, or the cost is beyond it (the message names
                ``max_cost``, the estimate and how to raise it), or unit 2 remains (a field that depends on it
                beyond the declared sums).
        """
        if "unit_field" in self.__dict__:  # derived already (the cached_property's slot)
            return self.__dict__["unit_field"]
        if isinstance(max_cost, bool) or not isinstance(max_cost, int) or max_cost < 1:
            raise ValueError(f"max_cost must be an integer >= 1, got {max_cost!r}")
        cost = self.unit_field_cost()
        if cost > max_cost:
            raise ValueError(
                f"{self.name}: deriving the unit field would cost about {cost} (state names × the width-2 loss's "
                f"symbols², some 0.2 to 3 ms each), beyond the budget max_cost = {max_cost}; pass a larger "
                f"max_cost first, model.derive_unit_field(max_cost={cost}) (or derivations.solve(model, "
                f"max_cost={cost}))"
            )
        field = self._divided_unit_field()
        self.__dict__["unit_field"] = field
        return field

    def _divided_unit_field(self) -> dict[sp.Symbol, sp.Expr]:
        """The work of :meth:`derive_unit_field` (no budget)."""
        inst = self.instance(2)
        sums = {name: q for name, q in self.quantities.items() if q.kind == "sum"}
        field_1 = {inst.state[n][0]: inst.vector_field[inst.state[n][0]] for n in self.state_names}
        second = [inst.state[n][1] for n in self.state_names]
        others = set(second) | {inst.sym[n][1] for n in self.unit_param_names}
        relations = [
            inst.unit_expr(q.expr, 1) - (self.symbol(name) - inst.unit_expr(q.expr, 0)) for name, q in sums.items()
        ]
        # unit 2's non-polynomial atoms (tanh(b_2), sqrt(a_2), 1/b_2, …) become independent indeterminates, so that the
        # division also eliminates them (sound: an identity in independent indeterminates holds for any values)
        atoms = {
            node: sp.Dummy(f"u{k}")
            for k, node in enumerate(
                sorted(
                    {n for v in (*field_1.values(), *relations) for n in _nonpolynomial_atoms(v, set(second))}, key=str
                )
            )
        }
        components = {k: v.xreplace(atoms) for k, v in field_1.items()}
        divisors = [r.xreplace(atoms) for r in relations]
        variables = [*second, *atoms.values()]
        if all(v.is_polynomial(*variables) for v in (*components.values(), *divisors)):
            back = {u: node for node, u in atoms.items()}
            field_1 = {k: _divide(v, divisors, variables).xreplace(back) for k, v in components.items()}
        for _key, value in field_1.items():
            if value.free_symbols & others:
                declared = ", ".join(sorted(sums)) or "none"
                raise ValueError(
                    f"{self.name}: the field of unit 1 depends on unit 2 beyond the sums (declared: {declared}): "
                    f"{value}; the units couple through {_coupling_hint(value, others, inst.unit_renaming(1))}"
                )
        rename = inst.unit_renaming(0)
        return {rename[k]: sp.factor(v.xreplace(rename)) for k, v in field_1.items()}

    def unit_time_derivative(self, expr: sp.Expr) -> sp.Expr:
        """d/dt of an expression in one unit's symbols (and the sums), along ``unit_field``.

        Arguments:
            expr: a SymPy expression (or number) in the generic unit's symbols (:meth:`symbol`) and the shared
                parameters; text is refused, never parsed. Only the unit's state symbols are differentiated, so any
                other symbol in it, a sum's included, is held constant.

        Returns:
            ``Σ_s ∂expr/∂s · unit_field[s]`` over the unit's state symbols ``s``, unsimplified: an expression in
            the unit's symbols, the sums and the shared parameters.

        Raises:
            TypeError: ``expr`` is text or not convertible to SymPy (:func:`~derivations.inputs.expression`).
            ValueError: building ``unit_field`` on first use fails: the field of a unit depends on another beyond the
                declared sums, or the width-2 instance is refused (:meth:`instance`, :class:`Instance`).
        """
        expr = expression(expr, "expr")  # sp.diff would parse text (and run code in it)
        return sum(sp.diff(expr, s) * f for s, f in self.unit_field.items())

    def verify_unit_conserved(self, expr: sp.Expr) -> Proof:
        """Prove that a one-unit quantity has zero time derivative along the flow.

        Arguments:
            expr: the quantity, as for :meth:`unit_time_derivative`.

        Returns:
            The :class:`~derivations.proof.Proof` of :func:`~derivations.proof.prove_zero` on
            :meth:`unit_time_derivative` of ``expr``: ``holds`` iff it vanishes identically (the method recorded).

        Raises:
            TypeError, ValueError: as :meth:`unit_time_derivative`.
        """
        return prove_zero(self.unit_time_derivative(expr))


def _entry_names(name: str, entries: tuple[tuple[str, ...], ...] | None) -> list[str]:
    """The quantity names a matrix quantity gives: its entries' names, or its own name for a scalar."""
    return [name] if entries is None else [n for row in entries for n in row]


def _input_count(model: Model, p: int) -> int:
    """``model.input_dim(p)``; ``ValueError`` naming ``input_dim`` unless it is a non-negative integer."""
    n_inputs = call_user(model.name, "input_dim", model.input_dim, p)
    if isinstance(n_inputs, bool) or not isinstance(n_inputs, int) or n_inputs < 0:
        raise ValueError(
            f"{model.name}: input_dim({p}) must be a non-negative integer (the number of inputs), got {n_inputs!r}"
        )
    return int(n_inputs)


def _repeated(names: tuple[str, ...]) -> list[str]:
    """The names that occur more than once in ``names``, each once, in order."""
    return [n for n, count in Counter(names).items() if count > 1]


INPUT_NAME = "x"
"""The base of the input symbols ``x_1 … x_n`` of every ``Instance`` (``Instance.inputs``)."""


def _indexed(name: str, base: str) -> bool:
    """Whether ``name`` is ``base`` followed by ``_`` and an index as the models print it (``a_1``, ``a_12``,
    ``a_0``: an integer without leading zeros)."""
    index = name[len(base) + 1 :] if name.startswith(f"{base}_") else ""
    return index.isdecimal() and index.isascii() and str(int(index)) == index


def _check_symbol_names(of: Model) -> None:
    """``ValueError`` naming both if two of the model's symbols would be one SymPy symbol at some width or in its
    closed form: a shared parameter called like unit ``k`` of a state or unit parameter (``a_1`` beside a state
    ``a``: ``Instance`` names unit ``k`` of ``a`` ``a_k``), any name called like a state's initial value (``a_0``,
    ``Model.init_symbol``) or like an input (``x_1``, or a per-unit name ``x``), or a quantity called like a state
    or parameter (a sum is a symbol of the unit field, and results key quantities beside states)."""
    per_unit = (*of.state_names, *of.unit_param_names)
    declared = (*per_unit, *of.shared_param_names)
    clashes = [
        f"{name!r} is also unit {name.rsplit('_', 1)[1]} of {base!r}"
        for name in of.shared_param_names
        for base in per_unit
        if _indexed(name, base) and name != f"{base}_0"
    ]
    clashes += [
        f"{n!r} is also the initial value of {base!r}" for n in declared for base in of.state_names if n == f"{base}_0"
    ]
    clashes += [f"{n!r} is also an input of the instances" for n in declared if _indexed(n, INPUT_NAME)]
    clashes += [
        f"{n!r} names its units like the inputs {INPUT_NAME}_1, {INPUT_NAME}_2, …" for n in per_unit if n == INPUT_NAME
    ]
    clashes += [f"{n!r} is also a quantity" for n in of.quantities if n in declared]
    if clashes:
        raise ValueError(
            f"{of.name}: the model's symbols must have distinct names, but {'; '.join(clashes)} (the instance at "
            f"width p names unit k of a state or unit parameter a a_k, its initial value a_0, the inputs "
            f"{INPUT_NAME}_1 … {INPUT_NAME}_n); rename one of them"
        )


def _check_matrix_layout(
    of: Model,
    matrix_states: Mapping[str, tuple[str, ...]],
    matrix_params: Mapping[str, tuple[tuple[str, ...], ...]],
) -> None:
    """``ValueError`` naming the matrix unless ``matrix_states`` and ``matrix_params`` are layouts (``Model``)."""
    model, states, shared = of.name, of.state_names, of.shared_param_names
    taken = {*states, *of.unit_param_names, *shared}
    for matrix in (*matrix_states, *matrix_params):
        if matrix in taken:
            raise ValueError(f"{model}: matrix name {matrix!r} is also a state or parameter name, or declared twice")
        taken.add(matrix)
    for matrix, rows in matrix_states.items():
        if (
            not isinstance(rows, (tuple, list))
            or not rows
            or any(r not in states for r in rows)
            or _repeated(tuple(rows))
        ):
            raise ValueError(f"{model}: matrix_states[{matrix!r}] must be distinct state names, got {rows!r}")
    owner: dict[str, str] = {}
    for matrix, entries in matrix_params.items():
        rows_ok = isinstance(entries, (tuple, list)) and all(isinstance(row, (tuple, list)) for row in entries)
        width = len(entries[0]) if rows_ok and entries else 0
        if width == 0 or any(len(row) != width for row in entries):
            raise ValueError(f"{model}: matrix_params[{matrix!r}] must be nonempty rows of one length, got {entries!r}")
        positions: dict[str, list[tuple[int, int]]] = {}
        for i, row in enumerate(entries):
            for j, name in enumerate(row):
                if name not in shared:
                    raise ValueError(f"{model}: matrix_params[{matrix!r}] entry {name!r} is not a shared parameter")
                if owner.setdefault(name, matrix) != matrix:
                    raise ValueError(f"{model}: parameter {name!r} is an entry of both {owner[name]!r} and {matrix!r}")
                positions.setdefault(name, []).append((i, j))
        for name, where in positions.items():
            # one parameter for the pair (i, j), (j, i) of a symmetric matrix; any other repeat is a naming clash
            if len(where) > 2 or (len(where) == 2 and where[1] != where[0][::-1]):
                raise ValueError(
                    f"{model}: matrix_params[{matrix!r}] names the entries {where} (0-based) all {name!r}; only the "
                    "transposed pair (i, j), (j, i) of a symmetric matrix may share a parameter"
                )


def _coupling_hint(value: sp.Expr, others: set[sp.Symbol], renaming: Mapping[sp.Symbol, sp.Symbol]) -> str:
    """The sums a field that still depends on unit 2 needs, as the ``Quantity`` declarations that would give them:
    each factor of a term that holds unit 2's symbols, written for the generic unit (``a_2*b_2`` -> ``a*b``)."""
    summands = []
    for term in sp.Add.make_args(sp.expand(value)):
        dependent = term.as_independent(*others, as_Add=False)[1]
        if dependent.free_symbols & others:
            summands.append(dependent.xreplace(dict(renaming)))
    unique = sorted(set(summands), key=sp.default_sort_key)
    declarations = ", ".join(f"'Q{k}': Quantity('sum', {sp.sstr(q)})" for k, q in enumerate(unique, start=1))
    return (
        f"the sum(s) of {', '.join(sp.sstr(q) for q in unique)} over the units: declare them in the model's "
        f"quantities, e.g. quantities={{{declarations}}} (any names), so that the field is written through them"
    )


class Instance:
    """A model at concrete width ``p``: explicit symbols, the derived loss, vector field and NTK.

    Raises ``ValueError`` if the network and target have different numbers of outputs, or if one of them is not
    linear (no constant) in the inputs: the message names the model, which function (``network`` or ``target``,
    and the output if there are several) and the model class (``input_coefficients``).
    """

    def __init__(self, model: Model, p: int) -> None:
        self.model = model
        self.p = p
        self.state = {n: tuple(sp.Symbol(f"{n}_{i + 1}", real=True) for i in range(p)) for n in model.state_names}
        unit_params = {
            n: tuple(_like(model.symbol(n), f"{n}_{i + 1}") for i in range(p)) for n in model.unit_param_names
        }
        shared = {n: model.symbol(n) for n in model.shared_param_names}
        self.sym: dict[str, sp.Symbol | tuple[sp.Symbol, ...]] = {**self.state, **unit_params, **shared}
        self.inputs = tuple(sp.Symbol(f"{INPUT_NAME}_{i + 1}", real=True) for i in range(_input_count(model, p)))
        self.network = call_user(model.name, "network", model.network, self.sym, self.inputs)
        self.target = call_user(model.name, "target", model.target, self.sym, self.inputs)
        real_expressions(model.name, "network", self.network)
        real_expressions(model.name, "target", self.target)
        if len(self.outputs) != len(outputs(self.target)):
            raise ValueError(f"{model.name}: network and target have different numbers of outputs")
        self.loss = sum(
            population_loss(f, g, self.inputs, lambda i, j: self._moment(i, j), model.name + where)
            for where, f, g in zip(
                [f" (output {k + 1})" if len(self.outputs) > 1 else "" for k in range(len(self.outputs))],
                self.outputs,
                outputs(self.target),
                strict=True,
            )
        )
        if model.regularizer is not None:
            penalty = call_user(model.name, "regularizer", model.regularizer, self.sym)
            self.loss += real_expressions(model.name, "regularizer", penalty)[0]

    def _moment(self, i: int, j: int) -> sp.Expr:
        """``E[x_i x_j]`` from the model's ``moment`` (a failure inside it names the field)."""
        value = call_user(self.model.name, "moment", self.model.moment, self.sym, i, j)
        return real_expressions(self.model.name, "moment", value)[0]

    @property
    def outputs(self) -> tuple[sp.Expr, ...]:
        """The network's output components (one for a scalar network)."""
        return outputs(self.network)

    @property
    def variables(self) -> tuple[sp.Symbol, ...]:
        """All state symbols, grouped by state name."""
        return tuple(s for n in self.model.state_names for s in self.state[n])

    @cached_property
    def learning_rates(self) -> dict[sp.Symbol, sp.Expr]:
        """Each state symbol's learning rate: its layer's rate parameter, or 1 without layer-wise rates."""
        rates = self.model.learning_rates
        return {
            s: self.sym[rates[n]] if n in rates else sp.S.One for n in self.model.state_names for s in self.state[n]
        }

    @cached_property
    def vector_field(self) -> dict[sp.Symbol, sp.Expr]:
        """``-eta ∂L/∂s`` for every state symbol ``s`` (derived by ``sympy.diff``), ``eta`` from ``learning_rates``."""
        return {s: -eta * sp.diff(self.loss, s) for s, eta in self.learning_rates.items()}

    def time_derivative(self, expr: sp.Expr) -> sp.Expr:
        """d/dt of ``expr`` along the flow (the Lie derivative).

        Arguments:
            expr: a SymPy expression (or number) in this instance's symbols (``sym``: ``a_1 … a_p``, unit and
                shared parameters; a symbol that is no state is a constant); text is refused, never parsed.

        Returns:
            ``Σ_s ∂expr/∂s · vector_field[s]`` over every state symbol ``s``, unsimplified.

        Raises:
            TypeError: ``expr`` is text or not convertible to SymPy (:func:`~derivations.inputs.expression`).
        """
        expr = expression(expr, "expr")  # sp.diff would parse text (and run code in it)
        return sum(sp.diff(expr, s) * f for s, f in self.vector_field.items())

    def verify_conserved(self, expr: sp.Expr) -> Proof:
        """Prove that ``expr`` has zero time derivative along the flow; the proof records the method.

        Arguments:
            expr: the quantity, as for :meth:`time_derivative`.

        Returns:
            The :class:`~derivations.proof.Proof` of :func:`~derivations.proof.prove_zero` on
            :meth:`time_derivative` of ``expr``: ``holds`` iff it vanishes identically.

        Raises:
            TypeError: as :meth:`time_derivative`.
        """
        return prove_zero(self.time_derivative(expr))

    def ntk(self) -> sp.Expr | sp.Matrix:
        r"""Neural tangent kernel :math:`K(x, x') = \sum_s \partial_s f(x)\, \partial_s f(x')^\top`: a scalar
        for a scalar network, the ``c x c`` matrix :math:`K_{mn}` for ``c`` outputs.

        Returns:
            The kernel in the inputs ``x_k`` and the second point's inputs ``x_k'`` (real symbols), summed over the
            state symbols only (not the parameters), each entry factored: an expression for one output, else a
            ``sympy.Matrix``.
        """
        primed = {x: sp.Symbol(f"{x}'", real=True) for x in self.inputs}

        def entry(f: sp.Expr, g: sp.Expr) -> sp.Expr:
            return sp.factor(sum(sp.diff(f, s) * sp.diff(g, s).xreplace(primed) for s in self.variables))

        if len(self.outputs) == 1:
            return entry(self.network, self.network)
        return sp.Matrix([[entry(f, g) for g in self.outputs] for f in self.outputs])

    def unit_renaming(self, i: int) -> dict[sp.Symbol, sp.Symbol]:
        """Map unit ``i``'s symbols to the generic unit symbols.

        Arguments:
            i: the unit's 0-based index, an integer with ``0 <= i < p``.

        Returns:
            Unit ``i``'s state and unit-parameter symbols (``a_{i+1}``, …) -> the generic ones (:meth:`Model.symbol`);
            shared parameters are not in it.

        Raises:
            TypeError: ``i`` is not an integer.
            ValueError: ``i`` is outside ``[0, p)`` (a negative index is not taken from the end).
        """
        if isinstance(i, bool) or not isinstance(i, int):
            raise TypeError(f"i must be an integer unit index in [0, {self.p}), got {i!r}")
        if not 0 <= i < self.p:
            raise ValueError(f"i must be a unit index in [0, {self.p}) (0-based), got {i}")
        names = (*self.model.state_names, *self.model.unit_param_names)
        return {self.sym[n][i]: self.model.symbol(n) for n in names}

    def unit_expr(self, expr: sp.Expr, i: int) -> sp.Expr:
        """A generic one-unit expression written for unit ``i``.

        Arguments:
            expr: a SymPy expression in the generic unit's symbols (:meth:`Model.symbol`) and shared parameters.
            i: the unit's 0-based index, as for :meth:`unit_renaming`.

        Returns:
            ``expr`` with each generic state and unit-parameter symbol replaced by unit ``i``'s.

        Raises:
            TypeError, ValueError: ``i`` as for :meth:`unit_renaming`; ``expr`` is text or not convertible to SymPy.
        """
        expr = expression(expr, "expr")
        return expr.xreplace({v: k for k, v in self.unit_renaming(i).items()})

    def quantity(self, name: str) -> sp.Expr:
        """A model quantity written explicitly at this width (sums expanded).

        Arguments:
            name: the name of one of the model's ``"sum"`` or ``"scalar"`` quantities.

        Returns:
            For a sum, its summand written for each unit (:meth:`unit_expr`) and added; for a scalar, its
            expression with each sum's symbol replaced by that sum written explicitly.

        Raises:
            ValueError: the quantity is of kind ``"unit"`` (per unit: write it with :meth:`unit_expr`); deferred
                quantities whose built kinds differ from the declared ones (:class:`DeferredQuantities`).
            KeyError: ``name`` is not a quantity of the model.
        """
        q = self.model.quantities[name]
        if q.kind == "sum":
            return sum(self.unit_expr(q.expr, i) for i in range(self.p))
        if q.kind == "scalar":
            sums = {self.model.symbol(n): self.quantity(n) for n, s in self.model.quantities.items() if s.kind == "sum"}
            return q.expr.xreplace(sums)
        raise ValueError(f"quantity {name!r} is per unit; use unit_expr")


def _like(symbol: sp.Symbol, name: str) -> sp.Symbol:
    return sp.Symbol(name, **symbol.assumptions0)


def _nonpolynomial_atoms(expr: sp.Expr, variables: set[sp.Symbol]) -> set[sp.Expr]:
    """The outermost function applications and powers other than by a non-negative integer (``tanh(b_2)``,
    ``sqrt(a_2)``, ``1/b_2``) in ``expr`` that involve ``variables``."""
    found: set[sp.Expr] = set()

    def visit(node: sp.Basic) -> None:
        if not node.free_symbols & variables:
            return
        if isinstance(node, sp.Function) or (isinstance(node, sp.Pow) and not (node.exp.is_Integer and node.exp >= 0)):
            found.add(node)
            return
        for arg in node.args:
            visit(arg)

    visit(expr)
    return found


def _divide(expr: sp.Expr, relations: list[sp.Expr], variables: list[sp.Symbol]) -> sp.Expr:
    """The remainder of ``expr`` divided by ``relations`` in lex order of ``variables`` (rational coefficients
    in the other symbols are allowed)."""
    numerator, denominator = sp.fraction(sp.cancel(sp.together(expr)))
    used = [r for r in relations if r.free_symbols & set(variables)]
    if not used or not numerator.free_symbols & set(variables):
        return expr
    _, remainder = sp.reduced(sp.expand(numerator), [sp.expand(r) for r in used], *variables, order="lex")
    return sp.cancel(remainder / denominator)
