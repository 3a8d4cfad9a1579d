"""Scorecards that hold every kind of metric, for the renderer tests: built from records and
measurements, so each status is the one the resolver and the decision really give."""

from __future__ import annotations

import datetime as dt

from evalglass.core.scope import Scope
from evalglass.core.scorecard import Scorecard, assemble
from evalglass.evidence.model import (
    Attempt,
    AttemptOutcome,
    Evidence,
    Interval,
    Measurement,
    Method,
    Run,
)
from evalglass.records.model import (
    Approval,
    ApprovedFor,
    CheckRecord,
    DatasetRecord,
    DatasetStatus,
    HostRecords,
    MetricRecord,
    MetricStatus,
    Op,
    Policy,
    PolicyRecord,
    ThresholdRecord,
)
from evalglass.tiers import Tier
from evalglass.tools.checks.results import measurement as check_measurement

RUN = Run(source="run.json", models=["acme/model-x"])
# The evaluation time of every scorecard a test builds: fixed, so renderings compare byte for byte.
WHEN = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
GOOD = "qa-gold"  # validated, permitted
OLD = "qa-old"  # retired: blocks an authorized metric
UNPOLICED = "qa-new"  # validated, no data policy: a note on an informational metric

# id -> (record status or None, dataset, op, threshold, value, interval, n)
KINDS = {
    "pass": ("gating", GOOD, Op.GE, 0.8, 0.9, (0.87, 0.93), 500),
    "fail": ("gating", GOOD, Op.GE, 0.95, 0.9, (0.87, 0.93), 500),
    "blocked": ("gating", OLD, Op.GE, 0.8, 0.9, (0.87, 0.93), 500),
    "unsound": ("gating", GOOD, Op.LE, 0.1, 0.05, None, 20),
    "informational": (None, GOOD, None, None, 0.7, (0.6, 0.8), 100),
    "noted": ("calibrating", UNPOLICED, Op.GE, 0.5, 0.55, (0.5, 0.6), 300),
}


DATASETS = {
    GOOD: DatasetRecord(status=DatasetStatus.VALIDATED, version="1"),
    OLD: DatasetRecord(status=DatasetStatus.RETIRED, version="1"),
    UNPOLICED: DatasetRecord(status=DatasetStatus.VALIDATED, version="1"),
}
POLICIES = {
    GOOD: PolicyRecord(policy=Policy.PERMITTED),
    OLD: PolicyRecord(policy=Policy.PERMITTED),
}


def assembled(
    metrics: dict[str, MetricRecord],
    thresholds: dict[str, ThresholdRecord],
    measurements: dict[str, Measurement],
) -> Scorecard:
    """The scorecard of these metrics against the shared datasets and policies."""
    records = HostRecords(
        metrics=metrics, thresholds=thresholds, datasets=DATASETS, policies=POLICIES
    )
    return assemble(
        records, Evidence(measurements=measurements, sources=("run.json",)), evaluated_at=WHEN
    )


def threshold(op: Op, value: float) -> ThresholdRecord:
    # Every dataset above is at version "1", with no fingerprint and no judge.
    return ThresholdRecord(
        op=op,
        value=value,
        approval=Approval.APPROVED,
        approved_by="@alice",
        approved_on=dt.date(2026, 1, 1),
        approved_for=ApprovedFor(dataset_version="1"),
    )


def scorecard(ids: dict[str, str] | None = None) -> Scorecard:
    """One metric of each kind; `ids` renames a kind's metric (e.g. to something hostile)."""
    metrics, thresholds, measurements = {}, {}, {}
    for kind, (status, dataset, op, limit, value, bounds, n) in KINDS.items():
        metric_id = (ids or {}).get(kind, f"qa/{kind}")
        if status is not None:
            metrics[metric_id] = MetricRecord(status=MetricStatus(status), dataset=dataset)
        if op is not None and limit is not None:
            thresholds[metric_id] = threshold(op, limit)
        interval = None if bounds is None else Interval(*bounds, 0.95, Method.WILSON)
        measurements[metric_id] = Measurement(
            id=metric_id, run=RUN, value=value, n=n, interval=interval
        )
    return assembled(metrics, thresholds, measurements)


def single(metric_id: str, value: float | None, *, gated: bool = True) -> Scorecard:
    """One metric, gating (pass or fail by value against >= 0.8) or with no record at all."""
    interval = None if value is None else Interval(value - 0.02, value + 0.02, 0.95, Method.WILSON)
    m = Measurement(id=metric_id, run=RUN, value=value, n=500, interval=interval)
    metric = MetricRecord(status=MetricStatus.GATING, dataset=GOOD)
    return assembled(
        {metric_id: metric} if gated else {},
        {metric_id: threshold(Op.GE, 0.8)} if gated else {},
        {metric_id: m},
    )


UNIT = CheckRecord(run="pytest -q", timeout=60)


def checked(*attempts: Attempt) -> Scorecard:
    """A gating host check `check/unit` with these attempts, from a full-tier `evalglass run`;
    with none, the same check under `evalglass score`, which starts no process."""
    records = HostRecords(
        checks={"unit": UNIT}, metrics={"check/unit": MetricRecord(status=MetricStatus.GATING)}
    )
    if not attempts:
        return assemble(records, Evidence(), evaluated_at=WHEN)
    measured = check_measurement("unit", UNIT, attempts)
    return assemble(
        records,
        Evidence(measurements={measured.id: measured}),
        evaluated_at=WHEN,
        scope=Scope(Tier.FULL),
    )


def failed_attempt(seconds: float, stderr: str = "") -> Attempt:
    """A pytest run that exited 1 after `seconds`, having written `stderr`."""
    return Attempt(
        outcome=AttemptOutcome.FAILED, command="pytest -q", found=f"exit 1 (expected 0), "
        f"{seconds:.2f} s", exit_code=1, duration=seconds, stderr=stderr,
    )  # fmt: skip
