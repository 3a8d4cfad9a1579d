"""The records whose last day is near or past: every field records/schema.py declares as one
that expires, in every kind. Pure; doctor warns of them and diff lists them. Whether a record
past its day still authorizes anything is the resolver's alone (the field's `expired` code).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import attrs

from evalglass.reasons import AuthorityCode
from evalglass.records.model import Approval, HostRecords
from evalglass.records.schema import KINDS, RecordKind, Role

# How far ahead of the evaluation date an expiry is worth a reviewer's attention.
EXPIRY_NOTICE = dt.timedelta(days=30)


@attrs.frozen(kw_only=True)
class Expiring:
    """One record whose `field` ends within EXPIRY_NOTICE of the evaluation date, or has ended;
    `approval` when what ends is the record's approval, not the record."""

    kind: str
    record_id: str
    field: str
    last: dt.date
    evaluated_on: dt.date
    code: AuthorityCode
    approval: bool

    @property
    def days(self) -> int:
        """Days from the evaluation date to the last day: negative once it has passed."""
        return (self.last - self.evaluated_on).days

    @property
    def when(self) -> str:
        """`its approval's last day is 2026-12-10, in 10 days`, or that it has expired."""
        whose = "its approval's" if self.approval else "its"
        days = self.days
        if days < 0:
            ended = "its approval expired" if self.approval else "it expired"
            return (
                f"{ended}: its last day was {self.last}, {_days(-days)} before {self.evaluated_on}"
            )
        if days == 0:
            return f"{whose} last day is today, {self.last}"
        return f"{whose} last day is {self.last}, in {_days(days)}"


def expiring(records: HostRecords, evaluated_on: dt.date) -> Iterator[Expiring]:
    """Each record in force with a date that expires within EXPIRY_NOTICE of the evaluation
    date, or has expired, kind by kind in the table's order and by id."""
    horizon = evaluated_on + EXPIRY_NOTICE
    for spec in KINDS.values():
        ends = spec.having(Role.EXPIRES)
        if not ends or spec.single:
            continue
        approval = bool(spec.having(Role.APPROVAL))
        for record_id, record in sorted(getattr(records, spec.kind).items()):
            if not _in_force(spec, record):
                continue
            for field in ends:
                last = getattr(record, field.name)
                if last is None or last > horizon:
                    continue
                assert field.expired is not None  # the declaration requires it
                yield Expiring(
                    kind=spec.kind,
                    record_id=record_id,
                    field=field.name,
                    last=last,
                    evaluated_on=evaluated_on,
                    code=field.expired,
                    approval=approval,
                )


def _in_force(spec: RecordKind, record: object) -> bool:
    """A record that carries an approval grants nothing until approved: its last day is moot."""
    return all(
        getattr(record, f.name) is Approval.APPROVED
        for f in spec.having(Role.APPROVAL)
        if f.type is Approval
    )


def _days(count: int) -> str:
    return f"{count} day{'' if count == 1 else 's'}"
