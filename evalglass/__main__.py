"""The `evalglass` command and `python -m evalglass`: answers `--version` alone, else runs the CLI.

typer, click and pydantic are most of a start-up, and printing the version needs none of them.
"""

from __future__ import annotations

import os
import sys

from evalglass._version import __version__


def main() -> None:
    """Print the version without loading the CLI, or hand the command line to the CLI, which
    exits with the command's own code."""
    if sys.argv[1:] == ["--version"]:
        # The same line the CLI's own --version option prints; a closed pipe is no error.
        try:
            sys.stdout.write(f"evalglass {__version__}\n")
            sys.stdout.flush()
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return
    from evalglass.shell.cli import main as cli

    cli()


if __name__ == "__main__":
    main()
