"""Algorithm 1 of Kunin et al. 2025 (AGF) for two-layer networks, with the authors' clarified rules (spec §3).

Conventions (spec §1–§2, convention-dependent items):
* threshold = the neuron's norm reaching 1: c_i = -log||theta_i(0)|| (kappa = 2) and
  c_i = (||theta_i(0)||^{2-kappa} - 1)/(kappa - 2) (kappa > 2, as in [C]); activated neurons enter with norm 1;
* accumulated utility S_i = int kappa U_i(theta_bar_i) dt, so eta S_i = c_i at activation;
* rescaled time t~ = eta t / log(1/alpha) (kappa = 2) and eta t alpha^{kappa-2} (kappa > 2);
* loss (1/2n) sum ||y - f||², residual r = y - f.
Rules: the utility phase (``utility_maximization``) runs while S_i <= c_i/eta for all dormant i and is the only phase
that advances time; every neuron at its threshold at the exit time activates (tolerance 1e-9); an active neuron whose
norm falls below ``collapse_tol`` during cost minimization (``cost_minimization``) returns to dormancy at once with
S_j = c_j/eta and keeps its direction; the loop halts when no neuron is dormant or no dormant neuron can reach its
threshold (which includes a zero utility gradient of every dormant neuron).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import finite_array, init_scale, neuron_norms, positive
from .cost_minimization import minimize_cost
from .two_layer import ACTIVATIONS, Network
from .utility_maximization import LogCoordinateDormant, SphereDormant, thresholds

__all__ = ["AGFResult", "Jump", "agf", "gaussian_init"]


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
    if not all(isinstance(k, int) and k >= 1 for k in (H, c, d)):
        raise ValueError(f"H, c, d must be integers >= 1, got {(H, c, d)}")
    rng = np.random.default_rng(seed)
    return rng.normal(size=(H, c)) * alpha / np.sqrt(2 * c), rng.normal(size=(H, d)) * alpha / np.sqrt(2 * d)


def _validated(X, Y, a0, w0, activation, support) -> tuple[Network, np.ndarray, np.ndarray]:
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
    X = finite_array("X", X, ndim=2)
    Y = finite_array("Y", Y)
    Y = Y[:, None] if Y.ndim == 1 else Y
    if Y.ndim != 2 or len(Y) != len(X):
        raise ValueError(f"Y must have shape (n,) or (n, c) with n = {len(X)} rows of X, got {Y.shape}")
    a0 = finite_array("a0", a0)
    a0 = a0[:, None] if a0.ndim == 1 else a0
    w0 = finite_array("w0", w0, ndim=2)
    if a0.shape != (len(w0), Y.shape[1]) or w0.shape[1] != X.shape[1]:
        raise ValueError(
            f"a0 must have shape (H, c) = (H, {Y.shape[1]}) and w0 (H, d) = (H, {X.shape[1]}); "
            f"got {a0.shape} and {w0.shape}"
        )
    mask = np.ones_like(w0, dtype=bool) if support is None else np.asarray(support, dtype=bool)
    if mask.shape != w0.shape:
        raise ValueError(f"support must be a boolean array of shape {w0.shape} (H, d), got {mask.shape}")
    if np.any(w0[~mask] != 0):
        raise ValueError("w0 must vanish outside support")
    norms = neuron_norms(np.hstack([a0, w0]))
    if not np.all((norms > 0) & (norms < 1)):
        raise ValueError(f"initial neuron norms ||(a0_i, w0_i)|| must be in (0, 1), got {norms}")
    return Network(X, Y, activation, mask), a0, w0


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
    gtol: float = 1e-10,
    collapse_tol: float = 1e-3,
    horizon: float = 1e4,
) -> AGFResult:
    """Alternating gradient flow (Kunin et al. 2025, Algorithm 1 with the clarified rules of spec §3).

    Network f(x) = sum_i a_i sigma(w_i^T x) on data X (n x d), Y (n,) or (n x c); neurons start at a0 (H x c),
    w0 (H x d), each of norm in (0, 1); ``alpha`` sets the rescaled time (module docstring for the conventions).
    ``activation`` is "linear" (kappa = 2, exact log-coordinate utility phase) or "quadratic" (kappa = 3).
    ``support`` (H x d booleans) restricts the inputs each neuron sees (identity: diagonal linear network).
    Cost minimization runs GF (LSODA) until ``|grad L| <= gtol``; ``horizon`` bounds each GF and each
    kappa > 2 utility phase (rescaled time). Returns the staircase as an :class:`AGFResult`.
    """
    net, a0, w0 = _validated(X, Y, a0, w0, activation, support)
    alpha, eta = init_scale(alpha), positive("eta", eta)
    positive("horizon", horizon)
    positive("gtol", gtol)
    if not (isinstance(max_jumps, int) and max_jumps >= 1):
        raise ValueError(f"max_jumps must be an integer >= 1, got {max_jumps!r}")
    if not (0 < collapse_tol < 1):
        raise ValueError(f"collapse_tol must be in the open interval (0, 1), got {collapse_tol!r}")
    c = a0.shape[1]
    theta0 = np.hstack([a0, w0])
    dormant_type = LogCoordinateDormant if activation == "linear" else SphereDormant
    dormant = dormant_type(net, theta0, alpha, eta)
    c_i = thresholds(neuron_norms(theta0), net.kappa)
    a, w = np.zeros_like(a0), np.zeros_like(w0)
    active: list[int] = []

    def record(time: float, hits: list[int], collapsed: dict) -> Jump:
        S = c_i / eta
        dormant.accumulated(S)
        loss = net.loss(a, w)
        return Jump(time, tuple(active), tuple(sorted(hits)), tuple(sorted(collapsed)), a.copy(), w.copy(), loss, S)

    jumps = [record(0.0, [], {})]
    halted = "max_jumps reached"
    for _ in range(max_jumps):
        if not len(dormant):
            halted = "all neurons active"
            break
        step, hits = dormant.maximize(net.residual(a, w), horizon)
        if not hits:
            halted = "no dormant neuron reaches its threshold (zero or decaying utility)"
            break
        for i in hits:
            theta = dormant.activate(i)
            a[i], w[i] = theta[:c], theta[c:]
        active = sorted([*active, *hits])
        collapsed = minimize_cost(net, a, w, active, gtol, collapse_tol, horizon)
        r = net.residual(a, w)
        for j, direction in collapsed.items():
            dormant.make_dormant(j, direction, r)
        jumps.append(record(jumps[-1].time + step, hits, collapsed))
    return AGFResult(tuple(jumps), c_i, net.kappa, alpha, halted)
