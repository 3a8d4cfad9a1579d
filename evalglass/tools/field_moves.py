"""Which way a change of one record field moves a gate, read from the field's declaration in
records/schema.py: looser (it lets more runs through), tighter, or neither. Pure; `diff` says
what a change of a whole record is from these moves.
"""

from __future__ import annotations

import enum

from evalglass.records.fields import DIRECTED
from evalglass.records.schema import KINDS, Field, Loosens, Role


class Move(enum.Enum):
    """One field's change, weighed by its declaration."""

    LOOSER = "looser"
    TIGHTER = "tighter"


def move(field: Field, old: object, new: object, *, higher_is_better: bool = True) -> Move | None:
    """How changing `field` from `old` to `new` moves the gate; None when it does not, by its
    declaration (a plain or authority field, or no change). `higher_is_better` is the direction
    of the bar an AGAINST_OP field is weighed against."""
    loosens = field.loosens
    if old == new:
        return None
    if loosens is Loosens.ANY:
        return Move.LOOSER
    if loosens is Loosens.RANKED:
        return _ranked(field.order.index(old), field.order.index(new))
    if loosens is Loosens.REMOVED:
        return _removed(old, new)
    if loosens in (Loosens.LOWER, Loosens.HIGHER, Loosens.LATER, Loosens.AGAINST_OP):
        # An optional bar left out holds nothing back: the loosest value.
        if old is None or new is None:
            return Move.TIGHTER if old is None else Move.LOOSER
        up = loosens in (Loosens.HIGHER, Loosens.LATER) or (
            loosens is Loosens.AGAINST_OP and not higher_is_better
        )
        grew = new > old  # type: ignore[operator]
        return Move.LOOSER if grew is up else Move.TIGHTER
    return None


def _ranked(old: int, new: int) -> Move:
    return Move.LOOSER if new > old else Move.TIGHTER


def _removed(old: object, new: object) -> Move | None:
    """A list loosens when an item goes, a value or block when it goes; one changed in place is
    no move of its own (what an approval binds is weighed with the approval)."""
    if isinstance(old, tuple | frozenset) and isinstance(new, tuple | frozenset):
        if set(old) - set(new):
            return Move.LOOSER
        return Move.TIGHTER if set(new) - set(old) else None
    if new is None:
        return Move.LOOSER
    return Move.TIGHTER if old is None else None


def directed(kind: str) -> tuple[Field, ...]:
    """A kind's fields whose changes diff weighs one way or the other."""
    return tuple(f for f in KINDS[kind].fields if f.loosens in DIRECTED)


def approval_bound(kind: str) -> bool:
    """Whether the kind's records carry an approval: then what binds or ends it loosens only
    without a new approval, and its expiry is the approval's."""
    return bool(KINDS[kind].having(Role.APPROVAL))


def named(kind: str, *roles: Role) -> frozenset[str]:
    """The names of a kind's fields that declare any of `roles`."""
    return frozenset(f.name for f in KINDS[kind].fields if f.role in roles)
