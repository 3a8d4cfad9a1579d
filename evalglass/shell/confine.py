"""The path rule of `evalglass mcp`: an eval output an MCP client names must lie under the server's
working directory, after every `..` and symbolic link is resolved. It reads the file system only
to resolve paths; it never opens an output.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from evalglass.errors import OutputError
from evalglass.evidence.read import pattern_matches


def confine(paths: Sequence[str], root: str | os.PathLike[str]) -> list[str]:
    """The paths to read: each as given, or a quoted glob pattern expanded as the reader expands
    it; OutputError for the first that leads outside `root`.

    The rule holds for every concrete path, never for a pattern's text: a pattern may match a link
    out of `root`. Relative paths are taken from the current directory, as the reader takes them.
    A folder is refused as a whole when anything beneath it is a symbolic link out of `root`:
    skipping that entry would silently change what was measured, and a run that hides an output
    must not pass.
    """
    top = os.path.realpath(root)
    concrete: list[str] = []
    for given in paths:
        for path in pattern_matches(given) or [given]:
            _confine(path, top)
            concrete.append(path)
    return concrete


def _confine(given: str, top: str) -> None:
    if not _inside(os.path.realpath(given), top):
        raise OutputError(
            given,
            f"lies outside the server's working directory {top}; "
            "an MCP client may name only eval outputs under it",
        )
    try:
        folder = stat.S_ISDIR(os.stat(given).st_mode)
    except OSError:
        return  # nothing there, or nothing the OS can look up: the reader says which, in a line
    if not folder:
        return
    path = Path(given)
    # The same walk the reader makes (evidence/read.py), plus every link it would not follow.
    for child in sorted(path.rglob("*")):
        escapes = not _inside(os.path.realpath(child), top)
        if escapes and (child.is_symlink() or child.is_file()):
            shown = os.path.join(given, os.path.relpath(child, path))
            raise OutputError(
                shown,
                "is a symbolic link to outside the server's working "
                f"directory {top}, so the folder {given} is refused",
            )


def _inside(real: str, top: str) -> bool:
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)
