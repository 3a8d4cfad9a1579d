"""The rules between fields of one record, per kind, as data, and the words for a broken one: the
loader asks them of every record, and the JSON Schema (`json_schema.py`) states those it can.
Like the field table (`schema.py`), it reads no files and types no text.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from evalglass.metric_ids import CHECK_PREFIX
from evalglass.records._scalars import quote
from evalglass.records.model import Approval, DatasetStatus, SuccessMode


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
class AnyOfUnless:
    """At least one of `fields` must be given, unless `field` holds `value`."""

    fields: tuple[str, ...]
    field: str
    value: str
    message: str


@attrs.frozen
class ExactlyOne:
    """Exactly one of `fields` must be given."""

    fields: tuple[str, ...]
    what: str  # why one is needed, for the message when none is given


@attrs.frozen
class EitherOr:
    """Exactly one of `singles` alone, or every one of `group`: never two, never neither."""

    singles: tuple[str, ...]
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


@attrs.frozen
class ByPrefix:
    """Records whose id starts with `prefix` are `who` and take only the fields in `only`; every
    other record must give the fields in `required`."""

    prefix: str
    only: tuple[str, ...]
    required: tuple[str, ...]
    who: str
    why: str  # why such a record takes no more, for the message


FieldRule = (
    RequiredWhen | Requires | AnyOf | AnyOfUnless | ExactlyOne | EitherOr | OnlyWith | OnlyWhen | NotBefore
    | ByPrefix
)  # fmt: skip

_CHECK_KINDS = ("run", "shell", "file_exists", "regex")
_PROCESSES = ("run", "shell")

# Rules between fields of one record, which no per-field type can say. Stated as data so the
# loader and the JSON Schema (json_schema.py) derive from the same place; the first broken rule
# is reported, so each kind lists the rule that says what the record is first.
RULES: Mapping[str, tuple[FieldRule, ...]] = {
    "metrics": (
        ByPrefix(CHECK_PREFIX, ("status",), ("dataset",), "a check's metric",
                 "its definition in checks.yaml is its bar: give status only"),
    ),
    "thresholds": (
        # Authority needs a name and a date to point at, and what was approved: an anonymous
        # approval, or one that names no data, grants nothing.
        RequiredWhen("approval", Approval.APPROVED.value,
                     ("approved_by", "approved_on", "approved_for"), "is approved"),
        AnyOf(("value", "max_drop", "max_relative_drop"),
              "has no bar: give value, max_drop or max_relative_drop"),
        NotBefore("expires_on", "approved_on", "an approval cannot expire before it is given"),
    ),
    # What the data is checked by: a record that pinned neither could verify nothing. A
    # proposed one gates nothing yet, so it may wait for the version to be known.
    "datasets": (
        AnyOfUnless(("version", "fingerprint"), "status", DatasetStatus.PROPOSED.value,
                    "pins nothing to check an output against: give version, fingerprint or "
                    "both (only a proposed dataset may give neither)"),
    ),
    # An approval binds to the data it saw; one that names neither part binds to nothing.
    "thresholds.approved_for": (
        AnyOf(("dataset_version", "fingerprint"),
              "names no data: give dataset_version, fingerprint or both"),
    ),
    "judges": (
        # The bar is checked against a calibration file; without one it could never be met.
        Requires("min_agreement", ("evidence",), "has min_agreement"),
    ),
    # A baseline's numbers come from one place: the record, a saved scorecard or a rows file.
    "baselines": (
        EitherOr(("scorecard", "rows"), ("value", "n")),
        AnyOf(("dataset_version", "fingerprint"),
              "names no data it was measured on: give dataset_version, fingerprint or both"),
    ),
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


def cross_field_problem(kind: str, values: Mapping[str, Any], record_id: str = "") -> str | None:
    """The first rule between fields that typed `values` (of the record `record_id`) break, in
    words; None when all hold."""
    for broken in _checks(kind):
        problem = broken(values, record_id)
        if problem:
            return problem
    return None


Check = Callable[[Mapping[str, Any], str], "str | None"]


@functools.cache
def _checks(kind: str) -> tuple[Check, ...]:
    # Each rule becomes one function once: the loader asks every record of a big file.
    return tuple(_check(rule) for rule in RULES.get(kind, ()))


def _check(rule: FieldRule) -> Check:
    if isinstance(rule, ByPrefix):
        return _by_prefix(rule)
    if isinstance(rule, RequiredWhen):

        def required_when(values: Mapping[str, Any], _: str) -> str | None:
            if _plain(values.get(rule.field)) == rule.value:
                return _missing(rule.required, values, rule.why)
            return None

        return required_when
    if isinstance(rule, Requires):

        def requires(values: Mapping[str, Any], _: str) -> str | None:
            return _missing(rule.required, values, rule.why) if rule.field in values else None

        return requires
    if isinstance(rule, AnyOf):
        fields = set(rule.fields)
        return lambda values, _: None if fields & values.keys() else rule.message
    if isinstance(rule, AnyOfUnless):
        wanted = set(rule.fields)

        def any_of_unless(values: Mapping[str, Any], _: str) -> str | None:
            if wanted & values.keys() or _plain(values.get(rule.field)) == rule.value:
                return None
            return rule.message

        return any_of_unless
    if isinstance(rule, ExactlyOne):

        def exactly_one(values: Mapping[str, Any], _: str) -> str | None:
            given = [name for name in rule.fields if name in values]
            if not given:
                return f"needs one of {', '.join(rule.fields)} {rule.what}"
            if len(given) > 1:
                return (
                    f"gives both {' and '.join(given)}: give exactly one of "
                    f"{', '.join(rule.fields)}"
                )
            return None

        return exactly_one
    if isinstance(rule, EitherOr):

        def either_or(values: Mapping[str, Any], _: str) -> str | None:
            group = set(rule.group) & values.keys()
            singles = [name for name in rule.singles if name in values]
            if len(singles) > 1:
                return f"gives both {' and '.join(singles)}: give one"
            if singles and group:
                return f"gives both {singles[0]} and {' and '.join(rule.group)}: give one"
            if not singles and group != set(rule.group):
                return (
                    f"needs {' and '.join(rule.group)}, or a {' or '.join(rule.singles)} "
                    "to read them from"
                )
            return None

        return either_or
    if isinstance(rule, OnlyWith):
        others = set(rule.others)

        def only_with(values: Mapping[str, Any], _: str) -> str | None:
            if rule.field in values and not others & values.keys():
                return f"gives {rule.field}, which only {rule.who} takes"
            return None

        return only_with
    if isinstance(rule, OnlyWhen):

        def only_when(values: Mapping[str, Any], _: str) -> str | None:
            if rule.field in values and _plain(values.get(rule.other)) != rule.value:
                return f"gives {rule.field}, which only {rule.other}: {rule.value} takes"
            return None

        return only_when

    def not_before(values: Mapping[str, Any], _: str) -> str | None:
        later, earlier = values.get(rule.field), values.get(rule.earlier)
        if later is not None and earlier is not None and later < earlier:
            return f"has {rule.field} {later} before {rule.earlier} {earlier}: {rule.why}"
        return None

    return not_before


# What to write for a required field whose name alone does not say it.
_TO_ADD: Mapping[str, str] = {
    "approved_for": (
        "add approved_for: with, on indented lines below it, the dataset_version and the "
        "fingerprint approved, those the dataset record has (and the judge_model, when the "
        "metric names a judge)"
    ),
}


def _by_prefix(rule: ByPrefix) -> Check:
    only = set(rule.only)

    def by_prefix(values: Mapping[str, Any], record_id: str) -> str | None:
        if not record_id.startswith(rule.prefix):
            return _missing(rule.required, values, "")
        extra = [name for name in values if name not in only]
        if extra:
            return f"gives {extra[0]}, which {rule.who} does not take ({rule.why})"
        return None

    return by_prefix


def _missing(required: tuple[str, ...], values: Mapping[str, Any], why: str) -> str | None:
    for name in required:
        if name not in values:
            add = f": {_TO_ADD[name]}" if name in _TO_ADD else ""
            said = f"is missing required field {quote(name)}{add}"
            return f"{why} but {said}" if why else said
    return None
