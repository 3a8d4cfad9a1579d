"""A metric's entry in the scorecard JSON: what was measured, whether it is sound, whether it may
gate, its threshold and its gate, as frozen classes (the contract's own, not the core's)."""

from __future__ import annotations

from typing import Any

import attrs

from evalglass.contract.vocabulary import (
    DATE,
    ApprovalName,
    MethodBasisName,
    MethodName,
    OpName,
    OutcomeName,
    OutcomeOfAttempt,
    ResultName,
    level,
    not_negative,
    pair,
)


@attrs.frozen
class Reason:
    """A reason code and its message. The code is an open string: a file from a newer evalglass
    may carry codes this one does not know, and still loads."""

    code: str
    message: str


@attrs.frozen(kw_only=True)
class Validity:
    """Whether the metric's number is sound enough to compare, and the validity codes when it is
    not."""

    valid: bool
    reasons: tuple[Reason, ...]


@attrs.frozen(kw_only=True)
class Authority:
    """The metric's authority outcome and the reasons of the stage that decided it; `notes` are
    what stage 2 would raise once an informational metric is authorized."""

    outcome: OutcomeName
    reasons: tuple[Reason, ...]
    notes: tuple[Reason, ...]


@attrs.frozen(kw_only=True)
class Change:
    """current − baseline of a regression gate, with its interval."""

    value: float | None
    interval: tuple[float | None, float | None] | None = attrs.field(validator=pair)
    level: float | None = attrs.field(validator=level)
    method: MethodName | None
    paired: int | None = attrs.field(validator=not_negative)


@attrs.frozen(kw_only=True)
class Needed:
    """What would pass a gate its bound decided: the least value (for `<=`/`<`, the greatest)
    that clears every bar at this n, and the least n at which this value does; null where no such
    number exists, with why in `reason`. `assumptions` says what was held fixed."""

    value_at_n: float | None
    n_at_value: int | None = attrs.field(validator=not_negative)
    assumptions: str
    reason: str | None


@attrs.frozen(kw_only=True)
class Gate:
    """The gate result, its reason codes and the evidence string with the numbers compared;
    `change` is set for a regression gate, `needed` for a gate its bound decided."""

    result: ResultName
    reasons: tuple[Reason, ...]
    evidence: str
    change: Change | None
    # Null for a point rule or a gate not compared, and in files from before it was written.
    needed: Needed | None = None


@attrs.frozen(kw_only=True)
class ApprovedFor:
    """What the threshold's approval was given for: the dataset version and fingerprint (one or
    both) and the judge model it saw."""

    dataset_version: str | None
    fingerprint: str | None
    judge_model: str | None


@attrs.frozen(kw_only=True)
class Threshold:
    """The threshold the records held for the metric, as the run applied it."""

    op: OpName
    value: float | None
    max_drop: float | None
    max_relative_drop: float | None
    warn_value: float | None
    approval: ApprovalName
    approved_by: str | None
    approved_on: str | None = attrs.field()
    # Absent from scorecards written before approvals were bound; those still read.
    approved_for: ApprovedFor | None = None
    expires_on: str | None = attrs.field(default=None)

    @approved_on.validator
    @expires_on.validator
    def _date(self, attribute: attrs.Attribute[Any], value: str | None) -> None:
        if value is not None and DATE.fullmatch(value) is None:
            raise ValueError(f"{attribute.name} must be a date YYYY-MM-DD, got {value!r}")


@attrs.frozen(kw_only=True)
class EarlierRun:
    """A superseded run of the metric, kept so that a retry can never hide a failure."""

    source: str
    started: str | None
    value: float | None
    n: int | None = attrs.field(validator=not_negative)


@attrs.frozen(kw_only=True)
class Sample:
    """One per-sample score, kept with --keep-samples so the file can serve as a paired baseline."""

    id: str
    epoch: int | None
    score: float | None


@attrs.frozen(kw_only=True)
class CostlySample:
    """A sample that cost a failed, unsound or blocked gate most, and the output file it is in."""

    id: str
    epoch: int | None
    score: float
    source: str


@attrs.frozen(kw_only=True)
class CachedPass:
    """Where a pass read from the cache was recorded: the commit, and when (ISO 8601, UTC)."""

    commit: str
    recorded: str


@attrs.frozen(kw_only=True)
class Attempt:
    """One attempt at a host check: what was run, how it ended, and the end of its stderr and
    stdout."""

    outcome: OutcomeOfAttempt
    command: str
    found: str
    exit_code: int | None
    duration: float | None
    timed_out: bool
    cached: CachedPass | None
    stderr: str
    # The last 4 KB it wrote to stdout; absent in files written before it was kept.
    stdout: str = ""


@attrs.frozen(kw_only=True)
class Dataset:
    """A metric's dataset: the record's id the metric names, what the output says of it (name,
    version, fingerprint), and which of those the dataset record verified."""

    record: str | None
    name: str | None
    version: str | None
    fingerprint: str | None
    name_verified: bool
    version_verified: bool
    fingerprint_verified: bool


@attrs.frozen(kw_only=True)
class Metric:
    """One metric's entry: what was measured, whether the number is sound, whether it may gate,
    the threshold and the gate result: everything a reader needs to re-check the decision."""

    id: str
    value: float | None
    n: int | None = attrs.field(validator=not_negative)
    interval: tuple[float | None, float | None] | None = attrs.field(validator=pair)
    level: float | None = attrs.field(validator=level)
    method: MethodName | None
    # Why that method: what the evidence gave it (null without an interval, and in files
    # written before it was recorded).
    method_basis: MethodBasisName | None = None
    clusters: int | None = attrs.field(validator=not_negative)
    missing: int = attrs.field(validator=not_negative)
    model: str | None
    source: str | None
    # Null for a host check's metric, and for a metric no record or output names a dataset for;
    # absent in scorecards written before it was added.
    dataset: Dataset | None = None
    earlier_runs: tuple[EarlierRun, ...]
    validity: Validity
    authority: Authority
    threshold: Threshold | None
    gate: Gate
    # Written only with --keep-samples: absent, not empty, otherwise.
    samples: tuple[Sample, ...] | None = None
    # A host check's attempts (a retry second); absent for every other metric.
    attempts: tuple[Attempt, ...] | None = None
    # For a gate that failed, is unsound or blocked, the samples that cost it most (at most ten);
    # absent otherwise, and when the reader kept no per-sample scores.
    costly_samples: tuple[CostlySample, ...] | None = None
