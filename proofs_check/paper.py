"""A paper: its metadata, models, notation, and the claims and numeric experiments it makes.

A :class:`Paper` is the public way to check a derivation::

    paper = Paper("smith2026", "Deep chains", ("A. Smith",), "arXiv", 2026, models=(chain,))
    ldot = paper.symbol("Ldot", r"\\dot{\\mathcal L}", definition=lambda: flow_derivative_of_the_loss)
    paper.claim("loss_decreases", ldot <= 0, where="§2, Lemma 1")

The check follows from the statement (:mod:`proofs_check.statement_checks`): an ``Eq`` is proved exactly after the
paper's notation is substituted, or refuted with a sampled counterexample; any other relation or Boolean
combination goes to z3 under the claim's assumptions; ``corrected=`` makes the claim an erratum. ``check=`` is the
escape hatch for claims no statement can decide. Declaring a claim computes nothing: statements and definitions
may be zero-argument callables, called when a check (or the report) first needs them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import sympy as sp

from derivations import models as model_registry
from derivations.model import Model
from derivations.prose import text_latex
from proofs_check.citation import DERIVED_HERE, Citation, Structure
from proofs_check.claims import Claim
from proofs_check.outcome import NUMERIC_EXPERIMENT, Outcome

if TYPE_CHECKING:
    from derivations.derivation import Derivation

__all__ = ["Bound", "Experiment", "Measurement", "Paper", "PaperInfo"]

TIME = "t"
"""The time symbol's name, known in every paper."""
_Declared = TypeVar("_Declared", bound=Claim)


@dataclass(frozen=True)
class PaperInfo:
    """A paper's metadata, as stored in the JSON report; ``models`` are model names."""

    key: str
    title: str
    authors: tuple[str, ...]
    venue: str
    year: int
    url: str = ""
    models: tuple[str, ...] = ()

    @property
    def cite(self) -> str:
        """Short citation: "Smith 2026", "Xu & Ziyin 2025", "Nam et al. 2025"."""
        surnames = [author.split()[-1] for author in self.authors]
        names = " & ".join(surnames) if len(surnames) <= 2 else f"{surnames[0]} et al."
        return f"{names} {self.year}"

    def to_json(self) -> dict:
        """The metadata as JSON values.

        Returns:
            A dict of the fields by name, ``authors`` and ``models`` as lists (:meth:`from_json` reads it back).
        """
        return {**self.__dict__, "authors": list(self.authors), "models": list(self.models)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PaperInfo:
        """The inverse of :meth:`to_json`."""
        fields = {**data, "authors": tuple(data["authors"]), "models": tuple(data.get("models", ()))}
        return cls(**fields)


@dataclass(frozen=True)
class Bound:
    """A further comparison a measurement carries, with its own allowance: ``value <= allowance`` (NaN fails), e.g.
    the float64 kernel's error within its conditioning allowance beside a 30-digit comparison; ``route`` (one of
    :data:`proofs_check.outcome.ROUTES`) is how ``value`` was obtained."""

    name: str
    value: float
    allowance: float
    route: str = ""

    @property
    def holds(self) -> bool:
        """Whether ``value <= allowance`` (False for NaN)."""
        return bool(self.value <= self.allowance)


@dataclass(frozen=True)
class Measurement:
    """What an experiment's ``measure`` returns: the measured value(s), how they were obtained, and details;
    ``routes`` (:data:`proofs_check.outcome.ROUTES`) name how the value(s) were obtained (default: a numeric
    experiment), and every one of ``bounds`` must hold too."""

    value: float | Iterable[float]
    method: str = ""
    detail: str = ""
    routes: tuple[str, ...] = ()
    bounds: tuple[Bound, ...] = ()


class Experiment(Claim):
    """A numeric comparison: ``measure()`` must come within ``tolerance`` of ``expected`` (every component)."""

    def __init__(
        self,
        id: str,
        citation: Citation,
        paper: Paper,
        measure: Callable[[], Measurement | float | Sequence[float]],
        quantity: sp.Symbol,
        expected: float,
        tolerance: float,
        assumptions: Iterable[object] = (),
    ) -> None:
        self.measure, self.quantity, self.expected, self.tolerance = measure, quantity, expected, tolerance
        statement = sp.Le(sp.Abs(quantity - sp.Float(expected, 4)), sp.Float(tolerance, 3))
        if expected == 0:
            statement = sp.Le(sp.Abs(quantity), sp.Float(tolerance, 3))
        super().__init__(id, citation, statement, self._check, assumptions, paper=paper, validate=paper._validate)

    def _check(self) -> Outcome:
        # the comparison is looked up when the check runs (the class's at that time, e.g. one a test has replaced)
        return self._compare()

    def _compare(self) -> Outcome:
        result = self.measure()
        measured = result if isinstance(result, Measurement) else Measurement(result)
        value = measured.value.ravel() if hasattr(measured.value, "ravel") else measured.value  # NumPy arrays
        try:  # one value, or any iterable of them
            values = [float(v) for v in value]  # type: ignore[union-attr]
        except TypeError:
            values = [float(value)]  # type: ignore[arg-type]
        worst = max((abs(v - self.expected) for v in values), default=math.nan)
        method = measured.method or "numeric experiment"
        name = self.quantity.name
        detail = f"max |{name} - {self.expected:g}| = {worst:.3g} (tolerance {self.tolerance:.3g})"
        detail += "".join(f"; {b.name} = {b.value:.3g} (allowance {b.allowance:.3g})" for b in measured.bounds)
        detail += f"; {measured.detail}" if measured.detail else ""
        routes = [*(measured.routes or (NUMERIC_EXPERIMENT,)), *(b.route for b in measured.bounds if b.route)]
        failed = [b for b in measured.bounds if not b.holds]
        if not worst <= self.tolerance or failed:  # NaN fails too
            witness = {name: ", ".join(f"{v:.6g}" for v in values), "tolerance": f"{self.tolerance:.3g}"}
            witness |= {b.name: f"{b.value:.6g} (allowance {b.allowance:.3g})" for b in failed}
            return Outcome.refuted(method, witness, detail, routes=routes)
        return Outcome.numeric(method, detail, routes=routes)


class Paper:
    """A paper whose claims are checked: metadata, the models it studies, its notation, its claims.

    ``models`` are model names of the registry or :class:`derivations.model.Model` objects (registered or not);
    ``notation`` maps symbol names to LaTeX; ``equation_tags`` map a model's name to its derivation's step keys and
    the paper's equation numbers for them (``{"two_layer_scalar": {"clock_ode": "86–87"}}``, read by
    :meth:`derivation`); ``structure`` the paper's own numbering (:class:`proofs_check.citation.Structure`),
    against which every claim's citation is checked when it is declared. Every symbol of a claim's statement must be
    a symbol of one of the models (state, parameter, quantity, initial value ``<state>_0``), the time ``t``, or
    declared in the notation (:meth:`symbol`); a definition given there is substituted before the statement is decided.
    """

    def __init__(
        self,
        key: str,
        title: str,
        authors: Sequence[str] | str,
        venue: str,
        year: int,
        url: str = "",
        *,
        models: Iterable[str | Model] = (),
        notation: Mapping[str, str] | None = None,
        equation_tags: Mapping[str, Mapping[str, str]] | None = None,
        structure: Structure | None = None,
    ) -> None:
        if not isinstance(key, str) or not key.isidentifier():
            raise ValueError(f"paper key must be an identifier such as 'smith2026', got {key!r}")
        if not isinstance(year, int) or isinstance(year, bool):
            raise TypeError(f"year of paper {key!r} must be an int, got {year!r}")
        authors = (authors,) if isinstance(authors, str) else tuple(authors)
        if not authors or not all(isinstance(a, str) and a.strip() for a in authors):
            raise ValueError(f"authors of paper {key!r} must be non-empty names, got {authors!r}")
        self.key, self.title, self.authors, self.venue, self.year, self.url = key, title, authors, venue, year, url
        self.models = tuple(models)
        if structure is not None and not isinstance(structure, Structure):
            raise TypeError(f"structure of paper {key!r} must be a proofs_check.Structure, got {structure!r}")
        self.structure = structure
        wrong = [m for m in self.models if not isinstance(m, (str, Model))]
        if wrong:
            raise TypeError(f"models of paper {key!r} must be model names or Model objects, got {wrong[0]!r}")
        self.notation: dict[str, str] = dict(notation or {})
        # model name -> step key (Step.key) -> this paper's equation number: the library's derivations carry none
        self.equation_tags: dict[str, dict[str, str]] = {m: dict(t) for m, t in (equation_tags or {}).items()}
        self._definitions: dict[str, object] = {}
        self._resolved: dict[str, sp.Expr] = {}
        self._claims: dict[str, Claim] = {}

    # ------------------------------------------------------------------------------------------ metadata
    @property
    def info(self) -> PaperInfo:
        """The metadata, with the models by name."""
        names = tuple(m if isinstance(m, str) else m.name for m in self.models)
        return PaperInfo(self.key, self.title, self.authors, self.venue, self.year, self.url, names)

    @property
    def cite(self) -> str:
        """Short citation, e.g. "Nam et al. 2025"."""
        return self.info.cite

    def model_objects(self) -> list[Model]:
        """The paper's models as :class:`derivations.model.Model` objects.

        Returns:
            One ``Model`` per entry of ``models``, in order (a name looked up in ``derivations.models``).

        Raises:
            ValueError: a model name that no model is registered under (``derivations.models.get``).
        """
        return [m if isinstance(m, Model) else model_registry.get(m) for m in self.models]

    def derivation(self, model: Model | str) -> Derivation:
        """The solved derivation of ``model``, its steps tagged with this paper's equation numbers.

        Arguments:
            model: a :class:`derivations.model.Model` or a registered model's name.

        Returns:
            ``model.closed_form.derivation`` tagged by ``equation_tags[model.name]`` (``Derivation.tagged``).

        Raises:
            ValueError: an unknown model name, or ``derivations.solve`` found no closed form (its reason quoted).
            TypeError: ``model`` is neither a name nor a ``Model``.
        """
        resolved = model if isinstance(model, Model) else model_registry.get(model)
        return resolved.closed_form.derivation.tagged(self.equation_tags.get(resolved.name, {}))

    # ------------------------------------------------------------------------------------------ notation
    def symbol(self, name: str, latex: str | None = None, definition: object = None, **assumptions: bool) -> sp.Symbol:
        """Declare the symbol ``name`` (SymPy ``assumptions`` such as ``positive=True``) and return it.

        Arguments:
            name: the symbol's name, as statements use it.
            latex: how the report prints it (default None: the package's naming rules; a later call without
                ``latex`` keeps the one given).
            definition: an expression, or a zero-argument callable returning one (called when first needed),
                substituted for the symbol before a statement is decided; None: no definition.
            assumptions: SymPy assumptions of the symbol (``positive=True``, ``real=True``).

        Returns:
            The SymPy symbol ``name`` with ``assumptions``.

        Raises:
            ValueError: ``definition`` is given for a name that already has one.
        """
        if name in self._definitions and definition is not None:
            raise ValueError(f"paper {self.key!r}: symbol {name!r} is already defined")
        if latex is not None:
            self.notation[name] = latex
        else:
            self.notation.setdefault(name, "")
        if definition is not None:
            self._definitions[name] = definition
        return sp.Symbol(name, **assumptions)

    def symbols(self, names: str, **assumptions: bool) -> tuple[sp.Symbol, ...]:
        """Declare several symbols at once, with the same SymPy ``assumptions``, printed by the package's naming
        rules (:meth:`symbol` for one with its own LaTeX or definition).

        Arguments:
            names: the names separated by spaces or commas, as for ``sympy.symbols`` (``"x y"``, ``"x, y"``,
                ``"x:3"`` for x0, x1, x2).
            assumptions: SymPy assumptions given to every symbol (``real=True``, ``positive=True``).

        Returns:
            The symbols, in order (a tuple even for one name).

        Raises:
            TypeError: ``names`` is not a string.
            ValueError: ``names`` names no symbol.
        """
        if not isinstance(names, str):
            raise TypeError(f"names must be a string of symbol names such as 'x y', got {type(names).__name__}")
        try:
            declared = sp.symbols(names, seq=True)
        except ValueError:  # SymPy's "no symbols given"
            declared = ()
        if not declared:
            raise ValueError(f"paper {self.key!r}: symbols({names!r}) names no symbol; write e.g. 'x y'")
        return tuple(self.symbol(symbol.name, None, None, **assumptions) for symbol in declared)

    @staticmethod
    def eq(lhs: object, rhs: object) -> sp.Equality:
        """The equation ``lhs = rhs`` as a statement, left undecided: ``sp.Eq(lhs, rhs, evaluate=False)``, so that an
        equation SymPy would decide on construction (to True or False) stays the relation the claim states, on
        the printed and the corrected form alike.

        Arguments:
            lhs: a SymPy expression or matrix (Python numbers are SymPy numbers).
            rhs: the same.

        Returns:
            The unevaluated ``Eq``.

        Raises:
            TypeError: a side is not a SymPy expression, matrix or number.
            ValueError: the sides have different shapes (a matrix and a scalar, or matrices of other sizes).
        """
        sides = []
        for name, side in (("lhs", lhs), ("rhs", rhs)):
            if not isinstance(side, sp.MatrixBase):
                try:
                    side = sp.sympify(side, strict=True)
                except sp.SympifyError:
                    raise TypeError(
                        f"{name} must be a SymPy expression, matrix or number, got {type(side).__name__}"
                    ) from None
            sides.append(side)
        shapes = [getattr(side, "shape", None) for side in sides]
        if shapes[0] != shapes[1]:
            raise ValueError(
                f"the two sides of the equation have different shapes (lhs {shapes[0] or 'scalar'}, rhs "
                f"{shapes[1] or 'scalar'}): compare entries of equal shape, e.g. a matrix with a matrix"
            )
        return sp.Eq(sides[0], sides[1], evaluate=False)

    def definition(self, name: str) -> sp.Expr:
        """The definition of the notation symbol ``name`` (built on first use).

        Arguments:
            name: the name of a symbol declared with a ``definition`` (:meth:`symbol`).

        Returns:
            The definition as a SymPy expression (a callable definition called once, its result kept).

        Raises:
            KeyError: ``name`` has no definition.
            ValueError: (``sympy.SympifyError``) the definition is not a SymPy expression.
        """
        if name not in self._resolved:
            given = self._definitions[name]
            self._resolved[name] = sp.sympify(given() if callable(given) else given, strict=True)
        return self._resolved[name]

    def substitute(self, expr: sp.Basic) -> sp.Basic:
        """``expr`` with every defined notation symbol replaced by its definition, repeatedly, then ``doit``.

        Arguments:
            expr: a SymPy expression (or relation) in the paper's symbols.

        Returns:
            ``expr`` with no defined notation symbol left, ``doit`` applied.

        Raises:
            ValueError: the definitions are still not resolved after 20 rounds of replacement (circular, naming the
                symbols), or ``expr`` or a definition is not a SymPy object (``sympy.SympifyError``).
        """
        expr = sp.sympify(expr, strict=True)
        for _ in range(20):
            defined = {s: self.definition(s.name) for s in expr.free_symbols if s.name in self._definitions}
            if not defined:
                return expr.doit()
            expr = expr.xreplace(defined)
        raise ValueError(f"paper {self.key!r}: the definitions are circular ({sorted(s.name for s in defined)})")

    def known_symbols(self) -> set[str]:
        """Names a statement may use: the models' symbols, the time, and the notation.

        Returns:
            The set of names: the time ``t``, the notation's symbols, and of every model its states, their initial
            values ``<state>_0``, its unit and shared parameters and its quantities.

        Raises:
            ValueError: a model name that no model is registered under (:meth:`model_objects`).
        """
        known = {TIME, *self.notation}
        for model in self.model_objects():
            known |= {*model.state_names, *model.unit_param_names, *model.shared_param_names, *model.quantities}
            known |= {f"{name}_0" for name in model.state_names}
        return known

    def _unquoted(self, names: set[str]) -> set[str]:
        """Those of ``names`` that no recorded closed-form derivation of the paper's models uses (statements may
        quote derivation steps); derivations already computed are searched first, and the search stops early."""
        for model in self.model_objects():
            if not names:
                break
            steps = model.solution.derivation.steps
            names = names - {symbol.name for step in steps for symbol in step.relation.free_symbols}
        return names

    def symbol_names(self, expr: sp.Basic) -> dict[sp.Symbol, str]:
        """``symbol_names`` for ``sympy.latex``: the notation's LaTeX of each symbol of ``expr`` that has one.

        Arguments:
            expr: a SymPy expression (or relation).

        Returns:
            A dict from each symbol of ``expr`` with a non-empty LaTeX in the notation to that LaTeX.

        Raises:
            ValueError: (``sympy.SympifyError``) ``expr`` is not a SymPy object.
        """
        return {
            s: self.notation[s.name]
            for s in sp.sympify(expr, strict=True).atoms(sp.Symbol)
            if self.notation.get(s.name)
        }

    # ------------------------------------------------------------------------------------------ claims
    def claim(
        self,
        id: str,
        statement: object,
        *,
        where: str,
        eq: str = "",
        assume: Iterable[object] = (),
        corrected: object = None,
        check: Callable[[], Outcome] | None = None,
        shared_work: str = "",
        derived: bool = False,
    ) -> Claim:
        """Declare the claim ``<key>.<id>``.

        A statement (or corrected form) given as a SymPy object is validated at once; one given as a callable is
        built and validated on first use.

        Arguments:
            id: the claim's id within the paper, a non-empty string without spaces, not yet declared.
            statement: a SymPy relation, or a zero-argument callable building one (text only with ``check``).
            where: where the paper makes the claim (section, theorem), e.g. ``"§2, Lemma 1"``; with a
                :attr:`structure`, a part the paper does not have is refused.
            eq: the paper's equation number(s), or ``""``.
            assume: the assumptions: SymPy conditions, used by the checks, or text.
            corrected: the right form of a misprinted statement (the claim is then an erratum), or None.
            check: a zero-argument callable returning an :class:`Outcome`, for claims no statement decides; None:
                the statement is decided by :meth:`decide`.
            shared_work: the section (``"<key>.<section>"``) whose cached computations the check reuses, to be run
                by the same worker; ``""``: the claim's own section.
            derived: True for a result the paper does not state: ``where`` then names the parts it rests on and the
                reference says "derived here".

        Returns:
            The registered :class:`Claim`.

        Raises:
            ValueError: ``corrected`` and ``check`` both given; a text ``statement`` without ``check``; a bad or
                duplicate ``id``; an empty ``where``, or a citation the :attr:`structure` refutes; ``shared_work``
                not a section; a reference or text with a character the report cannot print; a SymPy statement that
                evaluated to True/False, has unknown symbols or sides of different shapes.
            TypeError: ``derived`` is not a bool, ``check`` is not callable, or the statement is neither a SymPy
                object nor text.
        """
        if corrected is not None and check is not None:
            raise ValueError(f"claim {self.key}.{id}: give corrected= or check=, not both")
        if check is None and isinstance(statement, str):
            raise ValueError(
                f"claim {self.key}.{id}: a statement given as text cannot be checked; give a SymPy relation or check="
            )
        claim = Claim(
            self._new_id(id),
            self._citation(where, eq, derived),
            statement,
            check if check is not None else (lambda: self.decide(claim)),
            assume,
            corrected=corrected,
            paper=self,
            validate=self._validate,
            shared_work=shared_work,
        )
        return self._add(claim)

    def experiment(
        self,
        id: str,
        measure: Callable[[], Measurement | float | Sequence[float]],
        *,
        quantity: sp.Symbol,
        tolerance: float,
        where: str,
        expected: float = 0.0,
        eq: str = "",
        assume: Iterable[object] = (),
        derived: bool = False,
    ) -> Experiment:
        """Declare a numeric experiment ``<key>.<id>``: numerically supported if every value ``measure()`` returns
        is within ``tolerance`` of ``expected``, refuted (with the values) otherwise.

        Arguments:
            id: the experiment's id within the paper, as for :meth:`claim`.
            measure: a zero-argument callable returning the value(s) of ``quantity``: a number, a sequence of
                numbers, or a :class:`Measurement`.
            quantity: a notation symbol, printed in the statement ``|quantity - expected| <= tolerance``.
            tolerance: the allowed distance from ``expected``, a finite number >= 0 (int or float).
            where, eq, derived: as for :meth:`claim`.
            expected: the value the measurement should come close to (default 0).
            assume: the assumptions (SymPy conditions or text).

        Returns:
            The registered :class:`Experiment`.

        Raises:
            TypeError: ``tolerance`` is not an int or float (``bool`` refused), ``measure`` is not callable,
                ``derived`` is not a bool, or ``expected`` is not a number.
            ValueError: ``tolerance`` is negative or not finite; a bad or duplicate ``id``; an empty ``where``, or a
                citation the :attr:`structure` refutes; a text with a character the report cannot print;
                ``quantity`` not a symbol the paper knows.
        """
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)):
            raise TypeError(
                f"experiment {self.key}.{id}: tolerance must be a finite number >= 0 (int or float), got "
                f"{type(tolerance).__name__} {tolerance!r}"
            )
        if not (tolerance >= 0 and math.isfinite(tolerance)):
            raise ValueError(f"experiment {self.key}.{id}: tolerance must be a finite number >= 0, got {tolerance!r}")
        if not callable(measure):
            raise TypeError(f"experiment {self.key}.{id}: measure must be callable")
        experiment = Experiment(
            self._new_id(id),
            self._citation(where, eq, derived),
            self,
            measure,
            quantity,
            float(expected),
            tolerance,
            assume,
        )
        experiment.statement  # noqa: B018 - validates the quantity's name now
        return self._add(experiment)

    def variant(self, id: str, statement: object, corrected: object = None) -> Claim:
        """An unregistered copy of claim ``id`` with another statement, decided the same way: for tests that a wrong
        statement is refuted.

        Arguments:
            id: the claim's local (``"lemma1"``) or full (``"<key>.lemma1"``) id.
            statement: the other statement (validated on first use, as a claim's).
            corrected: the other corrected form, or None.

        Returns:
            A :class:`Claim` with id ``"<full id>~variant"``, the original's citation, assumptions and shared work.

        Raises:
            KeyError: the paper has no claim ``id``.
        """
        original = self[id]
        variant = Claim(
            f"{original.id}~variant",
            original.citation,
            statement,
            lambda: self.decide(variant),
            original.assumptions,
            corrected=corrected,
            paper=self,
            validate=self._validate,
            shared_work=original.shared_work,
        )
        return variant

    def claims(self) -> list[Claim]:
        """The claims in declaration order.

        Returns:
            A new list of the paper's claims and experiments.
        """
        return list(self._claims.values())

    def __getitem__(self, id: str) -> Claim:
        full = id if id.startswith(f"{self.key}.") else f"{self.key}.{id}"
        if full not in self._claims:
            raise KeyError(f"paper {self.key!r} has no claim {full!r}")
        return self._claims[full]

    def decide(self, claim: Claim) -> Outcome:
        """The verdict on ``claim`` from its statement (and corrected form): see :mod:`statement_checks`.

        Arguments:
            claim: a claim of this paper with a SymPy statement (its SymPy assumptions are the conditions).

        Returns:
            The :class:`Outcome` of ``statement_checks.decide``, or of ``statement_checks.erratum`` when the claim
            has a corrected form.

        Raises:
            ValueError: two symbols of one name with different SymPy assumptions meet in the claim, the definitions
                are circular, the statement is no relation or Boolean combination, or a statement built on first
                use is not usable (as for :meth:`claim`).
            TypeError: a statement built on first use is neither a SymPy object nor text.
        """
        from proofs_check.statement_checks import decide, erratum

        conditions = [a for a in claim.assumptions if isinstance(a, sp.Basic)]
        self._check_one_symbol_per_name(claim, [claim.statement, claim.corrected, *conditions])
        if claim.corrected is None:
            return decide(claim.statement, self.substitute, conditions)
        return erratum(claim.id, claim.statement, claim.corrected, self.substitute, conditions)

    # ------------------------------------------------------------------------------------------ internals
    def _symbols_used(self, expr: sp.Basic) -> set[sp.Symbol]:
        """The free symbols of ``expr`` and, through the notation's definitions, of everything it stands for."""
        seen: set[sp.Symbol] = set()
        pending = set(expr.free_symbols)
        while pending:
            symbol = pending.pop()
            if symbol in seen:
                continue
            seen.add(symbol)
            if isinstance(symbol, sp.Symbol) and symbol.name in self._definitions:
                pending |= self.definition(symbol.name).free_symbols
        return {s for s in seen if isinstance(s, sp.Symbol)}

    def _check_one_symbol_per_name(self, claim: Claim, parts: Iterable[object]) -> None:
        """ValueError naming ``claim`` if two symbols of one name but different assumptions meet in what it decides
        (e.g. a claim's ``Z = sp.Symbol("Z", real=True)`` beside the model's positive ``Z``, brought in by a
        definition): SymPy treats them as two variables, and the check would fail deep inside (a duplicate
        argument of a lambdified function)."""
        by_name: dict[str, set[sp.Symbol]] = {}
        for part in parts:
            if isinstance(part, sp.Basic):
                for symbol in self._symbols_used(part):
                    by_name.setdefault(symbol.name, set()).add(symbol)
        for name, symbols in sorted(by_name.items()):
            if len(symbols) > 1:
                owners = [m for m in self.model_objects() if name in m.unit_symbols]
                fix = (
                    f"take the model's own symbol, models.get({owners[0].name!r}).symbol({name!r}) "
                    f"({_assumptions_text(owners[0].symbol(name))}), "
                    if owners
                    else ""
                )
                found = "; ".join(sorted(_assumptions_text(s) for s in symbols))
                raise ValueError(
                    f"claim {claim.id}: the symbol {name!r} appears with different SymPy assumptions ({found}), so "
                    f"SymPy reads two variables; {fix}or declare {name!r} once with one set of assumptions"
                )

    def _new_id(self, id: str) -> str:
        if not isinstance(id, str) or not id or id != id.strip() or " " in id:
            raise ValueError(f"paper {self.key!r}: claim id must be a non-empty string without spaces, got {id!r}")
        full = f"{self.key}.{id}"
        if full in self._claims:
            raise ValueError(f"duplicate claim id {full!r}")
        return full

    def _citation(self, where: str, eq: str, derived: bool = False) -> Citation:
        if not isinstance(where, str) or not where.strip():
            raise ValueError(f"paper {self.key!r}: where= must say where the claim is made (e.g. '§2, Lemma 1')")
        if not isinstance(derived, bool):
            raise TypeError(f"paper {self.key!r}: derived= must be a bool, got {derived!r}")
        place = f"{DERIVED_HERE} from {where}" if derived else where
        reference = f"{self.cite}, {place}" + (f", eq. ({eq})" if eq else "")
        citation = Citation(self.key, reference, where, eq, derived)
        problems = self.structure.problems(citation) if self.structure is not None else []
        if problems:
            raise ValueError(f"paper {self.key!r}: where={where!r}, eq={eq!r}: {'; '.join(problems)}")
        return citation

    def _add(self, claim: _Declared) -> _Declared:
        _check_printable(claim)
        if not callable(claim._given["statement"]):
            claim.statement  # noqa: B018 - an eager statement is validated at once
        if not callable(claim._given["corrected"]):
            claim.corrected  # noqa: B018
        self._claims[claim.id] = claim
        return claim

    def _validate(self, claim: Claim, statement: object) -> object:
        """``statement`` if it is a usable statement of ``claim``; ValueError / TypeError naming the claim."""
        if isinstance(statement, str):
            return statement
        if isinstance(statement, sp.logic.boolalg.BooleanAtom):
            raise ValueError(
                f"claim {claim.id}: the statement evaluated to {statement} when it was built: SymPy decides "
                "Eq(lhs, rhs) on construction when lhs - rhs is a number, or when the sides have different shapes "
                "(a matrix and a scalar); build it with Paper.eq(lhs, rhs) (unevaluated, and a shape "
                "mismatch is a ValueError naming both shapes) or sp.Eq(lhs, rhs, evaluate=False)"
            )
        if not isinstance(statement, (sp.Basic, sp.MatrixBase)):
            raise TypeError(
                f"claim {claim.id}: the statement must be a SymPy relation or text, got {type(statement).__name__}"
            )
        unknown = sorted(self._unquoted({s.name for s in statement.free_symbols} - self.known_symbols()))
        if unknown:
            raise ValueError(
                f"claim {claim.id}: unknown symbol(s) {', '.join(unknown)} in the statement; declare them with "
                f"{self.key}.symbol(name, latex, definition) or add the model that has them"
            )
        if isinstance(statement, sp.Equality):
            shapes = [getattr(side, "shape", None) for side in (statement.lhs, statement.rhs)]
            if shapes[0] != shapes[1]:
                raise ValueError(
                    f"claim {claim.id}: the two sides of the Eq have different shapes "
                    f"({shapes[0] or 'scalar'} and {shapes[1] or 'scalar'})"
                )
        return statement


def _assumptions_text(symbol: sp.Symbol) -> str:
    """The assumptions a symbol was declared with, as keywords (``positive=True``), or ``no assumptions``."""
    given = {k: v for k, v in symbol._assumptions_orig.items() if v is not None}
    return ", ".join(f"{k}={v}" for k, v in sorted(given.items())) or "no assumptions"


def _check_printable(claim: _Declared) -> None:
    """ValueError naming ``claim`` if its reference, text assumptions or text statement hold a character the
    report's fonts cannot print (the PDF would show it as ``[U+XXXX]``), before any check runs."""
    texts = [claim.citation.reference, *(a for a in claim.assumptions if isinstance(a, str))]
    statement = claim._given.get("statement")
    texts += [statement] if isinstance(statement, str) else []
    for text in texts:
        printed = text_latex(text)
        if "[U+" in printed:
            code = printed[printed.index("[U+") + 3 :].split("]", 1)[0]
            raise ValueError(
                f"claim {claim.id}: the text {text!r} has the character {chr(int(code, 16))!r} (U+{code}), which "
                "the report cannot print; write it as a formula (e.g. x^2, sqrt(x)) or in words"
            )
