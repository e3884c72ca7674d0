"""The fused float64 closed-form kernels (``numerics.fused``, issue 25): the same values as the NumPy path on the
same inputs, including the cancellation-prone starts of the other closed-form tests, both against the mpmath
closed form at 50 digits; a kernel generated from a wrong expression is caught by that comparison; and with
``$LAYERWISE_LINEAR_FLOWS_NUMBA=0`` the NumPy path is taken (and is correct)."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from derivations import models
from numerics import cache, fused, trajectory
from numerics import closed_form as cf
from numerics.arithmetic import fp
from numerics.cache import CACHE_ENV

ROOT = Path(__file__).resolve().parents[2]

T = np.linspace(0.0, 10.0, 60)
# (model, params, init): the benchmark's draw, a start whose settled unit cancels (test_closed_form_kernel), a tiny
# start (gamma_+ ~ 1e16), a lazy one (large init, barely moving: the increment form), S < 0 with a tiny init
CANCELLING = {
    "a": np.array([[0.005713699583153018, -0.19326925489657754, 0.00979966796963381, 0.06059405171917764]]),
    "b": np.array([[0.12444184791000423, -0.08720455047441786, 0.011199554499462815, -0.05918779751796691]]),
}
RNG = np.random.default_rng(5)
CASES = [
    (
        "two_layer_scalar",
        {"S": 2.0, "Z": 1.0},
        {"a": 0.1 * RNG.standard_normal((6, 4)), "b": 0.1 * RNG.standard_normal((6, 4))},
    ),
    ("two_layer_scalar", {"S": 2.0, "Z": 1.0}, CANCELLING),
    ("two_layer_scalar", {"S": 1.0, "Z": 1.0}, {"a": np.array([[1e-8]]), "b": np.array([[1e-8]])}),
    ("two_layer_scalar", {"S": 0.5, "Z": 1.0}, {"a": np.array([[1e4, -2e4]]), "b": np.array([[3e4, 1e4]])}),
    ("two_layer_scalar", {"S": -1.0, "Z": 1.0}, {"a": np.array([[1e-8, 2e-8]]), "b": np.array([[3e-8, -1e-8]])}),
    (
        "layerwise_lr_linear",
        {"gamma": 1.0, "eta_u": 1.0, "eta_w": 2.0, "a": 1.0, "b": 1.0},
        {"u": 0.1 * RNG.standard_normal((5, 3)), "w": 0.1 * RNG.standard_normal((5, 3))},
    ),
]
IDS = ["draw", "cancelling", "tiny", "lazy", "negative-S", "layerwise"]


def both_paths(model: str, params: dict, init: dict, monkeypatch: pytest.MonkeyPatch) -> tuple:
    monkeypatch.setenv(fused.FUSED_ENV, "1")
    fast = trajectory(model, T, params, init)
    monkeypatch.setenv(fused.FUSED_ENV, "0")
    plain = trajectory(model, T, params, init)
    monkeypatch.delenv(fused.FUSED_ENV)
    return fast, plain


def relative_to_mpmath(result, model: str, params: dict, init: dict) -> float:
    """The largest error of every state of ``result`` relative to the 50-digit closed form, start by start
    (relative to each unit's largest magnitude over the times)."""
    worst = 0.0
    for row in range(next(iter(init.values())).shape[0]):
        exact = trajectory(model, T, params, {k: v[row] for k, v in init.items()}, dps=50)
        for name in init:
            reference = np.array(exact[name], dtype=float)
            scale = np.max(np.abs(reference), axis=0)
            worst = max(worst, float(np.max(np.abs(result[name][:, row] - reference) / scale)))
    return worst


@pytest.mark.parametrize(("model", "params", "init"), CASES, ids=IDS)
def test_fused_and_numpy_paths_agree_and_match_mpmath(model, params, init, monkeypatch) -> None:
    fast, plain = both_paths(model, params, init, monkeypatch)
    for name in init:
        np.testing.assert_allclose(fast[name], plain[name], rtol=1e-13, atol=0, err_msg=name)
    assert relative_to_mpmath(fast, model, params, init) <= 1e-14
    assert relative_to_mpmath(plain, model, params, init) <= 1e-14


def test_the_fused_kernel_is_the_one_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """With numba enabled the fused kernel runs (a kernel that raises is reached); with the variable at 0 it is
    not, and the NumPy path gives the values."""
    model, params, init = CASES[0]

    def refuse(source: str):
        raise RuntimeError("fused kernel called")

    monkeypatch.setattr(cf, "fused_kernel", refuse)
    monkeypatch.setenv(fused.FUSED_ENV, "1")
    with pytest.raises(RuntimeError, match="fused kernel called"):
        trajectory(model, T, params, init)
    for disabled in ("0", "off"):
        monkeypatch.setenv(fused.FUSED_ENV, disabled)
        assert not fused.fused_enabled()
        assert relative_to_mpmath(trajectory(model, T, params, init), model, params, init) <= 1e-14


def test_a_small_call_takes_the_numpy_path_unless_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Below ``FUSED_MIN_VALUES`` output values the kernel is not reached (numba's import would cost more than it
    saves), at the threshold it is; ``1`` forces it at any size, ``0`` disables it at any size."""
    model, params, init = CASES[0]
    monkeypatch.delenv(fused.FUSED_ENV, raising=False)
    assert not fused.fused_enabled(fused.FUSED_MIN_VALUES - 1)
    assert fused.fused_enabled(fused.FUSED_MIN_VALUES)

    def refuse(source: str):
        raise RuntimeError("fused kernel called")

    monkeypatch.setattr(cf, "fused_kernel", refuse)
    assert relative_to_mpmath(trajectory(model, T, params, init), model, params, init) <= 1e-14
    monkeypatch.setenv(fused.FUSED_ENV, "1")
    assert fused.fused_enabled(1)
    with pytest.raises(RuntimeError, match="fused kernel called"):
        trajectory(model, T, params, init)
    monkeypatch.setenv(fused.FUSED_ENV, "0")
    assert not fused.fused_enabled(fused.FUSED_MIN_VALUES)


def test_without_numba_the_numpy_path_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(fused.FUSED_ENV, raising=False)
    assert fused.fused_enabled()
    real = fused.importlib.util.find_spec
    monkeypatch.setattr(fused.importlib.util, "find_spec", lambda name: None if name == "numba" else real(name))
    assert not fused.fused_enabled()


@pytest.mark.parametrize("flipped", [0, 1])
def test_a_wrong_kernel_is_caught_against_mpmath(flipped: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The source generated from the kernel's atoms with one sign flipped (and only the fused kernel's: the NumPy
    path's atoms are generated apart) gives values that the comparison with the 50-digit closed form refutes."""
    model, params, init = CASES[0]
    generate = cf.fused_source

    def wrong(atoms, products, terms, *rest):
        atoms = [-a if i == flipped else a for i, a in enumerate(atoms)]
        return generate(atoms, products, terms, *rest)

    monkeypatch.setattr(cf, "fused_source", wrong)
    broken = cf._compiled_closed_form(models.get(model), fp)
    right = cf.compiled_closed_form(model)
    assert isinstance(broken, cf.CompiledClosedForm)
    assert broken.float64_kernel.fused != right.float64_kernel.fused
    monkeypatch.setenv(fused.FUSED_ENV, "1")
    env = {"a_0": init["a"], "b_0": init["b"], **params}
    states = {**cf.closed_form_numpy(broken, env, T).states}
    assert relative_to_mpmath(states, model, params, init) > 1e-3
    states = {**cf.closed_form_numpy(right, env, T).states}
    assert relative_to_mpmath(states, model, params, init) <= 1e-14


def test_one_compilation_per_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled kernel is kept per source: a second call (other starts, other times) compiles nothing."""
    model, params, init = CASES[0]
    monkeypatch.setenv(fused.FUSED_ENV, "1")
    trajectory(model, T, params, init)
    compiled = dict(fused._KERNELS)
    trajectory(model, T[:7], params, {k: v[:2] for k, v in init.items()})
    assert compiled == fused._KERNELS
    source = cf.compiled_closed_form(model).float64_kernel.fused
    function, extras = fused.fused_kernel(source)
    assert extras == () and len(function.signatures) == 1


def test_the_riccati_time_checks_hold_on_the_fused_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """``closed_form_numpy`` refuses a negative time on both paths (the fused one checks the clocks' admissible
    times up front, through the same ``riccati`` check, before the kernel runs)."""
    model, params, init = CASES[0]
    ccf = cf.compiled_closed_form(model)
    env = {"a_0": init["a"], "b_0": init["b"], **params}
    for value in ("1", "0"):
        monkeypatch.setenv(fused.FUSED_ENV, value)
        with pytest.raises(ValueError, match=r"\bt\b must be >= 0"):
            cf.closed_form_numpy(ccf, env, np.array([0.0, -0.5, 1.0]))


# ---------------------------------------------------------------- the kernels' machine code in the disk cache
FRESH_CALL = """
import json
import numpy as np
import numerics
from numerics import closed_form, fused
numerics.trajectory({model!r}, np.linspace(0.0, 1.0, 5), {params!r}, {{k: np.array(v) for k, v in {init!r}.items()}})
function, _ = fused.fused_kernel(closed_form.compiled_closed_form({model!r}).float64_kernel.fused)
stats = function.stats
print(json.dumps({{"hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values())}}))
"""


def _numba_stats_of_a_fresh_process(cache_dir) -> dict:
    model, params, init = CASES[0]
    code = FRESH_CALL.format(model=model, params=params, init={k: v[:2].tolist() for k, v in init.items()})
    env = {**os.environ, CACHE_ENV: str(cache_dir), "PYTHONPATH": str(ROOT)}
    env[fused.FUSED_ENV] = "1"  # forced: the call is below FUSED_MIN_VALUES
    env.pop("NUMBA_CACHE_DIR", None)  # numba's own cache directory would take precedence over the package's
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_warm_disk_cache_loads_the_kernel_instead_of_compiling_it(tmp_path) -> None:
    """The first process compiles the kernel (a cache miss) and leaves its module and machine code in the disk
    cache; a second process loads them: a cache hit, and numba's compiler is not called (no miss)."""
    assert _numba_stats_of_a_fresh_process(tmp_path) == {"hits": 0, "misses": 1}
    entry = tmp_path / cache.code_key() / fused.FUSED_ENTRY
    assert [p.suffix for p in entry.glob("kernel_*")] == [".py"]
    assert {p.suffix for p in (entry / "__pycache__").iterdir()} == {".nbi", ".nbc"}
    assert _numba_stats_of_a_fresh_process(tmp_path) == {"hits": 1, "misses": 0}


def _source_and_fresh_kernels(monkeypatch: pytest.MonkeyPatch, cache_dir) -> str:
    monkeypatch.setenv(CACHE_ENV, str(cache_dir))
    monkeypatch.setenv(fused.FUSED_ENV, "1")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(fused, "_KERNELS", {})
    monkeypatch.setattr(cache, "_WARNED", set())
    return cf.compiled_closed_form(CASES[0][0]).float64_kernel.fused


@pytest.mark.parametrize("shared", ["directory", "module", "index"])
def test_an_untrusted_kernel_entry_is_neither_imported_nor_loaded(shared: str, tmp_path, monkeypatch) -> None:
    """A group-writable ``fused`` directory, kernel module or numba index (a pickle numba would load, planted
    here to run code) is refused with a ``CacheWarning``: the kernel is compiled in memory and the planted code
    does not run; the values are right. (Without the trust check of numba's files the planted index runs.)"""
    model, params, init = CASES[0]
    source = _source_and_fresh_kernels(monkeypatch, tmp_path)
    trajectory(model, T, params, init)  # writes the module and numba's cache of it
    entry = tmp_path / cache.code_key() / fused.FUSED_ENTRY
    (index,) = (entry / "__pycache__").glob("*.nbi")
    marker = tmp_path / "planted-ran"
    index.write_bytes(pickle.dumps(_Planted(str(marker))))
    target = {"directory": entry, "module": next(entry.glob("kernel_*.py")), "index": index}[shared]
    target.chmod(target.stat().st_mode | 0o020)
    monkeypatch.setattr(fused, "_KERNELS", {})
    with pytest.warns(cache.CacheWarning, match="disk cache not used"):
        function, _ = fused.fused_kernel(source)
    assert relative_to_mpmath(trajectory(model, T, params, init), model, params, init) <= 1e-14
    assert function.stats.cache_path is None  # compiled in memory, numba's cache not used
    assert not marker.exists()


class _Planted:
    """Unpickles by creating the file ``marker``: code that a writer of the cache directory could make run."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').close()",))
