"""The status vocabulary: every status, its severity and whether it affects the verdict."""

from __future__ import annotations

import attrs

from evalglass import contract
from evalglass.core.authority import Outcome
from evalglass.core.decision import Result
from evalglass.core.exits import Verdict
from evalglass.core.scorecard import Counts
from evalglass.core.status import Status
from evalglass.core.success import decide_run
from evalglass.render import Format, render, trend_html
from evalglass.tools.trend import build
from tests import render_cases

# status: (severity, affects the verdict, blocks the run)
TABLE = {
    "fail": (0, True, False),
    "unsound": (1, True, True),
    "blocked": (2, True, True),
    "warn": (3, True, False),
    "pass": (4, True, False),
    "not_run": (5, False, False),
    "informational": (6, False, False),
}


def test_the_whole_status_table() -> None:
    """Each status carries its severity, whether it affects the verdict and whether it blocks
    the run, and no more statuses exist than the table lists; a status is its code (how formats
    show it is render's)."""
    assert [s.value for s in Status] == list(TABLE)
    for status in Status:
        assert (status.severity, status.decided, status.blocks) == TABLE[status.value]
        assert status == status.value and str(status) == status.value


def test_the_counts_and_the_verdict_read_blocked_alike() -> None:
    """For every status, a lone gate of it is counted as blocked exactly when it makes the
    verdict blocked: the headline's count and the exit code never disagree."""
    for status in Status:
        counted = Counts.of([status]).blocked == 1
        verdict = decide_run({"m": status}, None).verdict
        assert counted is (verdict is Verdict.BLOCKED) is status.blocks, status


def test_the_whole_mapping_from_outcome_and_result() -> None:
    """Blocked whatever the gate; a gate not enforced is not_run when the records let it gate
    (only the run's scope left it out), informational otherwise; else the gate's result."""
    expected = {
        Result.PASS: Status.PASS,
        Result.WARN: Status.WARN,
        Result.FAIL: Status.FAIL,
        Result.UNSOUND: Status.UNSOUND,
    }
    for outcome in Outcome:
        for result in Result:
            if outcome is Outcome.BLOCKED:
                want = Status.BLOCKED
            elif result is Result.NOT_ENFORCED:
                want = Status.NOT_RUN if outcome is Outcome.CAN_GATE else Status.INFORMATIONAL
            else:
                want = expected[result]
            assert Status.of(outcome, result) is want, (outcome, result)


def test_a_gating_check_score_did_not_run_reads_not_run_in_every_format() -> None:
    """A gating check `evalglass score` did not run is `not run` in the terminal, Markdown,
    HTML, JUnit, GitHub and JSON scorecards and in the trend page, never informational."""
    card = render_cases.checked()
    (metric,) = card.metrics
    assert metric.status is Status.NOT_RUN
    shown = {fmt: render(card, fmt) for fmt in Format}
    assert "NOT RUN  check/unit" in shown[Format.TERMINAL]
    assert '<span class="badge">NOT RUN</span>' in shown[Format.HTML]
    assert "INFORMATIONAL" not in shown[Format.HTML]
    assert "status: not run" in shown[Format.JUNIT]
    assert "::notice title=NOT RUN check/unit::" in shown[Format.GITHUB]
    assert "not\\_run: evalglass score starts no process" in shown[Format.MARKDOWN]
    assert '"not_run": 1' in shown[Format.JSON]
    for text in shown.values():
        assert "informational (" not in text.replace("0 informational", "")


def test_the_trend_page_reads_a_check_not_run_by_the_same_word() -> None:
    """The trend of a saved scorecard whose check was not run says NOT RUN, as the scorecard."""
    saved = contract.loads(render(render_cases.checked(), Format.JSON), "card.json")
    page = trend_html.render(build([("card.json", saved)]))
    assert '<span class="badge">NOT RUN</span>' in page


def test_each_status_is_counted_once_in_its_one_tally() -> None:
    """Counts.of is where statuses are counted: each status adds to exactly its field (unsound
    counts as blocked), for the whole vocabulary."""
    fields = {
        Status.PASS: "passed", Status.WARN: "warned", Status.FAIL: "failed",
        Status.UNSOUND: "blocked", Status.BLOCKED: "blocked",
        Status.INFORMATIONAL: "informational", Status.NOT_RUN: "not_run",
    }  # fmt: skip
    assert set(fields) == set(Status)
    for status, field in fields.items():
        counted = attrs.asdict(Counts.of([status, status]))
        assert counted == {name: 2 if name == field else 0 for name in counted}, status
