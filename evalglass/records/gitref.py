"""Host records as they stand at a git ref, so a pull request cannot grant itself authority.

Reads with `git` plumbing only (rev-parse, cat-file); never checks anything out, never writes.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from evalglass._collector import paused
from evalglass.errors import RecordError
from evalglass.records.load import host_records, records_from_text
from evalglass.records.model import HostRecords
from evalglass.records.schema import KINDS


def load_records_at(ref: str, folder: str | os.PathLike[str]) -> HostRecords:
    """Load the records folder as committed at `ref` (a branch, tag or commit).

    `folder` is a path in the working tree's terms (relative to the current directory); it need
    not exist in the working tree. Raises RecordError when git, the ref or the folder is missing.
    """
    shown = f"{ref}:{os.fspath(folder)}"
    top = _top_level(shown)
    inside = Path(os.path.relpath(Path(folder).resolve(), top)).as_posix()
    if inside.startswith(".."):
        raise RecordError(shown, "the records folder is outside this git repository")
    found = _git(top, shown, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if found is None:
        raise RecordError(
            shown,
            f"git ref '{ref}' is not in this clone; fetch it first, e.g. "
            f"`git fetch --depth=1 origin {ref.removeprefix('origin/')}`",
        )
    commit = found.strip()
    prefix = "" if inside == "." else f"{inside}/"
    if prefix and _git(top, shown, "cat-file", "-e", f"{commit}:{inside}") is None:
        raise RecordError(shown, f"there is no folder '{inside}' at {ref}")
    loaded = {}
    with paused():  # as load_records does, across the files
        for kind, spec in KINDS.items():
            text = _git(top, shown, "cat-file", "blob", f"{commit}:{prefix}{spec.filename}")
            where = f"{ref}:{prefix}{spec.filename}"
            loaded[kind] = {} if text is None else records_from_text(kind, text, where)
        return host_records(
            loaded, lambda name: _git(top, shown, "cat-file", "blob", f"{commit}:{prefix}{name}")
        )


def commit_of(ref: str) -> str:
    """The commit `ref` names now, in the repository around the current directory: a caller that
    must keep reading the same records even if the ref later moves reads this commit instead."""
    found = _git(_top_level(ref), ref, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if found is None:
        raise RecordError(ref, f"git ref '{ref}' is not in this clone; fetch it first")
    return found.strip()


def _top_level(shown: str) -> Path:
    top = _git(Path.cwd(), shown, "rev-parse", "--show-toplevel")
    if top is None:
        raise RecordError(shown, "reading records from a git ref needs a git repository here")
    return Path(top.strip())


def _git(cwd: Path, shown: str, *args: str) -> str | None:
    """git's stdout, or None when git says no (missing ref or path)."""
    try:
        result = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, timeout=60, check=False
        )
    except FileNotFoundError as exc:
        raise RecordError(shown, "git is not installed") from exc
    except subprocess.TimeoutExpired as exc:
        raise RecordError(shown, "git did not answer within 60 s") from exc
    if result.returncode != 0:
        return None
    try:
        return result.stdout.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(shown, f"{args[-1]} is not valid UTF-8") from exc
