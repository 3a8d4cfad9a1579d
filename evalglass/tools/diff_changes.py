"""What `diff` reports: each change a reviewer must see (its sort, the records file and id it is
in, what changed in words) and which sorts `--fail-on-loosen` refuses. Values and their wording
only; `records_diff.py` finds the changes.
"""

from __future__ import annotations

import enum

import attrs

from evalglass.records.model import ApprovedFor
from evalglass.tools import approval_review


class Kind(enum.Enum):
    """What sort of change; `loosens` marks the ones --fail-on-loosen refuses."""

    GAINS_AUTHORITY = "gains_authority"
    LOSES_AUTHORITY = "loses_authority"
    THRESHOLD_LOOSENED = "threshold_loosened"
    THRESHOLD_TIGHTENED = "threshold_tightened"
    METRIC_LOOSENED = "metric_loosened"
    METRIC_TIGHTENED = "metric_tightened"
    APPROVAL_CHANGED = "approval_changed"
    APPROVAL_LOOSENED = "approval_loosened"
    APPROVAL_STALE = "approval_stale"
    APPROVAL_EXPIRING = "approval_expiring"
    RECORD_ADDED = "record_added"
    RECORD_REMOVED = "record_removed"
    RECORD_CHANGED = "record_changed"
    # A field of a record with no sort of its own (a dataset's, a judge's) moved the way its
    # declaration says lets more runs through, or the other way.
    RECORD_LOOSENED = "record_loosened"
    RECORD_TIGHTENED = "record_tightened"
    # A record's own last day (not an approval's) is near or past.
    RECORD_EXPIRING = "record_expiring"
    # A gating check's definition edited: no one can tell a stricter command from a weaker one.
    CHECK_CHANGED = "check_changed"
    # A regression gate's baseline value moved: the way that lets more runs through, or not.
    BASELINE_LOOSENED = "baseline_loosened"
    BASELINE_TIGHTENED = "baseline_tightened"
    # success.yaml edited so that a run the old policy failed can pass, or the reverse.
    SUCCESS_LOOSENED = "success_loosened"
    SUCCESS_TIGHTENED = "success_tightened"


LOOSENING = frozenset({
    Kind.THRESHOLD_LOOSENED, Kind.METRIC_LOOSENED, Kind.APPROVAL_LOOSENED, Kind.RECORD_LOOSENED,
    Kind.CHECK_CHANGED, Kind.BASELINE_LOOSENED, Kind.SUCCESS_LOOSENED,
})  # fmt: skip


@attrs.frozen(kw_only=True)
class Change:
    """One change a reviewer must see: what sort it is, the records file and id it is in, and
    what changed, in words."""

    kind: Kind
    file: str
    id: str
    detail: str
    # Set on a gain of authority whose threshold approval did not change with it.
    unapproved: bool = False


@attrs.frozen(kw_only=True)
class RecordsDiff:
    """Every change from the base records to the head's, authority per metric first; `base` and
    `head` name the two sides as they are shown."""

    base: str
    head: str
    changes: tuple[Change, ...]

    @property
    def loosening(self) -> tuple[Change, ...]:
        """Changes that make gating easier without a new approval: what --fail-on-loosen refuses."""
        return tuple(
            c
            for c in self.changes
            if c.kind in LOOSENING or (c.kind is Kind.GAINS_AUTHORITY and c.unapproved)
        )


def names(record: object) -> list[str]:
    """The fields of a record a change can be in (not where it was read from)."""
    return [a.name for a in attrs.fields(type(record)) if a.eq]  # type: ignore[arg-type]


def changed(old: object, new: object, which: frozenset[str] | None = None) -> str:
    """`field: old → new; ...` for each field that differs (of `which`, when given)."""
    return "; ".join(
        f"{name}: {text(getattr(old, name))} → {text(getattr(new, name))}"
        for name in names(old)
        if (which is None or name in which) and getattr(old, name) != getattr(new, name)
    )


def fields_text(record: object) -> str:
    """`field: value, ...` for each field the record gives."""
    return ", ".join(
        f"{name}: {text(getattr(record, name))}"
        for name in names(record)
        if getattr(record, name) is not None
    )


def text(value: object) -> str:
    """One value as a change shows it."""
    if isinstance(value, ApprovedFor):
        return f"({approval_review.binding_text(value)})"
    return str(value.value) if isinstance(value, enum.Enum) else str(value)
