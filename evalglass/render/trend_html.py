"""The trend as one self-contained HTML page: per metric, its value over the runs with the
interval as a band, the threshold as a step line, and the runs where its authority changed.

The page frame is the autoescaping template trend.html.j2; each chart's SVG is written here, in
the HTML scorecard's chart style, with every string escaped as _html_card escapes it. Reads a
Trend; never decides.
"""

from __future__ import annotations

import functools

import jinja2
from markupsafe import Markup

from evalglass.render import _trend_view
from evalglass.render._html_card import escape
from evalglass.render._templates import environment
from evalglass.render.trend_chart import (
    BOTTOM,
    HEIGHT,
    LEFT,
    RIGHT,
    TOP,
    WIDTH,
    TrendChart,
    trend_chart,
)
from evalglass.tools.trend import Series, Trend


@functools.cache
def _environment() -> jinja2.Environment:
    # As the HTML scorecard's: autoescape on, and a cache of its own.
    return environment().overlay(autoescape=True, cache_size=50)


def render(trend: Trend) -> str:
    """The trend as one self-contained HTML page, a chart and the changes for each metric; every
    value from the scorecards is escaped."""
    whens = tuple(_trend_view.when(run) for run in trend.runs)
    template = _environment().get_template("trend.html.j2")
    return template.render(
        trend=trend, v=_trend_view, chart=lambda series: chart_svg(series, whens, len(trend.runs))
    )


def chart_svg(series: Series, whens: tuple[str, ...], runs: int) -> Markup:
    """One metric's chart as inline SVG. Positions and tick labels are numbers' text and the
    status and outcome words are evalglass's own; every other string is escaped."""
    c = trend_chart(series, whens)
    if c is None:
        return Markup('<p class="none">No chart: no number in any run can be drawn.</p>')
    parts = [
        (
            f'<svg class="trend" role="img" aria-label="{escape(_describe(series, runs))}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">\n'
        ),
        _frame(c),
    ]
    parts += [f'  <polygon class="interval" points="{_points(band)}"/>\n' for band in c.bands]
    for step in c.steps:
        parts.append(
            f'  <line class="rule{" proposed" if step.proposed else ""}" x1="{step.x1}" '
            f'y1="{step.y}" x2="{step.x2}" y2="{step.y}"/>\n'
        )
    if c.rule_label is not None:
        y, text = c.rule_label
        parts.append(
            f'  <text class="rule-label" x="{WIDTH - RIGHT + 6}" y="{y + 4}">{escape(text)}</text>\n'
        )
    for marker in c.markers:
        parts.append(
            f'  <line class="change to-{escape(marker.after)}" x1="{marker.x}" y1="{TOP - 4}" '
            f'x2="{marker.x}" y2="{HEIGHT - BOTTOM}"/>\n'
        )
        if marker.label:
            anchor = _anchor(marker.x)
            parts.append(
                f'  <text class="change-label to-{escape(marker.after)}" x="{marker.x}" '
                f'y="{TOP - 8}" text-anchor="{anchor}">{escape(marker.label)}</text>\n'
            )
    parts += [f'  <polyline class="value" points="{_points(line)}"/>\n' for line in c.lines]
    for dot in c.dots:
        title = (
            f"run {dot.position}, {whens[dot.position - 1]}: {_point_text(series, dot.position)}"
        )
        parts.append(
            f'  <circle class="dot {escape(_trend_view.status_class(dot.status))}" cx="{dot.x}" cy="{dot.y}" r="4">'
            f"<title>{escape(title)}</title></circle>\n"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def _frame(c: TrendChart) -> str:
    """Grid lines with the value labels, and the runs labelled along the bottom."""
    parts = []
    for y, label in c.y_ticks:
        parts.append(
            f'  <line class="grid" x1="{LEFT}" y1="{y}" x2="{WIDTH - RIGHT}" y2="{y}"/>\n'
            f'  <text x="{LEFT - 6}" y="{y + 4}" text-anchor="end">{label}</text>\n'
        )
    base = HEIGHT - BOTTOM
    parts.append(
        f'  <line class="axis" x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}"/>\n'
    )
    for x, run, when in c.x_labels:
        anchor = _anchor(x)
        parts.append(
            f'  <line class="tick" x1="{x}" y1="{base}" x2="{x}" y2="{base + 4}"/>\n'
            f'  <text x="{x}" y="{base + 16}" text-anchor="{anchor}">{escape(run)}</text>\n'
            f'  <text class="when" x="{x}" y="{base + 29}" text-anchor="{anchor}">'
            f"{escape(when)}</text>\n"
        )
    return "".join(parts)


def _anchor(x: float) -> str:
    """Labels near an edge grow inward, so none is cut off."""
    return "start" if x < LEFT + 30 else "end" if x > WIDTH - RIGHT - 30 else "middle"


def _points(points: tuple[tuple[float, float], ...]) -> str:
    return " ".join(f"{x},{y}" for x, y in points)


def _point_text(series: Series, position: int) -> str:
    point = series.points[position - 1]
    return (
        f"value {_trend_view.value_text(point)} {_trend_view.interval_text(point)}, "
        f"n {_trend_view.n_text(point)}, {'—' if point is None else _trend_view.status(point)}"
    )


def _describe(series: Series, runs: int) -> str:
    """The chart in words, for a screen reader."""
    parts = [f"{series.id}: value {_trend_view.range_text(series)} over {runs} runs"]
    last = series.last
    if last is not None:
        parts.append(f"threshold {_trend_view.rule_text(last.rule)}")
    if series.authority_changes:
        at = ", ".join(str(c.position) for c in series.authority_changes)
        parts.append(f"authority changed at run {at}")
    return "; ".join(parts)
