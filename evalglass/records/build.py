"""Types the raw text of one host-records file into the frozen records of `model.py`, by the field
table and rules of `schema.py`. It reads no files and knows no YAML syntax (`_yaml.py` does).
"""

from __future__ import annotations

import datetime as dt
import enum
import functools
import math
import re
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from evalglass.errors import RecordError
from evalglass.records._scalars import did_you_mean, excerpt, is_placeholder, quote
from evalglass.records._yaml import RawBlock, RawFile, RawValue
from evalglass.records.model import Origin
from evalglass.records.rules import RULES, cross_field_problem
from evalglass.records.schema import FALSE_WORDS, KINDS, TRUE_WORDS, Field, Pattern, Record

_INT = re.compile("[-+]?[0-9]+")
_FLOAT = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_DATE = re.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}")


class _Invalid(Exception):
    """A field's text does not fit its type; the message follows `field: `."""


class _InvalidInRecord(_Invalid):
    """As _Invalid, for a mistake whose message also names the record (a pattern)."""


def _to_str(text: str) -> str:
    if not text:
        # An empty id or version would silently match other empty ones; leave the field out instead.
        raise _Invalid("must not be empty (leave the field out instead)")
    if is_placeholder(text):
        # Quoting a placeholder does not fill it in: who approved, and when, is a person's word.
        raise _Invalid(f"{excerpt(text)} is a placeholder: write the value in its place")
    return text


def _to_pattern(text: str) -> str:
    _to_str(text)
    try:
        # Python warns of sets its future versions may read otherwise ('[['); the pattern is
        # judged by what this Python compiles, and a warning is no verdict on a record.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            re.compile(text)
    except re.error as exc:
        raise _InvalidInRecord(
            f"{excerpt(text)} is not a valid regular expression ({exc})"
        ) from None
    return text


# A count past this is no count a record means; Python would refuse it past 4,300 digits anyway.
_MAX_DIGITS = 18


def _to_int(text: str) -> int:
    if _INT.fullmatch(text) is None:
        raise _Invalid(f"{excerpt(text)} is not an integer")
    if len(text.lstrip("+-").lstrip("0")) > _MAX_DIGITS:
        raise _Invalid(f"{excerpt(text)} is too large (more than {_MAX_DIGITS} digits)")
    return int(text)


def _to_float(text: str) -> float:
    if _FLOAT.fullmatch(text) is None:
        raise _Invalid(f"{excerpt(text)} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise _Invalid(f"{excerpt(text)} is not a finite number")
    return value


def _to_bool(text: str) -> bool:
    word = text.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise _Invalid(f"{excerpt(text)} is not a boolean (write yes or no)")


def _to_date(text: str) -> dt.date:
    try:
        if _DATE.fullmatch(text) is None:
            raise ValueError(text)
        return dt.date.fromisoformat(text)
    except ValueError:
        raise _Invalid(f"{excerpt(text)} is not a date (write YYYY-MM-DD)") from None


def _to_enum(cls: type[enum.Enum]) -> Callable[[str], enum.Enum]:
    members = {member.value: member for member in cls}
    values = list(members)
    allowed = ", ".join(values)

    def convert(text: str) -> enum.Enum:
        member = members.get(text)
        if member is None:
            raise _Invalid(f"{excerpt(text)} is not one of {allowed}{did_you_mean(text, values)}")
        return member

    return convert


def _bounded(convert: Callable[[str], Any], field: Field) -> Callable[[str], Any]:
    if field.min is None and field.max is None:
        return convert
    low, high, above = field.min, field.max, field.min_exclusive

    def checked(text: str) -> Any:
        value = convert(text)
        if low is not None and (value <= low if above else value < low):
            raise _Invalid(f"{excerpt(text)} must be {'above' if above else 'at least'} {low:g}")
        if high is not None and value > high:
            raise _Invalid(f"{excerpt(text)} must be at most {high:g}")
        return value

    return checked


_SCALARS: Mapping[type[Any], Callable[[str], Any]] = {
    str: _to_str,
    int: _to_int,
    float: _to_float,
    bool: _to_bool,
    dt.date: _to_date,
    Pattern: _to_pattern,
}


def _converter(field: Field) -> Callable[[str], Any]:
    if issubclass(field.type, enum.Enum):
        return _to_enum(field.type)
    return _bounded(_SCALARS[field.type], field)


@attrs.frozen
class _Table:
    """The fields of a record class as the loader uses them."""

    converters: Mapping[str, Callable[[str], Any]]  # scalar fields
    blocks: Mapping[str, Field]  # fields written as a block mapping or list
    required: tuple[str, ...]
    allowed: str

    @classmethod
    def of(cls, fields: tuple[Field, ...]) -> _Table:
        return cls(
            converters={f.name: _converter(f) for f in fields if not (f.nested or f.many)},
            blocks={f.name: f for f in fields if f.nested or f.many},
            required=tuple(f.name for f in fields if f.required),
            allowed=", ".join(f.name for f in fields),
        )


@functools.cache
def _table(kind: str) -> _Table:
    return _Table.of(KINDS[kind].fields)


@functools.cache
def _sub_table(kind: str, name: str) -> _Table:
    (field,) = (f for f in KINDS[kind].fields if f.name == name)
    return _Table.of(field.fields)


def build_records(
    kind: str, raw: RawFile, path: str, memo: dict[object, Record] | None = None
) -> dict[str, Record]:
    """Type each raw record of `kind` into its model record; RecordError names the first problem.

    A file of a single-record kind gives at most one record, keyed by the kind. `memo`, kept by
    a caller typing many versions of one file (history), reuses a record typed before from the
    same text at the same lines of the same path: the same record, origin included.
    """
    spec = KINDS[kind]
    table = _table(kind)
    ruled = kind in RULES
    ids = spec.ids
    records: dict[str, Record] = {}
    for record_id, (line, fields) in raw.records.items():
        key = None
        if memo is not None:
            key = (path, record_id, line, raw.blocks, repr(fields))
            known = memo.get(key)
            if known is not None:
                records[record_id] = known
                continue
        if ids is not None and ids.pattern.fullmatch(record_id) is None:
            raise RecordError(
                path,
                f"{spec.noun} name {quote(record_id)} "
                + ids.message.format(id=quote(ids.prefix + record_id)),
                line,
            )
        values = _typed(kind, table, fields, path, line, raw.blocks, record_id)
        if ruled:
            problem = cross_field_problem(kind, values, record_id)
            if problem:
                raise RecordError(path, f"{_owner(kind, record_id)} {problem}", line)
        records[record_id] = spec.record(**values, origin=Origin(path, line))
        if key is not None and memo is not None:
            memo[key] = records[record_id]
    return records


def _owner(kind: str, record_id: str, block: str = "") -> str:
    """The record (or its block mapping `block`) a message is about."""
    spec = KINDS[kind]
    owner = f"the {spec.noun}" if spec.single else f"{spec.noun} {quote(record_id)}"
    return f"{block} of {owner}" if block else owner


def _typed(
    kind: str,
    table: _Table,
    fields: Mapping[str, RawValue],
    path: str,
    line: int,
    blocks: bool,
    record_id: str,
    block: str = "",
) -> dict[str, Any]:
    """The typed values of one record's raw fields (or those of its block mapping `block`)."""
    converters = table.converters
    prefix = f"{block}." if block else ""
    values: dict[str, Any] = {}
    for name, (text, field_line) in fields.items():
        convert = converters.get(name)
        if convert is None:
            field = table.blocks.get(name)
            if field is None:
                hint = did_you_mean(name, [*converters, *table.blocks])
                raise RecordError(
                    path,
                    f"unknown field {quote(name)} in {_owner(kind, record_id, block)}{hint}; "
                    f"allowed fields: {table.allowed}",
                    field_line,
                )
            values[name] = _block(kind, field, text, field_line, record_id, path)
            continue
        if blocks and not isinstance(text, str):
            raise RecordError(
                path,
                f"{prefix}{name}: nested mappings and lists are not allowed; a field holds "
                "one value on its own line",
                _first_line(text),
            )
        try:
            values[name] = convert(text)  # type: ignore[arg-type]
        except _InvalidInRecord as exc:
            owner = _owner(kind, record_id)
            raise RecordError(path, f"{owner}: {prefix}{name}: {exc}", field_line) from None
        except _Invalid as exc:
            raise RecordError(path, f"{prefix}{name}: {exc}", field_line) from None
    for name in table.required:
        if name not in values:
            raise RecordError(
                path,
                f"{_owner(kind, record_id, block)} is missing required field {quote(name)}",
                line,
            )
    return values


def _block(
    kind: str, field: Field, raw: str | RawBlock, line: int, record_id: str, path: str
) -> object:
    """The typed value of a field written as a block: a nested record, or a tuple."""
    if isinstance(raw, str):
        below = (
            "one indented '- item' line per item"
            if field.many
            else f"its fields ({', '.join(f.name for f in field.fields)}) on indented lines"
        )
        if raw == "":
            problem = f"is empty: write {below} below it, or leave the field out"
        else:
            problem = f"must be written as {below} below '{field.name}:', not as {quote(raw)}"
        raise RecordError(path, f"{field.name}: {problem}", line)
    if field.many:
        if not isinstance(raw, list):
            raise RecordError(
                path,
                f"{field.name}: must be a list ('- item' lines), not a mapping",
                _first_line(raw),
            )
        return _items(field, raw, path)
    if not isinstance(raw, dict):
        raise RecordError(
            path,
            f"{field.name}: must be a mapping ('key: value' lines), not a list",
            _first_line(raw),
        )
    values = _typed(
        kind, _sub_table(kind, field.name), raw, path, line, False, record_id, field.name
    )
    broken = cross_field_problem(f"{kind}.{field.name}", values, record_id)
    if broken:
        raise RecordError(path, f"{_owner(kind, record_id, field.name)} {broken}", line)
    return field.type(**values, origin=Origin(path, line))


def _items(field: Field, raw: list[tuple[str, int]], path: str) -> tuple[Any, ...]:
    convert = _converter(field)
    seen: dict[object, int] = {}
    for text, line in raw:
        if text == "":
            raise RecordError(
                path, f"{field.name}: an empty item; write its value or remove it", line
            )
        try:
            item = convert(text)
        except _Invalid as exc:
            raise RecordError(path, f"{field.name}: {exc}", line) from None
        if item in seen:
            raise RecordError(
                path,
                f"{field.name}: {quote(text)} is listed twice (first on line {seen[item]})",
                line,
            )
        seen[item] = line
    return tuple(seen)


def _first_line(block: RawBlock) -> int:
    first = next(iter(block.values())) if isinstance(block, dict) else block[0]
    return first[1]
