"""The geometry of a metric's trend chart: runs along x, values up y, on the HTML scorecard's
round-numbered axes (chart.value_axis). Numbers only; the markup is written in trend_html.py.

Reads a Series; never decides.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import attrs

from evalglass.numbers import fmt
from evalglass.render import _trend_view
from evalglass.render.chart import value_axis
from evalglass.tools.trend import Point, Series, TrendRule

# The chart's frame, in SVG user units.
WIDTH = 720
HEIGHT = 210
LEFT, RIGHT, TOP, BOTTOM = 52, 92, 22, 40  # room for tick labels, the threshold's, the changes'
DOTS_UP_TO = 120  # with more runs the line alone is drawn: dots would merge into it
_LABELS = 7  # run labels along the x axis, at most
_LABEL_GAP = 70  # the least room between two change labels, else the later one is left out
Across = Callable[[int], float]  # a run's index to its x
Up = Callable[[float], float]  # a value to its y


@attrs.frozen(kw_only=True)
class Dot:
    """One run's value, coloured by the metric's status in that run; `position` is the run's
    1-based number."""

    x: float
    y: float
    status: str  # the metric's status in that run (pass, fail, blocked, ...)
    position: int


@attrs.frozen(kw_only=True)
class Step:
    """A stretch of runs with one threshold: from x1 to x2 at y."""

    x1: float
    x2: float
    y: float
    proposed: bool


@attrs.frozen(kw_only=True)
class Marker:
    """A run where the metric's authority changed."""

    x: float
    after: str  # the new outcome
    label: str  # empty when too close to the previous label to print


@attrs.frozen(kw_only=True)
class TrendChart:
    """Everything to draw one metric's trend, in SVG units: the axes, the value's line and
    interval band, the threshold's steps and the runs where authority changed."""

    y_ticks: tuple[tuple[float, str], ...]  # (y, label)
    x_labels: tuple[tuple[float, str, str], ...]  # (x, run number, date)
    lines: tuple[tuple[tuple[float, float], ...], ...]  # the value, one polyline per unbroken run
    bands: tuple[tuple[tuple[float, float], ...], ...]  # the interval, one polygon per stretch
    dots: tuple[Dot, ...]
    steps: tuple[Step, ...]
    rule_label: tuple[float, str] | None  # (y, text) of the latest threshold, at the right
    markers: tuple[Marker, ...]


def trend_chart(series: Series, whens: tuple[str, ...]) -> TrendChart | None:
    """Where to draw one metric over the runs (`whens`: each run's time, as shown); None when
    no number in any run can be drawn."""
    points = series.points
    scale = value_axis(_numbers(points))
    if scale is None:
        return None
    runs = len(points)
    xs = _across(runs)
    x = xs.__getitem__
    per_run = (WIDTH - LEFT - RIGHT) / (runs - 1) if runs > 1 else 0.0
    plot_height = HEIGHT - TOP - BOTTOM
    per_unit = plot_height / (scale.high - scale.low)
    base = TOP + plot_height + scale.low * per_unit

    def y(value: float) -> float:
        return round(base - value * per_unit, 1)

    lines: list[tuple[tuple[float, float], ...]] = []
    bands: list[tuple[tuple[float, float], ...]] = []
    line: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    lower: list[tuple[float, float]] = []
    dots: list[Dot] = []
    for i, p in enumerate(points):
        if p is not None and p.value is not None:
            at = (xs[i], y(p.value))
            line.append(at)
            if runs <= DOTS_UP_TO:
                dots.append(Dot(x=at[0], y=at[1], status=_trend_view.status(p), position=i + 1))
        elif line:
            lines.append(tuple(line))
            line = []
        if p is not None and p.interval is not None:
            upper.append((xs[i], y(p.interval[1])))
            lower.append((xs[i], y(p.interval[0])))
        elif upper:
            bands.append(_band(upper, lower))
            upper, lower = [], []
    if line:
        lines.append(tuple(line))
    if upper:
        bands.append(_band(upper, lower))
    steps = _steps(points, x, y, per_run)
    last_rule = series.last.rule if series.last is not None else None
    rule_label = None
    if steps and last_rule is not None and last_rule.value is not None:
        # The bar alone: a dashed line already says the threshold is proposed.
        rule_label = (steps[-1].y, f"{last_rule.op} {fmt(last_rule.value)}")
    return TrendChart(
        y_ticks=tuple((y(v), label) for v, label in scale.ticks),
        x_labels=_x_labels(runs, x, whens),
        lines=tuple(lines),
        bands=tuple(bands),
        dots=tuple(dots),
        steps=steps,
        rule_label=rule_label,
        markers=_markers(series, x),
    )


# Every chart of a trend has the same runs, so the same x for each: computed once.
@functools.lru_cache(maxsize=64)
def _across(runs: int) -> tuple[float, ...]:
    """Where each run sits along x: evenly spaced, one run alone in the middle."""
    width = WIDTH - LEFT - RIGHT
    if runs == 1:
        return (round(LEFT + width / 2, 1),)
    return tuple(round(LEFT + i * width / (runs - 1), 1) for i in range(runs))


def _numbers(points: tuple[Point | None, ...]) -> list[float | None]:
    numbers: list[float | None] = []
    for p in points:
        if p is None:
            continue
        numbers.append(p.value)
        if p.interval is not None:
            numbers.extend(p.interval)
        if p.rule is not None:
            numbers.append(p.rule.value)
    return numbers


def _band(
    upper: list[tuple[float, float]], lower: list[tuple[float, float]]
) -> tuple[tuple[float, float], ...]:
    """The polygon between the interval's ends; one run alone is a sliver a few units wide."""
    if len(upper) == 1:
        (ux, uy), (_, ly) = upper[0], lower[0]
        return ((ux - 3, uy), (ux + 3, uy), (ux + 3, ly), (ux - 3, ly))
    return (*upper, *reversed(lower))


def _steps(points: tuple[Point | None, ...], x: Across, y: Up, per_run: float) -> tuple[Step, ...]:
    """The threshold as a step line: each stretch of runs with one bar, from half a run before
    its first to half a run after its last. A run without the metric keeps the bar before it."""
    stretches: list[tuple[TrendRule | None, int, int]] = []  # (bar, first run, last run)
    for i, p in enumerate(points):
        if p is None:
            continue
        # Runs with one bar share one TrendRule (tools/trend.py), so `is` settles most comparisons.
        if stretches and (stretches[-1][0] is p.rule or stretches[-1][0] == p.rule):
            stretches[-1] = (p.rule, stretches[-1][1], i)
        else:
            stretches.append((p.rule, i, i))
    half = per_run / 2 if per_run else 12.0
    return tuple(
        Step(
            x1=round(max(float(LEFT), x(first) - half), 1),
            x2=round(min(float(WIDTH - RIGHT), x(last) + half), 1),
            y=y(rule.value),
            proposed=rule.approval != "approved",
        )
        for rule, first, last in stretches
        if rule is not None and rule.value is not None
    )


def _x_labels(runs: int, x: Across, whens: tuple[str, ...]) -> tuple[tuple[float, str, str], ...]:
    """At most _LABELS runs labelled, evenly spread, the first and the last always."""
    count = min(runs, _LABELS)
    if count == 1:
        chosen = [0]
    else:
        chosen = sorted({round(k * (runs - 1) / (count - 1)) for k in range(count)})
    return tuple((x(i), f"run {i + 1}", whens[i]) for i in chosen)


def _markers(series: Series, x: Across) -> tuple[Marker, ...]:
    markers: list[Marker] = []
    last_label = -1e9
    for change in series.authority_changes:
        at = x(change.position - 1)
        label = ""
        if at - last_label >= _LABEL_GAP:
            label, last_label = f"→ {change.after}", at
        markers.append(Marker(x=at, after=change.after, label=label))
    return tuple(markers)
