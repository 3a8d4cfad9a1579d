"""The host records as typed, frozen values: the only source of authority.

Loading lives in `load.py`; this module holds the vocabularies and shapes, and no I/O.
"""

from __future__ import annotations

import datetime as dt
import enum
import operator
import types
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from evalglass import contract


class MetricStatus(enum.Enum):
    DRAFT = "draft"
    INFORMATIONAL = "informational"
    CALIBRATING = "calibrating"
    GATING = "gating"
    RETIRED = "retired"


class Decision(enum.Enum):
    """How a can_gate value is compared: the conservative end of its interval, or the point."""

    BOUND = "bound"
    POINT = "point"


class Op(enum.Enum):
    GE = ">="
    GT = ">"
    LE = "<="
    LT = "<"

    @property
    def higher_is_better(self) -> bool:
        return self in (Op.GE, Op.GT)

    def holds(self, left: float, right: float) -> bool:
        return _OPS[self](left, right)


_OPS: Mapping[Op, Callable[[float, float], bool]] = {
    Op.GE: operator.ge,
    Op.GT: operator.gt,
    Op.LE: operator.le,
    Op.LT: operator.lt,
}


class Approval(enum.Enum):
    PROPOSED = "proposed"
    APPROVED = "approved"


class DatasetStatus(enum.Enum):
    PROPOSED = "proposed"
    VALIDATED = "validated"
    RETIRED = "retired"


class Calibration(enum.Enum):
    UNCALIBRATED = "uncalibrated"
    CALIBRATING = "calibrating"
    CALIBRATED = "calibrated"
    DRIFTED = "drifted"
    RETIRED = "retired"


class Policy(enum.Enum):
    PERMITTED = "permitted"
    REDACTED = "redacted"
    RESTRICTED = "restricted"
    FORBIDDEN = "forbidden"
    UNKNOWN = "unknown"


@attrs.frozen
class Origin:
    """Where a record was written: shown in errors and by tools that point at a line."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


_NOWHERE = Origin("<memory>", 0)


def _origin() -> Origin:
    return attrs.field(default=_NOWHERE, eq=False, repr=False)


@attrs.frozen(kw_only=True)
class MetricRecord:
    status: MetricStatus
    dataset: str
    judge: str | None = None
    requires_baseline: bool = False
    min_samples: int = 10
    decision: Decision = Decision.BOUND
    # Errored or skipped samples, as a fraction of all samples, above which the value is unsound.
    max_missing_fraction: float = 0.0
    # Confidence level of the interval a bound rule compares.
    interval_level: float = 0.95
    origin: Origin = _origin()


@attrs.frozen(kw_only=True)
class ThresholdRecord:
    """The bar a gating metric must clear: an absolute `value`, a largest allowed regression
    from the approved baseline (`max_drop`, `max_relative_drop`), or both; at least one."""

    op: Op
    approval: Approval
    value: float | None = None
    max_drop: float | None = None
    max_relative_drop: float | None = None
    # Passing the gate but not this bound is a warning: shown everywhere, exit code unchanged.
    warn_value: float | None = None
    approved_by: str | None = None
    approved_on: dt.date | None = None
    origin: Origin = _origin()

    @property
    def regression(self) -> bool:
        return self.max_drop is not None or self.max_relative_drop is not None


@attrs.frozen(kw_only=True)
class DatasetRecord:
    status: DatasetStatus
    version: str
    fingerprint: str | None = None
    origin: Origin = _origin()


@attrs.frozen(kw_only=True)
class JudgeRecord:
    model: str
    calibration: Calibration
    evidence: str | None = None
    origin: Origin = _origin()


@attrs.frozen(kw_only=True)
class PolicyRecord:
    policy: Policy
    origin: Origin = _origin()


@attrs.frozen(kw_only=True)
class BaselineRecord:
    """An approved earlier measurement of a metric: inline numbers, or a saved scorecard JSON
    (`scorecard`, relative to the records folder) whose entry for the metric supplies them."""

    dataset_version: str
    value: float | None = None
    n: int | None = None
    stderr: float | None = None
    fingerprint: str | None = None
    judge: str | None = None
    scorecard: str | None = None
    # Filled from the saved scorecard, never from YAML: its entry for the metric, and its
    # per-sample scores by sample id (epochs averaged) when it was saved with --keep-samples.
    saved: contract.Metric | None = attrs.field(default=None, repr=False)
    sample_scores: Mapping[str, float] | None = attrs.field(default=None, repr=False)
    origin: Origin = _origin()


def _frozen_map(value: Mapping[str, object]) -> Mapping[str, object]:
    # Records never change after loading; a read-only view keeps it so.
    return types.MappingProxyType(dict(value))


@attrs.frozen(kw_only=True)
class HostRecords:
    """Every host record, keyed by id. An absent file is an empty mapping: no records of that kind."""

    metrics: Mapping[str, MetricRecord] = attrs.field(factory=dict, converter=_frozen_map)
    thresholds: Mapping[str, ThresholdRecord] = attrs.field(factory=dict, converter=_frozen_map)
    datasets: Mapping[str, DatasetRecord] = attrs.field(factory=dict, converter=_frozen_map)
    judges: Mapping[str, JudgeRecord] = attrs.field(factory=dict, converter=_frozen_map)
    policies: Mapping[str, PolicyRecord] = attrs.field(factory=dict, converter=_frozen_map)
    baselines: Mapping[str, BaselineRecord] = attrs.field(factory=dict, converter=_frozen_map)
