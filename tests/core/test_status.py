"""The status vocabulary: every status, and how each format shows it, in one table."""

from __future__ import annotations

import re

import attrs

from evalglass.core.status import Status
from evalglass.records.model import MetricRecord, MetricStatus, Op
from evalglass.render import Format, render
from tests import render_cases

# status: (severity, ANSI colour, JUnit element, GitHub level, affects the verdict)
TABLE = {
    "fail": (0, "31", "failure", "error", True),
    "unsound": (1, "33", "error", "error", True),
    "blocked": (2, "33", "error", "error", True),
    "warn": (3, "35", None, "warning", True),
    "pass": (4, "32", None, "notice", True),
    "informational": (5, "36", "skipped", "notice", False),
}


def test_the_whole_status_table() -> None:
    """Each status carries its severity, colour, JUnit element and GitHub level, and no more
    statuses exist than the table lists."""
    assert [s.value for s in Status] == list(TABLE)
    for status in Status:
        assert (status.severity, status.colour, status.junit, status.github, status.decided) == (
            TABLE[status.value]
        )


def test_every_status_is_coloured_on_a_colour_terminal() -> None:
    """A colour terminal paints each metric's status word in its status's colour, warn too."""
    card = render_cases.scorecard()
    text = render(card, Format.TERMINAL, colour=True)
    painted = re.findall(r"  \x1b\[1;(\d+)m(\w+) *\x1b\[0m", text)
    assert {word.lower() for _, word in painted} == {"fail", "unsound", "blocked", "pass"}
    for colour, word in painted:
        assert Status(word.lower()).colour == colour
    t = attrs.evolve(render_cases.threshold(Op.GE, 0.8), warn_value=0.95)
    m = render_cases.single("w", 0.9).metrics[0]
    warned = render_cases.assembled(
        {"w": MetricRecord(status=MetricStatus.GATING, dataset=render_cases.GOOD)},
        {"w": t},
        {"w": m.measurement},
    )
    assert warned.metrics[0].status is Status.WARN
    assert f"\x1b[1;{Status.WARN.colour}mWARN" in render(warned, Format.TERMINAL, colour=True)
