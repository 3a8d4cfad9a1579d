"""A host check's gate: its attempts decide, not a threshold. The whole table of authority, scope
and attempts, and how the scorecard names what was not run."""

from __future__ import annotations

import itertools

import attrs
import pytest

from evalglass.core.authority import Authority, Outcome
from evalglass.core.decision import CheckInput, Result, decide_check
from evalglass.core.exits import Verdict
from evalglass.core.scope import NO_CHECKS, CheckScope, Scope
from evalglass.core.scorecard import assemble
from evalglass.core.success import Rule
from evalglass.core.validity import assess
from evalglass.evidence.model import Attempt, AttemptOutcome, Evidence, Measurement, Run
from evalglass.reasons import GateCode, ValidityCode
from evalglass.records.model import (
    CheckRecord,
    HostRecords,
    MetricRecord,
    MetricStatus,
    SuccessMode,
    SuccessPolicy,
)
from evalglass.render import words
from evalglass.tiers import Tier
from evalglass.tools.checks.results import measurement
from tests.render_cases import WHEN

P, F, U = AttemptOutcome.PASSED, AttemptOutcome.FAILED, AttemptOutcome.COULD_NOT_RUN
CHECK = CheckRecord(run="pytest", timeout=60)
# Every sequence of attempts a run can record: one attempt, or a failure and its retry.
HISTORIES = [(), (P,), (F,), (U,), (F, P), (F, F), (F, U)]


def _measured(history: tuple[AttemptOutcome, ...]) -> Measurement | None:
    if not history:
        return None
    attempts = tuple(Attempt(outcome=o, command="pytest", found=o.value) for o in history)
    return measurement("c", CHECK, attempts)


# success.yaml's max_attempts: unbounded (a caller deciding without a policy), every attempt must
# pass, the default of one retry, and more than a check is ever given.
MAX_ATTEMPTS = [None, 1, 2, 3]


def expected(
    authority: Outcome, started: bool, history: tuple[AttemptOutcome, ...], max_attempts: int | None
) -> Result:
    """The design's table for a check, read independently of the code."""
    if not started or authority is not Outcome.CAN_GATE:
        return Result.NOT_ENFORCED
    if not history or U in history:
        return Result.UNSOUND
    if history[-1] is F:
        return Result.FAIL
    if len(history) == 2:
        return Result.FAIL if max_attempts == 1 else Result.WARN
    return Result.PASS


@pytest.mark.parametrize(
    ("authority", "started", "history", "max_attempts"),
    list(itertools.product(list(Outcome), (True, False), HISTORIES, MAX_ATTEMPTS)),
)
def test_the_whole_check_gate_table(
    authority: Outcome,
    started: bool,
    history: tuple[AttemptOutcome, ...],
    max_attempts: int | None,
) -> None:
    """Pass on the first attempt; warn on the retry (a fail `too_many_attempts` when every
    attempt must pass); fail when the last failed; unsound when one could not run (or a started
    check has no result); not enforced when not run or not can_gate."""
    m = _measured(history)
    scope = CheckScope(CHECK, "" if started else "a full-tier check, and this run is the fast tier")
    gate = decide_check(CheckInput(measurement=m, validity=assess(m, None), authority=Authority(authority), max_attempts=max_attempts, scope=scope))  # fmt: skip
    assert gate.result is expected(authority, started, history, max_attempts)
    codes = [r.code for r in gate.reasons]
    if not started:
        assert codes == [GateCode.NOT_RUN]
    elif gate.result is Result.WARN:
        assert codes == [GateCode.PASSED_ON_RETRY]
        assert gate.reasons[0].message == "passed on attempt 2; 1 earlier attempt failed"
    elif gate.result is Result.FAIL and history[-1] is P:
        assert [(r.code, r.message) for r in gate.reasons] == [
            (
                GateCode.TOO_MANY_ATTEMPTS,
                (
                    "passed on attempt 2; 1 earlier attempt failed; at most 1 attempt allowed "
                    "(max_attempts)"
                ),
            )
        ]
    elif gate.result is Result.UNSOUND:
        assert codes == (
            [ValidityCode.CHECK_COULD_NOT_RUN] if history else [ValidityCode.VALUE_MISSING]
        )


def test_a_check_measurement_is_one_observation_with_no_interval() -> None:
    """1 passed, 0 failed, no value when it could not run; n 1, no interval, attempts kept."""
    assert [(_m.value, _m.n) for _m in map(_measured, [(P,), (F,), (U,), (F, P)]) if _m] == [
        (1.0, 1),
        (0.0, 1),
        (None, None),
        (1.0, 1),
    ]
    m = _measured((F, P))
    assert m is not None and m.interval is None and len(m.attempts) == 2
    assert m.run.source == str(CHECK.origin)


def _records(*checks: tuple[str, Tier, MetricStatus | None]) -> HostRecords:
    return HostRecords(
        checks={name: CheckRecord(run="x", timeout=5, tier=tier) for name, tier, _ in checks},
        metrics={
            f"check/{name}": MetricRecord(status=status)
            for name, _, status in checks
            if status is not None
        },
    )


def test_score_lists_every_check_as_not_run_and_decides_nothing_on_them() -> None:
    """Under `score` (no scope) each check is listed, not run, and the verdict ignores them; the
    first line counts the gating checks not run."""
    records = _records(
        ("a", Tier.FAST, MetricStatus.GATING),
        ("b", Tier.FULL, MetricStatus.GATING),
        ("c", Tier.FULL, MetricStatus.INFORMATIONAL),
        ("d", Tier.FULL, None),
    )
    card = assemble(records, Evidence(), evaluated_at=WHEN, scope=NO_CHECKS)
    assert [c.id for c in card.metrics] == ["check/a", "check/b", "check/c", "check/d"]
    assert {c.gate.result for c in card.metrics} == {Result.NOT_ENFORCED}
    assert all(GateCode.NOT_RUN in [r.code for r in c.gate.reasons] for c in card.metrics)
    assert card.verdict is Verdict.INFORMATIONAL
    assert card.counts.not_run == 2
    assert words.headline(card) == (
        "NO ACTIVE GATE — nothing was enforced (2 metrics informational); 2 gating checks not run"
    )


def test_the_fast_tier_names_itself_and_the_full_checks_it_left() -> None:
    """`run --tier fast`: fast checks decide, full ones are not run, and the headline says both."""
    records = _records(("a", Tier.FAST, MetricStatus.GATING), ("b", Tier.FULL, MetricStatus.GATING))
    attempt = Attempt(outcome=P, command="x", found="exit 0 (expected 0), 0.01 s")
    evidence = Evidence(measurements={"check/a": measurement("a", records.checks["a"], (attempt,))})
    card = assemble(records, evidence, evaluated_at=WHEN, scope=Scope(Tier.FAST))
    assert [c.gate.result for c in card.metrics] == [Result.PASS, Result.NOT_ENFORCED]
    assert card.metrics[1].gate.reasons[0].message == (
        "a full-tier check, and this run is the fast tier"
    )
    assert words.headline(card) == (
        "PASS — fast tier: 1 gate enforced, all passed; 0 informational; 1 gating check not run"
    )


def test_a_started_check_with_no_result_is_unsound() -> None:
    """Fail closed: a check in the run's scope that left no result cannot pass."""
    records = _records(("a", Tier.FAST, MetricStatus.GATING))
    card = assemble(records, Evidence(), evaluated_at=WHEN, scope=Scope(Tier.FULL))
    assert card.metrics[0].gate.result is Result.UNSOUND
    assert card.verdict is Verdict.BLOCKED


def test_a_gating_check_with_no_definition_blocks() -> None:
    """`check/x: {status: gating}` with no check x in checks.yaml: blocked under score and run."""
    records = HostRecords(metrics={"check/x": MetricRecord(status=MetricStatus.GATING)})
    for scope in (NO_CHECKS, Scope(Tier.FULL)):
        card = assemble(records, Evidence(), evaluated_at=WHEN, scope=scope)
        assert card.verdict is Verdict.BLOCKED
        assert card.metrics[0].authority.outcome is Outcome.BLOCKED


def test_a_check_names_no_model_and_leaves_the_runs_model_alone() -> None:
    """The scorecard's model is the outputs' one: a check evaluates no model."""
    records = _records(("a", Tier.FAST, MetricStatus.GATING))
    attempt = Attempt(outcome=P, command="x", found="ok")
    evidence = Evidence(
        measurements={
            "check/a": measurement("a", records.checks["a"], (attempt,)),
            "qa/x": Measurement(
                id="qa/x", run=Run(source="o.json", models=("acme/m",)), value=1.0, n=5
            ),
        }
    )
    card = assemble(records, evidence, evaluated_at=WHEN, scope=Scope(Tier.FULL))
    assert card.model == "acme/m"


def _must_pass(records: HostRecords, *ids: str, mode: SuccessMode = SuccessMode.ALL) -> HostRecords:
    rate = 0.5 if mode is SuccessMode.PERCENTAGE else None
    return attrs.evolve(
        records, success=SuccessPolicy(mode=mode, min_pass_rate=rate, must_pass=ids)
    )


@pytest.mark.parametrize("mode", list(SuccessMode))
def test_a_must_pass_check_not_run_blocks_the_run(mode: SuccessMode) -> None:
    """success.yaml naming a check in must_pass: under `score` it was not run and cannot show
    that it passed, so the run is blocked in either mode."""
    records = _must_pass(
        _records(("a", Tier.FAST, MetricStatus.GATING), ("b", Tier.FULL, MetricStatus.GATING)),
        "check/b",
        mode=mode,
    )
    card = assemble(records, Evidence(), evaluated_at=WHEN, scope=NO_CHECKS)
    assert card.verdict is Verdict.BLOCKED
    assert card.exit_code == 3
    assert card.policy.rule is Rule.MUST_PASS
    [unmet] = words.unmet_messages(card)
    assert card.policy.unmet[0].not_run
    assert unmet.startswith(
        "must-pass gate 'check/b' was not run, so it cannot show that it passed: "
    )
    assert words.headline(card).endswith("; 2 gating checks not run")
    assert "must-pass check/b not run (success.yaml)" in words.headline(card)


@pytest.mark.parametrize("mode", list(SuccessMode))
def test_the_fast_tier_leaves_what_it_does_not_run_to_the_full_run(mode: SuccessMode) -> None:
    """A fast-tier run is held to what it runs: a must_pass check of the full tier, and a
    must_pass eval metric no output given measures, are left to the full run (named in the
    policy's lines), not blocking every push; what the fast tier runs still decides."""
    records = _must_pass(
        attrs.evolve(
            _records(("a", Tier.FAST, MetricStatus.GATING), ("b", Tier.FULL, MetricStatus.GATING)),
            metrics={
                **_records(("a", Tier.FAST, MetricStatus.GATING),
                           ("b", Tier.FULL, MetricStatus.GATING)).metrics,
                "qa/x": MetricRecord(status=MetricStatus.GATING, dataset="d"),
            },
        ),
        "check/b", "qa/x",
        mode=mode,
    )  # fmt: skip
    passed = Attempt(outcome=P, command="x", found="exit 0 (expected 0), 0.01 s")
    failed = Attempt(outcome=AttemptOutcome.FAILED, command="x", found="exit 1 (expected 0)")
    ran = Evidence(measurements={"check/a": measurement("a", records.checks["a"], (passed,))})
    card = assemble(records, ran, evaluated_at=WHEN, scope=Scope(Tier.FAST))
    assert (card.verdict, card.exit_code, card.policy.unmet) == (Verdict.PASS, 0, ())
    assert card.policy.deferred == ("check/b", "qa/x")
    assert [c.gate.reasons[0].code.value for c in card.metrics if c.id == "qa/x"] == ["not_run"]
    assert words.policy_details(card) == [
        f"must-pass gate '{i}' is left to the full run: this fast-tier run does not measure it"
        for i in ("check/b", "qa/x")
    ]
    assert "; 1 gating check not run" in words.headline(card)
    broken = Evidence(
        measurements={"check/a": measurement("a", records.checks["a"], (failed, failed))}
    )
    assert assemble(records, broken, evaluated_at=WHEN, scope=Scope(Tier.FAST)).exit_code == 1
    full = assemble(records, ran, evaluated_at=WHEN, scope=Scope(Tier.FULL))
    assert full.verdict is Verdict.BLOCKED and full.policy.deferred == ()


def test_a_must_pass_check_that_ran_and_passed_meets_the_policy() -> None:
    """The full tier runs the named check; it passed, so the policy is met and the run passes."""
    records = _must_pass(_records(("b", Tier.FULL, MetricStatus.GATING)), "check/b")
    attempt = Attempt(outcome=P, command="x", found="exit 0 (expected 0), 0.01 s")
    evidence = Evidence(measurements={"check/b": measurement("b", records.checks["b"], (attempt,))})
    card = assemble(records, evidence, evaluated_at=WHEN, scope=Scope(Tier.FULL))
    assert (card.verdict, card.policy.unmet) == (Verdict.PASS, ())
    assert words.headline(card) == (
        "PASS — full tier: 1 gate enforced, all passed; 0 informational; success policy: "
        "success.yaml"
    )


def test_checks_no_policy_names_stay_out_of_a_policy_verdict() -> None:
    """A success.yaml without the checks in must_pass: under `score` they are not run, count as
    no gate (min_gates is not met by them) and the headline says how many were left out."""
    records = attrs.evolve(
        _records(("a", Tier.FAST, MetricStatus.GATING)), success=SuccessPolicy(min_gates=1)
    )
    card = assemble(records, Evidence(), evaluated_at=WHEN, scope=NO_CHECKS)
    assert (card.verdict, card.policy.enforced, card.exit_code) == (Verdict.INFORMATIONAL, 0, 5)
    assert words.headline(card) == (
        "NO ACTIVE GATE — nothing was enforced (0 metrics informational); 1 gating check not run; "
        "success.yaml asks for at least 1 gate"
    )
