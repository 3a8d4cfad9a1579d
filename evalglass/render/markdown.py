"""The Markdown scorecard for a pull-request comment. Reads a Scorecard; never decides."""

from __future__ import annotations

from evalglass.render._templates import environment
from evalglass.scorecard import Scorecard


def render(scorecard: Scorecard) -> str:
    return environment().get_template("scorecard.md.j2").render(scorecard=scorecard)
