r"""The one naming table from SymPy symbol names to the papers' LaTeX, and the printer that uses it.

Symbols are matched by *name* (their assumptions differ between modules: ``Sigma_0`` is nonnegative in
``hyperbolic`` and positive in some claims, yet it is the same :math:`\Sigma_0`). A name is looked up whole in
:data:`SYMBOL_NAMES` first; otherwise it is split at its first underscore into a base (looked up in
:data:`BASE_NAMES`, e.g. ``lam`` → :math:`\lambda`) and a subscript rendered the same way, so that the unit
symbols ``lam_1 … lam_p`` of any width need no entry of their own. Names that already start with a backslash
are LaTeX and kept as they are. Two forms the derivations build are mathematics, not code: a Laurent
coefficient ``theta[+1]`` is :math:`\theta^{[+1]}` and a value at the start ``chi_2(0)`` is :math:`\chi_2(0)`
(the argument after the subscript, never inside it; likewise ``chi(t)``); a letter with trailing digits ``c1`` is
:math:`c_1`, and its unit ``a1_i`` (the deep chain's layer 1 at unit i) is :math:`a_{1,i}`. The start ``a1_0`` of such
a numbered state is :math:`a_1(0)`, not :math:`a_{1,0}`, which would read as its unit 0; a prime follows the whole
name (``a1'`` is :math:`a_1'`).

Units are indexed by :data:`UNIT_INDEX` (:math:`i`, from 1 to :data:`WIDTH` :math:`p`): :func:`unit_sum` writes a
sum over the units of a one-unit expression, its symbols renamed for unit :math:`i` (``a`` → :math:`a_i`, the start
``a_0`` → :math:`a_i(0)`).

:func:`latex` is ``sympy.latex`` with ``symbol_names`` filled from the table; :func:`align_rows` lays out one
relation as rows of an ``align`` environment, breaking wide right-hand sides between terms or factors so that
displayed equations stay within the text width.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import sympy as sp

__all__ = [
    "BASE_NAMES",
    "SYMBOL_NAMES",
    "UNIT_INDEX",
    "WIDTH",
    "align_rows",
    "dot_symbol",
    "latex",
    "symbol_latex",
    "symbol_names",
    "unit_index",
    "unit_sum",
    "width",
]

SYMBOL_NAMES: dict[str, str] = {
    # Nam et al. 2025, App. H (the paper writes S_0 in calligraphic type)
    "Sigma_0": r"\Sigma_0",
    "S_0": r"\mathcal{S}_0",
    "D_0": r"D_0",
    "gamma_+": r"\gamma_+",
    "gamma_-": r"\gamma_-",
    "Delta_0": r"\Delta_0",
    "lam_eff": r"\lambda_{\mathrm{eff}}",
    "t_1/2": r"t_{1/2}",
    "theta(t)": r"\theta(t)",
    "a_i b_i / S_i": r"a_i b_i / S_i",
    # Xu & Ziyin 2025
    "alpha_+": r"\alpha_+",
    "alpha_-": r"\alpha_-",
    "alpha_pm": r"\alpha_\pm",
    "zeta": r"\zeta",
    "zeta_eta": r"\zeta_\eta",
    "S_pq": r"S",
    "uw": r"u^{\top} w",
    "uv": r"u^{\top} v",
    "uu": r"\lvert u\rvert^{2}",
    "ww": r"\lvert w\rvert^{2}",
    "v^*": r"v^{*}",
    "B^-2": r"B^{-2}",
    "B_max": r"B_{\max}",
    "e_B": r"e_B",
}
"""Whole-name entries: the papers' symbols (γ₊, Σ₀, 𝒮₀, α±, ζ, …) and the package's compound names."""

BASE_NAMES: dict[str, str] = {
    "lam": r"\lambda",
    "lambda": r"\lambda",
    "alpha": r"\alpha",
    "beta": r"\beta",
    "gamma": r"\gamma",
    "delta": r"\delta",
    "Delta": r"\Delta",
    "epsilon": r"\epsilon",
    "zeta": r"\zeta",
    "eta": r"\eta",
    "theta": r"\theta",
    "vartheta": r"\vartheta",
    "kappa": r"\kappa",
    "mu": r"\mu",
    "xi": r"\xi",
    "rho": r"\rho",
    "sigma": r"\sigma",
    "Sigma": r"\Sigma",
    "tau": r"\tau",
    "phi": r"\phi",
    "varphi": r"\varphi",
    "psi": r"\psi",
    "omega": r"\omega",
    "Omega": r"\Omega",
    "Lambda": r"\Lambda",
    "Gamma": r"\Gamma",
    "Theta": r"\Theta",
    "Phi": r"\Phi",
    "Psi": r"\Psi",
    "pi": r"\pi",
    "nu": r"\nu",
    "chi": r"\chi",
    "ell": r"\ell",
    # matrix entries (linear_network): W1_k_j is (W_1)_{kj}, W2T_m_j is (W_2^T)_{mj}, Sxx_k_l is (Σ_xx)_{k,l}
    "W1": r"(W_1)",
    "W2T": r"(W_2^{\top})",
    "Sxx": r"(\Sigma_{xx})",
    "Sxy": r"(\Sigma_{xy})",
    "Syy": r"(\Sigma_{yy})",
}
"""Bases of subscripted names (``eta_u`` → :math:`\\eta_u`) and bare Greek names."""

_SUBSCRIPT_SIGNS = {"+": "+", "-": "-", "pm": r"\pm", "mp": r"\mp"}
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_LAURENT_INDEX = re.compile(r"(?P<base>.+)\[(?P<index>[+-]?\d+)\]")
_AT_START = re.compile(r"(?P<base>.+)\((?P<argument>0|t)\)")
_TRAILING_DIGITS = re.compile(r"(?P<letters>[A-Za-z]+)(?P<digits>\d+)")


def _letter_base(letters: str) -> bool:
    """Whether ``letters`` before trailing digits name one symbol (a letter or a Greek name: ``c`` of ``c1``)."""
    return len(letters) == 1 or letters in BASE_NAMES


def _atom(text: str) -> str:
    r"""``text`` (the LaTeX of a name) as one atom for a script or an argument: parenthesized when it is a product
    of several symbols (``u^{\top} w``), so that ``(u^{\top} w)^{[-1]}`` is not read as ``u^{\top} w^{[-1]}``."""
    return f"({text})" if " " in text.strip() else text


def _base_latex(base: str) -> str:
    if base in BASE_NAMES:
        return BASE_NAMES[base]
    if len(base) > 1 and base.isalpha():
        return rf"\mathrm{{{base}}}"
    return base


def _subscript_latex(sub: str) -> str:
    if sub in _SUBSCRIPT_SIGNS:
        return _SUBSCRIPT_SIGNS[sub]
    parts = sub.split("_")
    if all(p.isdigit() for p in parts):
        return ",".join(parts)
    return ",".join(_base_latex(p) if _IDENTIFIER.fullmatch(p) else p for p in parts)


def symbol_latex(name: str) -> str:
    """The LaTeX of a symbol called ``name``: the table entry, else base and subscript by the rules above."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string, got {name!r}")
    if name in SYMBOL_NAMES:
        return SYMBOL_NAMES[name]
    if name.startswith("\\"):
        return name
    laurent = _LAURENT_INDEX.fullmatch(name)
    if laurent:
        return f"{_atom(symbol_latex(laurent['base']))}^{{[{laurent['index']}]}}"
    at_start = _AT_START.fullmatch(name)
    if at_start:
        return f"{_atom(symbol_latex(at_start['base']))}({at_start['argument']})"
    primes = len(name) - len(name.rstrip("'"))
    core = name.rstrip("'")
    if primes and core:
        # a prime follows the whole name: a1' is a_1', not a1'
        return symbol_latex(core) + "'" * primes
    trailing = _TRAILING_DIGITS.fullmatch(name)
    if trailing and name not in BASE_NAMES and _letter_base(trailing["letters"]):
        return symbol_latex(f"{trailing['letters']}_{trailing['digits']}")
    base, _, sub = core.partition("_")
    if not _IDENTIFIER.fullmatch(base) or (sub and not re.fullmatch(r"[A-Za-z0-9_+-]+", sub)):
        return sp.latex(sp.Symbol(name))
    numbered = _TRAILING_DIGITS.fullmatch(base)
    if sub == "0" and numbered and base not in BASE_NAMES and _letter_base(numbered["letters"]):
        # a numbered state's start (a1_0): a_1(0), since a_{1,0} would read as its unit 0
        return f"{symbol_latex(base)}(0)"
    if sub and numbered and base not in BASE_NAMES and _letter_base(numbered["letters"]):
        # a numbered state's unit (a1_i, the deep chain's layer 1 at unit i): one subscript, layer first
        return f"{_base_latex(numbered['letters'])}_{{{numbered['digits']},{_subscript_latex(sub)}}}" + "'" * primes
    text = _base_latex(base)
    if sub:
        rendered = _subscript_latex(sub)
        text += f"_{{{rendered}}}" if len(rendered) > 1 else f"_{rendered}"
    return text + "'" * primes


UNIT_INDEX = sp.Symbol("i", integer=True, positive=True)
"""The index of the units in sums over them, :math:`\\sum_{i=1}^{p}` (the papers' :math:`a_i`, :math:`\\theta_i`)."""

WIDTH = sp.Symbol("p", integer=True, positive=True)
"""The number of units, the upper limit of a sum over them."""

_SPARE_INDICES = ("i", "j", "k", "l", "m", "n")


def unit_index(taken: Iterable[str] = ()) -> sp.Symbol:
    """:data:`UNIT_INDEX`, or the first of j, k, l, m, n (integer, positive) if ``i`` is in ``taken``.

    Arguments:
        taken: names of symbols already in use (a model's symbols): the index must not be read as one of them.

    Returns:
        The index symbol.

    Raises:
        ValueError: every spare index name is taken.
    """
    used = set(taken)
    for name in _SPARE_INDICES:
        if name not in used:
            return UNIT_INDEX if name == UNIT_INDEX.name else sp.Symbol(name, integer=True, positive=True)
    raise ValueError(f"taken: every unit index name {_SPARE_INDICES} is a symbol already")


def unit_sum(
    summand: sp.Expr, unit: Iterable[sp.Symbol], starts: Iterable[sp.Symbol] = (), taken: Iterable[str] = ()
) -> sp.Sum:
    """The sum over the ``p`` units of a one-unit expression, :math:`\\sum_{i=1}^{p} q_i`.

    Arguments:
        summand: the expression of one generic unit.
        unit: its per-unit symbols (states, unit parameters), each renamed for unit i (``a`` → ``a_i``).
        starts: its states' initial values (``a_0``, ``a1_0``), renamed ``a_i(0)``, ``a1_i(0)``.
        taken: further names the index must not be read as (the model's symbols, besides the summand's).

    Returns:
        The unevaluated ``Sum`` over the index of :func:`unit_index` (i unless the summand or ``taken`` has a
        symbol i) from 1 to :data:`WIDTH`.

    Raises:
        TypeError: ``summand`` is not a SymPy expression, or ``unit`` or ``starts`` holds something else than
            symbols.
        ValueError: a start's name does not end in ``_0``.
    """
    if not isinstance(summand, sp.Basic):
        raise TypeError(f"summand must be a SymPy expression, got {type(summand).__name__}")
    unit, starts = tuple(unit), tuple(starts)
    if not all(isinstance(s, sp.Symbol) for s in (*unit, *starts)):
        raise TypeError(f"unit and starts must hold SymPy symbols, got {unit!r} and {starts!r}")
    bad = [s.name for s in starts if not s.name.endswith("_0")]
    if bad:
        raise ValueError(f"starts: the initial values must be named <state>_0, got {bad}")
    index = unit_index({*taken, *(s.name for s in summand.free_symbols)})
    renaming = {s: sp.Symbol(f"{s.name}_{index}", **s.assumptions0) for s in unit}
    renaming.update({s: sp.Symbol(f"{s.name[:-2]}_{index}(0)", **s.assumptions0) for s in starts})
    return sp.Sum(summand.xreplace(renaming), (index, 1, WIDTH))


def dot_symbol(symbol: sp.Symbol) -> sp.Symbol:
    """A symbol printed as the time derivative of ``symbol`` (its LaTeX under a dot), for displayed flows.

    Arguments:
        symbol: the state whose rate is displayed.

    Returns:
        A new symbol whose name is the LaTeX ``\\dot{…}`` of ``symbol``.

    Raises:
        TypeError: ``symbol`` is not a SymPy symbol.
    """
    if not isinstance(symbol, sp.Symbol):
        raise TypeError(f"symbol must be a sympy Symbol, got {type(symbol).__name__}")
    return sp.Symbol(rf"\dot{{{symbol_latex(symbol.name)}}}")


def symbol_names(expr: sp.Basic) -> dict[sp.Symbol, str]:
    """``symbol_names`` for ``sympy.latex``: every symbol of ``expr`` (free or bound) mapped by the table."""
    return {s: symbol_latex(s.name) for s in sp.sympify(expr, strict=True).atoms(sp.Symbol)}


def latex(expr: sp.Basic, **options: object) -> str:
    """``sympy.latex(expr)`` with the papers' symbol names; ``options`` are passed on (and may override)."""
    names = symbol_names(expr)
    names.update(dict(options.pop("symbol_names", None) or {}))  # type: ignore[call-overload]
    return sp.latex(expr, symbol_names=names, **options)


# ---------------------------------------------------------------- layout of wide displayed relations
def width(expr: sp.Basic) -> float:
    """A rough printed width of ``expr`` in characters (a fraction is as wide as its wider part)."""
    expr = sp.sympify(expr, strict=True)
    if isinstance(expr, sp.Symbol):
        return max(1.0, len(re.sub(r"\\[A-Za-z]+|[{}^_ ]", "x", symbol_latex(expr.name))) * 0.7)
    if expr.is_Number:
        return len(sp.latex(expr)) * (0.7 if expr.is_Rational and not expr.is_Integer else 1.0)
    if isinstance(expr, sp.MatrixBase):
        # a matrix is as wide as its widest row (entries separated by a column gap) and its brackets
        rows = [sum(width(e) + 2.0 for e in expr.row(r)) for r in range(expr.rows)]
        return max(rows, default=0.0) + 2.0
    if isinstance(expr, sp.MatMul):
        return sum(width(a) for a in expr.args) + 0.5 * (len(expr.args) - 1)
    if isinstance(expr, sp.Add):
        return sum(width(a) for a in expr.args) + 2.0 * (len(expr.args) - 1)
    if isinstance(expr, sp.Mul):
        num, den = sp.fraction(expr)
        if den != 1:
            return max(width(num), width(den)) + 1.0
        return sum(width(a) + (2.0 if isinstance(a, sp.Add) else 0.5) for a in expr.args)
    if isinstance(expr, sp.Pow):
        if expr.exp == sp.S.Half:
            return width(expr.base) + 1.5
        if expr.exp.is_negative:
            return width(1 / expr) + 1.0
        return width(expr.base) + 0.7 * width(expr.exp) + (2.0 if isinstance(expr.base, sp.Add) else 0.0)
    if expr.args:
        return len(type(expr).__name__) + sum(width(a) for a in expr.args) + 2.0
    return float(len(sp.latex(expr)))


_RELATION_OPS = {"==": "=", ">=": r"\ge", "<=": r"\le", ">": ">", "<": "<", "!=": r"\ne"}
_NARROW_LHS = 24.0
"""A left-hand side wider than this goes on a row of its own, the relation and right-hand side below it."""


def _bracketed(lines: list[str], close: str = r"\Bigr)", open_: str = r"\Bigl(") -> list[str]:
    """``lines`` wrapped in one pair of (manually sized) brackets that may span rows."""
    if len(lines) == 1:
        return [open_ + lines[0] + close]
    return [open_ + lines[0], *lines[1:-1], lines[-1] + close]


def _times(options: Mapping[str, object]) -> str:
    """The product sign joining the layout's own factors, as ``sympy.latex``'s ``mul_symbol`` would print it."""
    return {"dot": r" \cdot ", "times": r" \times ", "ldot": r" \,.\, "}.get(str(options.get("mul_symbol")), " ")


def _group(expr: sp.Expr, budget: float, options: Mapping[str, object]) -> list[str]:
    """``expr`` in square brackets, broken over lines if it is wider than ``budget``."""
    return _bracketed(_lines(expr, budget - 4, options), r"\Bigr]", r"\Bigl[")


def _add_lines(expr: sp.Add, budget: float, options: Mapping[str, object]) -> list[str]:
    """A sum packed into lines of at most ``budget``; a term wider than that is broken itself."""
    lines: list[str] = []
    current: list[str] = []
    used = 0.0
    for k, term in enumerate(expr.as_ordered_terms()):
        negative = term.could_extract_minus_sign()
        magnitude = -term if negative else term
        prefix = "- " if negative else ("+ " if k else "")
        w = width(magnitude)
        if current and (used + w > budget or w > budget):
            lines.append(" ".join(current))
            current, used = [], 0.0
        if w > budget:
            sub = _lines(magnitude, budget - 2, options)
            lines += [prefix + sub[0], *sub[1:]]
            continue
        current.append(prefix + sp.latex(magnitude, **options))
        used += w + 2.0
    if current:
        lines.append(" ".join(current))
    return lines


def _product_lines(expr: sp.Mul, budget: float, options: Mapping[str, object]) -> list[str] | None:
    """A product whose widest factor is a (power of a) sum: the other factors, then that sum broken in
    parentheses; None if the widest factor cannot be broken."""
    factors = list(expr.as_ordered_factors())
    widest = max(range(len(factors)), key=lambda k: width(factors[k]))
    factor = factors[widest]
    rest = sp.Mul(*(f for k, f in enumerate(factors) if k != widest))
    head = "" if rest == 1 else sp.latex(rest, **options) + _times(options)
    base, close = factor, r"\Bigr)"
    if isinstance(factor, sp.Pow) and factor.exp.is_Integer and factor.exp > 1:
        base, close = factor.base, rf"\Bigr)^{{{sp.latex(factor.exp)}}}"
    if not isinstance(base, sp.Add) or width(rest) > budget / 2:
        # no sum to break, or the other factors are wide themselves: the factors packed into lines
        return _packed_factors(factors, budget, options) if len(factors) > 1 else None
    inner = _bracketed(_add_lines(base, budget - 4 - width(rest), options), close)
    return [head + inner[0], *inner[1:]]


def _packed_factors(factors: list[sp.Expr], budget: float, options: Mapping[str, object]) -> list[str]:
    """The factors of a product packed into lines of at most ``budget`` (a line break between two factors reads as
    their product); a sum factor wider than that is broken in parentheses over lines of its own."""
    lines: list[str] = []
    current: list[str] = []
    used = 0.0
    flat: list[sp.Expr] = []
    for factor in factors:  # an unevaluated product's factors may be products themselves
        flat.extend(factor.as_ordered_factors() if isinstance(factor, sp.Mul) else [factor])
    for factor in (f for f in flat if f != 1):
        size = width(factor) + (2 if isinstance(factor, sp.Add) else 0)
        if current and used + size > budget:
            lines.append(_times(options).join(current))
            current, used = [], 0.0
        if isinstance(factor, sp.Add) and size > budget:
            inner = _bracketed(_add_lines(factor, budget - 4, options))
            lines.extend(inner[:-1])
            current, used = [inner[-1]], budget / 2
            continue
        text = sp.latex(factor, **options)
        current.append(rf"\left({text}\right)" if isinstance(factor, sp.Add) else text)
        used += size
    if current:
        lines.append(_times(options).join(current))
    return lines


def _lines(expr: sp.Expr, budget: float, options: Mapping[str, object]) -> list[str]:
    """``expr`` printed over as many lines as needed to keep each within ``budget`` where it can be broken:
    between the terms of a sum, inside the widest parenthesised sum of a product, or in a numerator."""
    if width(expr) <= budget:
        return [sp.latex(expr, **options)]
    if isinstance(expr, sp.Add):
        return _add_lines(expr, budget, options)
    if isinstance(expr, sp.Integral) and len(expr.limits) == 1 and len(expr.limits[0]) == 3:
        # a definite integral of a wide integrand: the limits first, the integrand in brackets over lines
        (variable, low, high), integrand = expr.limits[0], expr.function
        head = rf"\int\limits_{{{sp.latex(low, **options)}}}^{{{sp.latex(high, **options)}}} "
        inner = _group(integrand, budget - width(low) - width(high) - 4, options)
        return [head + inner[0], *inner[1:-1], inner[-1] + rf" \, d{sp.latex(variable, **options)}"]
    if expr.could_extract_minus_sign():
        inner = _lines(-expr, budget - 2, options)
        return ["- " + inner[0], *inner[1:]]
    num, den = sp.fraction(expr)
    if den != 1 and width(den) > budget / 2:
        # a wide denominator cannot sit under a fraction bar: numerator and denominator become two groups
        denominator = _group(den, budget - 4, options)
        # a number or a symbol over the bar needs no brackets of its own (1 / [...], not [1] / [...])
        numerator = [sp.latex(num, **options)] if num.is_Atom else _group(num, budget, options)
        return [*numerator, r"\Big/ " + denominator[0], *denominator[1:]]
    if den != 1:
        head = rf"\frac{{1}}{{{sp.latex(den, **options)}}}"
        if isinstance(num, sp.Add):
            inner = _bracketed(_add_lines(num, budget - width(den) - 4, options))
        elif isinstance(num, sp.Mul):
            inner = _product_lines(num, budget - width(den) - 2, options) or [sp.latex(num, **options)]
        else:
            inner = [sp.latex(num, **options)]
        return [head + _times(options) + inner[0], *inner[1:]] if len(inner) > 1 else [sp.latex(expr, **options)]
    if isinstance(expr, sp.Mul):
        return _product_lines(expr, budget, options) or [sp.latex(expr, **options)]
    if isinstance(expr, sp.Pow) and isinstance(expr.base, sp.Add) and expr.exp.is_Integer and expr.exp > 1:
        return _bracketed(_add_lines(expr.base, budget - 4, options), rf"\Bigr)^{{{sp.latex(expr.exp)}}}")
    return [sp.latex(expr, **options)]


def align_rows(
    relation: sp.Basic, budget: float = 72.0, overrides: Mapping | None = None, **printer: object
) -> list[str]:
    """``relation`` as rows of an ``align`` environment whose alignment point is at the left (``& lhs = rhs``),
    so that rows of different widths never push each other off the page. A right-hand side that does not fit
    in ``budget`` characters continues on further rows (``&\\qquad …``); a wide left-hand side gets a row of
    its own. Rows carry no tag and no ``\\\\``; ``overrides`` replace table entries for single symbols, and
    ``printer`` settings go to ``sympy.latex`` (e.g. ``mul_symbol``)."""
    relation = sp.sympify(relation, strict=True)
    options = {**printer, "symbol_names": {**symbol_names(relation), **dict(overrides or {})}}
    if not isinstance(relation, sp.core.relational.Relational) or relation.rel_op not in _RELATION_OPS:
        return ["&" + sp.latex(relation, **options)]
    op = _RELATION_OPS[relation.rel_op]
    lhs, rhs = relation.lhs, relation.rhs
    lhs_text = sp.latex(lhs, **options)
    if width(lhs) + width(rhs) + 3 <= budget:
        return [f"&{lhs_text} {op} {sp.latex(rhs, **options)}"]
    if width(lhs) <= _NARROW_LHS:
        lines = _lines(rhs, budget - width(lhs) - 3, options)
        return [f"&{lhs_text} {op} {lines[0]}", *(rf"&\qquad {line}" for line in lines[1:])]
    lines = _lines(rhs, budget - 6, options)
    return [f"&{lhs_text}", rf"&\qquad {op} {lines[0]}", *(rf"&\qquad\quad {line}" for line in lines[1:])]
