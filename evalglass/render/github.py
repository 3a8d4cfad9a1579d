"""GitHub Actions workflow commands: the headline, then one annotation per metric. Reads a
Scorecard; never decides. Every id and message is escaped so it cannot end or forge a command,
nor carry a control character (safe_text) into the log or the annotation."""

from __future__ import annotations

from evalglass.core.exits import Verdict
from evalglass.core.scorecard import MetricCard, Scorecard
from evalglass.render import _view
from evalglass.render.safe_text import escape


def escape_data(text: object) -> str:
    """A command's message: `%` first, so the runner's unescaping cannot be fooled by `%0A`; line
    breaks in GitHub's own escapes, every other control character shown as an escape."""
    return escape(str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: object) -> str:
    """A command's property value: as data, and `:` and `,` which would end the property."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, title: str, message: str) -> str:
    """One workflow command line; the title and message are escaped, so no text can end it early
    or forge another."""
    return f"::{level} title={escape_property(title)}::{escape_data(message)}"


def level(card: MetricCard) -> str:
    """error for a gate that failed or could not be decided; warning for a gate that passed with
    a warning; notice for a passed gate and for a metric that does not gate, warning when that
    metric would block once promoted."""
    if not card.decided and card.authority.notes:
        return "warning"
    return card.status.github


def render(scorecard: Scorecard) -> str:
    """The headline as an error (the run fails or is blocked) or a notice, then one annotation
    per metric, the gates that decided first."""
    stops = scorecard.verdict in (Verdict.FAIL, Verdict.BLOCKED)
    lines = [command("error" if stops else "notice", "evalglass", _view.headline(scorecard))]
    for card in [*_view.deciding(scorecard), *_view.others(scorecard)]:
        title = f"{card.status.value.upper()} {card.id}"
        lines.append(command(level(card), title, _view.explanation(card)))
    return "\n".join(lines) + "\n"
