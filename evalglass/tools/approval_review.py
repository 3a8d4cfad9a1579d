"""What a reviewer must see about approvals: one that covers more than it did, and one a change
makes stale. Pure: it compares loaded records (diff shows the answers); whether an approval
authorizes a gate is the resolver's alone. What binds an approval and when it ends are read from
the thresholds' declaration in records/schema.py (one that expires soon: `expiry.py`).
"""

from __future__ import annotations

from collections.abc import Iterator

from evalglass.core.approval_checks import approval_differences
from evalglass.records.model import Approval, ApprovedFor, HostRecords, ThresholdRecord
from evalglass.records.schema import KINDS, Role
from evalglass.tools.field_moves import Move, move

_THRESHOLDS = KINDS["thresholds"]
# What an approval is given for, and the parts each binding field names.
_BINDS = _THRESHOLDS.having(Role.BINDS)
_ENDS = _THRESHOLDS.having(Role.EXPIRES)
_APPROVAL = _THRESHOLDS.having(Role.APPROVAL)
(_FOR,) = _BINDS  # binding_text shows the one binding a threshold has
PARTS = tuple(part.name for part in _FOR.fields)


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
    a new approval (every approval field unchanged), approved_for moved to other data or
    expires_on removed or moved later."""
    if new.approval is not Approval.APPROVED:
        return ""  # a proposal grants nothing, whatever it says it is for
    moves = [*_unbound(old, new)]
    reapproved = any(getattr(old, f.name) != getattr(new, f.name) for f in _APPROVAL)
    if reapproved:
        return "; ".join(moves)
    moved = [*_rebound(old, new)]
    for end in _ENDS:
        last, now_last = getattr(old, end.name), getattr(new, end.name)
        if last is not None and move(end, last, now_last) is Move.LOOSER:
            moved.append(f"{end.name}: {last} → {now_last or 'none (never expires)'}")
    if moved:
        moves.append(
            "; ".join(moved) + " without a new approval (approved_by and approved_on unchanged)"
        )
    return "; ".join(moves)


def _unbound(old: ThresholdRecord, new: ThresholdRecord) -> list[str]:
    """A binding, or a part of one, removed: whatever the approval, it now vouches for any."""
    moves = []
    for binds in _BINDS:
        was, now = getattr(old, binds.name), getattr(new, binds.name)
        if was is None:
            continue
        if move(binds, was, now) is Move.LOOSER:
            moves.append(f"{binds.name} removed (was {binding_text(was)})")
            continue
        moves += [
            f"{binds.name}.{part.name}: {_quoted(getattr(was, part.name))} → none (removed: it "
            "now vouches for any)"
            for part in binds.fields
            if move(part, getattr(was, part.name), getattr(now, part.name)) is Move.LOOSER
        ]
    return moves


def _rebound(old: ThresholdRecord, new: ThresholdRecord) -> list[str]:
    """A part of a binding moved to another value: other data than the approver saw."""
    moved = []
    for binds in _BINDS:
        was, now = getattr(old, binds.name), getattr(new, binds.name)
        if was is None or now is None:
            continue
        moved += [
            f"{binds.name}.{part.name}: {_quoted(getattr(was, part.name))} → "
            f"{_quoted(getattr(now, part.name))}"
            for part in binds.fields
            if getattr(now, part.name) is not None
            and getattr(was, part.name) != getattr(now, part.name)
        ]
    return moved


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


def _quoted(value: str | None) -> str:
    return "none" if value is None else f"'{value}'"
