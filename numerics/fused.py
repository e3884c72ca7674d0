"""Fused float64 closed-form kernels (issue 25): one compiled loop over (time, start, unit) per model.

The NumPy path of ``closed_form_numpy`` evaluates a closed form as ~16 passes over (T, batch, p) arrays (the
clocks' clip to the normal range, the atoms, one product per coefficient, the signed sums, the magnitude bounds
and finiteness checks). Here the *same* SymPy expressions (the kernel's atoms after ``factored_radicands``, its
products and signed sums: ``closed_form.Decomposed``) are printed as Python source of one loop, compiled by numba's
``njit`` (serial: the machine's cores are shared), that writes each output value once and records, on the way,
the starts with a clipped positive clock, the non-finite outputs and the (time, start) pairs where a clock barely
moved (there the caller applies the increment form, in NumPy, to those pairs only).

The Riccati clocks themselves (the engine's stable form, one value per time and start, or per unit) are still
evaluated by NumPy (``riccati.riccati_at``) into the clock outputs before the loop reads them: NumPy's vectorized
``exp``/``expm1`` measured several times faster than numba's scalar calls of libm's (in the loop they made the
kernel ~4x slower than the whole NumPy path).

The source is generated when the closed form is compiled (``Decomposed.fused``), so it lives in the disk cache
with it, under the cache's trust rules. ``fused_kernel`` writes it there as a module (the cache's ``fused``
directory, through ``cache.private_file`` and ``cache.write_private``) and compiles it with numba's ``cache=True``:
numba keeps the machine code in the ``__pycache__`` beside the module (validated against the module's hash), so
only the first process compiles (about a second per model); a later one loads it (importing numba and loading the
code: ~0.5 s of CPU once per process). Without a trusted disk cache (off, or a directory or file there that the
trust check refuses, with a ``CacheWarning``) the kernel is compiled in memory in each process; with
``$NUMBA_CACHE_DIR`` set, numba keeps its cache there instead, under numba's own rules. One kernel per model (all
arrays are passed C-contiguous float64, so there is one signature). A call with fewer than ``FUSED_MIN_VALUES``
output values takes the NumPy path (that import would cost it more than the kernel saves) unless
``$LAYERWISE_LINEAR_FLOWS_NUMBA`` is ``1`` (or ``on``, ``true``, ``yes``, ``always``). With the variable set to
``0`` (or ``off``, ``false``, ``no``), or without numba, ``closed_form_numpy`` takes the NumPy path; so does a
long double evaluation (``_in_long_double``) and the perturbed one of ``_sensitive_to_other_clocks``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .cache import PRIVATE_DIRECTORY, private_file, write_private

if TYPE_CHECKING:
    import sympy as sp

__all__ = [
    "FUSED_ENTRY",
    "FUSED_ENV",
    "FUSED_MIN_VALUES",
    "FusedClocks",
    "fused_enabled",
    "fused_kernel",
    "fused_source",
]

FUSED_ENV = "LAYERWISE_LINEAR_FLOWS_NUMBA"
"""Environment variable: ``0``, ``off``, ``false`` or ``no`` forces the NumPy path."""
DISABLED = ("0", "off", "false", "no")
FORCED = ("1", "on", "true", "yes", "always")
"""Values of ``$LAYERWISE_LINEAR_FLOWS_NUMBA`` that take the fused kernel whatever the size of the call."""
FUSED_MIN_VALUES = 1 << 22
"""Below this many output values (about 4·10⁶: e.g. 10³ times × 10³ starts × p = 4) a call takes the NumPy path
unless forced (``FORCED``): importing numba and loading a kernel costs about 0.5 s once per process, more than the
kernel can save on a smaller call, so a short script or a fresh process's first call does not pay it."""
TINY, HUGE = float(np.finfo(float).tiny), float(np.finfo(float).max)
"""``closed_form.GAMMA_RANGE``: a positive clock is clipped to it (and its start flagged)."""


def fused_enabled(values: int | None = None) -> bool:
    """Whether ``closed_form_numpy`` uses the fused kernels for a call writing ``values`` output values.

    Arguments:
        values: the number of output values of the call; ``None``: whether the kernels are usable at all.

    Returns:
        False if ``$LAYERWISE_LINEAR_FLOWS_NUMBA`` disables them (``DISABLED``) or numba is not importable; else
        True if the variable forces them (``FORCED``), ``values`` is None or at least ``FUSED_MIN_VALUES``. The
        variable is read at each call, so that a test can compare both paths.
    """
    setting = (os.environ.get(FUSED_ENV) or "").strip().lower()
    if setting in DISABLED or importlib.util.find_spec("numba") is None:
        return False
    return setting in FORCED or values is None or values >= FUSED_MIN_VALUES


@dataclass(frozen=True)
class FusedClocks:
    """What the generator needs to know of a closed form's Riccati clocks: their names in order, those that are
    positive (clipped), per unit (else one value per start), and those with an initial rate (the increment form
    is used where they barely moved)."""

    names: tuple[str, ...]
    positive: frozenset[str]
    per_unit: frozenset[str]
    rated: frozenset[str]


def fused_source(
    atoms: Sequence[sp.Expr],
    products: Sequence[int],
    terms: Mapping[str, Sequence[tuple[int, int]]],
    clocks: FusedClocks,
    along: frozenset[str],
    t: sp.Symbol,
) -> str:
    """The source of the fused kernel ``kernel(times, R, E, C, clipped, nonfinite, near, *outputs, *clock_outputs)``.

    Arguments:
        atoms: the kernel's atoms (SymPy, in the clocks, ``t`` and time-independent symbols: the extras).
        products: each product's atom index (its coefficient is read from ``C[m, i, j]``).
        terms: each output's signed products (``Decomposed.terms``), in output order.
        clocks: the Riccati clocks (``FusedClocks``): their values are read from (and, where clipped, written back
            to) ``clock_outputs``, their starts from ``R[clock, i, j]``.
        along: the outputs with one value per start (width 1; computed at unit 0 only).
        t: the time symbol.

    Returns:
        Python source defining ``kernel`` and ``EXTRAS``, the names of the extras read from ``E[e, i, j]``.

    Raises:
        ValueError: a symbol of the atoms starts with ``_`` (the kernel's own names do).
    """
    from sympy.printing.pycode import PythonCodePrinter

    printer = PythonCodePrinter({"strict": False})
    names = {str(s): s for a in atoms for s in a.free_symbols}
    extras = sorted(n for n in names if n not in clocks.names and n != str(t))
    unknown = {n for n in names if n.startswith("_")}
    if unknown:
        raise ValueError(f"atoms: symbols {sorted(unknown)} clash with the kernel's own names")
    row_level = {str(t), *(n for n in clocks.names if n not in clocks.per_unit)}

    def is_row(expr: sp.Expr) -> bool:
        return {str(s) for s in expr.free_symbols} <= row_level

    lines = ["    for _n in range(_T):", f"        {t} = _times[_n]", "        for _i in range(_rows):"]
    unit_lines = ["            for _j in range(_width):"]
    for e, name in enumerate(extras):
        unit_lines.append(f"                {name} = E[{e}, _i, _j]")
    for c, name in enumerate(clocks.names):
        shared = name not in clocks.per_unit
        indent, j = ("            ", "0") if shared else ("                ", "_j")
        body = lines if shared else unit_lines
        start = f"_y0_{c}"
        body += [f"{indent}{start} = R[{c}, _i, {j}]", f"{indent}{name} = clock_{c}[_n, _i, {j}]"]
        if name in clocks.positive:  # NaN fails both comparisons: flagged, and stays NaN (as np.clip leaves it)
            body += [
                f"{indent}if not ({name} > {TINY!r} and {name} < {HUGE!r}):",
                f"{indent}    clipped[_i] = True",
                f"{indent}    if {name} < {TINY!r}:",
                f"{indent}        {name} = {TINY!r}",
                f"{indent}    elif {name} > {HUGE!r}:",
                f"{indent}        {name} = {HUGE!r}",
                f"{indent}    clock_{c}[_n, _i, {j}] = {name}",
            ]
        if name in clocks.rated:
            body.append(f"{indent}if abs({name} - {start}) < 0.5 * abs({start}):")
            body.append(f"{indent}    near[_n, _i] = True")
    row_atoms = [a for a in range(len(atoms)) if is_row(atoms[a])]
    unit_atoms = [a for a in range(len(atoms)) if a not in row_atoms]
    lines += _cse_many([atoms[a] for a in row_atoms], [f"_B{a}" for a in row_atoms], "_r", printer, "            ")
    unit_lines += _cse_many(
        [atoms[a] for a in unit_atoms], [f"_B{a}" for a in unit_atoms], "_u", printer, "                "
    )
    lines += unit_lines
    for o, (name, signed) in enumerate(terms.items()):
        indent = "                    " if name in along else "                "
        if name in along:
            lines.append("                if _j == 0:")
        value = " ".join(
            f"{'+' if sign > 0 else '-'} C[{m}, _i, _j] * _B{products[m]}" for m, sign in signed
        ).removeprefix("+ ")
        j = "0" if name in along else "_j"
        lines += [
            f"{indent}_v = {value}",
            f"{indent}out_{o}[_n, _i, {j}] = _v",
            f"{indent}if not math.isfinite(_v):",
            f"{indent}    nonfinite[{o}, _i, {j}] = True",
        ]
    outputs = ", ".join(f"out_{o}" for o in range(len(terms)))
    clock_outputs = ", ".join(f"clock_{c}" for c in range(len(clocks.names)))
    header = [
        "import math",
        "",
        f"EXTRAS = {tuple(extras)!r}",
        "",
        "",
        f"def kernel(_times, R, E, C, clipped, nonfinite, near, {outputs}, {clock_outputs}):",
        "    _T = _times.shape[0]",
        "    _rows = C.shape[1]",
        "    _width = C.shape[2]",
    ]
    return "\n".join([*header, *lines, ""])


def _cse_lines(expr: sp.Expr, target: str, prefix: str, printer: object, indent: str) -> list[str]:
    return _cse_many([expr], [target], prefix, printer, indent)


def _cse_many(exprs: Sequence[sp.Expr], targets: Sequence[str], prefix: str, printer: object, indent: str) -> list[str]:
    """Assignments of ``exprs`` to ``targets`` with their common subexpressions computed once (``sympy.cse``, as
    ``lambdify(cse=True)`` does on the NumPy path)."""
    import sympy as sp

    if not exprs:
        return []
    shared, reduced = sp.cse(list(exprs), symbols=sp.numbered_symbols(f"{prefix}{len(targets)}_"))
    doprint = printer.doprint  # type: ignore[attr-defined]
    return [
        *(f"{indent}{s} = {doprint(e)}" for s, e in shared),
        *(f"{indent}{target} = {doprint(e)}" for target, e in zip(targets, reduced, strict=True)),
    ]


_KERNELS: dict[str, tuple[Callable[..., None], tuple[str, ...]]] = {}
FUSED_ENTRY = "fused"
"""The disk cache's directory (beside the models' entries) of the kernels' modules and numba's cache of them."""


def fused_kernel(source: str) -> tuple[Callable[..., None], tuple[str, ...]]:
    """The compiled kernel of ``source`` (``fused_source``) and its extras' names, once per process and source.

    With a trusted disk cache (``numerics.cache``), ``source`` is written there as a module (``kernel_<hash>.py``
    in the cache's ``fused`` directory) and compiled with numba's ``cache=True``, which keeps the machine code in
    the ``__pycache__`` beside it: a later process loads it instead of compiling (~1 s per model). Without one
    (disk cache off, or a directory or file there that the trust check refuses: a ``CacheWarning``), the kernel
    is compiled in memory on its first call.

    Arguments:
        source: the kernel's source, as ``fused_source`` generated it.

    Returns:
        The numba dispatcher of ``kernel`` and the names of its extras (``EXTRAS``).
    """
    key = hashlib.sha256(source.encode()).hexdigest()
    if key not in _KERNELS:
        import numba

        module = _module_file(source, f"kernel_{key[:16]}")
        filename = str(module) if module is not None else f"<fused kernel {key[:12]}>"
        # a module in sys.modules: numba's cached code refers to its globals by the module's name
        generated = types.ModuleType(f"{__name__}.kernel_{key[:16]}")
        generated.__file__ = filename
        exec(compile(source, filename, "exec"), generated.__dict__)  # generated from SymPy (= the cached file)
        sys.modules[generated.__name__] = generated
        # error_model="numpy": a division by zero gives inf or NaN (then flagged), as on the NumPy path, instead of
        # raising ZeroDivisionError; cache=True needs the source file (numba validates its cache by its hash)
        jit = numba.njit(nogil=True, error_model="numpy", cache=module is not None)
        _KERNELS[key] = (jit(generated.kernel), tuple(generated.EXTRAS))
    return _KERNELS[key]


def _module_file(source: str, stem: str) -> Path | None:
    """The cached module ``<stem>.py`` holding ``source`` (written if missing or different), its ``__pycache__``
    made for numba; None without a trusted disk cache. Numba's index and machine code in that ``__pycache__`` are
    pickles it loads, so each of them must pass the trust check as the module must."""
    path = private_file(FUSED_ENTRY, f"{stem}.py")
    if path is None or private_file(FUSED_ENTRY, "__pycache__") is None:
        return None
    pycache = path.parent / "__pycache__"
    compiled = sorted(pycache.glob(f"{stem}.*")) if pycache.is_dir() else []
    if not all(private_file(FUSED_ENTRY, f"__pycache__/{p.name}") for p in compiled):
        return None
    data = source.encode()
    try:
        current = path.read_bytes()
    except OSError:
        current = None
    if current != data and not write_private(path, data):
        return None
    try:
        pycache.mkdir(mode=PRIVATE_DIRECTORY, exist_ok=True)
    except OSError:
        return None
    return path
