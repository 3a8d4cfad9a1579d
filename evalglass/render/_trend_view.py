"""What every trend format shows the same way: run times, thresholds, sparklines, the status of a
metric in a run, and the words for authority changes.

Presentation only: it reads a Trend and never decides anything.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TypeVar

from evalglass.core.authority import Outcome
from evalglass.core.decision import Result
from evalglass.core.status import Status
from evalglass.numbers import fmt, plural
from evalglass.render import words
from evalglass.render.status_look import word
from evalglass.tools.trend import AuthorityChange, Order, Point, Series, Trend, TrendRule, TrendRun

BARS = "▁▂▃▄▅▆▇█"
GAP = "·"  # a run without this metric, or without a value for it
SPARK_RUNS = 60  # a sparkline shows at most the latest this many runs
CHANGES_SHOWN = 6  # the latest changes listed per metric in the text formats
T = TypeVar("T")


def when(run: TrendRun) -> str:
    """`2026-11-30`, `2026-11-30 12:05` when not at midnight, or `time unknown`."""
    moment = run.evaluated_at
    if moment is None:
        return "time unknown"
    if moment.time() == dt.time(0, 0):
        return moment.date().isoformat()
    return moment.strftime("%Y-%m-%d %H:%M")


def heading(trend: Trend) -> str:
    """The first line: how many runs and metrics, over what time, in which order."""
    runs, metrics = trend.runs, trend.series
    times = [r.evaluated_at for r in runs if r.evaluated_at is not None]
    span = ""
    if times:
        first, last = min(times), max(times)
        span = f", {first.date().isoformat()} to {last.date().isoformat()}"
    return f"evalglass trend: {plural(len(runs), 'run')} of {plural(len(metrics), 'metric')}{span}"


def order_note(trend: Trend) -> str:
    """How the runs are ordered, and why, when not every scorecard has a time."""
    if trend.order is Order.TIME:
        return "Runs are in order of evaluation time."
    if trend.order is Order.GIVEN:
        return (
            "No scorecard records its evaluation time (written before evalglass recorded it): "
            "runs are in the order given."
        )
    untimed = trend.untimed
    verb = "records" if untimed == 1 else "record"
    return (
        f"{untimed} of {plural(len(trend.runs), 'scorecard')} {verb} no evaluation time (written "
        "before evalglass recorded it): they come first, in the order given, then the rest by "
        "evaluation time."
    )


def rule_text(rule: TrendRule | None) -> str:
    """A threshold as it was in one run: `>= 0.85`, `max drop 0.02`, `(proposed)` until approved."""
    if rule is None:
        return "none"
    return words.rule_text(
        rule.op, rule.value, rule.max_drop, rule.max_relative_drop, rule.warn_value,
        approved=rule.approval == "approved", no_bar=rule.op,
    )  # fmt: skip


def status(point: Point) -> str:
    """The metric's status in that run, in the word every format prints it by (the scorecard's
    one mapping): blocked, informational, `not run` for a check that could gate and that run did
    not start (`score`, another tier), or the gate's result."""
    return word(Status.of(Outcome(point.outcome), Result(point.result)))


def status_class(word: str) -> str:
    """A status word as the CSS class the page colours it by (`not run`: `s-not-run`)."""
    return "s-" + word.replace(" ", "-")


def value_text(point: Point | None) -> str:
    """A run's value as a scorecard prints it, "—" without one (or without the metric)."""
    return words.number_text(None if point is None else point.value)


def interval_text(point: Point | None) -> str:
    """A run's interval as `[low, high]`, "—" without one."""
    return words.ends_or_dash(None if point is None else point.interval)


def n_text(point: Point | None) -> str:
    """A run's sample count, "—" when unknown."""
    return words.count_text(None if point is None else point.n)


def sparkline(series: Series) -> str:
    """The values of the latest SPARK_RUNS runs, one bar each, scaled between their lowest and
    highest; GAP where a run has no value."""
    values = [None if p is None else p.value for p in series.points[-SPARK_RUNS:]]
    return spark(values)


def spark(values: Sequence[float | None]) -> str:
    known = [v for v in values if v is not None]
    if not known:
        return GAP * len(values)
    low, high = min(known), max(known)
    top = len(BARS) - 1
    if high - low <= abs(high) * 1e-12:  # flat: every bar in the middle
        return "".join(GAP if v is None else BARS[top // 2] for v in values)
    return "".join(
        GAP if v is None else BARS[round((v - low) / (high - low) * top)] for v in values
    )


def spark_label(trend: Trend) -> str:
    """What the sparkline covers, when it is not every run."""
    runs = len(trend.runs)
    return f"the latest {SPARK_RUNS} of {runs} runs" if runs > SPARK_RUNS else "every run"


def range_text(series: Series) -> str:
    """The lowest and highest value over the runs: `0.87 to 0.93`, or one number."""
    known = [p.value for p in series.points if p is not None and p.value is not None]
    if not known:
        return "no value in any run"
    low, high = min(known), max(known)
    return fmt(low) if fmt(low) == fmt(high) else f"{fmt(low)} to {fmt(high)}"


def presence(trend: Trend, series: Series) -> str:
    """`in 4 of 6 runs`, or empty when every run has the metric."""
    present = series.present
    return "" if present == len(trend.runs) else f"in {present} of {len(trend.runs)} runs"


def change_text(change: AuthorityChange) -> str:
    """`run 4: informational → can_gate` (the codes are shown by the format, escaped)."""
    return f"run {change.position}: {change.before} → {change.after}"


def latest(items: Sequence[T]) -> tuple[Sequence[T], int]:
    """The latest CHANGES_SHOWN items, and how many earlier ones are left out."""
    left_out = max(0, len(items) - CHANGES_SHOWN)
    return items[left_out:], left_out


# The order the page lists metrics in: by their latest status, worst first, then by id.
_SEVERITY = {"fail": 0, "unsound": 1, "blocked": 2, "warn": 3, "pass": 4, "not run": 5,
             "informational": 6}  # fmt: skip


def worst_first(trend: Trend) -> tuple[Series, ...]:
    """The series by their latest run's status, failing and blocked first, each group by id."""

    def rank(series: Series) -> tuple[int, str]:
        last = series.last
        word = "informational" if last is None else status(last)
        return _SEVERITY.get(word, len(_SEVERITY)), series.id

    return tuple(sorted(trend.series, key=rank))


def verdict_class(verdict: str) -> str:
    """A run's verdict as the CSS class the strip colours it by."""
    return "v-" + verdict if verdict in ("fail", "blocked", "pass") else "v-informational"
