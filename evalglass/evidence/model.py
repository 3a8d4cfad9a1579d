"""What an eval output measured, as untrusted, typed values.

Evidence never carries authority: nothing here is read by the resolver except the identity of
the model under evaluation and of the dataset, which can only *block* a gate, never grant one.
"""

from __future__ import annotations

import enum
import types
from collections.abc import Mapping

import attrs

from evalglass.reasons import Reason


class Method(enum.Enum):
    """How an interval was computed; named in every gate's evidence."""

    WILSON = "wilson"
    STUDENT_T = "student_t"
    NORMAL = "normal"


@attrs.frozen
class Interval:
    low: float
    high: float
    level: float
    method: Method


@attrs.frozen(kw_only=True)
class Sample:
    id: str
    score: float
    epoch: int | None = None
    cluster: str | None = None


@attrs.frozen(kw_only=True)
class DatasetIdentity:
    name: str | None = None
    version: str | None = None
    location: str | None = None
    samples: int | None = None
    fingerprint: str | None = None


@attrs.frozen(kw_only=True)
class Run:
    """One eval run as its output file describes it."""

    source: str
    model: str | None = None
    dataset: DatasetIdentity | None = None
    judge_model: str | None = None
    status: str | None = None
    started: str | None = None


@attrs.frozen(kw_only=True)
class EarlierAttempt:
    """A superseded run of the same metric, kept so a retry cannot hide a failure."""

    source: str
    started: str | None
    value: float | None
    n: int | None


@attrs.frozen(kw_only=True)
class Measurement:
    id: str
    run: Run
    value: float | None
    n: int | None
    interval: Interval | None = None
    samples: tuple[Sample, ...] | None = None
    missing: int = 0
    # Problems the adapter found in the file itself (e.g. its aggregate disagrees with its samples).
    findings: tuple[Reason, ...] = ()
    earlier: tuple[EarlierAttempt, ...] = ()


def _frozen_map(value: Mapping[str, Measurement]) -> Mapping[str, Measurement]:
    return types.MappingProxyType(dict(sorted(value.items())))


@attrs.frozen(kw_only=True)
class Evidence:
    """Every measurement from every output given, by metric id, and the files they came from."""

    measurements: Mapping[str, Measurement] = attrs.field(factory=dict, converter=_frozen_map)
    sources: tuple[str, ...] = ()
