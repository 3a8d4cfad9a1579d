"""What it would take: every figure of gate.needed, checked against a brute-force search with the
gate's own decision (`decide`), on intervals made the way the readers make them."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from evalglass.core.authority import Authority, Outcome
from evalglass.core.decision import GateInput, Result, decide
from evalglass.core.needed import BaselineHeld, Missing
from evalglass.core.regression import change_family, difference
from evalglass.core.validity import assess
from evalglass.evidence import stats
from evalglass.evidence.model import Interval, Measurement, Run, Sample
from evalglass.records.model import (
    Approval,
    BaselineRecord,
    Decision,
    MetricRecord,
    MetricStatus,
    Op,
    ThresholdRecord,
)

CAN_GATE = Authority(Outcome.CAN_GATE)
RUN = Run(source="run.json", models=["acme/x"])
PASSED = (Result.PASS, Result.WARN)


def bar(op: Op, value: float | None, **regression: float) -> ThresholdRecord:
    return ThresholdRecord(
        op=op, value=value, approval=Approval.APPROVED, approved_by="@a",
        approved_on=dt.date(2026, 1, 1), **regression,
    )  # fmt: skip


def record(min_samples: int = 10, level: float = 0.95, **extra: object) -> MetricRecord:
    return MetricRecord(
        status=MetricStatus.GATING, dataset="d", min_samples=min_samples,
        interval_level=level, **extra,  # type: ignore[arg-type]
    )  # fmt: skip


def measured(value: float, n: int, interval: Interval | None, **extra: object) -> Measurement:
    return Measurement(id="m", run=RUN, value=value, n=n, interval=interval, **extra)  # type: ignore[arg-type]


def passes(m: Measurement, t: ThresholdRecord, rec: MetricRecord, base=None) -> bool:
    return (
        decide(
            GateInput(
                measurement=m,
                validity=assess(m, rec),
                authority=CAN_GATE,
                threshold=t,
                metric=rec,
                baseline=base,
            )
        ).result
        in PASSED
    )


def needed(m: Measurement, t: ThresholdRecord, rec: MetricRecord, base=None):
    got = decide(
        GateInput(
            measurement=m,
            validity=assess(m, rec),
            authority=CAN_GATE,
            threshold=t,
            metric=rec,
            baseline=base,
        )
    ).needed
    assert got is not None
    return got


WILSON_CASES = [
    # (op, bar, successes, n, level, min_samples)
    (Op.GE, 0.9, 184, 200, 0.95, 10),
    (Op.GT, 0.9, 184, 200, 0.95, 10),
    (Op.GE, 0.85, 186, 200, 0.95, 100),
    (Op.GE, 0.7, 30, 40, 0.99, 10),
    (Op.LE, 0.05, 6, 200, 0.95, 10),
    (Op.LT, 0.1, 3, 60, 0.9, 10),
    (Op.GE, 0.99, 200, 200, 0.95, 10),
    (Op.GE, 0.5, 10, 30, 0.95, 10),
]


@pytest.mark.parametrize(("op", "limit", "k", "n", "level", "min_samples"), WILSON_CASES)
def test_wilson_figures_are_the_brute_force_grid_answers(op, limit, k, n, level, min_samples):
    """value_at_n is the least k/n (greatest for <=, <) that the gate passes at this n, and
    n_at_value the least n at which the same share passes, both found by deciding every one."""
    rec = record(min_samples, level)
    t = bar(op, limit)
    got = needed(measured(k / n, n, stats.proportion(k, n, level)), t, rec)
    grid = [
        j for j in range(n + 1) if passes(measured(j / n, n, stats.proportion(j, n, level)), t, rec)
    ]
    if not grid:
        assert got.value_at_n is None
    else:
        assert got.value_at_n == (min(grid) if op.higher_is_better else max(grid)) / n
    share = k / n
    sizes = [
        m for m in range(1, 1500)
        if passes(measured(share, m, stats.proportion(share * m, m, level)), t, rec)
    ]  # fmt: skip
    assert got.n_at_value == (min(sizes) if sizes else None)


def test_the_issue_example_names_what_would_pass() -> None:
    """0.92 of 200 against >= 0.9 fails (lower bound 0.874); 189 of 200 would pass, or 865
    samples at 0.92."""
    got = needed(measured(0.92, 200, stats.proportion(184, 200)), bar(Op.GE, 0.9), record())
    assert (got.value_at_n, got.n_at_value) == (0.945, 865)
    assert got.missing == ()


def test_a_value_that_does_not_clear_the_bar_has_no_n() -> None:
    """At a value below the bar, no sample size passes, and the figure says so."""
    got = needed(measured(0.88, 200, stats.proportion(176, 200)), bar(Op.GE, 0.9), record())
    assert got.n_at_value is None
    assert got.missing == (Missing.NO_N,)
    assert got.value_at_n == 0.945


def edge(m_at, t, rec, value: float, higher: bool) -> None:
    """`value` passes and the next float toward the failing side does not."""
    assert passes(m_at(value), t, rec)
    worse = math.nextafter(value, -math.inf if higher else math.inf)
    assert not passes(m_at(worse), t, rec)


CONTINUOUS = [
    # (name, interval at (value, n) given the observed n, observed value, n, op, bar)
    (
        "student_t",
        lambda v, n: stats.student_t_from(v, 0.2, n, bounded=False),
        0.92,
        200,
        Op.GE,
        0.9,
    ),
    (
        # Scores in [0, 1] hold their sd relative to a 0/1 score's at the same mean.
        "effective_n",
        lambda v, n: stats.student_t_from(
            v, 0.2 * (v * (1 - v) / (0.92 * 0.08)) ** 0.5, n, bounded=True
        ),
        0.92,
        200,
        Op.GE,
        0.9,
    ),
    ("student_t_lower", lambda v, n: stats.student_t_from(v, 0.1, n), 0.3, 50, Op.LE, 0.33),
    ("normal", lambda v, n: stats.normal(v, 0.012 * math.sqrt(200 / n)), 0.03, 200, Op.LE, 0.05),
    ("normal_gt", lambda v, n: stats.normal(v, 0.3 * math.sqrt(80 / n)), 2.6, 80, Op.GT, 2.5),
    (
        "hoeffding",
        lambda v, n: stats.student_t_from(v, 0.0, n, bounded=True),
        0.95,
        300,
        Op.GE,
        0.9,
    ),
]


def clustered_at(v: float, n: int) -> Interval | None:
    """A cluster-robust interval at value v from n scores in clusters of 4 with a fixed shape
    (of unknown range: v is past 1)."""
    scores = [v + (d if j % 2 else -d) + (0.1 if j % 2 else -0.1)
              for j in range(n // 4) for d in (0.3, -0.1, 0.1, -0.3)]  # fmt: skip
    clusters = [i // 4 for i in range(len(scores))]
    return stats.clustered(scores, clusters)


@pytest.mark.parametrize(("name", "at", "value", "n", "op", "limit"), CONTINUOUS)
def test_continuous_figures_sit_on_the_decisions_edge(name, at, value, n, op, limit) -> None:
    """Student-t, normal and Hoeffding: value_at_n passes and the next float toward failing does
    not; n_at_value passes, every smaller n (down to min_samples) fails."""
    rec, t = record(), bar(op, limit)
    got = needed(measured(value, n, at(value, n)), t, rec)
    assert got.value_at_n is not None
    if name == "effective_n":
        # The oracle's sd at v is the ratio recomputed in another order: the edge holds to 1e-12.
        step = 1e-12 if op.higher_is_better else -1e-12
        assert passes(measured(got.value_at_n, n, at(got.value_at_n, n)), t, rec)
        worse = got.value_at_n - step
        assert not passes(measured(worse, n, at(worse, n)), t, rec)
    else:
        edge(lambda v: measured(v, n, at(v, n)), t, rec, got.value_at_n, op.higher_is_better)
    assert got.n_at_value is not None
    sizes = [m for m in range(rec.min_samples, got.n_at_value + 1)
             if passes(measured(value, m, at(value, m)), t, rec)]  # fmt: skip
    assert sizes[0] == got.n_at_value


def test_cluster_robust_figures_keep_the_cluster_shape() -> None:
    """The cluster-robust figures match a search over real clustered scores of the same shape:
    n in steps of two clusters of 4, so the least passing such n brackets the figure."""
    rec, t = record(), bar(Op.GE, 1.5)
    value, n = 1.6, 40
    got = needed(measured(value, n, clustered_at(value, n)), t, rec)
    assert got.value_at_n is not None
    # Scores remade at each value round their residuals afresh: the edge holds to 1e-9.
    at = got.value_at_n
    assert passes(measured(at + 1e-9, n, clustered_at(at + 1e-9, n)), t, rec)
    assert not passes(measured(at - 1e-9, n, clustered_at(at - 1e-9, n)), t, rec)
    # Whole pairs of clusters keep the shape (and the mean) exactly.
    whole = next(
        m for m in range(8, 4000, 8) if passes(measured(value, m, clustered_at(value, m)), t, rec)
    )
    assert got.n_at_value is not None and whole - 8 < got.n_at_value <= whole
    assert not passes(measured(value, whole - 8, clustered_at(value, whole - 8)), t, rec)


def test_the_point_rule_has_no_figures() -> None:
    """A gate that compares the value itself carries no needed figures."""
    rec = record(decision=Decision.POINT)
    m = measured(0.92, 200, stats.proportion(184, 200))
    assert (
        decide(
            GateInput(
                measurement=m,
                validity=assess(m, rec),
                authority=CAN_GATE,
                threshold=bar(Op.GE, 0.9),
                metric=rec,
            )
        ).needed
        is None
    )


def test_a_gate_that_is_not_compared_has_no_figures() -> None:
    """Informational and unsound gates have no figures: nothing was decided by a bound."""
    rec = record(min_samples=500)
    m = measured(0.92, 200, stats.proportion(184, 200))
    assert (
        decide(
            GateInput(
                measurement=m,
                validity=assess(m, rec),
                authority=CAN_GATE,
                threshold=bar(Op.GE, 0.9),
                metric=rec,
            )
        ).needed
        is None
    )
    info = Authority(Outcome.INFORMATIONAL)
    assert (
        decide(
            GateInput(
                measurement=m,
                validity=assess(m, record()),
                authority=info,
                threshold=bar(Op.GE, 0.9),
                metric=record(),
            )
        ).needed
        is None
    )


def test_n_at_value_never_goes_below_min_samples() -> None:
    """Below min_samples the number is unsound, so the least n that passes is at least it."""
    got = needed(measured(1.0, 300, stats.proportion(300, 300)), bar(Op.GE, 0.5), record(250))
    assert got.n_at_value == 250


# Regression gates


def base(value: float, n: int, **extra: object) -> BaselineRecord:
    return BaselineRecord(value=value, n=n, dataset_version="1", **extra)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("k", "n", "then", "n2", "drop"), [(180, 200, 0.85, 400, 0.02), (40, 50, 0.8, 100, 0.1)]
)
def test_newcombe_unpaired_figures_are_the_grid_answers(k, n, then, n2, drop) -> None:
    """Against a baseline given as value and n, value_at_n is the least k/n whose Newcombe
    change bound clears the allowed drop, and n_at_value the least n at this share."""
    rec, t, b = record(), bar(Op.GE, None, max_drop=drop), base(then, n2)
    got = needed(measured(k / n, n, stats.proportion(k, n)), t, rec, b)
    grid = [
        j for j in range(n + 1) if passes(measured(j / n, n, stats.proportion(j, n)), t, rec, b)
    ]
    assert got.value_at_n == (min(grid) / n if grid else None)
    share = k / n
    sizes = (m for m in range(rec.min_samples, 2000)
             if passes(measured(share, m, stats.proportion(share * m, m)), t, rec, b))  # fmt: skip
    assert got.n_at_value == next(sizes, None)


def test_a_baseline_too_uncertain_for_any_n_says_so() -> None:
    """A change that clears the allowance as a point, against a baseline whose own uncertainty
    no current n can shrink, has no n, and the figure says why."""
    got = needed(measured(0.84, 200, stats.proportion(168, 200)), bar(Op.GE, None, max_drop=0.03),
                 record(), base(0.86, 500))  # fmt: skip
    assert got.n_at_value is None
    assert Missing.NO_N_BASELINE in got.missing


def test_paired_t_value_is_the_shifted_scores_edge() -> None:
    """Paired t: value_at_n is where the current scores, all shifted alike (the differences'
    spread held), stop passing the allowed drop."""
    then = [0.2 + 0.6 * ((i * 37) % 100) / 100 for i in range(60)]
    now = [
        min(1.0, max(0.0, x - 0.02 + 0.1 * (((i * 13) % 7) - 3) / 3)) for i, x in enumerate(then)
    ]
    b = BaselineRecord(
        value=stats.mean(then), n=60, dataset_version="1",
        sample_scores={str(i): x for i, x in enumerate(then)},
    )  # fmt: skip
    rec, t = record(), bar(Op.GE, None, max_drop=0.03)

    def at(shift: float) -> Measurement:
        scores = [x + shift for x in now]
        samples = tuple(Sample(id=str(i), score=x) for i, x in enumerate(scores))
        return measured(stats.mean(scores), 60, stats.student_t(scores), samples=samples)

    got = needed(at(0.0), t, rec, b)
    assert got.value_at_n is not None
    shift = got.value_at_n - stats.mean(now)
    assert passes(at(shift + 1e-9), t, rec, b)
    assert not passes(at(shift - 1e-9), t, rec, b)


def test_the_change_family_at_the_observed_point_is_the_gates_interval() -> None:
    """Remade at the observed value and n, every regression branch gives the interval the gate
    compared (so the figures search the same function), and names what of the baseline it held."""
    now = [float((i * 7) % 3 == 0) for i in range(80)]
    then = [float((i * 5) % 3 == 0) for i in range(80)]
    samples = tuple(Sample(id=str(i), score=x) for i, x in enumerate(now))
    current = measured(stats.mean(now), 80, stats.interval_for_scores(now), samples=samples)
    paired = {str(i): x for i, x in enumerate(then)}
    halves = {str(i): x / 2 for i, x in enumerate(then)}
    cases = [
        (base(0.3, 90, sample_scores=paired), BaselineHeld.PAIRED_SHARE),
        (base(0.15, 90, sample_scores=halves), BaselineHeld.PAIRED_SD),
        (base(0.3, 90), BaselineHeld.UNPAIRED_SHARE),
        (base(0.3, 90, stderr=0.08), BaselineHeld.UNPAIRED_STDERR),
    ]
    for b, held in cases:
        change = difference(current, b, 0.95)
        assert change is not None and change.interval is not None

        def current_at(v: float, n: int) -> Interval | None:
            return stats.moved(current.interval, v, n, 80)  # type: ignore[arg-type]

        family = change_family(current, b, 0.95, current_at)
        assert family is not None
        assert family[1].held is held
        remade = family[0](current.value, 80)  # type: ignore[arg-type]
        assert remade is not None
        assert (remade.low, remade.high) == pytest.approx(
            (change.interval.low, change.interval.high), abs=1e-12
        )


def test_moved_at_the_observed_point_is_the_interval() -> None:
    """stats.moved at the observed value and n gives back the reader's interval, per method."""
    intervals = [
        (0.92, 200, stats.proportion(184, 200)),
        (0.5, 30, stats.student_t_from(0.5, 0.2, 30)),
        (0.03, 200, stats.normal(0.03, 0.012)),
        (0.6, 40, clustered_at(0.6, 40)),
    ]
    for value, n, interval in intervals:
        assert interval is not None
        again = stats.moved(interval, value, n, n)
        assert again is not None
        assert (again.low, again.high) == pytest.approx((interval.low, interval.high), abs=1e-12)
