r"""What the claims of ``kunin2024`` compute: the derived rates along the single neuron's flow, the authors' scalar
solution :math:`\nu(t)`, and the numeric measurements (closed form against 30-digit integration, the limit
:math:`a w \to \beta`).

The authors' code (``allanraventos/getrichquick``, ``single-neuron/Single_Neuron.ipynb``) writes the conserved
quantity as ``R = a^2 - |w|^2`` (labelled :math:`\delta` in its figures; unit learning rates) and solves the scalar
:math:`\nu = \beta^\top w / a` (its function ``theory``, used for App. A, Fig. 8 "Verifying that theory matches GD").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import mpmath
import numpy as np
import sympy as sp

from derivations.model import Model
from derivations.models.single_neuron import single_neuron
from proofs_check.checkers import closed_form_error
from proofs_check.paper import Measurement

__all__ = [
    "BASIN_CASES",
    "LIMIT_TIME",
    "NEURON_CASES",
    "basin_sides",
    "closed_form_cases",
    "imbalance",
    "limit_error",
    "neuron_error",
    "nu_authors",
    "rate",
    "ratio_rates",
]

LIMIT_TIME = 200.0
"""Where the limit a(t) w(t) -> beta is read off the closed form (the slowest start below is within 1e-14 there)."""

NEURON_CASES: tuple[tuple[int, bool, dict, dict], ...] = (
    # (d, learning_rates, params, init): a crosses 0 (a_0 < 0 < beta^T w_0), delta > 0, delta << 0, d = 3 with rates
    (2, False, {"beta_1": 1.0, "beta_2": 0.5}, {"a": [-0.4], "w_1": [1.2], "w_2": [0.3]}),
    (2, False, {"beta_1": 0.7, "beta_2": -1.1}, {"a": [1.5], "w_1": [0.2], "w_2": [0.1]}),
    (2, False, {"beta_1": 0.6, "beta_2": 0.4}, {"a": [0.1], "w_1": [-1.5], "w_2": [0.8]}),
    (
        3,
        True,
        {"beta_1": 1.0, "beta_2": 0.5, "beta_3": -0.3, "eta_a": 2.0, "eta_w": 0.5},
        {"a": [-0.3], "w_1": [0.9], "w_2": [0.3], "w_3": [0.1]},
    ),
)
"""Fixed unbalanced starts of the single neuron (one neuron, p = 1)."""


def imbalance(model: Model) -> sp.Expr:
    r"""The paper's :math:`\delta = \eta_w a^2 - \eta_a\lVert w\rVert^2` in ``model``'s symbols (a ``single_neuron``;
    :math:`\eta_a = \eta_w = 1` without layer rates, the authors' ``R = a^2 - |w|^2``)."""
    eta_a, eta_w = _rates(model)
    a, w = _states(model)
    return eta_w * a**2 - eta_a * sum(wk**2 for wk in w)


def rate(model: Model, expr: sp.Expr) -> sp.Expr:
    """d/dt of ``expr`` along ``model``'s derived flow (``Model.unit_time_derivative``), cancelled."""
    return sp.cancel(model.unit_time_derivative(expr))


def ratio_rates(model: Model) -> sp.Matrix:
    r"""The derived rates :math:`\tfrac{d}{dt}(w_k / a)` of a ``single_neuron`` (where :math:`a \ne 0`)."""
    a, w = _states(model)
    return sp.Matrix([rate(model, wk / a) for wk in w])


def nu_authors(t: sp.Expr, delta: sp.Expr, s: sp.Expr, nu0: sp.Expr, half: sp.Expr = sp.S.Half) -> sp.Expr:
    r"""The authors' :math:`\nu(t) = \tfrac12(-\delta + \sqrt{4s^2 + \delta^2}\tanh Q)`,
    :math:`Q = \tfrac12 t\sqrt{4s^2 + \delta^2} + \operatorname{artanh}((\delta + 2\nu_0)/\sqrt{4s^2 + \delta^2})`
    (``allanraventos/getrichquick``, ``Single_Neuron.ipynb``, function ``theory``: ``R`` is :math:`\delta`, ``s``
    is :math:`\lVert\beta\rVert`, ``nu0`` is :math:`\beta^\top w_0 / a_0`).

    Arguments:
        t, delta, s, nu0: the time, the conserved imbalance, the norm of the target, the start of nu.
        half: the factor of ``t`` in ``Q`` (1/2 in the authors' formula; another value gives a wrong variant).

    Returns:
        The expression.
    """
    root = sp.sqrt(4 * s**2 + delta**2)
    q = half * t * root + sp.atanh((delta + 2 * nu0) / root)
    return (-delta + root * sp.tanh(q)) / 2


def closed_form_cases(d: int, learning_rates: bool) -> list[tuple[dict, dict]]:
    """The (params, init) pairs of :data:`NEURON_CASES` for ``single_neuron(d, learning_rates)``, init as arrays."""
    return [
        (dict(params), {k: np.array(v, dtype=float) for k, v in init.items()})
        for dd, rates, params, init in NEURON_CASES
        if (dd, rates) == (d, learning_rates)
    ]


def neuron_error(times: Sequence[float] = (0.0, 0.8, 3.0)) -> Measurement:
    """The closed form of ``derivations.solve(single_neuron(d))`` against 30-digit integration of the derived flow
    (``proofs_check.checkers.closed_form_error``) over :data:`NEURON_CASES`: the largest relative error."""
    worst, method, details, measurements = 0.0, "", [], []
    for d, rates in dict.fromkeys((d, r) for d, r, _, _ in NEURON_CASES):
        measured = closed_form_error(single_neuron(d, rates), closed_form_cases(d, rates), list(times))
        assert isinstance(measured.value, float)  # closed_form_error measures one number
        worst, method = max(worst, measured.value), measured.method
        details.append(f"d = {d}{' with eta_a, eta_w' if rates else ''}: {measured.detail}")
        measurements.append(measured)
    detail = "; ".join(details) + "; the first start has a_0 < 0 < a(0.8)"
    # the float64 kernel's bounds and the routes of every model's measurement are kept
    bounds = tuple(b for m in measurements for b in m.bounds)
    return Measurement(worst, method, detail, routes=measurements[-1].routes, bounds=bounds)


def limit_error(t: float = LIMIT_TIME, sign: int = 1) -> Measurement:
    """max_k |a(t) w_k(t) - sign beta_k| / |beta| over :data:`NEURON_CASES`, from the closed form at 30 digits
    (``sign = -1`` measures the distance to -beta: a wrong variant)."""
    from numerics import trajectory

    worst = mpmath.mpf(0)
    with mpmath.workdps(30):
        for d, rates, params, init in NEURON_CASES:
            arrays = {k: np.array(v, dtype=float) for k, v in init.items()}
            state = trajectory(single_neuron(d, rates), [t], params, arrays, dps=30)
            beta = [mpmath.mpf(params[f"beta_{k + 1}"]) for k in range(d)]
            norm = mpmath.sqrt(sum(b**2 for b in beta))
            a = state["a"][0][0]
            worst = max(worst, *(abs(a * state[f"w_{k + 1}"][0][0] - sign * beta[k]) / norm for k in range(d)))
    return Measurement(float(worst), "closed form at 30 digits", f"{len(NEURON_CASES)} starts, t = {t:g}")


BASIN_CASES: tuple[tuple[float, float], ...] = ((0.5, -2.0), (-1.0, -0.5), (2.0, -6.0))
"""(a, delta) of the points of the separating surface tried by :func:`basin_sides`, with beta = (1, 0.25) (the
authors' App. A, Fig. 7 target)."""


def basin_sides(surface: Callable[[float, float], float], offset: float = 1e-3, t: float = 80.0) -> tuple[bool, str]:
    r"""Whether the surface :math:`\beta^\top w = a\,\nu_s(\delta, \lVert\beta\rVert^2)` separates the basins
    :math:`a \to +`, :math:`a \to -` (:math:`\delta < 0`; the authors' separating surface, App. A, Fig. 7, is
    :math:`\nu_s = (-\delta - \sqrt{\delta^2 + 4\lVert\beta\rVert^2})/2`): from each point of :data:`BASIN_CASES`
    (d = 2, beta = (1, 0.25)), the starts with ``a`` moved by -``offset`` and +``offset`` end (closed form at 30
    digits, time ``t``) with ``a`` of opposite signs.

    Arguments:
        surface: :math:`\nu_s`, a function of (delta, |beta|^2).
        offset: how far ``a`` is moved off the surface, > 0.
        t: the time at which the signs are read.

    Returns:
        (separates, detail): True iff every point's two starts end with opposite signs of ``a``; the end values.

    Raises:
        TypeError: ``surface`` is not callable.
        ValueError: ``offset`` is not > 0, or the surface has no point at some case.
    """
    from numerics import trajectory

    if not callable(surface):
        raise TypeError(f"surface must be callable, got {type(surface).__name__}")
    if not offset > 0:
        raise ValueError(f"offset must be > 0, got {offset!r}")
    beta = np.array([1.0, 0.25])
    norm2 = float(beta @ beta)
    across, details = [], []
    for a0, delta in BASIN_CASES:
        nu = float(surface(delta, norm2))  # beta^T w / a on the surface
        along = a0**2 - delta - (a0 * nu) ** 2 / norm2  # |w|^2 = a^2 - delta, minus the part along beta
        if along < 0:
            raise ValueError(f"the surface has no point with a = {a0}, delta = {delta}")
        w0 = a0 * nu * beta / norm2 + np.sqrt(along) * np.array([-beta[1], beta[0]]) / np.sqrt(norm2)
        ends = []
        for shift in (-offset, offset):
            init = {"a": np.array([a0 + shift]), "w_1": np.array([w0[0]]), "w_2": np.array([w0[1]])}
            state = trajectory(single_neuron(2), [t], {"beta_1": beta[0], "beta_2": beta[1]}, init, dps=30)
            ends.append(state["a"][0][0])
        across.append(mpmath.sign(ends[0]) * mpmath.sign(ends[1]) < 0)
        details.append(f"a_0 = {a0}, delta = {delta}: a({t:g}) = {mpmath.nstr(ends[0], 4)}, {mpmath.nstr(ends[1], 4)}")
    return all(across), "; ".join(details)


def _rates(model: Model) -> tuple[sp.Expr, sp.Expr]:
    if model.learning_rates:
        return model.symbol("eta_a"), model.symbol("eta_w")
    return sp.S.One, sp.S.One


def _states(model: Model) -> tuple[sp.Symbol, list[sp.Symbol]]:
    return model.symbol("a"), [model.symbol(n) for n in model.state_names if n != "a"]
