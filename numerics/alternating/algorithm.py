"""Algorithm 1 of Kunin et al. 2025 (AGF) for two-layer networks, with the authors' clarified rules (spec §3).

Conventions (spec §1–§2, convention-dependent items):
* threshold = the neuron's norm reaching 1: c_i = -log||theta_i(0)|| (kappa = 2) and
  c_i = (||theta_i(0)||^{2-kappa} - 1)/(kappa - 2) (kappa > 2, as in [C]); activated neurons enter with norm 1;
* accumulated utility S_i = int kappa U_i(theta_bar_i) dt, so eta S_i = c_i at activation;
* rescaled time t~ = eta t / log(1/alpha) (kappa = 2) and eta t alpha^{kappa-2} (kappa > 2);
* loss (1/2n) sum ||y - f||², residual r = y - f.
Rules: the utility phase (``utility_maximization``) runs while S_i <= c_i/eta for all dormant i and is the only phase
that advances time; every neuron at its threshold at the exit time activates (tolerance 1e-9); an active neuron that
collapses during cost minimization (``cost_minimization``: its norm² within ``collapse_tol``² of the floor set by its
conserved imbalance) returns to dormancy at once with S_j = c_j/eta and keeps its direction; the loop halts when no
neuron is dormant or no dormant neuron can reach its threshold (which includes a zero utility gradient of every
dormant neuron).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .cost_minimization import minimize_cost
from .two_layer import ACTIVATIONS, Network
from .utility_maximization import LogCoordinateDormant, SphereDormant, thresholds
from .validate import count, init_scale, neuron_norms, open_unit, positive, real_array

__all__ = ["AGFResult", "InitializationScaleWarning", "Jump", "agf", "gaussian_init"]


@dataclass(frozen=True)
class Jump:
    """State after the k-th cost minimization: rescaled jump time, active set, parameters (dormant rows zero),
    loss level, the neurons activated and the ones collapsed back to dormancy at this jump, and every S_i."""

    time: float
    active: tuple[int, ...]
    activated: tuple[int, ...]
    collapsed: tuple[int, ...]
    a: np.ndarray
    w: np.ndarray
    loss: float
    accumulated_utility: np.ndarray


@dataclass(frozen=True)
class AGFResult:
    """The AGF staircase: ``jumps[0]`` is t = 0 with no active neuron; ``halted`` says why the loop stopped."""

    jumps: tuple[Jump, ...]
    thresholds: np.ndarray
    kappa: int
    alpha: float
    halted: str

    @property
    def jump_times(self) -> np.ndarray:
        return np.array([jump.time for jump in self.jumps[1:]])

    @property
    def loss_levels(self) -> np.ndarray:
        return np.array([jump.loss for jump in self.jumps])

    @property
    def active_sets(self) -> list[tuple[int, ...]]:
        return [jump.active for jump in self.jumps]

    def loss_curve(self, t: object) -> np.ndarray:
        """The step-function loss at rescaled times ``t``: level k on [tau_k, tau_{k+1})."""
        index = np.searchsorted(self.jump_times, np.asarray(t, dtype=float), side="right")
        return self.loss_levels[index]


def gaussian_init(H: int, c: int, d: int, alpha: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Spec §1 init: a_i ~ N(0, alpha²/(2c) I_c), w_i ~ N(0, alpha²/(2d) I_d) (standard deviations alpha/sqrt(2c),
    alpha/sqrt(2d)), so E||theta_i(0)||² = alpha². Returns (a0: H x c, w0: H x d)."""
    alpha = init_scale(alpha)
    H, c, d, seed = count("H", H), count("c", c), count("d", d), count("seed", seed, 0)
    rng = np.random.default_rng(seed)
    return rng.normal(size=(H, c)) * alpha / np.sqrt(2 * c), rng.normal(size=(H, d)) * alpha / np.sqrt(2 * d)


class InitializationScaleWarning(UserWarning):
    """AGF's small-initialization assumption fails for some neuron: its conserved imbalance (kappa - 1)|a_i|² - |w_i|²
    keeps its norm above ``collapse_tol``, so it can never return to the origin on that scale. Collapse is then
    judged relative to this floor (``cost_minimization``), and AGF's jump times differ from gradient flow's by
    O(1/log(1/alpha)) (kappa = 2) or O(alpha^{kappa-2}) in rescaled time (kappa > 2), no longer negligible."""


def _data(X: object, Y: object) -> tuple[np.ndarray, np.ndarray]:
    X = real_array("X", X, ndim=2)
    if X.shape[0] < 1 or X.shape[1] < 1:
        raise ValueError(f"X must have shape (n, d) with n, d >= 1, got {X.shape}")
    Y = real_array("Y", Y)
    Y = Y[:, None] if Y.ndim == 1 else Y
    if Y.ndim != 2 or len(Y) != len(X) or Y.shape[1] < 1:
        raise ValueError(f"Y must have shape (n,) or (n, c) with c >= 1 and n = {len(X)} rows of X, got {Y.shape}")
    with np.errstate(over="ignore"):
        moments = (np.sum(X**2), np.sum(Y**2), np.sum(np.abs(X.T @ Y)))
    if not np.all(np.isfinite(moments)):
        raise ValueError("X and Y must be small enough that sum X², sum Y² and X^T Y are finite in float64")
    # AGF's scales are rms(x) and rms(y): with all-zero inputs or targets every neuron's utility is 0 for ever
    for name, moment in (("X", moments[0]), ("Y", moments[1])):
        if moment == 0:
            raise ValueError(f"{name} must have a nonzero entry: with all-zero {name} no neuron has utility to learn")
    return X, Y


def _validated(X, Y, a0, w0, activation, support) -> tuple[Network, np.ndarray, np.ndarray]:
    if not (isinstance(activation, str) and activation in ACTIVATIONS):
        raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
    X, Y = _data(X, Y)
    a0 = real_array("a0", a0)
    a0 = a0[:, None] if a0.ndim == 1 else a0
    w0 = real_array("w0", w0, ndim=2)
    if a0.shape != (len(w0), Y.shape[1]) or w0.shape[1] != X.shape[1] or len(w0) < 1:
        raise ValueError(
            f"a0 must have shape (H, c) = (H, {Y.shape[1]}) and w0 (H, d) = (H, {X.shape[1]}) with H >= 1; "
            f"got {a0.shape} and {w0.shape}"
        )
    mask = np.ones_like(w0, dtype=bool) if support is None else _support(support, w0.shape)
    if np.any(w0[~mask] != 0):
        raise ValueError("w0 must vanish outside support")
    norms = neuron_norms(np.hstack([a0, w0]))
    if not np.all((norms > 0) & (norms < 1)):
        raise ValueError(f"initial neuron norms ||(a0_i, w0_i)|| must be in (0, 1), got {norms}")
    return Network(X, Y, activation, mask), a0, w0


def _support(support: object, shape: tuple[int, int]) -> np.ndarray:
    raw = np.asarray(support)
    # booleans are this argument's natural type (real_array refuses them for numeric arguments)
    values = raw if raw.dtype.kind == "b" else real_array("support", support)
    if values.shape != shape or not np.all((values == 0) | (values == 1)):
        raise ValueError(f"support must be an array of booleans (or 0/1) of shape (H, d) = {shape}, got {values!r}")
    return values.astype(bool)


def _check_collapse_scale(net: Network, collapse_tol: float) -> None:
    """Activated neurons enter at norm 1 and fitted ones have norms ~ N (``Network.neuron_scale``): a collapse_tol
    near N would count the others as collapsed while an entering neuron overshoots (they then cycle)."""
    bound = net.neuron_scale / 10
    if bound and collapse_tol >= bound:
        raise ValueError(
            f"collapse_tol must be in (0, N/10) = (0, {bound:.3g}) for these data, got {collapse_tol!r}: a neuron that "
            f"fits y has norm N = (rms y / rms x^(kappa-1))^(1/kappa) = {10 * bound:.3g}; lower collapse_tol or "
            "rescale Y"
        )


def _warn_if_not_small(net: Network, a0: np.ndarray, w0: np.ndarray, collapse_tol: float, alpha: float) -> None:
    floor = np.sqrt(net.norm_floors(a0, w0))
    large = np.flatnonzero(floor > collapse_tol)
    if large.size:
        order = "1/log(1/alpha)" if net.kappa == 2 else f"alpha^{net.kappa - 2}"
        size = 1 / np.log(1 / alpha) if net.kappa == 2 else alpha ** (net.kappa - 2)
        warnings.warn(
            f"neurons {large.tolist()} keep a norm >= {floor.max():.3g} > collapse_tol = {collapse_tol:g} (conserved "
            f"imbalance): collapse is judged relative to that floor, and jump times carry errors of order "
            f"{order} = {size:.2g}",
            InitializationScaleWarning,
            stacklevel=3,
        )


def agf(
    X: object,
    Y: object,
    a0: object,
    w0: object,
    alpha: float,
    *,
    activation: str = "linear",
    eta: float = 1.0,
    support: object | None = None,
    max_jumps: int = 100,
    gtol: float = 1e-12,
    collapse_tol: float = 1e-3,
    horizon: float = 1e4,
    max_cost_time: float = 1e9,
    max_evaluations: int = 4 * 10**4,
) -> AGFResult:
    """Alternating gradient flow (Kunin et al. 2025, Algorithm 1 with the clarified rules of spec §3).

    Network f(x) = sum_i a_i sigma(w_i^T x); the module docstring gives the conventions (thresholds, rescaled time,
    loss). Cost minimization runs GF (BDF) until every active neuron's utility gradient on its sphere,
    ``|grad_i L| / |theta_i|^(kappa-1)``, is at most ``gtol`` times rms(x)^{kappa-1} rms(y), the data's utility
    scale (so that the criterion scales with the data and float64 round-off cannot stall it); a neuron collapses
    when its norm² comes within ``collapse_tol``² of the floor its conserved imbalance allows and the other
    neurons' residual gives it utility <= 0 (``cost_minimization``). An :class:`InitializationScaleWarning` says
    when that floor exceeds ``collapse_tol``. Each budget is checked with an error or a ``halted`` reason that
    names it.

    Arguments:
        X: the inputs, shape (n, d) with n, d >= 1, finite and not all zero.
        Y: the targets, shape (n,) or (n, c) with c >= 1, finite and not all zero.
        a0: the neurons' initial output weights, shape (H, c) (or (H,) for c = 1), H >= 1.
        w0: the neurons' initial input weights, shape (H, d); each neuron's norm ||(a0_i, w0_i)|| in (0, 1).
        alpha: the initialization scale in (0, 1), which sets the rescaled time.
        activation: ``"linear"`` (kappa = 2, exact log-coordinate utility phase) or ``"quadratic"`` (kappa = 3).
        eta: the learning rate of the time map (> 0).
        support: None, or (H, d) booleans (or 0/1) restricting the inputs each neuron sees (identity: diagonal
            linear network); ``w0`` must vanish outside it.
        max_jumps: the budget of jumps (integer >= 1); reaching it halts the loop (``halted``).
        gtol: the stationarity tolerance of cost minimization, relative to the utility scale (> 0).
        collapse_tol: the collapse tolerance, in (0, 1) and below a tenth of the data's neuron scale
            (``Network.neuron_scale``).
        horizon: the budget of each utility phase (> 0), in rescaled time times the utility scale (jump times are
            ~1/scale); a dormant set that does not reach a threshold within it halts the loop (``halted``).
        max_cost_time: the GF time budget of each cost minimization (> 0), times the curvature scale
            (``Network.curvature_scale``).
        max_evaluations: the budget of vector-field evaluations per integration (integer >= 1; kappa > 2 utility
            phase, GF run; the default, 4·10⁴, is about 12 s of BDF with its events on one core, twice the most a
            run in the tests takes).

    Returns:
        The staircase as an :class:`AGFResult`: the jumps (``jumps[0]`` at t = 0 with no active neuron), the
        thresholds, kappa, alpha and why the loop halted.

    Raises:
        TypeError: for an argument of the wrong type (``bool`` refused as a number; ``None``, strings or complex
            values as an array), naming it.
        ValueError: for a value outside its admissible range (naming it): shapes of ``X``, ``Y``, ``a0``, ``w0``
            or ``support`` that do not match, NaN or inf entries, all-zero ``X`` or ``Y``, data too large for
            float64 moments, an unknown ``activation``, ``w0`` nonzero outside ``support``, a neuron norm outside
            (0, 1), or ``collapse_tol`` not below a tenth of the neuron scale.
        BudgetError: (a ``ValueError``) if a cost minimization exceeds ``max_cost_time`` or an integration exceeds
            ``max_evaluations``.
    """
    net, a0, w0 = _validated(X, Y, a0, w0, activation, support)
    alpha, eta, horizon = init_scale(alpha), positive("eta", eta), positive("horizon", horizon)
    gtol, max_cost_time = positive("gtol", gtol), positive("max_cost_time", max_cost_time)
    max_jumps, collapse_tol = count("max_jumps", max_jumps), open_unit("collapse_tol", collapse_tol)
    budget_evaluations = count("max_evaluations", max_evaluations)
    _check_collapse_scale(net, collapse_tol)
    _warn_if_not_small(net, a0, w0, collapse_tol, alpha)
    # the data set the units: utility (gradients on the sphere, utility-phase times) and curvature (GF times)
    unit = net.utility_scale or 1.0
    tolerance, budget = gtol * unit, (max_cost_time / (net.curvature_scale or 1.0), budget_evaluations)
    c = a0.shape[1]
    theta0 = np.hstack([a0, w0])
    dormant = (
        LogCoordinateDormant(net, theta0, alpha, eta)
        if activation == "linear"
        else SphereDormant(net, theta0, alpha, eta, budget_evaluations)
    )
    c_i = thresholds(neuron_norms(theta0), net.kappa)
    a, w = np.zeros_like(a0), np.zeros_like(w0)
    active: list[int] = []
    # active neurons keep the accumulated utility they had when they crossed their threshold
    S = np.zeros(len(c_i))

    def record(time: float, hits: list[int], collapsed: dict) -> Jump:
        dormant.accumulated(S)
        loss = net.loss(a, w)
        return Jump(
            time, tuple(active), tuple(sorted(hits)), tuple(sorted(collapsed)), a.copy(), w.copy(), loss, S.copy()
        )

    jumps = [record(0.0, [], {})]
    halted = "max_jumps reached"
    for _ in range(max_jumps):
        if not len(dormant):
            halted = "all neurons active"
            break
        r = net.residual(a, w)
        if np.linalg.norm(r) <= gtol * np.linalg.norm(net.Y):
            halted = "no dormant neuron reaches its threshold (zero utility: the active neurons fit Y to gtol)"
            break
        step, hits = dormant.maximize(r, horizon / unit)
        if not hits:
            halted = (
                "no dormant neuron reaches its threshold (zero or decaying utility)"
                if step == np.inf
                else f"no dormant neuron reaches its threshold within horizon = {horizon:g} (rescaled time "
                f"{horizon / unit:.3g}) after the last jump: raise horizon"
            )
            break
        dormant.accumulated(S)
        for i in hits:
            theta = dormant.activate(i)
            a[i], w[i] = theta[:c], theta[c:]
        active = sorted([*active, *hits])
        collapsed = minimize_cost(net, a, w, active, tolerance, collapse_tol, budget)
        r = net.residual(a, w)
        for j, direction in collapsed.items():
            dormant.make_dormant(j, direction, r)
        jumps.append(record(jumps[-1].time + step, hits, collapsed))
    return AGFResult(tuple(jumps), c_i, net.kappa, alpha, halted)
