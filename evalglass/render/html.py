"""The HTML scorecard: one self-contained page. Reads the view model every format reads
(render/view.py); never decides.

The page frame is the autoescaping template; each metric's card is written by _html_card.py,
which escapes every value it writes.
"""

from __future__ import annotations

import functools

import jinja2

from evalglass._version import __version__
from evalglass.core.scorecard import Scorecard
from evalglass.render import _html_card
from evalglass.render._templates import environment
from evalglass.render.view import scorecard_view

# The version the footer names (a module name, so the golden files can pin it).
VERSION = __version__


@functools.cache
def _environment() -> jinja2.Environment:
    # The shared environment, with autoescape on and a cache of its own, so a template compiled
    # without escaping can never be reused here.
    return environment().overlay(autoescape=True, cache_size=50)


def render(scorecard: Scorecard) -> str:
    """The whole HTML scorecard as one self-contained page; every value from the inputs is
    escaped."""
    template = _environment().get_template("scorecard.html.j2")
    view = scorecard_view(scorecard)
    return template.render(
        scorecard=view,
        metric_cards=_html_card.cards,
        summary_rows=_html_card.summary(view),
        evaluated_at=f"{scorecard.evaluated_at:%Y-%m-%d %H:%M:%S} UTC",
        version=VERSION,
    )
