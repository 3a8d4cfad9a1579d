"""The one cattrs converter that writes and reads the scorecard JSON, with strict hooks: JSON
`true` is not a number, `4.5` is not a count, and the first wrong field is named."""

from __future__ import annotations

import datetime as dt
import json
import math
import types
from collections.abc import Callable
from typing import Any, Literal, Union, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import IterableValidationError, IterableValidationNote
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from evalglass.contract.metric import Metric
from evalglass.contract.scorecard import Counts, Scorecard
from evalglass.contract.vocabulary import INSTANT


def _converter() -> cattrs.Converter:
    # Strict scalars: JSON true is not 1, 1.5 is not a count, and no number is not finite; the
    # default hooks would coerce each of these quietly.
    # Unknown keys are ignored, not refused: a reader keeps loading files that a later evalglass
    # wrote with more fields under the same schema_version.
    conv = cattrs.Converter(detailed_validation=True)

    def number(value: object, _: object) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"expected a number, got {_kind(value)}")
        if not math.isfinite(value):
            raise ValueError(f"expected a finite number, got {value!r}")
        return float(value)

    def integer(value: object, _: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"expected an integer, got {_kind(value)}")
        return value

    def text(value: object, _: object) -> str:
        if not isinstance(value, str):
            raise TypeError(f"expected a string, got {_kind(value)}")
        return value

    def flag(value: object, _: object) -> bool:
        if not isinstance(value, bool):
            raise TypeError(f"expected true or false, got {_kind(value)}")
        return value

    conv.register_structure_hook(float, number)
    conv.register_structure_hook(int, integer)
    conv.register_structure_hook(str, text)
    conv.register_structure_hook(bool, flag)

    def instant(value: object, _: object) -> dt.datetime:
        if not isinstance(value, str) or INSTANT.fullmatch(value) is None:
            shown = json.dumps(value)[:40] if isinstance(value, str) else _kind(value)
            raise ValueError(f"expected a time like 2026-11-30T12:00:00Z, got {shown}")
        try:
            return dt.datetime.fromisoformat(value).astimezone(dt.UTC)
        except ValueError:
            raise ValueError(f"{json.dumps(value)}: no such date or time") from None

    conv.register_structure_hook(dt.datetime, instant)
    conv.register_unstructure_hook(dt.datetime, instant_text)

    # Hooks for lists and optional fields are built once per type, each with its item's hook
    # at hand: looked up on every value instead, they were most of the time a file took to read.
    def sequence(kind: Any) -> Callable[[object, Any], tuple[Any, ...]]:
        item = get_args(kind)[0]
        hook = conv.get_structure_hook(item)

        def structure(value: object, _: Any) -> tuple[Any, ...]:
            # Only a JSON list is a list: cattrs would take a string or an object as an iterable.
            if not isinstance(value, list):
                raise TypeError(f"expected a list, got {_kind(value)}")
            items, errors = [], []
            for index, element in enumerate(value):
                try:
                    items.append(hook(element, item))
                except Exception as exc:  # noqa: BLE001 - gathered and re-raised with its index
                    note = IterableValidationNote(
                        f"Structuring {kind} @ index {index}", index, item
                    )
                    exc.__notes__ = [*getattr(exc, "__notes__", []), note]
                    errors.append(exc)
            if errors:
                raise IterableValidationError(f"While structuring {kind}", errors, kind)
            return tuple(items)

        return structure

    conv.register_structure_hook_factory(_is_variadic_tuple, sequence)

    def optional(kind: Any) -> Callable[[object, Any], Any]:
        (inner,) = (arg for arg in get_args(kind) if arg is not type(None))
        hook = conv.get_structure_hook(inner)

        def structure(value: object, _: Any) -> Any:
            return None if value is None else hook(value, inner)

        return structure

    conv.register_structure_hook_factory(_is_optional, optional)

    def one_of(kind: Any) -> Callable[[object, Any], object]:
        allowed = get_args(kind)
        names = ", ".join(str(a) for a in allowed)

        def structure(value: object, _: Any) -> object:
            if value not in allowed or isinstance(value, bool):
                raise ValueError(f"expected one of {names}, got {json.dumps(value)[:40]}")
            return value

        return structure

    conv.register_structure_hook_factory(_is_literal, one_of)

    def record(cls: type[Any]) -> Callable[[object, Any], Any]:
        fields = make_dict_structure_fn(cls, conv)

        def structure(value: object, kind: Any) -> Any:
            if not isinstance(value, dict):
                raise TypeError(f"expected an object, got {_kind(value)}")
            return fields(value, kind)

        return structure

    conv.register_structure_hook_factory(attrs.has, record)
    # `samples` is written only when kept, `attempts` only for a check, `skipped` only when a
    # file was skipped, `not_run` and `tier` only when there is one: every other field is always
    # written, null or not.
    omitted = override(omit_if_default=True)
    conv.register_unstructure_hook(
        Metric,
        make_dict_unstructure_fn(
            Metric, conv, samples=omitted, attempts=omitted, costly_samples=omitted
        ),
    )
    conv.register_unstructure_hook(Counts, make_dict_unstructure_fn(Counts, conv, not_run=omitted))
    conv.register_unstructure_hook(
        Scorecard,
        make_dict_unstructure_fn(
            Scorecard, conv, skipped=omitted, tier=omitted, comparison=omitted
        ),
    )
    return conv


def instant_text(moment: dt.datetime) -> str:
    """An instant as the contract writes it: ISO 8601 in UTC, `2026-11-30T12:00:00Z`."""
    return moment.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def _is_optional(kind: Any) -> bool:
    """`X | None` for one type X."""
    args = get_args(kind)
    return len(args) == 2 and type(None) in args and get_origin(kind) in (types.UnionType, Union)


def _is_literal(kind: Any) -> bool:
    return bool(get_origin(kind) == Literal)


def _is_variadic_tuple(kind: Any) -> bool:
    args = get_args(kind)
    return getattr(kind, "__origin__", None) is tuple and len(args) == 2 and args[1] is Ellipsis


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, int | float) else "a value")


CONVERTER = _converter()
