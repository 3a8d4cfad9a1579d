"""Only can_gate metrics are compared, by the conservative end of the interval unless the record
says point; the gate carries the numbers its evidence line shows."""

from __future__ import annotations

import datetime as dt
import math

import attrs
import pytest

from evalglass.core.authority import Authority, Outcome
from evalglass.core.decision import GateInput, GateResult, Result, decide
from evalglass.core.scorecard import MetricCard
from evalglass.core.validity import assess
from evalglass.evidence.model import Interval, Measurement, Method, Run
from evalglass.reasons import ValidityCode as V
from evalglass.records.model import (
    Approval,
    Decision,
    MetricRecord,
    MetricStatus,
    Op,
    ThresholdRecord,
)
from evalglass.render.evidence_line import evidence_line

CAN_GATE = Authority(Outcome.CAN_GATE)
RUN = Run(source="run.json", models=["acme/x"])


def threshold(op: Op, value: float) -> ThresholdRecord:
    return ThresholdRecord(
        op=op,
        value=value,
        approval=Approval.APPROVED,
        approved_by="@a",
        approved_on=dt.date(2026, 1, 1),
    )


def metric(decision: Decision = Decision.BOUND, min_samples: int = 10) -> MetricRecord:
    return MetricRecord(
        status=MetricStatus.GATING, dataset="d", decision=decision, min_samples=min_samples
    )


def measured(value: float, low: float, high: float, n: int = 100) -> Measurement:
    return Measurement(
        id="m", run=RUN, value=value, n=n, interval=Interval(low, high, 0.95, Method.WILSON)
    )


def gate(m: Measurement, t: ThresholdRecord, rec: MetricRecord | None = None):
    rec = rec or metric()
    return decide(
        GateInput(
            measurement=m, validity=assess(m, rec), authority=CAN_GATE, threshold=t, metric=rec
        )
    )


def line(m: Measurement, t: ThresholdRecord, result: GateResult) -> str:
    """The evidence line every format shows for this gate."""
    card = MetricCard(
        id="m", measurement=m, validity=assess(m, metric()), authority=CAN_GATE, threshold=t,
        gate=result,
    )  # fmt: skip
    return evidence_line(card)


# (op, limit, value, low, high, bound result, point result)
CASES = [
    (Op.GE, 0.8, 0.85, 0.81, 0.89, Result.PASS, Result.PASS),
    (Op.GE, 0.8, 0.85, 0.79, 0.89, Result.FAIL, Result.PASS),
    (Op.GE, 0.8, 0.78, 0.70, 0.85, Result.FAIL, Result.FAIL),
    (Op.GE, 0.8, 0.85, 0.80, 0.89, Result.PASS, Result.PASS),
    (Op.GT, 0.8, 0.85, 0.80, 0.89, Result.FAIL, Result.PASS),
    (Op.LE, 0.1, 0.05, 0.02, 0.09, Result.PASS, Result.PASS),
    (Op.LE, 0.1, 0.05, 0.02, 0.11, Result.FAIL, Result.PASS),
    (Op.LE, 0.1, 0.05, 0.02, 0.10, Result.PASS, Result.PASS),
    (Op.LT, 0.1, 0.05, 0.02, 0.10, Result.FAIL, Result.PASS),
    (Op.LT, 0.1, 0.12, 0.11, 0.13, Result.FAIL, Result.FAIL),
]


@pytest.mark.parametrize(("op", "limit", "value", "low", "high", "bound", "point"), CASES)
def test_bound_and_point_rules(op, limit, value, low, high, bound, point) -> None:
    """Bound rule compares the lower end for >=/> and the upper for <=/<; point compares the value."""
    m = measured(value, low, high)
    assert gate(m, threshold(op, limit)).result is bound
    assert gate(m, threshold(op, limit), metric(Decision.POINT)).result is point


def test_evidence_names_bound_value_n_and_method() -> None:
    """A pass reads like `lower bound 0.871 >= 0.85 (value 0.893, n 412, 95% Wilson)`."""
    m = measured(0.893, 0.871, 0.92, n=412)
    t = threshold(Op.GE, 0.85)
    assert line(m, t, gate(m, t)) == ("lower bound 0.871 >= 0.85 (value 0.893, n 412, 95% Wilson)")


def test_evidence_of_a_failure_says_is_not() -> None:
    """A failed upper-bound gate says which bound, which rule, and that it does not hold."""
    m = measured(0.05, 0.02, 0.11)
    t = threshold(Op.LE, 0.1)
    assert line(m, t, gate(m, t)) == (
        "upper bound 0.11 is not <= 0.1 (value 0.05, n 100, 95% Wilson)"
    )


def test_evidence_never_rounds_a_failing_bound_onto_the_threshold() -> None:
    """A bound of 0.849999 beside 0.85 prints enough digits to show why it failed."""
    m = measured(0.9, 0.849999, 0.95)
    t = threshold(Op.GE, 0.85)
    result = gate(m, t)
    assert result.result is Result.FAIL
    assert line(m, t, result).startswith("lower bound 0.849999 is not >= 0.85 ")


@pytest.mark.parametrize(
    ("change", "codes"),
    [
        ({"value": None}, [V.VALUE_MISSING]),
        ({"value": math.nan}, [V.VALUE_NOT_FINITE]),
        ({"value": math.inf}, [V.VALUE_NOT_FINITE]),
        ({"n": None}, [V.TOO_FEW_SAMPLES]),
        ({"n": 9}, [V.TOO_FEW_SAMPLES]),
        ({"interval": None}, [V.INTERVAL_UNAVAILABLE]),
        ({"n": None, "interval": None}, [V.TOO_FEW_SAMPLES, V.INTERVAL_UNAVAILABLE]),
        ({"missing": 1}, [V.TOO_MANY_MISSING]),
    ],
)
def test_unsound_measurements_are_never_compared(change, codes) -> None:
    """Each unsoundness is a gate result of its own, with its codes, never a pass or a fail."""
    m = attrs.evolve(measured(0.95, 0.9, 0.99), **change)
    result = gate(m, threshold(Op.GE, 0.5))
    assert result.result is Result.UNSOUND
    assert [r.code for r in result.reasons] == codes


def test_point_rule_needs_no_interval() -> None:
    """A point gate on a value with n but no interval is compared, not unsound."""
    m = attrs.evolve(measured(0.95, 0.9, 0.99), interval=None)
    assert gate(m, threshold(Op.GE, 0.5), metric(Decision.POINT)).result is Result.PASS


def test_missing_fraction_within_the_allowance_is_sound() -> None:
    """Errored samples up to max_missing_fraction leave the number sound."""
    rec = attrs.evolve(metric(), max_missing_fraction=0.05)
    m = attrs.evolve(measured(0.95, 0.9, 0.99, n=95), missing=5)
    assert gate(m, threshold(Op.GE, 0.5), rec).result is Result.PASS
    m = attrs.evolve(m, missing=6)
    assert gate(m, threshold(Op.GE, 0.5), rec).result is Result.UNSOUND


@pytest.mark.parametrize("outcome", [Outcome.INFORMATIONAL, Outcome.BLOCKED])
def test_metrics_that_cannot_gate_are_not_enforced(outcome: Outcome) -> None:
    """However bad the number, a metric that is not can_gate is never compared."""
    m = measured(0.1, 0.0, 0.2)
    rec = metric()
    result = decide(
        GateInput(
            measurement=m,
            validity=assess(m, rec),
            authority=Authority(outcome),
            threshold=threshold(Op.GE, 0.9),
            metric=rec,
        )
    )
    assert result.result is Result.NOT_ENFORCED
    assert line(m, threshold(Op.GE, 0.9), result) == (
        "value 0.1, n 100, 95% Wilson [0, 0.2]; not enforced"
    )


def test_a_bound_within_rounding_of_the_bar_does_not_clear_it() -> None:
    """A conservative end a rounding error past the bar (which floating point cannot place on
    either side) fails, in both directions; an end exactly at the bar is compared as it is."""
    assert gate(measured(0.0, 2.7755575615628914e-17, 0.28), threshold(Op.GT, 0)).result is (
        Result.FAIL
    )
    assert gate(measured(1.0, 0.8, 0.9999999999999999), threshold(Op.LT, 1)).result is (Result.FAIL)
    assert gate(measured(0.9, 0.85, 0.95), threshold(Op.GE, 0.85)).result is Result.PASS
    assert gate(measured(0.9, 0.85 + 1e-9, 0.95), threshold(Op.GT, 0.85)).result is Result.PASS
