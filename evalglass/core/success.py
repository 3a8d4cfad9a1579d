"""The run's verdict under the host's success policy (success.yaml, or its defaults): which gates
count, which must pass, and the numbers that decided. Pure; the policy comes only from the records.

A gate, here, is every metric the records authorize (can_gate or blocked): a blocked metric is an
active gate that says "we cannot say", and an unsound number is a gate that could not be compared.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping

import attrs

from evalglass.core.exits import Verdict
from evalglass.core.status import Status
from evalglass.records.model import SuccessMode, SuccessPolicy

DEFAULT_POLICY = SuccessPolicy()
_PASSED = frozenset({Status.PASS, Status.WARN})


class Source(enum.StrEnum):
    """Where the policy came from: the host's success.yaml, or the defaults without one."""

    DEFAULT = "default"
    RECORDS = "success.yaml"


class Rule(enum.StrEnum):
    """Which part of the policy settled the verdict."""

    GATES = "gates"  # every gate must pass: the precedence fail > blocked > pass
    MUST_PASS = "must_pass"  # a gate the policy names failed, or is not can_gate this run
    PASS_RATE = "pass_rate"  # percentage mode: the share of gates that passed
    MIN_GATES = "min_gates"  # fewer gates than the policy (or --require-gate) asks for
    NOTHING_ENFORCED = "nothing_enforced"  # no gate at all, and none was asked for


@attrs.frozen
class Unmet:
    """A must_pass id the run did not satisfy: its status (None: no such metric this run), and
    whether it is a host check this run did not start."""

    id: str
    status: Status | None
    not_run: bool = False


@attrs.frozen(kw_only=True)
class PolicyOutcome:
    """The verdict and what decided it. `tolerated` are the gates a percentage pass let through
    (id and status, empty unless the verdict is pass); `unmet` every must_pass id not met."""

    policy: SuccessPolicy
    source: Source
    verdict: Verdict
    rule: Rule
    enforced: int  # gates: metrics the records authorize (can_gate or blocked)
    passed: int  # of those, passed (a warning passes)
    tolerated: tuple[tuple[str, Status], ...] = ()
    unmet: tuple[Unmet, ...] = ()
    # must_pass ids a fast-tier run does not measure, left to the full run (scorecard.py).
    deferred: tuple[str, ...] = ()

    @property
    def pass_rate(self) -> float | None:
        """passed / enforced; None when nothing was enforced."""
        return self.passed / self.enforced if self.enforced else None

    @property
    def required(self) -> int:
        """The fewest gates a pass needs by the policy: min_gates, at least one in percentage
        mode (zero gates never satisfy a percentage)."""
        return required_gates(self.policy)


def required_gates(policy: SuccessPolicy) -> int:
    """The fewest gates a run needs to pass under `policy`: its min_gates, and at least one in
    percentage mode, where zero gates never satisfy a rate."""
    return max(policy.min_gates, 1 if policy.mode is SuccessMode.PERCENTAGE else 0)


def decide_run(
    statuses: Mapping[str, Status],
    policy: SuccessPolicy | None,
    not_run: Collection[str] = (),
) -> PolicyOutcome:
    """The verdict for metrics of these statuses (id -> status) under `policy` (None: the
    defaults, every enforced gate must pass and zero gates is allowed). `not_run` are host
    checks that could gate and that this run did not start. A must_pass check not run is unmet
    like any gate that did not pass: a check not run cannot show that it passed.

    fail > blocked > the policy's minimum > pass, in either mode; percentage mode tolerates
    gates that do not pass, except those the policy names in must_pass.
    """
    source = Source.DEFAULT if policy is None else Source.RECORDS
    policy = DEFAULT_POLICY if policy is None else policy
    gates = {i: s for i, s in statuses.items() if s.decided}
    passed = sum(s in _PASSED for s in gates.values())
    unmet = tuple(
        Unmet(i, statuses.get(i), i in not_run)
        for i in policy.must_pass
        if statuses.get(i) not in _PASSED
    )
    outcome = _Outcome(policy, source, len(gates), passed, unmet)
    if policy.mode is SuccessMode.ALL:
        if Status.FAIL in gates.values():
            return outcome(Verdict.FAIL, Rule.GATES)
        if any(s.blocks for s in gates.values()):
            return outcome(Verdict.BLOCKED, Rule.GATES)
        if unmet:
            return outcome(Verdict.BLOCKED, Rule.MUST_PASS)
    else:
        if any(u.status is Status.FAIL for u in unmet):
            return outcome(Verdict.FAIL, Rule.MUST_PASS)
        if unmet:
            return outcome(Verdict.BLOCKED, Rule.MUST_PASS)
        if gates and passed / len(gates) < _rate(policy):
            return outcome(Verdict.FAIL, Rule.PASS_RATE)
    if not gates:
        rule = Rule.MIN_GATES if required_gates(policy) else Rule.NOTHING_ENFORCED
        return outcome(Verdict.INFORMATIONAL, rule)
    if len(gates) < policy.min_gates:
        return outcome(Verdict.INFORMATIONAL, Rule.MIN_GATES)
    if policy.mode is SuccessMode.ALL:
        return outcome(Verdict.PASS, Rule.GATES)
    tolerated = tuple((i, s) for i, s in sorted(gates.items()) if s not in _PASSED)
    return outcome(Verdict.PASS, Rule.PASS_RATE, tolerated)


@attrs.frozen
class _Outcome:
    policy: SuccessPolicy
    source: Source
    enforced: int
    passed: int
    unmet: tuple[Unmet, ...]

    def __call__(
        self, verdict: Verdict, rule: Rule, tolerated: tuple[tuple[str, Status], ...] = ()
    ) -> PolicyOutcome:
        return PolicyOutcome(
            policy=self.policy,
            source=self.source,
            verdict=verdict,
            rule=rule,
            enforced=self.enforced,
            passed=self.passed,
            tolerated=tolerated,
            unmet=self.unmet,
        )


def _rate(policy: SuccessPolicy) -> float:
    # The loader requires a rate in percentage mode; a policy built in memory without one
    # demands every gate, the strictest reading.
    return 1.0 if policy.min_pass_rate is None else policy.min_pass_rate
