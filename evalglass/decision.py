"""Compare a can_gate metric with its approved threshold. The only place a gate result is made.

Metrics that are not can_gate are never compared: their result is `not_enforced`, whatever the
number says.
"""

from __future__ import annotations

import enum

import attrs

from evalglass.authority import Authority, Outcome
from evalglass.evidence.model import Measurement
from evalglass.numbers import fmt, interval_label, interval_text
from evalglass.reasons import Reason
from evalglass.records.model import Decision, MetricRecord, ThresholdRecord
from evalglass.validity import Validity


class Result(enum.Enum):
    PASS = "pass"
    FAIL = "fail"
    UNSOUND = "unsound"
    NOT_ENFORCED = "not_enforced"


@attrs.frozen
class GateResult:
    result: Result
    reasons: tuple[Reason, ...] = ()
    evidence: str = ""


def decide(
    measurement: Measurement | None,
    validity: Validity,
    authority: Authority,
    threshold: ThresholdRecord | None,
    metric: MetricRecord | None,
) -> GateResult:
    """The gate result for one metric; compares only when authority is can_gate."""
    if authority.outcome is not Outcome.CAN_GATE or threshold is None or metric is None:
        return GateResult(Result.NOT_ENFORCED, evidence=f"{_measured(measurement)}; not enforced")
    rule = f"{threshold.op.value} {fmt(threshold.value)}"
    if not validity.valid:
        return GateResult(
            Result.UNSOUND,
            validity.reasons,
            f"cannot compare with {rule}: {_measured(measurement)}",
        )
    assert measurement is not None and measurement.value is not None  # valid implies both
    op, limit = threshold.op, threshold.value
    if metric.decision is Decision.POINT:
        compared, label = measurement.value, "value"
        context = f"n {measurement.n}, point rule"
    else:
        assert measurement.interval is not None  # a valid bound measurement has one
        lower = op.higher_is_better
        compared = measurement.interval.low if lower else measurement.interval.high
        label = "lower bound" if lower else "upper bound"
        context = (
            f"value {fmt(measurement.value)}, n {measurement.n}, "
            f"{interval_label(measurement.interval)}"
        )
    holds = op.holds(compared, limit)
    verb = op.value if holds else f"is not {op.value}"
    evidence = f"{label} {fmt(compared, limit)} {verb} {fmt(limit, compared)} ({context})"
    return GateResult(Result.PASS if holds else Result.FAIL, evidence=evidence)


def _measured(measurement: Measurement | None) -> str:
    if measurement is None or measurement.value is None:
        return "no value measured"
    parts = [f"value {fmt(measurement.value)}"]
    parts.append("n unknown" if measurement.n is None else f"n {measurement.n}")
    if measurement.interval is None:
        parts.append("no interval")
    else:
        interval = measurement.interval
        parts.append(f"{interval_label(interval)} {interval_text(interval)}")
    if measurement.missing:
        parts.append(f"{measurement.missing} missing")
    return ", ".join(parts)
