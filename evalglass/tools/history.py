"""The trail behind one metric: for each commit that changed a record it depends on, who, when,
and each field's old and new value. Pure: it compares records already loaded at each commit
(`records/git_history.py` walks git); it never parses diff text and never decides authority.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator

import attrs

from evalglass.errors import RecordError, UnknownMetric
from evalglass.metric_ids import check_metric, check_name
from evalglass.records._scalars import quote
from evalglass.records.git_history import Commit, Cut, Revision
from evalglass.records.model import BaselineRecord, HostRecords
from evalglass.records.schema import KINDS, Field
from evalglass.tools.edits import yaml_text


@attrs.frozen(kw_only=True)
class FieldChange:
    """One field of one record: `old` and `new` as written in YAML, None where it is absent."""

    file: str
    record: str
    field: str
    old: str | None
    new: str | None


@attrs.frozen(kw_only=True)
class Entry:
    """A commit and what it changed behind the metric; `error` when its records do not load."""

    commit: Commit
    changes: tuple[FieldChange, ...] = ()
    error: str | None = None


@attrs.frozen(kw_only=True)
class History:
    """Every commit that changed a record behind a metric, with each field's old and new value."""

    metric: str
    folder: str
    since: str | None
    commits_read: int  # commits that changed any file in the records folder
    entries: tuple[Entry, ...]
    # Commits whose parents this clone lacks (a shallow clone), oldest first: the history read
    # starts there, and what the records held at each is nobody's change.
    cut_at: tuple[Commit, ...] = ()


def build(
    metric_id: str, revisions: Iterable[Revision], *, folder: str, since: str | None = None
) -> History:
    """The commits that changed the metric's records, oldest first, and every commit whose
    records do not load; where the clone's history is cut, that commit's records are where the
    history starts, never a change. Raises UnknownMetric when no commit holds a record of it."""
    entries = []
    cut_at = []
    known: set[str] = set()
    last_good = HostRecords()
    read = 0
    for revision in revisions:
        read += 1
        after = revision.after
        if isinstance(revision.before, Cut):
            cut_at.append(revision.commit)
        if isinstance(after, RecordError):
            entries.append(Entry(commit=revision.commit, error=str(after)))
            continue
        known |= _ids(after)
        if isinstance(revision.before, Cut):
            last_good = after  # what it held is where the history starts, not its change
            continue
        # A parent that does not load was shown as such: compare with the last records that did.
        before = revision.before if isinstance(revision.before, HostRecords) else last_good
        last_good = after
        changes = tuple(changed(metric_id, before, after))
        if changes:
            entries.append(Entry(commit=revision.commit, changes=changes))
    if metric_id not in known:
        close = difflib.get_close_matches(metric_id, sorted(known), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        span = f"since {since}" if since else "in the history of HEAD"
        raise UnknownMetric(
            metric_id,
            f"no record of this metric in {folder} in any commit {span} ({read} read){hint}",
        )
    return History(
        metric=metric_id,
        folder=folder,
        since=since,
        commits_read=read,
        entries=tuple(entries),
        cut_at=tuple(cut_at),
    )


def changed(metric_id: str, before: HostRecords, after: HostRecords) -> Iterator[FieldChange]:
    """Every field that differs between the records behind the metric on each side: its metric
    record, threshold, baseline and check, the dataset, policy and judge its metric record names
    (on each side), and the success policy when it names the metric."""
    old, new = _behind(metric_id, before), _behind(metric_id, after)
    for role in _ROLES:
        (old_id, was), (new_id, now) = old.get(role, (None, None)), new.get(role, (None, None))
        if was == now and old_id == new_id:
            continue
        label = (
            new_id
            if old_id in (None, new_id)
            else (old_id if new_id is None else f"{old_id} → {new_id}")
        )
        yield from _fields(role, label or "", was, now)


_ROLES = (
    "metrics",
    "thresholds",
    "datasets",
    "policies",
    "judges",
    "baselines",
    "checks",
    "success",
)


def _behind(metric_id: str, records: HostRecords) -> dict[str, tuple[str, object]]:
    """The records the metric depends on, by kind: (record id, record)."""
    found: dict[str, tuple[str, object]] = {}
    metric = records.metrics.get(metric_id)
    for kind in ("metrics", "thresholds", "baselines"):
        record = getattr(records, kind).get(metric_id)
        if record is not None:
            found[kind] = (metric_id, record)
    if metric is not None:
        for kind, record_id in (
            ("datasets", metric.dataset),
            ("policies", metric.dataset),
            ("judges", metric.judge),
        ):
            record = getattr(records, kind).get(record_id) if record_id is not None else None
            if record is not None and record_id is not None:
                found[kind] = (record_id, record)
    name = check_name(metric_id)
    if name is not None and name in records.checks:
        found["checks"] = (name, records.checks[name])
    success = records.success
    if success is not None and metric_id in success.must_pass:
        found["success"] = ("success", success)
    return found


def _fields(kind: str, record: str, was: object, now: object) -> Iterator[FieldChange]:
    """The fields that differ; of a record added or removed, those it gives (a default it only
    takes is no one's edit)."""
    file = KINDS[kind].filename
    for field in KINDS[kind].fields:
        if was is None or now is None:
            value = _get(now if was is None else was, field.name)
            if value is None or (not field.required and value == field.default):
                continue
        if field.nested:
            old_block, new_block = _get(was, field.name), _get(now, field.name)
            for sub in field.fields:
                yield from _one(
                    file,
                    record,
                    f"{field.name}.{sub.name}",
                    sub,
                    _get(old_block, sub.name),
                    _get(new_block, sub.name),
                )
        elif kind == "baselines" and field.name == "rows":
            # The file's content is part of the baseline: the same name may hold other rows.
            old, new = _rows(was), _rows(now)
            if old != new:
                yield FieldChange(file=file, record=record, field="rows", old=old, new=new)
        else:
            yield from _one(
                file, record, field.name, field, _get(was, field.name), _get(now, field.name)
            )


def _one(
    file: str, record: str, name: str, field: Field, old: object, new: object
) -> Iterator[FieldChange]:
    if old != new:
        yield FieldChange(
            file=file, record=record, field=name, old=_shown(old, field), new=_shown(new, field)
        )


def _shown(value: object, field: Field) -> str | None:
    """The value as shown: a field the record leaves out, and so takes its default, says so
    (`default 10`) rather than pass for a value someone wrote."""
    text = _text(value, field)
    if text is not None and not field.required and value == field.default:
        return f"default {text}"
    return text


def _rows(baseline: object) -> str | None:
    """A baseline's rows file as written, and which git object it was at the commit."""
    if not isinstance(baseline, BaselineRecord) or baseline.rows is None:
        return None
    held = "not in the commit" if baseline.rows_object is None else baseline.rows_object[:12]
    return f"{yaml_text(baseline.rows)} ({held})"


def _get(record: object, name: str) -> object:
    return None if record is None else getattr(record, name)


def _text(value: object, field: Field) -> str | None:
    if value is None:
        return None
    if field.many and isinstance(value, tuple):
        return ", ".join(_scalar(item) for item in value)
    return _scalar(value)


def _scalar(value: object) -> str:
    """Text always in quotes (`'v1'`, `'qa-gold'`), as the records' own examples write it, so a
    version or id never reads as a number or a word; numbers, dates, booleans and the other
    words of a closed vocabulary as YAML writes them."""
    if isinstance(value, str):
        return quote(value)
    return yaml_text(value)


def _ids(records: HostRecords) -> set[str]:
    """Every metric id some record of these names."""
    ids = {*records.metrics, *records.thresholds, *records.baselines}
    return ids | {check_metric(name) for name in records.checks}
