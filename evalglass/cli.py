"""The command line: parse, call the library, render, exit. It decides nothing itself.

No command or flag writes host records or sets a status, an approval or a calibration.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Optional, TypeVar

import typer

from evalglass import api
from evalglass._version import __version__
from evalglass.errors import EvalglassError
from evalglass.exits import INPUT_ERROR_EXIT, USAGE_EXIT
from evalglass.render import Format, render
from evalglass.writing import refusal, write_atomic

app = typer.Typer(
    help="Decide which eval results may fail a build: value, validity and authority, kept apart.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

F = TypeVar("F", bound=Callable[..., None])


def _input_errors_exit(command: F) -> F:
    """Bad input: one line on stderr naming the place, nothing on stdout, exit 4."""

    @functools.wraps(command)
    def wrapper(*args: object, **kwargs: object) -> None:
        try:
            command(*args, **kwargs)
        except EvalglassError as exc:
            typer.echo(f"evalglass: {exc}", err=True)
            raise typer.Exit(INPUT_ERROR_EXIT) from None

    return wrapper  # type: ignore[return-value]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"evalglass {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """evalglass reads eval outputs and host records and says, per metric, whether it may gate."""


Outputs = Annotated[Optional[list[Path]], typer.Argument(help="Eval output files or folders.")]
Records = Annotated[Path, typer.Option("--records", help="The host-records folder.")]
InputFormat = Annotated[
    Optional[str], typer.Option("--input-format", help="Read every output as this format.")
]


def _colour() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def _emit(scorecard: api.Scorecard, fmt: Format, output: Path | None, records: Path,
          inputs: list[Path]) -> None:
    if output is None:
        typer.echo(render(scorecard, fmt, colour=fmt is Format.TERMINAL and _colour()), nl=False)
        return
    reason = refusal(output, records, inputs)
    if reason is not None:
        typer.echo(f"evalglass: {reason}", err=True)
        raise typer.Exit(USAGE_EXIT)
    write_atomic(output, render(scorecard, fmt))


@app.command()
@_input_errors_exit
def score(
    outputs: Outputs = None,
    records: Records = Path("host_records"),
    fmt: Annotated[Format, typer.Option("--format", help="How to show the scorecard.")] = Format.TERMINAL,
    output: Annotated[
        Optional[Path], typer.Option("--output", help="Write the scorecard here (atomically).")
    ] = None,
    require_gate: Annotated[
        bool, typer.Option("--require-gate", help="Exit 5 when no metric could gate.")
    ] = False,
    input_format: InputFormat = None,
) -> None:
    """Score eval outputs against the host records; the exit code follows the verdict."""
    given = outputs or []
    scorecard = api.score(given, records, input_format=input_format, require_gate=require_gate)
    _emit(scorecard, fmt, output, records, given)
    raise typer.Exit(scorecard.exit_code)


@app.command()
@_input_errors_exit
def demo(
    fmt: Annotated[Format, typer.Option("--format", help="How to show the scorecard.")] = Format.TERMINAL,
) -> None:
    """Score the bundled example output against the bundled example records."""
    records, output = api.example_paths()
    typer.echo(f"# evalglass score --records {records} {output}", err=True)
    scorecard = api.score([output], records)
    _emit(scorecard, fmt, None, records, [output])
    raise typer.Exit(scorecard.exit_code)


@app.command()
@_input_errors_exit
def metrics(
    outputs: Annotated[list[Path], typer.Argument(help="Eval output files or folders.")],
    skeleton: Annotated[
        bool, typer.Option("--skeleton", help="Print a draft metrics.yaml instead of a table.")
    ] = False,
    input_format: InputFormat = None,
) -> None:
    """List the metric ids, values and n found in eval outputs (what metrics.yaml refers to)."""
    from evalglass import listing
    from evalglass.evidence.read import read_outputs

    evidence = read_outputs(outputs, input_format)
    typer.echo(listing.skeleton(evidence) if skeleton else listing.table(evidence), nl=False)


def main() -> None:
    app(prog_name="evalglass")
