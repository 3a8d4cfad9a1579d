"""trend: the series of each metric over saved scorecards, in order of evaluation time, with the
runs where its threshold or authority changed. Built from contract documents; decides nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalglass import contract
from evalglass.errors import UnknownMetric
from evalglass.tools.trend import Order, TrendRule, build

DAY = dt.datetime(2026, 11, 2, tzinfo=dt.UTC)


def threshold(
    value: float = 0.85, approval: str = "approved", op: str = ">="
) -> contract.Threshold:
    return contract.Threshold(
        op=op,
        value=value,
        max_drop=None,
        max_relative_drop=None,
        warn_value=None,  # type: ignore[arg-type]
        approval=approval,
        approved_by=None,
        approved_on=None,  # type: ignore[arg-type]
    )


def metric(
    metric_id: str,
    value: float | None = 0.9,
    *,
    outcome: str = "can_gate",
    reasons: tuple[str, ...] = (),
    rule: contract.Threshold | None = None,
    interval: tuple[float | None, float | None] | None = (0.88, 0.92),
    result: str | None = None,
) -> contract.Metric:
    gate = result or ("pass" if outcome == "can_gate" else "not_enforced")
    return contract.Metric(
        id=metric_id, value=value, n=200, interval=interval, level=0.95, method="wilson",
        clusters=None, missing=0, model="m", source="run.json", earlier_runs=(),
        validity=contract.Validity(valid=True, reasons=()),
        authority=contract.Authority(
            outcome=outcome,  # type: ignore[arg-type]
            reasons=tuple(contract.Reason(code, f"{code} message") for code in reasons), notes=(),
        ),
        threshold=rule, gate=contract.Gate(result=gate, reasons=(), evidence="", change=None),  # type: ignore[arg-type]
    )  # fmt: skip


def card(when: dt.datetime | None, *metrics: contract.Metric) -> contract.Scorecard:
    return contract.Scorecard(
        schema_version=1, verdict="pass", exit_code=0, evaluated_at=when, model="m",
        sources=("run.json",),
        counts=contract.Counts(passed=0, warned=0, failed=0, blocked=0, informational=0),
        metrics=tuple(metrics),
    )  # fmt: skip


def week(n: int) -> dt.datetime:
    return DAY + dt.timedelta(weeks=n)


def test_runs_are_ordered_by_evaluation_time_not_by_the_order_given() -> None:
    """Files given out of order are lined up by their evaluated_at."""
    given = [(f"w{n}.json", card(week(n), metric("a", n / 10))) for n in (3, 1, 2)]
    trend = build(given)
    assert [r.source for r in trend.runs] == ["w1.json", "w2.json", "w3.json"]
    assert [r.position for r in trend.runs] == [1, 2, 3]
    assert trend.order is Order.TIME
    assert [p.value for p in trend.series[0].points if p] == [0.1, 0.2, 0.3]


def test_without_times_the_order_given_is_kept_and_said() -> None:
    """Scorecards from before evaluated_at existed keep the order given."""
    trend = build([("b.json", card(None, metric("a"))), ("a.json", card(None, metric("a")))])
    assert [r.source for r in trend.runs] == ["b.json", "a.json"]
    assert trend.order is Order.GIVEN and trend.untimed == 2


def test_mixed_untimed_come_first_in_given_order_then_timed_by_time() -> None:
    """A file without a time is older than every file with one: first, in the order given."""
    given = [
        ("t2.json", card(week(2), metric("a"))),
        ("old-b.json", card(None, metric("a"))),
        ("t1.json", card(week(1), metric("a"))),
        ("old-a.json", card(None, metric("a"))),
    ]
    trend = build(given)
    assert [r.source for r in trend.runs] == ["old-b.json", "old-a.json", "t1.json", "t2.json"]
    assert trend.order is Order.MIXED and trend.untimed == 2


def test_equal_times_keep_the_order_given() -> None:
    """Ties in evaluation time are not reshuffled."""
    trend = build([(name, card(week(1), metric("a"))) for name in ("z.json", "a.json", "m.json")])
    assert [r.source for r in trend.runs] == ["z.json", "a.json", "m.json"]


@given(st.lists(st.one_of(st.none(), st.integers(0, 5)), min_size=1, max_size=8))
def test_order_is_untimed_as_given_then_timed_stably_by_time(weeks: list[int | None]) -> None:
    """The whole ordering rule, on any mix of timed and untimed files."""
    given = [
        (f"{i}.json", card(None if w is None else week(w), metric("a")))
        for i, w in enumerate(weeks)
    ]
    order = [r.source for r in build(given).runs]
    untimed = [f"{i}.json" for i, w in enumerate(weeks) if w is None]
    timed = sorted(((w, i) for i, w in enumerate(weeks) if w is not None))
    assert order == untimed + [f"{i}.json" for _, i in timed]


def test_authority_changes_name_the_run_the_outcomes_and_the_codes() -> None:
    """informational → can_gate → blocked → can_gate: each change at its run, with why."""
    given = [
        ("1.json", card(week(1), metric("a", outcome="informational",
                                        reasons=("threshold_proposed",)))),
        ("2.json", card(week(2), metric("a"))),
        ("3.json", card(week(3), metric("a"))),
        ("4.json", card(week(4), metric("a", outcome="blocked", reasons=("judge_drifted",)))),
        ("5.json", card(week(5), metric("a"))),
    ]  # fmt: skip
    changes = build(given).series[0].authority_changes
    assert [(c.position, c.before, c.after, c.reasons, c.cleared) for c in changes] == [
        (2, "informational", "can_gate", (), ("threshold_proposed",)),
        (4, "can_gate", "blocked", ("judge_drifted",), ()),
        (5, "blocked", "can_gate", (), ("judge_drifted",)),
    ]


def test_a_change_of_reasons_alone_is_not_an_authority_change() -> None:
    """Blocked for one reason, then another: the outcome held, so nothing is listed."""
    given = [
        ("1.json", card(week(1), metric("a", outcome="blocked", reasons=("judge_drifted",)))),
        ("2.json", card(week(2), metric("a", outcome="blocked", reasons=("dataset_retired",)))),
    ]
    assert build(given).series[0].authority_changes == ()


def test_threshold_changes_name_the_run_and_both_bars() -> None:
    """A proposed bar approved, then raised: two changes; an unchanged bar none."""
    given = [
        ("1.json", card(week(1), metric("a", rule=threshold(0.85, "proposed")))),
        ("2.json", card(week(2), metric("a", rule=threshold(0.85)))),
        ("3.json", card(week(3), metric("a", rule=threshold(0.85)))),
        ("4.json", card(week(4), metric("a", rule=threshold(0.88)))),
        ("5.json", card(week(5), metric("a", rule=None))),
    ]
    changes = build(given).series[0].threshold_changes
    bars = [
        (
            c.position,
            None if c.before is None else (c.before.value, c.before.approval),
            None if c.after is None else (c.after.value, c.after.approval),
        )
        for c in changes
    ]
    assert bars == [
        (2, (0.85, "proposed"), (0.85, "approved")),
        (4, (0.85, "approved"), (0.88, "approved")),
        (5, (0.88, "approved"), None),
    ]


def test_a_metric_missing_from_some_runs_has_gaps_and_changes_span_them() -> None:
    """Runs without the metric are None; a change is measured against the last run that had it."""
    given = [
        ("1.json", card(week(1), metric("a"), metric("b", outcome="informational",
                                                     reasons=("no_record",)))),
        ("2.json", card(week(2), metric("a"))),
        ("3.json", card(week(3), metric("a"), metric("b"))),
    ]  # fmt: skip
    trend = build(given)
    assert [s.id for s in trend.series] == ["a", "b"]
    b = trend.series[1]
    assert [p is None for p in b.points] == [False, True, False]
    assert b.present == 2 and b.last is b.points[2]
    assert [(c.position, c.before, c.after) for c in b.authority_changes] == [
        (3, "informational", "can_gate")
    ]


def test_metrics_limits_the_series_and_an_unknown_id_is_refused() -> None:
    """--metric shows only those ids; one no scorecard has is an error naming it."""
    given = [("1.json", card(week(1), metric("a"), metric("b"), metric("c")))]
    assert [s.id for s in build(given, ["c", "a"]).series] == ["a", "c"]
    with pytest.raises(UnknownMetric, match="'zzz'"):
        build(given, ["a", "zzz"])


def test_points_keep_only_drawable_numbers() -> None:
    """An interval with a missing end is none; reversed ends are put in order."""
    given = [
        ("1.json", card(week(1), metric("a", interval=(None, 0.9)))),
        ("2.json", card(week(2), metric("a", interval=(0.95, 0.85)))),
        ("3.json", card(week(3), metric("a", value=None, interval=None))),
    ]
    points = build(given).series[0].points
    assert [p.interval for p in points if p] == [None, (0.85, 0.95), None]
    assert [p.value for p in points if p] == [0.9, 0.9, None]


def test_the_rule_compares_every_field_of_the_bar() -> None:
    """Two runs have the same bar only when op, value, drops, warn bound and approval agree."""
    one = TrendRule(
        op=">=",
        value=0.85,
        max_drop=None,
        max_relative_drop=None,
        warn_value=None,
        approval="approved",
    )
    assert one == TrendRule(
        op=">=",
        value=0.85,
        max_drop=None,
        max_relative_drop=None,
        warn_value=None,
        approval="approved",
    )
    assert one != TrendRule(
        op=">=",
        value=0.85,
        max_drop=None,
        max_relative_drop=None,
        warn_value=0.9,
        approval="approved",
    )
