"""Finds and reads the CODEOWNERS file that governs a records folder, as GitHub would: the first
of `.github/CODEOWNERS`, `CODEOWNERS`, `docs/CODEOWNERS` at the top of the repository around it.
Reads only; what the file says is `tools/codeowners.py`'s to work out.
"""

from __future__ import annotations

import os
import posixpath

from evalglass import _inputs
from evalglass.errors import EvalglassError
from evalglass.records.schema import KINDS
from evalglass.tools.codeowners import LOCATIONS, Ownership, parse


def ownership(records: str | os.PathLike[str]) -> Ownership | None:
    """Who CODEOWNERS says owns the folder's thresholds.yaml; None when there is no CODEOWNERS
    file, or the folder lies outside the repository (the current directory, outside one).
    Raises EvalglassError for a CODEOWNERS file that exists and cannot be read."""
    folder = os.path.abspath(os.fspath(records))
    top = _top(folder)
    inside = os.path.relpath(os.path.join(folder, KINDS["thresholds"].filename), top)
    path = posixpath.normpath(inside.replace(os.sep, "/"))
    if path == ".." or path.startswith("../"):
        return None
    for location in LOCATIONS:
        text = _read(os.path.join(top, *location.split("/")), location)
        if text is not None:
            found = parse(text, location)
            return Ownership(codeowners=location, path=path, rule=found.rule_for(path))
    return None


def _top(folder: str) -> str:
    """The repository's top around `folder` (the nearest folder holding `.git`), else the
    current directory."""
    here = folder
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return os.getcwd()
        here = parent


def _read(path: str, shown: str) -> str | None:
    try:
        data = _inputs.read_regular(path)
    except FileNotFoundError:
        return None
    except (OSError, _inputs.TooLarge) as exc:
        raise EvalglassError(
            shown, f"cannot be read: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    return data.decode("utf-8", "replace")
