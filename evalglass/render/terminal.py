"""The terminal scorecard: plain text, coloured only for a colour terminal. Never decides."""

from __future__ import annotations

from evalglass.render._templates import environment
from evalglass.scorecard import Scorecard


def render(scorecard: Scorecard, colour: bool = False) -> str:
    template = environment().get_template("scorecard.txt.j2")
    return template.render(scorecard=scorecard, colour=colour)
