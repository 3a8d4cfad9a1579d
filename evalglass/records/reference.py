"""The strictyaml schema equivalent to the field table of `schema.py`: the specification the fast
loader is property-tested against. Only tests and benchmarks use it; nothing loads records with it.
"""

from __future__ import annotations

import datetime as dt
import enum
import functools
import math
import re
from typing import TYPE_CHECKING, Any

from evalglass.records._scalars import is_placeholder
from evalglass.records.schema import KINDS, Field, Pattern

if TYPE_CHECKING:
    import strictyaml  # type: ignore[import-untyped]


def strictyaml_schema(kind: str) -> strictyaml.Validator:
    """The strictyaml schema equivalent to the table for `kind`, but for the rules between fields.

    It accepts an empty document and `kind:` with nothing under it, as the fast loader does.
    """
    sy, validators = _reference()
    spec = KINDS[kind]
    fields = validators.fields(spec.fields)
    if spec.single:
        return sy.EmptyNone() | sy.Map({kind: sy.EmptyDict() | fields})
    ids = validators.scalar(None) if spec.ids is None else validators.matching(spec.ids.pattern)
    return sy.EmptyNone() | sy.Map({kind: sy.EmptyDict() | sy.MapPattern(ids, fields)})


@functools.cache
def _reference() -> tuple[Any, Any]:
    # strictyaml is slow to import (bench/bench_records.py): only the reference and its tests pay.
    import strictyaml as sy
    from strictyaml import utils

    class NonEmptyStr(sy.Str):  # type: ignore[misc]
        def validate_scalar(self, chunk: Any) -> Any:
            if chunk.contents == "":
                chunk.expecting_but_found("when expecting a non-empty string")
            if is_placeholder(chunk.contents):
                chunk.expecting_but_found("when expecting a value, not a placeholder")
            return chunk.contents

    class Matching(NonEmptyStr):
        # strictyaml's Regex appends `$`, which also matches before a final newline.
        def __init__(self, pattern: re.Pattern[str]) -> None:
            self.pattern = pattern

        def validate_scalar(self, chunk: Any) -> Any:
            if self.pattern.fullmatch(chunk.contents) is None:
                chunk.expecting_but_found(f"when expecting text matching {self.pattern.pattern}")
            return chunk.contents

    class Compiles(NonEmptyStr):
        def validate_scalar(self, chunk: Any) -> Any:
            text = super().validate_scalar(chunk)
            try:
                re.compile(text)
            except re.error:
                chunk.expecting_but_found("when expecting a regular expression")
            return text

    class Bounded(sy.ScalarValidator):  # type: ignore[misc]
        def __init__(self, low: float | None, high: float | None, above: bool) -> None:
            self.low, self.high, self.above = low, high, above

        def bounded(self, chunk: Any, value: Any) -> Any:
            if self.low is not None and (value <= self.low if self.above else value < self.low):
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

    class UniqueSeq(sy.Seq):  # type: ignore[misc]
        # strictyaml's UniqueSeq crashes on a mapping item; this checks items first.
        def validate(self, chunk: Any) -> None:
            super().validate(chunk)
            seen = set()
            for item in chunk.expect_sequence():
                if item.contents in seen:
                    chunk.while_parsing_found("a sequence", "duplicate found")
                seen.add(item.contents)

    class Validators:
        @staticmethod
        def matching(pattern: re.Pattern[str]) -> Any:
            return Matching(pattern)

        @staticmethod
        def scalar(field: Field | None) -> Any:
            if field is None or field.type is str:
                return NonEmptyStr()
            if field.type is Pattern:
                return Compiles()
            if issubclass(field.type, enum.Enum):
                return sy.Enum([member.value for member in field.type])
            if field.type is bool:
                return sy.Bool()
            if field.type is int:
                return PlainInt(field.min, field.max, field.min_exclusive)
            if field.type is float:
                return FiniteFloat(field.min, field.max, field.min_exclusive)
            return IsoDate()

        @staticmethod
        def value(field: Field) -> Any:
            if field.many:
                return UniqueSeq(Validators.scalar(field))
            if field.nested:
                return Validators.fields(field.fields)
            return Validators.scalar(field)

        @staticmethod
        def fields(fields: tuple[Field, ...]) -> Any:
            return sy.Map(
                {
                    (field.name if field.required else sy.Optional(field.name)): Validators.value(
                        field
                    )
                    for field in fields
                }
            )

    return sy, Validators
