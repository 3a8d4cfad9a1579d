"""Terminal spoofing: whatever text an output or a record carries, no text format prints a
control, bidirectional or surrogate character from it, and no id can add a line of its own (so
none can forge a "PASS" line under the real headline)."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
from hypothesis import given
from hypothesis import strategies as st

from evalglass.core.scorecard import Scorecard
from evalglass.evidence.model import Evidence, Measurement, Run
from evalglass.render import Format, render
from evalglass.render import diagnosis as render_doctor
from evalglass.render import explanation as render_explain
from evalglass.render import records_diff as render_diff
from evalglass.render.safe_text import escape
from evalglass.tools.diagnosis import diagnose
from evalglass.tools.explanation import explain
from evalglass.tools.listing import table
from evalglass.tools.records_diff import diff
from tests.hostile.harness import FUZZ
from tests.render_cases import WHEN, scorecard

# What an attacker reaches for: line ends, ANSI sequences, bidi overrides, C1 controls,
# surrogates; mixed with ordinary text.
HOSTILE_CHARS = st.sampled_from(
    [
        "\n",
        "\r",
        "\x1b[1;32m",
        "\x1b[2K",
        "\x07",
        "\x00",
        "\x85",
        "\x9b",
        "\u2028",
        "\u2029",
        "\u202e",
        "\u2066",
        "\u200f",
        "\ud800",
        "\x7f",
        "\t",
        "PASS",
        " ",
        "a",
        "|",
        "<",
        "%0A",
    ]
)
HOSTILE = st.lists(HOSTILE_CHARS, min_size=1, max_size=8).map("".join) | st.text(max_size=20)
_SGR = re.compile(r"\x1b\[(?:1;)?[0-9]+m")


def _hostile_card(text: str) -> Scorecard:
    card = scorecard({"pass": f"pass{text}", "informational": f"info{text}", "fail": text or "f"})
    return attrs.evolve(card, model=f"model{text}", sources=(f"src{text}.json",))


# Every format but JSON, whose strings are data, not display: any text reads back as written
# (tests/foundation/test_contract.py). A format added to Format is held to these rules with no list to edit.
TEXT_FORMATS = tuple(f for f in Format if f is not Format.JSON)


def _lines_without_text(fmt: Format, colour: bool = False) -> int:
    return render(_hostile_card(""), fmt, colour=colour).count("\n")


@FUZZ
@given(text=HOSTILE)
def test_no_text_format_prints_an_unsafe_character_or_an_extra_line(text: str) -> None:
    """Terminal (plain and coloured), Markdown, GitHub, JUnit and HTML: only safe characters
    (and the format's own line ends and colour codes), and as many lines as with plain ids."""
    card = _hostile_card(text)
    for fmt in TEXT_FORMATS:
        for colour in (False, True) if fmt is Format.TERMINAL else (False,):
            out = render(card, fmt, colour=colour)
            shown = _SGR.sub("", out) if colour else out
            assert all(escape(line) == line for line in shown.split("\n")), (fmt, text)
            if fmt is not Format.HTML:  # the HTML page's line count follows its own markup
                assert out.count("\n") == _lines_without_text(fmt, colour), (fmt, text)


@FUZZ
@given(text=HOSTILE)
def test_explain_doctor_diff_and_metrics_text_are_safe(text: str) -> None:
    """The text views of the tools escape whatever an output names its metric and model."""
    from evalglass.records.model import HostRecords

    metric_id = f"m{text}"
    run = Run(source=f"out{text}.json", models=(f"model{text}",))
    evidence = Evidence(
        measurements={metric_id: Measurement(id=metric_id, run=run, value=0.5, n=10)},
        sources=(run.source,),
    )
    records = HostRecords()
    import datetime as dt

    views = [
        render_explain.render(
            explain(metric_id, records, evidence, evaluated_at=WHEN), Format.TERMINAL
        ),
        render_doctor.render(diagnose(records, evidence, dt.date(2026, 1, 1)), Format.TERMINAL),
        render_diff.render(
            diff(
                records,
                records,
                evidence,
                base_name=f"b{text}",
                head_name="head",
                evaluated_on=dt.date(2026, 1, 1),
            ),
            Format.TERMINAL,
        ),
        table(evidence, escape),
    ]
    for view in views:
        assert all(escape(line) == line for line in view.split("\n")), (view, text)


def test_an_output_file_written_with_output_holds_no_colour(tmp_path: Path) -> None:
    """--output never carries colour codes: only a terminal gets them, and only ours."""
    from tests.cli_runner import cli
    from tests.hostile.harness import copy_example

    work = copy_example(tmp_path)
    (work / "run.json").write_text('{"metrics": {"\\u001b[1;32mPASS\\u001b[0m": 1}}')
    result = cli("score", "run.json", "--output", "card.txt", cwd=work)
    assert result.returncode == 3
    text = (work / "card.txt").read_text()
    assert "\x1b" not in text and "\\x1b[1;32mPASS\\x1b[0m" in text


def test_escape_is_one_line_and_leaves_safe_text_alone() -> None:
    """Safe text is unchanged; each unsafe character becomes a visible escape."""
    assert escape("qa/exact_match — ok é 𝄞") == "qa/exact_match — ok é 𝄞"
    assert escape("a\nb\x1b[31m\u202ec\ud800") == "a\\nb\\x1b[31m\\u202ec\\ud800"


@FUZZ
@given(text=HOSTILE)
def test_a_metrics_skeleton_cannot_be_injected_into(text: str) -> None:
    """`metrics --skeleton` quotes every id as the records reader reads it back: an id from an
    output can never end its line and add a field (say `status: gating`) of its own. An id the
    reader refuses (a lone surrogate) makes the draft fail to load, never load differently."""
    from evalglass.errors import RecordError
    from evalglass.records.load import records_from_text
    from evalglass.tools.listing import skeleton

    metric_id = f"m{text}\n    status: gating"
    run = Run(source="out.json")
    evidence = Evidence(
        measurements={metric_id: Measurement(id=metric_id, run=run, value=1.0, n=1)}
    )
    try:
        loaded = records_from_text(
            "metrics", skeleton(evidence).replace("'<dataset id>'", "d"), "m.yaml"
        )
    except RecordError:
        assert "\ud800" in metric_id
        return
    assert list(loaded) == [metric_id]
    assert loaded[metric_id].status.value == "draft"  # type: ignore[union-attr]


@FUZZ
@given(text=HOSTILE)
def test_init_starter_files_cannot_be_injected_into(text: str) -> None:
    """`evalglass init`'s files quote every id, dataset name and source from an output: none can
    end its line and write a field (say `status: gating` or `approval: approved`) of its own.
    They load to exactly the output's ids, informational and proposed, or (a lone surrogate)
    fail to load, never load differently."""
    from evalglass.errors import RecordError
    from evalglass.evidence.model import DatasetIdentity
    from evalglass.records.load import records_from_text
    from evalglass.records.model import Approval, MetricStatus
    from evalglass.tools.starter import starter

    metric_id = f"m{text}\n    status: gating"
    run = Run(
        source=f"out{text}\napproval: approved.json",
        dataset=DatasetIdentity(name=f"d{text}\n    status: validated", version=f"v{text}"),
    )
    evidence = Evidence(
        measurements={metric_id: Measurement(id=metric_id, run=run, value=1.0, n=1)}
    )
    files = dict(starter(evidence).files)
    try:
        metrics = records_from_text("metrics", files["metrics.yaml"], "m.yaml")
        thresholds = records_from_text("thresholds", files["thresholds.yaml"], "t.yaml")
        datasets = records_from_text("datasets", files["datasets.yaml"], "d.yaml")
        policies = records_from_text("policies", files["policies.yaml"], "p.yaml")
    except RecordError:
        assert "\ud800" in text
        return
    assert list(metrics) == [metric_id] == list(thresholds)
    assert metrics[metric_id].status is MetricStatus.INFORMATIONAL
    assert thresholds[metric_id].approval is Approval.PROPOSED
    assert list(datasets) == [f"d{text}\n    status: validated"]
    assert policies == {}


@FUZZ
@given(text=HOSTILE)
def test_init_pins_cannot_be_injected_into(text: str) -> None:
    """An output naming no dataset but a location and a fingerprint of its own: `init` names the
    dataset by the location and pins the fingerprint, each quoted, so neither can write a field
    (`status: validated`) of its own; the record loads proposed, or (a lone surrogate) not."""
    from evalglass.errors import RecordError
    from evalglass.evidence.model import DatasetIdentity
    from evalglass.records.load import records_from_text
    from evalglass.records.model import DatasetStatus
    from evalglass.tools.starter import starter

    location = f"l{text}\n    status: validated"
    pin = f"sha256:{text}\n  other:\n    status: validated"
    run = Run(source="out.json", dataset=DatasetIdentity(location=location, fingerprint=pin))
    evidence = Evidence(measurements={"m": Measurement(id="m", run=run, value=1.0, n=1)})
    files = dict(starter(evidence).files)
    try:
        datasets = records_from_text("datasets", files["datasets.yaml"], "d.yaml")
    except RecordError:
        assert "\ud800" in text
        return
    assert list(datasets) == [location]
    assert datasets[location].status is DatasetStatus.PROPOSED
    assert datasets[location].fingerprint == pin
