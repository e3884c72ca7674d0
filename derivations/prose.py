r"""Prose as LaTeX: titles, justifications, notes, citations and text statements, their formulas as mathematics.

Prose written in ASCII or Unicode ("P0^2 = P0", "b_i λ_i", "sqrt(S^2 + Σ0^2)", "sigma(z) = z^2") is set in text
mode, and each formula-like word in it in math mode through the naming table (:mod:`derivations.naming`):

- a *math word* is a letter name with subscripts ``_x`` / ``_{…}`` or superscripts ``^x`` / ``^{…}`` / ``^(…)``
  (``lam_i``, ``e^{-kt}``, ``xi^(2 beta)``), or with trailing digits (``P0``, ``Sigma0``, ``W1``: the digits are
  a subscript), or with Unicode super- and subscripts (``aᵢ²``), or a bare Greek name (``theta``, ``lam``). Its
  base must be one letter, a Greek name or an operator (``sum``, ``max``, ``log``): code names such as
  ``two_layer_scalar`` or ``numerics.agf`` stay text. ``S0`` is printed as the paper's :math:`\mathcal S_0`;
- ``sqrt(…)`` and ``√(…)`` are square roots, ``**`` is ``^``, the ASCII relations ``->``, ``>=``, ``<=``, ``!=``
  and SymPy's ``oo`` are :math:`\to, \ge, \le, \ne, \infty`, a ``*`` between two factors (``c1*y0``) is their
  product (juxtaposed), a ``*`` closing a name (``U*_k``) is a superscript star and a code index ``theta[+1]``
  is the superscript :math:`\theta^{[+1]}`, a script after a bracket (``(S - θ)^2``) is a
  script, `` - `` between words and ``-`` before a number are minus signs, ``1/2`` between spaces is a fraction;
- everything else is escaped for text mode, with Unicode letters and operators as math (:data:`UNICODE_MATH`).

:func:`code_latex` escapes without reading formulas, for identifiers, file names and URLs.
"""

from __future__ import annotations

import re
import unicodedata

from .naming import BASE_NAMES, SYMBOL_NAMES, symbol_latex

__all__ = [
    "OPERATORS",
    "TEXT_WORDS",
    "UNICODE_MATH",
    "UNICODE_TEXT",
    "code_latex",
    "math_text",
    "plain_math",
    "text_latex",
]

_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}",
    "^": r"\^{}",
    "~": r"\~{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    # math-mode glyphs: the text ones (\textless, \textbar) live in TS1, a bitmap font without cm-super
    "<": r"\ensuremath{<}",
    ">": r"\ensuremath{>}",
    "|": r"\ensuremath{|}",
}

UNICODE_MATH: dict[str, str] = {
    "Γ": r"\Gamma",
    "Δ": r"\Delta",
    "Θ": r"\Theta",
    "Λ": r"\Lambda",
    "Ξ": r"\Xi",
    "Π": r"\Pi",
    "Σ": r"\Sigma",
    "Φ": r"\Phi",
    "Ψ": r"\Psi",
    "Ω": r"\Omega",
    "α": r"\alpha",
    "β": r"\beta",
    "γ": r"\gamma",
    "δ": r"\delta",
    "ε": r"\epsilon",
    "ζ": r"\zeta",
    "η": r"\eta",
    "θ": r"\theta",
    "ϑ": r"\vartheta",
    "ι": r"\iota",
    "κ": r"\kappa",
    "λ": r"\lambda",
    "μ": r"\mu",
    "µ": r"\mu",
    "ν": r"\nu",
    "ξ": r"\xi",
    "π": r"\pi",
    "ρ": r"\rho",
    "σ": r"\sigma",
    "τ": r"\tau",
    "υ": r"\upsilon",
    "φ": r"\phi",
    "χ": r"\chi",
    "ψ": r"\psi",
    "ω": r"\omega",
    "±": r"\pm",
    "∓": r"\mp",
    "→": r"\to",
    "←": r"\leftarrow",
    "↔": r"\leftrightarrow",
    "⇔": r"\Leftrightarrow",
    "⇒": r"\Rightarrow",
    "∇": r"\nabla",
    "∈": r"\in",
    "∉": r"\notin",
    "−": "-",
    "√": r"\surd",
    "∝": r"\propto",
    "∞": r"\infty",
    "∠": r"\angle",
    "≈": r"\approx",
    "≃": r"\simeq",
    "≠": r"\neq",
    "≡": r"\equiv",
    "≤": r"\le",
    "≥": r"\ge",
    "·": r"\cdot",
    "×": r"\times",
    "∂": r"\partial",
    "∑": r"\sum",
    "∫": r"\int",
    "ℓ": r"\ell",
    "⊥": r"\perp",
    "∥": r"\parallel",
    "⪰": r"\succeq",
    "¬": r"\neg",
    "∘": r"\circ",
    "⟨": r"\langle",
    "⟩": r"\rangle",
    "‖": r"\|",
    "∀": r"\forall",
    "ᵀ": r"^{\top}",
    "𝒮": r"\mathcal{S}",
    "½": r"\tfrac12",
    "ℝ": r"\mathbb{R}",
    "⊗": r"\otimes",
    "⊙": r"\odot",
    **{ch: f"^{{{d}}}" for ch, d in zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-", strict=True)},
    **{ch: f"_{{{d}}}" for ch, d in zip("₀₁₂₃₄₅₆₇₈₉₊₋", "0123456789+-", strict=True)},
    **{ch: f"_{{{d}}}" for ch, d in zip("ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥ", "aeoxhklmnpstijruv", strict=True)},
    **{ch: f"^{{{d}}}" for ch, d in zip("ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ", "abcdefghijklmnoprstuvwxyz", strict=True)},
}
"""Unicode characters of the claims' and models' prose, as math-mode LaTeX (wrapped in ``\\ensuremath``)."""

# "§" is the math-font glyph: the text one (\S) lives in TS1, a bitmap font without cm-super
UNICODE_TEXT: dict[str, str] = {
    "§": r"\ensuremath{\mathsection}",
    "–": "--",
    "—": "---",
    "’": "'",
    "“": "``",
    "”": "''",
    "…": r"\dots{}",
}
_TEXT_ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0308": '"', "\u0302": "^", "\u0303": "~", "\u0327": "c"}
_MATH_ACCENTS = {"\u0307": r"\dot", "\u0308": r"\ddot", "\u0302": r"\hat", "\u0303": r"\tilde", "\u0304": r"\bar"}


def _char_latex(char: str) -> str:
    if char in UNICODE_MATH:
        return rf"\ensuremath{{{UNICODE_MATH[char]}}}"
    if char in UNICODE_TEXT:
        return UNICODE_TEXT[char]
    if ord(char) < 128:
        return _TEXT_ESCAPES.get(char, char)
    return rf"\textsf{{[U+{ord(char):04X}]}}"


def _accented(base: str, mark: str) -> str:
    """A character with a combining mark: a dot above is a time derivative (ȧ, θ̇); other marks on Latin
    letters are text accents (é, ö); the rest are math accents."""
    if mark != "\u0307" and base.isascii() and base.isalpha() and mark in _TEXT_ACCENTS:
        return f"\\{_TEXT_ACCENTS[mark]}{{{base}}}"
    inner = UNICODE_MATH.get(base, base if base.isascii() and base.isalnum() else _char_latex(base))
    return rf"\ensuremath{{{_MATH_ACCENTS.get(mark, '')}{{{inner}}}}}"


OPERATORS: dict[str, str] = {
    "sum": r"\sum",
    "prod": r"\prod",
    "max": r"\max",
    "min": r"\min",
    "sup": r"\sup",
    "inf": r"\inf",
    "lim": r"\lim",
    "log": r"\log",
    "ln": r"\ln",
    "exp": r"\exp",
    "sinh": r"\sinh",
    "cosh": r"\cosh",
    "tanh": r"\tanh",
    "asinh": r"\operatorname{asinh}",
    "sin": r"\sin",
    "cos": r"\cos",
    "tr": r"\operatorname{tr}",
    "det": r"\det",
    "dim": r"\dim",
    "arg": r"\arg",
}
r"""Operator names as LaTeX operators (``max_{i}`` → :math:`\max_{i}`)."""

_SCRIPT_CHARS = "".join(ch for ch, tex in UNICODE_MATH.items() if tex[0] in "^_")
_GREEK = "".join(ch for ch in UNICODE_MATH if unicodedata.category(ch) in ("Lu", "Ll"))
_SCRIPT = r"[_^](?:\{[^{}]*\}|\([^()]*\)|[-−]?\d+(?:/\d+)?|[A-Za-z0-9" + _GREEK + r"]+|[+\-−*])"
_WORD = re.compile(
    rf"(?P<base>[A-Za-z]+|[{_GREEK}])(?P<digits>\d*)(?P<primes>'*)(?P<scripts>(?:{_SCRIPT})*)(?P<unicode>[{_SCRIPT_CHARS}]*)(?P<after>'*)"
)
_TRAILING_SCRIPTS = re.compile(rf"(?:{_SCRIPT})+")
_FRACTION = re.compile(r"\d+/\d+")
_RADICAND = re.compile(rf"\d+(?:\.\d+)?|[A-Za-z{_GREEK}](?![A-Za-z0-9_^])")
TEXT_WORDS = frozenset({"z3"})
"""Words that look like symbols with a subscript but name things (the SMT solver z3)."""
_SIGNS = {"+": "+", "-": "-", "−": "-", "pm": r"\pm", "mp": r"\mp"}


def _joined(char: str) -> bool:
    """Whether ``char`` continues a word (so that a math word cannot start or end next to it)."""
    if char in _SCRIPT_CHARS:
        return False
    return char.isalnum() or char in "_.'" or unicodedata.combining(char) != 0


def _word_latex(word: str) -> str:
    """A plain word of a formula in math mode: an operator, a Greek name, a letter (trailing digits as a
    subscript), else upright."""
    match = re.fullmatch(r"([A-Za-z]+)(\d*)", word)
    if match is None:
        return word
    base, digits = match.groups()
    if base in OPERATORS:
        tex = OPERATORS[base]
    elif base in BASE_NAMES or len(base) == 1:
        tex = BASE_NAMES.get(base, base)
    elif len(base) <= 3:
        tex = base  # a product of letters, e.g. PQ
    else:
        return rf"\mathrm{{{word}}}"
    return f"{tex}_{{{digits}}}" if digits else tex


def _math_token(text: str, k: int) -> tuple[str, int]:
    """The math-mode LaTeX of the token at ``text[k]`` and the index after it."""
    char = text[k]
    if k + 1 < len(text) and unicodedata.combining(text[k + 1]):
        base = UNICODE_MATH.get(char, char)
        return rf"{_MATH_ACCENTS.get(text[k + 1], '')}{{{base}}} ", k + 2
    word = _math_word(text, k) if char.isalpha() else None
    if word is not None:
        return word[0], word[1]
    plain = re.compile(r"[A-Za-z]+\d*|\d+(?:\.\d+)?|\s+").match(text, k)
    if plain is not None:
        token = plain.group()
        return (" " if token.isspace() else _word_latex(token) if token[0].isalpha() else token), plain.end()
    if char in "_^" and k and text[k - 1] in ")]|":
        scripts = _TRAILING_SCRIPTS.match(text, k)
        parsed = _scripts(scripts.group()) if scripts else None
        if scripts and parsed:
            return _attach("", *parsed), scripts.end()
    if char in UNICODE_MATH:
        return UNICODE_MATH[char] + " ", k + 1
    if char in "{}%#&$_":
        return "\\" + char, k + 1
    special = {"\\": r"\backslash ", "~": r"\sim ", "−": "-"}
    if char in special or char.isascii():
        return special.get(char, char), k + 1
    return rf"\text{{{code_latex(char)}}}", k + 1


def math_text(text: str) -> str:
    """``text`` (the inside of a script or a square root) as math-mode LaTeX."""
    out, k = [], 0
    while k < len(text):
        piece, k = _math_token(text, k)
        out.append(piece if piece[-1:] == " " or not piece[:1].isalpha() else piece + " ")
    return re.sub(r"\s+", " ", "".join(out)).strip()


def _subscript_part(part: str) -> str | None:
    """One ``_``-separated part of a subscript, or None if it reads as a word of a code name."""
    if part in _SIGNS:
        return _SIGNS[part]
    if part.isdigit() or _FRACTION.fullmatch(part) or (len(part) <= 2 and part.isascii() and part.isalnum()):
        return part
    if part in BASE_NAMES or (not part.isascii() and len(part) <= 3):
        return math_text(part)
    return None


def _scripts(text: str) -> tuple[list[str], list[str]] | None:
    """The subscripts and superscripts of ``_x^y…`` as LaTeX; None if a subscript reads as a code name."""
    subs: list[str] = []
    sups: list[str] = []
    for token in re.findall(_SCRIPT, text):
        kind, value = token[0], token[1:]
        if kind == "_" and value.isdigit() and subs and re.fullmatch("[A-Z]", subs[-1]):
            subs[-1] += f"_{{{value}}}"  # (…)_W_1: the subscript W_1
        elif value[0] in "{(":
            (subs if kind == "_" else sups).append(math_text(value[1:-1]))
        elif kind == "^":
            sups.append({"T": r"\top", "*": "*"}.get(value, math_text(value)))
        else:
            part = _subscript_part(value)
            if part is None:
                return None
            subs.append(part)
    return subs, sups


def _unicode_scripts(text: str) -> tuple[list[str], list[str]]:
    subs = [UNICODE_MATH[ch][2:-1] for ch in text if UNICODE_MATH[ch][0] == "_"]
    sups = [UNICODE_MATH[ch][2:-1] for ch in text if UNICODE_MATH[ch][0] == "^"]
    return ["".join(subs)] if subs else [], ["".join(sups)] if sups else []


def _attach(base: str, subs: list[str], sups: list[str]) -> str:
    sub = f"_{{{','.join(subs)}}}" if subs else ""
    sup = f"^{{{' '.join(sups)}}}" if sups else ""
    return base + sub + sup


def _math_word(text: str, k: int) -> tuple[str, int] | None:
    """The math word starting at ``text[k]`` as (LaTeX, end), or None."""
    match = _WORD.match(text, k)
    if match is None:
        return None
    if not match["unicode"] and match.end() < len(text) and _joined(text[match.end()]):
        return None
    base, digits, primes = match["base"], match["digits"], match["primes"] + match["after"]
    if base + digits in TEXT_WORDS:
        return None
    has_scripts = bool(match["scripts"] or match["unicode"])
    if base.isascii() and not (len(base) == 1 or base in BASE_NAMES or base in OPERATORS):
        return None
    if not (has_scripts or digits) and (len(base) == 1 or base in OPERATORS):
        return None
    if match["scripts"] and not digits and f"{base}_{match['scripts'][1:]}" in SYMBOL_NAMES:
        return SYMBOL_NAMES[f"{base}_{match['scripts'][1:]}"], match.end()
    scripts = _scripts(match["scripts"])
    if scripts is None:
        return None
    subs, sups = scripts
    extra_subs, extra_sups = _unicode_scripts(match["unicode"])
    if base.isascii():
        head = symbol_latex(f"{base}_{digits}") if digits else _word_latex(base)
    else:
        head = UNICODE_MATH.get(base, base) + (f"_{{{digits}}}" if digits else "")
    if digits and subs and not extra_subs and base.isascii() and all(re.fullmatch("[A-Za-z0-9]+", s) for s in subs):
        # a numbered name's subscript joins its digits as the naming table writes it: a1_i is a_{1,i}, and the
        # start a1_0 is a_1(0), never the double subscript {a_1}_{0}
        head, subs = symbol_latex(f"{base}{digits}_{'_'.join(subs)}"), []
    if digits and (subs or extra_subs):
        head = "{" + head + "}"
    return _attach(head + primes, subs + extra_subs, sups + extra_sups), match.end()


def _balanced(text: str, k: int) -> int | None:
    """The index after the parenthesis closing the one at ``text[k]``, or None."""
    depth = 0
    for j in range(k, len(text)):
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        if depth == 0:
            return j + 1
    return None


def _math_at(text: str, k: int) -> tuple[str, int] | None:
    """A formula starting at ``text[k]`` as (math-mode LaTeX, end), or None."""
    previous = text[k - 1] if k else " "
    for opener in ("sqrt(", "√("):
        if text.startswith(opener, k) and not _joined(previous):
            end = _balanced(text, k + len(opener) - 1)
            if end is not None:
                return rf"\sqrt{{{math_text(text[k + len(opener) : end - 1])}}}", end
    char = text[k]
    if char == "√" and k + 1 < len(text):
        radicand = _math_word(text, k + 1)
        single = _RADICAND.match(text, k + 1)
        if radicand is not None:
            return rf"\sqrt{{{radicand[0]}}}", radicand[1]
        if single is not None:
            return rf"\sqrt{{{math_text(single.group())}}}", single.end()
    if char in "_^" and (previous in ")]|" or unicodedata.combining(previous)):
        match = _TRAILING_SCRIPTS.match(text, k)
        scripts = _scripts(match.group()) if match else None
        if match and scripts:
            return _attach("{}", *scripts), match.end()
    if char in "-−" and k + 1 < len(text):
        following = text[k + 1]
        if (previous == " " and following == " ") or (previous in " (=[,{" and following.isdigit()):
            return "-", k + 1
    if char.isdigit() and not _joined(previous) and previous not in "/^":
        match = _FRACTION.match(text, k)
        if match and not (match.end() < len(text) and (_joined(text[match.end()]) or text[match.end()] == "/")):
            numerator, denominator = match.group().split("/")
            return rf"\tfrac{{{numerator}}}{{{denominator}}}", match.end()
    if char not in _GREEK and (_joined(previous) or not char.isalpha()):
        return None
    return _math_word(text, k)


def _unicode_char(chars: str, k: int) -> tuple[str, int]:
    """The character at ``chars[k]`` with its combining marks, as text-mode LaTeX, and the next index; a run of
    Unicode super- or subscripts is one group."""
    start, char, k = k, chars[k], k + 1
    if char in _SCRIPT_CHARS:
        while k < len(chars) and chars[k] in _SCRIPT_CHARS:
            k += 1
        subs, sups = _unicode_scripts(chars[start:k])
        return rf"\ensuremath{{{_attach('{}', subs, sups)}}}", k
    marks = ""
    while k < len(chars) and unicodedata.combining(chars[k]):
        marks, k = marks + chars[k], k + 1
    decomposed = unicodedata.normalize("NFD", char)
    if marks:
        return _accented(char, marks[0]), k
    if char.isascii() or char in UNICODE_MATH or char in UNICODE_TEXT:
        return _char_latex(char), k
    if len(decomposed) > 1 and unicodedata.combining(decomposed[1]):
        return _accented(decomposed[0], decomposed[1]), k
    return _char_latex(char), k


def _check(text: object) -> str:
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {type(text).__name__}")
    return unicodedata.normalize("NFC", text)


def code_latex(text: str) -> str:
    """Identifiers, file names, URLs as text-mode LaTeX: special characters escaped, Unicode as math, no
    formula read into them."""
    chars = _check(text)
    out, k = [], 0
    while k < len(chars):
        piece, k = _unicode_char(chars, k)
        out.append(piece)
    return "".join(out)


_ASCII_MATH = (
    (re.compile(r"\*\*"), "^"),
    (re.compile(r"<->|<=>"), "⇔"),
    (re.compile(r"->"), "→"),
    (re.compile(r">="), "≥"),
    (re.compile(r"<="), "≤"),
    (re.compile(r"!="), "≠"),
    (re.compile(r"(?<![\w.])oo(?![\w.])"), "∞"),
    # a Python list of names (the sums ['V', 'theta']): the names
    (re.compile(r"\[('[^'\[\]]*'(?:, '[^'\[\]]*')*)\]"), lambda m: m.group(1).replace("'", "")),
    # a Laurent coefficient written as a code index (theta[+1]): the superscript of the derivations' displays
    (re.compile(r"(?<=[A-Za-z])\[([+-]\d+)\]"), r"^{[\1]}"),
    # a product written in code (c1*y0, 4*c2, (a + b)*c): the factors juxtaposed
    (re.compile(r"(?<=[\w)\]])\*(?=[A-Za-z0-9(√])"), " "),
    # a star closing a name (U*_k, I* may): the superscript star of the papers (a numeric coefficient before it,
    # 3U*_k, set apart so that the name is read as a formula)
    (re.compile(r"(?<=(?<![\w.])\d)(?=[A-Za-z]\*)"), " "),
    (re.compile(r"(?<=[A-Za-z])\*"), "^*"),
)
"""Code spellings of mathematics in prose and what they are rewritten to before the prose is read."""


def plain_math(text: str) -> str:
    """``text`` with the code spellings of mathematics rewritten as mathematics, in plain text: ``**`` as ``^``,
    ``->``, ``>=``, ``<=``, ``!=`` and ``oo`` as →, ≥, ≤, ≠, ∞, a code product ``c1*y0`` as ``c1 y0``, a list of
    names ``['V']`` as ``V`` (the messages and reasons a reader sees; :func:`text_latex` reads the result).

    Arguments:
        text: prose, e.g. a SymPy expression printed into a message (``"g = V*a*gamma**2*w"``).

    Returns:
        The same prose with mathematics only (``"g = V a gamma^2 w"``).

    Raises:
        ValueError: ``text`` is not a string.
    """
    text = _check(text)
    for pattern, replacement in _ASCII_MATH:
        text = pattern.sub(replacement, text)
    return text


def text_latex(text: str) -> str:
    """Prose (ASCII or Unicode, e.g. "γ₊ ≥ 2S/(Σ0 + S0)" or "P0^2 = P0") as ASCII LaTeX for text mode: special
    characters escaped, and formulas (the module docstring says which) in math mode through the naming table.

    Arguments:
        text: the prose; code spellings of mathematics (``t -> oo``, ``k >= 0``, ``c1*y0``) are read as
            mathematics.

    Returns:
        Text-mode LaTeX, each formula wrapped in ``\\ensuremath``.

    Raises:
        ValueError: ``text`` is not a string.
    """
    chars = plain_math(text)
    out, k = [], 0
    while k < len(chars):
        formula = _math_at(chars, k)
        if formula is not None:
            out.append(rf"\ensuremath{{{formula[0]}}}")
            k = formula[1]
            continue
        piece, k = _unicode_char(chars, k)
        out.append(piece)
    return "".join(out)
