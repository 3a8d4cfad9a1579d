"""The Markdown scorecard fits a GitHub comment: shortened past the limit, never losing the gates
that failed or were blocked, and always opening with the hidden marker a workflow updates by."""

from __future__ import annotations

import re

from evalglass.core.scorecard import Scorecard
from evalglass.evidence.model import Interval, Measurement, Method
from evalglass.records.model import (
    MetricRecord,
    MetricStatus,
    Op,
)
from evalglass.render import Format, render
from evalglass.render.markdown import LIMIT, MARKER
from tests import render_cases
from tests.render_cases import GOOD, OLD, RUN

# How each kind of metric is made: (record status or None, dataset, value).
_KINDS = {
    "fail": ("gating", GOOD, 0.70),
    "blocked": ("gating", OLD, 0.90),
    "pass": ("gating", GOOD, 0.90),
    "draft": ("draft", GOOD, 0.90),
    "unrecorded": (None, GOOD, 0.90),
}
_THRESHOLD = render_cases.threshold(Op.GE, 0.8)


def scorecard(**how_many: int) -> Scorecard:
    """A scorecard with `how_many[kind]` metrics of each kind, thresholds at >= 0.8."""
    metrics, thresholds, measurements = {}, {}, {}
    for kind, count in how_many.items():
        status, dataset, value = _KINDS[kind]
        for i in range(count):
            metric_id = f"suite/{kind}/metric-{i:05d}"
            if status is not None:
                metrics[metric_id] = MetricRecord(status=MetricStatus(status), dataset=dataset)
                thresholds[metric_id] = _THRESHOLD
            interval = Interval(value - 0.02, value + 0.02, 0.95, Method.WILSON)
            measurements[metric_id] = Measurement(
                id=metric_id, run=RUN, value=value, n=500, interval=interval
            )
    return render_cases.assembled(metrics, thresholds, measurements)


def listed_ids(markdown: str) -> set[str]:
    return set(re.findall(r"\| `(suite/[^`]+)` \|", markdown))


def test_a_small_scorecard_is_whole_and_opens_with_the_marker() -> None:
    """Under the limit nothing is shortened; the first line is the hidden marker."""
    text = render(render_cases.scorecard(), Format.MARKDOWN)
    assert text.splitlines()[0] == MARKER == "<!-- evalglass-scorecard -->"
    assert "Shortened" not in text
    assert "| `qa/informational` |" in text


def test_ten_thousand_metrics_fit_and_keep_every_failed_and_blocked_gate() -> None:
    """10,000 metrics: under 65,536 characters, every failed and blocked id listed, the marker
    first, the rest counted by outcome and reason, and a pointer to the full scorecards."""
    card = scorecard(fail=40, blocked=40, **{"pass": 6920}, draft=1500, unrecorded=1500)
    assert len(card.metrics) == 10_000
    text = render(card, Format.MARKDOWN)
    assert len(text) <= LIMIT == 65_536
    assert text.splitlines()[0] == MARKER
    must = {m.id for m in card.metrics if "/fail/" in m.id or "/blocked/" in m.id}
    assert must <= listed_ids(text)
    assert "Shortened to fit GitHub's limit of 65,536 characters" in text
    assert (
        "The JSON and HTML scorecards (`--format json`, `--format html`) have every metric" in text
    )
    assert "| informational | `metric_not_gating` | 1500 |" in text
    assert "| informational | `no_record` | 1500 |" in text
    listed = listed_ids(text)
    unlisted = 6920 - len([i for i in listed if "/pass/" in i])
    assert f"**{unlisted} more gates not listed here:** {unlisted} pass." in text


def test_when_even_the_failures_do_not_fit_the_rest_are_counted_by_status() -> None:
    """More failed and blocked gates than fit: failures first, as many as fit, then counts."""
    card = scorecard(fail=700, blocked=700, **{"pass": 100})
    text = render(card, Format.MARKDOWN)
    assert len(text) <= LIMIT
    listed = listed_ids(text)
    fails = sorted(i for i in {m.id for m in card.metrics} if "/fail/" in i)
    shown_fails = [i for i in fails if i in listed]
    assert 0 < len(listed) < 1500 and shown_fails == fails[: len(shown_fails)]
    # Severity order: a blocked gate is listed only once every failure is.
    assert all("/fail/" in i for i in listed) or set(fails) <= listed
    counts = re.search(r"\*\*(\d+) more gates not listed here:\*\* (.*)\.\n", text)
    assert counts is not None
    pairs = (part.split(" ") for part in counts[2].split(", "))
    by_status = {status: int(n) for n, status in pairs}
    assert sum(by_status.values()) == int(counts[1]) == 1500 - len(listed)
    assert by_status["pass"] == 100 and list(by_status)[-1] == "pass"
    assert "No metric could gate" not in text


def test_a_shortened_comment_escapes_like_the_whole_one() -> None:
    """The counted reasons are code spans; no id leaks unescaped into the summary."""
    text = render(scorecard(fail=1, unrecorded=4000), Format.MARKDOWN)
    assert len(text) <= LIMIT
    assert "| informational | `no_record` | 4000 |" in text
    assert "suite/unrecorded/" not in text
