"""Under a gate that failed or is blocked, every format lists the samples that cost it most: for
0/1 scores the failing ones in the order the output lists them, otherwise the worst, at most ten,
with the file they are in; the HTML and Markdown cards say how to open them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from evalglass.core.costly import MOST, costly_samples
from evalglass.core.scorecard import Scorecard, assemble
from evalglass.evidence.model import Measurement, Run, Sample
from evalglass.evidence.read import read_outputs
from evalglass.records.model import HostRecords, MetricRecord, MetricStatus, Op
from evalglass.render import Format, render
from tests import render_cases

ROOT = Path(__file__).resolve().parents[2]
LOG = next((ROOT / "tests/fixtures/inspect/logs/json").glob("*_arith_*.json"))
SHOWN = str(LOG.relative_to(ROOT))


def scored(metric_id: str, op: Op, bar: float) -> Scorecard:
    """The real Inspect log with one of its metrics gating at `op bar`."""
    evidence = read_outputs([LOG.relative_to(ROOT)])
    records = HostRecords(
        metrics={metric_id: MetricRecord(status=MetricStatus.GATING, dataset=render_cases.GOOD)},
        thresholds={metric_id: render_cases.threshold(op, bar)},
        datasets=render_cases.DATASETS,
        policies=render_cases.POLICIES,
    )
    return assemble(records, evidence, evaluated_at=render_cases.WHEN)


def log_scores(scorer: str) -> list[tuple[str, object]]:
    """Each sample's id and score as the log itself lists them (Inspect's C/I read as 1/0)."""
    doc = json.loads(LOG.read_text(encoding="utf-8"))
    values = [(s["id"], s["scores"][scorer]["value"]) for s in doc["samples"]]
    return [(i, {"C": 1.0, "I": 0.0}.get(v, v) if isinstance(v, str) else v) for i, v in values]


@pytest.fixture(scope="module", autouse=True)
def _from_the_root(request: pytest.FixtureRequest) -> None:
    """Paths as a user gives them, from the repository's root."""
    request.getfixturevalue("monkeypatch_module").chdir(ROOT)


@pytest.fixture(scope="module")
def monkeypatch_module() -> object:
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def test_a_failed_0_1_gate_lists_its_failing_samples_in_every_format() -> None:
    """arith/match/accuracy at >= 0.9: the first ten samples scored 0, in the log's order, in
    every format, with the log they are in; Markdown and HTML say to open them with
    `inspect view`."""
    card = scored("arith/match/accuracy", Op.GE, 0.9)
    (metric,) = [m for m in card.metrics if m.id == "arith/match/accuracy"]
    assert metric.status.value in ("fail", "blocked")
    want = [i for i, score in log_scores("match") if score == 0.0][:MOST]
    assert len(want) == MOST
    assert [s.id for s in metric.costly] == want
    assert {s.source for s in metric.costly} == {SHOWN}
    doc = json.loads(render(card, Format.JSON))
    (entry,) = [m for m in doc["metrics"] if m["id"] == metric.id]
    assert [s["id"] for s in entry["costly_samples"]] == want
    assert {s["source"] for s in entry["costly_samples"]} == {SHOWN}
    opener = "inspect view --log-dir tests/fixtures/inspect/logs/json"
    for fmt in Format:
        text = render(card, fmt)
        assert all(i in text for i in want), fmt
    assert opener in render(card, Format.MARKDOWN)
    assert opener in render(card, Format.HTML)
    for fmt in (Format.TERMINAL, Format.JUNIT, Format.GITHUB):
        assert f"samples that cost it most, in {SHOWN}" in render(card, fmt), fmt
    assert f"Samples that cost it most, in <code>{SHOWN}</code>" in render(card, Format.HTML)
    assert f"samples that cost it most, in `{SHOWN}`" in render(card, Format.MARKDOWN)


def test_a_failed_gate_on_other_scores_lists_its_worst_samples() -> None:
    """arith/numeric_closeness/mean at >= 0.999: the ten lowest scores, lowest first."""
    card = scored("arith/numeric_closeness/mean", Op.GE, 0.999)
    (metric,) = [m for m in card.metrics if m.id == "arith/numeric_closeness/mean"]
    assert metric.status.value in ("fail", "blocked")
    scores = [(i, float(v)) for i, v in log_scores("numeric_closeness") if not isinstance(v, str)]
    ranked = sorted(enumerate(scores), key=lambda p: (p[1][1], p[0]))
    assert [(s.id, s.score) for s in metric.costly] == [pair for _, pair in ranked[:MOST]]


def test_a_passed_gate_lists_no_samples() -> None:
    """Only a gate that stops the build lists samples."""
    card = scored("arith/match/accuracy", Op.GE, 0.1)
    (metric,) = [m for m in card.metrics if m.id == "arith/match/accuracy"]
    if metric.status.value == "pass":
        assert metric.costly == ()
        assert "costly_samples" not in render(card, Format.JSON)


def _measured(scores: list[float]) -> Measurement:
    samples = tuple(Sample(id=f"s{i}", score=x) for i, x in enumerate(scores))
    return Measurement(id="m", run=Run(source="o.json"), value=None, n=len(scores), samples=samples)


def test_the_whole_rule_on_small_cases() -> None:
    """Higher is better: 0s in order, else the lowest; lower is better: 1s, else the highest;
    non-finite scores skipped; at most ten; nothing without samples."""
    ge, le = render_cases.threshold(Op.GE, 0.5), render_cases.threshold(Op.LE, 0.5)
    cases = [
        ([1, 0, 1, 0], ge, ["s1", "s3"]),
        ([1, 0, 1, 0], le, ["s0", "s2"]),
        ([0.5, 0.2, 0.9, 0.2], ge, ["s1", "s3", "s0", "s2"]),
        ([0.5, 0.2, 0.9, 0.2], le, ["s2", "s0", "s1", "s3"]),
        ([math.nan, 0.0, 1.0], ge, ["s1"]),
        ([0.0] * 30, ge, [f"s{i}" for i in range(MOST)]),
    ]
    for scores, threshold, want in cases:
        assert [s.id for s in costly_samples(_measured(scores), threshold)] == want, scores
    unkept = Measurement(id="m", run=Run(source="o.json"), value=0.1, n=10)
    assert costly_samples(unkept, ge) == ()


def test_a_reader_that_keeps_no_samples_shows_none(tmp_path: Path) -> None:
    """Rows (JSONL, CSV, Parquet) are summed, not kept: a failed gate from them lists no samples
    rather than something partial, and says nothing about opening them."""
    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps({"metric": "m", "sample_id": f"s{i}", "score": i % 2})
                            + "\n" for i in range(40)))  # fmt: skip
    evidence = read_outputs([rows])
    records = HostRecords(
        metrics={"m": MetricRecord(status=MetricStatus.GATING, dataset=render_cases.GOOD)},
        thresholds={"m": render_cases.threshold(Op.GE, 0.9)},
        datasets=render_cases.DATASETS,
        policies=render_cases.POLICIES,
    )
    card = assemble(records, evidence, evaluated_at=render_cases.WHEN)
    (metric,) = card.metrics
    assert metric.status.value in ("fail", "blocked")
    assert metric.costly == ()
    assert "costly_samples" not in render(card, Format.JSON)


def test_a_promptfoo_gate_lists_its_failed_test_cases_and_says_to_open_promptfoo_view() -> None:
    """echo/terse/pass_rate of a real promptfoo export at >= 0.99: its failed test cases (by
    testIdx, as the export's rows say), and `promptfoo view` with the export's eval id to open
    them."""
    export = "tests/fixtures/promptfoo/results/results.json"
    doc = json.loads((ROOT / export).read_text(encoding="utf-8"))
    prompts = doc["results"]["prompts"]
    column = next(
        i for i, p in enumerate(prompts) if p["provider"] == "echo" and p["label"] == "terse"
    )
    rows = sorted(
        (r for r in doc["results"]["results"] if r["promptIdx"] == column),
        key=lambda r: r["testIdx"],
    )
    want = [str(r["testIdx"]) for r in rows if not r["success"]]
    evidence = read_outputs([export])
    metric_id = "echo/terse/pass_rate"
    records = HostRecords(
        metrics={metric_id: MetricRecord(status=MetricStatus.GATING, dataset=render_cases.GOOD)},
        thresholds={metric_id: render_cases.threshold(Op.GE, 0.99)},
        datasets=render_cases.DATASETS,
        policies=render_cases.POLICIES,
    )
    card = assemble(records, evidence, evaluated_at=render_cases.WHEN)
    (metric,) = [m for m in card.metrics if m.id == metric_id]
    assert want and [s.id for s in metric.costly] == want
    opener = f"promptfoo view (eval {doc['evalId']})"
    assert f"open them with `{opener}`" in render(card, Format.MARKDOWN)
    assert f"<code>{opener}</code>" in render(card, Format.HTML)
