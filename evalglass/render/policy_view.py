"""The success policy in the view model: what decided the verdict and what it found, as every
format and a host's `--template` read it (`scorecard.policy`)."""

from __future__ import annotations

import attrs

from evalglass.core.scorecard import Scorecard
from evalglass.core.status import Status
from evalglass.core.success import Rule, Source
from evalglass.records.model import SuccessMode
from evalglass.render import words


@attrs.frozen(kw_only=True)
class UnmetView:
    """A must_pass id the run did not satisfy, and why."""

    id: str
    # fail, unsound, blocked, not_run or informational; None when the run has no such metric.
    status: Status | None
    message: str


@attrs.frozen(kw_only=True)
class PolicyView:
    """The success policy that decided the verdict, and what it found."""

    # success.yaml, or default without the file.
    source: Source
    mode: SuccessMode
    min_gates: int
    min_pass_rate: float | None
    must_pass: tuple[str, ...]
    # The latest attempt a gate may pass on after a failed one (1: every attempt must pass).
    max_attempts: int
    # Which part decided: gates, must_pass, pass_rate, min_gates or nothing_enforced.
    decided_by: Rule
    # Gates (metrics the records authorize, blocked ones included) and how many passed.
    enforced: int
    passed: int
    pass_rate: float | None
    # The policy in a few words (`every gate must pass, at least 1 gate, must pass: qa/x`).
    text: str
    # One line each: must_pass ids not met and why, gates a percentage pass tolerated.
    details: tuple[str, ...]
    # Ids a percentage pass tolerated, with their status.
    tolerated: tuple[tuple[str, Status], ...]
    unmet: tuple[UnmetView, ...]


def policy_view(scorecard: Scorecard) -> PolicyView:
    """The success policy and its numbers, as templates show them."""
    outcome = scorecard.policy
    p = outcome.policy
    unmet = words.unmet_messages(scorecard)
    return PolicyView(
        source=outcome.source,
        mode=p.mode,
        min_gates=p.min_gates,
        min_pass_rate=p.min_pass_rate,
        must_pass=p.must_pass,
        max_attempts=p.max_attempts,
        decided_by=outcome.rule,
        enforced=outcome.enforced,
        passed=outcome.passed,
        pass_rate=outcome.pass_rate,
        text=words.policy_text(outcome),
        details=(*unmet, *words.policy_notes(outcome)),
        tolerated=outcome.tolerated,
        unmet=tuple(
            UnmetView(id=u.id, status=u.status, message=said)
            for u, said in zip(outcome.unmet, unmet, strict=True)
        ),
    )
