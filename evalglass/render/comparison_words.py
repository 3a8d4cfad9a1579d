"""How a run reads beside an earlier scorecard (`--compare`): each metric's change, and which
scorecard it is against. Shown only, never decided on."""

from __future__ import annotations

from evalglass.core.scorecard import MetricCard, Scorecard
from evalglass.evidence.labels import interval_label
from evalglass.numbers import fmt


def _signed(x: float) -> str:
    return fmt(x) if x < 0 else f"+{fmt(x)}"


def change_text(scorecard: Scorecard, card: MetricCard) -> str:
    """The metric against the earlier scorecard: `earlier 0.9, change +0.03 [-0.01, +0.07] (95%
    Newcombe, 200 paired)`; "" when nothing was compared (no --compare, or no value now)."""
    comparison = scorecard.comparison
    found = None if comparison is None else comparison.of(card.id)
    if found is None:
        return ""
    if found.earlier is None:
        return "new: no value in the earlier scorecard"
    text = f"earlier {fmt(found.earlier)}"
    change = found.change
    if change is None:
        return text
    text += f", change {_signed(change.value)}"
    interval = change.interval
    if interval is not None:
        paired = f", {change.paired} paired" if change.paired else ", unpaired"
        bounds = f"[{_signed(interval.low)}, {_signed(interval.high)}]"
        text += f" {bounds} ({interval_label(interval)}{paired})"
    return text


def comparison_text(scorecard: Scorecard) -> str:
    """Which earlier scorecard the changes are against, when it was evaluated, and whether it is
    stale (evaluated before the base commit); "" without --compare."""
    comparison = scorecard.comparison
    if comparison is None:
        return ""
    when = comparison.evaluated_at
    text = f"compared with {comparison.source}"
    text += " (no evaluation time)" if when is None else f" (evaluated {when:%Y-%m-%d %H:%M} UTC)"
    if comparison.stale:
        text += "; STALE: evaluated before the base commit it stands for"
    elif comparison.stale is None:
        text += "; not checked against the base commit"
    return text + "; shown only, it decides nothing"
