"""What one host-record field declares: how its text is typed, and what it means to the tools
that read it (which way of changing it loosens a gate, whether it is a date that expires or
what an approval binds, the words the docs' field tables print). Values only: `schema.py` holds
the table of every kind's fields; `diff`, `doctor`, `explain` and scripts/docs.py read it.
"""

from __future__ import annotations

import datetime as dt
import enum
from typing import Any

import attrs

from evalglass.reasons import AuthorityCode


class Pattern(str):
    """The type of a field that holds a regular expression: text that compiles (kept as text)."""

    __slots__ = ()


class Role(enum.Enum):
    """What a field is to the rest of its record, beyond its value."""

    PLAIN = "plain"
    # Whether, by whom or when the record was approved: a change to one is a new approval.
    APPROVAL = "approval"
    # What the record's approval was given for: moved without a new approval, it vouches for
    # what nobody approved.
    BINDS = "binds"
    # The last day the record holds: past it, `expired` is raised; doctor and diff warn ahead.
    EXPIRES = "expires"


class Loosens(enum.Enum):
    """Which change of a field's value lets more runs through a gate: what `diff
    --fail-on-loosen` refuses. An absent optional bar (None) is the loosest value of a LOWER,
    HIGHER, LATER or AGAINST_OP field."""

    # What it does to a metric's authority is the resolver's to say: diff shows the outcome
    # it moves (gains or loses authority), and the edit itself as a plain change.
    AUTHORITY = "authority"
    # It changes no gate's pass (a warn bound, who approved): a plain change.
    NEVER = "never"
    # It changes what passes, in no one direction diff can rank: a plain change.
    UNRANKED = "unranked"
    LOWER = "lower"  # a smaller number loosens
    HIGHER = "higher"  # a larger number loosens
    LATER = "later"  # a later date loosens, and so does removing it
    AGAINST_OP = "against_op"  # a bar: lower for `>=`/`>`, higher for `<=`/`<`
    OP = "op"  # a threshold's op: a flipped direction, or a strict op made non-strict
    REMOVED = "removed"  # removing it, or an item or a part of it, loosens
    RANKED = "ranked"  # along the field's `order`, strictest first
    ANY = "any"  # any edit may loosen: no one can tell a stricter definition from a weaker


# The loosenings a move can be weighed by, one value against another.
DIRECTED = frozenset({
    Loosens.LOWER, Loosens.HIGHER, Loosens.LATER, Loosens.AGAINST_OP, Loosens.REMOVED,
    Loosens.RANKED, Loosens.ANY,
})  # fmt: skip


@attrs.frozen(kw_only=True)
class Doc:
    """A field's row in docs/host-records.md: its meaning, and the required and values columns
    where the field's type, bounds and default do not say them alone."""

    meaning: str
    required: str | None = None
    values: str | None = None


@attrs.frozen(kw_only=True)
class Field:
    """One field of a record kind: how its text is typed, whether it may be left out, and what
    it means.

    `type` is str, int, float, bool, dt.date, Pattern or an Enum class; or, for a field written
    as a block mapping, the attrs class its `fields` build. `many` makes it a block list of
    `type` values (a tuple, no repeats). Numbers lie in [min, max], or (min, max] when
    `min_exclusive`. `loosens` says which change lets more runs through (`order`, strictest
    first, for a RANKED one); `role` whether it approves, binds an approval or expires, and
    `expired` the reason code a date past raises.
    """

    name: str
    type: type[Any]
    loosens: Loosens
    doc: Doc
    required: bool = False
    default: object = None
    min: float | None = None
    max: float | None = None
    min_exclusive: bool = False
    many: bool = False
    fields: tuple[Field, ...] = ()
    role: Role = Role.PLAIN
    order: tuple[object, ...] = ()
    expired: AuthorityCode | None = None

    def __attrs_post_init__(self) -> None:
        """Refuse a declaration diff, doctor and explain could not read: a bug in the table."""
        if (self.loosens is Loosens.RANKED) != bool(self.order):
            raise ValueError(f"{self.name}: a RANKED field, and only one, gives its order")
        expires = self.role is Role.EXPIRES
        if expires != (self.expired is not None) or (expires and self.type is not dt.date):
            raise ValueError(f"{self.name}: an EXPIRES field is a date naming the code it raises")

    @property
    def nested(self) -> bool:
        """Whether the field is written as a block mapping of sub-fields."""
        return bool(self.fields)
