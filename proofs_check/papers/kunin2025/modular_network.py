"""The quadratic network on modular addition as a data set, its plateau levels, and neurons aligned to one frequency
(Kunin et al. 2025 §5, Theorem 5.2 and eq. 9; spec agf-kunin2025.md §4d; the exact statements are derived in
``proofs_check.papers.kunin2025.modular_harmonics``).

Data: for (a, b) in Z_p², input (rho_a x, rho_b x) (length 2p), target rho_{a+b} x (length p), with (rho_a x)_j =
x_{j-a}; the network is ``two_layer.Network`` with the quadratic activation: neuron i has hidden weights (u_i, v_i)
and output weights w_i. Loss (1/2p²) sum_{a,b} ||y - f||² (the package's convention; [C]'s mean-MSE is 2/p times it).
Fourier convention x^[k] = sum_j x_j e^{-2 pi i j k / p} (``numpy.fft``); frequencies k = 1..floor(p/2), with the
two-sided power P_k = 2|x^[k]|²/p for k < p/2 and, for even p (the authors use p = 20), the one-sided power
P_{p/2} = |x^[p/2]|²/p of the self-conjugate frequency p/2 (x^[p/2] is real, its part of x is (x^[p/2]/p)(-1)^j), so
that sum_k P_k = ||x||² for a mean-zero template (Parseval) for every p.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from numerics.validation import finite_array
from proofs_check.papers.kunin2025.modular import _shifts, _template

__all__ = [
    "cyclic_neurons",
    "fit_neurons",
    "frequency_component",
    "frequency_order",
    "frequency_powers",
    "modular_data",
    "plateau_levels",
    "span_basis",
    "span_fraction",
    "span_neurons",
]


def modular_data(x: object) -> tuple[np.ndarray, np.ndarray]:
    """(X: p² x 2p, Y: p² x p), row a p + b for the pair (a, b)."""
    x = _template(x)
    p = len(x)
    shifts = _shifts(x)
    a, b = np.divmod(np.arange(p * p), p)
    return np.hstack([shifts[a], shifts[b]]), shifts[(a + b) % p]


def frequency_powers(x: object) -> np.ndarray:
    """P_k for k = 1..floor(p/2) (index k - 1): 2|x^[k]|²/p, and |x^[p/2]|²/p for the self-conjugate frequency p/2 of
    an even p (frequencies k and p - k are one there, so its energy is counted once)."""
    x = _template(x)
    p = len(x)
    powers = 2 * np.abs(np.fft.fft(x)[1 : p // 2 + 1]) ** 2 / p
    if p % 2 == 0:
        powers[-1] /= 2
    return powers


def frequency_order(x: object) -> np.ndarray:
    """Frequencies k in the order they are learned: decreasing |x^[k]| (spec §4d)."""
    return np.argsort(-frequency_powers(x), kind="stable") + 1


def plateau_levels(x: object) -> np.ndarray:
    """l_K = ½ (||x||² - sum of the K largest P_k), K = 0..floor(p/2): the loss with the K dominant frequencies fully
    fit (``fit_neurons`` reaches each level; even p included)."""
    powers = np.sort(frequency_powers(x))[::-1]
    x = _template(x)
    # the last level is 0 up to round-off: clipped so that the levels are losses (>= 0)
    return np.maximum(0.5 * (np.sum(x**2) - np.concatenate([[0.0], np.cumsum(powers)])), 0.0)


def span_basis(p: int, k: int) -> np.ndarray:
    """The p x 2 basis (cos omega j, sin omega j), omega = 2 pi k / p, of the frequency-k span."""
    j = np.arange(p)
    return np.column_stack([np.cos(2 * np.pi * k * j / p), np.sin(2 * np.pi * k * j / p)])


def span_neurons(x: object, k: int, U: ArrayLike, V: ArrayLike, W: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Neurons aligned to frequency k with <u, rho_a x> = Re(U e^{i omega a}), <v, rho_b x> = Re(V e^{i omega b}),
    w_c = Re(W e^{i omega c}) (complex arrays U, V, W, one entry per neuron;
    proofs_check.papers.kunin2025.modular_harmonics).
    Returns (output weights: m x p, hidden weights (u, v): m x 2p)."""
    x = _template(x)
    p = len(x)
    U, V, W = (finite_array(name, np.real(z), ndim=1) + 1j * np.imag(z) for name, z in (("U", U), ("V", V), ("W", W)))
    conj_hat = np.conj(np.fft.fft(x)[k])
    if abs(conj_hat) < 1e-12 * np.linalg.norm(x):
        raise ValueError(f"x^[{k}] = 0: no neuron of frequency {k} sees the input")
    phase = np.exp(2j * np.pi * k * np.arange(p) / p)
    # u_j = Re(mu e^{i omega j}) gives <u, rho_a x> = Re(mu conj(x^[k]) e^{i omega a}): mu = U / conj(x^[k])
    u, v = ((np.asarray(Z)[:, None] / conj_hat * phase).real for Z in (U, V))
    return (np.asarray(W)[:, None] * phase).real, np.hstack([u, v])


def cyclic_neurons(x: object, k: int, n: int = 6, s: int = 1, t: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """The n neurons U_j = e^{2 pi i s j/n}, V_j = e^{2 pi i t j/n}, W_j = (2 T / n) U_j V_j with T = 2 x^[k]/p: the
    wanted harmonic sum_j W_j conj(U_j V_j)/4 equals T/2
    (``proofs_check.papers.kunin2025.modular_harmonics.harmonics``), and for
    (s, t, n) = (1, 4, 6) every unwanted harmonic cancels (``cyclic_fit``): frequency k is fit exactly."""
    x = _template(x)
    p = len(x)
    if 2 * k == p:
        raise ValueError(f"k = p/2 = {k} is self-conjugate: its harmonic algebra differs, use fit_neurons")
    j = np.arange(n)
    U, V = np.exp(2j * np.pi * s * j / n), np.exp(2j * np.pi * t * j / n)
    T = 2 * np.fft.fft(x)[k] / p
    return span_neurons(x, k, U, V, 2 * T / n * U * V)


def fit_neurons(x: object, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Neurons that fit frequency k exactly (their outputs sum to the frequency-k part of every target): the six
    ``cyclic_neurons`` for k < p/2; for the self-conjugate k = p/2 of an even p, two neurons (U, V, W) = (1, 1, T/4)
    and (1, -1, -T/4) with T = x^[p/2]/p (``span_neurons``): there <u, rho_a x> = (-1)^a, so the two squares
    ((-1)^a ± (-1)^b)² = 2 ± 2(-1)^(a+b) lose their constant part in the difference, which leaves
    T (-1)^(a+b+c), the target's frequency-p/2 part (x^[p/2]/p)(-1)^(c-a-b). A frequency absent from the template
    (x^[k] = 0 to round-off) needs no neuron. Returns (outputs, hidden) as ``span_neurons``."""
    x = _template(x)
    p = len(x)
    if not (isinstance(k, (int, np.integer)) and 1 <= k <= p // 2):
        raise ValueError(f"k must be an integer frequency in [1, {p // 2}], got {k!r}")
    if abs(np.fft.fft(x)[k]) < 1e-12 * np.linalg.norm(x) * p:
        return np.zeros((0, p)), np.zeros((0, 2 * p))  # nothing to fit: no neuron
    if 2 * k != p:
        return cyclic_neurons(x, int(k))
    T = np.fft.fft(x)[k].real / p
    return span_neurons(x, int(k), [1.0, 1.0], [1.0, -1.0], [T / 4, -T / 4])


def span_fraction(x: object, k: int, m: int, starts: int = 20, seed: int = 0) -> float:
    """The smallest fraction of frequency k's energy left unfit, (L - l_{not k}) / (½ P_k), that L-BFGS finds over m
    neurons aligned to frequency k (each of u, v, w in the span of ``span_basis``; ``starts`` random starts): the
    real network's loss, independent of the harmonic algebra. An infimum that is not attained shows up as a small
    positive value reached with growing weights."""
    from scipy.optimize import minimize

    from numerics.alternating.two_layer import Network

    x = _template(x)
    p = len(x)
    if not (isinstance(m, int) and 1 <= m <= 12 and isinstance(starts, int) and starts >= 1):
        raise ValueError(f"need integers 1 <= m <= 12 and starts >= 1, got m={m!r}, starts={starts!r}")
    X, Y = modular_data(x)
    net = Network(X, Y, "quadratic", np.ones((m, 2 * p), dtype=bool))
    B = span_basis(p, k)
    power = frequency_powers(x)[k - 1]
    floor = 0.5 * (np.sum(x**2) - power)

    def weights(c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        c = c.reshape(m, 3, 2)
        return c[:, 0] @ B.T, np.hstack([c[:, 1] @ B.T, c[:, 2] @ B.T])

    def objective(c: np.ndarray) -> tuple[float, np.ndarray]:
        out, hidden = weights(c)
        grad_out, grad_hidden = net.gradient(out, hidden, np.arange(m))
        grad = np.stack([grad_out @ B, grad_hidden[:, :p] @ B, grad_hidden[:, p:] @ B], axis=1)
        return (net.loss(out, hidden) - floor) / (0.5 * power), grad.ravel() / (0.5 * power)

    rng = np.random.default_rng(seed)
    scale = (1 / np.abs(np.fft.fft(x)[k])) ** (2 / 3)
    best = np.inf
    for _ in range(starts):
        result = minimize(
            objective,
            scale * rng.normal(size=6 * m),
            jac=True,
            method="L-BFGS-B",
            options={"maxiter": 5000, "gtol": 1e-14, "ftol": 1e-16},
        )
        best = min(best, float(result.fun))
    return best


def frequency_component(x: object, k: int) -> np.ndarray:
    """The template's frequency-k part (frequencies ±k of x^ kept, the rest zeroed): Theorem 5.1's U* of this
    template is the maximal utility of a frequency-k neuron against a residual whose frequency-k part is x's."""
    x = _template(x)
    p = len(x)
    if not (isinstance(k, (int, np.integer)) and 1 <= k <= p // 2):
        raise ValueError(f"k must be an integer frequency in [1, {p // 2}], got {k!r}")
    spectrum = np.fft.fft(x)
    mask = np.zeros(p, dtype=bool)
    mask[[k, p - k]] = True
    return np.fft.ifft(np.where(mask, spectrum, 0)).real
