"""Where a claim appears in its paper, and the paper's own numbering that a citation is checked against.

A :class:`Citation` names the paper's section, theorem, equation or figure a claim is made at; a result the paper does
not state is flagged ``derived`` ("derived here") and cites the parts it rests on. A :class:`Structure` is the list
of a paper's sections, appendices, figures, tables, numbered statements (theorems, remarks, ...) and equations, kept
as data in the paper's folder (``structure.py``); :meth:`Structure.problems` says what a citation names that the
paper does not have::

    STRUCTURE = Structure(sections=("1", "2", "2.1"), statements=("Theorem 1",), equations=(1, 12), confirmed=True)
    STRUCTURE.problems(Citation("smith2026", "Smith 2026, §2.1, eq. (3)", "§2.1", "3"))  # -> []
    STRUCTURE.problems(Citation("smith2026", "Smith 2026, §6 NTK table", "§6 NTK table"))  # -> two problems
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DERIVED_HERE", "Citation", "Structure", "own_part", "references"]

DERIVED_HERE = "derived here"
"""How the reference of a derived result (``Citation.derived``) says that the paper does not state it."""


@dataclass(frozen=True)
class Citation:
    """Where a claim appears: ``paper`` is the paper's key, ``reference`` the human-readable text, ``section`` the
    place (``where=``), ``equation`` the equation number(s); ``derived`` if the paper does not state the result and
    ``section`` names the parts of the paper it rests on."""

    paper: str
    reference: str
    section: str = ""
    equation: str = ""
    derived: bool = False


_NAMES = {
    "theorem": "Theorem",
    "thm": "Theorem",
    "remark": "Remark",
    "proposition": "Proposition",
    "prop": "Proposition",
    "definition": "Definition",
    "def": "Definition",
    "corollary": "Corollary",
    "cor": "Corollary",
    "lemma": "Lemma",
    "conjecture": "Conjecture",
    "algorithm": "Algorithm",
}
_LABEL = r"\d+(?:\.\d+)*"
_EQ_ITEM = rf"{_LABEL}(?:\s*[–-]\s*{_LABEL})?"
_PATTERNS = {
    "section": re.compile(rf"§\s*({_LABEL})"),
    "appendix": re.compile(r"\bApp(?:endix|\.)\s*([A-Z](?:\.\d+)*)"),
    "statement": re.compile(rf"\b({'|'.join(_NAMES)})\.?\s+({_LABEL})", re.IGNORECASE),
    "figure": re.compile(r"\bFig(?:ure)?s?\.?\s*(\d+)", re.IGNORECASE),
    "table": re.compile(r"\bTable\s+(\d+)", re.IGNORECASE),
    "equation": re.compile(rf"\beqs?\.?\s*\(?({_EQ_ITEM}(?:\s*(?:,|and)\s*{_EQ_ITEM})*)", re.IGNORECASE),
}
_UNNUMBERED = re.compile(r"\b(tables?|fig(?:ure)?s?)\b(?!\.?\s*\d)", re.IGNORECASE)
_DERIVED = re.compile(r"\bderived\b", re.IGNORECASE)
_OTHER_WORK = re.compile(r"\([^()]*\bet al\.[^()]*\)")
"""A parenthetical naming another work ("(via Nam et al. 2025: Theorem 2)"): its numbers are that work's."""


def own_part(where: str) -> str:
    """``where`` without the parentheticals that name another work (whose numbering is not the paper's)."""
    return _OTHER_WORK.sub("", where)


def references(text: str) -> dict[str, list[str]]:
    """The numbered parts of a paper that ``text`` names, by kind (``section``, ``appendix``, ``statement`` such as
    ``"Theorem 3"``, ``figure``, ``table``, ``equation``); an equation range ``"72–74"`` is one item."""
    found: dict[str, list[str]] = {kind: [] for kind in _PATTERNS}
    for kind, pattern in _PATTERNS.items():
        for match in pattern.finditer(text):
            if kind == "statement":
                found[kind].append(f"{_NAMES[match.group(1).lower()]} {match.group(2)}")
            elif kind == "equation":
                found[kind] += [item.strip() for item in re.split(r",|\band\b", match.group(1)) if item.strip()]
            else:
                found[kind].append(match.group(1))
    return found


@dataclass(frozen=True)
class Structure:
    """A paper's own numbering, as data: section numbers (``"4.1"``), appendix labels (``"C.2"``), figure and table
    numbers, numbered statements (``"Theorem 3"``, ``"Remark 4"``), the range of numbered equations and any other
    equation labels (``"F.1"``), and ``topics``: the paper's unnumbered parts named in words (for a paper whose
    numbering is not known). ``confirmed`` says whether the numbering was read in the paper itself (``source`` says
    where it comes from); an unconfirmed structure holds only what the spec states."""

    sections: tuple[str, ...] = ()
    appendices: tuple[str, ...] = ()
    figures: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    statements: tuple[str, ...] = ()
    equations: tuple[int, int] | None = None
    equation_labels: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    confirmed: bool = False
    source: str = ""

    def __post_init__(self) -> None:
        for name in ("sections", "appendices", "figures", "tables", "statements", "equation_labels", "topics"):
            value = getattr(self, name)
            if not isinstance(value, tuple) or not all(isinstance(v, str) and v for v in value):
                raise TypeError(f"Structure {name} must be a tuple of non-empty strings, got {value!r}")
        if self.equations is not None and not (
            isinstance(self.equations, tuple)
            and len(self.equations) == 2
            and all(isinstance(n, int) for n in self.equations)
            and 1 <= self.equations[0] <= self.equations[1]
        ):
            raise ValueError(f"Structure equations must be a range (first, last) of numbers, got {self.equations!r}")

    def has_equation(self, item: str) -> bool:
        """Whether the equation ``item`` is one of the paper's.

        Arguments:
            item: an equation number (``"12"``), a range (``"72–74"``, en dash or hyphen) or a label (``"F.1"``).

        Returns:
            True if ``item`` is one of :attr:`equation_labels`, or a number or an increasing range within
            :attr:`equations`; False otherwise (also when the range of numbered equations is not known).
        """
        if item in self.equation_labels:
            return True
        ends = [end.strip() for end in re.split(r"[–-]", item)]
        if self.equations is None or not all(end.isdigit() for end in ends):
            return False
        first, last = self.equations
        return all(first <= int(end) <= last for end in ends) and int(ends[0]) <= int(ends[-1])

    def problems(self, citation: Citation) -> list[str]:
        """What is wrong with ``citation`` against this numbering.

        A parenthetical naming another work, "(after Saxe et al. 2014, App. A)", is that work's and not checked.

        Arguments:
            citation: the citation of a claim of this paper (its ``section``, ``equation``, ``derived`` flag and
                ``reference``).

        Returns:
            One sentence per problem, empty if nothing is wrong: a part the paper does not have, a table or figure
            named without its number, "derived" said without the ``derived`` flag (or the flag without "derived
            here" in the reference), or no part of the paper named at all.
        """
        where, problems = own_part(citation.section), []
        found = references(where)
        equations = found["equation"] + [e.strip() for e in citation.equation.split(",") if e.strip()]
        kinds = (
            ("section", "§", self.sections),
            ("appendix", "App. ", self.appendices),
            ("statement", "", self.statements),
            ("figure", "Fig. ", self.figures),
            ("table", "Table ", self.tables),
        )
        for kind, prefix, known in kinds:
            problems += [f"the paper has no {prefix}{label}" for label in found[kind] if label not in known]
        problems += [f"the paper has no eq. ({item})" for item in equations if not self.has_equation(item)]
        problems += [
            f"{match.group(1)!r} names no numbered table or figure of the paper"
            for match in _UNNUMBERED.finditer(where)
        ]
        if _DERIVED.search(where):
            problems.append("'derived' in where=: flag the citation derived instead (it then says 'derived here')")
        if citation.derived and DERIVED_HERE not in citation.reference:
            problems.append(f"a derived result's reference must say {DERIVED_HERE!r}")
        topics = [t for t in self.topics if t.lower() in where.lower()]
        if not (any(found.values()) or equations or topics):
            problems.append("names no section, appendix, statement, figure, table, equation or topic of the paper")
        return problems
