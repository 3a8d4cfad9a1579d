"""What a change to the host records does to authority: every change a reviewer must see.

Pure: it compares two HostRecords (and, given evidence, the authority each side resolves) and
returns the changes. Loading records from git refs is the shell's job.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from evalglass.core.authority import Outcome, resolve
from evalglass.evidence.model import Evidence
from evalglass.metric_ids import check_metric, check_name
from evalglass.numbers import bar_text
from evalglass.records.model import (
    Approval,
    ApprovedFor,
    BaselineRecord,
    Decision,
    HostRecords,
    MetricRecord,
    MetricStatus,
    Op,
    Scale,
    SuccessMode,
    SuccessPolicy,
    ThresholdRecord,
)
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
    # A gating check's definition edited: no one can tell a stricter command from a weaker one.
    CHECK_CHANGED = "check_changed"
    # A regression gate's baseline value moved: the way that lets more runs through, or not.
    BASELINE_LOOSENED = "baseline_loosened"
    BASELINE_TIGHTENED = "baseline_tightened"
    # success.yaml edited so that a run the old policy failed can pass, or the reverse.
    SUCCESS_LOOSENED = "success_loosened"
    SUCCESS_TIGHTENED = "success_tightened"


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
            if c.kind
            in (
                Kind.THRESHOLD_LOOSENED,
                Kind.METRIC_LOOSENED,
                Kind.APPROVAL_LOOSENED,
                Kind.CHECK_CHANGED,
                Kind.BASELINE_LOOSENED,
                Kind.SUCCESS_LOOSENED,
            )
            or (c.kind is Kind.GAINS_AUTHORITY and c.unapproved)
        )


_RANK = {Outcome.INFORMATIONAL: 0, Outcome.BLOCKED: 1, Outcome.CAN_GATE: 2}
_FILES = ("metrics", "thresholds", "datasets", "judges", "policies")


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
    date), then record by record, then the approvals the change makes stale and those at head
    expiring within approval_review.EXPIRY_NOTICE of the evaluation date."""
    changes = [*_authority(base, head, evidence or Evidence(), evaluated_on)]
    changes += _thresholds(base.thresholds, head.thresholds)
    changes += _metrics(base.metrics, head.metrics)
    for kind in _FILES:
        if kind not in ("thresholds", "metrics"):
            changes += _records(kind, getattr(base, kind), getattr(head, kind))
    changes += _baselines(base, head)
    changes += _checks(base, head)
    changes += _success(base.success or SuccessPolicy(), head.success or SuccessPolicy())
    changes += [
        Change(kind=Kind.APPROVAL_STALE, file="thresholds.yaml", id=metric_id, detail=detail)
        for metric_id, detail in approval_review.made_stale(base, head)
    ]
    changes += [
        Change(
            kind=Kind.APPROVAL_EXPIRING,
            file="thresholds.yaml",
            id=metric_id,
            detail=f"{_approval(head.thresholds[metric_id])}: {when}",
        )
        for metric_id, when, _ in approval_review.expiring(head, evaluated_on)
    ]
    return RecordsDiff(base=base_name, head=head_name, changes=tuple(changes))


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


def _thresholds(
    base: Mapping[str, ThresholdRecord], head: Mapping[str, ThresholdRecord]
) -> Iterator[Change]:
    for metric_id in sorted(set(base) | set(head)):
        old, new = base.get(metric_id), head.get(metric_id)
        if old == new:
            continue
        if old is None or new is None:
            kind = Kind.RECORD_ADDED if old is None else Kind.RECORD_REMOVED
            shown = new or old
            assert shown is not None
            yield Change(kind=kind, file="thresholds.yaml", id=metric_id, detail=_rule(shown))
            continue
        direction = _direction(old, new)
        if direction is not None:
            yield Change(
                kind=direction,
                file="thresholds.yaml",
                id=metric_id,
                detail=f"{_rule(old)} → {_rule(new)}",
            )
        approval = (old.approval, old.approved_by, old.approved_on)
        if approval != (new.approval, new.approved_by, new.approved_on):
            yield Change(
                kind=Kind.APPROVAL_CHANGED,
                file="thresholds.yaml",
                id=metric_id,
                detail=f"{_approval(old)} → {_approval(new)}",
            )
        loosened = approval_review.loosened(old, new)
        if loosened:
            yield Change(
                kind=Kind.APPROVAL_LOOSENED, file="thresholds.yaml", id=metric_id, detail=loosened
            )
        # Whatever else changed (the warn bound; a rule rewritten without changing what passes;
        # what an approval is for, moved with a new approval) is still shown: a reviewer sees
        # every edit.
        covered = _APPROVAL_FIELDS | (_BAR_FIELDS if direction is not None else frozenset())
        if loosened:
            covered |= _BINDING_FIELDS
        rest = [
            f"{name}: {_text(getattr(old, name))} → {_text(getattr(new, name))}"
            for name in _names(old)
            if name not in covered and getattr(old, name) != getattr(new, name)
        ]
        if rest:
            yield Change(
                kind=Kind.RECORD_CHANGED,
                file="thresholds.yaml",
                id=metric_id,
                detail="; ".join(rest),
            )


_APPROVAL_FIELDS = frozenset({"approval", "approved_by", "approved_on"})
_BAR_FIELDS = frozenset({"op", "value", "max_drop", "max_relative_drop"})
_BINDING_FIELDS = frozenset({"approved_for", "expires_on"})


def _direction(old: ThresholdRecord, new: ThresholdRecord) -> Kind | None:
    """Loosened when the new bar lets through anything the old one stopped, on any of its parts
    (the absolute value, the allowed drop, the allowed relative drop), whatever the others do;
    else tightened when it stops anything the old one let through; None when neither."""
    if old.op.higher_is_better != new.op.higher_is_better:
        return Kind.THRESHOLD_LOOSENED  # a flipped direction is a new rule: never quietly tighter
    moves = {
        _absolute_move(old, new),
        _allowance_move(old.max_drop, new.max_drop),
        _allowance_move(old.max_relative_drop, new.max_relative_drop),
    }
    for kind in (Kind.THRESHOLD_LOOSENED, Kind.THRESHOLD_TIGHTENED):
        if kind in moves:
            return kind
    return None


def _absolute_move(old: ThresholdRecord, new: ThresholdRecord) -> Kind | None:
    if old.value is None or new.value is None:
        # A bar added tightens, a bar removed loosens. Without a value the op's strictness
        # decides nothing: a regression bar compares strictly whatever it says.
        if old.value == new.value:
            return None
        return Kind.THRESHOLD_TIGHTENED if old.value is None else Kind.THRESHOLD_LOOSENED
    sign = 1 if old.op.higher_is_better else -1
    # Strict and non-strict at one value differ by a hair: `>` to `>=` loosens.
    old_key = (sign * old.value, old.op in (Op.GT, Op.LT))
    new_key = (sign * new.value, new.op in (Op.GT, Op.LT))
    if new_key == old_key:
        return None
    return Kind.THRESHOLD_LOOSENED if new_key < old_key else Kind.THRESHOLD_TIGHTENED


def _allowance_move(old: float | None, new: float | None) -> Kind | None:
    """A regression allowance: a larger allowed drop loosens; removing the bar loosens."""
    if old == new:
        return None
    if old is None or new is None:
        return Kind.THRESHOLD_TIGHTENED if old is None else Kind.THRESHOLD_LOOSENED
    return Kind.THRESHOLD_LOOSENED if new > old else Kind.THRESHOLD_TIGHTENED


# How each metrics.yaml field that decides what passes moves when it loosens the gate: a key
# that grows as the gate lets more through.
_METRIC_LOOSER: Mapping[str, Callable[[Any], float]] = {
    "min_samples": lambda n: -n,
    "decision": lambda d: 1.0 if d is Decision.POINT else 0.0,  # the point skips the interval
    "interval_level": lambda level: -level,  # a lower level, a narrower interval
    "max_missing_fraction": lambda f: f,
    "requires_baseline": lambda required: 0.0 if required else 1.0,
    # A declared proportion lets a value and n gate with no interval of their own; a unit scale
    # only cuts an interval back to [0, 1]. Declaring either can let a run through.
    "scale": lambda scale: {None: 0.0, Scale.UNIT: 1.0, Scale.PROPORTION: 2.0}[scale],
}


def _metrics(
    base: Mapping[str, MetricRecord], head: Mapping[str, MetricRecord]
) -> Iterator[Change]:
    """A metric record edited: the fields that make its gate let through more (loosened) or less
    (tightened), in one row whose kind the loosest move decides; any other field apart."""
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
                detail=_fields(new or old),
            )
            continue
        changed = {name for name in _names(old) if getattr(old, name) != getattr(new, name)}
        directed = changed & _METRIC_LOOSER.keys()
        weighed = set(directed)
        if Decision.POINT in (old.decision, new.decision):
            # A point rule compares no interval: between two point rules the level is a plain
            # edit, and a move to or from a point rule outweighs whatever the level does.
            weighed.discard("interval_level")
            if "decision" not in changed:
                directed.discard("interval_level")
        if directed:
            looser = any(
                _METRIC_LOOSER[name](getattr(new, name)) > _METRIC_LOOSER[name](getattr(old, name))
                for name in weighed
            )
            kind = Kind.METRIC_LOOSENED if looser else Kind.METRIC_TIGHTENED
            yield Change(
                kind=kind,
                file="metrics.yaml",
                id=metric_id,
                detail=_changed(old, new, directed.__contains__),
            )
        rest = _changed(old, new, (changed - directed).__contains__)
        if rest:
            yield Change(kind=Kind.RECORD_CHANGED, file="metrics.yaml", id=metric_id, detail=rest)


def _changed(old: object, new: object, which: Callable[[str], bool]) -> str:
    return "; ".join(
        f"{name}: {_text(getattr(old, name))} → {_text(getattr(new, name))}"
        for name in _names(old)
        if which(name) and getattr(old, name) != getattr(new, name)
    )


def _rule(t: ThresholdRecord) -> str:
    bar = bar_text(t.op.value, t.value, t.max_drop, t.max_relative_drop) or f"{t.op.value} (no bar)"
    return f"{bar} ({t.approval.value})"


def _approval(t: ThresholdRecord) -> str:
    return approval_review.approval_text(t)


def _records(kind: str, base: Mapping[str, object], head: Mapping[str, object]) -> Iterator[Change]:
    file = f"{kind}.yaml"
    for record_id in sorted(set(base) | set(head)):
        old, new = base.get(record_id), head.get(record_id)
        if old == new:
            continue
        if old is None:
            yield Change(kind=Kind.RECORD_ADDED, file=file, id=record_id, detail=_fields(new))
        elif new is None:
            yield Change(kind=Kind.RECORD_REMOVED, file=file, id=record_id, detail=_fields(old))
        else:
            yield Change(
                kind=Kind.RECORD_CHANGED,
                file=file,
                id=record_id,
                detail=_changed(old, new, lambda name: True),
            )


def _baselines(base: HostRecords, head: HostRecords) -> Iterator[Change]:
    """baselines.yaml record by record, each baseline with the numbers it was read with (its
    own, or its saved scorecard's or rows file's, which the caller has filled in). The value of
    a baseline that a regression gate at head compares with moving the way that lets more runs
    through is `baseline_loosened`; the other way, `baseline_tightened`."""
    for metric_id in sorted(set(base.baselines) | set(head.baselines)):
        old, new = base.baselines.get(metric_id), head.baselines.get(metric_id)
        if old == new:
            continue
        if old is None or new is None:
            kind = Kind.RECORD_ADDED if old is None else Kind.RECORD_REMOVED
            shown = new or old
            yield Change(kind=kind, file="baselines.yaml", id=metric_id, detail=_fields(shown))
            continue
        # What the saved scorecard holds beyond the numbers (its samples, its interval) is
        # summed up, not printed whole.
        detail = _changed(old, new, lambda name: name not in _READ_FROM_FILE)
        if not detail:
            detail = f"what {_source(new)} holds changed; its value, n and standard error did not"
        elif new.rows or new.scorecard:
            detail += f" (read from {_source(new)})"
        threshold = head.thresholds.get(metric_id)
        kind = Kind.RECORD_CHANGED
        moved = None if old.value is None or new.value is None else new.value - old.value
        # Loaded records give every baseline a value; one built in code may lack it.
        if threshold is not None and threshold.regression and moved:
            worse = moved < 0 if threshold.op.higher_is_better else moved > 0
            kind = Kind.BASELINE_LOOSENED if worse else Kind.BASELINE_TIGHTENED
        yield Change(kind=kind, file="baselines.yaml", id=metric_id, detail=detail)


# Filled from the file a baseline names, never from YAML.
_READ_FROM_FILE = frozenset({"saved", "sample_scores"})


def _source(b: BaselineRecord) -> str:
    if b.rows:
        return f"rows '{b.rows}'"
    return f"scorecard '{b.scorecard}'" if b.scorecard else "the record"


def _checks(base: HostRecords, head: HostRecords) -> Iterator[Change]:
    """checks.yaml record by record; an edit to a check that gated before is `check_changed`."""
    for change in _records("checks", base.checks, head.checks):
        metric = base.metrics.get(check_metric(change.id))
        gated = metric is not None and metric.status is MetricStatus.GATING
        if change.kind is Kind.RECORD_CHANGED and gated:
            change = attrs.evolve(change, kind=Kind.CHECK_CHANGED)
        yield change


def _success(old: SuccessPolicy, new: SuccessPolicy) -> Iterator[Change]:
    """success.yaml as a whole (an absent file is the default policy): `success_loosened` when
    the new policy lets a run go on that the old one stopped, on any of its parts, whatever the
    others do: fewer gates required, a lower share of gates that must pass (`mode: all` is a
    share of 1), a must_pass id dropped, or more attempts allowed; `success_tightened` for only
    the opposite moves; a plain change when no run's verdict can move (must_pass reordered)."""
    if old == new:
        return
    was, now = _terms(old), _terms(new)
    looser = (
        now.gates < was.gates
        or now.share < was.share
        or bool(was.named - now.named)
        or now.attempts > was.attempts
    )
    tighter = (
        now.gates > was.gates
        or now.share > was.share
        or bool(now.named - was.named)
        or now.attempts < was.attempts
    )
    kind = Kind.SUCCESS_LOOSENED if looser else Kind.SUCCESS_TIGHTENED
    yield Change(
        kind=kind if looser or tighter else Kind.RECORD_CHANGED,
        file="success.yaml",
        id="success",
        detail=_changed(old, new, lambda name: True),
    )


@attrs.frozen
class _Terms:
    """What a success policy asks of a run, each part on its own: the gates that must be
    enforced, the share of them that must pass, the ids that must pass, the latest attempt."""

    gates: int
    share: float
    named: frozenset[str]
    attempts: int


def _terms(policy: SuccessPolicy) -> _Terms:
    named = frozenset(policy.must_pass)
    share = 1.0 if policy.mode is SuccessMode.ALL else (policy.min_pass_rate or 0.0)
    # Every must_pass id is an enforced gate, so naming k of them asks for k gates at least.
    return _Terms(max(policy.min_gates, len(named)), share, named, policy.max_attempts)


def _names(record: object) -> list[str]:
    return [a.name for a in attrs.fields(type(record)) if a.eq]  # type: ignore[arg-type]


def _fields(record: object) -> str:
    return ", ".join(
        f"{name}: {_text(getattr(record, name))}"
        for name in _names(record)
        if getattr(record, name) is not None
    )


def _text(value: object) -> str:
    if isinstance(value, ApprovedFor):
        return f"({approval_review.binding_text(value)})"
    return str(value.value) if isinstance(value, enum.Enum) else str(value)
