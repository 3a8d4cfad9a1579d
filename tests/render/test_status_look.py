"""How each format shows a status: one table in render, read by the terminal, JUnit and GitHub."""

from __future__ import annotations

import re

import attrs

from evalglass.core.status import Status
from evalglass.records.model import MetricRecord, MetricStatus, Op
from evalglass.render import Format, render
from evalglass.render.status_look import LOOKS, look
from tests import render_cases

# status: (word, ANSI colour, JUnit element, GitHub level)
TABLE = {
    Status.FAIL: ("fail", "31", "failure", "error"),
    Status.UNSOUND: ("unsound", "33", "error", "error"),
    Status.BLOCKED: ("blocked", "33", "error", "error"),
    Status.WARN: ("warn", "35", None, "warning"),
    Status.PASS: ("pass", "32", None, "notice"),
    Status.NOT_RUN: ("not run", "36", "skipped", "notice"),
    Status.INFORMATIONAL: ("informational", "36", "skipped", "notice"),
}


def test_the_whole_look_table() -> None:
    """Every status has its word, colour, JUnit element and GitHub level, and only statuses do."""
    assert set(LOOKS) == set(Status) == set(TABLE)
    for status, (word, colour, junit, github) in TABLE.items():
        shown = LOOKS[status]
        assert (shown.word, shown.colour, shown.junit, shown.github) == (
            word,
            colour,
            junit,
            github,
        )
        assert look(status.value) is shown


def test_every_status_is_coloured_on_a_colour_terminal() -> None:
    """A colour terminal paints each metric's status word in its status's colour, warn too."""
    card = render_cases.scorecard()
    text = render(card, Format.TERMINAL, colour=True)
    painted = re.findall(r"  \x1b\[1;(\d+)m(\w+) *\x1b\[0m", text)
    assert {word.lower() for _, word in painted} == {"fail", "unsound", "blocked", "pass"}
    for colour, word in painted:
        assert LOOKS[Status(word.lower())].colour == colour
    t = attrs.evolve(render_cases.threshold(Op.GE, 0.8), warn_value=0.95)
    m = render_cases.single("w", 0.9).metrics[0]
    warned = render_cases.assembled(
        {"w": MetricRecord(status=MetricStatus.GATING, dataset=render_cases.GOOD)},
        {"w": t},
        {"w": m.measurement},
    )
    assert warned.metrics[0].status is Status.WARN
    assert f"\x1b[1;{LOOKS[Status.WARN].colour}mWARN" in render(
        warned, Format.TERMINAL, colour=True
    )
