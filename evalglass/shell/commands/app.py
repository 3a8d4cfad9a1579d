"""The command line's application: the typer app every command registers on, its
`--version`, and the one wrapper that turns errors into exit codes (bad input 4, a bug 70)."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Annotated, TypeVar

import typer

from evalglass._version import __version__
from evalglass.core.exits import (
    INPUT_ERROR_EXIT,
    INTERNAL_ERROR_EXIT,
)
from evalglass.errors import EvalglassError
from evalglass.render.safe_text import escape

app = typer.Typer(
    help="Decide which eval results may fail a build: value, validity and authority, kept apart.",
    no_args_is_help=True,
    # `--install-completion` and `--show-completion`: typer's shell completion (bash, zsh, fish,
    # PowerShell), generated from the commands' own signatures.
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

F = TypeVar("F", bound=Callable[..., None])

# Set to anything, it lets an unexpected exception end the run with its traceback.
DEBUG_VARIABLE = "EVALGLASS_DEBUG"


def input_errors_exit(command: F) -> F:
    """Bad input: one line on stderr naming the place, nothing on stdout, exit 4. Anything else
    that escapes a command is a bug in evalglass: one line saying so, exit 70."""

    @functools.wraps(command)
    def wrapper(*args: object, **kwargs: object) -> None:
        try:
            command(*args, **kwargs)
        except EvalglassError as exc:
            typer.echo(f"evalglass: {escape(exc)}", err=True)
            raise typer.Exit(INPUT_ERROR_EXIT) from None
        except (typer.Exit, typer.Abort, typer.BadParameter):
            raise
        except Exception as exc:
            if os.environ.get(DEBUG_VARIABLE):
                raise
            typer.echo(
                f"evalglass: internal error ({type(exc).__name__}: {escape(exc)[:200]}): this is "
                f"a bug in evalglass, not a problem with your input; rerun with "
                f"{DEBUG_VARIABLE}=1 for the traceback, and please report it",
                err=True,
            )
            raise typer.Exit(INTERNAL_ERROR_EXIT) from None

    return wrapper  # type: ignore[return-value]


def echo_out(text: str, nl: bool = True) -> None:
    """Print to stdout. A reader that stops reading (`| head -1`, `| true`) is normal in a pipe,
    not an error: the rest of the text is dropped quietly and the command goes on to exit with
    its own code (a verdict's, not 70)."""
    try:
        typer.echo(text, nl=nl)
    except BrokenPipeError:
        # Point stdout at the null device, so the interpreter's flush at exit finds nothing
        # to fail on either.
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, sys.stdout.fileno())
        finally:
            os.close(null)


def _version(value: bool) -> None:
    if value:
        echo_out(f"evalglass {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """evalglass reads eval outputs and host records and says, per metric, whether it may gate."""
