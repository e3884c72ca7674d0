r"""Width sweeps of the exact solution of ``layerwise_lr_linear``: the measurements behind a phase diagram.

A :class:`Parametrization` gives the initialization variances and the output scale :math:`\gamma` as functions of
the width ``d`` (with :math:`\eta_u = \eta_w = 1`, :math:`a = b = 1`); :func:`width_sweep` draws initializations at
each width, evaluates the closed form at :math:`t = 0` and :math:`t = t_\infty`, and returns the medians of the
measured quantities (:data:`QUANTITIES`), whose width exponents :func:`fit_exponent` fits. Which parametrizations to
sweep, and which exponents a paper predicts for them, belong to the paper (Xu & Ziyin 2025's standard
parametrizations and phase table in the built-in paper ``xu_ziyin2025``).

Measured quantities (:data:`QUANTITIES`), per initialization, from the closed form of ``layerwise_lr_linear``
at :math:`t=0` and :math:`t=t_\infty`:

- ``"dK/K"``: :math:`|K_\infty/K_0-1|`, the final relative change of the (learning-rate weighted) NTK (the
  supremum over :math:`t` differs only when :math:`\theta` crosses 0, where :math:`K\propto\cosh\theta` dips by
  :math:`1-1/\cosh\theta_0=O(\theta_0^2)`, which has the same width exponent, so the final value is used);
- ``"|du|/|u0|"``, ``"|dw|/|w0|"``: :math:`\|u_\infty-u_0\|/\|u_0\|` and :math:`\|w_\infty-w_0\|/\|w_0\|`;

and, from the same evaluation, the change of the whole parameter vector
:math:`\|(u_\infty,w_\infty)-(u_0,w_0)\|/\|(u_0,w_0)\|` (:func:`draw_changes`).

:math:`t_\infty=100/\min\lambda_{\rm lower}` over the batch, with the rate
:math:`\lambda=\gamma^2a\sqrt{PQ}\sqrt{1+B^2}\ge\lambda_{\rm lower}=\gamma^2a\sqrt{PQ}`, so that
:math:`e^{-\lambda t_\infty}\le e^{-100}` for every initialization.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._trajectory import trajectory
from .arithmetic import fp
from .budget import BudgetError
from .compiled import compiled
from .evaluate import quantities
from .validation import ArgumentTypeError, finite_array

__all__ = [
    "BATCH",
    "MAX_TOTAL",
    "QUANTITIES",
    "Parametrization",
    "WidthSweep",
    "draw_changes",
    "fit_exponent",
    "initializations",
    "width_sweep",
]

QUANTITIES = ("dK/K", "|du|/|u0|", "|dw|/|w0|")
BATCH = 2**16
"""Weights per closed-form call: its temporaries then stay in the CPU caches (1.5-5x faster per weight than calls of
2**20 weights, measured on the §4.3 widths)."""
MAX_TOTAL = 10**9
"""Default budget of :func:`width_sweep`: weights drawn, sum(widths) × len(seeds) (the §4.3 table draws 3.4·10⁷)."""


@dataclass(frozen=True, eq=False)
class Parametrization:
    """A parametrization of ``layerwise_lr_linear`` by the width ``d``: η_u = η_w = 1, a = b = 1.

    ``var_u``, ``var_w`` and ``gamma`` are functions of the width; ``exponents`` are its width exponents ``c_*``
    (κ = d; e.g. ``c_u``, ``c_gamma``); ``predicted`` a predicted width exponent of each of :data:`QUANTITIES`
    (Θ(1) = 0), which :meth:`WidthSweep.exponents` measures. Equal only to itself (it holds functions), so that
    measurements can be cached per parametrization.
    """

    label: str
    var_u: Callable[[int], float]
    var_w: Callable[[int], float]
    gamma: Callable[[int], float]
    exponents: Mapping[str, Fraction]
    predicted: Mapping[str, Fraction]


@dataclass(frozen=True)
class WidthSweep:
    """Medians over the initializations, per width, of each of :data:`QUANTITIES`."""

    parametrization: str
    widths: tuple[int, ...]
    seeds: int
    medians: Mapping[str, np.ndarray]

    def exponents(self) -> dict[str, float]:
        """The fitted width exponent of each quantity (:func:`fit_exponent`)."""
        return {q: fit_exponent(self.widths, self.medians[q]) for q in QUANTITIES}


def _integers(name: str, values: Sequence[int], minimum: int) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ArgumentTypeError(f"{name} must be a non-empty sequence of integers >= {minimum}, got {values!r}")
    out = tuple(values)
    if not out or any(isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < minimum for v in out):
        raise ValueError(f"{name} must be a non-empty sequence of integers >= {minimum}, got {values!r}")
    return tuple(int(v) for v in out)


def initializations(p: Parametrization, d: int, seeds: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """u₀, w₀ of shape (len(seeds), d): initialization i from ``numpy.random.default_rng((seeds[i], d))``."""
    z = np.stack([np.random.default_rng((seed, d)).standard_normal((2, d)) for seed in seeds])
    return z[:, 0] * math.sqrt(p.var_u(d)), z[:, 1] * math.sqrt(p.var_w(d))


def _changes(gamma: float, u0: np.ndarray, w0: np.ndarray) -> np.ndarray:
    """The three quantities and the whole vector's change per initialization, shape (4, batch), from the closed form
    at t_∞ and the model's quantities at the initial state."""
    big_p, big_q = np.sum((u0 + w0) ** 2, axis=1), np.sum((u0 - w0) ** 2, axis=1)  # η_u = η_w = 1
    t_inf = 100.0 / np.min(gamma**2 * np.sqrt(big_p * big_q))  # a = 1
    params, init = {"gamma": gamma, "eta_u": 1.0, "eta_w": 1.0, "a": 1.0, "b": 1.0}, {"u": u0, "w": w0}
    # the medians of norms over d units do not need each settled unit's last digits (refine=False)
    end = trajectory("layerwise_lr_linear", [t_inf], params, init, refine=False, quantities=("ntk",))
    # the quantities at t = 0 need no solve at all: the model's own NTK at the initial state, evaluated as
    # trajectory evaluates it along any states (without a second validation and copy of the batch)
    start_ntk = quantities(compiled("layerwise_lr_linear", fp), {**params, "u": u0[None], "w": w0[None]}, fp, ("ntk",))
    du, dw = np.sum((end["u"][0] - u0) ** 2, axis=1), np.sum((end["w"][0] - w0) ** 2, axis=1)
    uu, ww = np.sum(u0**2, axis=1), np.sum(w0**2, axis=1)
    return np.stack(
        [
            np.abs(end["ntk"][0] / start_ntk["ntk"][0] - 1),
            np.sqrt(du / uu),
            np.sqrt(dw / ww),
            np.sqrt((du + dw) / (uu + ww)),
        ]
    )


_MEASURED: dict[tuple[Parametrization, int], dict[int, np.ndarray]] = {}
"""Per parametrization and width, each measured seed's column of :func:`draw_changes` (the §4.3 rows and the δ table
of Xu & Ziyin's alignment share them)."""


def _measure(p: Parametrization, d: int, seeds: Sequence[int], chunk: int) -> None:
    for i in range(0, len(seeds), chunk):
        block = seeds[i : i + chunk]
        _MEASURED.setdefault((p, d), {}).update(
            zip(block, _changes(p.gamma(d), *initializations(p, d, block)).T, strict=True)
        )


def _parametrization(parametrization: Parametrization) -> Parametrization:
    if isinstance(parametrization, Parametrization):
        return parametrization
    raise ArgumentTypeError(f"parametrization must be a Parametrization, got {type(parametrization).__name__}")


def draw_changes(
    parametrization: Parametrization, d: int, seeds: Sequence[int], max_elements: int = BATCH
) -> np.ndarray:
    """Per initialization ``seeds[i]`` at width ``d`` (see :func:`width_sweep`), the rows :data:`QUANTITIES` and
    then the whole parameter vector's change, shape (4, len(seeds)); batches of at most ``max_elements`` weights
    (and :data:`BATCH`) share one t_∞ (every start has then converged to e^-100, so the batching changes no digit).
    Measured seeds are kept per parametrization and width."""
    p = _parametrization(parametrization)
    seeds = tuple(seeds)
    known = _MEASURED.get((p, d), {})
    missing = [s for s in dict.fromkeys(seeds) if s not in known]
    if missing:
        _measure(p, d, missing, max(1, min(max_elements, BATCH) // d))
    measured = _MEASURED[(p, d)]
    return np.stack([measured[s] for s in seeds], axis=1)


def width_sweep(
    parametrization: Parametrization,
    widths: Sequence[int],
    seeds: Sequence[int],
    max_elements: int = 2**20,
    max_total: int = MAX_TOTAL,
) -> WidthSweep:
    """Medians over ``seeds`` of :data:`QUANTITIES` at each width, from the closed form at t = 0 and t_∞.

    ``parametrization`` is a :class:`Parametrization`. For width ``d``
    the initialization of ``seed`` is ``u₀ = σ_u z₀``, ``w₀ = σ_w z₁`` with ``z = default_rng((seed, d))
    .standard_normal((2, d))``. Runs are batched so that at most ``max_elements`` weights (and at most
    :data:`BATCH`) are held at once (so every width is at most ``max_elements``); the budget ``max_total``
    (default :data:`MAX_TOTAL`) bounds the number of weights drawn, ``sum(widths) × len(seeds)``.
    """
    p = _parametrization(parametrization)
    widths = _integers("widths", widths, 1)
    seeds = _integers("seeds", seeds, 0)
    (max_elements,) = _integers("max_elements", [max_elements], 1)
    (max_total,) = _integers("max_total", [max_total], 1)
    if max(widths) > max_elements:
        raise ValueError(
            f"widths must be <= max_elements = {max_elements} (one initialization at a time), got {max(widths)}"
        )
    if sum(widths) * len(seeds) > max_total:
        raise BudgetError(
            f"width_sweep would draw sum(widths) × len(seeds) = {sum(widths) * len(seeds)} weights, beyond the budget "
            f"max_total = {max_total}; pass a larger max_total"
        )
    table = np.array([np.median(draw_changes(p, d, seeds, max_elements)[: len(QUANTITIES)], axis=1) for d in widths])
    return WidthSweep(p.label, widths, len(seeds), {q: table[:, k] for k, q in enumerate(QUANTITIES)})


def fit_exponent(widths: Sequence[float] | np.ndarray, values: Sequence[float] | np.ndarray) -> float:
    """The least-squares slope of log(values) against log(widths)."""
    x, y = finite_array("widths", widths), finite_array("values", values)
    if x.shape != y.shape or x.ndim != 1 or len(x) < 2:
        raise ValueError(f"widths and values must be 1-D of one length >= 2, got shapes {x.shape} and {y.shape}")
    if not (np.all(x > 0) and np.all(y > 0)):
        raise ValueError("widths and values must be > 0 (admissible range: (0, inf))")
    if len(np.unique(x)) < 2:
        raise ValueError("widths must contain at least two distinct values")
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])
