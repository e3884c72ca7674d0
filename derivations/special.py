"""Special functions that keep closed forms numerically stable.

Each carries its elementary ``definition`` so that the exact checker (``derivations.proof``) can expand it.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["phi1"]


class phi1(sp.Function):
    r"""``phi1(x) = (1 - e^{-x}) / x`` with ``phi1(0) = 1``.

    ``t * phi1(k t) = (1 - e^{-k t}) / k`` stays finite as the rate ``k`` → 0, which is what makes one
    Riccati formula cover simple and double roots alike. Numerically it is ``-expm1(-x)/x``.
    """

    nargs = 1

    @classmethod
    def eval(cls, x: sp.Expr) -> sp.Expr | None:
        if x.is_zero:
            return sp.S.One
        return None

    def definition(self) -> sp.Expr:
        """The elementary expression this function stands for.

        Returns:
            ``(1 - exp(-x)) / x`` of this application's argument ``x`` (what :func:`~derivations.proof.prove_zero`
            expands ``phi1`` into).
        """
        (x,) = self.args
        return (1 - sp.exp(-x)) / x

    def _eval_rewrite_as_exp(self, x: sp.Expr, **kwargs: object) -> sp.Expr:
        return (1 - sp.exp(-x)) / x

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        """The derivative ``phi1'(x) = (e^{-x} - phi1(x)) / x`` (SymPy's hook for ``diff`` through ``phi1``).

        Arguments:
            argindex: the 1-based index of the argument to differentiate by; ``phi1`` has one argument, so it is 1
                (SymPy's only call; not checked).

        Returns:
            ``(exp(-x) - phi1(x)) / x`` of this application's argument ``x``.
        """
        (x,) = self.args
        return (sp.exp(-x) - self.func(x)) / x

    def _latex(self, printer: sp.printing.latex.LatexPrinter) -> str:
        return r"\varphi_1\left(" + printer._print(self.args[0]) + r"\right)"
