r"""The one Riccati engine: :math:`\dot y = c_2 y^2 + c_1 y + c_0`, constant coefficients, :math:`y(0)=y_0`.

Every solvable model of the package reduces to this equation (Nam et al. 2025, §7 and App. H, eqs 86–95;
the λ-balanced mode of spec §4; the linear model's eq 7). The solution is *derived*, never obtained from
``dsolve`` (which returns wrong answers on exactly these equations, see the tooling notes): roots of the
quadratic, factorization, partial fractions, integration of the log terms, inversion, and a check that the
result satisfies the ODE and the initial condition. Each of these is a recorded, independently checked step.

Conventions. ``k = sqrt(c1**2 - 4*c2*c0) >= 0`` is the rate; ``r_plus = (-c1 - k)/(2*c2)`` is the root at
which the right-hand side has slope ``-k``, i.e. the *attracting* fixed point (for any sign of ``c2``), and
``r_minus = (-c1 + k)/(2*c2)`` the repelling one. The generic solution is

.. math:: y(t) = \frac{r_+ - r_-\kappa e^{-kt}}{1-\kappa e^{-kt}},\quad \kappa=\frac{y_0-r_+}{y_0-r_-},

and its numerically stable (Möbius) form, which needs neither root and covers every branch,

.. math:: y(t) = \frac{y_0 e^{-kt} + \tau\,(c_0 + \alpha y_0)}{e^{-kt} + \tau\,(\beta - c_2 y_0)},
          \qquad \tau = \frac{1-e^{-kt}}{k} = t\,\varphi_1(kt),\quad \alpha = \frac{k+c_1}{2},\
          \beta = \frac{k-c_1}{2},\quad \alpha\beta = -c_2c_0,

where of ``alpha`` and ``beta`` the larger is computed directly and the other from the product, so that no
sum cancels for any sign of the coefficients.

Degenerate branches, each with its own derivation: ``c2 = 0`` (linear, and ``c1 = 0`` constant rate),
``Delta = 0`` (double root), and ``y0`` at a root (a fixed point). A negative discriminant (finite-time
blow-up) does not occur in any model of the package and is rejected.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from .derivation import Derivation
from .special import phi1

__all__ = ["ALPHA", "BETA", "RiccatiSolution", "riccati_solution"]

ALPHA, BETA = sp.symbols("alpha beta", real=True)

BRANCHES = ("generic", "linear", "constant-rate", "double-root", "fixed-point")


@dataclass(frozen=True)
class RiccatiSolution:
    """A derived solution of ``y' = c2 y^2 + c1 y + c0``, ``y(0) = y0``.

    ``solution`` is y(t) in the branch's own closed form, with every auxiliary symbol substituted
    (``r_plus``, ``r_minus``, ``k`` are kept as symbols in ``derivation`` and defined in ``definitions``).
    ``stable`` is the uniform numerically stable form, in terms of the coefficients, ``k`` and the symbols
    ``ALPHA``, ``BETA`` (see ``rate_split``).
    """

    c2: sp.Expr
    c1: sp.Expr
    c0: sp.Expr
    y0: sp.Expr
    t: sp.Symbol
    branch: str
    solution: sp.Expr
    stable: sp.Expr
    definitions: dict[sp.Symbol, sp.Expr]
    r_plus: sp.Symbol
    r_minus: sp.Symbol
    k: sp.Symbol
    derivation: Derivation

    @property
    def discriminant(self) -> sp.Expr:
        """``c1**2 - 4*c2*c0``."""
        return self.c1**2 - 4 * self.c2 * self.c0

    def rate_split(self) -> tuple[sp.Expr, sp.Expr]:
        """``alpha = (k + c1)/2`` and ``beta = (k - c1)/2`` of the stable form; ``alpha * beta = -c2 c0``."""
        return (self.k + self.c1) / 2, (self.k - self.c1) / 2

    def __call__(self, t: sp.Expr) -> sp.Expr:
        """The solution at time ``t``."""
        return self.solution.subs(self.t, t)


def _classify(c2: sp.Expr, c1: sp.Expr, c0: sp.Expr, y0: sp.Expr) -> str:
    if sp.simplify(c2) == 0:
        return "constant-rate" if sp.simplify(c1) == 0 else "linear"
    delta = sp.simplify(c1**2 - 4 * c2 * c0)
    if delta == 0:
        return "fixed-point" if sp.simplify(c2 * y0**2 + c1 * y0 + c0) == 0 else "double-root"
    if delta.is_negative:
        raise ValueError(f"discriminant {delta} < 0: finite-time blow-up, not a supported Riccati branch")
    if sp.simplify(c2 * y0**2 + c1 * y0 + c0) == 0:
        return "fixed-point"
    return "generic"


def riccati_solution(
    c2: sp.Expr,
    c1: sp.Expr,
    c0: sp.Expr,
    y0: sp.Expr,
    t: sp.Symbol,
    name: str = "y",
    branch: str | None = None,
    relations: tuple[sp.Expr, ...] = (),
    root_names: tuple[str, str] = ("y_+", "y_-"),
    rate: tuple[sp.Symbol, sp.Expr] | None = None,
    tags: dict[str, str] | None = None,
) -> RiccatiSolution:
    """Derive the solution of ``y' = c2 y^2 + c1 y + c0``, ``y(0) = y0``, with a recorded derivation.

    ``branch`` forces a branch (one of ``BRANCHES``); by default it is decided from the coefficients
    (symbolic coefficients whose vanishing cannot be decided are treated as generic, and the derivation
    records the assumptions ``c2 != 0``, ``Delta > 0``, ``y0`` not a root). ``rate`` optionally names the
    rate ``k`` as ``(symbol, expression)`` with ``expression**2 = Delta`` checked under ``relations``;
    ``tags`` maps step keys (``"ode"``, ``"discriminant"``, ``"factor"``, ``"apart"``, ``"log"``,
    ``"solution"``) to paper equation numbers.
    """
    c2, c1, c0, y0 = (sp.sympify(c, strict=True) for c in (c2, c1, c0, y0))
    branch = branch or _classify(c2, c1, c0, y0)
    if branch not in BRANCHES:
        raise ValueError(f"branch must be one of {BRANCHES}, got {branch!r}")
    tags = tags or {}
    y = sp.Function(name)(t)
    ys = sp.Symbol(name)
    r_plus, r_minus = sp.Symbol(root_names[0]), sp.Symbol(root_names[1])
    k = rate[0] if rate else sp.Symbol("k", nonnegative=True)
    k_expr = rate[1] if rate else sp.sqrt(c1**2 - 4 * c2 * c0)
    rhs = c2 * ys**2 + c1 * ys + c0
    derivation = Derivation(f"Riccati equation for {name}", relations=tuple(relations))
    derivation.add(
        sp.Eq(sp.Derivative(y, t), rhs.subs(ys, y)),
        "the Riccati equation to solve, with constant coefficients",
        tags.get("ode", ""),
        residual=sp.S.Zero,
    )
    solver = {
        "generic": _generic,
        "double-root": _double_root,
        "linear": _linear,
        "constant-rate": _constant_rate,
        "fixed-point": _fixed_point,
    }[branch]
    solution, stable, definitions = solver(derivation, c2, c1, c0, y0, t, ys, r_plus, r_minus, k, k_expr, tags)
    derivation.add(
        sp.Eq(sp.Derivative(y, t) - rhs.subs(ys, y), 0),
        f"check: the solution satisfies the ODE ({branch} branch)",
        residual=sp.diff(solution, t) - rhs.subs(ys, solution),
    )
    derivation.add(
        sp.Eq(y.subs(t, 0), y0),
        "check: the initial condition",
        residual=solution.subs(t, 0) - y0,
    )
    return RiccatiSolution(c2, c1, c0, y0, t, branch, solution, stable, definitions, r_plus, r_minus, k, derivation)


def _generic(derivation, c2, c1, c0, y0, t, ys, r_plus, r_minus, k, k_expr, tags):
    derivation.assumptions = (
        *derivation.assumptions,
        "c2 != 0",
        "Delta = c1^2 - 4 c2 c0 > 0",
        "y0 is not a root",
    )
    delta = sp.factor(c1**2 - 4 * c2 * c0)
    derivation.add(
        sp.Eq(k**2, delta),
        "discriminant of the quadratic right-hand side; k >= 0 is the rate",
        tags.get("discriminant", ""),
        residual=k_expr**2 - (c1**2 - 4 * c2 * c0),
    )
    roots = {r_plus: (-c1 - k) / (2 * c2), r_minus: (-c1 + k) / (2 * c2)}
    for root, expr in roots.items():
        derivation.add(
            sp.Eq(root, expr),
            "root of the quadratic (r_+ is the attracting one: slope -k there)",
            tags.get("roots", ""),
            residual=(c2 * ys**2 + c1 * ys + c0).subs(ys, expr),
            relations=(k**2 - (c1**2 - 4 * c2 * c0),),
        )
    quadratic = c2 * ys**2 + c1 * ys + c0
    factored = c2 * (ys - r_plus) * (ys - r_minus)
    root_relation = (k**2 - (c1**2 - 4 * c2 * c0),)
    derivation.add(
        sp.Eq(quadratic, factored),
        "factorization over the two real roots",
        tags.get("factor", ""),
        substitutions=roots,
        relations=root_relation,
    )
    derivation.add(
        sp.Eq(c2 * (r_plus - r_minus), -k),
        "the rate in terms of the roots",
        tags.get("factor", ""),
        substitutions=roots,
    )
    fraction = 1 / ((ys - r_plus) * (ys - r_minus))
    derivation.add(sp.Eq(fraction, sp.apart(fraction, ys)), "partial fractions", tags.get("apart", ""))
    y_0 = sp.Symbol(f"{ys}_0")
    log_form = sp.log((ys - r_plus) / (ys - r_minus)) - sp.log((y_0 - r_plus) / (y_0 - r_minus))
    derivation.add(
        sp.Eq(log_form, -k * t),
        "separate variables and integrate from 0 to t (neither y - r_± changes sign along the flow); "
        "checked by differentiating both sides along the ODE",
        tags.get("log", ""),
        residual=sp.diff(log_form, ys) * factored + k,
        substitutions=roots,
    )
    kappa = (y0 - r_plus) / (y0 - r_minus)
    decay = sp.exp(-k * t)
    solved = sp.solve(sp.Eq(ys - r_plus, kappa * decay * (ys - r_minus)), ys)
    if len(solved) != 1:
        raise RuntimeError(f"inversion of the log form gave {solved}")
    y_t = solved[0]
    paper_form = (r_plus - r_minus * kappa * decay) / (1 - kappa * decay)
    derivation.add(
        sp.Eq(ys, paper_form),
        "exponentiate and solve the linear equation for y, kappa = (y0 - r_+)/(y0 - r_-)",
        tags.get("solution", ""),
        residual=y_t - paper_form,
    )
    tau = t * phi1(k * t)
    stable = (y0 * decay + tau * (c0 + ALPHA * y0)) / (decay + tau * (BETA - c2 * y0))
    split = {ALPHA: -c2 * r_plus, BETA: c2 * r_minus}
    derivation.add(
        sp.Eq(ALPHA * BETA, -c2 * c0),
        "alpha = (k + c1)/2 = -c2 r_+ and beta = (k - c1)/2 = c2 r_- multiply to -c2 c0",
        residual=(k + c1) * (k - c1) / 4 + c2 * c0,
        relations=root_relation,
    )
    derivation.add(
        sp.Eq(ys, stable),
        "numerically stable Möbius form (tau = t phi1(kt) = (1 - e^{-kt})/k): no root, no cancelling sum",
        residual=paper_form - stable.xreplace(split),
        substitutions=roots,
    )
    limit_form = r_plus + k * (y0 - r_plus) * decay / (k - c2 * (y0 - r_plus) * (1 - decay))
    derivation.add(
        sp.Eq(sp.Limit(ys, t, sp.oo), r_plus),
        "t -> oo: e^{-kt} -> 0 for k > 0 in a form continuous at e^{-kt} = 0 (denominator k - c2 (y0 - r_+) "
        "!= 0 because y0 != r_-)",
        residual=(limit_form - paper_form) + (limit_form.subs(decay, 0) - r_plus),
        substitutions=roots,
    )
    definitions = {r_plus: roots[r_plus].subs(k, k_expr), r_minus: roots[r_minus].subs(k, k_expr), k: k_expr}
    solution = paper_form.subs({r_plus: roots[r_plus], r_minus: roots[r_minus]}).subs(k, k_expr)
    derivation.definitions.update(roots)
    derivation.relations = (*derivation.relations, *root_relation)
    return solution, stable, definitions


def _double_root(derivation, c2, c1, c0, y0, t, ys, r_plus, r_minus, k, k_expr, tags):
    derivation.assumptions = (*derivation.assumptions, "c2 != 0", "Delta = 0")
    root = -c1 / (2 * c2)
    derivation.add(
        sp.Eq(c2 * ys**2 + c1 * ys + c0, c2 * (ys - root) ** 2),
        "double root: the discriminant vanishes",
        tags.get("factor", ""),
        residual=(c2 * ys**2 + c1 * ys + c0) - c2 * (ys - root) ** 2 + (c1**2 - 4 * c2 * c0) / (4 * c2),
        relations=(c1**2 - 4 * c2 * c0,),
    )
    solution = root + (y0 - root) / (1 - c2 * (y0 - root) * t)
    derivation.add(
        sp.Eq(sp.Derivative(1 / (sp.Function("y")(t) - root), t), -c2),
        "1/(y - r) decreases linearly at rate c2",
        tags.get("solution", ""),
        residual=sp.diff(1 / (solution - root), t) + c2,
    )
    stable = solution
    definitions = {r_plus: root, r_minus: root, k: sp.S.Zero}
    derivation.relations = (*derivation.relations, c1**2 - 4 * c2 * c0)
    return solution, stable, definitions


def _linear(derivation, c2, c1, c0, y0, t, ys, r_plus, r_minus, k, k_expr, tags):
    derivation.assumptions = (*derivation.assumptions, "c2 = 0", "c1 != 0")
    fixed = -c0 / c1
    solution = fixed + (y0 - fixed) * sp.exp(c1 * t)
    derivation.add(
        sp.Eq(sp.Function(str(ys))(t) - fixed, (y0 - fixed) * sp.exp(c1 * t)),
        "c2 = 0: linear equation; the distance to the fixed point -c0/c1 evolves as e^{c1 t}",
        tags.get("solution", ""),
        residual=sp.diff((solution - fixed) * sp.exp(-c1 * t), t),
    )
    stable = solution
    return solution, stable, {r_plus: fixed, k: sp.Abs(c1)}


def _constant_rate(derivation, c2, c1, c0, y0, t, ys, r_plus, r_minus, k, k_expr, tags):
    derivation.assumptions = (*derivation.assumptions, "c2 = c1 = 0")
    solution = y0 + c0 * t
    derivation.add(
        sp.Eq(sp.Function(str(ys))(t), solution),
        "c2 = c1 = 0: constant rate",
        tags.get("solution", ""),
        residual=sp.diff(solution, t) - c0,
    )
    return solution, solution, {k: sp.S.Zero}


def _fixed_point(derivation, c2, c1, c0, y0, t, ys, r_plus, r_minus, k, k_expr, tags):
    derivation.assumptions = (*derivation.assumptions, "y0 is a root of c2 y^2 + c1 y + c0")
    derivation.add(
        sp.Eq(c2 * y0**2 + c1 * y0 + c0, 0),
        "y0 is a fixed point: the right-hand side vanishes there, so y is constant (uniqueness)",
        tags.get("solution", ""),
        residual=c2 * y0**2 + c1 * y0 + c0,
    )
    return y0 + 0 * t, y0 + 0 * t, {r_plus: y0, k: k_expr}
