"""The host edits that would let one metric gate, in the order to make them, and what each asserts.

Pure: derived from the records and the run's identity, applied only to an in-memory copy. It never
writes and never grants: a person makes each edit in a reviewed change, and vouches for it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from evalglass.evidence.model import Measurement
from evalglass.metric_ids import check_name
from evalglass.reasons import AuthorityCode as C
from evalglass.reasons import Reason
from evalglass.records.model import HostRecords, MetricStatus, Policy
from evalglass.records.schema import KINDS, Role
from evalglass.tools.checklist_judges import judge
from evalglass.tools.checklist_plan import OPEN_END, Binding, EditPlan
from evalglass.tools.edits import ORDER, Checklist
from evalglass.tools.field_moves import approval_bound

_PERMITTED = (Policy.PERMITTED, Policy.REDACTED)


def checklist(
    metric_id: str,
    records: HostRecords,
    measurement: Measurement | None,
    *,
    evaluated_on: dt.date,
) -> Checklist:
    """Every edit that makes `resolve` say can_gate for this metric, for this run's identity, on
    the evaluation date."""
    plan = EditPlan(records)
    metric = records.metrics.get(metric_id)
    name = check_name(metric_id)
    if name is not None:
        return _check(plan, metric_id, name)
    seen = measurement.run.dataset if measurement is not None else None
    if metric is not None and metric.dataset is not None:
        dataset_id = metric.dataset
    elif seen is not None and seen.name:
        dataset_id = seen.name
    else:
        dataset_id = "<dataset>"
    version, fingerprint = plan.dataset(dataset_id, measurement)
    policy = records.policies.get(dataset_id)
    if policy is None or policy.policy not in _PERMITTED:
        plan.put(
            "policies",
            dataset_id,
            "policy",
            Policy.PERMITTED,
            "data governance allows results on this data to decide a release",
        )
    judged, judge_model = judge(plan, metric_id, measurement)
    outside = _dataset_outside(dataset_id, records, measurement) + judged
    threshold = records.thresholds.get(metric_id)
    requires = metric is not None and metric.requires_baseline
    if requires or (threshold is not None and threshold.regression):
        plan.baseline(metric_id, Binding(version, fingerprint, judge_model))
    plan.threshold(metric_id)
    plan.approval(metric_id, Binding(version, fingerprint, judge_model), evaluated_on)
    if metric is None:
        plan.put(
            "metrics",
            metric_id,
            "dataset",
            dataset_id,
            "this metric is measured on this dataset",
            choose="the dataset id it is measured on" if dataset_id.startswith("<") else None,
        )
    _renew(plan, _records_of(metric_id, dataset_id, records), evaluated_on)
    _promote(plan, metric_id, "this metric", "once the rest holds")
    # Stable: within one file, edits keep the order they were made in.
    edits = sorted(plan.edits, key=lambda e: ORDER.index(e.kind))
    return Checklist(tuple(edits), outside)


def _dataset_outside(
    dataset_id: str, records: HostRecords, measurement: Measurement | None
) -> tuple[Reason, ...]:
    """What no records edit can vouch for about the data: an output naming another dataset
    (only a person who knows both are the same data may add the name to the record's `names`),
    and an output yielding no fingerprint for a record that pins one."""
    seen = measurement.run.dataset if measurement is not None else None
    if measurement is None:
        return ()
    dataset = records.datasets.get(dataset_id)
    names = (dataset_id, *(dataset.names if dataset is not None else ()))
    outside = []
    if seen is not None and seen.name is not None and seen.name not in names:
        outside.append(
            Reason(
                C.DATASET_MISMATCH,
                (
                    f"the run was measured on dataset '{seen.name}': re-run it on "
                    f"'{dataset_id}', or, if they are the same data, add '{seen.name}' to "
                    f"names: of '{dataset_id}' in datasets.yaml"
                ),
            )
        )
    if (
        dataset is not None
        and dataset.fingerprint is not None
        and (seen is None or seen.fingerprint is None)
    ):
        outside.append(
            Reason(
                C.DATASET_UNVERIFIABLE,
                (
                    f"the run yields no dataset fingerprint to check against '{dataset_id}''s: "
                    "re-run it so its output records its samples (docs/formats.md)"
                ),
            )
        )
    return tuple(outside)


def _check(plan: EditPlan, metric_id: str, name: str) -> Checklist:
    """A check's metric: its definition (its bar) and its status; no threshold, no dataset."""
    if name not in plan.records.checks:
        plan.put(
            "checks",
            name,
            "run",
            "<command>",
            "this command exits 0 exactly when what it checks holds (or write shell, "
            "file_exists or regex instead of run)",
            choose="the command it runs",
        )
        plan.put(
            "checks",
            name,
            "timeout",
            600,
            "how many seconds it may run before it is killed",
            choose="seconds",
        )
    _promote(plan, metric_id, "this check", "once it is defined")
    return Checklist(tuple(sorted(plan.edits, key=lambda e: ORDER.index(e.kind))))


def _records_of(metric_id: str, dataset_id: str, records: HostRecords) -> Mapping[str, str]:
    """By kind, the id of each record a metric's authority reads."""
    metric = records.metrics.get(metric_id)
    judge_id = metric.judge if metric is not None else None
    keys = {"metrics": metric_id, "thresholds": metric_id, "baselines": metric_id}
    keys |= {"datasets": dataset_id, "policies": dataset_id}
    return keys | ({"judges": judge_id} if judge_id is not None else {})


def _renew(plan: EditPlan, keys: Mapping[str, str], evaluated_on: dt.date) -> None:
    """A record the metric reads whose own last day has passed: a new last day, for the person
    who reviews it again to choose (an approval's is given with the approval, `EditPlan.approval`)."""
    for kind, record_id in keys.items():
        record = getattr(plan.records, kind).get(record_id)
        if record is None or approval_bound(kind):
            continue
        for field in KINDS[kind].having(Role.EXPIRES):
            last = getattr(record, field.name)
            if last is None or evaluated_on <= last:
                continue
            noun = KINDS[kind].noun
            plan.put(
                kind,
                record_id,
                field.name,
                OPEN_END,
                f"you have reviewed the {noun} again and it holds until its new last day (the "
                f"last one was {last}); or remove the line for a {noun} that does not expire",
                choose="the new last day, YYYY-MM-DD",
            )


def _promote(plan: EditPlan, metric_id: str, what: str, when: str) -> None:
    """The last switch, when the metric is not gating yet: its status set to gating."""
    metric = plan.records.metrics.get(metric_id)
    if metric is None or metric.status is not MetricStatus.GATING:
        plan.put(
            "metrics",
            metric_id,
            "status",
            MetricStatus.GATING,
            f"the eval leads want {what} to fail builds (the last switch, {when})",
        )
