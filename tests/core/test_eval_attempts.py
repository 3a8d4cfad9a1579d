"""Attempts of one evaluation: the newest decides, a pass after failed attempts is a warning
within success.yaml's max_attempts and a fail past it, and the verdict line says so in every
format. The whole table of earlier attempts, newest result and bound."""

from __future__ import annotations

import datetime as dt
import itertools
import json

import attrs
import pytest

from evalglass.core.authority import Authority, Outcome
from evalglass.core.decision import GateInput, Result, decide
from evalglass.core.exits import Verdict
from evalglass.core.scorecard import MetricCard, assemble
from evalglass.core.validity import assess
from evalglass.evidence import stats
from evalglass.evidence.model import (
    EarlierAttempt,
    Evidence,
    Interval,
    Measurement,
    Method,
    Run,
)
from evalglass.reasons import GateCode
from evalglass.records.model import (
    Approval,
    BaselineRecord,
    Decision,
    HostRecords,
    MetricRecord,
    MetricStatus,
    Op,
    SuccessPolicy,
    ThresholdRecord,
)
from evalglass.render import Format, render, words
from evalglass.render.evidence_line import evidence_line
from tests.render_cases import DATASETS, POLICIES, WHEN, threshold

CAN_GATE = Authority(Outcome.CAN_GATE)
RUN = Run(source="run-3.json", models=["acme/x"], started="2026-11-30T12:00:00+00:00")
METRIC = MetricRecord(status=MetricStatus.GATING, dataset="qa-gold", decision=Decision.POINT)
BAR = threshold(Op.GE, 0.8)
# An earlier attempt as the table sees it: its value cleared the bar, missed it, or none.
CLEARED, MISSED, NO_VALUE = 0.9, 0.5, None
EARLIER = [
    history
    for size in range(4)
    for history in itertools.product((CLEARED, MISSED, NO_VALUE), repeat=size)
]
MAX_ATTEMPTS = [None, 1, 2, 3, 4]


def measured(value: float, earlier: tuple[float | None, ...]) -> Measurement:
    attempts = tuple(
        EarlierAttempt(
            source=f"run-{i}.json", started=f"2026-11-30T1{i}:00:00+00:00", value=v, n=100
        )
        for i, v in enumerate(earlier)
    )
    return Measurement(id="qa/x", run=RUN, value=value, n=100, earlier=attempts)


def expected(newest: float, earlier: tuple[float | None, ...], bound: int | None):
    """docs/formats.md and scorecard.md, restated: the newest decides; an earlier attempt with
    no value, or one whose value misses the bar, failed; a pass after any failed one is warn
    `passed_on_retry`, unless its attempt number exceeds max_attempts: then fail
    `too_many_attempts`."""
    if newest < 0.8:
        return Result.FAIL, []
    failed = sum(v is None or v < 0.8 for v in earlier)
    if not failed:
        return Result.PASS, []
    attempt = len(earlier) + 1
    said = f"passed on attempt {attempt}; {failed} earlier attempt{'s' * (failed > 1)} failed"
    if bound is not None and attempt > bound:
        allowed = f"{bound} attempt{'s' if bound > 1 else ''}"
        return Result.FAIL, [
            (GateCode.TOO_MANY_ATTEMPTS, f"{said}; at most {allowed} allowed (max_attempts)")
        ]
    return Result.WARN, [(GateCode.PASSED_ON_RETRY, said)]


@pytest.mark.parametrize("bound", MAX_ATTEMPTS)
@pytest.mark.parametrize("newest", [CLEARED, MISSED])
def test_the_whole_attempts_table(newest: float, bound: int | None) -> None:
    """Every history of up to three earlier attempts, under every bound: the result and the
    exact reason the docs give."""
    for earlier in EARLIER:
        m = measured(newest, earlier)
        gate = decide(
            GateInput(
                measurement=m,
                validity=assess(m, METRIC),
                authority=CAN_GATE,
                threshold=BAR,
                metric=METRIC,
                max_attempts=bound,
            )
        )
        result, reasons = expected(newest, earlier, bound)
        assert (gate.result, [(r.code, r.message) for r in gate.reasons]) == (result, reasons), (
            earlier
        )


def test_a_fail_past_max_attempts_says_what_held_and_proposes_no_value() -> None:
    """The bar held on the deciding attempt, and the evidence still says so; no value or n would
    pass it (only fewer attempts would), so no `needed` is offered."""
    m = Measurement(
        id="qa/x", run=RUN, value=0.95, n=400,
        interval=Interval(0.925, 0.966, 0.95, Method.WILSON),
        earlier=(EarlierAttempt(source="a", started=None, value=0.5, n=400),) * 2,
    )  # fmt: skip
    bound = MetricRecord(status=MetricStatus.GATING, dataset="qa-gold")
    gate = decide(
        GateInput(
            measurement=m,
            validity=assess(m, bound),
            authority=CAN_GATE,
            threshold=BAR,
            metric=bound,
            max_attempts=2,
        )
    )
    assert gate.result is Result.FAIL
    card = MetricCard(
        id="qa/x", measurement=m, validity=assess(m, bound), authority=CAN_GATE, threshold=BAR,
        gate=gate,
    )  # fmt: skip
    assert evidence_line(card).startswith("lower bound 0.925 >= 0.8")
    assert gate.needed is None


def test_a_regression_gate_counts_an_earlier_drop_as_a_failed_attempt() -> None:
    """A threshold with only max_drop: an earlier attempt that fell further below the baseline
    than allowed (as a point) failed, so a later pass is no plain pass."""
    drop = ThresholdRecord(
        op=Op.GE, max_drop=0.05, approval=Approval.APPROVED, approved_by="@a",
        approved_on=dt.date(2026, 1, 1),
    )  # fmt: skip
    baseline = BaselineRecord(value=0.9, dataset_version="1")
    for earlier, result in ((0.8, Result.FAIL), (0.88, Result.PASS)):
        m = measured(0.9, (earlier,))
        gate = decide(
            GateInput(
                measurement=m,
                validity=assess(m, METRIC),
                authority=CAN_GATE,
                threshold=drop,
                metric=METRIC,
                baseline=baseline,
                max_attempts=1,
            )
        )
        assert gate.result is result, earlier


def card_of(policy: SuccessPolicy | None, earlier: tuple[float | None, ...]):
    records = HostRecords(
        metrics={"qa/x": METRIC, "qa/y": METRIC},
        thresholds={"qa/x": BAR, "qa/y": BAR},
        datasets=DATASETS,
        policies=POLICIES,
        success=policy,
    )
    measurements = {
        "qa/x": measured(0.9, earlier),
        "qa/y": Measurement(id="qa/y", run=RUN, value=0.9, n=100),
    }
    evidence = Evidence(measurements=measurements, sources=("run-3.json",))
    return assemble(records, evidence, evaluated_at=WHEN)


def test_without_success_yaml_one_retry_warns_and_a_second_fails() -> None:
    """The default is a host check's retry rule: passing on attempt 2 is a warning (exit 0),
    passing on attempt 3 fails the gate and the run (exit 1); `max_attempts: 3` lets attempt 3
    warn, `max_attempts: 1` fails attempt 2."""
    cases = [
        (None, (MISSED,), Verdict.PASS, 0),
        (None, (MISSED, MISSED), Verdict.FAIL, 1),
        (SuccessPolicy(max_attempts=3), (MISSED, MISSED), Verdict.PASS, 0),
        (SuccessPolicy(max_attempts=1), (MISSED,), Verdict.FAIL, 1),
        (SuccessPolicy(max_attempts=1), (CLEARED, CLEARED), Verdict.PASS, 0),
    ]
    for policy, earlier, verdict, code in cases:
        card = card_of(policy, earlier)
        assert (card.verdict, card.exit_code) == (verdict, code), (policy, earlier)


FORMATS = [Format.TERMINAL, Format.MARKDOWN, Format.GITHUB, Format.JUNIT, Format.HTML]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_verdict_line_says_which_gate_passed_only_on_a_later_attempt(fmt: Format) -> None:
    """Terminal, Markdown, GitHub, JUnit and HTML: the headline itself names the gate and its
    attempts, a warning within the bound and the failure past it, never only the gate's row."""
    warned = render(card_of(SuccessPolicy(max_attempts=3), (MISSED, MISSED)), fmt)
    assert (
        "PASS — 2 gates enforced, all passed (1 with a warning); 0 informational; success "
        "policy: success.yaml; qa/x passed on attempt 3; 2 earlier attempts failed"
    ) in warned
    failed = render(card_of(None, (MISSED, MISSED)), fmt)
    field = "max\\_attempts" if fmt is Format.MARKDOWN else "max_attempts"  # Markdown-escaped
    assert (
        "FAIL — 1 of 2 enforced gates failed; 0 blocked; 0 informational; qa/x passed on "
        f"attempt 3; 2 earlier attempts failed; at most 2 attempts allowed ({field})"
    ) in failed


def test_the_json_policy_carries_max_attempts() -> None:
    """A reader re-checks a too_many_attempts fail from the JSON: the bound is in `policy`."""
    doc = json.loads(render(card_of(None, (MISSED, MISSED)), Format.JSON))
    assert doc["policy"]["max_attempts"] == 2
    (x,) = [m for m in doc["metrics"] if m["id"] == "qa/x"]
    assert [r["code"] for r in x["gate"]["reasons"]] == ["too_many_attempts"]
    assert doc["exit_code"] == 1


def test_the_policy_line_states_a_bound_other_than_the_default() -> None:
    """`every attempt must pass` for 1, the latest attempt for another bound; the default (2)
    adds nothing to the policy line, as without success.yaml."""
    lines = {
        bound: render(card_of(SuccessPolicy(max_attempts=bound), ()), Format.TERMINAL)
        for bound in (1, 2, 3)
    }
    policy = "success policy (success.yaml): every gate must pass"
    assert f"{policy}, every attempt must pass\n" in lines[1]
    assert f"{policy}\n" in lines[2]
    assert f"{policy}, a pass by attempt 3 at the latest\n" in lines[3]


def test_a_must_pass_gate_failed_by_its_attempts_says_why() -> None:
    """The must_pass line of a gate that held its bar but took too many attempts gives the
    attempts, not only the numbers that held."""
    card = card_of(SuccessPolicy(must_pass=("qa/x",)), (MISSED, MISSED))
    assert words.unmet_messages(card) == [
        (
            "must-pass gate 'qa/x' failed its gate (value 0.9 >= 0.8 (n 100, point rule); passed on "
            "attempt 3; 2 earlier attempts failed; at most 2 attempts allowed (max_attempts))"
        )
    ]


def test_the_verdict_line_names_five_retried_gates_and_counts_the_rest() -> None:
    """Six gates each passed on attempt 2: five named (failures first, then by id), one
    counted, so the first line stays a line."""
    ids = [f"qa/{c}" for c in "abcdef"]
    records = HostRecords(
        metrics=dict.fromkeys(ids, METRIC),
        thresholds=dict.fromkeys(ids, BAR),
        datasets=DATASETS,
        policies=POLICIES,
    )
    measurements = {i: attrs.evolve(measured(0.9, (MISSED,)), id=i) for i in ids}
    card = assemble(records, Evidence(measurements=measurements), evaluated_at=WHEN)
    line = render(card, Format.TERMINAL).splitlines()[0]
    said = "passed on attempt 2; 1 earlier attempt failed"
    assert line.endswith(
        "".join(f"; {i} {said}" for i in ids[:5])
        + "; 1 more gate passed only after failed attempts"
    )


def test_an_earlier_attempt_is_judged_by_the_gates_own_bound() -> None:
    """Attempt A, 0.86 with stderr 0.03 over 200, fails `>= 0.85` alone (lower bound 0.801);
    a rerun B at 0.93 that passes is then a retry: a fail under `max_attempts: 1`, and
    `passed_on_retry` (warn) under the default, never a plain pass because A's value as a
    point cleared the bar."""
    metric = attrs.evolve(METRIC, decision=Decision.BOUND)
    bar = threshold(Op.GE, 0.85)
    first = stats.normal(0.86, 0.03)
    alone = Measurement(id="qa/x", run=RUN, value=0.86, n=200, interval=first)
    assert (
        decide(
            GateInput(
                measurement=alone,
                validity=assess(alone, metric),
                authority=CAN_GATE,
                threshold=bar,
                metric=metric,
            )
        ).result
        is Result.FAIL
    )
    assert round(first.low, 3) == 0.801
    earlier = EarlierAttempt(
        source="run-a.json", started="2026-11-30T10:00:00+00:00", value=0.86, n=200,
        interval=first,
    )  # fmt: skip
    rerun = Measurement(
        id="qa/x", run=RUN, value=0.93, n=200, interval=stats.normal(0.93, 0.015),
        earlier=(earlier,),
    )  # fmt: skip
    strict = decide(
        GateInput(
            measurement=rerun,
            validity=assess(rerun, metric),
            authority=CAN_GATE,
            threshold=bar,
            metric=metric,
            max_attempts=1,
        )
    )
    assert strict.result is Result.FAIL
    assert [r.code for r in strict.reasons] == [GateCode.TOO_MANY_ATTEMPTS]
    default = decide(
        GateInput(
            measurement=rerun,
            validity=assess(rerun, metric),
            authority=CAN_GATE,
            threshold=bar,
            metric=metric,
            max_attempts=2,
        )
    )
    assert default.result is Result.WARN
    assert [r.code for r in default.reasons] == [GateCode.PASSED_ON_RETRY]


def test_an_earlier_attempt_that_clears_the_bound_is_no_retry() -> None:
    """An earlier attempt whose own bound clears the bar passed: the newest is a plain pass."""
    metric = attrs.evolve(METRIC, decision=Decision.BOUND)
    bar = threshold(Op.GE, 0.85)
    earlier = EarlierAttempt(
        source="run-a.json", started="2026-11-30T10:00:00+00:00", value=0.92, n=200,
        interval=stats.normal(0.92, 0.02),
    )  # fmt: skip
    rerun = Measurement(
        id="qa/x", run=RUN, value=0.93, n=200, interval=stats.normal(0.93, 0.015),
        earlier=(earlier,),
    )  # fmt: skip
    gate = decide(
        GateInput(
            measurement=rerun,
            validity=assess(rerun, metric),
            authority=CAN_GATE,
            threshold=bar,
            metric=metric,
            max_attempts=1,
        )
    )
    assert gate.result is Result.PASS
