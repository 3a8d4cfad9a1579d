"""A checklist's values: each edit to a records file (what to write, what it asserts), the order
of the files, how a value is written in YAML, and the edits made to an in-memory copy. It derives
nothing (`checklist.py` does) and never writes a file (`records_patch.py` shows the edits as a
diff).
"""

from __future__ import annotations

import datetime as dt
import enum
import re
from collections.abc import Mapping
from typing import Any

import attrs

from evalglass.reasons import Reason
from evalglass.records.model import HostRecords, Op
from evalglass.records.schema import KINDS

# Foundations first, each file to its own owners; the metric's own status is the last switch.
ORDER = ("datasets", "policies", "judges", "baselines", "thresholds", "checks", "metrics")
_PLAIN_TEXT = re.compile(r"[A-Za-z_][A-Za-z0-9_./-]*")
_YAML_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "y", "n", "null"})
# A value still to be chosen (`<version>`), shown as the placeholder it is.
_STAND_IN = re.compile(r"<[^<>]+>")


class Action(enum.Enum):
    """Whether an edit changes a field of an existing record or adds to a new one."""

    EDIT = "edit"  # a field of a record that exists
    ADD = "add"  # a field of a record that does not exist yet


@attrs.frozen(kw_only=True)
class Edit:
    """One field to write in one records file. When `choose` is set, the person picks the value
    (`value` is only a stand-in, so the edited copy can be resolved). `assumes` are fields the
    in-memory copy also takes for what the edit asserts but YAML does not hold: the content of
    the calibration evidence file the person points to."""

    kind: str
    record: str
    field: str
    value: object
    action: Action
    asserts: str
    choose: str | None = None
    assumes: tuple[tuple[str, object], ...] = ()

    @property
    def file(self) -> str:
        """The records file the edit goes in."""
        return KINDS[self.kind].filename

    @property
    def key(self) -> str:
        """`record.field`, the edit's name in the checklist."""
        return f"{self.record}.{self.field}"

    @property
    def text(self) -> str:
        """The value as it would be written in YAML, or what to choose in angle brackets; a
        block's sub-fields one after another."""
        if self.choose:
            return f"<{self.choose}>"
        if isinstance(self.value, Mapping):
            return ", ".join(f"{key}: {yaml_text(item)}" for key, item in self.value.items())
        return yaml_text(self.value)


@attrs.frozen
class Checklist:
    """The edits, in order; `outside` is what no records edit clears: the run must show it."""

    edits: tuple[Edit, ...] = ()
    outside: tuple[Reason, ...] = ()


def scalar_text(value: object) -> str:
    """A record's value as YAML spells it, before any quoting: an enum by its value, a bool as
    yes or no, a date in ISO form, and a number exactly (a float as Python reads it back)."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float):
        return repr(value)
    return str(value)


def yaml_text(value: object) -> str:
    """A value as a host would write it: quoted wherever plain YAML would misread it."""
    if isinstance(value, Op):
        return f"'{value.value}'"
    text = scalar_text(value)
    if isinstance(value, enum.Enum | bool | dt.date | int | float):
        return text
    if _STAND_IN.fullmatch(text) or (
        _PLAIN_TEXT.fullmatch(text) and text.lower() not in _YAML_WORDS
    ):
        return text
    return "'" + text.replace("'", "''") + "'"


def _typed(edit: Edit) -> object:
    """The edit's value as the record holds it: a block's mapping as its record class."""
    if isinstance(edit.value, Mapping):
        (field,) = (f for f in KINDS[edit.kind].fields if f.name == edit.field)
        return field.type(**edit.value)
    return edit.value


def apply(records: HostRecords, edits: tuple[Edit, ...]) -> HostRecords:
    """A copy of `records` with the edits made: in memory only, for a hypothetical resolve."""
    grouped: dict[tuple[str, str], dict[str, object]] = {}
    for edit in edits:
        fields = grouped.setdefault((edit.kind, edit.record), {})
        fields[edit.field] = _typed(edit)
        fields.update(edit.assumes)
    # Only the kinds edited are copied: the others (and the success policy) carry over as they are.
    kinds: dict[str, Any] = {kind: dict(getattr(records, kind)) for kind, _ in grouped}
    for (kind, record_id), fields in grouped.items():
        existing = kinds[kind].get(record_id)
        if existing is None:
            kinds[kind][record_id] = KINDS[kind].record(**fields)  # type: ignore[arg-type]
        else:
            kinds[kind][record_id] = attrs.evolve(existing, **fields)
    return attrs.evolve(records, **kinds)
