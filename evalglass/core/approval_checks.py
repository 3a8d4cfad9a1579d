"""The stage 2 checks of a threshold's approval: it still describes the dataset and judge the
records name (approved_for), and it has not expired on the evaluation date.
"""

from __future__ import annotations

from evalglass.core.model_names import same_grader
from evalglass.core.situation import Situation, named
from evalglass.records.model import Approval, HostRecords, MetricRecord, ThresholdRecord


def approval_stale(s: Situation) -> str:
    """A proposed threshold is held to what it says it is for, so that its notes show what
    approving it as written would raise."""
    threshold = s.threshold
    if threshold is None:
        return ""
    stale = approval_differences(threshold, s.metric, s.records)
    approved = threshold.approval is Approval.APPROVED
    if not stale or not (approved or threshold.approved_for is not None):
        return ""
    return f"{_approval_said(threshold)}: {stale}"


def approval_expired(s: Situation) -> str:
    """Why the approval has expired on the evaluation date."""
    threshold = s.threshold
    if threshold is None or threshold.expires_on is None:
        return ""
    if s.evaluated_on <= threshold.expires_on:
        return ""
    return (
        f"{_approval_said(threshold)} held until {threshold.expires_on.isoformat()} "
        f"(expires_on); the evaluation date is {s.evaluated_on.isoformat()}"
    )


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
                f"dataset version: approved {named(approved.dataset_version)}, dataset "
                f"'{metric.dataset}' is at {named(dataset.version)}"
            )
        if approved.fingerprint != dataset.fingerprint:
            differs.append(
                f"dataset fingerprint: approved {named(approved.fingerprint)}, "
                f"dataset '{metric.dataset}' has {named(dataset.fingerprint)}"
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
            f"judge model: approved {named(approved.judge_model)}, judge "
            f"'{metric.judge}' grades with '{judge.model}'"
        )
    return "; ".join(differs)


def _approval_said(threshold: ThresholdRecord) -> str:
    if threshold.approval is not Approval.APPROVED:
        return "the proposed approval"
    by = f" by {threshold.approved_by}" if threshold.approved_by else ""
    on = f" on {threshold.approved_on.isoformat()}" if threshold.approved_on else ""
    return f"the approval{by}{on}"
