r"""The phase of Xu & Ziyin 2025 from the width exponents, and width sweeps of the exact solution.

Spec ``models-xu-ziyin2025.md``: §4.1 (exponents, variance convention, :math:`e_B` from
``derivations.scaling``), §4.2 (Definition 1 and the phase table), §4.3 (standard parametrizations).

Measured quantities (:data:`QUANTITIES`), per initialization, from the closed form of ``layerwise_lr_linear``
at :math:`t=0` and :math:`t=t_\infty`:

- ``"dK/K"``: :math:`|K_\infty/K_0-1|`, the final relative change of the (learning-rate weighted) NTK. Definition 1
  takes :math:`\sup_t|K_t/K_0-1|`; it differs only when :math:`\theta` crosses 0, where :math:`K\propto\cosh\theta`
  dips by :math:`1-1/\cosh\theta_0=O(\theta_0^2)`, which has the same width exponent, so the final value is used;
- ``"|du|/|u0|"``, ``"|dw|/|w0|"``: :math:`\|u_\infty-u_0\|/\|u_0\|` and :math:`\|w_\infty-w_0\|/\|w_0\|`;

and, from the same evaluation, the change of the whole parameter vector
:math:`\|(u_\infty,w_\infty)-(u_0,w_0)\|/\|(u_0,w_0)\|` (:func:`draw_changes`, ``numerics.alignment``).

:math:`t_\infty=100/\min\lambda_{\rm lower}` over the batch, with the spec §2.2 rate
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
import sympy as sp

from derivations import scaling

from .budget import BudgetError
from .trajectory import trajectory
from .validation import ArgumentTypeError, finite_array

__all__ = [
    "MAX_TOTAL",
    "PARAMETRIZATIONS",
    "PHASES",
    "QUANTITIES",
    "TABLE_SEEDS",
    "TABLE_WIDTHS",
    "TOLERANCE",
    "Parametrization",
    "WidthSweep",
    "draw_changes",
    "fit_exponent",
    "phase",
    "width_sweep",
]

Exponent = float | Fraction
PHASES = ("kernel", "alignment", "disalignment", "rescaling")
QUANTITIES = ("dK/K", "|du|/|u0|", "|dw|/|w0|")
TABLE_WIDTHS = (100, 400, 1600, 6400, 25600)
"""The widths of spec §4.3's fits (d = 10² … 2.56·10⁴)."""
TABLE_SEEDS = range(1000)
"""Initializations per width for the §4.3 fits (the medians' noise is then about 0.01 in the fitted slopes)."""
TOLERANCE = 0.05
"""Largest accepted |fitted − predicted| exponent."""
BATCH = 2**16
"""Weights per closed-form call: its temporaries then stay in the CPU caches (1.5-5x faster per weight than calls of
2**20 weights, measured on the §4.3 widths)."""
MAX_TOTAL = 10**9
"""Default budget of :func:`width_sweep`: weights drawn, sum(widths) × len(seeds) (the §4.3 table draws 3.4·10⁷)."""


def _exact(name: str, value: object) -> sp.Rational:
    """``value`` as an exact rational; floats through their shortest decimal repr (0.1 → 1/10)."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, sp.Rational)):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    if isinstance(value, sp.Rational):
        return value
    if isinstance(value, numbers.Rational):
        return sp.Rational(int(value.numerator), int(value.denominator))
    if not math.isfinite(float(value)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return sp.Rational(repr(float(value)))


def phase(c_d: Exponent, c_u: Exponent, c_w: Exponent, c_gamma: Exponent, c_eta_u: Exponent, c_eta_w: Exponent) -> str:
    r"""The phase of spec §4.2's table for the width exponents (spec §4.1's variance convention).

    :math:`e_B` is ``derivations.scaling.e_B`` evaluated exactly in rational arithmetic (ints, ``Fraction`` and
    ``sympy.Rational`` are exact; a float is read as its shortest decimal repr, so ``0.1`` is 1/10 — pass
    ``Fraction(1, 3)``, not ``1/3``, for thirds). The criteria:

    ===========  ==================  ================  ===============
    width        :math:`e_B<0`       :math:`e_B=0`     :math:`e_B>0`
    ===========  ==================  ================  ===============
    ``c_d > 0``  ``"kernel"``        ``"alignment"``   ``"rescaling"``
    ``c_d = 0``  ``"disalignment"``  ``"alignment"``   ``"rescaling"``
    ===========  ==================  ================  ===============

    - ``c_d > 0``, :math:`e_B>0` is the table's "alignment then rescaling" (:math:`\zeta\to1`,
      :math:`K_\infty/K_0\approx2B\to\infty`); it is returned as ``"rescaling"``, its dominant mechanism.
    - ``c_d = 0``, :math:`e_B<0`: at finite width :math:`\theta_0=\Theta(1)` generically, and the network learns
      by disalignment (:math:`\zeta\to0`, :math:`K_\infty/K_0\to1/\cosh\theta_0`). It is lazy (kernel) only if
      :math:`\theta_0=0` (e.g. :math:`u_0^\top w_0=0`), a condition on the initialization that exponents cannot
      express, so ``"disalignment"`` is returned.
    - ``c_d = 0``, :math:`e_B=0`: :math:`\theta` moves by :math:`\Theta(1)` from :math:`\theta_0=\Theta(1)` to
      :math:`\operatorname{asinh}B=\Theta(1)` (alignment if :math:`|\theta_0|<|\theta_\infty|`, else
      disalignment, depending on the draw). ``"alignment"`` is returned: the feature-learning phase with a
      bounded NTK change on the boundary :math:`e_B=0`, as for ``c_d > 0``.

    Returns one of :data:`PHASES`. Raises ValueError, naming the parameter, for a non-real or non-finite exponent
    or ``c_d < 0``.
    """
    given = {"c_d": c_d, "c_u": c_u, "c_w": c_w, "c_gamma": c_gamma, "c_eta_u": c_eta_u, "c_eta_w": c_eta_w}
    exact = {name: _exact(name, value) for name, value in given.items()}
    if exact["c_d"] < 0:
        raise ValueError(f"c_d must be >= 0 (the width cannot shrink), got {c_d!r}")
    sign = sp.sign(scaling.e_B(**exact))
    if sign == 0:
        return "alignment"
    if sign > 0:
        return "rescaling"
    return "kernel" if exact["c_d"] > 0 else "disalignment"


@dataclass(frozen=True, eq=False)
class Parametrization:
    """A standard parametrization of spec §4.3: κ = d, η_u = η_w = 1, a = b = 1.

    ``var_u``, ``var_w`` and ``gamma`` are functions of the width; ``exponents`` are its ``c_*`` (keywords of
    :func:`phase`); ``predicted`` the table's width exponent of each of :data:`QUANTITIES` (Θ(1) = 0). Equal only
    to itself (it holds functions), so that measurements can be cached per parametrization.
    """

    label: str
    var_u: Callable[[int], float]
    var_w: Callable[[int], float]
    gamma: Callable[[int], float]
    exponents: Mapping[str, Fraction]
    predicted: Mapping[str, Fraction]


def _exponents(c_u: Fraction, c_w: Fraction, c_gamma: Fraction) -> dict[str, Fraction]:
    return {
        "c_d": Fraction(1),
        "c_u": c_u,
        "c_w": c_w,
        "c_gamma": c_gamma,
        "c_eta_u": Fraction(0),
        "c_eta_w": Fraction(0),
    }


def _predicted(dk: Fraction, du: Fraction, dw: Fraction) -> dict[str, Fraction]:
    return dict(zip(QUANTITIES, (dk, du, dw), strict=True))


_F = Fraction
PARAMETRIZATIONS: dict[str, Parametrization] = {
    "ntk": Parametrization(
        label="NTK",
        var_u=lambda d: 1.0,
        var_w=lambda d: 1.0,
        gamma=lambda d: d**-0.5,
        exponents=_exponents(c_u=_F(0), c_w=_F(0), c_gamma=_F(-1, 2)),
        predicted=_predicted(_F(-1), _F(-1, 2), _F(-1, 2)),
    ),
    "mean_field": Parametrization(
        label="mean-field/µP",
        var_u=lambda d: 1.0,
        var_w=lambda d: 1.0,
        gamma=lambda d: 1.0 / d,
        exponents=_exponents(c_u=_F(0), c_w=_F(0), c_gamma=_F(-1)),
        predicted=_predicted(_F(0), _F(0), _F(0)),
    ),
    "xavier": Parametrization(
        label="Xavier (input dim 1)",
        var_u=lambda d: 2.0 / (d + 1),
        var_w=lambda d: 2.0 / (d + 1),
        gamma=lambda d: 1.0,
        exponents=_exponents(c_u=_F(-1), c_w=_F(-1), c_gamma=_F(0)),
        predicted=_predicted(_F(0), _F(0), _F(0)),
    ),
    "kaiming_fan_in": Parametrization(
        label="Kaiming fan-in",
        var_u=lambda d: 2.0 / d,
        var_w=lambda d: 2.0,
        gamma=lambda d: 1.0,
        exponents=_exponents(c_u=_F(-1), c_w=_F(0), c_gamma=_F(0)),
        predicted=_predicted(_F(-2), _F(-1, 2), _F(-3, 2)),
    ),
    "small_init": Parametrization(
        label="small init",
        var_u=lambda d: float(d) ** -2,
        var_w=lambda d: float(d) ** -2,
        gamma=lambda d: 1.0,
        exponents=_exponents(c_u=_F(-2), c_w=_F(-2), c_gamma=_F(0)),
        predicted=_predicted(_F(1), _F(1, 2), _F(1, 2)),
    ),
}
"""Spec §4.3's rows (init variances and γ as functions of d, exponents at κ = d, predicted slopes)."""


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


def _initializations(p: Parametrization, d: int, seeds: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
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
    # the quantities at t = 0 need no closed form: gradient descent for 0 steps is the initial state
    start = trajectory("layerwise_lr_linear", [0.0], params, init, method="gd", lr=1.0, quantities=("ntk",))
    du, dw = np.sum((end["u"][0] - u0) ** 2, axis=1), np.sum((end["w"][0] - w0) ** 2, axis=1)
    uu, ww = np.sum(u0**2, axis=1), np.sum(w0**2, axis=1)
    return np.stack(
        [
            np.abs(end["ntk"][0] / start["ntk"][0] - 1),
            np.sqrt(du / uu),
            np.sqrt(dw / ww),
            np.sqrt((du + dw) / (uu + ww)),
        ]
    )


_MEASURED: dict[tuple[Parametrization, int], dict[int, np.ndarray]] = {}
"""Per parametrization and width, each measured seed's column of :func:`draw_changes` (the §4.3 rows and the δ table
of ``numerics.alignment`` share them)."""


def _measure(p: Parametrization, d: int, seeds: Sequence[int], chunk: int) -> None:
    for i in range(0, len(seeds), chunk):
        block = seeds[i : i + chunk]
        _MEASURED.setdefault((p, d), {}).update(
            zip(block, _changes(p.gamma(d), *_initializations(p, d, block)).T, strict=True)
        )


def _parametrization(parametrization: str | Parametrization) -> Parametrization:
    if isinstance(parametrization, Parametrization):
        return parametrization
    if isinstance(parametrization, str):
        if parametrization not in PARAMETRIZATIONS:
            raise ValueError(f"parametrization must be one of {list(PARAMETRIZATIONS)}, got {parametrization!r}")
        return PARAMETRIZATIONS[parametrization]
    raise ArgumentTypeError(
        f"parametrization must be a key of PARAMETRIZATIONS or a Parametrization, got {type(parametrization).__name__}"
    )


def draw_changes(
    parametrization: str | Parametrization, d: int, seeds: Sequence[int], max_elements: int = BATCH
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
    parametrization: str | Parametrization,
    widths: Sequence[int],
    seeds: Sequence[int],
    max_elements: int = 2**20,
    max_total: int = MAX_TOTAL,
) -> WidthSweep:
    """Medians over ``seeds`` of :data:`QUANTITIES` at each width, from the closed form at t = 0 and t_∞.

    ``parametrization`` is a key of :data:`PARAMETRIZATIONS` or a :class:`Parametrization`. For width ``d``
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


def fit_exponent(widths: Sequence[float], values: Sequence[float]) -> float:
    """The least-squares slope of log(values) against log(widths)."""
    x, y = finite_array("widths", widths), finite_array("values", values)
    if x.shape != y.shape or x.ndim != 1 or len(x) < 2:
        raise ValueError(f"widths and values must be 1-D of one length >= 2, got shapes {x.shape} and {y.shape}")
    if not (np.all(x > 0) and np.all(y > 0)):
        raise ValueError("widths and values must be > 0 (admissible range: (0, inf))")
    if len(np.unique(x)) < 2:
        raise ValueError("widths must contain at least two distinct values")
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])
