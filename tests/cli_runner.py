"""`evalglass ARGS` run in this process, as the installed command would run in a subprocess with
a clean environment: for the tests where a subprocess would prove nothing more than the command's
own code does (tests/shell/test_cli.py keeps the real-process end-to-end runs)."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from pathlib import Path
from typing import Any

import attrs

# What tests/test_cli.run gives its subprocess: nothing of the caller's environment leaks in.
CLEAN_ENV = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1"}


@attrs.frozen
class Result:
    """What a run of the CLI gave, in subprocess.CompletedProcess's names."""

    returncode: int
    stdout: str
    stderr: str


@functools.cache
def _command() -> Any:
    # What `evalglass` runs: typer builds it from the commands' signatures, which costs more
    # than most runs, so it is built once (typer's CliRunner.invoke builds it on every call).
    import typer.main

    from evalglass.shell.cli import app

    return typer.main.get_command(app)


def cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Result:
    """`evalglass ARGS` in `cwd`, with CLEAN_ENV and `env` as the whole environment. An exception
    the command did not turn into an exit code is raised here, where a subprocess would have
    printed its traceback."""
    from typer.testing import CliRunner

    wanted = {**CLEAN_ENV, **(env or {})}
    # The runner restores every variable afterwards; None removes one for the run.
    cleared: dict[str, str | None] = {name: None for name in os.environ if name not in wanted}
    code = 0
    with (
        contextlib.chdir(cwd),
        CliRunner().isolation(env={**cleared, **wanted}) as (stdout, stderr, _),
    ):
        try:
            _command().main(args=list(args), prog_name="evalglass")
        except SystemExit as exc:
            assert exc.code is None or isinstance(exc.code, int), exc.code
            code = exc.code or 0
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        # Read before the runner closes the streams.
        return Result(code, _text(stdout.getvalue()), _text(stderr.getvalue()))


def _text(written: bytes) -> str:
    # As typer's CliRunner reads what was written.
    return written.decode("utf-8", "replace").replace("\r\n", "\n")
