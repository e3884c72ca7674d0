"""The disk cache of compiled numerics (issue 14): a warm process evaluates closed forms without SymPy and gets
the same numbers; the cache is keyed by the code and by the model's definition, safe under concurrent writers,
and rebuilds what it cannot read."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from derivations import models
from numerics import cache
from numerics.cache import CACHE_ENV, Generated, Uncacheable
from numerics.closed_form import closed_form_numpy, compiled_closed_form
from numerics.compiled import batch_field, compiled
from numerics.model_spec import definition_hash, spec_of

ROOT = Path(__file__).resolve().parents[2]

FIRST_CALL = """
import json, sys
import numpy as np
import numerics
r = numerics.trajectory({model!r}, [0.0, 0.5, 3.0], {params!r}, {{k: np.array(v) for k, v in {init!r}.items()}})
print(json.dumps({{"sympy": "sympy" in sys.modules, "derivations": "derivations" in sys.modules,
                  "values": {{k: np.asarray(v).tolist() for k, v in r.items() if k != "t"}}}}))
"""


def _fresh_process(code: str, cache_dir: Path) -> dict:
    env = {**os.environ, CACHE_ENV: str(cache_dir), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


CASES = [
    ("two_layer_scalar", {"S": 2.0, "Z": 1.0}, {"a": [0.1, -0.3, 0.2], "b": [0.05, 0.4, -0.1]}),
]


def test_warm_process_needs_no_sympy_and_gives_the_same_numbers(tmp_path):
    model = models.get("two_layer_scalar")
    params, init = CASES[0][1], CASES[0][2]
    code = FIRST_CALL.format(model=model.name, params=params, init=init)
    cold = _fresh_process(code, tmp_path)
    warm = _fresh_process(code, tmp_path)
    assert cold["sympy"] and cold["derivations"]  # the first process derives the closed form
    assert not warm["sympy"] and not warm["derivations"]
    assert warm["values"] == cold["values"]  # bit for bit
    assert any((tmp_path / cache.code_key()).rglob("closed-form-numpy.pickle"))


def test_cache_off_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, "off")
    assert cache.cache_dir() is None
    assert cache.artifact("test-off", "kind", lambda: 42) == 42
    assert not any(tmp_path.iterdir())


def _evaluate(ccf, p: int = 3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(1)
    spec = spec_of(ccf.model)
    env = {spec.init_symbol(n): 0.3 * rng.standard_normal((2, p)) for n in spec.state_names}
    env.update({n: 1.0 + rng.random() for n in spec.shared_param_names})
    env.update({n: 1.0 + rng.random((2, p)) for n in spec.unit_param_names})
    try:
        values = closed_form_numpy(ccf, env, np.linspace(0.0, 2.0, 7))
    except ValueError:  # a start off the closed form's invariant set: compared as the same refusal
        return {}
    named = {f"{field}:{k}": v for field in ("states", "sums", "clocks") for k, v in getattr(values, field).items()}
    return {**named, "out_of_range": values.out_of_range}


@pytest.mark.parametrize("name", models.BUILTIN)
def test_round_trip_of_every_artifact_evaluates_identically(name):
    """Each model's artifacts survive pickling: the same arrays from the restored closed form, the same field."""
    spec = spec_of(name)
    for backend in ("numpy", "mpmath"):
        restored = pickle.loads(pickle.dumps(compiled(spec, backend)))
        assert restored.field.keys() == compiled(spec, backend).field.keys()
    try:
        ccf = compiled_closed_form(spec)
    except ValueError:
        return
    restored = pickle.loads(pickle.dumps(ccf))
    before, after = _evaluate(ccf), _evaluate(restored)
    assert before.keys() == after.keys()
    for key in before:
        np.testing.assert_array_equal(before[key], after[key])
    field = pickle.loads(pickle.dumps(batch_field(spec)))
    y = np.random.default_rng(2).standard_normal((len(spec.state_names), 2, 3))
    params = [1.5 for _ in field.param_names]
    np.testing.assert_array_equal(field(y, params), batch_field(spec)(y, params))


def test_definition_hash_tells_models_apart():
    model = models.get("two_layer_scalar")
    same = dataclasses.replace(model)
    assert definition_hash(same) == definition_hash(model)
    other_target = dataclasses.replace(model, target=lambda sym, x: 2 * model.target(sym, x))
    other_domain = dataclasses.replace(model, domains={**model.domains, "S": "positive"})
    hashes = {definition_hash(m) for m in (model, other_target, other_domain)}
    assert len(hashes) == 3
    assert spec_of(same).key != spec_of(model).key == "builtin-two_layer_scalar"


def test_concurrent_writers_leave_one_readable_file(tmp_path):
    code = FIRST_CALL.format(model=CASES[0][0], params=CASES[0][1], init=CASES[0][2])
    env = {**os.environ, CACHE_ENV: str(tmp_path), "PYTHONPATH": str(ROOT)}
    runs = [
        subprocess.Popen([sys.executable, "-c", code], env=env, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    outputs = [json.loads(r.communicate()[0].strip().splitlines()[-1]) for r in runs]
    assert all(r.returncode == 0 for r in runs)
    assert all(o["values"] == outputs[0]["values"] for o in outputs)
    assert not list(tmp_path.rglob("*.tmp"))
    assert not _fresh_process(code, tmp_path)["sympy"]


def test_unreadable_file_is_rebuilt(tmp_path):
    code = FIRST_CALL.format(model=CASES[0][0], params=CASES[0][1], init=CASES[0][2])
    first = _fresh_process(code, tmp_path)
    for path in tmp_path.rglob("closed-form-numpy.pickle"):
        path.write_bytes(b"not a pickle")
    again = _fresh_process(code, tmp_path)
    assert again["values"] == first["values"] and again["sympy"]  # rebuilt from the derivation
    assert not _fresh_process(code, tmp_path)["sympy"]


def test_generated_function_round_trip_and_refusal():
    x = sp.Symbol("x")
    f = Generated(sp.lambdify([x], sp.exp(x) + sp.sin(x), modules="numpy"))
    g = pickle.loads(pickle.dumps(f))
    values = np.linspace(-2, 2, 9)
    np.testing.assert_array_equal(g(values), f(values))
    secret = lambda v: v + 1  # noqa: E731 - a function no module attribute names
    h = Generated(sp.lambdify([x], sp.Function("secret")(x), modules=[{"secret": secret}, "numpy"]))
    with pytest.raises(Uncacheable):
        pickle.dumps(h)


def test_uncacheable_artifact_stays_in_memory(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    x = sp.Symbol("x")
    secret = lambda v: v + 1  # noqa: E731
    h = Generated(sp.lambdify([x], sp.Function("secret")(x), modules=[{"secret": secret}, "numpy"]))
    assert cache.artifact("test-uncacheable", "kind", lambda: h)(1.0) == 2.0
    assert not list(tmp_path.rglob("*.pickle")) and not list(tmp_path.rglob("*.tmp"))


def test_a_new_code_key_prunes_old_versions(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    olds = [tmp_path / f"{k:020d}" for k in range(5)]
    for k, old in enumerate(olds):
        (old / "builtin-x").mkdir(parents=True)
        os.utime(old, (k, k))
    (tmp_path / "claim-seconds.json").write_text("{}")
    cache.artifact("test-prune", "kind", lambda: 1)
    kept = sorted(d.name for d in tmp_path.iterdir() if d.is_dir())
    assert kept == sorted([cache.code_key(), *(o.name for o in olds[-(cache.KEEP - 1) :])])
    assert (tmp_path / "claim-seconds.json").exists()


EVERY_METHOD = """
import json, sys
import numpy as np
import numerics
init = {"a": np.array([[0.1, 0.2], [0.3, -0.1]]), "b": np.array([[0.2, 0.1], [0.1, 0.4]])}
values = {}
for kw in ({}, {"method": "scipy"}, {"method": "gd", "lr": 0.5}, {"dps": 30}, {"method": "mpmath", "dps": 20}):
    r = numerics.trajectory("two_layer_scalar", [0.0, 1.0], {"S": np.array([1.0, 2.0]), "Z": 1.0}, init, **kw)
    values[repr(kw)] = np.asarray(r["a"], dtype=float).tolist()
print(json.dumps({"sympy": "sympy" in sys.modules, "values": values}))
"""


def test_warm_process_runs_every_sympy_free_method_without_sympy(tmp_path):
    """Float64 and ``dps`` closed forms, DOP853, gradient descent and mpmath integration all read their compiled
    functions from a warm cache (``method="taylor"`` compiles through ``heyoka.from_sympy`` and needs SymPy)."""
    cold, warm = _fresh_process(EVERY_METHOD, tmp_path), _fresh_process(EVERY_METHOD, tmp_path)
    assert cold["sympy"] and not warm["sympy"]
    assert warm["values"] == cold["values"]


# The trust model: entries are code run in the user's process, so only a private cache is used (issue 27).


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache directory of its own, an empty memory and no warning given yet; the entry
    ``<dir>/<code key>/test-model/kind.pickle`` is the one the tests plant."""
    base = tmp_path / "cache"
    base.mkdir(mode=0o700)
    monkeypatch.setenv(CACHE_ENV, str(base))
    monkeypatch.setattr(cache, "_MEMORY", {})
    monkeypatch.setattr(cache, "_WARNED", set())
    return base


def _entry(base: Path, value: object | None = None, raw: bytes | None = None) -> Path:
    path = base / cache.code_key() / "test-model" / "kind.pickle"
    for directory in (path.parents[1], path.parent):
        directory.mkdir(mode=0o700, exist_ok=True)
    path.write_bytes(raw if raw is not None else pickle.dumps(value))
    path.chmod(0o600)
    return path


def test_an_empty_variable_counts_as_unset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    workdir = tmp_path / "work"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    for empty in ("", "  "):
        monkeypatch.setenv(CACHE_ENV, empty)
        assert cache.cache_dir() == tmp_path / "xdg" / "layerwise-linear-flows"
    assert cache.artifact("test-model", "kind", lambda: 7) == 7
    assert not any(workdir.iterdir())  # before, the entry went to the working directory
    assert list((tmp_path / "xdg").rglob("kind.pickle"))


def test_a_private_entry_is_read(fresh: Path) -> None:
    _entry(fresh, 41)
    assert cache.artifact("test-model", "kind", lambda: 0, int) == 41


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o720, 0o702])
def test_a_directory_others_may_write_is_refused(fresh: Path, mode: int) -> None:
    path = _entry(fresh, 41)
    path.parents[1].chmod(mode)  # the code-key directory
    with pytest.warns(cache.CacheWarning, match=f"writable by group or others \\(mode {mode:04o}\\)"):
        assert cache.artifact("test-model", "kind", lambda: 5, int) == 5  # built in memory, the planted 41 unread
    assert pickle.loads(path.read_bytes()) == 41  # and nothing written there
    assert not list(fresh.rglob("*.tmp"))


def test_a_cache_directory_others_may_write_is_refused(fresh: Path) -> None:
    _entry(fresh, 41)
    fresh.chmod(0o777)
    with pytest.warns(cache.CacheWarning, match=f"{str(fresh)!r} is writable by group or others"):
        assert cache.artifact("test-model", "kind", lambda: 5, int) == 5


def test_an_entry_others_may_write_is_refused(fresh: Path) -> None:
    path = _entry(fresh, 41)
    path.chmod(0o666)
    with pytest.warns(cache.CacheWarning, match="kind.pickle' is writable by group or others"):
        assert cache.artifact("test-model", "kind", lambda: 5, int) == 5
    assert pickle.loads(path.read_bytes()) == 41


def test_an_entry_of_another_user_is_refused(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _entry(fresh, 41)
    me = os.getuid()
    monkeypatch.setattr(cache.os, "getuid", lambda: me + 1)  # the files now belong to someone else
    with pytest.warns(cache.CacheWarning, match=f"owned by uid {me}, not by the current user"):
        assert cache.artifact("test-model", "kind", lambda: 5, int) == 5


def test_the_warning_is_given_once(fresh: Path) -> None:
    fresh.chmod(0o777)
    with pytest.warns(cache.CacheWarning) as given:
        for kind in ("k1", "k2", "k3"):
            cache.artifact("test-model", kind, lambda: 1)
    assert len(given) == 1


@pytest.mark.parametrize(("raw", "planted"), [(b"garbage", None), (pickle.dumps("a string"), "a string")])
def test_an_entry_that_is_no_artifact_is_rebuilt_and_rewritten(fresh: Path, raw: bytes, planted: object) -> None:
    path = _entry(fresh, raw=raw)
    assert cache.artifact("test-model", "kind", lambda: 5, int) == 5
    assert pickle.loads(path.read_bytes()) == 5  # rewritten: the next process reads it
    cache._MEMORY.clear()
    assert cache.artifact("test-model", "kind", lambda: 6, int) == 5
    if planted is not None:  # the wrong variant, no type check, would have returned the planted value forever
        _entry(fresh, raw=raw)
        cache._MEMORY.clear()
        assert cache.artifact("test-model", "kind", lambda: 5) == planted


def test_what_the_cache_creates_is_private_whatever_the_umask(
    tmp_path: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = tmp_path / "new-cache"
    monkeypatch.setenv(CACHE_ENV, str(base))
    previous = os.umask(0o002)
    try:
        cache.artifact("test-model", "kind", lambda: 1)
    finally:
        os.umask(previous)
    entry = base / cache.code_key() / "test-model" / "kind.pickle"
    modes = [stat_mode(p) for p in (base, entry.parents[1], entry.parent, entry)]
    assert modes == [0o700, 0o700, 0o700, 0o600]
    assert cache.insecure(base) == "" and cache.insecure(entry) == ""


def stat_mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_a_planted_string_is_no_refusal_of_the_closed_form(fresh: Path) -> None:
    """A model without a closed form caches its reason as a typed ``NoClosedForm``: a pickled string found in the
    closed-form entry (before: taken for the cached reason, "needs a closed form: a string") is rebuilt."""
    spec = spec_of("two_layer_scalar")
    path = fresh / cache.code_key() / spec.key / "closed-form-numpy.pickle"
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.write_bytes(pickle.dumps("a string"))
    path.chmod(0o600)
    assert compiled_closed_form(spec).model == "two_layer_scalar"
    assert not isinstance(pickle.loads(path.read_bytes()), str)  # rewritten
