"""The retry rule, in one place: when a gate's pass came only after failed attempts, whether the
success policy's `max_attempts` lets it warn or makes it fail, and the one wording of it that
gate reasons and verdict lines share; and a host check's attempts in words.

Pure: `decision` asks it of a pass it has already compared, and passes in the gate's own rule to
judge each earlier attempt by; it compares no number itself.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from evalglass.core.numbers import plural
from evalglass.evidence.model import Attempt, AttemptOutcome, EarlierAttempt, Measurement
from evalglass.reasons import GateCode as G
from evalglass.reasons import Reason


@attrs.frozen
class Tries:
    """A pass that came only after earlier attempts missed: the deciding attempt's number (its
    place among all attempts, by start time) and how many before it did not pass."""

    attempt: int
    failed: int


def after_failed_attempts(
    m: Measurement, passes: Callable[[EarlierAttempt], bool]
) -> Tries | None:
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


def attempts_text(attempts: tuple[Attempt, ...]) -> str:
    """A check's attempts in one line: `passed: exit 0 (expected 0), 0.41 s`, with the retry."""
    if not attempts:
        return "no result"
    texts = [attempt_text(a) for a in attempts]
    if len(texts) == 1:
        return texts[0]
    return "; ".join(f"attempt {i}: {text}" for i, text in enumerate(texts, start=1))


def attempt_text(attempt: Attempt) -> str:
    """One attempt in words: how it ended and what was found, where a cached pass was recorded,
    and, for an attempt that did not pass, the start of the last line it wrote to stdout (a test
    runner's summary) and to stderr."""
    words = {AttemptOutcome.PASSED: "passed", AttemptOutcome.FAILED: "failed",
             AttemptOutcome.COULD_NOT_RUN: "could not run"}  # fmt: skip
    text = f"{words[attempt.outcome]}: {attempt.found}"
    if attempt.cached is not None:
        text += (
            f" (cached: recorded {attempt.cached.recorded} at commit {attempt.cached.commit[:12]})"
        )
    if attempt.outcome is not AttemptOutcome.PASSED:
        for stream, last in (
            ("stdout", attempt.last_stdout_line),
            ("stderr", attempt.last_stderr_line),
        ):
            if last:
                text += f"; {stream}: {last[:_SHOWN]}"
    return text


_SHOWN = 200  # characters of a printed line the one-line evidence shows
