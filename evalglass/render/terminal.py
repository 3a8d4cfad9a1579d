"""The terminal scorecard: plain text, coloured only for a colour terminal. Never decides.

Every line is escaped (safe_text) before colour is added, so only this module's own colour codes
reach the terminal and no id or message can start a line of its own.

Plain Python, not a template: it is the default output of every `evalglass score`, and jinja2's
import and template compile were a fifth of that command's start-up.
"""

from __future__ import annotations

from evalglass.core.exits import Verdict
from evalglass.core.scorecard import MetricCard, Scorecard
from evalglass.core.status import Status
from evalglass.render import _view
from evalglass.render.safe_text import escape

_VERDICT_STATUS = {
    Verdict.PASS: Status.PASS,
    Verdict.FAIL: Status.FAIL,
    Verdict.BLOCKED: Status.BLOCKED,
    Verdict.INFORMATIONAL: Status.INFORMATIONAL,
}


def paint(text: str, status: Status, colour: bool, bold: bool = False) -> str:
    """ANSI colour for a status, only when the render was asked for colour."""
    if not colour:
        return text
    return f"\x1b[{'1;' if bold else ''}{status.colour}m{text}\x1b[0m"


def _numbers(card: MetricCard) -> str:
    return escape(
        f"      value {_view.value_text(card)}  interval {_view.interval_text(card)}"
        f"  n {_view.n_text(card)}  threshold {_view.threshold_text(card)}"
    )


def _gate(card: MetricCard, colour: bool) -> list[str]:
    status = card.status
    word = status.value.upper().ljust(8)
    lines = [f"  {paint(word, status, colour, bold=True)} {escape(card.id)}", _numbers(card)]
    m = card.measurement
    if m is not None and m.missing:
        lines.append(f"      missing samples: {m.missing}")
    lines.append(f"      {escape(_view.why(card))}")
    if m is not None:
        lines += [
            escape(f"      earlier run: {a.source} ({a.started}): value {a.value}, n {a.n}")
            for a in m.earlier
        ]
    return lines


def _other(card: MetricCard, colour: bool) -> list[str]:
    lines = [
        f"  {paint('INFO'.ljust(8), Status.INFORMATIONAL, colour)} {escape(card.id)}",
        _numbers(card),
        escape(f"      why: {_view.reasons_text(card.authority.reasons)}"),
    ]
    if card.authority.notes:
        lines.append(
            escape(f"      would block once promoted: {_view.reasons_text(card.authority.notes)}")
        )
    return lines


def render(scorecard: Scorecard, colour: bool = False) -> str:
    gates, rest = _view.deciding(scorecard), _view.others(scorecard)
    lines = [
        paint(_view.headline(scorecard), _VERDICT_STATUS[scorecard.verdict], colour, bold=True),
        escape(f"model: {scorecard.model or '(not named by the outputs)'}"),
        escape(f"sources: {', '.join(scorecard.sources) or '(none)'}"),
        "",
        f"Gates that decided ({len(gates)})",
    ]
    for card in gates:
        lines += _gate(card, colour)
    if not gates:
        lines.append("  none: no metric could gate")
    lines += ["", f"Not enforced ({len(rest)})"]
    for card in rest:
        lines += _other(card, colour)
    return "\n".join(lines) + "\n"
