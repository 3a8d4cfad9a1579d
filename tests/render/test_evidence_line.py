"""The evidence line, rendered from what the gate carries: one case per ground a gate result can
rest on (the whole `Ground` vocabulary), each against the words every format shows."""

from __future__ import annotations

import datetime as dt
import enum

import attrs
import pytest

from evalglass.core.authority import Authority, Outcome
from evalglass.core.decision import (
    CheckInput,
    Compared,
    GateInput,
    GateResult,
    Ground,
    Result,
    decide,
    decide_check,
    left_out,
)
from evalglass.core.scope import CheckScope
from evalglass.core.scorecard import MetricCard
from evalglass.core.validity import assess
from evalglass.evidence.model import (
    Attempt,
    AttemptOutcome,
    Interval,
    Measurement,
    Method,
    Run,
)
from evalglass.records.model import (
    Approval,
    BaselineRecord,
    CheckRecord,
    Decision,
    MetricRecord,
    MetricStatus,
    Op,
    ThresholdRecord,
)
from evalglass.render.evidence_line import evidence_line
from evalglass.tools.checks.results import measurement as check_measurement

RUN = Run(source="run.json", models=["acme/x"])
RECORD = MetricRecord(status=MetricStatus.GATING, dataset="d", min_samples=10)
CAN_GATE = Authority(Outcome.CAN_GATE)
CHECK = CheckRecord(run="pytest", timeout=60)


def _threshold(**bar: object) -> ThresholdRecord:
    return ThresholdRecord(
        op=Op.GE, approval=Approval.APPROVED, approved_by="@a", approved_on=dt.date(2026, 1, 1),
        **bar,  # type: ignore[arg-type]
    )  # fmt: skip


def _measured(value: float | None = 0.9, n: int = 100, **more: object) -> Measurement:
    return Measurement(
        id="m", run=RUN, value=value, n=n, interval=Interval(0.85, 0.95, 0.95, Method.WILSON),
        **more,  # type: ignore[arg-type]
    )  # fmt: skip


def _line(
    m: Measurement | None,
    threshold: ThresholdRecord,
    *,
    authority: Authority = CAN_GATE,
    record: MetricRecord = RECORD,
    baseline: BaselineRecord | None = None,
    left_out_by: str = "",
) -> tuple[Ground, str]:
    validity = assess(m, record)
    gate = (
        left_out(left_out_by)
        if left_out_by and m is None
        else decide(
            GateInput(
                measurement=m, validity=validity, authority=authority, threshold=threshold,
                metric=record, baseline=baseline,
            )
        )
    )  # fmt: skip
    card = MetricCard(
        id="m", measurement=m, validity=validity, authority=authority, threshold=threshold,
        gate=gate,
    )  # fmt: skip
    return gate.ground, evidence_line(card)


def _attempts(*outcomes: AttemptOutcome) -> Measurement:
    attempts = tuple(
        Attempt(outcome=o, command="pytest", found=f"exit {i}") for i, o in enumerate(outcomes)
    )
    return check_measurement("c", CHECK, attempts)


P, F = AttemptOutcome.PASSED, AttemptOutcome.FAILED
BAR = _threshold(value=0.8)

CASES = [
    (
        "a bound-rule pass",
        lambda: _line(_measured(), BAR),
        Ground.COMPARED,
        "lower bound 0.85 >= 0.8 (value 0.9, n 100, 95% Wilson)",
    ),
    (
        "a point-rule fail",
        lambda: _line(
            _measured(0.79),
            _threshold(value=0.8),
            record=attrs.evolve(RECORD, decision=Decision.POINT),
        ),
        Ground.COMPARED,
        "value 0.79 is not >= 0.8 (n 100, point rule)",
    ),
    (
        "a warning",
        lambda: _line(_measured(), _threshold(value=0.8, warn_value=0.9)),
        Ground.COMPARED,
        (
            "lower bound 0.85 >= 0.8 (value 0.9, n 100, 95% Wilson); "
            "warning: lower bound 0.85 is not >= 0.9 (value 0.9, n 100, 95% Wilson)"
        ),
    ),
    (
        "a regression bar, point rule",
        lambda: _line(
            _measured(),
            _threshold(max_drop=0.05),
            record=attrs.evolve(RECORD, decision=Decision.POINT),
            baseline=BaselineRecord(value=0.92, n=100, dataset_version="1", stderr=0.01),
        ),
        Ground.COMPARED,
        (
            "change -0.02 > -0.05 (allowed drop 0.05; current − baseline -0.02 from baseline 0.92, "
            "unpaired, point rule)"
        ),
    ),
    (
        "not authorized: what was measured",
        lambda: _line(_measured(missing=3), BAR, authority=Authority(Outcome.INFORMATIONAL)),
        Ground.MEASURED,
        "value 0.9, n 100, 95% Wilson [0.85, 0.95], 3 missing; not enforced",
    ),
    (
        "not authorized, nothing measured",
        lambda: _line(None, BAR, authority=Authority(Outcome.BLOCKED)),
        Ground.MEASURED,
        "no value measured; not enforced",
    ),
    (
        "an unsound number",
        lambda: _line(_measured(n=9), BAR),
        Ground.CANNOT_COMPARE,
        "cannot compare with >= 0.8: value 0.9, n 9, 95% Wilson [0.85, 0.95]",
    ),
    (
        "a regression bar without an interval for the change",
        lambda: _line(
            _measured(),
            _threshold(max_drop=0.05),
            baseline=BaselineRecord(value=0.92, dataset_version="1", scorecard="x.json"),
        ),
        Ground.NO_CHANGE_INTERVAL,
        "cannot compare with max drop 0.05",
    ),
    (
        "an eval metric a fast-tier run leaves out",
        lambda: _line(None, BAR, left_out_by="the full run measures it"),
        Ground.NOT_RUN,
        "not run: the full run measures it; not enforced",
    ),
    (
        "a check not started",
        lambda: _check(None, CheckScope(CHECK, "a full-tier check")),
        Ground.NOT_RUN,
        "not run: a full-tier check; not enforced",
    ),
    (
        "a check checks.yaml does not define",
        lambda: _check(None, CheckScope(None)),
        Ground.NOT_RUN,
        "not run; not enforced",
    ),
    (
        "a check's retry",
        lambda: _check(_attempts(F, P), CheckScope(CHECK)),
        Ground.ATTEMPTS,
        "attempt 1: failed: exit 0; attempt 2: passed: exit 1",
    ),
    (
        "a check that may not gate",
        lambda: _check(_attempts(P), CheckScope(CHECK), Authority(Outcome.INFORMATIONAL)),
        Ground.ATTEMPTS,
        "passed: exit 0; not enforced",
    ),
    (
        "a started check with no result",
        lambda: _check(None, CheckScope(CHECK)),
        Ground.ATTEMPTS,
        "no result",
    ),
]


def _check(
    m: Measurement | None, scope: CheckScope, authority: Authority = CAN_GATE
) -> tuple[Ground, str]:
    record = MetricRecord(status=MetricStatus.GATING)
    validity = assess(m, record)
    gate = decide_check(
        CheckInput(measurement=m, validity=validity, authority=authority, scope=scope)
    )
    card = MetricCard(
        id="check/c", measurement=m, validity=validity, authority=authority, threshold=None,
        gate=gate,
    )  # fmt: skip
    return gate.ground, evidence_line(card)


@pytest.mark.parametrize(("case", "made", "ground", "line"), CASES, ids=[c[0] for c in CASES])
def test_each_ground_reads_as_every_format_shows_it(case, made, ground, line) -> None:
    """The gate rests on the ground named, and its line reads exactly so."""
    assert made() == (ground, line)


def test_the_cases_cover_every_ground() -> None:
    """No ground a gate can rest on is left without its words checked."""
    assert {ground for _, _, ground, _ in CASES} == set(Ground)


def test_a_gate_carries_no_sentence() -> None:
    """The core's gate result holds numbers and codes: no field of it, nor of a bar it
    compared, is display text (its reasons are codes, with their rows' own words)."""
    for kind in (GateResult, Compared):
        typed = {field.name: str(field.type) for field in attrs.fields(kind)}
        assert not [name for name, type_ in typed.items() if "str" in type_], kind
    gate = decide(
        GateInput(
            measurement=_measured(),
            validity=assess(_measured(), RECORD),
            authority=CAN_GATE,
            threshold=BAR,
            metric=RECORD,
        )
    )
    assert gate.result is Result.PASS
    values = attrs.asdict(gate, recurse=False).values()
    # A code is a string enum; a sentence would be a plain str.
    assert not any(isinstance(v, str) and not isinstance(v, enum.Enum) for v in values)
