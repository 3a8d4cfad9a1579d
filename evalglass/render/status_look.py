"""How every format shows a metric's status, in one table: the word it prints, its colour on a
colour terminal, its JUnit element and its GitHub annotation level. The core carries the status
(core/status.py); the terminal, JUnit, GitHub and every other format look it up here and keep no
table of their own."""

from __future__ import annotations

import attrs

from evalglass.core.status import Status


@attrs.frozen
class Look:
    """A status as the formats show it."""

    # The status as every format prints it: `not run` for not_run, else its code.
    word: str
    # An SGR colour code for a colour terminal.
    colour: str
    # The child element of a JUnit testcase; None for a passed gate, which has none.
    junit: str | None
    # The GitHub annotation level (a metric that would block once promoted is raised to a
    # warning by the renderer, which knows it from the authority's notes).
    github: str


LOOKS: dict[Status, Look] = {
    Status.FAIL: Look("fail", "31", "failure", "error"),
    Status.UNSOUND: Look("unsound", "33", "error", "error"),
    Status.BLOCKED: Look("blocked", "33", "error", "error"),
    Status.WARN: Look("warn", "35", None, "warning"),
    Status.PASS: Look("pass", "32", None, "notice"),
    # A check not run is skipped like an informational metric, but it is not one.
    Status.NOT_RUN: Look("not run", "36", "skipped", "notice"),
    Status.INFORMATIONAL: Look("informational", "36", "skipped", "notice"),
}


def word(status: Status) -> str:
    """The status as every format prints it: `not run`, `fail`, ..."""
    return LOOKS[status].word


def look(code: str) -> Look:
    """The look of the status whose code is `code`; a template passes the verdict here too,
    which looks like the status of the same name (pass, fail, blocked, informational)."""
    return _BY_CODE[code]


_BY_CODE = {status.value: shown for status, shown in LOOKS.items()}
