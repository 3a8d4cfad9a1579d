"""The output schemas `evalglass mcp` declares, so an agent reads each answer as structured content
instead of parsing JSON out of text. The scorecard's is derived from the contract's own classes
(evalglass/contract/), so it cannot drift from what `--format json` writes; the other answers
are objects whose top-level keys are fixed and whose inner shape each command documents.
"""

from __future__ import annotations

import datetime as dt
import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import attrs

from evalglass import contract

_SCALARS: dict[Any, dict[str, Any]] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    type(None): {"type": "null"},
    dt.datetime: {"type": "string", "format": "date-time"},
}


def _schema_of(kind: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of one annotated type of the contract; attrs classes go into `defs`."""
    if kind in _SCALARS:
        return dict(_SCALARS[kind])
    origin, args = get_origin(kind), get_args(kind)
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (types.UnionType, Union):
        return {"anyOf": [_schema_of(arg, defs) for arg in args]}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _schema_of(args[0], defs)}
        return {
            "type": "array",
            "prefixItems": [_schema_of(arg, defs) for arg in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    if attrs.has(kind):
        name = kind.__name__
        if name not in defs:
            defs[name] = {}  # taken before recursing, so a class met again is referenced
            defs[name] = _object_of(kind, defs)
        return {"$ref": f"#/$defs/{name}"}
    raise TypeError(f"no JSON Schema for {kind!r} in the scorecard contract")


def _object_of(cls: type[Any], defs: dict[str, Any]) -> dict[str, Any]:
    hints = get_type_hints(cls)
    fields = attrs.fields(cls)
    return {
        "type": "object",
        "properties": {f.name: _schema_of(hints[f.name], defs) for f in fields},
        # A field with a default may be left out (written only when it has a value, or absent
        # from older files); every other field is always written.
        "required": [f.name for f in fields if f.default is attrs.NOTHING],
        "additionalProperties": False,
    }


def scorecard_schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of a scorecard JSON, from the contract's classes."""
    defs: dict[str, Any] = {}
    root = _object_of(contract.Scorecard, defs)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **root, "$defs": defs}


def keyed(*keys: str) -> dict[str, Any]:
    """An answer that is an object with these top-level keys, always present."""
    return {"type": "object", "required": list(keys), "additionalProperties": True}


# Each tool's output schema, by tool name: the top-level keys its JSON always has.
OUTPUT_SCHEMAS: dict[str, dict[str, Any]] = {
    "score": scorecard_schema(),
    "explain": keyed("schema_version", "metric", "outputs_given", "record", "card", "edits"),
    "doctor": keyed("schema_version", "summary", "exit_code", "errors", "warnings", "findings"),
    "metrics": keyed("schema_version", "metrics"),
    "diff": keyed("schema_version", "base", "head", "loosening", "changes"),
}
