"""Where a method's bound cannot be relied on, the gate says so (`interval_unreliable`): a
cluster-robust interval over fewer than 10 clusters, and Student-t on scores of unknown range
that reach more than twice as far toward the bound the gate compares as away from it
(docs/statistics.md, measured by bench/bench_coverage.py)."""

from __future__ import annotations

from evalglass.core.interval_checks import limit_reached
from evalglass.core.validity import assess
from evalglass.evidence import aggregate, stats
from evalglass.evidence.model import Measurement, Run
from evalglass.reasons import ValidityCode as V
from evalglass.records.model import (
    Approval,
    Decision,
    MetricRecord,
    MetricStatus,
    Op,
    ThresholdRecord,
)

_LATENCY = [0.2, 0.3, 0.3, 0.4, 0.5, 0.5, 0.6, 0.7, 0.8, 1.0, 1.2, 9.0]


def test_skew_is_read_on_the_side_the_gate_compares() -> None:
    """A long upper tail raises the reason for `<=` and `<`, never for `>=` and `>`; mirrored,
    a long lower tail the other way round."""
    upper = stats.interval_for_scores(_LATENCY)
    lower = stats.interval_for_scores([-s for s in _LATENCY])
    assert upper is not None and lower is not None
    assert [bool(limit_reached(upper, op)) for op in Op] == [not op.higher_is_better for op in Op]
    assert [bool(limit_reached(lower, op)) for op in Op] == [op.higher_is_better for op in Op]


def test_the_rows_reader_keeps_the_range_the_check_reads() -> None:
    """Summed rows (n, Σx, Σx², min, max) give the same answer as the samples themselves."""
    summed = aggregate.measure(
        "m", aggregate.MetricStats(moments=aggregate.moments_of(_LATENCY)), Run(source="s")
    ).interval
    assert summed is not None and limit_reached(summed, Op.LE)
    assert summed.basis == stats.interval_for_scores(_LATENCY).basis  # type: ignore[union-attr]


def test_scores_in_range_and_0_1_scores_never_raise_it() -> None:
    """Scores in [0, 1] have a range-aware interval, and 0/1 scores a proportion's: neither is
    Student-t, however skewed."""
    for scores in ([0.01] * 9 + [0.99], [0.0] * 9 + [1.0]):
        interval = stats.interval_for_scores(scores)
        assert interval is not None
        assert not any(limit_reached(interval, op) for op in Op)


def test_fewer_than_ten_clusters_raise_it_ten_do_not() -> None:
    """A cluster-robust interval over 9 clusters is past its measured limit; over 10 it is not."""
    for clusters, flagged in ((9, True), (10, False)):
        scores = [float(i % 5 < 5 - c % 3) for c in range(clusters) for i in range(5)]
        labels = [f"c{i // 5}" for i in range(5 * clusters)]
        interval = stats.clustered(scores, labels)
        assert interval is not None and interval.clusters == clusters
        assert bool(limit_reached(interval, Op.GE)) is flagged


def test_validity_holds_a_bound_rule_on_the_value_to_the_limits_and_nothing_else() -> None:
    """Given a threshold with a value, a bound rule's interval past its limits is unsound
    (`interval_unreliable`); a point rule, or a threshold of drops alone, compares no such
    bound and stays sound."""
    interval = stats.interval_for_scores(_LATENCY)
    m = Measurement(
        id="m", run=Run(source="s"), value=stats.mean(_LATENCY), n=12, interval=interval
    )
    bar = ThresholdRecord(op=Op.LE, value=5.0, approval=Approval.APPROVED)
    drops = ThresholdRecord(op=Op.LE, max_drop=0.5, approval=Approval.APPROVED)
    bound = MetricRecord(status=MetricStatus.GATING)
    point = MetricRecord(status=MetricStatus.GATING, decision=Decision.POINT)
    assert [r.code for r in assess(m, bound, bar).reasons] == [V.INTERVAL_UNRELIABLE]
    assert assess(m, point, bar).valid and assess(m, bound, drops).valid
    assert assess(m, bound).valid
