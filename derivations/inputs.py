"""Public arguments that are expressions: converted without ever parsing a string.

``sympy.sympify`` parses a string with ``eval``, so ``sympify("<code>")`` runs the code. Every public argument that
may hold an expression goes through :func:`expression`, which calls ``sympify(..., strict=True)``: numbers, SymPy
objects and objects with ``_sympy_`` are converted; strings (and anything else) are refused with the argument's name.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["expression"]


def expression(value: object, argument: str) -> sp.Basic:
    """``value`` as a SymPy object, never parsed from text.

    Arguments:
        value: a Python or SymPy number, a SymPy expression (or an object with ``_sympy_``).
        argument: the name the error gives (e.g. ``"alpha"``).

    Returns:
        The SymPy object.

    Raises:
        TypeError: ``value`` is a string (strings are not parsed: they could run code) or not convertible.
    """
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"{argument} must be a number or a SymPy expression, not the text {value!r} (text is never parsed: "
            "build the expression with sympy, e.g. sp.Rational(1, 2) or sp.Symbol('alpha'))"
        )
    try:
        return sp.sympify(value, strict=True)
    except sp.SympifyError as error:
        raise TypeError(
            f"{argument} must be a number or a SymPy expression, got {type(value).__name__}: {value!r}"
        ) from error
