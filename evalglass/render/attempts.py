"""A host check's attempts in words, for its evidence line and the view: how each ended, what it
found, where a cached pass was recorded, and the last line an attempt that did not pass wrote.
The core carries the attempts; this words them."""

from __future__ import annotations

from evalglass.evidence.model import Attempt, AttemptOutcome

_WORDS = {
    AttemptOutcome.PASSED: "passed",
    AttemptOutcome.FAILED: "failed",
    AttemptOutcome.COULD_NOT_RUN: "could not run",
}


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
    text = f"{_WORDS[attempt.outcome]}: {attempt.found}"
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
