"""What doctor reports: a finding (an error or a warning at a file and line) and its closed
vocabulary of problems. Values only; the diagnoses that make them live in diagnosis.py and
check_findings.py.
"""

from __future__ import annotations

import difflib
import enum
from collections.abc import Mapping

import attrs

from evalglass.records.model import Origin


class Severity(enum.Enum):
    """How much a finding matters: an error makes doctor exit 1, a warning does not."""

    ERROR = "error"  # the records, as they stand, block or mislead a gate: doctor exits 1
    WARNING = "warning"  # worth a look; doctor exits 0


class Problem(enum.Enum):
    """What doctor can find, as a closed vocabulary; the values are the codes its JSON prints.
    Which problems are only warnings is fixed here."""

    DANGLING_REFERENCE = "dangling_reference"
    UNMEASURED_GATE = "unmeasured_gate"
    FUTURE_APPROVAL = "future_approval"
    NO_POLICY = "no_policy"
    UNCALIBRATED_JUDGE = "uncalibrated_judge"
    BLOCKED_GATE = "blocked_gate"
    UNRECORDED_METRIC = "unrecorded_metric"
    UNUSED_RECORD = "unused_record"
    WOULD_BLOCK = "would_block"
    POINT_DECISION = "point_decision"
    MIN_SAMPLES_TOO_LOW = "min_samples_too_low"
    CANNOT_PASS_AT_N = "cannot_pass_at_n"
    UNMEETABLE_POLICY = "unmeetable_policy"
    JUDGE_EVIDENCE_INSUFFICIENT = "judge_evidence_insufficient"
    APPROVAL_EXPIRING = "approval_expiring"
    # A record's own last day (a dataset's, say), not an approval's, is near.
    RECORD_EXPIRING = "record_expiring"
    APPROVER_NOT_OWNER = "approver_not_owner"
    EXECUTABLE_NOT_FOUND = "executable_not_found"
    UNRECORDED_CHECK = "unrecorded_check"
    EMPTY_TIER = "empty_tier"
    CONFIRMS_ON_NOTHING = "confirms_on_nothing"
    MUST_PASS_CHECK = "must_pass_check"


_WARNINGS = frozenset({
    Problem.UNRECORDED_METRIC, Problem.UNUSED_RECORD, Problem.WOULD_BLOCK,
    Problem.POINT_DECISION, Problem.MIN_SAMPLES_TOO_LOW, Problem.UNRECORDED_CHECK,
    Problem.EMPTY_TIER, Problem.CONFIRMS_ON_NOTHING, Problem.MUST_PASS_CHECK,
    Problem.APPROVAL_EXPIRING, Problem.RECORD_EXPIRING, Problem.APPROVER_NOT_OWNER,
})  # fmt: skip
# Findings at one line are listed in this order.
ORDER = list(Problem)


@attrs.frozen(kw_only=True)
class Finding:
    """One problem at a place in the records (or an output), about one record or metric, with the
    message a person reads."""

    problem: Problem
    path: str
    line: int | None  # None: a whole file (an eval output, or a records file as a whole)
    subject: str  # the id of the record or metric it is about
    message: str

    @property
    def severity(self) -> Severity:
        """Error or warning, by the problem alone."""
        return Severity.WARNING if self.problem in _WARNINGS else Severity.ERROR

    @property
    def where(self) -> str:
        """`path:line`, or the path alone when the finding is about a whole file."""
        return self.path if self.line is None else f"{self.path}:{self.line}"


def at(origin: Origin, problem: Problem, subject: str, message: str) -> Finding:
    """A finding at the line a record was written on."""
    return Finding(
        problem=problem, path=origin.path, line=origin.line, subject=subject, message=message
    )


def hint(name: str, known: Mapping[str, object]) -> str:
    """` (did you mean 'x'?)` for the closest known id, or ""."""
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""
