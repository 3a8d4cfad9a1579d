"""`evalglass ARGS` run in this process, as the installed command would run in a subprocess with
a clean environment: for the tests where a subprocess would prove nothing more than the command's
own code does (tests/test_cli.py keeps the real-process end-to-end runs)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import attrs

# What tests/test_cli.run gives its subprocess: nothing of the caller's environment leaks in.
CLEAN_ENV = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1"}


@attrs.frozen
class Result:
    """What a run of the CLI gave, in subprocess.CompletedProcess's names."""

    returncode: int
    stdout: str
    stderr: str


def cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Result:
    """`evalglass ARGS` in `cwd`, with CLEAN_ENV and `env` as the whole environment. An exception
    the command did not turn into an exit code is raised here, where a subprocess would have
    printed its traceback."""
    from typer.testing import CliRunner

    from evalglass.shell.cli import app

    wanted = {**CLEAN_ENV, **(env or {})}
    # CliRunner restores every variable afterwards; None removes one for the run.
    cleared: dict[str, str | None] = {name: None for name in os.environ if name not in wanted}
    with contextlib.chdir(cwd):
        result = CliRunner().invoke(
            app, list(args), env={**cleared, **wanted}, prog_name="evalglass"
        )
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Result(result.exit_code, result.stdout, result.stderr)
