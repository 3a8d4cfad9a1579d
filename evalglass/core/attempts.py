"""The retry rule, in one place: when a gate's pass came only after failed attempts, whether the
success policy's `max_attempts` lets it warn or makes it fail, and the message of the reason it
gives, which verdict lines repeat. A host check's attempts in words are render's
(render/attempts.py).

Pure: `decision` asks it of a pass it has already compared, and passes in the gate's own rule to
judge each earlier attempt by; it compares no number itself.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from evalglass.evidence.model import EarlierAttempt, Measurement
from evalglass.numbers import plural
from evalglass.reasons import GateCode as G
from evalglass.reasons import Reason


@attrs.frozen
class Tries:
    """A pass that came only after earlier attempts missed: the deciding attempt's number (its
    place among all attempts, by start time) and how many before it did not pass."""

    attempt: int
    failed: int


def after_failed_attempts(m: Measurement, passes: Callable[[EarlierAttempt], bool]) -> Tries | None:
    """The attempts behind a pass, when earlier attempts of the same evaluation did not pass by
    `passes`, the gate's own rule (its bound, method and level, or its point rule): a rerun until
    green never hides an attempt that failed. None when every earlier one passed."""
    if not m.earlier:
        return None
    failed = sum(1 for a in m.earlier if not passes(a))
    if not failed:
        return None
    return Tries(attempt=len(m.earlier) + 1, failed=failed)


def retried(tries: Tries, max_attempts: int | None) -> Reason:
    """A pass after failed attempts: a warning (`passed_on_retry`) within the policy's bound, a
    fail (`too_many_attempts`) past it; None for the bound is no bound."""
    if max_attempts is not None and tries.attempt > max_attempts:
        return Reason(G.TOO_MANY_ATTEMPTS, retry_text(tries, max_attempts))
    return Reason(G.PASSED_ON_RETRY, retry_text(tries))


def retry_text(tries: Tries, max_attempts: int | None = None) -> str:
    """The one wording of a pass after failed attempts, in gate reasons and verdict lines alike:
    `passed on attempt 3; 2 earlier attempts failed`, and past the policy's bound `...; at most
    2 attempts allowed (max_attempts)`."""
    said = "earlier attempt" if tries.failed == 1 else "earlier attempts"
    text = f"passed on attempt {tries.attempt}; {tries.failed} {said} failed"
    if max_attempts is not None and tries.attempt > max_attempts:
        text += f"; at most {plural(max_attempts, 'attempt')} allowed (max_attempts)"
    return text
