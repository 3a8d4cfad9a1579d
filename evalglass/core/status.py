"""A metric's one-word status on a scorecard, and everything each format shows it by.

One closed vocabulary, read by every renderer: how severe it is (the order gates are listed in),
its terminal colour, its JUnit element and its GitHub annotation level. Renderers look these up
here and keep no tables of their own.
"""

from __future__ import annotations

import enum
from typing import Self

from evalglass.core.authority import Outcome
from evalglass.core.decision import Result


class Status(enum.Enum):
    """fail, unsound, blocked, warn and pass affect the verdict; not_run (a host check that could
    gate and that this run did not start) and informational do not."""

    # value, severity (0 most severe), ANSI colour, JUnit element, GitHub annotation level
    FAIL = ("fail", 0, "31", "failure", "error")
    UNSOUND = ("unsound", 1, "33", "error", "error")
    BLOCKED = ("blocked", 2, "33", "error", "error")
    WARN = ("warn", 3, "35", None, "warning")
    PASS = ("pass", 4, "32", None, "notice")
    # Not decided. A check not run is skipped like an informational metric, but it is not one:
    # the records let it gate, and only this run's scope left it out.
    NOT_RUN = ("not_run", 5, "36", "skipped", "notice")
    # JUnit skips it; GitHub gives a notice (a warning when it would block once promoted, which
    # the renderer knows from the authority's notes).
    INFORMATIONAL = ("informational", 6, "36", "skipped", "notice")

    severity: int
    colour: str  # an SGR colour code for a colour terminal
    junit: str | None  # the child element of a testcase; None for a passed gate, which has none
    github: str

    def __new__(cls, word: str, severity: int, colour: str, junit: str | None, github: str) -> Self:
        """A member from its row: the word is its value, the rest become its attributes."""
        member = object.__new__(cls)
        member._value_ = word
        member.severity, member.colour, member.junit, member.github = (
            severity,
            colour,
            junit,
            github,
        )
        return member

    @classmethod
    def named(cls, word: str) -> Status:
        """The status whose word is `word`, as the view model carries it."""
        return _BY_WORD[word]

    @classmethod
    def of(cls, outcome: Outcome, result: Result) -> Status:
        """The status of a metric with this authority outcome and gate result: the one mapping
        every format (and the trend of saved scorecards) reads."""
        if outcome is Outcome.BLOCKED:
            return cls.BLOCKED
        if result is Result.NOT_ENFORCED:
            return cls.NOT_RUN if outcome is Outcome.CAN_GATE else cls.INFORMATIONAL
        return _RESULT_STATUS[result]

    @property
    def decided(self) -> bool:
        """Whether a metric of this status affects the verdict."""
        return self not in (Status.INFORMATIONAL, Status.NOT_RUN)

    @property
    def word(self) -> str:
        """The status as every format prints it: `not run`, `fail`, ..."""
        return str(self.value).replace("_", " ")

    def __str__(self) -> str:
        """The status word, as every format prints it."""
        return self.word


# Looked up by word for every metric a format writes.
_BY_WORD = {status.value: status for status in Status}
_RESULT_STATUS = {
    Result.PASS: Status.PASS,
    Result.WARN: Status.WARN,
    Result.FAIL: Status.FAIL,
    Result.UNSOUND: Status.UNSOUND,
}
