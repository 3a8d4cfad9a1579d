"""The geometry of the HTML scorecard's per-metric charts: where a bar, a dot and a rule sit.

Numbers only; the markup is written in _html_card.py. Reads the view model's numbers; never
decides.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable

import attrs

from evalglass.numbers import fmt
from evalglass.render.view import MetricView

# The chart's frame, in SVG user units.
WIDTH = 360
HEIGHT = 64
_MARGIN = 24  # room for a dot, and for a tick label centred on the axis end
AXIS_Y = 40
ARROW_Y = 18
_RESOLUTION = 1e-9
_HUGE = 1e300
_ARROW = 16  # length of the arrow pointing to the side of the rule that passes


# Ticks and axes are cache keys (see _axis): their hash is computed once.
@attrs.frozen(kw_only=True, cache_hash=True)
class Tick:
    """A labelled mark on an axis: its x in SVG units and its text."""

    x: float
    label: str


@attrs.frozen(kw_only=True)
class Chart:
    """Pixel positions for one metric's chart; None where there is nothing to draw."""

    ticks: tuple[Tick, ...]  # the first and last are the axis ends
    bar: tuple[float, float] | None  # the interval: left edge and width
    dot: float | None  # the value
    rule: float | None  # the threshold
    rule_label: str
    label_anchor: str  # start, middle or end: keeps the rule's label inside the chart
    arrow: tuple[float, float] | None  # from the rule toward the side that passes
    arrow_head: tuple[tuple[float, float], ...]  # a triangle at the arrow's tip
    proposed: bool  # a proposed threshold is drawn dashed


@attrs.frozen(kw_only=True, cache_hash=True)
class Axis:
    """An axis range with round ends, and its ticks (value and label) on round numbers."""

    low: float
    high: float
    ticks: tuple[tuple[float, str], ...]


def axis(points: list[float]) -> Axis:
    """The axis that holds every point with a little room on each side.

    Ends and ticks fall on multiples of a 1-2-5 step, two to six intervals apart; proportions
    (every point within [0, 1]) never get an axis beyond 0 or 1."""
    low, high = min(points), max(points)
    proportion = low >= 0.0 and high <= 1.0
    span, size = high - low, max(abs(low), abs(high))
    # Points closer than a billionth (of their size, or absolutely below 1) draw as one point,
    # which gets a range a fifth of its size around it: this also keeps steps clear of subnormals.
    if span <= max(size, 1.0) * _RESOLUTION:
        span = size * 0.2 if size * 0.2 > _RESOLUTION else 1.0
    low, high = low - span * 0.15, high + span * 0.15
    if proportion:
        low, high = max(low, 0.0), min(high, 1.0)
    step, exponent = _nice_step((high - low) / 4)
    first, last = math.floor(low / step), math.ceil(high / step)
    if proportion:  # 0 and 1 are multiples of every 1-2-5 step up to 1, so this only tidies
        first, last = max(first, 0), min(last, round(1 / step))
    return _axis(first, max(last, first + 1), step, exponent)


# Axes fall on few round ranges, so a page of thousands of charts draws the same few again: the
# axis, and the ticks on it, are cached by every number they are computed from.
@functools.lru_cache(maxsize=4096)
def _axis(first: int, last: int, step: float, exponent: int) -> Axis:
    # Rounding k * step to the step's decimals drops binary noise (0.30000000000000004).
    decimals = max(0, -exponent)
    values = [round(k * step, decimals) for k in range(first, last + 1)]
    return Axis(
        low=values[0],
        high=values[-1],
        ticks=tuple((v, f"{v:.{decimals}f}") for v in values),
    )


def value_axis(points: Iterable[float | None]) -> Axis | None:
    """The axis for the finite numbers among `points`; None when none is finite or one is too
    large to draw (beyond _HUGE the axis arithmetic overflows, and a chart leaving out one
    number would mislead)."""
    finite = [p for p in points if p is not None and math.isfinite(p)]
    if not finite or any(abs(p) > _HUGE for p in finite):
        return None
    return axis(finite)


def _nice_step(rough: float) -> tuple[float, int]:
    """The smallest 1-2-5 step at least `rough`, and its power of ten."""
    exponent = math.floor(math.log10(rough))
    for multiple in (1, 2, 5):
        if multiple * 10.0**exponent >= rough:
            return multiple * 10.0**exponent, exponent
    return 10.0 ** (exponent + 1), exponent + 1


def chart(
    value: float | None,
    interval: tuple[float, float] | None,
    op: str | None,
    limit: float | None,
    *,
    proposed: bool = False,
) -> Chart | None:
    """Where to draw the interval, value and threshold of one metric; None when nothing is finite
    or a number is too large to draw."""
    value = _finite(value)
    if interval is not None:
        # Ends out of order would give the bar a negative width, which SVG rejects.
        low, high = sorted(interval)
        interval = None if None in (_finite(low), _finite(high)) else (low, high)
    limit = _finite(limit) if op is not None else None
    scale = value_axis((value, *(interval or ()), limit))
    if scale is None:
        return None
    low, per_unit = scale.low, _per_unit(scale)

    def x(v: float) -> float:
        return _x(v, low, per_unit)

    ticks = _ticks(scale)
    rule = None if limit is None else x(limit)
    arrow, anchor = None, "middle"
    head: tuple[tuple[float, float], ...] = ()
    if rule is not None:
        toward = 1 if op in (">=", ">") else -1
        tip = round(rule + toward * _ARROW, 1)
        arrow = (rule, tip)
        back = round(tip - toward * 5, 1)
        head = ((tip, ARROW_Y), (back, ARROW_Y - 3), (back, ARROW_Y + 3))
        anchor = "start" if rule < WIDTH * 0.25 else "end" if rule > WIDTH * 0.75 else "middle"
    return Chart(
        ticks=ticks,
        bar=None if interval is None else _bar(x(interval[0]), x(interval[1])),
        dot=None if value is None else x(value),
        rule=rule,
        rule_label="" if limit is None else f"{op} {fmt(limit)}",
        label_anchor=anchor,
        arrow=arrow,
        arrow_head=head,
        proposed=proposed,
    )


def _per_unit(scale: Axis) -> float:
    return (WIDTH - 2 * _MARGIN) / (scale.high - scale.low)


def _x(v: float, low: float, per_unit: float) -> float:
    """Where a value sits on the chart, to a tenth of a unit."""
    return round(_MARGIN + (v - low) * per_unit, 1)


@functools.lru_cache(maxsize=4096)
def _ticks(scale: Axis) -> tuple[Tick, ...]:
    low, per_unit = scale.low, _per_unit(scale)
    return tuple(Tick(x=_x(v, low, per_unit), label=label) for v, label in scale.ticks)


def _bar(left: float, right: float) -> tuple[float, float]:
    return left, round(right - left, 1)


def _finite(x: float | None) -> float | None:
    return x if x is not None and math.isfinite(x) else None


def chart_for(metric: MetricView) -> Chart | None:
    """Where to draw this metric's value, interval and threshold; None when nothing is finite or
    a number is too large to draw."""
    t, i = metric.threshold, metric.interval
    interval = None if i is None else (i.low, i.high)
    op, bar = (None, None) if t is None else (t.op.value, t.value)
    return chart(metric.value, interval, op, bar, proposed=metric.proposed)


def describe(metric: MetricView) -> str:
    """The chart in words, for a screen reader."""
    i = metric.interval
    parts = ["no value" if metric.value is None else f"value {metric.text.value}"]
    if i is not None:
        parts.append(f"{metric.text.method} interval {fmt(i.low)} to {fmt(i.high)}")
    if metric.threshold is not None:
        parts.append(f"threshold {metric.text.threshold}")
    return ", ".join(parts)
