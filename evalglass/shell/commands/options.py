"""What several commands parse alike: folders, git refs, outputs, `--as-of`, `--input-format`,
and the one-line notes on stderr (files skipped, progress while reading)."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
import typer.core

from evalglass.core.exits import (
    USAGE_EXIT,
)
from evalglass.evidence import registry
from evalglass.render import Format
from evalglass.render.safe_text import escape

if TYPE_CHECKING:
    from evalglass.evidence.model import Skipped


def folder(value: str | Path) -> Path:
    """A folder option's value; an empty one is refused rather than read as `.`."""
    # Path("") is Path("."): an empty value would quietly read the current directory.
    if not str(value):
        raise typer.BadParameter("an empty path names no folder (write `.` for this one)")
    return Path(value)


def ref(value: str) -> str:
    """A git ref option's value; an empty one is refused rather than read as the working tree."""
    # An empty ref would quietly mean "the working tree", the records a pull request controls.
    if not value:
        raise typer.BadParameter("an empty git ref names no commit")
    return value


Outputs = Annotated[list[Path] | None, typer.Argument(help="Eval output files or folders.")]

RECORDS = Path("host_records")


def found_records(start: Path) -> Path:
    """The records folder a command uses when none is named: `./host_records`, else the nearest
    `host_records/` in a folder above, up to the top of the repository (the first folder holding
    `.git`), as git finds its own. Outside a repository only `./host_records`: records that can
    grant authority are never taken from some folder above a project. `host_records` when there
    is none, so the error names what was looked for. One found above is relative to `start`."""
    here = start.resolve()
    if (here / RECORDS).is_dir():
        return RECORDS
    nearest = None
    for place in (here, *here.parents):
        if nearest is None and (place / RECORDS).is_dir():
            nearest = place / RECORDS
        if (place / ".git").exists():
            return RECORDS if nearest is None else Path(os.path.relpath(nearest, here))
    return RECORDS


def _discover(value: Path) -> Path:
    if value != RECORDS:
        return value
    found = found_records(Path.cwd())
    if found != RECORDS:
        # Said once, on stderr: the folder a scorecard's authority came from is never a guess.
        typer.echo(
            f"evalglass: records: {escape(found)} (the nearest host_records/ above)", err=True
        )
    return found


RecordsRef = Annotated[
    str | None,
    typer.Option(
        "--records-ref",
        metavar="REF",
        parser=ref,
        help="Read the records folder as committed at this git ref (e.g. origin/main).",
    ),
]

Records = Annotated[
    Path,
    typer.Option(
        "--records",
        metavar="DIR",
        help="The host-records folder (default: ./host_records, else the nearest one above, up "
        "to the repository's top).",
        parser=folder,
        callback=_discover,
    ),
]

# `init` creates the folder it names, here: it never looks for one elsewhere.
NewRecords = Annotated[
    Path,
    typer.Option("--records", metavar="DIR", help="The folder to create.", parser=folder),
]


def _known_format(value: str | None) -> str | None:
    if value is not None and value not in registry.names():
        choices = ", ".join(registry.names())
        raise typer.BadParameter(f"{escape(value)!r}: expected one of {choices}")
    return value


ModelName = Annotated[
    str | None,
    typer.Option(
        "--model",
        metavar="NAME",
        help="Score only this model's outputs (as the outputs name it); the others are skipped. "
        "Needed when outputs measure one metric for several models.",
    ),
]

InputFormat = Annotated[
    str | None,
    typer.Option(
        "--input-format",
        metavar="FORMAT",
        # The formats are listed when help is shown (help_lists_formats): plugins' among them,
        # whose lookup no other command line should pay for.
        help="Read every output as this format.",
        callback=_known_format,
    ),
]


def input_format_help() -> str:
    """`--input-format`'s help: every format, plugins' included, in the order files are offered."""
    return "Read every output as this format: " + ", ".join(registry.names()) + "."


class ListsFormats(typer.core.TyperCommand):
    """A command whose `--help` lists every format `--input-format` takes, looked up only then."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The help, `--input-format`'s with every format's name."""
        for param in self.params:
            if param.name == "input_format" and isinstance(param, typer.core.TyperOption):
                param.help = input_format_help()
        super().format_help(ctx, formatter)


def usage_error(message: str) -> typer.Exit:
    """A bad value the parser could not see: one line on stderr, exit 2."""
    typer.echo(f"evalglass: {message}", err=True)
    return typer.Exit(USAGE_EXIT)


def as_of_value(text: str | None) -> dt.date | dt.datetime | None:
    """`--as-of` as a date or time, None when not given; a usage error (exit 2) when unreadable."""
    from evalglass.core.evaluation_time import parse_as_of

    if text is None:
        return None
    try:
        return parse_as_of(text)
    except ValueError as exc:
        raise usage_error(f"--as-of {exc}") from None


AsOf = Annotated[
    str | None,
    typer.Option(
        "--as-of",
        metavar="DATE",
        help="Evaluate as of this date (YYYY-MM-DD, UTC) or time "
        "(YYYY-MM-DDTHH:MM:SSZ); default: now.",
    ),
]


def reading() -> contextlib.AbstractContextManager[None]:
    """Progress on stderr while eval outputs are read (a bar on a terminal, after a second)."""
    from evalglass.shell.progress import shown

    return shown()


def note(item: Skipped) -> None:
    """One line on stderr per file passed over, so that none is skipped in silence."""
    typer.echo(f"evalglass: skipped {escape(item.source)}: {escape(item.reason)}", err=True)


def note_skipped(skipped: tuple[Skipped, ...]) -> None:
    """One line on stderr for each file passed over."""
    for item in skipped:
        note(item)


# `--format` for the commands that render text or JSON (each checks its own with `renders_as`).
TextFormat = Annotated[
    Format,
    typer.Option(
        "--format", metavar="[terminal|markdown|json]", help="terminal, markdown or json."
    ),
]
TerminalOrJson = Annotated[
    Format, typer.Option("--format", metavar="[terminal|json]", help="terminal or json.")
]


def renders_as(command: str, fmt: Format, *allowed: Format) -> None:
    """Refuse a `--format` the command has no renderer for: a usage error (exit 2)."""
    if fmt not in allowed:
        names = [f.value for f in allowed]
        said = " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        raise typer.BadParameter(f"{command} renders as {said}", param_hint="--format")
