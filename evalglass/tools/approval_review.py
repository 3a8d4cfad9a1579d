"""What a reviewer must see about approvals: one that covers more than it did, one a change makes
stale, one that expires soon. Pure: it compares loaded records (diff and doctor show the answers);
whether an approval authorizes a gate is the resolver's alone.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from evalglass.core.approval_checks import approval_differences
from evalglass.records.model import Approval, ApprovedFor, HostRecords, ThresholdRecord

# How far ahead of the evaluation date an expiry is worth a reviewer's attention.
EXPIRY_NOTICE = dt.timedelta(days=30)
PARTS = ("dataset_version", "fingerprint", "judge_model")


def approval_text(threshold: ThresholdRecord) -> str:
    """`approved by @alice on 2026-11-01`, or the approval state of one not approved."""
    if threshold.approval is not Approval.APPROVED:
        return str(threshold.approval.value)
    return f"approved by {threshold.approved_by} on {threshold.approved_on}"


def binding_text(approved: ApprovedFor) -> str:
    """`dataset_version '2026-10', judge_model 'openai/gpt-4.1'`: the parts given."""
    return ", ".join(
        f"{part} {_quoted(getattr(approved, part))}"
        for part in PARTS
        if getattr(approved, part) is not None
    )


def loosened(old: ThresholdRecord, new: ThresholdRecord) -> str:
    """How an approved threshold's approval now covers more than it did, or "": approved_for
    removed, or a part of it removed (it then vouches for any value of that part); and, without
    a new approval (approved_by and approved_on unchanged), approved_for moved to other data or
    expires_on removed or moved later."""
    if new.approval is not Approval.APPROVED:
        return ""  # a proposal grants nothing, whatever it says it is for
    was, now = old.approved_for, new.approved_for
    moves = []
    if was is not None and now is None:
        moves.append(f"approved_for removed (was {binding_text(was)})")
    elif was is not None and now is not None:
        moves += [
            f"approved_for.{part}: {_quoted(getattr(was, part))} → none (removed: it now "
            "vouches for any)"
            for part in PARTS
            if getattr(was, part) is not None and getattr(now, part) is None
        ]
    reapproved = (old.approval, old.approved_by, old.approved_on) != (
        new.approval,
        new.approved_by,
        new.approved_on,
    )
    if reapproved:
        return "; ".join(moves)
    moved = []
    if was is not None and now is not None:
        moved += [
            f"approved_for.{part}: {_quoted(getattr(was, part))} → {_quoted(getattr(now, part))}"
            for part in PARTS
            if getattr(now, part) is not None and getattr(was, part) != getattr(now, part)
        ]
    if old.expires_on is not None and (new.expires_on is None or new.expires_on > old.expires_on):
        moved.append(f"expires_on: {old.expires_on} → {new.expires_on or 'none (never expires)'}")
    if moved:
        moves.append(
            "; ".join(moved) + " without a new approval (approved_by and approved_on unchanged)"
        )
    return "; ".join(moves)


def made_stale(base: HostRecords, head: HostRecords) -> Iterator[tuple[str, str]]:
    """(metric id, why) for each approved threshold whose approval the change makes stale: its
    approved_for no longer describes the dataset or judge records at head, and it did at base
    (or was not approved there)."""
    for metric_id, threshold in sorted(head.thresholds.items()):
        metric = head.metrics.get(metric_id)
        if metric is None or threshold.approval is not Approval.APPROVED:
            continue
        now = approval_differences(threshold, metric, head)
        if not now:
            continue
        before, was = base.thresholds.get(metric_id), base.metrics.get(metric_id)
        if (
            before is not None
            and was is not None
            and before.approval is Approval.APPROVED
            and approval_differences(before, was, base)
        ):
            continue  # stale already: not this change's doing
        yield metric_id, f"{approval_text(threshold)} no longer describes the records: {now}"


def expiring(records: HostRecords, evaluated_on: dt.date) -> Iterator[tuple[str, str, int]]:
    """(metric id, what to say, days left) for each approved threshold whose approval has
    expired or expires within EXPIRY_NOTICE of the evaluation date; days left is negative once
    it has expired."""
    horizon = evaluated_on + EXPIRY_NOTICE
    for metric_id, threshold in sorted(records.thresholds.items()):
        last = threshold.expires_on
        if threshold.approval is not Approval.APPROVED or last is None or last > horizon:
            continue
        days = (last - evaluated_on).days
        if days < 0:
            when = f"its approval expired: its last day was {last}, {_days(-days)} before {evaluated_on}"
        elif days == 0:
            when = f"its approval's last day is today, {last}"
        else:
            when = f"its approval's last day is {last}, in {_days(days)}"
        yield metric_id, when, days


def _days(count: int) -> str:
    return f"{count} day{'' if count == 1 else 's'}"


def _quoted(value: str | None) -> str:
    return "none" if value is None else f"'{value}'"
