"""The terminal scorecard: plain text, coloured only for a colour terminal. Never decides.

Plain Python, not a template: it is the default output of every `evalglass score`, and jinja2's
import and template compile were a fifth of that command's start-up.
"""

from __future__ import annotations

from evalglass.core.scorecard import MetricCard, Scorecard
from evalglass.render import _view

_COLOURS = {
    "pass": "32",
    "fail": "31",
    "blocked": "33",
    "unsound": "33",
    "informational": "36",
}


def paint(text: str, status: str, colour: bool, bold: bool = False) -> str:
    """ANSI colour for a status word, only when the render was asked for colour."""
    if not colour or status not in _COLOURS:
        return text
    return f"\x1b[{'1;' if bold else ''}{_COLOURS[status]}m{text}\x1b[0m"


def _numbers(card: MetricCard) -> str:
    return (
        f"      value {card.value_text}  interval {card.interval_text}"
        f"  n {card.n_text}  threshold {card.threshold_text}"
    )


def _gate(card: MetricCard, colour: bool) -> list[str]:
    status = card.status
    lines = [f"  {paint(status.upper().ljust(8), status, colour, bold=True)} {card.id}", _numbers(card)]
    m = card.measurement
    if m is not None and m.missing:
        lines.append(f"      missing samples: {m.missing}")
    lines.append(f"      {_view.why(card)}")
    if m is not None:
        lines += [
            f"      earlier run: {a.source} ({a.started}): value {a.value}, n {a.n}"
            for a in m.earlier
        ]
    return lines


def _other(card: MetricCard, colour: bool) -> list[str]:
    lines = [
        f"  {paint('INFO'.ljust(8), 'informational', colour)} {card.id}",
        _numbers(card),
        f"      why: {_view.reasons_text(card.authority.reasons)}",
    ]
    if card.authority.notes:
        lines.append(f"      would block once promoted: {_view.reasons_text(card.authority.notes)}")
    return lines


def render(scorecard: Scorecard, colour: bool = False) -> str:
    gates, rest = _view.deciding(scorecard), _view.others(scorecard)
    lines = [
        paint(_view.headline(scorecard), scorecard.verdict.value, colour, bold=True),
        f"model: {scorecard.model or '(not named by the outputs)'}",
        f"sources: {', '.join(scorecard.sources) or '(none)'}",
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
