"""A metric's status on a scorecard: one closed vocabulary, with how severe each is (the order
gates are listed in) and whether it affects the verdict.

Codes and numbers only: how each format shows a status (its word, terminal colour, JUnit element,
GitHub annotation level) is render's one table (render/status_look.py).
"""

from __future__ import annotations

import enum
from typing import Self

from evalglass.core.authority import Outcome
from evalglass.core.decision import Result


class Status(enum.StrEnum):
    """fail, unsound, blocked, warn and pass affect the verdict; not_run (a host check that could
    gate and that this run did not start) and informational do not."""

    # value, severity (0 most severe)
    FAIL = ("fail", 0)
    UNSOUND = ("unsound", 1)
    BLOCKED = ("blocked", 2)
    WARN = ("warn", 3)
    PASS = ("pass", 4)
    # Not decided. A check not run is not informational: the records let it gate, and only this
    # run's scope left it out.
    NOT_RUN = ("not_run", 5)
    INFORMATIONAL = ("informational", 6)

    severity: int

    def __new__(cls, code: str, severity: int) -> Self:
        """A member from its row: the code is its value, the severity its attribute."""
        member = str.__new__(cls, code)
        member._value_ = code
        member.severity = severity
        return member

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
    def blocks(self) -> bool:
        """Whether a metric of this status blocks the run (we cannot say): blocked by authority,
        or enforced on an unsound number. The one answer the counts and the verdict read."""
        return self in (Status.BLOCKED, Status.UNSOUND)


_RESULT_STATUS = {
    Result.PASS: Status.PASS,
    Result.WARN: Status.WARN,
    Result.FAIL: Status.FAIL,
    Result.UNSOUND: Status.UNSOUND,
}
