"""Writing outputs: atomically, and never over something the user gave us.

A scorecard is written to a temporary file beside its target and renamed into place, so a
reader never sees half a file and a failed run leaves the old file as it was.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path


def refusal(target: Path, records: Path, inputs: Iterable[Path]) -> str | None:
    """Why `target` must not be written, or None: host records and eval outputs are never
    overwritten by a scorecard."""
    where = target.resolve()
    if where.is_relative_to(records.resolve()):
        return f"{target} is inside the host-records folder {records}; evalglass never writes there"
    for given in inputs:
        source = given.resolve()
        if where == source or (given.is_dir() and where.is_relative_to(source)):
            return f"{target} would overwrite the eval output {given}"
    return None


def write_atomic(target: Path, text: str) -> None:
    directory = target.parent if str(target.parent) else Path(".")
    fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
