"""The field table of every host-record kind, and the rules between fields of one record, as data:
the loader (`build.py`), the strictyaml reference (`reference.py`) and the JSON Schema
(`json_schema.py`) all derive from here. It reads no files and types no text.
"""

from __future__ import annotations

import datetime as dt
import enum
import functools
import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from evalglass.records._yaml import quote
from evalglass.records.model import (
    Approval,
    ApprovedFor,
    BaselineRecord,
    Calibration,
    CheckRecord,
    DatasetRecord,
    DatasetStatus,
    Decision,
    JudgeRecord,
    MetricRecord,
    MetricStatus,
    MinAgreement,
    Op,
    Policy,
    PolicyRecord,
    Statistic,
    SuccessMode,
    SuccessPolicy,
    ThresholdRecord,
    Tier,
)

Record = (
    MetricRecord | ThresholdRecord | DatasetRecord | JudgeRecord | PolicyRecord | BaselineRecord
    | CheckRecord | SuccessPolicy
)  # fmt: skip

# strictyaml's own spellings, so both readers agree on every boolean.
TRUE_WORDS = frozenset({"yes", "true", "on", "1", "y"})
FALSE_WORDS = frozenset({"no", "false", "off", "0", "n"})


class Pattern(str):
    """The type of a field that holds a regular expression: text that compiles (kept as text)."""

    __slots__ = ()


@attrs.frozen(kw_only=True)
class Field:
    """One field of a record kind: how its text is typed, and whether it may be left out.

    `type` is str, int, float, bool, dt.date, Pattern or an Enum class; or, for a field written
    as a block mapping, the attrs class its `fields` build. `many` makes it a block list of
    `type` values (a tuple, no repeats). Numbers lie in [min, max], or (min, max] when
    `min_exclusive`.
    """

    name: str
    type: type[Any]
    required: bool
    default: object = None
    min: float | None = None
    max: float | None = None
    min_exclusive: bool = False
    many: bool = False
    fields: tuple[Field, ...] = ()

    @property
    def nested(self) -> bool:
        return bool(self.fields)


@attrs.frozen(kw_only=True)
class Ids:
    """What the ids of a kind may look like, and the message for one that does not."""

    pattern: re.Pattern[str]
    message: str  # follows `{noun} name 'x'`; {id} is the id with `prefix`, quoted
    prefix: str = ""


@attrs.frozen(kw_only=True)
class Kind:
    """A record kind: its file's top-level key, the record class it builds, and its fields.

    A `single` kind's file holds one record, its fields right under the top-level key, no ids.
    """

    kind: str
    noun: str
    record: type[Record]
    fields: tuple[Field, ...]
    single: bool = False
    ids: Ids | None = None

    @property
    def filename(self) -> str:
        return f"{self.kind}.yaml"


def _field(
    name: str,
    type_: type[Any],
    *,
    min: float | None = None,
    max: float | None = None,
    min_exclusive: bool = False,
) -> Field:
    return Field(
        name=name, type=type_, required=False, min=min, max=max, min_exclusive=min_exclusive
    )


def _list(name: str, type_: type[Any]) -> Field:
    return Field(name=name, type=type_, required=False, many=True)


def _nested(name: str, record: type[Any], *fields: Field) -> Field:
    return Field(name=name, type=record, required=False, fields=_bound(record, fields))


def _bound(record: type[Any], fields: tuple[Field, ...]) -> tuple[Field, ...]:
    # Required-ness and defaults come from the model, so the table and the model cannot drift.
    model = attrs.fields_dict(record)

    def bind(field: Field) -> Field:
        default = model[field.name].default
        if default is attrs.NOTHING:
            return attrs.evolve(field, required=True, default=None)
        return attrs.evolve(field, required=False, default=default)

    return tuple(bind(f) for f in fields)


def _kind(
    kind: str, noun: str, record: type[Record], *fields: Field, single: bool = False,
    ids: Ids | None = None,
) -> Kind:  # fmt: skip
    return Kind(
        kind=kind, noun=noun, record=record, fields=_bound(record, fields), single=single, ids=ids
    )


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
            _nested(
                "approved_for", ApprovedFor,
                _field("dataset_version", str),
                _field("fingerprint", str),
                _field("judge_model", str),
            ),
            _field("expires_on", dt.date),
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
            _nested(
                "min_agreement", MinAgreement,
                _field("statistic", Statistic),
                _field("lower_bound", float, min=-1, max=1),
            ),
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
        _kind(
            "checks", "check", CheckRecord,
            _field("run", str),
            _field("shell", str),
            _field("file_exists", str),
            _field("regex", Pattern),
            _field("in_file", str),
            _field("non_empty", bool),
            _field("timeout", int, min=1),
            _field("cwd", str),
            _field("expect_exit", int, min=0),
            _field("tier", Tier),
            _field("cache", bool),
            # A check's name becomes the metric id check/NAME: plain characters only.
            ids=Ids(pattern=re.compile("[A-Za-z0-9_.-]+"),
                    message="may hold only letters, digits, '_', '.' and '-' (it becomes the "
                            "metric id {id})", prefix="check/"),
        ),
        _kind(
            "success", "success policy", SuccessPolicy,
            _field("min_gates", int, min=0),
            _field("mode", SuccessMode),
            _field("min_pass_rate", float, min=0, max=1, min_exclusive=True),
            _list("must_pass", str),
            single=True,
        ),
    )
}  # fmt: skip


@attrs.frozen
class RequiredWhen:
    """When `field` holds `value`, every field in `required` must be given."""

    field: str
    value: str
    required: tuple[str, ...]
    why: str


@attrs.frozen
class Requires:
    """When `field` is given, every field in `required` must be given too."""

    field: str
    required: tuple[str, ...]
    why: str


@attrs.frozen
class AnyOf:
    """At least one of `fields` must be given."""

    fields: tuple[str, ...]
    message: str


@attrs.frozen
class ExactlyOne:
    """Exactly one of `fields` must be given."""

    fields: tuple[str, ...]
    what: str  # why one is needed, for the message when none is given


@attrs.frozen
class EitherOr:
    """Either `single` alone, or every one of `group`: never both, never neither."""

    single: str
    group: tuple[str, ...]


@attrs.frozen
class OnlyWith:
    """`field` may be given only together with one of `others`."""

    field: str
    others: tuple[str, ...]
    who: str  # what record takes it, for the message


@attrs.frozen
class OnlyWhen:
    """`field` may be given only when `other` holds `value` (given, not by default)."""

    field: str
    other: str
    value: str


@attrs.frozen
class NotBefore:
    """When both are given, the date in `field` is not before the date in `earlier`.

    JSON Schema cannot compare two values, so this rule is the loader's alone."""

    field: str
    earlier: str
    why: str


Rule = RequiredWhen | Requires | AnyOf | ExactlyOne | EitherOr | OnlyWith | OnlyWhen | NotBefore

_CHECK_KINDS = ("run", "shell", "file_exists", "regex")
_PROCESSES = ("run", "shell")

# Rules between fields of one record, which no per-field type can say. Stated as data so the
# loader and the JSON Schema (json_schema.py) derive from the same place; the first broken rule
# is reported, so each kind lists the rule that says what the record is first.
RULES: Mapping[str, tuple[Rule, ...]] = {
    "thresholds": (
        # Authority needs a name and a date to point at; an anonymous approval grants nothing.
        RequiredWhen("approval", Approval.APPROVED.value, ("approved_by", "approved_on"),
                     "is approved"),
        AnyOf(("value", "max_drop", "max_relative_drop"),
              "has no bar: give value, max_drop or max_relative_drop"),
        NotBefore("expires_on", "approved_on", "an approval cannot expire before it is given"),
    ),
    "judges": (
        # The bar is checked against a calibration file; without one it could never be met.
        Requires("min_agreement", ("evidence",), "has min_agreement"),
    ),
    "baselines": (EitherOr("scorecard", ("value", "n")),),
    "checks": (
        ExactlyOne(_CHECK_KINDS, "to say what it checks"),
        # A process with no time limit could hold the gate open for ever.
        Requires("run", ("timeout",), "runs a command"),
        Requires("shell", ("timeout",), "runs a shell command"),
        Requires("regex", ("in_file",), "has a regex"),
        OnlyWith("timeout", _PROCESSES, "a run or shell check"),
        OnlyWith("cwd", _PROCESSES, "a run or shell check"),
        OnlyWith("expect_exit", _PROCESSES, "a run or shell check"),
        OnlyWith("cache", _PROCESSES, "a run or shell check (file checks are never cached)"),
        OnlyWith("non_empty", ("file_exists",), "a file_exists check"),
        OnlyWith("in_file", ("regex",), "a regex check"),
    ),
    "success": (
        RequiredWhen("mode", SuccessMode.PERCENTAGE.value, ("min_pass_rate",),
                     "is in percentage mode"),
        OnlyWhen("min_pass_rate", "mode", SuccessMode.PERCENTAGE.value),
    ),
}  # fmt: skip


def _plain(value: object) -> object:
    return value.value if isinstance(value, enum.Enum) else value


def cross_field_problem(kind: str, values: Mapping[str, Any]) -> str | None:
    """The first rule between fields that typed `values` break, in words; None when all hold."""
    for broken in _checks(kind):
        problem = broken(values)
        if problem:
            return problem
    return None


Check = Callable[[Mapping[str, Any]], "str | None"]


@functools.cache
def _checks(kind: str) -> tuple[Check, ...]:
    # Each rule becomes one function once: the loader asks every record of a big file.
    return tuple(_check(rule) for rule in RULES.get(kind, ()))


def _check(rule: Rule) -> Check:
    if isinstance(rule, RequiredWhen):
        def required_when(values: Mapping[str, Any]) -> str | None:
            if _plain(values.get(rule.field)) == rule.value:
                return _missing(rule.required, values, rule.why)
            return None
        return required_when
    if isinstance(rule, Requires):
        def requires(values: Mapping[str, Any]) -> str | None:
            return _missing(rule.required, values, rule.why) if rule.field in values else None
        return requires
    if isinstance(rule, AnyOf):
        fields = set(rule.fields)
        return lambda values: None if fields & values.keys() else rule.message
    if isinstance(rule, ExactlyOne):
        def exactly_one(values: Mapping[str, Any]) -> str | None:
            given = [name for name in rule.fields if name in values]
            if not given:
                return f"needs one of {', '.join(rule.fields)} {rule.what}"
            if len(given) > 1:
                return (f"gives both {' and '.join(given)}: give exactly one of "
                        f"{', '.join(rule.fields)}")
            return None
        return exactly_one
    if isinstance(rule, EitherOr):
        def either_or(values: Mapping[str, Any]) -> str | None:
            group = set(rule.group) & values.keys()
            if rule.single in values and group:
                return f"gives both {rule.single} and {' and '.join(rule.group)}: give one"
            if rule.single not in values and group != set(rule.group):
                return f"needs {' and '.join(rule.group)}, or a {rule.single} to read them from"
            return None
        return either_or
    if isinstance(rule, OnlyWith):
        others = set(rule.others)

        def only_with(values: Mapping[str, Any]) -> str | None:
            if rule.field in values and not others & values.keys():
                return f"gives {rule.field}, which only {rule.who} takes"
            return None
        return only_with
    if isinstance(rule, OnlyWhen):
        def only_when(values: Mapping[str, Any]) -> str | None:
            if rule.field in values and _plain(values.get(rule.other)) != rule.value:
                return f"gives {rule.field}, which only {rule.other}: {rule.value} takes"
            return None
        return only_when

    def not_before(values: Mapping[str, Any]) -> str | None:
        later, earlier = values.get(rule.field), values.get(rule.earlier)
        if later is not None and earlier is not None and later < earlier:
            return f"has {rule.field} {later} before {rule.earlier} {earlier}: {rule.why}"
        return None
    return not_before


def _missing(required: tuple[str, ...], values: Mapping[str, Any], why: str) -> str | None:
    for name in required:
        if name not in values:
            return f"{why} but is missing required field {quote(name)}"
    return None
