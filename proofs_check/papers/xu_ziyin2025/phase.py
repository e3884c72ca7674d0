r"""The phase diagram of Xu & Ziyin 2025 (ICLR): the phase from the width exponents, and the standard
parametrizations of the §4.3 table (spec ``models-xu-ziyin2025.md`` §4.1 exponents and variance convention,
§4.2 Definition 1 and the phase table, §4.3 the standard parametrizations).

:math:`e_B` comes from this paper's exponent algebra (``proofs_check.papers.xu_ziyin2025.scaling``); the width
sweeps that measure the table's exponents are the library's (``numerics.phase``), run on :data:`PARAMETRIZATIONS`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import sympy as sp

from numerics.phase import BATCH, MAX_TOTAL, QUANTITIES, Parametrization, WidthSweep, fit_exponent
from numerics.phase import draw_changes as _draw_changes
from numerics.phase import width_sweep as _width_sweep
from numerics.validation import ArgumentTypeError
from proofs_check.papers.xu_ziyin2025 import scaling

__all__ = [
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
    "parametrization",
    "phase",
    "width_sweep",
]

Exponent = float | Fraction
PHASES = ("kernel", "alignment", "disalignment", "rescaling")
TABLE_WIDTHS = (100, 400, 1600, 6400, 25600)
"""The widths of spec §4.3's fits (d = 10² … 2.56·10⁴)."""
TABLE_SEEDS = range(1000)
"""Initializations per width for the §4.3 fits (the medians' noise is then about 0.01 in the fitted slopes)."""
TOLERANCE = 0.05
"""Largest accepted |fitted − predicted| exponent."""


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

    :math:`e_B` is ``proofs_check.papers.xu_ziyin2025.scaling.e_B`` evaluated exactly in rational arithmetic (ints,
    ``Fraction`` and
    ``sympy.Rational`` are exact; a float is read as its shortest decimal repr, so ``0.1`` is 1/10 — pass
    ``Fraction(1, 3)``, not ``1/3``, for thirds). The criteria:

    ===========  ==================  ================  ===============
    width        :math:`e_B<0`       :math:`e_B=0`     :math:`e_B>0`
    ===========  ==================  ================  ===============
    ``c_d > 0``  ``"kernel"``        ``"alignment"``   ``"rescaling"``
    ``c_d = 0``  ``"disalignment"``  ``"alignment"``   ``"rescaling"``
    ===========  ==================  ================  ===============

    - ``c_d > 0``, :math:`e_B>0` is the table's "alignment then rescaling" (:math:`\zeta\to1`,
      :math:`K_\infty/K_0\approx B/\cosh\theta_0\to\infty`; the reconstruction's :math:`2B` is
      :math:`\alpha_+`, see ``claims_mechanisms``); it is returned as ``"rescaling"``, its dominant mechanism.
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


def parametrization(name: str | Parametrization) -> Parametrization:
    """The row ``name`` of :data:`PARAMETRIZATIONS` (a :class:`numerics.phase.Parametrization` is returned as it
    is); ValueError naming the rows for an unknown name, TypeError for anything else."""
    if isinstance(name, Parametrization):
        return name
    if isinstance(name, str):
        if name not in PARAMETRIZATIONS:
            raise ValueError(f"parametrization must be one of {list(PARAMETRIZATIONS)}, got {name!r}")
        return PARAMETRIZATIONS[name]
    raise ArgumentTypeError(
        f"parametrization must be a key of PARAMETRIZATIONS or a Parametrization, got {type(name).__name__}"
    )


def draw_changes(name: str | Parametrization, d: int, seeds: Sequence[int], max_elements: int = BATCH) -> np.ndarray:
    """:func:`numerics.phase.draw_changes` for a row of :data:`PARAMETRIZATIONS` (or any parametrization)."""
    return _draw_changes(parametrization(name), d, seeds, max_elements)


def width_sweep(
    name: str | Parametrization,
    widths: Sequence[int],
    seeds: Sequence[int],
    max_elements: int = 2**20,
    max_total: int = MAX_TOTAL,
) -> WidthSweep:
    """:func:`numerics.phase.width_sweep` for a row of :data:`PARAMETRIZATIONS` (or any parametrization)."""
    return _width_sweep(parametrization(name), widths, seeds, max_elements, max_total)
