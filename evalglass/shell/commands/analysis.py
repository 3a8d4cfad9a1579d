"""The commands beside the gate: `trend` (earlier scorecards), `calibrate` (a judge against
human labels) and `sql` (aggregates computed where the rows live). None changes a verdict."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from evalglass.calibration_evidence import LabelScale
from evalglass.render import Format
from evalglass.render.safe_text import escape
from evalglass.shell import writing
from evalglass.shell.commands.app import echo_out, input_errors_exit
from evalglass.shell.commands.options import (
    Records,
    TextFormat,
    renders_as,
    usage_error,
)


@input_errors_exit
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
        Format,
        typer.Option(
            "--format", metavar="[terminal|markdown|html]", help="terminal, markdown or html."
        ),
    ] = Format.TERMINAL,
    output: Annotated[
        Path | None, typer.Option("--output", help="Write the trend here instead of stdout.")
    ] = None,
) -> None:
    """Show each metric over earlier runs: value and interval, threshold, and where its authority
    changed. A picture: it reads no records and changes no verdict."""
    from evalglass.errors import UnknownMetric
    from evalglass.render import trend as render_trend
    from evalglass.shell import api

    renders_as("trend", fmt, *render_trend.FORMATS)
    if output is not None:
        reason = writing.check(output, Path("host_records"), scorecards)
        if reason is not None:
            raise typer.BadParameter(
                reason.replace("eval output", "scorecard"), param_hint="--output"
            )
    try:
        result = api.trend(scorecards, metric or ())
    except UnknownMetric as exc:
        raise usage_error(f"--metric: {exc.message}") from None
    text = render_trend.render(result, fmt)
    if output is None:
        echo_out(text, nl=False)
    else:
        writing.write_all([(output, text)])


@input_errors_exit
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
        LabelScale | None,
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
    fmt: TextFormat = Format.TERMINAL,
    seed: Annotated[
        int | None, typer.Option("--seed", min=0, help="The bootstrap's seed (default: fixed).")
    ] = None,
    resamples: Annotated[
        int | None, typer.Option("--resamples", min=1, help="Bootstrap resamples (default 2000).")
    ] = None,
    records: Records = Path("host_records"),
) -> None:
    """Measure how a judge agrees with human labels, with bootstrap intervals: evidence a host
    can point to. It never edits host records."""
    from evalglass.calibration_evidence import read_evidence, to_json
    from evalglass.render import calibration as render_calibration
    from evalglass.tools.calibration import calibrate as calibration
    from evalglass.tools.calibration.drift import compare

    renders_as("calibrate", fmt, Format.TERMINAL, Format.MARKDOWN, Format.JSON)
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
    echo_out(render_calibration.render(evidence, fmt, drift), nl=False)
    if out is not None:
        typer.echo(f"evidence written to {out}", err=True)


def sql(
    dialect: Annotated[
        str,
        typer.Option(
            "--dialect",
            metavar="[duckdb|spark|bigquery|postgres]",
            help="duckdb, spark, bigquery or postgres.",
        ),
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
    echo_out(queries.query(known[dialect], table, present), nl=False)
