"""What an edit to a records file other than thresholds.yaml does, record by record: the fields
that move the gate, weighed by their declaration in records/schema.py (a metric's, a baseline's
against its regression bar, a gating check's, a record's own such as a dataset's), the success
policy as a whole, and every other field apart. Pure.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import attrs

from evalglass.metric_ids import check_metric
from evalglass.records.model import (
    BaselineRecord,
    Decision,
    HostRecords,
    MetricRecord,
    MetricStatus,
    SuccessMode,
    SuccessPolicy,
)
from evalglass.records.schema import KINDS
from evalglass.tools.diff_changes import Change, Kind, changed, fields_text, names
from evalglass.tools.field_moves import Move, approval_bound, directed, move

_METRIC_MOVES = {Move.LOOSER: Kind.METRIC_LOOSENED, Move.TIGHTER: Kind.METRIC_TIGHTENED}
_RECORD_MOVES = {Move.LOOSER: Kind.RECORD_LOOSENED, Move.TIGHTER: Kind.RECORD_TIGHTENED}
_SUCCESS_MOVES = {Move.LOOSER: Kind.SUCCESS_LOOSENED, Move.TIGHTER: Kind.SUCCESS_TIGHTENED}
_BASELINE_MOVES = {Move.LOOSER: Kind.BASELINE_LOOSENED, Move.TIGHTER: Kind.BASELINE_TIGHTENED}


def _weigh(moves: list[Move | None]) -> Move | None:
    """The loosest move decides: one part that lets more through is loosening, whatever the
    others do."""
    for found in (Move.LOOSER, Move.TIGHTER):
        if found in moves:
            return found
    return None


def metrics(base: Mapping[str, MetricRecord], head: Mapping[str, MetricRecord]) -> Iterator[Change]:
    """A metric record edited: the fields that make its gate let through more (loosened) or less
    (tightened), in one row whose kind the loosest move decides; any other field apart."""
    fields = {f.name: f for f in directed("metrics")}
    for metric_id in sorted(set(base) | set(head)):
        old, new = base.get(metric_id), head.get(metric_id)
        if old == new:
            continue
        if old is None or new is None:
            # Whether the metric may gate at all is the authority rows' to say.
            yield Change(
                kind=Kind.RECORD_ADDED if old is None else Kind.RECORD_REMOVED,
                file="metrics.yaml",
                id=metric_id,
                detail=fields_text(new or old),
            )
            continue
        edited = {name for name in names(old) if getattr(old, name) != getattr(new, name)}
        moved = edited & fields.keys()
        weighed = set(moved)
        if Decision.POINT in (old.decision, new.decision):
            # A point rule compares no interval: between two point rules the level is a plain
            # edit, and a move to or from a point rule outweighs whatever the level does.
            weighed.discard("interval_level")
            if "decision" not in edited:
                moved.discard("interval_level")
        if moved:
            looser = _weigh([move(fields[n], getattr(old, n), getattr(new, n)) for n in weighed])
            yield Change(
                kind=_METRIC_MOVES[Move.LOOSER if looser is Move.LOOSER else Move.TIGHTER],
                file="metrics.yaml",
                id=metric_id,
                detail=changed(old, new, frozenset(moved)),
            )
        rest = changed(old, new, frozenset(edited - moved))
        if rest:
            yield Change(kind=Kind.RECORD_CHANGED, file="metrics.yaml", id=metric_id, detail=rest)


def records(
    kind: str, base: Mapping[str, object], head: Mapping[str, object], *, weigh: bool = True
) -> Iterator[Change]:
    """A file whose records have no sort of their own, record by record: the fields that move
    its gate by their declaration (a record's own last day moved later, say) in a loosened or
    tightened row, any other field apart; every field a plain change when not `weigh`."""
    file = KINDS[kind].filename
    # What binds or ends an approval loosens only without a new one: approval_review weighs it.
    fields = directed(kind) if weigh and not approval_bound(kind) else ()
    for record_id in sorted(set(base) | set(head)):
        old, new = base.get(record_id), head.get(record_id)
        if old == new:
            continue
        if old is None:
            yield Change(kind=Kind.RECORD_ADDED, file=file, id=record_id, detail=fields_text(new))
        elif new is None:
            yield Change(kind=Kind.RECORD_REMOVED, file=file, id=record_id, detail=fields_text(old))
        else:
            moved = {f.name: move(f, getattr(old, f.name), getattr(new, f.name)) for f in fields}
            weighed = frozenset(name for name, found in moved.items() if found is not None)
            found = _weigh(list(moved.values()))
            if found is not None:
                yield Change(
                    kind=_RECORD_MOVES[found],
                    file=file,
                    id=record_id,
                    detail=changed(old, new, weighed),
                )
            rest = changed(old, new, frozenset(names(old)) - weighed)
            if rest:
                yield Change(kind=Kind.RECORD_CHANGED, file=file, id=record_id, detail=rest)


def baselines(base: HostRecords, head: HostRecords) -> Iterator[Change]:
    """baselines.yaml record by record, each baseline with the numbers it was read with (its
    own, or its saved scorecard's or rows file's, which the caller has filled in). A baseline
    that a regression gate at head compares with, moved the way that lets more runs through by
    its declaration (against the gate's op), is `baseline_loosened`; the other way,
    `baseline_tightened`."""
    fields = directed("baselines")
    for metric_id in sorted(set(base.baselines) | set(head.baselines)):
        old, new = base.baselines.get(metric_id), head.baselines.get(metric_id)
        if old == new:
            continue
        if old is None or new is None:
            kind = Kind.RECORD_ADDED if old is None else Kind.RECORD_REMOVED
            shown = new or old
            yield Change(kind=kind, file="baselines.yaml", id=metric_id, detail=fields_text(shown))
            continue
        # What the saved scorecard holds beyond the numbers (its samples, its interval) is
        # summed up, not printed whole.
        detail = changed(old, new, frozenset(names(old)) - _READ_FROM_FILE)
        if not detail:
            detail = f"what {_source(new)} holds changed; its value, n and standard error did not"
        elif new.rows or new.scorecard:
            detail += f" (read from {_source(new)})"
        threshold = head.thresholds.get(metric_id)
        kind = Kind.RECORD_CHANGED
        if threshold is not None and threshold.regression:
            found = _weigh([
                move(f, getattr(old, f.name), getattr(new, f.name),
                     higher_is_better=threshold.op.higher_is_better)
                for f in fields
                # Loaded records give every baseline a value; one built in code may lack it.
                if getattr(old, f.name) is not None and getattr(new, f.name) is not None
            ])  # fmt: skip
            if found is not None:
                kind = _BASELINE_MOVES[found]
        yield Change(kind=kind, file="baselines.yaml", id=metric_id, detail=detail)


# Filled from the file a baseline names, never from YAML.
_READ_FROM_FILE = frozenset({"saved", "sample_scores"})


def _source(b: BaselineRecord) -> str:
    if b.rows:
        return f"rows '{b.rows}'"
    return f"scorecard '{b.scorecard}'" if b.scorecard else "the record"


def checks(base: HostRecords, head: HostRecords) -> Iterator[Change]:
    """checks.yaml record by record; an edit to a check that gated before, in a field its
    declaration says any edit of may loosen, is `check_changed`."""
    fields = frozenset(f.name for f in directed("checks"))
    for change in records("checks", base.checks, head.checks, weigh=False):
        metric = base.metrics.get(check_metric(change.id))
        gated = metric is not None and metric.status is MetricStatus.GATING
        if change.kind is Kind.RECORD_CHANGED and gated:
            old, new = base.checks[change.id], head.checks[change.id]
            if any(getattr(old, n) != getattr(new, n) for n in fields):
                change = attrs.evolve(change, kind=Kind.CHECK_CHANGED)
        yield change


def success(old: SuccessPolicy, new: SuccessPolicy) -> Iterator[Change]:
    """success.yaml as a whole (an absent file is the default policy): `success_loosened` when
    the new policy lets a run go on that the old one stopped, on any of its parts, whatever the
    others do: fewer gates required, a lower share of gates that must pass (`mode: all` is a
    share of 1), a must_pass id dropped, or more attempts allowed; `success_tightened` for only
    the opposite moves; a plain change when no run's verdict can move (must_pass reordered).
    The parts are weighed as the policy's declaration says, on the terms they ask together."""
    if old == new:
        return
    was, now = _terms(old), _terms(new)
    moves = [move(f, getattr(was, f.name), getattr(now, f.name)) for f in _TERM_FIELDS]
    found = _weigh(moves)
    yield Change(
        kind=Kind.RECORD_CHANGED if found is None else _SUCCESS_MOVES[found],
        file="success.yaml",
        id="success",
        detail=changed(old, new),
    )


@attrs.frozen
class _Terms:
    """What a success policy asks of a run, each part on its own, named for the field that
    declares which way it loosens: the gates that must be enforced, the share of them that must
    pass, the ids that must pass, the latest attempt."""

    min_gates: int
    min_pass_rate: float
    must_pass: frozenset[str]
    max_attempts: int


def _terms(policy: SuccessPolicy) -> _Terms:
    named = frozenset(policy.must_pass)
    share = 1.0 if policy.mode is SuccessMode.ALL else (policy.min_pass_rate or 0.0)
    # Every must_pass id is an enforced gate, so naming k of them asks for k gates at least.
    return _Terms(max(policy.min_gates, len(named)), share, named, policy.max_attempts)


# `mode` is weighed within the share it sets (`all` is a share of 1).
_TERM_FIELDS = tuple(f for f in directed("success") if f.name in attrs.fields_dict(_Terms))
