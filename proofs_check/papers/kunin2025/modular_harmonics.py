r"""Theorem 5.2 of Kunin et al. 2025 (AGF, modular addition; spec agf-kunin2025.md §4d) by harmonic analysis.

Setting: template :math:`x \in \mathbb R^p` (mean zero), input :math:`(\rho_ax, \rho_bx)`, target
:math:`y(a, b) = \rho_{a+b}x`, quadratic neurons :math:`f(a, b) = \sum_i w_i(\langle u_i, \rho_ax\rangle +
\langle v_i, \rho_bx\rangle)^2`, loss :math:`\mathcal L = \tfrac12\,\mathrm{mean}_{a,b}\|y(a, b) - f(a, b)\|^2` (the
package's convention; the authors' mean-MSE is :math:`2\mathcal L/p`).

Neurons *aligned to frequency k* have :math:`u_i, v_i, w_i` in the span of :math:`\cos(\omega j), \sin(\omega j)`,
:math:`\omega = 2\pi k/p`. Then :math:`\langle u_i, \rho_ax\rangle = \mathrm{Re}(U_ie^{i\omega a})` with
:math:`U_i = \mu_i\overline{\hat x_k}` (:math:`u_{i,j} = \mathrm{Re}(\mu_ie^{i\omega j})`), likewise :math:`V_i`,
:math:`w_{i,c} = \mathrm{Re}(W_ie^{i\omega c})`, and the target's frequency-k part is
:math:`y_k(a, b)_c = \mathrm{Re}(Te^{i\omega(c - a - b)})`, :math:`T = 2\hat x_k/p`. Every function of (a, b, c)
involved is a Laurent polynomial in :math:`z_a = e^{i\omega a}`, :math:`z_b`, :math:`z_c` whose exponents are at most
4 in size; for a prime p ≥ 5 and 0 < k < p, :math:`mk \not\equiv 0` (mod p) for 0 < |m| ≤ 4, so the mean over
:math:`\mathbb Z_p^3` of such a polynomial is its constant term (characters of distinct frequencies are orthogonal).
The rest of the target (the other frequencies k' ≠ ±k) is :math:`\mathrm{Re}(Re^{i\omega'(c - a - b)})` in
independent variables :math:`z'_a, z'_b, z'_c`. Computed by SymPy:

* ``harmonics``: the coefficients :math:`C_h` of the error :math:`f - y_k` on the nine monomials with
  :math:`z_c^{+1}` (the others are their conjugates): the wanted one :math:`z_a^{-1}z_b^{-1}z_c` and eight unwanted
  (:math:`z_a^{\pm2}`, :math:`z_b^{\pm2}`, the constant, :math:`z_a^{\pm1}z_b^{\mp1}`, :math:`z_az_b`, each times z_c);
* ``loss_identity``: :math:`\mathcal L = \mathcal L_{\neg k} + p\sum_h|C_h|^2` (two neurons, so that the cross terms
  between neurons are included), with :math:`\mathcal L_{\neg k} = \tfrac p2\,\mathrm{ct}(y_{\neg k}^2)` the loss with
  frequency k fully fit: the bound of Theorem 5.2, reached iff every :math:`C_h` vanishes;
* ``single_neuron_fraction``: one neuron, W optimal: the fraction of frequency k's energy captured, as a function of
  :math:`|U|^2, |V|^2` (maximal 1/9, at :math:`|U| = |V|`);
* ``cyclic_fit``: six neurons :math:`U_j = e^{2\pi ij/6}`, :math:`V_j = e^{2\pi i\cdot4j/6}`,
  :math:`W_j \propto U_jV_j` (characters of the cyclic group of order 6 on which every unwanted harmonic is
  non-trivial) make every :math:`C_h` vanish: the bound is reached (exact roots of unity).
"""

from __future__ import annotations

from functools import cache

import sympy as sp

__all__ = [
    "SIX_NEURONS",
    "ct",
    "ct_square",
    "cyclic_fit",
    "harmonics",
    "loss_identity",
    "neuron_output",
    "single_neuron_fraction",
    "target",
]

za, zb, zc = sp.symbols("z_a z_b z_c", nonzero=True)
other = sp.symbols("z'_a z'_b z'_c", nonzero=True)
p = sp.Symbol("p", positive=True)
u2, v2 = sp.symbols("u2 v2", positive=True)
"""|U|², |V|² of a single neuron."""
VARIABLES = (za, zb, zc, *other)
SIX_NEURONS = ((1, 4), 6)
"""(U, V) = (e^{2 pi i s j / n}, e^{2 pi i t j / n}), j = 0..n-1, with (s, t) = (1, 4) and n = 6."""


def complex_symbol(name: str) -> tuple[sp.Expr, sp.Expr]:
    """(C, conj C) for C = C_r + i C_i with real symbols C_r, C_i."""
    real, imag = sp.symbols(f"{name}_r {name}_i", real=True)
    return real + sp.I * imag, real - sp.I * imag


def _real_part(C: tuple[sp.Expr, sp.Expr], monomial: sp.Expr) -> sp.Expr:
    """Re(C m) for |m| = 1: (C m + conj(C) / m) / 2."""
    return (C[0] * monomial + C[1] / monomial) / 2


def neuron_output(U: tuple, V: tuple, W: tuple) -> sp.Expr:
    """w_c (<u, rho_a x> + <v, rho_b x>)² of a neuron aligned to frequency k, as a Laurent polynomial."""
    return sp.expand(_real_part(W, zc) * (_real_part(U, za) + _real_part(V, zb)) ** 2)


def target(T: tuple, variables: tuple = (za, zb, zc)) -> sp.Expr:
    """Re(T e^{i omega (c - a - b)}): one frequency of y(a, b)_c = x_{c - a - b}."""
    a, b, c = variables
    return _real_part(T, c / (a * b))


def _exponents(term: sp.Expr) -> tuple[int, ...]:
    powers = term.as_powers_dict()
    return tuple(int(powers.get(z, 0)) for z in VARIABLES)


def ct(expr: sp.Expr) -> sp.Expr:
    """The constant term of a Laurent polynomial in the z's: its mean over Z_p^3 (module docstring)."""
    return sp.Add(*(t for t in sp.Add.make_args(sp.expand(expr)) if not any(_exponents(t))))


def ct_square(expr: sp.Expr) -> sp.Expr:
    """ct(expr²) without expanding the square: the sum over monomials m of coefficient(m) coefficient(1/m)."""
    coefficients = _coefficients(expr)
    pairs = (c * coefficients.get(tuple(-k for k in key), sp.S.Zero) for key, c in coefficients.items())
    return sp.expand(sp.Add(*pairs))


def _coefficients(expr: sp.Expr) -> dict[tuple[int, ...], sp.Expr]:
    out: dict[tuple[int, ...], sp.Expr] = {}
    for term in sp.Add.make_args(sp.expand(expr)):
        powers = _exponents(term)
        monomial = sp.Mul(*(z**k for z, k in zip(VARIABLES, powers, strict=True)))
        out[powers] = out.get(powers, sp.S.Zero) + sp.cancel(term / monomial)
    return out


@cache
def harmonics(neurons: int = 1) -> dict[tuple[int, int], sp.Expr]:
    """{(exponent of z_a, of z_b): C_h} of f - y_k (z_c exponent +1) for ``neurons`` neurons (U_j, V_j, W_j), and
    the target T."""
    f = sum(
        neuron_output(complex_symbol(f"U{j}"), complex_symbol(f"V{j}"), complex_symbol(f"W{j}")) for j in range(neurons)
    )
    error = f - target(complex_symbol("T"))
    return {(key[0], key[1]): sp.expand(c) for key, c in _coefficients(error).items() if key[2] == 1}


def _modulus_squared(C: sp.Expr) -> sp.Expr:
    return sp.expand(C * C.conjugate())


@cache
def loss_identity() -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    r"""(:math:`\mathcal L`, :math:`\mathcal L_{\neg k}`, :math:`p\sum_h|C_h|^2`) for two neurons aligned to frequency
    k against the whole target :math:`y_k + y_{\neg k}`, each side computed as a constant term."""
    f = sum(neuron_output(complex_symbol(f"U{j}"), complex_symbol(f"V{j}"), complex_symbol(f"W{j}")) for j in range(2))
    y_k, rest = target(complex_symbol("T")), target(complex_symbol("R"), other)
    loss = sp.expand(p / 2 * ct_square(f - y_k - rest))
    bound = sp.expand(p / 2 * ct_square(rest))
    energy = sp.expand(p * sum(_modulus_squared(c) for c in harmonics(2).values()))
    return loss, bound, energy


def _in_moduli(expr: sp.Expr) -> sp.Expr:
    """An expression of U_r, U_i, V_r, V_i through |U|² = u2, |V|² = v2 (ValueError if it is not one)."""
    (Ur, Ui), (Vr, Vi) = (sp.symbols(f"{n}_r {n}_i", real=True) for n in ("U0", "V0"))
    out = sp.expand(sp.expand(expr).subs({Ur**2: u2 - Ui**2}).subs({Vr**2: v2 - Vi**2}))
    out = sp.factor(sp.cancel(out))
    if out.free_symbols & {Ur, Ui, Vr, Vi}:
        raise ValueError(f"not a function of |U|², |V|² alone: {out}")
    return out


@cache
def single_neuron_fraction() -> sp.Expr:
    """The fraction of frequency k's energy one neuron captures with its W optimal: 1 - min_W L_k / L_k(W = 0), as a
    function of u2 = |U|², v2 = |V|² (computed: the W-gradient solved, the minimum substituted)."""
    energy = sum(_modulus_squared(c) for c in harmonics(1).values())
    Wr, Wi = sp.symbols("W0_r W0_i", real=True)
    (optimum,) = [sp.solve([sp.diff(energy, Wr), sp.diff(energy, Wi)], [Wr, Wi], dict=True)[0]]
    at_zero = energy.subs({Wr: 0, Wi: 0})
    return _in_moduli(sp.cancel(1 - energy.subs(optimum) / at_zero))


@cache
def cyclic_fit(s: int = 1, t: int = 4, n: int = 6) -> dict[tuple[int, int], sp.Expr]:
    """{harmonic: C_h} at n neurons U_j = e^{2 pi i s j/n}, V_j = e^{2 pi i t j/n}, W_j = w U_j V_j with the complex w
    solved from the wanted harmonic. For (s, t, n) = (1, 4, 6) (``SIX_NEURONS``) every C_h vanishes."""
    coefficients = harmonics(n)
    w_r, w_i = sp.symbols("w_r w_i", real=True)
    point = {}
    for j in range(n):
        U, V = sp.exp(2 * sp.pi * sp.I * s * j / n), sp.exp(2 * sp.pi * sp.I * t * j / n)
        for name, value in ((f"U{j}", U), (f"V{j}", V), (f"W{j}", (w_r + sp.I * w_i) * U * V)):
            real, imag = sp.symbols(f"{name}_r {name}_i", real=True)
            value = sp.expand_complex(value)
            point[real], point[imag] = sp.re(value), sp.im(value)
    values = {h: sp.expand(sp.expand_complex(c.xreplace(point))) for h, c in coefficients.items()}
    wanted = values[(-1, -1)]
    (solution,) = [sp.solve([sp.re(wanted), sp.im(wanted)], [w_r, w_i], dict=True)[0]]
    return {h: sp.expand(v.xreplace(solution)) for h, v in values.items()}
