"""The standalone LaTeX report: conventions, per paper its metadata, models, claims table and statements, the errata.

Each paper's section shows the models the paper declares (:class:`proofs_check.PaperInfo`), the first time in full
and afterwards as a cross-reference; registered models no checked paper declares go to a final section. A model's
derivation is condensed (``Derivation.latex(mode="condensed")``): the generic steps of a method (e.g. the Riccati
method) are a reference to the method's section, which follows the model sections once (``method_sections``). All
displayed formulas are printed from the SymPy objects (``derivations.rendering``, ``Derivation.latex``, the claims'
statements) through the naming table and the papers' notation, and the formulas of prose through
:func:`derivations.prose.text_latex`. The claims table of a paper is grouped by the paper's section, so that
neither the citation nor a run of equal methods repeats, and claim ids are never broken; a self-referential claim's
status carries a dagger. The checkers section groups the claims by the routes that decided them, and the self-test
section (given the control's results) shows each control's expected and actual verdict.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from itertools import groupby
from typing import TYPE_CHECKING

from derivations import models as model_registry
from derivations.derivation import MethodReference
from derivations.model import Model
from derivations.prose import code_latex, text_latex
from derivations.rendering import render_model, shown_derivation
from proofs_check.citation import DERIVED_HERE
from proofs_check.distribution import DISTRIBUTION, version
from proofs_check.outcome import Status
from proofs_check.paper import PaperInfo
from proofs_check.papers import BUILTIN_PAPERS
from proofs_check.report import control_line, summary_line
from proofs_check.runner import Record

if TYPE_CHECKING:
    from proofs_check.control import ControlResult

__all__ = ["CONVENTIONS", "document", "method_sections"]

PREAMBLE = r"""\documentclass[10pt,a4paper]{article}
\usepackage[utf8]{inputenc}
\usepackage[margin=2cm]{geometry}
\usepackage{amsmath,amssymb}
\usepackage{array,longtable,booktabs}
\usepackage{xcolor}
\usepackage[colorlinks,linkcolor=blue!50!black,urlcolor=blue!50!black,citecolor=blue!50!black]{hyperref}
\usepackage{bookmark}
\allowdisplaybreaks
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.4em}
\setlength{\emergencystretch}{3em}
\setlength{\tabcolsep}{3pt}
\newcolumntype{L}[1]{>{\raggedright\arraybackslash}p{#1}}
"""

CONVENTIONS: tuple[tuple[str, str], ...] = (
    (
        "Loss normalisation",
        "Every model's loss is the population loss L = ½ E[(f(x) − f^*(x))²], computed exactly from the input "
        "moments; gradient flow is θ̇ = −η ∇L with η = 1 unless the model declares layer-wise learning rates. "
        "Nam et al. eqs 2 and 71 [uncertain] are read with the factor ½ and E x² = 1 (for E x² ≠ 1 rescale time).",
    ),
    (
        "Orientation of matrices",
        "Nam et al. eq. 4: f(x) = W₂ᵀW₁ᵀx with W₁ of size d×p and W₂ of size p×c (the paper's orientation; the "
        "authors' code uses the transposes), so the conserved matrix is W₁ᵀW₁ − W₂W₂ᵀ. Xu & Ziyin's full first layer "
        "carries one row W_k per input direction, with data x = ξ n.",
    ),
    (
        "Name D0 [uncertain]",
        "D0 = √(S² + Σ0² − S0²) is our name for the square root in γ± = (S ± D0)/(Σ0 + S0); the paper may use another.",
    ),
    ("S0 [reconstructed]", "S0 = Z⁻¹ Σ_i a_i(0) b_i(0) = θ(0), printed calligraphic as in the paper."),
    ("γ(0) in the proof of Theorem 3", "γ(0) = 1; the printed γ(0) = 0 is a typo (erratum nam2025.appH.gamma0)."),
    (
        "Δ0 in Remark 4 [uncertain]",
        "Read as S0, the only reading under which Remark 4 holds; read as D0 it is refuted (erratum "
        "nam2025.remark4.delta0).",
    ),
    (
        "Equation numbers [uncertain]",
        "Nam et al. App. H equations 77–95 are matched to the proof steps by position. For Xu & Ziyin the body "
        'text was unavailable: their formulas are reconstructed from the model (marked "reconstructed"), and '
        "equation numbers are quoted only where a secondary summary gives them.",
    ),
    (
        "Alignment ζ (Xu & Ziyin) [uncertain]",
        "ζ is the plain cosine of u and w (the authors' answer to reviewers); the learning-rate weighted "
        "alignment 2√(η_u η_w) uᵀw/(η_w|u|² + η_u|w|²) equals tanh θ.",
    ),
    (
        "Target of Xu & Ziyin's models",
        "Taken realizable, E y² = b²/a, so the loss is the excess risk (the flow does not depend on E y²).",
    ),
    (
        "Phase-diagram exponents (Xu & Ziyin §4) [uncertain]",
        "Exponents of variances, not of standard deviations; in this convention the abc map acts on c_u, c_w as +2ϑ.",
    ),
    ("Riccati engine", "For y' = c₂y² + c₁y + c₀: k = √(c₁² − 4c₂c₀), and y₊ is the attracting root."),
)
"""Conventions and the resolution of each [uncertain] item of the specs."""

STATUS_WIDTH = "2.3cm"
WHERE_WIDTH = "2.6cm"
TT_CHAR = 4.2
"""Width (pt) of one typewriter character at ``\footnotesize`` (cmtt, 0.525 em of 8 pt)."""
DITTO = "''"
"""Printed for a method equal to the one above it in the same group (a ditto mark)."""
SELF_REFERENTIAL = r"\textsuperscript{\dag}"
"""Appended to the status of a self-referential claim (it re-checks the package's own derivation steps)."""
SELF_REFERENTIAL_NOTE = (
    f"{SELF_REFERENTIAL} self-referential: the claim re-checks the package's own derivation steps, not a statement "
    "made independently of them."
)


def _label(model: Model) -> str:
    return f"model:{model.name}"


def _models_section(
    names: Sequence[str], models: Mapping[str, Model], rendered: set[str], tags: Mapping[str, Mapping[str, str]]
) -> list[str]:
    """Each model in full the first time (its derivation tagged by ``tags[name]``), as a cross-reference
    afterwards."""
    parts = []
    for name in names:
        model = models[name]
        if name in rendered:
            parts.append(
                f"\\subsection{{{text_latex(model.title)}}}\nSee Section~\\ref{{{_label(model)}}} "
                f"(\\texttt{{{code_latex(name)}}})."
            )
            continue
        rendered.add(name)
        body = render_model(model, tags=tags.get(name), mode="condensed")
        heading_end = body.index("\n")
        parts.append(body[:heading_end] + f"\\label{{{_label(model)}}}" + body[heading_end:])
    return parts


def method_sections(names: Sequence[str], models: Mapping[str, Model]) -> list[str]:
    """The section of each method whose generic steps the derivations of ``names`` (as rendered: condensed, each run
    of a method's steps a reference to its section) contain, once per label, in order of first appearance.

    Arguments:
        names: the models rendered in full, in the order of the document.
        models: name -> Model.

    Returns:
        The LaTeX of each section (``MethodReference.section``).
    """
    methods: dict[str, MethodReference] = {}
    for name in names:
        derivation = shown_derivation(models[name])
        for method in derivation.methods() if derivation is not None else ():
            methods.setdefault(method.label, method)
    return [method.section() for method in methods.values()]


def _local_id(claim_id: str, paper: str) -> str:
    """The id without its paper's key (the table sits in the paper's section)."""
    return claim_id[len(paper) + 1 :] if claim_id.startswith(f"{paper}.") else claim_id


def _citation_group(record: Record) -> str:
    """The part of the paper a claim is made in (the section cited, up to its first comma)."""
    citation = record.claim.citation
    return (citation.section or citation.reference).split(",")[0].strip()


def _where(record: Record) -> str:
    """Where in its group a claim is made: the rest of the section cited, and the equation; a result the paper does
    not state (``Citation.derived``) says "derived here"."""
    citation = record.claim.citation
    rest = (citation.section or citation.reference).split(",", 1)[1:]
    equation = [f"eq. {citation.equation}"] if citation.equation else []
    derived = [DERIVED_HERE] if citation.derived else []
    return ", ".join([part.strip() for part in rest] + equation + derived)


def claims_table(records: Sequence[Record], paper: str = "") -> str:
    """A ``longtable`` of the records (claim id without ``paper.``, where in the section, status, method), one group
    per section of the paper cited, in order of first appearance; a method equal to the one above it in its group
    is a ditto mark. Ids are set in one piece: the id column is as wide as the longest."""
    order = list(dict.fromkeys(_citation_group(r) for r in records))
    ordered = sorted(records, key=lambda r: order.index(_citation_group(r)))
    ids = [_local_id(r.claim.id, paper) for r in records]
    id_width = f"{max((len(i) for i in ids), default=5) * TT_CHAR + 2:.0f}pt"
    method_width = f"\\dimexpr\\linewidth-{id_width}-{STATUS_WIDTH}-{WHERE_WIDTH}-6\\tabcolsep\\relax"
    head = (
        f"\\begin{{longtable}}{{@{{}}>{{\\ttfamily}}p{{{id_width}}}L{{{WHERE_WIDTH}}}L{{{STATUS_WIDTH}}}"
        f"L{{{method_width}}}@{{}}}}\n"
        "\\toprule \\normalfont claim & where & status & method \\\\ \\midrule\\endhead\n\\bottomrule\\endfoot"
    )
    rows = []
    for group, members in groupby(ordered, key=_citation_group):
        heading = f"\\normalfont\\bfseries {text_latex(group)}"
        rows.append(f"\\addlinespace\\multicolumn{{4}}{{@{{}}L{{\\linewidth}}@{{}}}}{{{heading}}} \\\\*")
        previous = None
        for r in members:
            method = r.outcome.method
            shown = DITTO if method == previous and method else text_latex(method)
            previous = method
            mark = SELF_REFERENTIAL if r.outcome.self_referential else ""
            rows.append(
                f"{code_latex(_local_id(r.claim.id, paper))} & {text_latex(_where(r))} & "
                f"{text_latex(r.outcome.status.value)}{mark} & {shown} \\\\"
            )
    note = f"\n\n{SELF_REFERENTIAL_NOTE}" if any(r.outcome.self_referential for r in records) else ""
    return "{\\footnotesize\n" + head + "\n" + "\n".join(rows) + "\n\\end{longtable}}" + note


def _refutation(record: Record) -> str:
    outcome = record.outcome
    if outcome.counterexample:
        pairs = ", ".join(f"{text_latex(k)} = {text_latex(v)}" for k, v in outcome.counterexample.items())
        return f"counterexample {pairs}"
    return text_latex(outcome.detail) or "(no detail recorded)"


def errata_section(records: Sequence[Record]) -> str:
    """The errata: for each, the paper's printed form, its refutation and the corrected form."""
    errata = [r for r in records if r.outcome.status is Status.ERRATUM]
    if not errata:
        return "\\section{Errata}\nNo erratum among the checked claims."
    items = []
    for record in errata:
        items.append(
            f"\\subsection*{{\\texttt{{{code_latex(record.claim.id)}}}}}\n"
            f"\\emph{{Refutation of the printed form:}} {_refutation(record)} "
            f"(method: {text_latex(record.outcome.method)}).\n\n{record.claim.latex}"
        )
    return "\\section{Errata}\n" + "\n\n".join(items)


def _description(items: Sequence[str]) -> str:
    return "\\begin{description}\n" + "\n".join(items) + "\n\\end{description}"


def conventions_section(models: Mapping[str, Model], package_conventions: bool = True) -> str:
    """The package's conventions and the resolution of each [uncertain] item (if ``package_conventions``), and every
    model's own notes; "" if there is nothing to say."""
    items = [f"\\item[{{{text_latex(topic)}.}}] {text_latex(text)}" for topic, text in CONVENTIONS]
    notes = [
        f"\\item[{{\\texttt{{{code_latex(name)}}}:}}] " + "; ".join(text_latex(n) for n in model.notes)
        for name, model in models.items()
        if model.notes
    ]
    parts = [_description(items)] if package_conventions else []
    parts += ["Model notes:", _description(notes)] if notes else []
    return "\\section{Conventions}\n" + "\n".join(parts) if parts else ""


def _checker(record: Record) -> str:
    """The routes that decided a verdict, as recorded when it was decided; for a record saved without them, the
    family of checker guessed from its method string."""
    if record.outcome.routes:
        return ", ".join(record.outcome.routes)
    method = record.outcome.method
    if "z3" in method:
        return "z3 (nonlinear real arithmetic)"
    if record.outcome.status is Status.NUMERIC:
        return "numerical (high precision or sampling)"
    if record.outcome.status in (Status.PROVED, Status.ERRATUM):
        return "SymPy (exact)"
    return "none (refuted or error)"


def checkers_section(records: Sequence[Record]) -> str:
    """Which routes decided which claims; ids unbroken, lines broken between them."""
    groups: dict[str, list[str]] = {}
    for record in records:
        groups.setdefault(_checker(record), []).append(record.claim.id)
    items = [
        f"\\item[{{{text_latex(name)} ({len(ids)}):}}] "
        + ", ".join(f"\\mbox{{\\texttt{{{code_latex(i)}}}}}" for i in ids)
        for name, ids in groups.items()
    ]
    # ragged right: lists of long typewriter ids cannot be stretched to a justified line
    return (
        "\\section{Checkers}\n{\\raggedright\n\\begin{description}\n" + "\n".join(items) + "\n\\end{description}\\par}"
    )


def control_section(results: Sequence[ControlResult]) -> str:
    """The self-test: per control its id, the verdict it must have and the one it got; then the self-test line."""
    judged = {True: "ok", False: "\\textbf{BROKEN}"}
    rows = [
        f"\\mbox{{\\texttt{{{code_latex(r.record.claim.id)}}}}} & {text_latex(r.expected.describe())} & "
        f"{text_latex(r.record.outcome.status.value)} & {judged[r.as_expected]} \\\\"
        for r in results
    ]
    table = (
        "{\\footnotesize\n\\begin{longtable}{@{}lL{5.5cm}ll@{}}\n\\toprule control & must come out & got & \\\\ "
        "\\midrule\\endhead\n\\bottomrule\\endfoot\n" + "\n".join(rows) + "\n\\end{longtable}}"
    )
    intro = (
        "Known-false and undecidable statements, one per decision route, checked in the same run and not counted "
        "among the claims: a checker that proved one of them would be broken."
    )
    return f"\\section{{Self-test of the checker}}\n{intro}\n\n{table}\n\n{text_latex(control_line(results))}."


def _paper_heading(paper: PaperInfo) -> list[str]:
    link = f", \\url{{{paper.url}}}" if paper.url else ""
    source = f"{text_latex(', '.join(paper.authors))}. {text_latex(paper.venue)} {paper.year}{link}."
    registered = f"Claims registered as \\texttt{{{code_latex(paper.key)}}}."
    return [f"\\section{{{text_latex(paper.title)}}}", f"{source} {registered}"]


def _paper_section(
    paper: PaperInfo,
    records: Sequence[Record],
    models: Mapping[str, Model],
    rendered: set[str],
    tags: Mapping[str, Mapping[str, str]],
) -> str:
    parts = _paper_heading(paper)
    names = [name for name in paper.models if name in models]
    if names:
        parts += _models_section(names, models, rendered, tags)
    parts += [f"\\subsection{{Claims of \\texttt{{{code_latex(paper.key)}}}}}", claims_table(records, paper.key)]
    parts += ["\\subsection{Statements}", *(r.claim.latex for r in records)]
    return "\n\n".join(parts)


def _front_matter(records: Sequence[Record], date: str) -> list[str]:
    """Title, author (the package and its version), date, the summary and the contents."""
    title = "Derivations and checked claims of layerwise-linear gradient flows"
    return [
        f"\\hypersetup{{pdftitle={{{title}}},pdfauthor={{{DISTRIBUTION} {version()}}}}}",
        f"\\title{{{title}}}\n\\author{{\\texttt{{{DISTRIBUTION}}} {code_latex(version())}}}\n"
        f"\\date{{{code_latex(date)}}}\n\\maketitle",
        "Generated by \\texttt{python -m proofs\\_check}. Every displayed formula is printed from the SymPy "
        "object that the checks use. " + text_latex(summary_line(records)) + ".",
        "\\tableofcontents",
    ]


def _equation_tags(papers: Sequence[PaperInfo]) -> dict[str, Mapping[str, str]]:
    """Model name → the equation tags (``Paper.equation_tags``) of the first paper that tags the model: the papers
    of the report first, then the other built-in papers (a model is tagged by the paper that studies it, whichever
    section shows it); a paper that cannot be loaded by its key (e.g. one of a user's file) tags nothing."""
    from proofs_check.papers import load_papers

    tags: dict[str, Mapping[str, str]] = {}
    for key in dict.fromkeys([*(p.key for p in papers), *BUILTIN_PAPERS]):
        try:
            paper = load_papers([key]).paper(key)
        except ValueError:
            continue
        for name, model_tags in paper.equation_tags.items():
            tags.setdefault(name, model_tags)
    return tags


def document(
    records: Sequence[Record],
    papers: Sequence[PaperInfo],
    models: Mapping[str, Model] | None = None,
    include_uncited: bool = True,
    date: str | None = None,
    equation_tags: Mapping[str, Mapping[str, str]] | None = None,
    control: Sequence[ControlResult] | None = None,
) -> str:
    """The standalone document for the checked ``records`` of ``papers``. ``models`` (name → Model) are the models
    available to render (default: the registry); a paper's models missing there are skipped, and registered
    models that no paper declares get a final section only if ``include_uncited``. ``date`` is printed under the
    title (default: today, ISO 8601). ``equation_tags`` (model name → step key → equation number) tag the models'
    derivations (default: those of the paper that studies each model, see ``Paper.equation_tags``). ``control``, the
    self-test's results, adds its section."""
    available = dict(models or {})
    for name in model_registry.names():
        available.setdefault(name, model_registry.get(name))
    declared = {name for paper in papers for name in paper.models}
    shown = {name: m for name, m in available.items() if name in declared or include_uncited}
    tags = _equation_tags(papers) if equation_tags is None else equation_tags
    rendered: set[str] = set()
    body = [
        *_front_matter(records, date or datetime.date.today().isoformat()),
        conventions_section(shown, package_conventions=any(p.key in BUILTIN_PAPERS for p in papers)),
    ]
    for paper in papers:
        paper_records = [r for r in records if r.claim.citation.paper == paper.key]
        body.append(_paper_section(paper, paper_records, available, rendered, tags))
    uncited = [name for name in shown if name not in declared]
    if uncited and include_uncited:
        body.append("\\section{Other models}\n\n" + "\n\n".join(_models_section(uncited, available, rendered, tags)))
    # the generic steps the condensed derivations refer to, each method once
    body += method_sections([name for name in available if name in rendered], available)
    body += [errata_section(records), checkers_section(records)]
    if control is not None:
        body.append(control_section(control))
    return PREAMBLE + "\\begin{document}\n" + "\n\n".join(part for part in body if part) + "\n\\end{document}\n"
