"""Doctor's findings about the metrics configured to gate: ones nothing measures, that block (for
reasons no other finding names), that cannot tell much (a point rule, too few samples for even a
perfect score to clear), and informational ones that would block once promoted. Pure, like
`diagnosis.py`, which gathers them with the rest.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping

from evalglass.core.authority import Outcome, resolve
from evalglass.core.conditions import BY_CODE
from evalglass.core.perfect import (
    PerfectBound,
    least_perfect_n,
    perfect_bound,
    perfect_interval,
)
from evalglass.core.scale import in_scale
from evalglass.core.scorecard import at_level
from evalglass.evidence import stats
from evalglass.evidence.labels import interval_label
from evalglass.evidence.model import Measurement
from evalglass.metric_ids import check_name
from evalglass.numbers import fmt
from evalglass.reasons import AuthorityCode as C
from evalglass.reasons import Reason
from evalglass.records.model import (
    Calibration,
    Decision,
    HostRecords,
    MetricRecord,
    MetricStatus,
    Op,
)
from evalglass.tools.findings import Finding, Problem
from evalglass.tools.findings import at as _at


def gate_findings(
    records: HostRecords, measured: Mapping[str, Measurement] | None, evaluated_on: dt.date
) -> Iterator[Finding]:
    """Problems of the metrics configured to gate (status gating)."""
    unpolicied: dict[str, list[str]] = {}
    for metric_id, metric in records.metrics.items():
        if metric.status is not MetricStatus.GATING:
            continue
        measurement = None if measured is None else measured.get(metric_id)
        authority = resolve(metric_id, records, measurement, evaluated_on=evaluated_on)
        if check_name(metric_id) is not None:
            # No output measures a check, and its definition is its bar: blocked is all to say.
            if authority.outcome is Outcome.BLOCKED:
                yield from _blocked(metric_id, metric, authority.reasons, records)
            continue
        if measured is not None and measurement is None:
            effect = (
                "once it can gate, it blocks"
                if authority.outcome is Outcome.INFORMATIONAL
                else "it blocks this run"
            )
            yield _at(
                metric.origin,
                Problem.UNMEASURED_GATE,
                metric_id,
                f"metric '{metric_id}' is configured to gate and no output given measures "
                f"it: {effect} (value_missing)",
            )
        if metric.dataset is not None and metric.dataset not in records.policies:
            unpolicied.setdefault(metric.dataset, []).append(metric_id)
        judge = records.judges.get(metric.judge) if metric.judge is not None else None
        if judge is not None and judge.calibration in (
            Calibration.UNCALIBRATED,
            Calibration.CALIBRATING,
        ):
            yield _at(
                metric.origin,
                Problem.UNCALIBRATED_JUDGE,
                metric_id,
                f"metric '{metric_id}' is configured to gate on judge '{metric.judge}', "
                f"which is {judge.calibration.value}: it stays informational until the "
                "judge is calibrated",
            )
        if authority.outcome is Outcome.BLOCKED:
            reasons = (
                authority.reasons if measurement is not None else _of_records(authority.reasons)
            )
            yield from _blocked(metric_id, metric, reasons, records)
        yield from _assurance(metric_id, metric, records, measurement)
    for dataset_id, users in unpolicied.items():
        dataset = records.datasets.get(dataset_id)
        origin = dataset.origin if dataset is not None else records.metrics[users[0]].origin
        names = ", ".join(f"'{u}'" for u in users)
        who = (
            f"metric {names} uses it: it blocks"
            if len(users) == 1
            else (f"metrics {names} use it: they block")
        )
        yield _at(
            origin,
            Problem.NO_POLICY,
            dataset_id,
            f"dataset '{dataset_id}' has no policy in policies.yaml, and gating {who} "
            "(policy_not_permitted) until data governance sets one",
        )


def _of_records(reasons: tuple[Reason, ...]) -> tuple[Reason, ...]:
    """The reasons that are the records' doing. Without a run, a condition about the run (a
    judged metric "cannot be shown independent") is for the run to show, not a problem in the
    records."""
    return tuple(r for r in reasons if not (r.code in BY_CODE and BY_CODE[r.code].about_run))


def _blocked(
    metric_id: str, metric: MetricRecord, reasons: tuple[Reason, ...], records: HostRecords
) -> Iterator[Finding]:
    """An authorized metric that blocks, for reasons no other finding already names."""
    named = {C.DANGLING_REFERENCE, C.JUDGE_EVIDENCE_INSUFFICIENT}  # the judge's own finding
    if metric.dataset not in records.policies:
        named.add(C.POLICY_NOT_PERMITTED)
    rest = [r for r in reasons if r.code not in named]
    if rest:
        why = "; ".join(f"{r.code.value}: {r.message}" for r in rest)
        yield _at(
            metric.origin,
            Problem.BLOCKED_GATE,
            metric_id,
            f"metric '{metric_id}' is authorized to gate and blocked: {why}",
        )


def _assurance(
    metric_id: str, metric: MetricRecord, records: HostRecords, measurement: Measurement | None
) -> Iterator[Finding]:
    """Gates that cannot tell much: a point rule, too few samples for a perfect score's bound to
    clear, or a measured n at which even a perfect score fails. A perfect score is bounded by the
    gate's own method (the measured interval's, else the records' scale's)."""
    if metric.decision is Decision.POINT:
        yield _at(
            metric.origin,
            Problem.POINT_DECISION,
            metric_id,
            f"metric '{metric_id}' gates with decision: point, a low-assurance rule: it "
            "compares the value itself, so sampling noise alone can pass or fail it",
        )
        return
    threshold = records.thresholds.get(metric_id)
    bar = None if threshold is None else threshold.value
    if threshold is None or bar is None or not 0 <= bar <= 1:
        return  # only a bar inside [0, 1] can be a proportion's
    level = metric.interval_level
    interval = None
    if measurement is not None:
        kept = in_scale(at_level(measurement, level), metric.scale, level)
        interval = kept.interval
        if interval is None:
            return  # no method to bound a perfect score by: validity says the rest
    kind = perfect_bound(interval, metric.scale)
    if kind is None:
        return
    op = threshold.op
    needed = least_perfect_n(kind, op, bar, level)
    # Named as the bound that decides at that n: a small n's proportion is bounded exactly.
    at_needed = None
    if needed is not None and kind is PerfectBound.WILSON:
        at_needed = perfect_interval(kind, op, needed, level)
    label = f"{level * 100:g}% {kind.value}" if at_needed is None else interval_label(at_needed)
    rule = f"even a perfect score's {label} {'lower' if op.higher_is_better else 'upper'} bound"
    what = "a proportion" if kind is PerfectBound.WILSON else "a score"
    if needed is None:
        yield _at(
            metric.origin,
            Problem.MIN_SAMPLES_TOO_LOW,
            metric_id,
            f"metric '{metric_id}': no n is enough: {rule} never clears "
            f"{op.value} {bar:g}, so {what} can only fail this gate",
        )
        return
    if metric.min_samples < needed:
        yield _at(
            metric.origin,
            Problem.MIN_SAMPLES_TOO_LOW,
            metric_id,
            f"metric '{metric_id}': min_samples {metric.min_samples} is below {needed}, "
            f"the smallest n at which {rule} clears {op.value} {bar:g}: {what} "
            "measured on fewer samples can only fail",
        )
    n = None if measurement is None else measurement.n
    if n is not None and metric.min_samples <= n < needed:
        perfect = perfect_interval(kind, op, n, level)
        assert perfect is not None  # n >= needed's floor of 2 for Hoeffding, or Wilson
        end = perfect.low if op.higher_is_better else perfect.high
        yield _at(
            metric.origin,
            Problem.CANNOT_PASS_AT_N,
            metric_id,
            f"metric '{metric_id}' cannot pass at n {n}, the n it is measured with: {rule} "
            f"is {fmt(end, bar)}, not {op.value} {bar:g}; a perfect score passes from n {needed}",
        )


def min_n_to_clear(op: Op, bar: float, level: float = stats.DEFAULT_LEVEL) -> int | None:
    """The smallest n at which a perfect proportion (all ones for `>=`/`>`, all zeros for
    `<=`/`<`) has a Wilson bound that clears `bar`; None when no n does."""
    return least_perfect_n(PerfectBound.WILSON, op, bar, level)


def would_block(
    records: HostRecords, measured: Mapping[str, Measurement] | None, evaluated_on: dt.date
) -> Iterator[Finding]:
    """Informational metrics, and what stage 2 would raise once each is promoted."""
    for metric_id, metric in records.metrics.items():
        if metric.status is MetricStatus.RETIRED:
            continue
        measurement = None if measured is None else measured.get(metric_id)
        notes = resolve(metric_id, records, measurement, evaluated_on=evaluated_on).notes
        if measurement is None:
            notes = _of_records(notes)
        if notes:
            why = "; ".join(f"{n.code.value}: {n.message}" for n in notes)
            yield _at(
                metric.origin,
                Problem.WOULD_BLOCK,
                metric_id,
                f"metric '{metric_id}' is informational and would block once promoted: {why}",
            )
