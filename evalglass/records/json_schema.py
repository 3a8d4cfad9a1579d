"""JSON Schema (draft 2020-12) of each host-records file, derived from the field table in
`schema.py`, for editors' YAML language servers; it describes files, never reads or writes them.
Types are as a YAML 1.2 editor sees them: plain `100` is a number, `yes` and `2026-11-01` text.
"""

from __future__ import annotations

import datetime as dt
import enum
import re
from collections.abc import Mapping
from typing import Any

from evalglass.records.rules import (
    RULES,
    AnyOf,
    AnyOfUnless,
    ByPrefix,
    EitherOr,
    ExactlyOne,
    FieldRule,
    NotBefore,
    OnlyWhen,
    OnlyWith,
    RequiredWhen,
    Requires,
)
from evalglass.records.schema import FALSE_WORDS, KINDS, TRUE_WORDS, Field, Pattern

DRAFT = "https://json-schema.org/draft/2020-12/schema"
_FINITE = 1.7976931348623157e308  # the largest float: bounds keep .inf out
# The loader's spellings, for a value written in quotes (a YAML editor reads it as text).
_INT_TEXT = "[-+]?[0-9]+"
_FLOAT_TEXT = r"[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?"
_DATE_TEXT = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"

_FINGERPRINT = (
    "A dataset fingerprint, sha256:<hex> over the samples an output records, as "
    "`evalglass metrics` prints it (docs/formats.md)."
)
# Keyed by the field's path in its file (kind.field, kind.field.sub): a note on one kind's field
# says nothing of another kind's field of the same name. A test holds every key to a field.
NOTES: Mapping[str, str] = {
    "thresholds.op": "The direction. Quote it: op: '>=' (unquoted, YAML reads > as a block scalar).",
    "thresholds.approved_by": "Who approved the threshold; required when approval is approved.",
    "thresholds.approved_on": "When, as YYYY-MM-DD; required when approval is approved.",
    "metrics.min_samples": "Fewer scored samples, or an unknown count, make the number unsound.",
    "metrics.scale": (
        "proportion: each sample scores 0 or 1 (Wilson from value and n); unit: scores lie "
        "in [0, 1] (intervals clipped to it)."
    ),
    "metrics.decision": (
        "bound compares the conservative end of the interval; point the value itself."
    ),
    "thresholds.approved_for": (
        "What the approval was given for: the dataset_version and the fingerprint, "
        "those the dataset record has (at least one); judge_model, when the metric names a "
        "judge; required when approved."
    ),
    "thresholds.approved_for.fingerprint": _FINGERPRINT,
    "thresholds.expires_on": (
        "The last day the approval holds, as YYYY-MM-DD; not before approved_on."
    ),
    "judges.min_agreement": "The bar the judge's calibration evidence must clear; needs evidence.",
    "checks.timeout": "Seconds; required for run and shell checks.",
    "checks.regex": "A Python regular expression, searched for in in_file.",
    "success.min_pass_rate": "Of enforced gates, in (0, 1]; required iff mode is percentage.",
    "datasets.names": (
        "How the tools name this dataset (lm-eval's dataset_path, an Inspect task's dataset "
        "name); an output naming any other dataset is blocked (dataset_mismatch)."
    ),
    "datasets.fingerprint": _FINGERPRINT,
    "baselines.fingerprint": _FINGERPRINT,
    "success.must_pass": "Metric ids that must be enforced and pass, whatever the mode.",
    "success.max_attempts": (
        "The latest attempt a gate may pass on after an earlier attempt missed its bar; a "
        "later pass fails the gate (too_many_attempts). 1: every attempt must pass."
    ),
}


def _rule(rule: FieldRule) -> dict[str, Any] | None:
    """One rule of schema.RULES as JSON Schema; None for a rule it cannot state."""
    if isinstance(rule, RequiredWhen):
        return {
            "if": {"properties": {rule.field: {"const": rule.value}}, "required": [rule.field]},
            "then": {"required": list(rule.required)},
        }
    if isinstance(rule, Requires):
        return {"if": {"required": [rule.field]}, "then": {"required": list(rule.required)}}
    if isinstance(rule, AnyOf):
        return {"anyOf": [{"required": [name]} for name in rule.fields]}
    if isinstance(rule, AnyOfUnless):
        return {
            "if": {"properties": {rule.field: {"const": rule.value}}, "required": [rule.field]},
            "else": {"anyOf": [{"required": [name]} for name in rule.fields]},
        }
    if isinstance(rule, ExactlyOne):
        return {"oneOf": [{"required": [name]} for name in rule.fields]}
    if isinstance(rule, EitherOr):
        # Exactly one way: a single with nothing else of the rule, or the whole group alone.
        def given(names: tuple[str, ...]) -> list[dict[str, Any]]:
            return [{"required": [name]} for name in names]

        ways: list[dict[str, Any]] = [
            {
                "required": [name],
                "not": {"anyOf": given((*(s for s in rule.singles if s != name), *rule.group))},
            }
            for name in rule.singles
        ]
        ways.append({"required": list(rule.group), "not": {"anyOf": given(rule.singles)}})
        return {"oneOf": ways}
    if isinstance(rule, OnlyWith):
        return {
            "if": {"required": [rule.field]},
            "then": {"anyOf": [{"required": [name]} for name in rule.others]},
        }
    if isinstance(rule, OnlyWhen):
        return {
            "if": {"required": [rule.field]},
            "then": {"properties": {rule.other: {"const": rule.value}}, "required": [rule.other]},
        }
    # A rule on ids shapes the file's mapping of records (see json_schema), not one record;
    # comparing two values is beyond JSON Schema: the loader alone checks it.
    assert isinstance(rule, NotBefore | ByPrefix)
    return None


def _record(
    fields: tuple[Field, ...], at: str, rules: tuple[FieldRule, ...] = ()
) -> dict[str, Any]:
    """The record of `fields`, found at path `at` in its file (`thresholds`, or
    `thresholds.approved_for` for a nested one)."""
    record: dict[str, Any] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {field.name: _property(field, f"{at}.{field.name}") for field in fields},
        "required": [field.name for field in fields if field.required],
    }
    stated = [schema for schema in map(_rule, rules) if schema is not None]
    if stated:
        record["allOf"] = stated
    return record


def json_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of `{kind}.yaml` ("metrics", "thresholds", ...)."""
    spec = KINDS[kind]
    rules = RULES.get(kind, ())
    record = _record(spec.fields, kind, rules)
    defs = {_def(spec.noun): record}
    by_prefix = [rule for rule in rules if isinstance(rule, ByPrefix)]
    for rule in by_prefix:
        # The fields every other record must give, and the only ones a prefixed record takes.
        record["required"] = [*record["required"], *rule.required]
        shaped = _record(tuple(f for f in spec.fields if f.name in rule.only), kind)
        defs[_prefixed_def(rule, spec.noun)] = shaped
    if spec.single:
        # `success:` with nothing under it is the policy with every default.
        record["type"] = ["object", "null"]
        held: dict[str, Any] = {"$ref": f"#/$defs/{_def(spec.noun)}"}
        description = f"The {spec.noun}, under the top-level key {kind}."
    else:
        names: dict[str, Any] = {"minLength": 1}
        if spec.ids is not None:
            names["pattern"] = f"^{spec.ids.pattern.pattern}$"
        held = {
            "type": ["object", "null"],
            "propertyNames": names,
            "additionalProperties": {"$ref": f"#/$defs/{_def(spec.noun)}"},
        }
        if by_prefix:
            held["patternProperties"] = {
                f"^{re.escape(rule.prefix)}": {"$ref": f"#/$defs/{_prefixed_def(rule, spec.noun)}"}
                for rule in by_prefix
            }
        description = f"Each {spec.noun} record, keyed by id, under the top-level key {kind}."
    return {
        "$schema": DRAFT,
        "title": f"evalglass host records: {spec.filename}",
        "description": description,
        # An empty file, or the top-level key with nothing under it, holds no records.
        "type": ["object", "null"],
        "additionalProperties": False,
        "required": [kind],
        "properties": {kind: held},
        "$defs": defs,
    }


def _def(noun: str) -> str:
    return noun.replace(" ", "_")


def _prefixed_def(rule: ByPrefix, noun: str) -> str:
    """`check_metric`: the definition of the records a ByPrefix rule shapes."""
    return _def(f"{rule.prefix.strip('/')} {noun}")


def json_schemas() -> dict[str, dict[str, Any]]:
    """Every file's schema, keyed by file name (`metrics.yaml`, ...)."""
    return {spec.filename: json_schema(kind) for kind, spec in KINDS.items()}


def _property(field: Field, path: str) -> dict[str, Any]:
    if field.nested:
        schema = _record(field.fields, path, RULES.get(path, ()))
    elif field.many:
        # Items are compared as JSON values, the loader compares them as text: 1 and '1' differ.
        schema = {"type": "array", "items": _typed(field), "minItems": 1, "uniqueItems": True}
    else:
        schema = _typed(field)
    if path in NOTES:
        schema["description"] = NOTES[path]
    if not field.required and field.default not in (None, ()):
        schema["default"] = _plain(field.default)
    return schema


def _plain(value: object) -> object:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


def _typed(field: Field) -> dict[str, Any]:
    if issubclass(field.type, enum.Enum):
        return {"enum": [member.value for member in field.type]}
    if field.type is bool:
        words = sorted(TRUE_WORDS | FALSE_WORDS)
        spelled = "|".join(
            "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in w) for w in words
        )
        # true/false are booleans to YAML 1.2, 1/0 numbers, yes/no text: the loader takes all.
        return {
            "anyOf": [
                {"type": "boolean"},
                {"enum": [0, 1]},
                {"type": "string", "pattern": f"^({spelled})$"},
            ]
        }
    if field.type is dt.date:
        return {"type": "string", "pattern": _DATE_TEXT, "format": "date"}
    if field.type in (int, float):
        number = {
            "type": "integer" if field.type is int else "number",
            "minimum": -_FINITE if field.min is None else field.min,
            "maximum": _FINITE if field.max is None else field.max,
        }
        if field.min_exclusive:
            number["exclusiveMinimum"] = number.pop("minimum")
        form = _INT_TEXT if field.type is int else _FLOAT_TEXT
        # A quoted number is text to an editor; the loader reads it, so its form is checked here.
        return {"anyOf": [number, {"type": "string", "pattern": f"^{form}$"}]}
    # Text: plain 2026.10 or true is a number or boolean to an editor and still text to the loader.
    text: dict[str, Any] = {"type": ["string", "number", "boolean"], "minLength": 1}
    if field.type is Pattern:
        text["format"] = "regex"
    return text
