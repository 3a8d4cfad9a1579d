"""Who may gate: the two-stage resolver. Authority is computed here and nowhere else.

Only host records authorize. The evidence is consulted for one thing, the identity of what was
measured (models, graders, dataset), and only to block: nothing in an eval output can grant
authority. The evaluation date is given, never read from a clock. A check's metric (`check/NAME`)
is authorized by its status alone and needs its definition in checks.yaml: the definition is its
bar, so it has no threshold, dataset or judge.
"""

from __future__ import annotations

import datetime as dt
import enum

import attrs

from evalglass.calibration_evidence import CalibrationEvidence
from evalglass.core.agreement import check_agreement
from evalglass.core.dataset_check import names_other
from evalglass.core.model_names import same_grader, same_model
from evalglass.evidence.model import Measurement, Run
from evalglass.metric_ids import check_name
from evalglass.reasons import AuthorityCode as C
from evalglass.reasons import Reason
from evalglass.records.model import (
    Approval,
    Calibration,
    DatasetRecord,
    DatasetStatus,
    HostRecords,
    JudgeRecord,
    MetricRecord,
    MetricStatus,
    Policy,
    ThresholdRecord,
    UnreadableEvidence,
)


class Outcome(enum.Enum):
    """Whether a metric may gate: informational (not authorized), blocked (authorized, but its
    evidence is unsound: the run cannot pass), or can_gate."""

    INFORMATIONAL = "informational"
    BLOCKED = "blocked"
    CAN_GATE = "can_gate"


@attrs.frozen
class Authority:
    """The resolver's answer. `notes` are what stage 2 would raise once an informational metric
    is promoted; a blocked metric has none (it already passed stage 1)."""

    outcome: Outcome
    reasons: tuple[Reason, ...] = ()
    notes: tuple[Reason, ...] = ()


_PERMITTED = frozenset({Policy.PERMITTED, Policy.REDACTED})


def resolve(
    metric_id: str,
    records: HostRecords,
    measurement: Measurement | None,
    *,
    evaluated_on: dt.date,
) -> Authority:
    """Resolve one metric's authority from the records, as of the evaluation date (an approval's
    expiry is compared with it); the measurement only identifies the run."""
    metric = records.metrics.get(metric_id)
    if metric is None:
        return Authority(
            Outcome.INFORMATIONAL,
            (Reason(C.NO_RECORD, f"no record for '{metric_id}' in metrics.yaml"),),
        )
    check = check_name(metric_id)
    if check is not None:
        unauthorized, unsound = _check_stages(check, metric, records)
    else:
        unauthorized = _stage1(metric_id, metric, records)
        unsound = _stage2(metric_id, metric, records, measurement, evaluated_on)
    if unauthorized:
        return Authority(Outcome.INFORMATIONAL, unauthorized, notes=unsound)
    if unsound:
        return Authority(Outcome.BLOCKED, unsound)
    return Authority(Outcome.CAN_GATE)


def _check_stages(
    name: str, metric: MetricRecord, records: HostRecords
) -> tuple[tuple[Reason, ...], tuple[Reason, ...]]:
    """A check's metric: authorized by its status (stage 1), sound when checks.yaml defines it
    (stage 2). What the check found is the decision's to judge, not authority's."""
    unsound: tuple[Reason, ...] = ()
    if name not in records.checks:
        unsound = (Reason(C.DANGLING_REFERENCE, f"no check '{name}' in checks.yaml"),)
    return _not_gating(metric), unsound


def _not_gating(metric: MetricRecord) -> tuple[Reason, ...]:
    if metric.status is MetricStatus.GATING:
        return ()
    return (Reason(C.METRIC_NOT_GATING, f"metric status is {metric.status.value}"),)


def _stage1(metric_id: str, metric: MetricRecord, records: HostRecords) -> tuple[Reason, ...]:
    """Is the metric authorized to gate? Every failed condition, in table order."""
    reasons = list(_not_gating(metric))
    threshold = records.thresholds.get(metric_id)
    if threshold is None:
        reasons.append(Reason(C.THRESHOLD_MISSING, "no threshold in thresholds.yaml"))
    elif threshold.approval is not Approval.APPROVED:
        reasons.append(Reason(C.THRESHOLD_PROPOSED, "threshold is proposed, not approved"))
    dataset = records.dataset_of(metric)
    if dataset is not None and dataset.status is DatasetStatus.PROPOSED:
        reasons.append(Reason(C.DATASET_PROPOSED, f"dataset '{metric.dataset}' is proposed"))
    judge = records.judges.get(metric.judge) if metric.judge is not None else None
    if judge is not None and judge.calibration in (
        Calibration.UNCALIBRATED,
        Calibration.CALIBRATING,
    ):
        reasons.append(
            Reason(C.JUDGE_UNCALIBRATED, f"judge '{metric.judge}' is {judge.calibration.value}")
        )
    return tuple(reasons)


def _stage2(
    metric_id: str,
    metric: MetricRecord,
    records: HostRecords,
    measurement: Measurement | None,
    evaluated_on: dt.date,
) -> tuple[Reason, ...]:
    """Is the evidence sound enough to let an authorized metric decide? Every failed condition."""
    reasons = []
    # Only a record built in code can name no dataset (the loader refuses it): nothing to find.
    dataset_id = metric.dataset or ""
    dataset = records.dataset_of(metric)
    judge = records.judges.get(metric.judge) if metric.judge is not None else None
    dangling = [f"dataset '{dataset_id}'"] if dataset is None else []
    if metric.judge is not None and judge is None:
        dangling.append(f"judge '{metric.judge}'")
    if dangling:
        reasons.append(Reason(C.DANGLING_REFERENCE, f"no record for {' or '.join(dangling)}"))
    # Looked up by the id the metric names, record or not: a typo rarely has a policy either.
    policy = records.policies.get(dataset_id)
    if policy is None or policy.policy not in _PERMITTED:
        said = "no data policy" if policy is None else f"data policy is {policy.policy.value}"
        reasons.append(Reason(C.POLICY_NOT_PERMITTED, f"{said} for dataset '{metric.dataset}'"))
    if dataset is not None and dataset.status is DatasetStatus.RETIRED:
        reasons.append(Reason(C.DATASET_RETIRED, f"dataset '{metric.dataset}' is retired"))
    if dataset is not None and measurement is not None:
        reasons.extend(_dataset_reasons(dataset_id, dataset, measurement))
    reasons.extend(_judge_reasons(metric, judge, measurement.run if measurement else None))
    threshold = records.thresholds.get(metric_id)
    # A regression gate compares with the baseline, so it needs one as much as a record that asks.
    if metric.requires_baseline or (threshold is not None and threshold.regression):
        reasons.extend(_baseline_reasons(metric_id, metric, records))
    if threshold is not None:
        reasons.extend(_approval_reasons(threshold, metric, records, evaluated_on))
    return tuple(reasons)


def _approval_reasons(
    threshold: ThresholdRecord, metric: MetricRecord, records: HostRecords, evaluated_on: dt.date
) -> list[Reason]:
    """Whether the approval still describes what is measured, and still holds on the evaluation
    date. A proposed threshold is held to what it says it is for, so that its notes show what
    approving it as written would raise."""
    approved = threshold.approval is Approval.APPROVED
    reasons = []
    stale = approval_differences(threshold, metric, records)
    if stale and (approved or threshold.approved_for is not None):
        reasons.append(Reason(C.APPROVAL_STALE, f"{_approval_said(threshold)}: {stale}"))
    if threshold.expires_on is not None and evaluated_on > threshold.expires_on:
        reasons.append(
            Reason(
                C.APPROVAL_EXPIRED,
                (
                    f"{_approval_said(threshold)} held until {threshold.expires_on.isoformat()} "
                    f"(expires_on); the evaluation date is {evaluated_on.isoformat()}"
                ),
            )
        )
    return reasons


def approval_differences(
    threshold: ThresholdRecord, metric: MetricRecord, records: HostRecords
) -> str:
    """Every dimension on which the threshold's approved_for differs from today's dataset and
    judge records, each with both values; "" when none does. A missing record a metric names is
    dangling, not different: there is nothing to compare with."""
    approved = threshold.approved_for
    if approved is None:
        return "it names nothing it was approved for (approved_for)"
    differs = []
    dataset = records.dataset_of(metric)
    if dataset is not None:
        if approved.dataset_version != dataset.version:
            differs.append(
                f"dataset version: approved '{approved.dataset_version}', dataset "
                f"'{metric.dataset}' is at '{dataset.version}'"
            )
        if approved.fingerprint != dataset.fingerprint:
            differs.append(
                f"dataset fingerprint: approved {_named(approved.fingerprint)}, "
                f"dataset '{metric.dataset}' has {_named(dataset.fingerprint)}"
            )
    judge = records.judges.get(metric.judge) if metric.judge is not None else None
    if metric.judge is None and approved.judge_model is not None:
        differs.append(
            f"judge model: approved '{approved.judge_model}', metrics.yaml names no judge"
        )
    elif judge is not None and (
        approved.judge_model is None or not same_grader(approved.judge_model, judge.model)
    ):
        # Strict: a judge approved on one snapshot does not vouch for another.
        differs.append(
            f"judge model: approved {_named(approved.judge_model)}, judge "
            f"'{metric.judge}' grades with '{judge.model}'"
        )
    return "; ".join(differs)


def _approval_said(threshold: ThresholdRecord) -> str:
    if threshold.approval is not Approval.APPROVED:
        return "the proposed approval"
    by = f" by {threshold.approved_by}" if threshold.approved_by else ""
    on = f" on {threshold.approved_on.isoformat()}" if threshold.approved_on else ""
    return f"the approval{by}{on}"


def _named(value: str | None) -> str:
    return "none" if value is None else f"'{value}'"


def _judge_reasons(
    metric: MetricRecord, judge: JudgeRecord | None, run: Run | None
) -> list[Reason]:
    """The judge's state, and who graded the run: independent of the model under evaluation,
    and the judge the records name."""
    reasons = []
    if judge is not None and judge.calibration is Calibration.DRIFTED:
        reasons.append(Reason(C.JUDGE_DRIFTED, f"judge '{metric.judge}' has drifted"))
    if judge is not None and judge.calibration is Calibration.RETIRED:
        reasons.append(Reason(C.JUDGE_RETIRED, f"judge '{metric.judge}' is retired"))
    if judge is not None and metric.judge is not None:
        shortfall = evidence_shortfall(metric.judge, judge)
        if shortfall:
            reasons.append(Reason(C.JUDGE_EVIDENCE_INSUFFICIENT, shortfall))
    dependent = _dependence(judge, run)
    if dependent:
        reasons.append(Reason(C.JUDGE_NOT_INDEPENDENT, dependent))
    graders = run.graders if run is not None else ()
    if graders and metric.judge is None:
        said = (
            f"the output says {_listed(graders)} graded it, and metrics.yaml names no judge: "
            "a model-graded metric must name its judge"
        )
        reasons.append(Reason(C.JUDGE_MODEL_MISMATCH, said))
    elif graders and judge is not None:
        # Stricter than independence: another snapshot or size of the judge is another grader.
        others = tuple(g for g in graders if not same_grader(g, judge.model))
        if others:
            said = (
                f"the output says {_listed(others)} graded it, not judge '{metric.judge}' "
                f"('{judge.model}')"
            )
            reasons.append(Reason(C.JUDGE_MODEL_MISMATCH, said))
    return reasons


def _dependence(judge: JudgeRecord | None, run: Run | None) -> str:
    """Why the grading cannot be shown independent of the model under evaluation, or "".

    The judge the records name and every grader the output names are compared with every model
    the output says it evaluated; an output that names no model cannot show independence."""
    models = run.models if run is not None else ()
    graders = run.graders if run is not None else ()
    if judge is None and not graders:
        return ""
    if not models:
        who = "judge" if judge is not None else "grader"
        return f"the eval output names no model, so the {who} cannot be shown independent"
    said = []
    if judge is not None:
        said += [
            f"judge model '{judge.model}' is the model under evaluation '{m}'"
            for m in models
            if same_model(judge.model, m)
        ][:1]
    said += [
        f"the output says '{g}', the model under evaluation '{m}', graded it"
        for g in graders
        for m in models
        if same_model(g, m)
    ][:1]
    return "; ".join(said)


def _listed(names: tuple[str, ...]) -> str:
    return ", ".join(f"'{n}'" for n in names)


def _dataset_reasons(
    dataset_id: str, dataset: DatasetRecord, measurement: Measurement
) -> list[Reason]:
    """Where what the output says it was measured on contradicts the validated record
    (`dataset_mismatch`), or cannot be checked against the fingerprint the record pins
    (`dataset_unverifiable`).

    An output naming a dataset names the record's when it names its id or one of the names the
    record declares; any other name is another dataset, whatever its version. A version is
    compared when the name is the record's (or there is none); a fingerprint whatever the name.
    """
    seen = measurement.run.dataset
    differs = []
    if seen is not None and names_other(dataset_id, dataset, seen):
        also = f" (nor any of its names: {_listed(dataset.names)})" if dataset.names else ""
        differs.append(
            f"the output names dataset '{seen.name}', not the record's '{dataset_id}'{also}"
        )
    elif seen is not None and seen.version is not None and seen.version != dataset.version:
        differs.append(
            f"measured on dataset version '{seen.version}', record validates '{dataset.version}'"
        )
    printed = seen.fingerprint if seen is not None else None
    if dataset.fingerprint is not None and printed is not None and printed != dataset.fingerprint:
        differs.append(
            f"measured on dataset fingerprint '{printed}', record has '{dataset.fingerprint}'"
        )
    reasons = [Reason(C.DATASET_MISMATCH, "; ".join(differs))] if differs else []
    if dataset.fingerprint is not None and printed is None:
        reasons.append(
            Reason(
                C.DATASET_UNVERIFIABLE,
                (
                    f"dataset '{dataset_id}' pins fingerprint '{dataset.fingerprint}', and the "
                    "output yields none to check it against"
                ),
            )
        )
    return reasons


def _baseline_reasons(
    metric_id: str, metric: MetricRecord, records: HostRecords
) -> tuple[Reason, ...]:
    """Missing, or not comparable on some dimension: each differing dimension is named."""
    baseline = records.baselines.get(metric_id)
    if baseline is None:
        return (Reason(C.BASELINE_MISSING, "a baseline is required and baselines.yaml has none"),)
    dataset = records.dataset_of(metric)
    differs = []
    if dataset is None:
        differs.append(f"dataset version: baseline '{baseline.dataset_version}', no dataset record")
    else:
        if baseline.dataset_version != dataset.version:
            differs.append(
                f"dataset version: baseline '{baseline.dataset_version}', "
                f"dataset '{dataset.version}'"
            )
        if (
            baseline.fingerprint is not None
            and dataset.fingerprint is not None
            and baseline.fingerprint != dataset.fingerprint
        ):
            differs.append(
                f"dataset fingerprint: baseline '{baseline.fingerprint}', "
                f"dataset '{dataset.fingerprint}'"
            )
    if metric.judge is not None:
        judge = records.judges.get(metric.judge)
        # Exact, unlike independence: a loose match here would let a different grader through.
        if judge is None or baseline.judge != judge.model:
            have = "no judge record" if judge is None else f"judge '{judge.model}'"
            differs.append(f"judge model: baseline '{baseline.judge or 'not named'}', {have}")
    if differs:
        return (Reason(C.BASELINE_NOT_COMPARABLE, "; ".join(differs)),)
    return ()


def evidence_shortfall(judge_id: str, judge: JudgeRecord) -> str:
    """Why the calibration evidence a judge's record names does not hold it up ("" when it
    does, or when the record names no evidence and no min_agreement).

    The evidence must have been read, be for this judge and its model, and, given a
    min_agreement, show the statistic's lower interval bound at or above it. Checked whatever
    the judge's calibration: a judge not yet calibrated shows it as a note (what would block
    once it is), and a drifted or retired one is blocked for this as well."""
    if judge.evidence is None:
        # The loader refuses this; a record built in memory must not slip through.
        return (
            ""
            if judge.min_agreement is None
            else (f"judge '{judge_id}' has a min_agreement but names no calibration evidence")
        )
    where = f"judge '{judge_id}': calibration evidence '{judge.evidence}'"
    found = judge.evidence_read
    if found is None:
        return f"{where} was not read"
    if isinstance(found, UnreadableEvidence):
        return f"{where} {found.problem}"
    return _evidence_mismatch(where, judge_id, judge, found)


def _evidence_mismatch(
    where: str, judge_id: str, judge: JudgeRecord, found: CalibrationEvidence
) -> str:
    if found.judge != judge_id:
        return f"{where} is for judge '{found.judge}', not '{judge_id}'"
    if found.judge_model is None:
        return f"{where} names no judge model, so it cannot be shown to be for '{judge.model}'"
    # Strict, as for the grader: evidence for another snapshot or size of the model is not
    # evidence for the judge that grades now.
    if not same_grader(found.judge_model, judge.model):
        return (
            f"{where} is for model '{found.judge_model}'; judge '{judge_id}' grades with "
            f"'{judge.model}'"
        )
    bar = judge.min_agreement
    if bar is None:
        return ""
    check = check_agreement(found, bar.statistic.value, bar.lower_bound)
    return "" if check.met else f"{where}: {check.message}"
