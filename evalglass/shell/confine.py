"""The path rule of `evalglass mcp`: an eval output an MCP client names must lie under the server's
working directory, after every `..` and symbolic link is resolved. It reads the file system only
to resolve paths; it never opens an output.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from evalglass.errors import OutputError


def confine(paths: Sequence[str], root: str | os.PathLike[str]) -> None:
    """Raise OutputError for the first path that leads outside `root`.

    Relative paths are taken from the current directory, as the reader takes them. A folder is
    refused as a whole when anything beneath it is a symbolic link out of `root`: skipping that
    entry would silently change what was measured, and a run that hides an output must not pass.
    """
    top = os.path.realpath(root)
    for given in paths:
        if not _inside(os.path.realpath(given), top):
            raise OutputError(
                given,
                f"lies outside the server's working directory {top}; "
                "an MCP client may name only eval outputs under it",
            )
        path = Path(given)
        if not path.is_dir():
            continue
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
