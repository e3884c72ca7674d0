"""Fuzz of the disk cache's states (issue 27, the *cache states* surface): every state a cache directory can be found
in, drawn by hypothesis, and every outcome classified.

A case is an environment (``$LAYERWISE_LINEAR_FLOWS_CACHE`` unset, empty, blank, ``off`` in any case, a path that
exists or not, a regular file, a path below a file, a relative path) and a state of each level of an entry
``<base>/<code key>/<model>/<kind>.pickle``: absent, present with any permission bits, owned by another user, a file
where a directory belongs, a directory where the entry belongs, a symbolic link; the entry's bytes valid, of another
type, truncated, empty, garbage, or a *planted* pickle whose unpickling runs code (it records that it ran).

The oracle is the trust model of :mod:`numerics.cache` written from its documentation, not from its code:

- ``off`` or a base that cannot hold a cache: the value is the one built, nothing is written anywhere;
- a level that exists and is not owned by the user, or is writable by group or others, makes the entry untrusted: the
  value is the one built, a :class:`~numerics.cache.CacheWarning` is given, the planted code never runs and nothing is
  written below the untrusted level;
- otherwise a readable entry of the expected type is returned as it is (a planted one runs: the documented trust
  model, as for ``__pycache__``), any other entry is rebuilt and, where the filesystem allows, rewritten privately;
- never an exception, never a warning of another class, and whatever the cache creates is private (0o700 / 0o600).

Outcomes: ``correct`` (all of the above hold), ``silent wrong`` (a wrong value, planted code run from an untrusted
entry, a file written below an untrusted level, a file created non-private, or a missing warning), ``obscure
error`` (an exception or a stray warning). The default run draws :data:`DEFAULT_EXAMPLES` cases on the artifact API
and :data:`TRAJECTORY_EXAMPLES` through ``numerics.trajectory`` (the closed-form entry of a built-in model in the
drawn state); the ``slow`` run :data:`SLOW_EXAMPLES` on each. ``benchmarks/fuzz_public_api.py`` prints the counts.
"""

from __future__ import annotations

import os
import pickle
import random
import shutil
import stat
import warnings
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from numerics import cache
from numerics.cache import CACHE_ENV, CacheWarning

DEFAULT_EXAMPLES = 150
TRAJECTORY_EXAMPLES = 25
SLOW_EXAMPLES = 2500
ORACLE_EXAMPLES = 40
"""Cases for the trust-check and type-check variants the oracle must refute in the default suite: one failing case
suffices, not a clean sweep (derandomized, the first 40 states hold 5 untrusted-code and 3 planted-string failures);
the slow step draws DEFAULT_EXAMPLES. The leaked-temporary variant keeps DEFAULT_EXAMPLES: its first failing state is
about the 100th."""
ORACLE_RUNS = pytest.mark.parametrize(
    "examples", [ORACLE_EXAMPLES, pytest.param(DEFAULT_EXAMPLES, marks=pytest.mark.slow)], ids=["few", "many"]
)

LEVELS = ("base", "key", "model", "entry")
"""The four levels of an entry's path, outermost first."""
PRESENCES = ("absent", "present", "file-instead", "directory-instead", "symlink")
PRIVATE_MODES = (0o700, 0o700, 0o755, 0o750, 0o600, 0o600, 0o644, 0o400)
"""Permission bits that let no one else write (the tests run as root or not: a directory without x is included)."""
SHARED_MODES = (0o770, 0o720, 0o702, 0o777, 0o666, 0o620, 0o602)
"""Permission bits that let group or others write."""
CONTENTS = ("valid", "other-type", "truncated", "empty", "garbage", "planted")
ENVIRONMENTS = (
    "unset",
    "empty",
    "blank",
    "off",
    "OFF",
    "path",
    "missing-path",
    "regular-file",
    "below-file",
    "relative",
)

UNUSABLE = ("regular-file", "below-file")
"""Environments naming a path that cannot be a directory: the cache is not used there."""
MODEL_KEY, KIND = "fuzz-model", "kind"
PLANTED_VALUE = 41
BUILT_VALUE = 7

PLANTED_RUNS: list[str] = []
"""Appended to by the planted pickle when it is unpickled: the oracle's witness that code from the cache ran."""


def _planted(tag: str) -> int:
    PLANTED_RUNS.append(tag)
    return PLANTED_VALUE


class Planted:
    """Unpickles by calling :func:`_planted`: code a writer of the cache directory could make the user run."""

    def __init__(self, tag: str) -> None:
        self.tag = tag

    def __reduce__(self) -> tuple:
        return _planted, (self.tag,)


@dataclass(frozen=True)
class Level:
    presence: str
    mode: int
    foreign: bool  # owned by another user (emulated: the cache's getuid is shifted for the case)


@dataclass(frozen=True)
class State:
    environment: str
    levels: tuple[Level, ...]  # base, key, model, entry
    content: str


@dataclass
class Outcome:
    kind: str
    detail: str = ""


@dataclass
class Report:
    counts: Counter = field(default_factory=Counter)
    failures: list[tuple[State, str]] = field(default_factory=list)

    def add(self, state: State, outcome: Outcome) -> None:
        self.counts[outcome.kind] += 1
        if outcome.kind != "correct":
            self.failures.append((state, outcome.detail))


@st.composite
def states(draw: st.DrawFn) -> State:
    """A drawn case; the planted tree reaches the entry in three cases out of four (a deeper tree is where the
    type and trust checks of the entry itself are exercised). Drawn through a ``random.Random`` seeded by hypothesis:
    hypothesis's own choices (and its ``randoms()``) repeat the simplest combinations, 33 distinct ones in 150 cases,
    and the surface is a product of independent factors."""
    rng = random.Random(draw(st.integers(0, 2**64 - 1)))
    environment = rng.choice(ENVIRONMENTS)
    depth = rng.choice((0, 1, 2, 3, *(4,) * 12))  # levels present, outermost first
    # at most one level is untrusted (by its mode or its owner), so that the trusted tree is half of the cases
    untrusted = rng.choice((None, None, None, *range(len(LEVELS))))
    levels = []
    for k, name in enumerate(LEVELS):
        if k >= depth:
            presence = "absent"
        elif name == "base":
            presence = "present"
        else:  # mostly what a cache holds, sometimes something else in its place
            presence = rng.choice(("present",) * 6 + PRESENCES[2:])
        foreign = k == untrusted and rng.random() < 0.3
        shared = k == untrusted and not foreign
        mode = rng.choice(SHARED_MODES if shared else PRIVATE_MODES)
        levels.append(Level(presence, mode, foreign))
    for k in range(1, len(levels)):  # a level below one that is no directory is absent
        if levels[k - 1].presence not in ("present", "symlink") and levels[k].presence != "absent":
            levels[k] = Level("absent", levels[k].mode, levels[k].foreign)
    return State(environment, tuple(levels), rng.choice(CONTENTS))


def _content(state: State, value: object) -> bytes:
    return {
        "valid": pickle.dumps(value),
        "other-type": pickle.dumps("a string"),
        "truncated": pickle.dumps(value)[:-3],
        "empty": b"",
        "garbage": b"\x80\x05garbage that is no pickle",
        "planted": pickle.dumps(Planted(repr(state))),
    }[state.content]


@dataclass
class Planting:
    """The directory tree of a case, and what the oracle needs to know about it."""

    base: Path | None  # the cache directory the environment names (None: disk cache off)
    paths: tuple[Path, ...]  # base, key, model, entry
    foreign: frozenset[Path]
    before: dict[Path, tuple[int, bytes | None]]  # every file under the sandbox: mode, bytes


def _sandbox_files(root: Path) -> dict[Path, tuple[int, bytes | None]]:
    found: dict[Path, tuple[int, bytes | None]] = {}
    for path in [root, *root.rglob("*")]:
        info = path.lstat()
        data = path.read_bytes() if stat.S_ISREG(info.st_mode) else None
        found[path] = (stat.S_IMODE(info.st_mode), data)
    return found


def plant(state: State, sandbox: Path, kind_value: object, model_key: str, kind: str) -> tuple[Planting, dict]:
    """Builds the case's tree in ``sandbox`` and returns it with the environment to set."""
    env: dict[str, str | None] = {"XDG_CACHE_HOME": str(sandbox / "xdg")}
    default = sandbox / "xdg" / "layerwise-linear-flows"
    target = {
        "unset": (None, default),
        "empty": ("", default),
        "blank": ("   ", default),
        "off": ("off", None),
        "OFF": ("OFF", None),
        "path": (str(sandbox / "cache"), sandbox / "cache"),
        "missing-path": (str(sandbox / "no" / "such" / "cache"), sandbox / "no" / "such" / "cache"),
        "regular-file": (str(sandbox / "a-file"), sandbox / "a-file"),
        "below-file": (str(sandbox / "a-file" / "cache"), sandbox / "a-file" / "cache"),
        "relative": ("relative-cache", sandbox / "work" / "relative-cache"),
    }[state.environment]
    env[CACHE_ENV] = target[0]
    (sandbox / "a-file").write_bytes(b"not a directory")
    (sandbox / "work").mkdir()
    (sandbox / "elsewhere").mkdir(mode=0o700)
    base = target[1]
    paths: tuple[Path, ...] = ()
    foreign: set[Path] = set()
    if base is not None:
        key = base / cache.code_key()
        paths = (base, key, key / model_key, key / model_key / f"{kind}.pickle")
    if base is not None and state.environment not in ("regular-file", "below-file"):
        made: list[tuple[Path, Level]] = []
        for level, path in zip(state.levels, paths, strict=True):
            if level.presence == "absent":
                break
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            is_entry = path == paths[-1]
            if level.presence == "present" and not is_entry:
                path.mkdir(mode=0o700)
            elif level.presence == "present" or (is_entry and level.presence == "file-instead"):
                path.write_bytes(_content(state, kind_value))
            elif level.presence == "file-instead":
                path.write_bytes(b"a file where a directory belongs")
            elif level.presence == "directory-instead":
                path.mkdir(mode=0o700)
            else:  # a symbolic link to a private copy elsewhere
                other = sandbox / "elsewhere" / path.name
                if is_entry:
                    other.write_bytes(_content(state, kind_value))
                else:
                    other.mkdir(mode=0o700)
                path.symlink_to(other)
            made.append((path, level))
            if level.foreign:
                foreign.add(path.absolute())
        for path, level in reversed(made):  # innermost first: a directory without x would stop the planting
            os.chmod(path, level.mode)  # follows a link: the target's bits, which are what the cache inspects
    planting = Planting(None if target[0] in ("off", "OFF") else base, paths, frozenset(foreign), {})
    planting.before = _sandbox_files(sandbox)
    return planting, env


def _untrusted(planting: Planting) -> Path | None:
    """The outermost existing level that is foreign or writable by group or others (per the documented rule)."""
    for path in planting.paths:
        if not os.path.lexists(path):
            return None
        try:
            info = path.stat()
        except OSError:
            return path  # e.g. a level below a file: cannot be inspected, so not trusted
        if path.absolute() in planting.foreign or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return path
    return None


@contextmanager
def _environment(env: dict[str, str | None], sandbox: Path, foreign: frozenset[Path]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in env}
    cwd = Path.cwd()
    real_stat, real_getuid = Path.stat, os.getuid
    me = real_getuid()

    class _Foreign:  # a stat result owned by another uid (chown would need privileges the tests may lack)
        def __init__(self, info: os.stat_result) -> None:
            self._info = info

        def __getattr__(self, name: str) -> object:
            return me + 1 if name == "st_uid" else getattr(self._info, name)

    def stat_as_seen(path: Path, *args: object, **kwargs: object) -> object:
        info = real_stat(path, *args, **kwargs)
        return _Foreign(info) if path.absolute() in foreign else info

    try:
        for k, v in env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        os.chdir(sandbox / "work")
        Path.stat = stat_as_seen  # type: ignore[method-assign]
        cache._MEMORY.clear()
        cache._WARNED.clear()
        yield
    finally:
        Path.stat = real_stat  # type: ignore[method-assign]
        os.chdir(cwd)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        cache._MEMORY.clear()
        cache._WARNED.clear()


def _created_private(planting: Planting, before: dict, after: dict) -> str:
    """A directory or file the call created at or below the cache directory that is not private (the parents of the
    cache directory, e.g. ``$XDG_CACHE_HOME``, are the user's, with the user's umask)."""
    base = planting.base.absolute() if planting.base is not None else None
    for path, (mode, _) in after.items():
        if path in before or path.is_symlink() or base is None or not (path == base or base in path.parents):
            continue
        wanted = 0o700 if path.is_dir() else 0o600
        if mode != wanted:
            return f"created {path} with mode {mode:04o}, not {wanted:04o}"
    return ""


def judge(state: State, planting: Planting, value: object, caught: list, expected: object, built: object) -> Outcome:
    """The oracle (module docstring) applied to one call's result ``value`` and its CacheWarnings ``caught`` (stray
    warnings and the files written are judged by :func:`run_case`)."""
    ran = bool(PLANTED_RUNS)
    if state.environment in UNUSABLE:  # a warning that the cache path is unusable is allowed, nothing else
        if ran or not _equal(value, built):
            return Outcome("silent wrong", f"value {value!r} (planted code ran: {ran}) from an unusable cache path")
        return Outcome("correct")
    warned = any(issubclass(w.category, CacheWarning) for w in caught)
    if planting.base is None:  # the disk cache is off: built, silently
        if ran or warned or not _equal(value, built):
            return Outcome(
                "silent wrong", f"value {value!r} (planted code ran: {ran}, warned: {warned}) with the cache off"
            )
        return Outcome("correct")
    if any(level.presence == "file-instead" for level in state.levels[:3]):  # a file where a directory belongs
        if ran or not _equal(value, built):
            return Outcome("silent wrong", f"value {value!r} (planted code ran: {ran}) through a file in the way")
        if state.levels[0].presence == "present" and not warned:
            return Outcome("obscure error", "no warning about the file in the cache's way")
        return Outcome("correct")
    untrusted = _untrusted(planting) if planting.base is not None else None
    entry_ok = (
        planting.base is not None
        and untrusted is None
        and state.levels[3].presence in ("present", "file-instead", "symlink")
        and state.content in ("valid", "planted")
        and all(level.presence in ("present", "symlink") for level in state.levels[:3])
        and planting.paths[3].is_file()
    )
    if untrusted is not None:
        if ran:
            return Outcome("silent wrong", f"planted code ran from an untrusted cache ({untrusted})")
        if not warned:
            return Outcome("silent wrong", f"no CacheWarning for the untrusted {untrusted}")
        if not _equal(value, built):
            return Outcome("silent wrong", f"value {value!r} from an untrusted cache, not the built {built!r}")
        return Outcome("correct")
    if warned:
        return Outcome("obscure error", f"CacheWarning for a private cache: {caught[0].message}")
    wanted = expected if entry_ok else built
    if not _equal(value, wanted):
        return Outcome("silent wrong", f"value {value!r}, expected {wanted!r}")
    if ran != (entry_ok and state.content == "planted"):
        return Outcome("silent wrong", f"planted code ran: {ran}, expected {not ran}")
    return Outcome("correct")


def _equal(a: object, b: object) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    return bool(a == b)


def _written_below(state: State, planting: Planting, before: dict, after: dict) -> str:
    """A file the call wrote or changed below an untrusted level, anywhere with the disk cache off or unusable, or
    a temporary file left behind."""
    untrusted = _untrusted(planting) if planting.base is not None else None
    for path, (mode, data) in after.items():
        old = before.get(path)
        if old == (mode, data):
            continue
        if path.name.endswith(".tmp"):
            return f"temporary file {path} left behind"
        if planting.base is None or state.environment in UNUSABLE:
            return f"{path} written with the disk cache off or unusable"
        if untrusted is not None and (path == untrusted or untrusted in path.parents):
            return f"{path} written below the untrusted {untrusted}"
    return ""


def run_case(state: State, sandbox: Path, call: str = "artifact") -> Outcome:
    """Plants ``state`` in ``sandbox`` and calls the cache through ``call`` (``"artifact"``: the artifact API with a
    cheap builder; ``"trajectory"``: ``numerics.trajectory`` of a built-in model, its closed-form entry planted)."""
    PLANTED_RUNS.clear()
    if call == "artifact":
        model_key, kind, stored, built = MODEL_KEY, KIND, PLANTED_VALUE, BUILT_VALUE
    else:
        model_key, kind, stored, built = "builtin-two_layer_scalar", "closed-form-numpy", None, None
    planting, env = plant(state, sandbox, stored, model_key, kind)
    with warnings.catch_warnings(record=True) as caught, _environment(env, sandbox, planting.foreign):
        warnings.simplefilter("always")
        try:
            if call == "artifact":
                value: object = cache.artifact(model_key, kind, lambda: BUILT_VALUE, int)
                expected: object = PLANTED_VALUE
            else:
                value = _trajectory()
                expected = built = _trajectory_reference()
        except Exception as exc:  # every exception is an outcome to classify
            return Outcome("obscure error", f"{type(exc).__name__}: {exc}")
    stray = [w for w in caught if not issubclass(w.category, CacheWarning)]
    if stray:
        return Outcome("obscure error", f"stray warning {stray[0].category.__name__}: {stray[0].message}")
    if call == "trajectory":  # a planted closed-form entry unpickles to an int: never usable as one
        outcome = _judge_trajectory(planting, value, caught, built)
    else:
        outcome = judge(state, planting, value, caught, expected, built)
    if outcome.kind == "correct":
        after = _sandbox_files(sandbox)
        problem = _written_below(state, planting, planting.before, after) or _created_private(
            planting, planting.before, after
        )
        if problem:
            return Outcome("silent wrong", problem)
    return outcome


def _judge_trajectory(planting: Planting, value: object, caught: list, reference: object) -> Outcome:
    untrusted = _untrusted(planting) if planting.base is not None else None
    if untrusted is not None and PLANTED_RUNS:
        return Outcome("silent wrong", f"planted code ran from an untrusted cache ({untrusted})")
    if untrusted is not None and not any(issubclass(w.category, CacheWarning) for w in caught):
        return Outcome("silent wrong", f"no CacheWarning for the untrusted {untrusted}")
    if not _equal(value, reference):
        return Outcome("silent wrong", "trajectory differs from the one computed without a disk cache")
    return Outcome("correct")


INIT = {"a": np.array([[0.1, -0.3, 0.2]]), "b": np.array([[0.05, 0.4, -0.1]])}


def _trajectory() -> dict:
    import numerics

    run = numerics.trajectory("two_layer_scalar", [0.0, 0.5, 3.0], {"S": 2.0, "Z": 1.0}, INIT)
    return {k: np.asarray(v) for k, v in run.items()}


_REFERENCE: list[dict] = []


def _trajectory_reference() -> dict:
    """The trajectory computed with the disk cache off (in its own memory): the value every state must give."""
    if not _REFERENCE:
        saved, memory = os.environ.get(CACHE_ENV), dict(cache._MEMORY)
        os.environ[CACHE_ENV] = "off"
        cache._MEMORY.clear()
        try:
            _REFERENCE.append(_trajectory())
        finally:
            cache._MEMORY.clear()
            cache._MEMORY.update(memory)
            if saved is None:
                os.environ.pop(CACHE_ENV, None)
            else:
                os.environ[CACHE_ENV] = saved
    return _REFERENCE[0]


def _cleanup(sandbox: Path) -> None:
    for path in [sandbox, *sandbox.rglob("*")]:
        if not path.is_symlink():
            with_bits = stat.S_IMODE(os.lstat(path).st_mode) | (0o700 if path.is_dir() else 0o600)
            os.chmod(path, with_bits)
    shutil.rmtree(sandbox)


def run_fuzz(cases: int, call: str, root: Path) -> Report:
    """Counts per outcome class over ``cases`` drawn states (for ``benchmarks/fuzz_public_api.py``)."""
    report = Report()

    @settings(
        max_examples=cases, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
    )
    @given(states())
    def one(state: State) -> None:
        sandbox = root / f"case-{sum(report.counts.values())}"
        sandbox.mkdir(mode=0o700)
        try:
            report.add(state, run_case(state, sandbox, call))
        finally:
            _cleanup(sandbox)

    one()
    return report


def _assert_clean(report: Report) -> None:
    assert sum(report.counts.values()) > 0
    kinds: dict[str, tuple[State, str]] = {}
    for state, detail in report.failures:  # one example of each kind of failure
        kinds.setdefault(detail.split(" ")[0] + detail.split(" ")[-1][-12:], (state, detail))
    assert not report.failures, f"{dict(report.counts)}\n" + "\n".join(f"{s}: {d}" for s, d in kinds.values())


def test_cache_states_artifact_api(tmp_path: Path) -> None:
    _assert_clean(run_fuzz(DEFAULT_EXAMPLES, "artifact", tmp_path))


def test_cache_states_through_trajectory(tmp_path: Path) -> None:
    _assert_clean(run_fuzz(TRAJECTORY_EXAMPLES, "trajectory", tmp_path))


@pytest.mark.slow
@pytest.mark.parametrize("call", ["artifact", "trajectory"])
def test_cache_states_slow(tmp_path: Path, call: str) -> None:
    report = run_fuzz(SLOW_EXAMPLES, call, tmp_path)
    print(f"cache states ({call}): {dict(report.counts)}")
    _assert_clean(report)


@ORACLE_RUNS
def test_the_oracle_refutes_a_cache_without_the_trust_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, examples: int
) -> None:
    """Wrong variant: a cache that trusts every directory. The fuzz finds planted code run from an untrusted entry."""
    monkeypatch.setattr(cache, "insecure", lambda path: "")
    report = run_fuzz(examples, "artifact", tmp_path)
    assert report.counts["silent wrong"] > 0
    assert any("untrusted" in detail for _, detail in report.failures)


@ORACLE_RUNS
def test_the_oracle_refutes_a_cache_without_the_type_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, examples: int
) -> None:
    """Wrong variant: entries returned whatever they unpickle to. The fuzz finds the planted string returned."""
    real = cache.cached
    monkeypatch.setattr(cache, "cached", lambda key, kind, expected=object: real(key, kind, object))
    report = run_fuzz(examples, "artifact", tmp_path)
    assert any("'a string'" in detail for _, detail in report.failures)


def test_the_oracle_refutes_a_cache_that_leaves_temporaries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrong variant: the write of before this fuzz, which left its temporary file where the rename failed."""
    real_replace = Path.replace

    def replace(self: Path, target: Path) -> Path:
        if Path(target).is_dir():
            raise IsADirectoryError(21, "Is a directory")  # before: raised out of the write's except, file left
        return real_replace(self, target)

    def leaky_write(path: Path, value: object) -> None:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "wb") as file:
                file.write(pickle.dumps(value))
            replace(temporary, path)
        except OSError:
            return

    monkeypatch.setattr(cache, "_write", leaky_write)
    report = run_fuzz(DEFAULT_EXAMPLES, "artifact", tmp_path)
    assert any("temporary file" in detail for _, detail in report.failures)
