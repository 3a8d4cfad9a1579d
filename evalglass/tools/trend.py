"""Trends across runs: each metric's value, interval, threshold and authority over a series of
saved scorecards, and the runs where its threshold or its authority changed.

Pure: it lines up what earlier runs already decided, from their scorecard JSON (the contract). It
reads no records and no eval outputs, and it decides nothing: a trend is a picture.
"""

from __future__ import annotations

import datetime as dt
import enum
import math
from collections.abc import Sequence
from typing import cast

import attrs

from evalglass import contract
from evalglass.errors import UnknownMetric


class Order(enum.Enum):
    """How the runs were put in order."""

    TIME = "time"  # every scorecard records its evaluation time
    GIVEN = "given"  # none does: the order the files were given in
    MIXED = "mixed"  # those without a time first, in the order given, then the rest by time


@attrs.frozen(kw_only=True)
class TrendRun:
    """One scorecard of the trend: its place in the order, its file, when it was evaluated (None
    in files from before evalglass recorded it) and its verdict."""

    position: int  # 1-based, in the trend's order
    source: str  # the scorecard file, as given
    evaluated_at: dt.datetime | None
    verdict: str


@attrs.frozen(kw_only=True)
class TrendRule:
    """A metric's threshold as one run had it; two runs with equal rules had the same bar."""

    op: str
    value: float | None
    max_drop: float | None
    max_relative_drop: float | None
    warn_value: float | None
    approval: str


@attrs.frozen(kw_only=True)
class Point:
    """One metric in one run."""

    value: float | None  # None when not measured, or not finite
    interval: tuple[float, float] | None  # only with both ends finite, low first
    n: int | None
    outcome: str  # informational, blocked or can_gate
    reasons: tuple[str, ...]  # the authority reason codes
    result: str  # the gate result
    rule: TrendRule | None


@attrs.frozen(kw_only=True)
class AuthorityChange:
    """A run where a metric's authority differs from the last run that had the metric."""

    position: int
    before: str
    after: str
    reasons: tuple[str, ...]  # why it is `after` now (none for can_gate)
    cleared: tuple[str, ...]  # the reasons of `before` that no longer hold


@attrs.frozen(kw_only=True)
class ThresholdChange:
    """A run where the metric's threshold differs from the last run that had the metric; None on
    a side without a threshold."""

    position: int
    before: TrendRule | None
    after: TrendRule | None


@attrs.frozen(kw_only=True)
class Series:
    """One metric across the runs: a point per run, and the runs where its authority or its
    threshold changed."""

    id: str
    points: tuple[Point | None, ...]  # one per run, None where the run has no such metric
    authority_changes: tuple[AuthorityChange, ...]
    threshold_changes: tuple[ThresholdChange, ...]

    @property
    def last(self) -> Point | None:
        """The metric in the latest run that has it."""
        return next((p for p in reversed(self.points) if p is not None), None)

    @property
    def present(self) -> int:
        """How many runs have the metric."""
        return sum(p is not None for p in self.points)


@attrs.frozen(kw_only=True)
class Trend:
    """Scorecards lined up: the runs in order, how they were ordered, and one series per metric."""

    runs: tuple[TrendRun, ...]
    order: Order
    series: tuple[Series, ...]  # sorted by metric id

    @property
    def untimed(self) -> int:
        """How many runs record no evaluation time."""
        return sum(r.evaluated_at is None for r in self.runs)


def build(
    scorecards: Sequence[tuple[str, contract.Scorecard]], metrics: Sequence[str] = ()
) -> Trend:
    """The trend of `scorecards` (file, document), ordered by evaluation time; `metrics` limits
    it to those ids (all when empty). Raises UnknownMetric for an id no scorecard has."""
    ordered, order = _ordered(scorecards)
    runs = tuple(
        TrendRun(position=i, source=source, evaluated_at=doc.evaluated_at, verdict=doc.verdict)
        for i, (source, doc) in enumerate(ordered, start=1)
    )
    by_run = [{m.id: m for m in doc.metrics} for _, doc in ordered]
    known = set().union(*by_run) if by_run else set()
    wanted = sorted(known) if not metrics else list(dict.fromkeys(metrics))
    unknown = [m for m in wanted if m not in known]
    if unknown:
        raise UnknownMetric("metrics", f"no scorecard given has the metric {unknown[0]!r}")
    series = tuple(_series(metric_id, by_run) for metric_id in sorted(wanted))
    return Trend(runs=runs, order=order, series=series)


def _ordered(
    scorecards: Sequence[tuple[str, contract.Scorecard]],
) -> tuple[list[tuple[str, contract.Scorecard]], Order]:
    # A scorecard without a time was written by an evalglass from before the time was recorded,
    # so it is older than every scorecard with one. Sorting is stable: ties keep the order given.
    untimed = [pair for pair in scorecards if pair[1].evaluated_at is None]
    timed = [pair for pair in scorecards if pair[1].evaluated_at is not None]
    timed.sort(key=lambda pair: cast(dt.datetime, pair[1].evaluated_at))
    order = Order.GIVEN if not timed else Order.TIME if not untimed else Order.MIXED
    return untimed + timed, order


def _series(metric_id: str, by_run: list[dict[str, contract.Metric]]) -> Series:
    rules: dict[tuple[object, ...], TrendRule] = {}
    points = tuple(_point(run.get(metric_id), rules) for run in by_run)
    authority: list[AuthorityChange] = []
    thresholds: list[ThresholdChange] = []
    previous: Point | None = None
    for position, point in enumerate(points, start=1):
        if point is None:
            continue
        if previous is not None and point.outcome != previous.outcome:
            authority.append(
                AuthorityChange(
                    position=position,
                    before=previous.outcome,
                    after=point.outcome,
                    reasons=point.reasons,
                    cleared=tuple(r for r in previous.reasons if r not in point.reasons),
                )
            )
        if previous is not None and point.rule is not previous.rule:
            thresholds.append(
                ThresholdChange(position=position, before=previous.rule, after=point.rule)
            )
        previous = point
    return Series(
        id=metric_id,
        points=points,
        authority_changes=tuple(authority),
        threshold_changes=tuple(thresholds),
    )


def _point(
    metric: contract.Metric | None, rules: dict[tuple[object, ...], TrendRule]
) -> Point | None:
    if metric is None:
        return None
    t = metric.threshold
    rule = None
    if t is not None:
        # One TrendRule per distinct bar, shared by every run that has it: comparing runs' bars (here
        # and in the charts) is then mostly an identity check.
        key = (t.op, t.value, t.max_drop, t.max_relative_drop, t.warn_value, t.approval)
        rule = rules.get(key)
        if rule is None:
            rule = rules[key] = TrendRule(
                op=t.op,
                value=t.value,
                max_drop=t.max_drop,
                max_relative_drop=t.max_relative_drop,
                warn_value=t.warn_value,
                approval=t.approval,
            )
    return Point(
        value=_finite(metric.value),
        interval=_interval(metric.interval),
        n=metric.n,
        outcome=metric.authority.outcome,
        reasons=_codes(metric.authority.reasons),
        result=metric.gate.result,
        rule=rule,
    )


def _codes(reasons: tuple[contract.Reason, ...]) -> tuple[str, ...]:
    """The reason codes in order, each once (most metrics have none or one)."""
    if not reasons:
        return ()
    codes = tuple(r.code for r in reasons)
    return codes if len(set(codes)) == len(codes) else tuple(dict.fromkeys(codes))


def _finite(x: float | None) -> float | None:
    return x if x is not None and math.isfinite(x) else None


def _interval(pair: tuple[float | None, float | None] | None) -> tuple[float, float] | None:
    if pair is None:
        return None
    low, high = _finite(pair[0]), _finite(pair[1])
    if low is None or high is None:
        return None
    return (low, high) if low <= high else (high, low)
