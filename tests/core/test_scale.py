"""A metric's declared scale keeps its interval inside the values its scores can take."""

from __future__ import annotations

import datetime as dt

from evalglass.core.authority import Authority, Outcome
from evalglass.core.decision import GateInput, Result, decide
from evalglass.core.scale import in_scale
from evalglass.core.validity import assess
from evalglass.evidence import stats
from evalglass.evidence.model import Measurement, Method, Run
from evalglass.records.model import (
    Approval,
    MetricRecord,
    MetricStatus,
    Op,
    Scale,
    ThresholdRecord,
)

RUN = Run(source="run.json")


def measured(value: float, n: int, stderr: float | None) -> Measurement:
    interval = None if stderr is None else stats.normal(value, stderr)
    return Measurement(id="m", run=RUN, value=value, n=n, interval=interval)


def test_a_proportion_gets_a_proportions_interval_from_value_and_n() -> None:
    """A rate reported with a stderr whose normal interval starts below 0 gets a proportion's
    interval of value·n of n instead: the example's 0.012 of 150 (stderr 0.009), under two
    successes, where Wilson is too generous and the bound is exact (Clopper-Pearson)."""
    got = in_scale(measured(0.012, 150, 0.009), Scale.PROPORTION, 0.95).interval
    want = stats.proportion(0.012 * 150, 150)
    assert got is not None and got.method is Method.CLOPPER_PEARSON
    assert (got.low, got.high) == (want.low, want.high)
    assert 0 < got.low < 0.012 < got.high < 1


def test_a_proportion_with_value_and_n_alone_can_gate() -> None:
    """Without a stderr a value has no interval, and a bound gate is unsound; declared a
    proportion, its value and n are enough."""
    rec = MetricRecord(status=MetricStatus.GATING, dataset="d", scale=Scale.PROPORTION)
    bar = ThresholdRecord(op=Op.GE, value=0.8, approval=Approval.APPROVED, approved_by="@a",
                          approved_on=dt.date(2026, 1, 1))  # fmt: skip
    bare = measured(0.93, 200, None)
    assert decide(
        GateInput(
            measurement=bare,
            validity=assess(bare, rec),
            authority=Authority(Outcome.CAN_GATE),
            threshold=bar,
            metric=rec,
        )
    ).result is (Result.UNSOUND)
    kept = in_scale(bare, rec.scale, 0.95)
    assert decide(
        GateInput(
            measurement=kept,
            validity=assess(kept, rec),
            authority=Authority(Outcome.CAN_GATE),
            threshold=bar,
            metric=rec,
        )
    ).result is (Result.PASS)


def test_a_unit_scale_clips_and_says_so() -> None:
    """Scores in [0, 1]: an interval past 1 is cut back to it, and its label says it was; one
    inside is left as it is."""
    from evalglass.evidence.labels import interval_label

    clipped = in_scale(measured(0.97, 50, 0.03), Scale.UNIT, 0.95).interval
    assert clipped is not None and clipped.high == 1.0 and clipped.low < 0.97
    assert interval_label(clipped) == "95% normal, clipped to [0, 1]"
    inside = measured(0.5, 50, 0.03)
    assert in_scale(inside, Scale.UNIT, 0.95).interval == inside.interval
