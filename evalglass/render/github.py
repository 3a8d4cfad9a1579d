"""GitHub Actions workflow commands: the headline, then one annotation per metric, worst first,
at most PER_LEVEL of each level, and one notice saying how many more there are and where to see
them. Reads the view model every format reads (render/view.py); never decides. Every id and
message is escaped so it cannot end or forge a command, nor carry a control character or a line
break (safe_text) into the log or the annotation."""

from __future__ import annotations

import math

from evalglass.core.exits import Verdict
from evalglass.core.scorecard import MetricCard, Scorecard
from evalglass.render.safe_text import escape
from evalglass.render.status_look import LOOKS
from evalglass.render.view import MetricView, scorecard_view

# GitHub shows 10 error, 10 warning and 10 notice annotations per step and silently drops the
# rest, so more than that would hide metrics without saying so.
PER_LEVEL = 10
_LEVELS = ("error", "warning", "notice")


def escape_data(text: object) -> str:
    """A command's message: every control character, line breaks included, shown as a visible
    escape (`\\n`) first, then `%` as `%25`. Never GitHub's own `%0A`: the runner turns that
    back into a line break in the annotation, where a forged line could pass for evalglass's."""
    return escape(text).replace("%", "%25")


def escape_property(text: object) -> str:
    """A command's property value: as data, and `:` and `,` which would end the property."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, title: str, message: str) -> str:
    """One workflow command line; the title and message are escaped, so no text can end it early
    or forge another."""
    return f"::{level} title={escape_property(title)}::{escape_data(message)}"


def level(metric: MetricView) -> str:
    """error for a gate that failed or could not be decided; warning for a gate that passed with
    a warning; notice for a passed gate and for a metric that does not gate, warning when that
    metric would block once promoted."""
    if not metric.decided and metric.notes:
        return "warning"
    return LOOKS[metric.status].github


def render(scorecard: Scorecard) -> str:
    """The headline as an error (the run fails or is blocked) or a notice, then one annotation
    per metric, the gates that decided first (failed and blocked before passed), at most
    PER_LEVEL of each level counting the headline; when some are left out, a last notice
    says how many and that the step summary lists every metric."""
    view = scorecard_view(scorecard)
    stops = view.verdict in (Verdict.FAIL, Verdict.BLOCKED)
    head = "error" if stops else "notice"
    misses = {card.id: shortfall(card) for card in scorecard.metrics}
    # Worst first: by severity, then by how far the bound misses its bar, so the annotations
    # GitHub shows are the worst of each level, not the first by id.
    gates = sorted(view.gates, key=lambda m: (m.status.severity, -misses.get(m.id, 0.0), m.id))
    metrics = [*gates, *view.others]
    levels = [level(metric) for metric in metrics]
    room = {name: PER_LEVEL - (name == head) for name in _LEVELS}
    if any(levels.count(name) > room[name] for name in _LEVELS):
        room["notice"] -= 1  # the notice that says what was left out
    lines = [command(head, "evalglass", view.headline)]
    left_out = dict.fromkeys(_LEVELS, 0)
    for metric, name in zip(metrics, levels, strict=True):
        if room[name] == 0:
            left_out[name] += 1
            continue
        room[name] -= 1
        title = f"{metric.word.upper()} {metric.id}"
        compared = f"; compared: {metric.change}" if metric.change else ""
        if metric.costly:
            said = ", ".join(s.text for s in metric.costly)
            compared += f"; samples that cost it most, in {metric.costly[0].source}: {said}"
        lines.append(command(name, title, metric.explanation + compared))
    if any(left_out.values()):
        lines.append(command("notice", "evalglass", _left_out_text(left_out)))
    return "\n".join(lines) + "\n"


def shortfall(card: MetricCard) -> float:
    """How far the gate's worst bar misses its limit, in the bar's own units (a `>=` bar: limit
    minus the bound compared); 0 when every bar holds or nothing was compared."""
    worst = 0.0
    for bar in card.gate.compared:
        if bar.holds:
            continue
        gap = bar.limit - bar.compared if bar.op.higher_is_better else bar.compared - bar.limit
        worst = max(worst, gap if not math.isnan(gap) else math.inf)
    return worst


def _left_out_text(left_out: dict[str, int]) -> str:
    counts = ", ".join(
        f"{count} {name}{'s' if count != 1 else ''}" for name, count in left_out.items() if count
    )
    total = sum(left_out.values())
    return (
        f"{total} more metric{'s' if total != 1 else ''} not annotated ({counts}): GitHub shows "
        f"{PER_LEVEL} annotations of each level per step; the step summary's scorecard lists "
        "every metric"
    )
