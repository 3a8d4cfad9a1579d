"""The commands about host records: `metrics`, `diff`, `explain`, `plan`, `history`, `doctor`,
`validate` and `schema`. They read and report; none writes a record."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from evalglass.core.exits import (
    DIFF_LOOSENED_EXIT,
    INPUT_ERROR_EXIT,
)
from evalglass.render import Format
from evalglass.shell.commands.app import echo_out, input_errors_exit
from evalglass.shell.commands.options import (
    AsOf,
    InputFormat,
    ModelName,
    Outputs,
    Records,
    RecordsRef,
    TerminalOrJson,
    TextFormat,
    as_of_value,
    note,
    note_skipped,
    reading,
    ref,
    renders_as,
)


@input_errors_exit
def metrics(
    outputs: Annotated[list[Path], typer.Argument(help="Eval output files or folders.")],
    skeleton: Annotated[
        bool, typer.Option("--skeleton", help="Print a draft metrics.yaml instead of a table.")
    ] = False,
    fmt: TerminalOrJson = Format.TERMINAL,
    input_format: InputFormat = None,
    model: ModelName = None,
) -> None:
    """List the metric ids, values and n found in eval outputs (what metrics.yaml refers to)."""
    from evalglass.evidence.read import read_outputs
    from evalglass.render import listing as render_listing
    from evalglass.tools import listing

    renders_as("metrics", fmt, Format.TERMINAL, Format.JSON)
    if skeleton and fmt is not Format.TERMINAL:
        raise typer.BadParameter("give --skeleton or --format, not both", param_hint="--format")
    with reading():
        evidence = read_outputs(outputs, input_format, model)
    note_skipped(evidence.skipped)
    text = listing.skeleton(evidence) if skeleton else render_listing.render(evidence, fmt)
    echo_out(text, nl=False)


@input_errors_exit
def diff(
    outputs: Outputs = None,
    base: Annotated[
        str, typer.Option("--base", metavar="REF", parser=ref, help="The records before.")
    ] = ...,  # type: ignore[assignment]
    head: Annotated[
        str | None,
        typer.Option(
            "--head", metavar="REF", parser=ref, help="The records after (default: working tree)."
        ),
    ] = None,
    records: Records = Path("host_records"),
    fmt: TextFormat = Format.TERMINAL,
    fail_on_loosen: Annotated[
        bool,
        typer.Option(
            "--fail-on-loosen",
            help="Exit 1 when a threshold, metric record or approval loosens, a gating check's "
            "definition changes, or a metric gains authority without a new approval.",
        ),
    ] = False,
    input_format: InputFormat = None,
    model: ModelName = None,
    as_of: AsOf = None,
) -> None:
    """Show what a change to the host records does to who may gate, and the approvals it makes
    stale or that expire within 30 days."""
    from evalglass.render import records_diff as render_diff
    from evalglass.shell import api

    renders_as("diff", fmt, Format.TERMINAL, Format.MARKDOWN, Format.JSON)
    when = as_of_value(as_of)
    with reading():
        result = api.diff_records(
            base, records, outputs or [], head_ref=head, input_format=input_format, model=model,
            on_skipped=note, as_of=when,
        )  # fmt: skip
    echo_out(render_diff.render(result, fmt), nl=False)
    if fail_on_loosen and result.loosening:
        raise typer.Exit(DIFF_LOOSENED_EXIT)


@input_errors_exit
def explain(
    metric: Annotated[
        str, typer.Argument(help="The metric id, as metrics.yaml or an output names it.")
    ],
    outputs: Outputs = None,
    records: Records = Path("host_records"),
    fmt: TextFormat = Format.TERMINAL,
    input_format: InputFormat = None,
    model: ModelName = None,
    as_patch: Annotated[
        bool,
        typer.Option(
            "--patch",
            help="Print the edits as a unified diff of the records to review, fill in "
            "(every <placeholder>) and `git apply`; nothing is written.",
        ),
    ] = False,
    as_of: AsOf = None,
    records_ref: RecordsRef = None,
) -> None:
    """Explain one metric in plain words, and the host edits that would let it gate (never made)."""
    from evalglass.render import explanation as render_explain
    from evalglass.shell import api

    renders_as("explain", fmt, Format.TERMINAL, Format.MARKDOWN, Format.JSON)
    if as_patch and records_ref is not None:
        # The patch is written against the working tree's files, which are not the ref's.
        raise typer.BadParameter(
            "--patch edits the working tree's records: drop --records-ref", param_hint="--patch"
        )
    when = as_of_value(as_of)
    with reading():
        result = api.explain(
            metric, outputs or [], records, input_format=input_format, model=model,
            on_skipped=note, records_ref=records_ref, as_of=when,
        )  # fmt: skip
    if as_patch:
        echo_out(api.explain_patch(result, records), nl=False)
        return
    echo_out(render_explain.render(result, fmt), nl=False)


@input_errors_exit
def plan(
    metric: Annotated[str, typer.Argument(help="The metric id, as metrics.yaml names it.")],
    expect: Annotated[
        float,
        typer.Option("--expect", metavar="VALUE", help="The value you expect the metric to have."),
    ] = ...,  # type: ignore[assignment]
    power: Annotated[
        float,
        typer.Option("--power", metavar="P", help="The chance the gate should pass with."),
    ] = 0.8,
    sd: Annotated[
        float | None,
        typer.Option(
            "--sd",
            metavar="SD",
            help="The scores' standard deviation, for scores that are not 0/1 (normal "
            "approximation; without it, 0/1 scores and exact binomial power).",
        ),
    ] = None,
    records: Records = Path("host_records"),
    fmt: TerminalOrJson = Format.TERMINAL,
) -> None:
    """How many samples to plan for: the n at which the metric's gate passes with at least
    --power when its true value is --expect. Reads the records only."""
    from evalglass.render import planning as render_plan
    from evalglass.shell import api

    renders_as("plan", fmt, Format.TERMINAL, Format.JSON)
    result = api.plan(metric, records, expect=expect, power=power, sd=sd)
    typer.echo(render_plan.render(result, fmt), nl=False)


@input_errors_exit
def history(
    metric: Annotated[str, typer.Argument(help="The metric id, as the records name it.")],
    records: Records = Path("host_records"),
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            metavar="REF",
            parser=ref,
            help="Only commits after this git ref (default: the whole history).",
        ),
    ] = None,
    fmt: TextFormat = Format.TERMINAL,
) -> None:
    """Every commit that changed a record behind a metric, oldest first: who, when, and each
    field's old and new value. Who made this a gate, who approved this bar, on what data."""
    from evalglass.render import history as render_history
    from evalglass.shell import api

    renders_as("history", fmt, *render_history.FORMATS)
    echo_out(render_history.render(api.history(metric, records, since=since), fmt), nl=False)


@input_errors_exit
def doctor(
    outputs: Outputs = None,
    records: Records = Path("host_records"),
    fmt: TerminalOrJson = Format.TERMINAL,
    input_format: InputFormat = None,
    model: ModelName = None,
    as_of: AsOf = None,
    records_ref: RecordsRef = None,
) -> None:
    """Name every problem in the host records (and against the outputs): exit 1 on an error."""
    from evalglass.render import diagnosis as render_doctor
    from evalglass.shell import api

    renders_as("doctor", fmt, Format.TERMINAL, Format.JSON)
    when = as_of_value(as_of)
    with reading():
        diagnosis = api.doctor(
            outputs or [], records, input_format=input_format, model=model, on_skipped=note,
            records_ref=records_ref, as_of=when,
        )  # fmt: skip
    echo_out(render_doctor.render(diagnosis, fmt), nl=False)
    raise typer.Exit(diagnosis.exit_code)


@input_errors_exit
def validate(records: Records = Path("host_records")) -> None:
    """Check the host-records files against their schema only: fast, for a pre-commit hook."""
    from evalglass.errors import RecordErrors
    from evalglass.render.safe_text import escape
    from evalglass.shell import api

    try:
        count = api.validate(records)
    except RecordErrors as exc:
        # Every problem at once, one line each, so a newcomer fixes them in one round.
        for error in exc.errors:
            typer.echo(f"evalglass: {escape(error)}", err=True)
        if len(exc.errors) > 1:
            typer.echo(f"evalglass: {len(exc.errors)} errors in {records}", err=True)
        raise typer.Exit(INPUT_ERROR_EXIT) from None
    echo_out(f"ok: {count} record{'' if count == 1 else 's'} in {records}")


@input_errors_exit
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
    echo_out(json.dumps(doc, indent=2, ensure_ascii=False))
