"""The field table of every host-record kind, as data: the loader (`build.py`), the strictyaml
reference (`reference.py`) and the JSON Schema (`json_schema.py`) all derive from it, as they do
from the rules between fields (`rules.py`). It reads no files and types no text.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

import attrs

from evalglass.levels import MAX_LEVEL, MIN_LEVEL
from evalglass.metric_ids import CHECK_PREFIX
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
    JudgeStatistic,
    MetricRecord,
    MetricStatus,
    MinAgreement,
    Op,
    Policy,
    PolicyRecord,
    Scale,
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
        """Whether the field is written as a block mapping of sub-fields."""
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
        """The file in the records folder that holds this kind."""
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
            _field("interval_level", float, min=MIN_LEVEL, max=MAX_LEVEL),
            _field("scale", Scale),
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
            _list("names", str),
        ),
        _kind(
            "judges", "judge", JudgeRecord,
            _field("model", str),
            _field("calibration", Calibration),
            _field("evidence", str),
            _nested(
                "min_agreement", MinAgreement,
                _field("statistic", JudgeStatistic),
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
            _field("rows", str),
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
                            "metric id {id})", prefix=CHECK_PREFIX),
        ),
        _kind(
            "success", "success policy", SuccessPolicy,
            _field("min_gates", int, min=0),
            _field("mode", SuccessMode),
            _field("min_pass_rate", float, min=0, max=1, min_exclusive=True),
            _list("must_pass", str),
            _field("max_attempts", int, min=1),
            single=True,
        ),
    )
}  # fmt: skip
