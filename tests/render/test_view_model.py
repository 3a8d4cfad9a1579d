"""The one view model: built once from a scorecard, typed (numbers as numbers, statuses as the
core's enums), and read by every format, the JSON contract included."""

from __future__ import annotations

import json

from evalglass.core.authority import Outcome
from evalglass.core.decision import Result
from evalglass.core.exits import Verdict
from evalglass.core.status import Status
from evalglass.render import Format, render
from evalglass.render.view import scorecard_view
from tests import render_cases


def test_a_metrics_numbers_are_numbers_and_their_text_is_beside_them() -> None:
    """Each metric's value, n and interval are the measurement's own numbers (None where there
    is none, never a dash to parse back), and `text` prints them as every format does."""
    card = render_cases.scorecard()
    view = scorecard_view(card)
    cards = {c.id: c for c in card.metrics}
    assert {m.id for m in view.metrics} == set(cards)
    for m in view.metrics:
        measured = cards[m.id].measurement
        assert measured is not None
        assert (m.value, m.n, m.interval) == (measured.value, measured.n, measured.interval)
        assert isinstance(m.n, int)
        assert m.text.n == str(m.n)
        assert (m.text.interval == "—") is (m.interval is None)
    unmeasured = scorecard_view(render_cases.single("gone", None)).metrics[0]
    assert (unmeasured.value, unmeasured.text.value) == (None, "—")


def test_statuses_outcomes_results_and_the_verdict_are_the_cores_enums() -> None:
    """The view carries the core's enums, not their words, and each still reads as its code."""
    view = scorecard_view(render_cases.scorecard())
    assert isinstance(view.verdict, Verdict) and view.verdict == view.verdict.value
    for m in view.metrics:
        assert isinstance(m.status, Status) and isinstance(m.outcome, Outcome)
        assert isinstance(m.result, Result)
        assert m.status == m.status.value and str(m.status) == m.status.value


def test_the_json_reads_the_views_words_and_counts() -> None:
    """The JSON's evidence strings are the view's, and its counts the view's one tally."""
    card = render_cases.scorecard()
    view = scorecard_view(card)
    doc = json.loads(render(card, Format.JSON))
    assert [m["gate"]["evidence"] for m in doc["metrics"]] == [m.rests_on for m in view.metrics]
    c = view.counts
    assert doc["counts"] == {
        "passed": c.passed, "warned": c.warned, "failed": c.failed, "blocked": c.blocked,
        "informational": c.informational,
    }  # fmt: skip


def test_junit_totals_are_the_scorecards_counts() -> None:
    """JUnit's failures, errors and skips are the scorecard's counts: failed, blocked (unsound
    included), and informational plus not run."""
    card = render_cases.scorecard()
    c = card.counts
    text = render(card, Format.JUNIT)
    assert f'failures="{c.failed}" errors="{c.blocked}"' in text
    assert f'skipped="{c.informational + c.not_run}"' in text
    assert text.count("<error ") == c.blocked and text.count("<failure ") == c.failed
