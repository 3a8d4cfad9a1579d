"""The command line: parse, call the library, render, exit. It decides nothing itself.

No command or flag writes host records or sets a status, an approval or a calibration. Every
message is one line: bad input exits 4, a bad command line 2, and anything evalglass did not
expect is reported as a bug in evalglass, exit 70, never as a verdict.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import enum
import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from evalglass._version import __version__
from evalglass.calibration_evidence import Scale
from evalglass.core.exits import (
    DIFF_LOOSENED_EXIT,
    INPUT_ERROR_EXIT,
    INTERNAL_ERROR_EXIT,
    USAGE_EXIT,
)
from evalglass.errors import EvalglassError
from evalglass.render import Format, render
from evalglass.render.safe_text import escape
from evalglass.shell import writing

if TYPE_CHECKING:
    from evalglass.core.scorecard import Scorecard
    from evalglass.evidence.model import Skipped

# The library is imported inside each command that uses it, so `--help` and a usage error do not
# pay for the records, evidence and scorecard machinery.

app = typer.Typer(
    help="Decide which eval results may fail a build: value, validity and authority, kept apart.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

F = TypeVar("F", bound=Callable[..., None])


# Set to anything, it lets an unexpected exception end the run with its traceback.
DEBUG_VARIABLE = "EVALGLASS_DEBUG"


def _input_errors_exit(command: F) -> F:
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


def _folder(value: str | Path) -> Path:
    # Path("") is Path("."): an empty value would quietly read the current directory.
    if not str(value):
        raise typer.BadParameter("an empty path names no folder (write `.` for this one)")
    return Path(value)


def _ref(value: str) -> str:
    # An empty ref would quietly mean "the working tree", the records a pull request controls.
    if not value:
        raise typer.BadParameter("an empty git ref names no commit")
    return value


Outputs = Annotated[list[Path] | None, typer.Argument(help="Eval output files or folders.")]
Records = Annotated[
    Path, typer.Option("--records", help="The host-records folder.", parser=_folder)
]


def _known_format(value: str | None) -> str | None:
    if value is not None:
        from evalglass.evidence.registry import names

        if value not in names():
            raise typer.BadParameter(f"{escape(value)!r}: expected one of {', '.join(names())}")
    return value


InputFormat = Annotated[
    str | None,
    typer.Option(
        "--input-format", help="Read every output as this format.", callback=_known_format
    ),
]


def _usage_error(message: str) -> typer.Exit:
    """A bad value the parser could not see: one line on stderr, exit 2."""
    typer.echo(f"evalglass: {message}", err=True)
    return typer.Exit(USAGE_EXIT)


def _as_of(text: str | None) -> dt.date | dt.datetime | None:
    from evalglass.core.evaluation_time import parse_as_of

    if text is None:
        return None
    try:
        return parse_as_of(text)
    except ValueError as exc:
        raise _usage_error(f"--as-of {exc}") from None


AsOf = Annotated[
    str | None,
    typer.Option(
        "--as-of",
        metavar="DATE",
        help="Evaluate as of this date (YYYY-MM-DD, UTC) or time "
        "(YYYY-MM-DDTHH:MM:SSZ); default: now.",
    ),
]


def _reading() -> contextlib.AbstractContextManager[None]:
    """Progress on stderr while eval outputs are read (a bar on a terminal, after a second)."""
    from evalglass.shell.progress import shown

    return shown()


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


def _note(item: Skipped) -> None:
    """One line on stderr per file passed over, so that none is skipped in silence."""
    typer.echo(f"evalglass: skipped {escape(item.source)}: {escape(item.reason)}", err=True)


def _note_skipped(skipped: tuple[Skipped, ...]) -> None:
    for item in skipped:
        _note(item)


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
        typer.echo(shown, nl=False)


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
RecordsRef = Annotated[
    str | None,
    typer.Option(
        "--records-ref",
        metavar="REF",
        parser=_ref,
        help="Read the records folder as committed at this git ref (e.g. origin/main).",
    ),
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


class TierName(enum.Enum):
    """`--tier`: the records' Tier, named here so `--help` loads no records machinery."""

    FAST = "fast"
    FULL = "full"


@app.command()
@_input_errors_exit
def score(
    outputs: Outputs = None,
    records: Records = Path("host_records"),
    fmt: ScorecardFormat = Format.TERMINAL,
    output: Output = None,
    write: Write = None,
    require_gate: RequireGate = False,
    input_format: InputFormat = None,
    records_ref: RecordsRef = None,
    keep_samples: KeepSamples = False,
    template: Template = None,
    as_of: AsOf = None,
) -> None:
    """Score eval outputs against the host records; the exit code follows the verdict. Starts no
    process: host checks are listed as not run (`evalglass run` runs them)."""
    from evalglass.shell import api

    given = outputs or []
    targets, summary = _checked_targets(template, write, fmt, output, records, given)
    when = _as_of(as_of)
    with _reading():
        scorecard = api.score(
            given,
            records,
            input_format=input_format,
            require_gate=require_gate,
            records_ref=records_ref,
            as_of=when,
        )
    _show(scorecard, fmt, output, targets, summary, template, keep_samples)


@app.command("run")
@_input_errors_exit
def run_command(
    outputs: Outputs = None,
    records: Records = Path("host_records"),
    tier: Annotated[
        TierName,
        typer.Option("--tier", help="fast: only the fast checks; full: every check."),
    ] = TierName.FULL,
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
    when = _as_of(as_of)
    # Checks shown live only to a person watching a terminal (not in CI, not into a pipe).
    progress = terminal_progress(sys.stderr) if interactive(sys.stderr) else None
    with _reading():
        scorecard = api.run(
            given,
            records,
            tier=tier.value,
            use_cache=not no_cache,
            cache_dir=cache_dir,
            progress=progress,
            input_format=input_format,
            require_gate=require_gate,
            records_ref=records_ref,
            as_of=when,
        )
    _show(scorecard, fmt, output, targets, summary, template, keep_samples)


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
    _note_skipped(scorecard.skipped)
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


@app.command()
@_input_errors_exit
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


@app.command()
@_input_errors_exit
def metrics(
    outputs: Annotated[list[Path], typer.Argument(help="Eval output files or folders.")],
    skeleton: Annotated[
        bool, typer.Option("--skeleton", help="Print a draft metrics.yaml instead of a table.")
    ] = False,
    fmt: Annotated[Format, typer.Option("--format", help="terminal or json.")] = Format.TERMINAL,
    input_format: InputFormat = None,
) -> None:
    """List the metric ids, values and n found in eval outputs (what metrics.yaml refers to)."""
    from evalglass.evidence.read import read_outputs
    from evalglass.render import listing as render_listing
    from evalglass.tools import listing

    if fmt not in (Format.TERMINAL, Format.JSON):
        raise typer.BadParameter("metrics renders as terminal or json", param_hint="--format")
    if skeleton and fmt is not Format.TERMINAL:
        raise typer.BadParameter("give --skeleton or --format, not both", param_hint="--format")
    with _reading():
        evidence = read_outputs(outputs, input_format)
    _note_skipped(evidence.skipped)
    text = listing.skeleton(evidence) if skeleton else render_listing.render(evidence, fmt)
    typer.echo(text, nl=False)


@app.command()
@_input_errors_exit
def diff(
    outputs: Outputs = None,
    base: Annotated[
        str, typer.Option("--base", metavar="REF", parser=_ref, help="The records before.")
    ] = ...,  # type: ignore[assignment]
    head: Annotated[
        str | None,
        typer.Option(
            "--head", metavar="REF", parser=_ref, help="The records after (default: working tree)."
        ),
    ] = None,
    records: Records = Path("host_records"),
    fmt: Annotated[
        Format, typer.Option("--format", help="terminal, markdown or json.")
    ] = Format.TERMINAL,
    fail_on_loosen: Annotated[
        bool,
        typer.Option(
            "--fail-on-loosen",
            help="Exit 1 when a threshold, metric record or approval loosens, a gating check's "
            "definition changes, or a metric gains authority without a new approval.",
        ),
    ] = False,
    input_format: InputFormat = None,
    as_of: AsOf = None,
) -> None:
    """Show what a change to the host records does to who may gate, and the approvals it makes
    stale or that expire within 30 days."""
    from evalglass.render import records_diff as render_diff
    from evalglass.shell import api

    if fmt not in (Format.TERMINAL, Format.MARKDOWN, Format.JSON):
        raise typer.BadParameter(
            "diff renders as terminal, markdown or json", param_hint="--format"
        )
    when = _as_of(as_of)
    with _reading():
        result = api.diff_records(
            base,
            records,
            outputs or [],
            head_ref=head,
            input_format=input_format,
            on_skipped=_note,
            as_of=when,
        )
    typer.echo(render_diff.render(result, fmt), nl=False)
    if fail_on_loosen and result.loosening:
        raise typer.Exit(DIFF_LOOSENED_EXIT)


@app.command()
@_input_errors_exit
def explain(
    metric: Annotated[
        str, typer.Argument(help="The metric id, as metrics.yaml or an output names it.")
    ],
    outputs: Outputs = None,
    records: Records = Path("host_records"),
    fmt: Annotated[
        Format, typer.Option("--format", help="terminal, markdown or json.")
    ] = Format.TERMINAL,
    input_format: InputFormat = None,
    as_patch: Annotated[
        bool,
        typer.Option(
            "--patch",
            help="Print the edits as a unified diff of the records to review, fill in "
            "(every <placeholder>) and `git apply`; nothing is written.",
        ),
    ] = False,
    as_of: AsOf = None,
) -> None:
    """Explain one metric in plain words, and the host edits that would let it gate (never made)."""
    from evalglass.render import explanation as render_explain
    from evalglass.shell import api

    if fmt not in (Format.TERMINAL, Format.MARKDOWN, Format.JSON):
        raise typer.BadParameter(
            "explain renders as terminal, markdown or json", param_hint="--format"
        )
    when = _as_of(as_of)
    with _reading():
        result = api.explain(
            metric, outputs or [], records, input_format=input_format, on_skipped=_note, as_of=when
        )
    if as_patch:
        typer.echo(api.explain_patch(result, records), nl=False)
        return
    typer.echo(render_explain.render(result, fmt), nl=False)


@app.command()
@_input_errors_exit
def history(
    metric: Annotated[str, typer.Argument(help="The metric id, as the records name it.")],
    records: Records = Path("host_records"),
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            metavar="REF",
            parser=_ref,
            help="Only commits after this git ref (default: the whole history).",
        ),
    ] = None,
    fmt: Annotated[
        Format, typer.Option("--format", help="terminal, markdown or json.")
    ] = Format.TERMINAL,
) -> None:
    """Every commit that changed a record behind a metric, oldest first: who, when, and each
    field's old and new value. Who made this a gate, who approved this bar, on what data."""
    from evalglass.render import history as render_history
    from evalglass.shell import api

    if fmt not in render_history.FORMATS:
        raise typer.BadParameter(
            "history renders as terminal, markdown or json", param_hint="--format"
        )
    typer.echo(render_history.render(api.history(metric, records, since=since), fmt), nl=False)


@app.command()
@_input_errors_exit
def doctor(
    outputs: Outputs = None,
    records: Records = Path("host_records"),
    fmt: Annotated[Format, typer.Option("--format", help="terminal or json.")] = Format.TERMINAL,
    input_format: InputFormat = None,
    as_of: AsOf = None,
) -> None:
    """Name every problem in the host records (and against the outputs): exit 1 on an error."""
    from evalglass.render import diagnosis as render_doctor
    from evalglass.shell import api

    if fmt not in (Format.TERMINAL, Format.JSON):
        raise typer.BadParameter("doctor renders as terminal or json", param_hint="--format")
    when = _as_of(as_of)
    with _reading():
        diagnosis = api.doctor(
            outputs or [], records, input_format=input_format, on_skipped=_note, as_of=when
        )
    typer.echo(render_doctor.render(diagnosis, fmt), nl=False)
    raise typer.Exit(diagnosis.exit_code)


@app.command()
@_input_errors_exit
def trend(
    scorecards: Annotated[
        list[Path],
        typer.Argument(
            help="Scorecard JSON files from earlier runs (score --format json).", show_default=False
        ),
    ],
    metric: Annotated[
        list[str] | None,
        typer.Option("--metric", metavar="ID", help="Show only this metric; repeatable."),
    ] = None,
    fmt: Annotated[
        Format, typer.Option("--format", help="terminal, markdown or html.")
    ] = Format.TERMINAL,
    output: Annotated[
        Path | None, typer.Option("--output", help="Write the trend here instead of stdout.")
    ] = None,
) -> None:
    """Show each metric over earlier runs: value and interval, threshold, and where its authority
    changed. A picture: it reads no records and changes no verdict."""
    from evalglass.render import trend as render_trend
    from evalglass.shell import api
    from evalglass.tools.trend import UnknownMetric

    if fmt not in render_trend.FORMATS:
        raise typer.BadParameter(
            "trend renders as terminal, markdown or html", param_hint="--format"
        )
    if output is not None:
        reason = writing.check(output, Path("host_records"), scorecards)
        if reason is not None:
            raise typer.BadParameter(
                reason.replace("eval output", "scorecard"), param_hint="--output"
            )
    try:
        result = api.trend(scorecards, metric or ())
    except UnknownMetric as exc:
        raise _usage_error(f"--metric: {exc}") from None
    text = render_trend.render(result, fmt)
    if output is None:
        typer.echo(text, nl=False)
    else:
        writing.write_all([(output, text)])


@app.command()
@_input_errors_exit
def validate(records: Records = Path("host_records")) -> None:
    """Check the host-records files against their schema only: fast, for a pre-commit hook."""
    from evalglass.shell import api

    count = api.validate(records)
    typer.echo(f"ok: {count} record{'' if count == 1 else 's'} in {records}")


@app.command("mcp")
@_input_errors_exit
def mcp_command(
    records: Annotated[
        Path,
        typer.Option(
            "--records", help="The host-records folder (relative to --cwd).", parser=_folder
        ),
    ] = Path("host_records"),
    records_ref: Annotated[
        str | None,
        typer.Option(
            "--records-ref",
            metavar="REF",
            parser=_ref,
            help="Read the records as committed at this git ref, fixed to the commit it "
            "names at start.",
        ),
    ] = None,
    cwd: Annotated[
        Path | None,
        typer.Option(
            "--cwd",
            metavar="DIR",
            exists=True,
            file_okay=False,
            help="The working directory: outputs must lie under it (default: here).",
        ),
    ] = None,
) -> None:
    """Serve the read-only tools to an AI agent over MCP (stdio); the records are fixed at start."""
    from importlib.util import find_spec

    from evalglass.shell.mcp_tools import Bounds

    missing = "the MCP SDK 2.x is not installed{}; pip install 'evalglass[mcp]'"
    if find_spec("mcp") is None or find_spec("mcp_types") is None:
        raise EvalglassError("mcp", missing.format(""))
    if cwd is not None:
        os.chdir(cwd)
    # Checked before the SDK loads (about a second): bad records fail at once.
    bounds = Bounds.open(records, records_ref)
    try:
        from evalglass.shell import mcp_server
    except ImportError as exc:
        if (exc.name or "").startswith("evalglass"):
            raise
        raise EvalglassError("mcp", missing.format(f" ({exc})")) from None
    mcp_server.serve(bounds)


@app.command()
@_input_errors_exit
def schema(
    kind: Annotated[
        str | None,
        typer.Argument(
            help="metrics, thresholds, datasets, judges, policies, baselines, "
            "checks or success (default: all eight, keyed by file name)."
        ),
    ] = None,
) -> None:
    """Print the JSON Schema of the host-records files, for an editor's YAML language server."""
    import json

    from evalglass.records.json_schema import json_schema, json_schemas
    from evalglass.records.schema import KINDS

    name = None if kind is None else kind.removesuffix(".yaml")
    if name is not None and name not in KINDS:
        raise typer.BadParameter(f"{kind!r}: expected one of {', '.join(KINDS)}", param_hint="KIND")
    doc = json_schemas() if name is None else json_schema(name)
    typer.echo(json.dumps(doc, indent=2, ensure_ascii=False))


@app.command()
@_input_errors_exit
def calibrate(
    judgments: Annotated[
        Path, typer.Argument(help="The judge's labels: JSONL or CSV with sample_id and label.")
    ],
    labels: Annotated[
        Path,
        typer.Argument(
            help="The human labels: JSONL or CSV with sample_id, label and, for "
            "several people per item, rater."
        ),
    ],
    judge: Annotated[
        str, typer.Option("--judge", metavar="ID", help="The judge's id, as judges.yaml names it.")
    ] = ...,  # type: ignore[assignment]
    judge_model: Annotated[
        str | None,
        typer.Option(
            "--judge-model",
            metavar="MODEL",
            help="The judge's model (default: its record in judges.yaml, read only).",
        ),
    ] = None,
    scale: Annotated[
        Scale | None,
        typer.Option(
            "--scale", help="How labels relate (default: binary for two labels, nominal otherwise)."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Write the evidence JSON here, atomically (never into the records).",
        ),
    ] = None,
    against: Annotated[
        Path | None,
        typer.Option(
            "--against",
            metavar="EVIDENCE",
            help="Evidence recorded earlier: report the change and suspected drift.",
        ),
    ] = None,
    fmt: Annotated[
        Format, typer.Option("--format", help="terminal, markdown or json.")
    ] = Format.TERMINAL,
    seed: Annotated[
        int | None, typer.Option("--seed", min=0, help="The bootstrap's seed (default: fixed).")
    ] = None,
    resamples: Annotated[
        int | None, typer.Option("--resamples", min=0, help="Bootstrap resamples (default 2000).")
    ] = None,
    records: Records = Path("host_records"),
) -> None:
    """Measure how a judge agrees with human labels, with bootstrap intervals: evidence a host
    can point to. It never edits host records."""
    from evalglass.calibration_evidence import read_evidence, to_json
    from evalglass.render import calibration as render_calibration
    from evalglass.tools.calibration import calibrate as calibration
    from evalglass.tools.calibration.drift import compare

    if fmt not in (Format.TERMINAL, Format.MARKDOWN, Format.JSON):
        raise typer.BadParameter(
            "calibrate renders as terminal, markdown or json", param_hint="--format"
        )
    if out is not None:
        given = [judgments, labels, *([] if against is None else [against])]
        reason = writing.check(out, records, given)
        if reason is not None:
            raise typer.BadParameter(escape(reason), param_hint="--out")
    recorded = None if against is None else read_evidence(str(against))
    evidence = calibration.calibrate(
        judgments,
        labels,
        judge=judge,
        judge_model=judge_model,
        scale=scale,
        records=records,
        **({} if seed is None else {"seed": seed}),
        **({} if resamples is None else {"resamples": resamples}),
    )
    drift = None if recorded is None else compare(evidence, recorded, str(against))
    if out is not None:
        writing.write_all([(out, to_json(evidence))])
    typer.echo(render_calibration.render(evidence, fmt, drift), nl=False)
    if out is not None:
        typer.echo(f"evidence written to {out}", err=True)


@app.command()
def sql(
    dialect: Annotated[
        str, typer.Option("--dialect", help="duckdb, spark, bigquery or postgres.")
    ] = "duckdb",
    table: Annotated[str, typer.Option("--table", help="The table of generic rows.")] = "scores",
    columns: Annotated[
        str,
        typer.Option(
            "--optional-columns",
            metavar="NAMES",
            help="The optional columns the table has: cluster, model, sample_id, epoch "
            "(comma-separated; '' for none). With epoch, each sample's epochs are "
            "reduced to their mean first.",
        ),
    ] = "cluster,model",
) -> None:
    """Print the SQL that reduces a table of generic rows to evalglass aggregates (docs/scale.md)."""
    from evalglass.evidence import sql as queries

    known = {d.value: d for d in queries.Dialect}
    if dialect not in known:
        raise typer.BadParameter(
            f"{dialect!r}: expected one of {', '.join(known)}", param_hint="--dialect"
        )
    present = [c.strip() for c in columns.split(",") if c.strip()]
    unknown = [c for c in present if c not in queries.OPTIONAL]
    if unknown:
        raise typer.BadParameter(
            f"{', '.join(unknown)}: expected among {', '.join(queries.OPTIONAL)}",
            param_hint="--optional-columns",
        )
    if "epoch" in present and "sample_id" not in present:
        raise typer.BadParameter(
            "epoch needs sample_id: epochs are of a sample", param_hint="--optional-columns"
        )
    typer.echo(queries.query(known[dialect], table, present), nl=False)


def main() -> None:
    app(prog_name="evalglass")
