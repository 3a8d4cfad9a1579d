"""The field table of every host-record kind: it types raw field text into the frozen records of
`model.py`, and builds the equivalent strictyaml schema that serves as the reference specification.
It reads no files and knows no YAML syntax (`_yaml.py` does).
"""

from __future__ import annotations

import datetime as dt
import enum
import functools
import math
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from evalglass.errors import RecordError
from evalglass.records._yaml import RawRecord, did_you_mean, is_placeholder, quote
from evalglass.records.model import (
    Approval,
    BaselineRecord,
    Calibration,
    DatasetRecord,
    DatasetStatus,
    Decision,
    JudgeRecord,
    MetricRecord,
    MetricStatus,
    Op,
    Origin,
    Policy,
    PolicyRecord,
    ThresholdRecord,
)

if TYPE_CHECKING:
    import strictyaml  # type: ignore[import-untyped]

Record = (
    MetricRecord | ThresholdRecord | DatasetRecord | JudgeRecord | PolicyRecord | BaselineRecord
)

# strictyaml's own spellings, so both readers agree on every boolean.
TRUE_WORDS = frozenset({"yes", "true", "on", "1", "y"})
FALSE_WORDS = frozenset({"no", "false", "off", "0", "n"})
_INT = re.compile("[-+]?[0-9]+")
_FLOAT = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_DATE = re.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}")


@attrs.frozen(kw_only=True)
class Field:
    """One field of a record kind: how its text is typed, and whether it may be left out."""

    name: str
    type: type[Any]  # str, int, float, bool, dt.date, or an Enum class
    required: bool
    default: object = None
    min: float | None = None
    max: float | None = None


@attrs.frozen(kw_only=True)
class Kind:
    """A record kind: its file's top-level key, the record class it builds, and its fields."""

    kind: str
    noun: str
    record: type[Record]
    fields: tuple[Field, ...]

    @property
    def filename(self) -> str:
        return f"{self.kind}.yaml"


def _field(
    name: str, type_: type[Any], *, min: float | None = None, max: float | None = None
) -> Field:
    return Field(name=name, type=type_, required=False, min=min, max=max)


def _kind(kind: str, noun: str, record: type[Record], *fields: Field) -> Kind:
    # Required-ness and defaults come from the model, so the table and the model cannot drift.
    model = attrs.fields_dict(record)

    def bind(field: Field) -> Field:
        default = model[field.name].default
        if default is attrs.NOTHING:
            return attrs.evolve(field, required=True, default=None)
        return attrs.evolve(field, required=False, default=default)

    return Kind(kind=kind, noun=noun, record=record, fields=tuple(bind(f) for f in fields))


KINDS: Mapping[str, Kind] = {
    spec.kind: spec
    for spec in (
        _kind(
            "metrics", "metric", MetricRecord,
            _field("status", MetricStatus),
            _field("dataset", str),
            _field("judge", str),
            _field("requires_baseline", bool),
            _field("min_samples", int, min=1),
            _field("decision", Decision),
            _field("max_missing_fraction", float, min=0, max=1),
            _field("interval_level", float, min=0.5, max=0.999),
        ),
        _kind(
            "thresholds", "threshold", ThresholdRecord,
            _field("op", Op),
            _field("value", float),
            _field("max_drop", float, min=0),
            _field("max_relative_drop", float, min=0, max=1),
            _field("warn_value", float),
            _field("approval", Approval),
            _field("approved_by", str),
            _field("approved_on", dt.date),
        ),
        _kind(
            "datasets", "dataset", DatasetRecord,
            _field("status", DatasetStatus),
            _field("version", str),
            _field("fingerprint", str),
        ),
        _kind(
            "judges", "judge", JudgeRecord,
            _field("model", str),
            _field("calibration", Calibration),
            _field("evidence", str),
        ),
        _kind("policies", "policy", PolicyRecord, _field("policy", Policy)),
        _kind(
            "baselines", "baseline", BaselineRecord,
            _field("value", float),
            _field("n", int, min=1),
            _field("stderr", float, min=0),
            _field("dataset_version", str),
            _field("fingerprint", str),
            _field("judge", str),
            _field("scorecard", str),
        ),
    )
}  # fmt: skip


class _Invalid(Exception):
    """A field's text does not fit its type; the message follows `field: `."""


def _to_str(text: str) -> str:
    if not text:
        # An empty id or version would silently match other empty ones; leave the field out instead.
        raise _Invalid("must not be empty (leave the field out instead)")
    if is_placeholder(text):
        # Quoting a placeholder does not fill it in: who approved, and when, is a person's word.
        raise _Invalid(f"{quote(text)} is a placeholder: write the value in its place")
    return text


def _to_int(text: str) -> int:
    if _INT.fullmatch(text) is None:
        raise _Invalid(f"{quote(text)} is not an integer")
    return int(text)


def _to_float(text: str) -> float:
    if _FLOAT.fullmatch(text) is None:
        raise _Invalid(f"{quote(text)} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise _Invalid(f"{quote(text)} is not a finite number")
    return value


def _to_bool(text: str) -> bool:
    word = text.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise _Invalid(f"{quote(text)} is not a boolean (write yes or no)")


def _to_date(text: str) -> dt.date:
    try:
        if _DATE.fullmatch(text) is None:
            raise ValueError(text)
        return dt.date.fromisoformat(text)
    except ValueError:
        raise _Invalid(f"{quote(text)} is not a date (write YYYY-MM-DD)") from None


def _to_enum(cls: type[enum.Enum]) -> Callable[[str], enum.Enum]:
    members = {member.value: member for member in cls}
    values = list(members)
    allowed = ", ".join(values)

    def convert(text: str) -> enum.Enum:
        member = members.get(text)
        if member is None:
            raise _Invalid(f"{quote(text)} is not one of {allowed}{did_you_mean(text, values)}")
        return member

    return convert


def _bounded(convert: Callable[[str], Any], field: Field) -> Callable[[str], Any]:
    if field.min is None and field.max is None:
        return convert
    low, high = field.min, field.max

    def checked(text: str) -> Any:
        value = convert(text)
        if low is not None and value < low:
            raise _Invalid(f"{quote(text)} must be at least {low:g}")
        if high is not None and value > high:
            raise _Invalid(f"{quote(text)} must be at most {high:g}")
        return value

    return checked


_SCALARS: Mapping[type[Any], Callable[[str], Any]] = {
    str: _to_str,
    int: _to_int,
    float: _to_float,
    bool: _to_bool,
    dt.date: _to_date,
}


def _converter(field: Field) -> Callable[[str], Any]:
    if issubclass(field.type, enum.Enum):
        return _to_enum(field.type)
    return _bounded(_SCALARS[field.type], field)


@functools.cache
def _converters(kind: str) -> Mapping[str, Callable[[str], Any]]:
    return {field.name: _converter(field) for field in KINDS[kind].fields}


def build_records(kind: str, raw: Mapping[str, RawRecord], path: str) -> dict[str, Record]:
    """Type each raw record of `kind` into its model record; RecordError names the first problem."""
    spec = KINDS[kind]
    converters = _converters(kind)
    required = [field.name for field in spec.fields if field.required]
    allowed = ", ".join(field.name for field in spec.fields)
    records: dict[str, Record] = {}
    for record_id, (line, fields) in raw.items():
        values: dict[str, Any] = {}
        for name, (text, field_line) in fields.items():
            convert = converters.get(name)
            if convert is None:
                hint = did_you_mean(name, list(converters))
                raise RecordError(
                    path,
                    f"unknown field {quote(name)} in {spec.noun} {quote(record_id)}{hint}; "
                    f"allowed fields: {allowed}",
                    field_line,
                )
            try:
                values[name] = convert(text)
            except _Invalid as exc:
                raise RecordError(path, f"{name}: {exc}", field_line) from None
        for name in required:
            if name not in values:
                raise RecordError(
                    path,
                    f"{spec.noun} {quote(record_id)} is missing required field {quote(name)}",
                    line,
                )
        problem = cross_field_problem(kind, values)
        if problem:
            raise RecordError(path, f"{spec.noun} {quote(record_id)} {problem}", line)
        records[record_id] = spec.record(**values, origin=Origin(path, line))
    return records


@attrs.frozen
class RequiredWhen:
    """When `field` holds `value`, every field in `required` must be given."""

    field: str
    value: str
    required: tuple[str, ...]
    why: str


@attrs.frozen
class AnyOf:
    """At least one of `fields` must be given."""

    fields: tuple[str, ...]
    message: str


@attrs.frozen
class EitherOr:
    """Either `single` alone, or every one of `group`: never both, never neither."""

    single: str
    group: tuple[str, ...]


Rule = RequiredWhen | AnyOf | EitherOr

# Rules between fields of one record, which no per-field type can say. Stated as data so the
# loader and the JSON Schema (json_schema.py) derive from the same place.
RULES: Mapping[str, tuple[Rule, ...]] = {
    "thresholds": (
        # Authority needs a name and a date to point at; an anonymous approval grants nothing.
        RequiredWhen("approval", Approval.APPROVED.value, ("approved_by", "approved_on"),
                     "is approved"),
        AnyOf(("value", "max_drop", "max_relative_drop"),
              "has no bar: give value, max_drop or max_relative_drop"),
    ),
    "baselines": (EitherOr("scorecard", ("value", "n")),),
}


def cross_field_problem(kind: str, values: Mapping[str, Any]) -> str | None:
    """The first rule between fields that `values` breaks, in words; None when all hold."""
    for rule in RULES.get(kind, ()):
        if isinstance(rule, RequiredWhen):
            given = values.get(rule.field)
            if (given.value if isinstance(given, enum.Enum) else given) == rule.value:
                for name in rule.required:
                    if name not in values:
                        return f"{rule.why} but is missing required field {quote(name)}"
        elif isinstance(rule, AnyOf):
            if not set(rule.fields) & values.keys():
                return rule.message
        else:
            group = set(rule.group) & values.keys()
            if rule.single in values and group:
                return f"gives both {rule.single} and {' and '.join(rule.group)}: give one"
            if rule.single not in values and group != set(rule.group):
                return f"needs {' and '.join(rule.group)}, or a {rule.single} to read them from"
    return None


def strictyaml_schema(kind: str) -> strictyaml.Validator:
    """The strictyaml schema equivalent to this table for `kind` (except the approval rule).

    It accepts an empty document and `kind:` with nothing under it, as the fast loader does.
    """
    sy, validators = _reference()
    spec = KINDS[kind]
    mapping = {
        (field.name if field.required else sy.Optional(field.name)): validators(field)
        for field in spec.fields
    }
    records = sy.MapPattern(validators(None), sy.Map(mapping))
    return sy.EmptyNone() | sy.Map({kind: sy.EmptyDict() | records})


@functools.cache
def _reference() -> tuple[Any, Callable[[Field | None], Any]]:
    # strictyaml costs ~0.1 s to import; only the reference and its tests pay for it.
    import strictyaml as sy
    from strictyaml import utils

    class NonEmptyStr(sy.Str):  # type: ignore[misc]
        def validate_scalar(self, chunk: Any) -> Any:
            if chunk.contents == "":
                chunk.expecting_but_found("when expecting a non-empty string")
            if is_placeholder(chunk.contents):
                chunk.expecting_but_found("when expecting a value, not a placeholder")
            return chunk.contents

    class Bounded(sy.ScalarValidator):  # type: ignore[misc]
        def __init__(self, low: float | None, high: float | None) -> None:
            self.low, self.high = low, high

        def bounded(self, chunk: Any, value: Any) -> Any:
            if self.low is not None and value < self.low:
                chunk.expecting_but_found(f"when expecting a number >= {self.low}")
            if self.high is not None and value > self.high:
                chunk.expecting_but_found(f"when expecting a number <= {self.high}")
            return value

    class PlainInt(Bounded):
        # strictyaml's Int also takes `1_000` (and crashes on `_`): host records are plainer.
        def validate_scalar(self, chunk: Any) -> Any:
            if "_" in chunk.contents:
                chunk.expecting_but_found("when expecting an integer")
            return self.bounded(chunk, sy.Int().validate_scalar(chunk))

    class FiniteFloat(Bounded):
        # strictyaml's Float takes nan, inf and underscores, and crashes on `.` or `e5`.
        def validate_scalar(self, chunk: Any) -> Any:
            text = chunk.contents
            if "_" in text or not utils.is_decimal(text):
                chunk.expecting_but_found("when expecting a float")
            try:
                value = float(text)
            except ValueError:
                chunk.expecting_but_found("when expecting a float")
            if not math.isfinite(value):
                chunk.expecting_but_found("when expecting a finite float")
            return self.bounded(chunk, value)

    class IsoDate(sy.ScalarValidator):  # type: ignore[misc]
        # strictyaml has only Datetime, which takes any dateutil spelling.
        def validate_scalar(self, chunk: Any) -> Any:
            try:
                if re.fullmatch("[0-9]{4}-[0-9]{2}-[0-9]{2}", chunk.contents) is None:
                    raise ValueError(chunk.contents)
                return dt.datetime.strptime(chunk.contents, "%Y-%m-%d").date()
            except ValueError:
                chunk.expecting_but_found("when expecting a date YYYY-MM-DD")

    def validator(field: Field | None) -> Any:
        if field is None or field.type is str:
            return NonEmptyStr()
        if issubclass(field.type, enum.Enum):
            return sy.Enum([member.value for member in field.type])
        if field.type is bool:
            return sy.Bool()
        if field.type is int:
            return PlainInt(field.min, field.max)
        if field.type is float:
            return FiniteFloat(field.min, field.max)
        return IsoDate()

    return sy, validator
