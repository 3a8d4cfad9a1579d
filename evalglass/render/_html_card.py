"""The markup of one metric on the HTML scorecard: its card and its chart.

Written here rather than in the page template because, on a large scorecard, jinja2's per-call
machinery took most of the page's time (bench/bench_scorecard.py times it). The rule the template
kept holds here too: every value but numbers' text and the status word goes through `escape` on
its way into the markup, and only literals written in this file are markup.
"""

from __future__ import annotations

import functools
import shlex

from markupsafe import Markup

from evalglass.render import safe_text
from evalglass.render.chart import ARROW_Y, AXIS_Y, HEIGHT, WIDTH, Tick, chart_for, describe
from evalglass.render.view import MetricView, ReasonView, ScorecardView, printed


def escape(text: object) -> str:
    """Text as HTML, escaped as markupsafe (jinja2's autoescape) does it but cheaper per call (a
    page calls it for every value it shows), after control and bidirectional characters are shown
    as escapes (safe_text)."""
    return (
        safe_text.escape(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&#34;")
        .replace("'", "&#39;")
    )


def _listed(label: str, items: list[str]) -> str:
    """A labelled list of markup items, each already escaped."""
    lines = "".join(f"        <li>{item}</li>\n" for item in items)
    return (
        f'    <div class="why"><span class="label">{label}:</span>\n      <ul>\n{lines}'
        "      </ul>\n    </div>\n"
    )


def _reasons(label: str, reasons: tuple[ReasonView, ...]) -> str:
    items = [f"<code>{escape(r.code)}</code> {escape(r.message)}" for r in reasons]
    return _listed(label, items)


def cards(metrics: tuple[MetricView, ...]) -> Markup:
    """The cards of these metrics, a blank line apart, each with its change against the earlier
    scorecard it was compared with, if any."""
    return Markup("\n".join(card(m) for m in metrics))


def card(metric: MetricView) -> str:
    # The status word and the value, interval, n and missing count are a closed vocabulary and
    # numbers' text, written as they are (see chart_svg); everything else is escaped.
    word = metric.status.value
    shown = metric.word.upper()
    label = f" ({escape(metric.text.method)})" if metric.text.method else ""
    missing = f" ({metric.missing} missing)" if metric.missing else ""
    parts = [
        (
            f'<article class="metric s-{word}">\n'
            f'  <header><span class="badge">{shown}</span>'
            f"<h3><code>{escape(metric.id)}</code></h3></header>\n"
            "  <div>\n"
            '    <dl class="numbers">\n'
            f"      <dt>value</dt><dd>{metric.text.value}</dd>\n"
            f"      <dt>interval</dt><dd>{metric.text.interval}{label}</dd>\n"
            f"      <dt>n</dt><dd>{metric.text.n}{missing}</dd>\n"
            f"      <dt>threshold</dt><dd>{escape(metric.text.threshold)}</dd>\n"
            "    </dl>\n"
        )
    ]
    if word in ("pass", "warn", "fail"):
        parts.append(
            f'    <p class="why"><span class="label">Evidence:</span> '
            f"{escape(metric.evidence)}</p>\n"
        )
    else:
        heading = "Why it cannot be decided" if metric.decided else "Why it does not gate"
        parts.append(_reasons(heading, metric.reasons))
    if metric.costly:
        where = escape(metric.costly[0].source)
        items = [
            f"<code>{escape(s.id)}</code>"
            + ("" if s.epoch is None else f", epoch {s.epoch}")
            + f" ({escape(s.score_text)})"
            for s in metric.costly
        ]
        parts.append(_listed(f"Samples that cost it most, in <code>{where}</code>", items))
        if metric.open_with:
            parts.append(
                f'    <p class="why"><span class="label">Open them with:</span> '
                f"<code>{escape(metric.open_with)}</code></p>\n"
            )
    for number, stream, lines in printed(metric):
        parts.append(
            f'    <div class="why"><span class="label">Attempt {number}, the last lines of '
            f'{stream}:</span>\n      <pre class="printed">{chr(10).join(map(escape, lines))}</pre>\n'
            "    </div>\n"
        )
    if metric.notes:
        parts.append(_reasons("Would block once promoted", metric.notes))
    change = metric.change
    if change:
        parts.append(
            f'    <p class="why"><span class="label">Compared:</span> {escape(change)}</p>\n'
        )
    if word in ("fail", "blocked", "unsound"):
        parts.append(
            f'    <p class="why"><span class="label">Why, and what would change it:</span> '
            f"<code>{escape(explain_command(metric.id))}</code></p>\n"
        )
    if metric.earlier_runs:
        runs = [
            f"<code>{escape(a.source)}</code> ({escape(a.started or 'start unknown')}): "
            f"value {escape(a.value)}, n {escape(a.n)}"
            for a in metric.earlier_runs
        ]
        parts.append(_listed("Earlier runs", runs))
    parts.append("  </div>\n")
    parts.append(
        chart_svg(metric) or '  <p class="none">No chart: no number here can be drawn.</p>'
    )
    parts.append("\n</article>\n")
    return "".join(parts)


def chart_svg(metric: MetricView) -> str | None:
    """The chart of one metric as inline SVG, indented for its place in the card.

    Positions (floats) and tick labels (a float formatted with fixed decimals) are numbers, whose
    text cannot hold markup, and go in as they are: escaping them was a good part of a large
    page's time. Every other string is escaped."""
    c = chart_for(metric)
    if c is None:
        return None
    parts = [
        (
            f'  <svg class="chart" role="img" aria-label="{escape(describe(metric))}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">\n'
        ),
        _axis_svg(c.ticks),
    ]
    if c.bar is not None:
        parts.append(
            f'    <rect class="interval" x="{c.bar[0]}" y="{AXIS_Y - 6}" '
            f'width="{c.bar[1]}" height="12" rx="3"/>\n'
        )
    if c.rule is not None and c.arrow is not None:
        rule = c.rule  # drawn four times
        points = " ".join(f"{x},{y}" for x, y in c.arrow_head)
        parts.append(
            f'    <line class="rule{" proposed" if c.proposed else ""}" x1="{rule}" '
            f'y1="{ARROW_Y - 4}" x2="{rule}" y2="{AXIS_Y + 8}"/>\n'
            f'    <line class="arrow" x1="{c.arrow[0]}" y1="{ARROW_Y}" '
            f'x2="{c.arrow[1]}" y2="{ARROW_Y}"/>\n'
            f'    <polygon class="arrow-head" points="{points}"/>\n'
            f'    <text x="{rule}" y="{ARROW_Y - 7}" text-anchor="{escape(c.label_anchor)}">'
            f"{escape(c.rule_label)}</text>\n"
        )
    if c.dot is not None:
        parts.append(f'    <circle class="value" cx="{c.dot}" cy="{AXIS_Y}" r="5"/>\n')
    parts.append("  </svg>")
    return "".join(parts)


# Charts share few axes (see chart._axis), so their markup is cached by the ticks it draws.
@functools.lru_cache(maxsize=4096)
def _axis_svg(ticks: tuple[Tick, ...]) -> str:
    axis = f'    <line class="axis" x1="{ticks[0].x}" y1="{AXIS_Y}" x2="{ticks[-1].x}" y2="{AXIS_Y}"/>\n'
    return axis + "".join(
        f'    <line class="tick" x1="{t.x}" y1="{AXIS_Y}" x2="{t.x}" y2="{AXIS_Y + 4}"/>\n'
        f'    <text x="{t.x}" y="{AXIS_Y + 17}" text-anchor="middle">{t.label}</text>\n'
        for t in ticks
    )


def summary(view: ScorecardView) -> Markup:
    """The summary table's rows: one per metric, the deciding gates first (failed and blocked
    before passed), then the rest by id: status, metric, value, bound, threshold and the change
    against an earlier scorecard (— without one). No links: the page holds none, so hostile
    text has none to hide behind."""
    rows = []
    for metric in (*view.gates, *view.others):
        word = metric.status.value
        rows.append(
            f'      <tr class="s-{word}"><td><span class="badge">{metric.word.upper()}</span></td>'
            f"<td><code>{escape(metric.id)}</code></td>"
            f'<td data-label="Value">{metric.text.value}</td>'
            f'<td data-label="Bound">{metric.text.bound}</td>'
            f'<td data-label="Threshold">{escape(metric.text.threshold)}</td>'
            f'<td data-label="Change">{escape(metric.change or "—")}</td></tr>\n'
        )
    return Markup("".join(rows))


def explain_command(metric_id: str) -> str:
    """The command that explains why a metric failed or is blocked, quoted for a POSIX shell."""
    return f"evalglass explain {shlex.quote(metric_id)}"
