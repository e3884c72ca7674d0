"""Where the command writes: output paths checked before any claim runs, and the progress display."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from proofs_check.runner import Record

__all__ = ["Progress", "check_destination", "check_destinations", "load_timings", "save_timings", "timings_path"]


def timings_path() -> Path:
    """Where the seconds each claim took in the last run are kept (they order the next run, longest first)."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "layerwise-linear-flows" / "claim-seconds.json"


def load_timings() -> dict[str, float]:
    """Claim id → seconds of the last run; empty if there is none or it cannot be read."""
    try:
        data = json.loads(timings_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}


def save_timings(records: Sequence[Record]) -> None:
    """Merge the records' seconds into the timings file (best effort: a cache that cannot be written is skipped)."""
    merged = {**load_timings(), **{r.claim.id: round(r.seconds, 3) for r in records}}
    path = timings_path()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # shared with the disk cache, kept private
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(merged, sort_keys=True), encoding="utf-8")
        temporary.replace(path)  # atomic, so concurrent runs never read a half-written file
    except OSError:
        return


def check_destination(option: str, path: str, suffix: str | None = None) -> None:
    """ValueError naming ``option`` and ``path`` unless a file can be written at ``path`` (and ends in ``suffix``):
    the path is opened for writing to find out (:func:`_open_problem`)."""
    target = Path(path)
    if suffix is not None and target.suffix != suffix:
        raise ValueError(f"{option} {path!r}: the file name must end in {suffix}")
    if target.is_dir():
        raise ValueError(f"{option} {path!r}: is a directory")
    parent = target.parent
    for ancestor in (parent, *parent.parents):
        if ancestor.exists():
            if not ancestor.is_dir():
                raise ValueError(f"{option} {path!r}: {str(ancestor)!r} is a file, not a directory")
            break
    if not parent.is_dir():
        raise ValueError(f"{option} {path!r}: the directory {str(parent)!r} does not exist")
    problem = _open_problem(target)
    if problem:
        raise ValueError(f"{option} {path!r}: not writable ({problem})")


def _open_problem(target: Path) -> str:
    """Why ``target`` cannot be written, or "": tried, not inferred from the permission bits (which root bypasses,
    while a file such as ``/proc/version`` opens for writing and then fails every write, even root's). An existing
    file is opened to append, without blocking (a FIFO nobody reads is refused), and written zero bytes, which
    changes nothing; a new one is created and removed."""
    existed = target.exists()
    flags = os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK if existed else os.O_WRONLY | os.O_CREAT | os.O_EXCL
    try:
        descriptor = os.open(target, flags, 0o644)
        try:
            os.write(descriptor, b"")
        finally:
            os.close(descriptor)
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    if not existed:
        target.unlink()
    return ""


def check_destinations(json_path: str | None, latex_path: str | None, pdf_path: str | None) -> None:
    """Every output path of the command, checked before any work (``--json -`` is standard output)."""
    if json_path not in (None, "-"):
        check_destination("--json", json_path)
    if latex_path is not None:
        check_destination("--latex", latex_path)
    if pdf_path is not None:
        check_destination("--pdf", pdf_path, ".pdf")


class Progress:
    """Progress of a run on ``stream``: a bar with an ETA (tqdm) on a terminal, one line per finished claim
    otherwise."""

    def __init__(self, stream: TextIO, total: int) -> None:
        self.stream, self.total = stream, total
        self.bar = None
        if stream.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, file=stream, unit="claim", dynamic_ncols=True, leave=False, mininterval=0)

    def __call__(self, done: int, total: int, record: Record) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(record.claim.id, refresh=False)
            self.bar.update(1)
            return
        status = record.outcome.status.value
        self.stream.write(f"[{done}/{total}] {record.claim.id} {status} ({record.seconds:.2f} s)\n")
        self.stream.flush()

    def close(self) -> None:
        """Remove the bar from the terminal."""
        if self.bar is not None:
            self.bar.close()
