"""What a change to the host records does to authority: every change a reviewer must see.

Pure: it compares two HostRecords (and, given evidence, the authority each side resolves) and
returns the changes. How each field's change is weighed is its declaration in records/schema.py
(`threshold_diff.py` and `record_diffs.py` read it); loading records from git refs is the
shell's job.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from evalglass.core.authority import Outcome, resolve
from evalglass.evidence.model import Evidence
from evalglass.metric_ids import check_name
from evalglass.records.model import Approval, HostRecords, SuccessPolicy, ThresholdRecord
from evalglass.records.schema import KINDS
from evalglass.tools import approval_review, record_diffs
from evalglass.tools.diff_changes import Change, Kind, RecordsDiff
from evalglass.tools.expiry import expiring
from evalglass.tools.threshold_diff import thresholds

__all__ = ["Change", "Kind", "RecordsDiff", "diff"]

_RANK = {Outcome.INFORMATIONAL: 0, Outcome.BLOCKED: 1, Outcome.CAN_GATE: 2}
# The files whose records have no sort of change of their own.
_OWN = ("thresholds", "metrics", "baselines", "checks", "success")
_PLAIN = tuple(kind for kind in KINDS if kind not in _OWN)


def diff(
    base: HostRecords,
    head: HostRecords,
    evidence: Evidence | None = None,
    *,
    base_name: str = "base",
    head_name: str = "head",
    evaluated_on: dt.date,
) -> RecordsDiff:
    """Every change from `base` to `head`: authority per metric first (as of the evaluation
    date), then record by record, then the approvals the change makes stale and the records at
    head (an approval, or a record's own last day) expiring within expiry.EXPIRY_NOTICE of the
    evaluation date."""
    changes = [*_authority(base, head, evidence or Evidence(), evaluated_on)]
    changes += thresholds(base.thresholds, head.thresholds)
    changes += record_diffs.metrics(base.metrics, head.metrics)
    for kind in _PLAIN:
        changes += record_diffs.records(kind, getattr(base, kind), getattr(head, kind))
    changes += record_diffs.baselines(base, head)
    changes += record_diffs.checks(base, head)
    changes += record_diffs.success(
        base.success or SuccessPolicy(), head.success or SuccessPolicy()
    )
    changes += [
        Change(kind=Kind.APPROVAL_STALE, file="thresholds.yaml", id=metric_id, detail=detail)
        for metric_id, detail in approval_review.made_stale(base, head)
    ]
    changes += _expiring(head, evaluated_on)
    return RecordsDiff(base=base_name, head=head_name, changes=tuple(changes))


def _expiring(head: HostRecords, evaluated_on: dt.date) -> Iterator[Change]:
    for due in expiring(head, evaluated_on):
        record = getattr(head, due.kind)[due.record_id]
        if due.approval:
            detail = f"{approval_review.approval_text(record)}: {due.when}"
        else:
            detail = f"{due.field}: {due.when}"
        yield Change(
            kind=Kind.APPROVAL_EXPIRING if due.approval else Kind.RECORD_EXPIRING,
            file=KINDS[due.kind].filename,
            id=due.record_id,
            detail=detail,
        )


def _authority(
    base: HostRecords, head: HostRecords, evidence: Evidence, evaluated_on: dt.date
) -> Iterator[Change]:
    ids = sorted(set(base.metrics) | set(head.metrics) | set(evidence.measurements))
    for metric_id in ids:
        measurement = evidence.measurements.get(metric_id)
        before = resolve(metric_id, base, measurement, evaluated_on=evaluated_on)
        after = resolve(metric_id, head, measurement, evaluated_on=evaluated_on)
        if before.outcome is after.outcome:
            continue
        if after.reasons:
            why = "now: " + ", ".join(r.code.value for r in after.reasons)
        else:
            why = "cleared: " + ", ".join(r.code.value for r in before.reasons)
        detail = f"{before.outcome.value} → {after.outcome.value} ({why})"
        if _RANK[after.outcome] > _RANK[before.outcome]:
            # A check has no threshold to approve: the metrics.yaml edit is its promotion, and a
            # new check gate only adds a way to fail.
            unapproved = check_name(metric_id) is None and not _newly_approved(
                base.thresholds.get(metric_id), head.thresholds.get(metric_id)
            )
            yield Change(
                kind=Kind.GAINS_AUTHORITY,
                file="metrics.yaml",
                id=metric_id,
                detail=detail,
                unapproved=unapproved,
            )
        else:
            yield Change(
                kind=Kind.LOSES_AUTHORITY, file="metrics.yaml", id=metric_id, detail=detail
            )


def _newly_approved(before: ThresholdRecord | None, after: ThresholdRecord | None) -> bool:
    """A gain is approved only when the change itself carries a new approval record."""
    if after is None or after.approval is not Approval.APPROVED:
        return False
    if before is None:
        return True
    return (before.approved_by, before.approved_on) != (after.approved_by, after.approved_on)
