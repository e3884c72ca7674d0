"""Where the command writes: output paths checked before any claim runs, and the progress display."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TextIO

from proofs_check.runner import Record

__all__ = ["Progress", "check_destination", "check_destinations"]


def check_destination(option: str, path: str, suffix: str | None = None) -> None:
    """ValueError naming ``option`` and ``path`` unless a file can be written at ``path`` (and ends in ``suffix``)."""
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
    writable = os.access(target, os.W_OK) if target.exists() else os.access(parent, os.W_OK | os.X_OK)
    if not writable:
        raise ValueError(f"{option} {path!r}: not writable")


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
