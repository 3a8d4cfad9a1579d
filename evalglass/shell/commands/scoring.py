"""`score`, `run` and `demo`: a scorecard, shown and written as asked, and its exit code.

Everything to write is checked before any work, rendered before anything is written, and
written before stdout (so a failed write leaves stdout empty)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from evalglass.render import Format, render
from evalglass.render.safe_text import escape
from evalglass.shell import writing
from evalglass.shell.commands.app import echo_out, input_errors_exit
from evalglass.shell.commands.options import (
    AsOf,
    InputFormat,
    ModelName,
    Outputs,
    Records,
    RecordsRef,
    as_of_value,
    note_skipped,
    reading,
)
from evalglass.tiers import Tier

if TYPE_CHECKING:
    from evalglass.core.scorecard import Scorecard


def _colour() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def _targets(
    write: list[str], fmt: Format, output: Path | None, records: Path, inputs: list[Path]
) -> list[tuple[Format, Path]]:
    """Every file to write, checked before any work: a bad one is a usage error (exit 2)."""
    targets = [] if output is None else [(fmt, output)]
    for spec in write:
        name, sep, path = spec.partition("=")
        try:
            targets.append((Format(name), Path(path)))
        except ValueError:
            sep = ""
        if not sep or not path:
            known = ", ".join(f.value for f in Format)
            raise typer.BadParameter(
                f"{spec!r}: expected FORMAT=PATH, FORMAT one of {known}", param_hint="--write"
            )
    paths = [target.resolve() for _, target in targets]
    if len(set(paths)) != len(paths):
        raise typer.BadParameter("two outputs name the same file", param_hint="--write")
    for _, target in targets:
        reason = writing.check(target, records, inputs)
        if reason is not None:
            raise typer.BadParameter(escape(reason), param_hint="--output/--write")
    return targets


def _summary(
    fmt: Format, targets: list[tuple[Format, Path]], records: Path, inputs: list[Path]
) -> Path | None:
    """GitHub's job summary file, when the Markdown scorecard is to be appended to it; refused
    as an --output would be (exit 2)."""
    summary = os.environ.get(SUMMARY_VARIABLE)
    if not summary or Format.GITHUB not in {fmt, *(f for f, _ in targets)}:
        return None
    reason = writing.check(Path(summary), records, inputs)
    if reason is not None:
        raise typer.BadParameter(escape(reason), param_hint=SUMMARY_VARIABLE)
    return Path(summary)


SUMMARY_VARIABLE = "GITHUB_STEP_SUMMARY"


def _emit(
    scorecard: Scorecard,
    fmt: Format,
    to_stdout: bool,
    targets: list[tuple[Format, Path]],
    keep_samples: bool = False,
    summary: Path | None = None,
    extra: list[tuple[Path, str]] | None = None,
    shown: str | None = None,
) -> None:
    """Everything is rendered before anything is written; files are written before stdout, so
    a failure to write one leaves stdout empty. `extra` are files already rendered, `shown` is
    stdout already rendered."""
    files = [
        (target, render(scorecard, target_fmt, keep_samples=keep_samples))
        for target_fmt, target in targets
    ] + (extra or [])
    colour = fmt is Format.TERMINAL and _colour()
    if to_stdout:
        shown = render(scorecard, fmt, colour=colour, keep_samples=keep_samples)
    appended = render(scorecard, Format.MARKDOWN) if summary is not None else None
    writing.write_all(files)
    if summary is not None and appended is not None:
        # The job summary is GitHub's file, appended to by every step: never replaced.
        writing.append(summary, appended)
    if shown is not None:
        echo_out(shown, nl=False)


# The options `score` and `run` share: `run` is `score` with the host checks run first.
ScorecardFormat = Annotated[Format, typer.Option("--format", help="How to show the scorecard.")]

Output = Annotated[
    Path | None,
    typer.Option("--output", help="Write the --format scorecard here instead of stdout."),
]

Write = Annotated[
    list[str] | None,
    typer.Option(
        "--write",
        metavar="FORMAT=PATH",
        help="Also write this format to this file (atomically); repeatable.",
    ),
]

RequireGate = Annotated[
    bool, typer.Option("--require-gate", help="Exit 5 when no metric could gate.")
]

KeepSamples = Annotated[
    bool,
    typer.Option(
        "--keep-samples", help="Keep per-sample scores in JSON, for use as a paired baseline later."
    ),
]

Template = Annotated[
    Path | None,
    typer.Option(
        "--template",
        metavar="PATH",
        help="Show the scorecard through your own jinja2 template (sandboxed; see "
        "docs/templates.md) instead of --format.",
    ),
]


@input_errors_exit
def score(
    outputs: Outputs = None,
    records: Records = Path("host_records"),
    fmt: ScorecardFormat = Format.TERMINAL,
    output: Output = None,
    write: Write = None,
    require_gate: RequireGate = False,
    input_format: InputFormat = None,
    model: ModelName = None,
    records_ref: RecordsRef = None,
    keep_samples: KeepSamples = False,
    template: Template = None,
    as_of: AsOf = None,
    compare: Annotated[
        Path | None,
        typer.Option(
            "--compare",
            metavar="CARD.json",
            help="Show each metric beside an earlier scorecard JSON: its value there and the "
            "change, with an interval. Display only: changes no gate, verdict or exit code.",
        ),
    ] = None,
) -> None:
    """Score eval outputs against the host records; the exit code follows the verdict. Starts no
    process: host checks are listed as not run (`evalglass run` runs them)."""
    from evalglass.shell import api

    given = outputs or []
    targets, summary = _checked_targets(template, write, fmt, output, records, given)
    when = as_of_value(as_of)
    with reading():
        # The records' ref is also the base a pull request is compared with: a --compare card
        # older than its commit is stale.
        scorecard = api.score(
            given, records, input_format=input_format, model=model, require_gate=require_gate,
            records_ref=records_ref, as_of=when, compare=compare,
        )  # fmt: skip
    _show(scorecard, fmt, output, targets, summary, template, keep_samples)


@input_errors_exit
def run_command(
    outputs: Outputs = None,
    records: Records = Path("host_records"),
    tier: Annotated[
        Tier,
        typer.Option("--tier", help="fast: only the fast checks; full: every check."),
    ] = Tier.FULL,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Run every check live; read and record no pass.")
    ] = False,
    cache_dir: Annotated[
        Path | None,
        typer.Option(
            "--cache-dir",
            metavar="DIR",
            help="Where passes are cached (default: $XDG_CACHE_HOME/evalglass).",
        ),
    ] = None,
    fmt: ScorecardFormat = Format.TERMINAL,
    output: Output = None,
    write: Write = None,
    require_gate: RequireGate = False,
    input_format: InputFormat = None,
    model: ModelName = None,
    records_ref: RecordsRef = None,
    keep_samples: KeepSamples = False,
    template: Template = None,
    as_of: AsOf = None,
) -> None:
    """Run the host checks of a tier (checks.yaml), then score them with the eval outputs: one
    scorecard, one exit code."""
    from evalglass.shell import api
    from evalglass.shell.check_progress import terminal_progress
    from evalglass.shell.progress import interactive

    given = outputs or []
    targets, summary = _checked_targets(template, write, fmt, output, records, given)
    if not no_cache:
        _check_cache_folder(cache_dir, records, given)
    when = as_of_value(as_of)
    # Checks shown live only to a person watching a terminal (not in CI, not into a pipe).
    progress = terminal_progress(sys.stderr) if interactive(sys.stderr) else None
    with reading():
        scorecard = api.run(
            given, records, tier=tier.value, use_cache=not no_cache, cache_dir=cache_dir,
            progress=progress, input_format=input_format, model=model,
            require_gate=require_gate, records_ref=records_ref, as_of=when,
        )  # fmt: skip
    _show(scorecard, fmt, output, targets, summary, template, keep_samples)


def _check_cache_folder(cache_dir: Path | None, records: Path, given: list[Path]) -> None:
    """The check cache is written like any output: never into the records or an eval output,
    whether it was named by --cache-dir or by XDG_CACHE_HOME (exit 2, before any work)."""
    from evalglass.tools.checks.cache import default_folder

    folder = cache_dir if cache_dir is not None else default_folder()
    reason = writing.protected(folder, records, given)
    if reason is not None:
        hint = "--cache-dir" if cache_dir is not None else "XDG_CACHE_HOME"
        raise typer.BadParameter(escape(reason), param_hint=hint)


def _checked_targets(
    template: Path | None, write: list[str] | None, fmt: Format, output: Path | None,
    records: Path, given: list[Path],
) -> tuple[list[tuple[Format, Path]], Path | None]:  # fmt: skip
    """Every file to write and the job summary, checked before any work (exit 2 when bad)."""
    if template is not None and fmt is not Format.TERMINAL:
        raise typer.BadParameter("give --template or --format, not both", param_hint="--template")
    targets = _targets(write or [], fmt, output, records, given)
    return targets, _summary(fmt, targets, records, given)


def _show(
    scorecard: Scorecard, fmt: Format, output: Path | None, targets: list[tuple[Format, Path]],
    summary: Path | None, template: Path | None, keep_samples: bool,
) -> None:  # fmt: skip
    """Write and print the scorecard as asked, then exit with its code."""
    note_skipped(scorecard.skipped)
    if template is not None:
        from evalglass.render import custom

        # Rendered before anything is written: a broken template leaves every file as it was.
        text = custom.render(scorecard, template)
        rest = [(f, path) for f, path in targets if output is None or path != output]
        _emit(
            scorecard,
            fmt,
            False,
            rest,
            keep_samples,
            summary,
            extra=[] if output is None else [(output, text)],
            shown=text if output is None else None,
        )
        raise typer.Exit(scorecard.exit_code)
    _emit(scorecard, fmt, output is None, targets, keep_samples, summary)
    raise typer.Exit(scorecard.exit_code)


@input_errors_exit
def demo(
    fmt: Annotated[
        Format, typer.Option("--format", help="How to show the scorecard.")
    ] = Format.TERMINAL,
) -> None:
    """Score the bundled example output against the bundled example records."""
    from evalglass.shell import api

    records, output = api.example_paths()
    typer.echo(f"# evalglass score --records {records} {output}", err=True)
    scorecard = api.score([output], records)
    _emit(scorecard, fmt, True, [], summary=_summary(fmt, [], records, [output]))
    raise typer.Exit(scorecard.exit_code)
