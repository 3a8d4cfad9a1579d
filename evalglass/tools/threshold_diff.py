"""What an edit to thresholds.yaml does: the bar loosened or tightened, the approval given again,
widened or moved, and every other field apart. Pure; which fields make the bar, the approval and
what it binds is read from the thresholds' declaration in records/schema.py.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from evalglass.numbers import bar_text
from evalglass.records.model import Op, ThresholdRecord
from evalglass.records.schema import KINDS, Loosens, Role
from evalglass.tools import approval_review
from evalglass.tools.diff_changes import Change, Kind, changed, names
from evalglass.tools.field_moves import Move, move

_FILE = "thresholds.yaml"
_FIELDS = KINDS["thresholds"].fields
_APPROVAL_FIELDS = frozenset(f.name for f in _FIELDS if f.role is Role.APPROVAL)
# The fields that make the bar: shown together as the rule, old → new.
_BAR = tuple(f for f in _FIELDS if f.loosens in (Loosens.OP, Loosens.AGAINST_OP, Loosens.HIGHER,
                                                  Loosens.LOWER))  # fmt: skip
_BAR_FIELDS = frozenset(f.name for f in _BAR)
_BINDING_FIELDS = frozenset(f.name for f in _FIELDS if f.role in (Role.BINDS, Role.EXPIRES))
_MOVE_KIND = {Move.LOOSER: Kind.THRESHOLD_LOOSENED, Move.TIGHTER: Kind.THRESHOLD_TIGHTENED}


def thresholds(
    base: Mapping[str, ThresholdRecord], head: Mapping[str, ThresholdRecord]
) -> Iterator[Change]:
    """thresholds.yaml record by record: the bar's move, the approval's change, an approval that
    now covers more than it did, and whatever else changed."""
    for metric_id in sorted(set(base) | set(head)):
        old, new = base.get(metric_id), head.get(metric_id)
        if old == new:
            continue
        if old is None or new is None:
            kind = Kind.RECORD_ADDED if old is None else Kind.RECORD_REMOVED
            shown = new or old
            assert shown is not None
            yield Change(kind=kind, file=_FILE, id=metric_id, detail=rule(shown))
            continue
        yield from _edited(metric_id, old, new)


def _edited(metric_id: str, old: ThresholdRecord, new: ThresholdRecord) -> Iterator[Change]:
    direction = _direction(old, new)
    if direction is not None:
        yield Change(kind=direction, file=_FILE, id=metric_id, detail=f"{rule(old)} → {rule(new)}")
    if any(getattr(old, name) != getattr(new, name) for name in _APPROVAL_FIELDS):
        yield Change(
            kind=Kind.APPROVAL_CHANGED,
            file=_FILE,
            id=metric_id,
            detail=f"{approval_review.approval_text(old)} → {approval_review.approval_text(new)}",
        )
    loosened = approval_review.loosened(old, new)
    if loosened:
        yield Change(kind=Kind.APPROVAL_LOOSENED, file=_FILE, id=metric_id, detail=loosened)
    # Whatever else changed (the warn bound; a rule rewritten without changing what passes;
    # what an approval is for, moved with a new approval) is still shown: a reviewer sees
    # every edit.
    covered = _APPROVAL_FIELDS | (_BAR_FIELDS if direction is not None else frozenset())
    if loosened:
        covered |= _BINDING_FIELDS
    rest = changed(old, new, frozenset(names(old)) - covered)
    if rest:
        yield Change(kind=Kind.RECORD_CHANGED, file=_FILE, id=metric_id, detail=rest)


def _direction(old: ThresholdRecord, new: ThresholdRecord) -> Kind | None:
    """Loosened when the new bar lets through anything the old one stopped, on any of its parts
    (the absolute value, the allowed drop, the allowed relative drop), whatever the others do;
    else tightened when it stops anything the old one let through; None when neither."""
    if old.op.higher_is_better != new.op.higher_is_better:
        return Kind.THRESHOLD_LOOSENED  # a flipped direction is a new rule: never quietly tighter
    moves = set()
    for field in _BAR:
        if field.loosens is Loosens.AGAINST_OP:
            moves.add(_against_op(old, new, field.name))
        elif field.loosens is not Loosens.OP:  # the op is weighed with the bar it qualifies
            moves.add(move(field, getattr(old, field.name), getattr(new, field.name)))
    for found in (Move.LOOSER, Move.TIGHTER):
        if found in moves:
            return _MOVE_KIND[found]
    return None


def _against_op(old: ThresholdRecord, new: ThresholdRecord, name: str) -> Move | None:
    was, now = getattr(old, name), getattr(new, name)
    if was is None or now is None:
        # A bar added tightens, a bar removed loosens. Without a value the op's strictness
        # decides nothing: a regression bar compares strictly whatever it says.
        if was == now:
            return None
        return Move.TIGHTER if was is None else Move.LOOSER
    sign = 1 if old.op.higher_is_better else -1
    # Strict and non-strict at one value differ by a hair: `>` to `>=` loosens.
    old_key = (sign * was, old.op in (Op.GT, Op.LT))
    new_key = (sign * now, new.op in (Op.GT, Op.LT))
    if new_key == old_key:
        return None
    return Move.LOOSER if new_key < old_key else Move.TIGHTER


def rule(t: ThresholdRecord) -> str:
    """`>= 0.85 (approved)`: the bar and the approval state."""
    bar = bar_text(t.op.value, t.value, t.max_drop, t.max_relative_drop) or f"{t.op.value} (no bar)"
    return f"{bar} ({t.approval.value})"
