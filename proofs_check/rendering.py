"""Claims as LaTeX: every formula printed from the SymPy statement through the paper's notation and the package's
naming table (:mod:`derivations.naming`); text statements and assumptions as prose.

What is rendered is described by protocols (:class:`Notation`, :class:`Displayed`), which
:class:`proofs_check.claims.Claim` and :class:`proofs_check.Paper` satisfy: this module depends on the claim's data,
not on the classes that declare and decide claims.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import sympy as sp

from derivations.naming import align_rows, latex
from derivations.prose import code_latex, text_latex
from proofs_check.citation import Citation

__all__ = ["Displayed", "Notation", "claim_latex", "formula_latex"]


class Notation(Protocol):
    """What the LaTeX of a statement needs of its paper (:meth:`proofs_check.Paper.symbol_names`)."""

    def symbol_names(self, expr: sp.Basic) -> Mapping[sp.Symbol, str]:
        """The LaTeX of each symbol of ``expr`` that has one."""
        ...


class Displayed(Protocol):
    """What :func:`claim_latex` reads of a claim (:class:`proofs_check.claims.Claim` has it)."""

    @property
    def id(self) -> str: ...

    @property
    def citation(self) -> Citation: ...

    @property
    def assumptions(self) -> Sequence[object]: ...

    @property
    def paper(self) -> Notation | None: ...

    @property
    def statement(self) -> object: ...

    @property
    def corrected(self) -> object: ...


def _names(claim: Displayed, expr: sp.Basic) -> dict[sp.Symbol, str]:
    return dict(claim.paper.symbol_names(expr)) if claim.paper is not None else {}


def formula_latex(claim: Displayed, statement: object) -> str:
    """A statement of ``claim`` as a display: relations as ``align*`` rows (broken when wide), other SymPy objects
    as a ``displaymath``, text as a quoted paragraph."""
    if isinstance(statement, (sp.Basic, sp.MatrixBase)):
        names = _names(claim, statement)
        if isinstance(statement, sp.core.relational.Relational):
            return "\\begin{align*}\n" + " \\\\\n".join(align_rows(statement, overrides=names)) + "\n\\end{align*}"
        return f"\\[ {latex(statement, symbol_names=names)} \\]"
    return f"\\begin{{quote}}\\raggedright {text_latex(str(statement))}\\end{{quote}}"


def _assumption(claim: Displayed, assumption: object) -> str:
    if isinstance(assumption, sp.Basic):
        return f"${latex(assumption, symbol_names=_names(claim, assumption))}$"
    return text_latex(str(assumption))


def claim_latex(claim: Displayed) -> str:
    """``claim`` as a LaTeX paragraph: id and citation, assumptions, then its statement; for an erratum the printed
    statement and its correction."""
    lines = [f"\\paragraph{{\\texttt{{{code_latex(claim.id)}}}}} {text_latex(claim.citation.reference)}."]
    if claim.assumptions:
        lines.append("\\emph{Assumptions:} " + "; ".join(_assumption(claim, a) for a in claim.assumptions) + ".")
    if claim.corrected is None:
        lines.append(formula_latex(claim, claim.statement))
    else:
        lines += ["\\emph{Printed:}", formula_latex(claim, claim.statement)]
        lines += ["\\emph{Corrected:}", formula_latex(claim, claim.corrected)]
    return "\n".join(lines)
