"""Renderers display the scorecard; untrusted text can never break or inject into them."""

from __future__ import annotations

import datetime as dt
import json
import re

from evalglass.core.scorecard import assemble
from evalglass.evidence.model import Evidence, Measurement, Run
from evalglass.records.model import (
    Approval,
    ApprovedFor,
    DatasetRecord,
    DatasetStatus,
    HostRecords,
    MetricRecord,
    MetricStatus,
    Op,
    Policy,
    PolicyRecord,
    ThresholdRecord,
)
from evalglass.render import Format, render
from evalglass.render.markdown_text import markdown_code, markdown_escape
from tests.render_cases import WHEN

HOSTILE = [
    "a|b|c",
    "`code` and ``more``",
    "<script>alert(1)</script>",
    "[click](https://evil.example/x)",
    "see www.evil.example now",
    "@alice please",
    "two\nlines\r\nhere",
    "**bold** _it_ ~~gone~~",
    "<img src=x onerror=alert(1)>",
    "a\\|b",
    # A forged verdict line in colour, and a right-to-left override that reverses what follows.
    "x\n\x1b[1;32mPASS\x1b[0m  forged\x1b[2K\r",
    "report\u202egpj.exe\u2066\x00\x85\u2028",
]


def hostile_scorecard():
    """Hostile metric ids and model name: half gated by records that also carry hostile ids."""
    metrics, thresholds, measurements = {}, {}, {}
    dataset = "ds|<b>@team"
    for i, text in enumerate(HOSTILE):
        metric_id = f"{text}#{i}"
        run = Run(source="out|put.json", models=["<b>evil</b>|@root"])
        measurements[metric_id] = Measurement(id=metric_id, run=run, value=0.5, n=None)
        if i % 2:
            metrics[metric_id] = MetricRecord(status=MetricStatus.GATING, dataset=dataset)
            thresholds[metric_id] = ThresholdRecord(
                op=Op.GE,
                value=0.1,
                approval=Approval.APPROVED,
                approved_by="@x",
                approved_on=dt.date(2026, 1, 1),
                approved_for=ApprovedFor(dataset_version="1"),
            )
    records = HostRecords(
        metrics=metrics,
        thresholds=thresholds,
        datasets={dataset: DatasetRecord(status=DatasetStatus.VALIDATED, version="1")},
        policies={dataset: PolicyRecord(policy=Policy.PERMITTED)},
    )
    return assemble(
        records, Evidence(measurements=measurements, sources=("out|put.json",)), evaluated_at=WHEN
    )


def table_rows(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("| ") and "---" not in line]


def cells(row: str) -> list[str]:
    """Split a GFM table row the way GitHub does: on pipes not escaped by a backslash."""
    return re.split(r"(?<!\\)\|", row.strip())[1:-1]


def test_hostile_text_keeps_the_markdown_table_intact() -> None:
    """Every hostile id yields exactly one row with exactly the table's columns."""
    md = render(hostile_scorecard(), Format.MARKDOWN)
    rows = table_rows(md)
    header_rows = [r for r in rows if r.startswith(("| Result", "| Metric"))]
    body = [r for r in rows if r not in header_rows]
    assert len(body) == len(HOSTILE)
    for row in body:
        assert len(cells(row)) in (5, 6), row


def test_hostile_text_keeps_one_evidence_item_per_gate() -> None:
    """Under the table, each gate that decided has exactly one top-level list item, on one line
    that starts with its status: no hostile id or message starts another item or ends the list."""
    card = hostile_scorecard()
    md = render(card, Format.MARKDOWN)
    items = [line for line in md.splitlines() if line.startswith("- ")]
    decided = [m for m in card.metrics if m.decided]
    assert len(items) == len(decided)
    assert all(re.match(r"- \*\*(FAIL|UNSOUND|BLOCKED|WARN|PASS)\*\* `", line) for line in items)


def test_hostile_text_cannot_inject_html_links_or_mentions() -> None:
    """No raw HTML tag, Markdown link, bare URL or @mention survives from untrusted text."""
    md = render(hostile_scorecard(), Format.MARKDOWN)
    outside_code = re.sub(r"(`+)(?:(?!\1).)*?\1", "", md)
    # Inside a code span nothing renders; everywhere else no tag may appear.
    assert "<script" not in outside_code and "<img" not in outside_code
    assert "<b>" not in outside_code
    assert "](https" not in outside_code
    assert "https://" not in outside_code and "www.evil" not in outside_code
    assert not re.search(r"(?<![`\w])@\w", outside_code)


def test_markdown_escape_is_one_inert_line() -> None:
    """The text filter flattens newlines and escapes every character that starts markup."""
    assert markdown_escape("a|b\n[c](d) <e> @f") == "a\\|b \\[c\\](d) &lt;e&gt; &#64;f"


def test_markdown_code_fence_outgrows_backticks() -> None:
    """A code span holding backticks uses a longer fence, so it cannot be closed early."""
    assert markdown_code("a``b") == "```a``b```"
    assert markdown_code("`x`") == "`` `x` ``"
    assert markdown_code("p|q") == "`p\\|q`"


def test_json_is_the_contract_shape() -> None:
    """The JSON keys are exactly the documented contract, at both levels."""
    doc = json.loads(render(hostile_scorecard(), Format.JSON))
    assert list(doc) == [
        "schema_version",
        "verdict",
        "exit_code",
        "evaluated_at",
        "model",
        "sources",
        "records_folder",
        "records_at",
        "counts",
        "policy",
        "metrics",
    ]
    assert list(doc["policy"]) == [
        "source",
        "mode",
        "min_gates",
        "min_pass_rate",
        "must_pass",
        "max_attempts",
        "decided_by",
        "enforced",
        "passed",
        "pass_rate",
        "tolerated",
        "unmet",
    ]
    assert list(doc["metrics"][0]) == [
        "id",
        "value",
        "n",
        "interval",
        "level",
        "method",
        "method_basis",
        "clusters",
        "missing",
        "model",
        "source",
        "dataset",
        "earlier_runs",
        "validity",
        "authority",
        "threshold",
        "gate",
    ]
    datasets = [m["dataset"] for m in doc["metrics"] if m["dataset"] is not None]
    assert datasets and all(
        list(d)
        == [
            "record",
            "name",
            "version",
            "fingerprint",
            "name_verified",
            "version_verified",
            "fingerprint_verified",
        ]
        for d in datasets
    )
    assert [m["id"] for m in doc["metrics"]] == sorted(m["id"] for m in doc["metrics"])


def test_json_keeps_numbers_beyond_64_bits() -> None:
    """A count no fast encoder can hold is written exactly, not dropped or turned into an error."""
    huge = 2**70 + 1
    m = Measurement(id="x", run=Run(source="r.json"), value=0.5, n=huge)
    text = render(
        assemble(HostRecords(), Evidence(measurements={"x": m}), evaluated_at=WHEN), Format.JSON
    )
    assert f'"n": {huge},' in text
    assert json.loads(text)["metrics"][0]["n"] == huge


def test_json_is_indented_for_review() -> None:
    """Two-space indentation, one key per line: a committed baseline scorecard diffs by line."""
    text = render(hostile_scorecard(), Format.JSON)
    assert text.startswith('{\n  "schema_version": 1,\n  "verdict": ')
    assert text.endswith("\n}\n")
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"


def test_terminal_colour_only_when_asked() -> None:
    """Plain text by default; ANSI colour only when the caller asks (a colour TTY)."""
    card = hostile_scorecard()
    assert "\x1b[" not in render(card, Format.TERMINAL)
    assert "\x1b[" in render(card, Format.TERMINAL, colour=True)


def test_informational_run_never_reads_as_pass() -> None:
    """With nothing enforced, every format opens with NO ACTIVE GATE."""
    m = Measurement(id="x", run=Run(source="r.json"), value=0.99, n=1000)
    card = assemble(HostRecords(), Evidence(measurements={"x": m}), evaluated_at=WHEN)
    assert render(card, Format.TERMINAL).startswith("NO ACTIVE GATE — nothing was enforced")
    # Markdown opens with a hidden marker line; the first line a reader sees is the headline.
    hidden, shown = render(card, Format.MARKDOWN).split("\n", 2)[:2]
    assert hidden == "<!-- evalglass-scorecard -->"
    assert shown.startswith("**NO ACTIVE GATE — nothing was enforced")
    assert json.loads(render(card, Format.JSON))["verdict"] == "informational"


def test_the_view_is_built_once_per_scorecard_and_never_for_another() -> None:
    """Formats rendered from one scorecard share its view; another scorecard, even one that
    differs only in a verdict-deciding field, gets its own, never the last one's."""
    import attrs

    from evalglass.core.exits import Verdict
    from evalglass.render.view import scorecard_view

    first = hostile_scorecard()
    assert scorecard_view(first) is scorecard_view(first)
    other = attrs.evolve(first, verdict=Verdict.PASS, exit_code=0)
    assert scorecard_view(other).verdict == "pass" != scorecard_view(first).verdict
    assert render(other, Format.JUNIT) != render(first, Format.JUNIT)
