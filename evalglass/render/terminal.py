"""The terminal scorecard, from templates/scorecard.txt.j2 over the view model; coloured only for
a colour terminal. Reads a Scorecard; never decides.

Everything the template prints is escaped (safe_text, in the environment's finalize); the colour
codes `paint` adds are the only control characters that reach the terminal.
"""

from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup

from evalglass.core.scorecard import Scorecard
from evalglass.render._templates import environment
from evalglass.render.safe_text import escape
from evalglass.render.status_look import look
from evalglass.render.view import scorecard_view


def painter(colour: bool) -> Callable[..., str]:
    """`paint(text, status, bold=False)` for templates: ANSI colour only when asked for."""

    def paint(text: str, status: str, bold: bool = False) -> str:
        if not colour:
            return escape(text)
        # A status, or the verdict, which colours as the status of the same name (every verdict
        # is one: pass, fail, blocked, informational).
        code = look(status).colour
        # Markup: the template prints it as it is; the text inside is escaped here.
        return Markup(f"\x1b[{'1;' if bold else ''}{code}m{escape(text)}\x1b[0m")

    return paint


def render(scorecard: Scorecard, colour: bool = False) -> str:
    """The terminal scorecard; with `colour`, each status in its ANSI colour."""
    template = environment().get_template("scorecard.txt.j2")
    text: str = template.render(scorecard=scorecard_view(scorecard), paint=painter(colour))
    return text
