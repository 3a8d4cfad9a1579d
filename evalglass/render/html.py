"""The HTML scorecard: one self-contained page. Reads a Scorecard; never decides.

The page frame is the autoescaping template; each metric's card is written by _html_card.py,
which escapes every value it writes.
"""

from __future__ import annotations

import functools

import jinja2

from evalglass.core.scorecard import Scorecard
from evalglass.render import _html_card
from evalglass.render._templates import environment


@functools.cache
def _environment() -> jinja2.Environment:
    # The shared environment, with autoescape on and a cache of its own, so a template compiled
    # without escaping can never be reused here.
    return environment().overlay(autoescape=True, cache_size=50)


def render(scorecard: Scorecard) -> str:
    """The whole HTML scorecard as one self-contained page; every value from the inputs is
    escaped."""
    template = _environment().get_template("scorecard.html.j2")
    return template.render(scorecard=scorecard, metric_cards=_html_card.cards)
