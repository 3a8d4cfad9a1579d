"""A check's attempts as evidence, and the retry rule. Pure: what happened is already in the
attempts; this says whether to try once more, and turns them into the `check/NAME` measurement the
core judges like every other.
"""

from __future__ import annotations

from evalglass.core.authority import Authority, Outcome
from evalglass.evidence.model import Attempt, AttemptOutcome, Measurement, Run
from evalglass.metric_ids import check_metric
from evalglass.records.model import CheckRecord


def should_retry(attempts: tuple[Attempt, ...], authority: Authority) -> bool:
    """Exactly one retry, for a check that may gate and failed its first attempt. An
    informational check's failure blocks nothing; one that could not run would not run again."""
    return (
        len(attempts) == 1
        and attempts[0].outcome is AttemptOutcome.FAILED
        and authority.outcome is Outcome.CAN_GATE
    )


def measurement(name: str, check: CheckRecord, attempts: tuple[Attempt, ...]) -> Measurement:
    """The metric `check/NAME`: 1 when the last attempt passed, 0 when it failed, no value when
    it could not run; one observation, no interval. The attempts are its evidence."""
    last = attempts[-1].outcome
    value = None if last is AttemptOutcome.COULD_NOT_RUN else float(last is AttemptOutcome.PASSED)
    return Measurement(
        id=check_metric(name),
        run=Run(source=str(check.origin)),
        value=value,
        n=None if value is None else 1,
        attempts=attempts,
    )
