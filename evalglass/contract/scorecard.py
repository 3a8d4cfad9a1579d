"""The whole scorecard JSON around its metrics: the verdict, the counts, the success policy, the
comparison and where the records were read, as frozen classes."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any, Literal

import attrs

from evalglass.contract.metric import Change, Metric
from evalglass.contract.vocabulary import (
    ModeName,
    PolicySourceName,
    RuleName,
    StatusName,
    TierName,
    VerdictName,
    not_negative,
    positive,
    rate,
)


@attrs.frozen(kw_only=True)
class Skipped:
    """A file given or found that held no run to read, and why it was passed over."""

    source: str
    reason: str


@attrs.frozen(kw_only=True)
class Counts:
    """How many metrics ended each way; `blocked` counts unsound gates too, as the verdict does."""

    passed: int = attrs.field(validator=not_negative)
    warned: int = attrs.field(validator=not_negative)
    failed: int = attrs.field(validator=not_negative)
    blocked: int = attrs.field(validator=not_negative)
    informational: int = attrs.field(validator=not_negative)
    # Checks that could gate and were not run; absent when none.
    not_run: int = attrs.field(default=0, validator=not_negative)


@attrs.frozen(kw_only=True)
class Tolerated:
    """A gate a percentage pass let through, and how it ended."""

    id: str
    status: StatusName


@attrs.frozen(kw_only=True)
class Unmet:
    """A must_pass id the run did not satisfy; `status` is null when the run has no such metric."""

    id: str
    status: StatusName | None
    message: str


@attrs.frozen(kw_only=True)
class Policy:
    """The success policy that decided the verdict (success.yaml, or the defaults without it),
    and its numbers: gates are the metrics the records authorize, blocked ones included."""

    source: PolicySourceName
    mode: ModeName
    min_gates: int = attrs.field(validator=not_negative)
    min_pass_rate: float | None = attrs.field(validator=rate)
    must_pass: tuple[str, ...]
    # Written by every scorecard; a file from before the bound existed has none (null).
    max_attempts: int | None = attrs.field(default=None, validator=positive)
    decided_by: RuleName
    enforced: int = attrs.field(validator=not_negative)
    passed: int = attrs.field(validator=not_negative)
    pass_rate: float | None = attrs.field(validator=rate)
    tolerated: tuple[Tolerated, ...]
    unmet: tuple[Unmet, ...]


@attrs.frozen(kw_only=True)
class MetricComparison:
    """One metric against the earlier scorecard `--compare` named: its value there (null when
    it had none) and the change, current − earlier, with its interval (null without both)."""

    id: str
    earlier: float | None
    change: Change | None


@attrs.frozen(kw_only=True)
class Comparison:
    """The earlier scorecard a run was shown beside (display only: it decides nothing): its
    path, when it was evaluated, whether it is older than the base commit (null: not checked),
    and each measured metric's change."""

    source: str
    evaluated_at: dt.datetime | None
    stale: bool | None
    metrics: tuple[MetricComparison, ...]


@attrs.frozen(kw_only=True)
class RecordsAt:
    """The git ref the records were read at (`--records-ref`, as given) and the commit it named:
    the records are that commit's."""

    ref: str
    commit: str = attrs.field()

    @commit.validator
    def _full_id(self, attribute: attrs.Attribute[Any], value: str) -> None:
        if _COMMIT.fullmatch(value) is None:
            raise ValueError(f"commit must be a full commit id, got {json.dumps(value)[:80]}")


_COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


@attrs.frozen(kw_only=True)
class Scorecard:
    """A whole scorecard JSON: the verdict and exit code, the metrics sorted by id, and what the
    run read. Fields added after schema_version 1 was published have defaults, so files written
    before them still load."""

    schema_version: Literal[1]
    verdict: VerdictName
    exit_code: int
    # When the scorecard was evaluated; None in files written before evalglass recorded it.
    evaluated_at: dt.datetime | None = None
    model: str | None
    sources: tuple[str, ...]
    # The records folder read, as given or found (inside the commit, with records_at); null when
    # the records were built in memory, and absent in a file from before evalglass recorded it.
    records_folder: str | None = None
    # The commit the records were read at; null when they were read from the working tree, and
    # absent in a file from before evalglass recorded it.
    records_at: RecordsAt | None = None
    counts: Counts
    # Written by every evalglass that knows success policies; None in a file from before them.
    policy: Policy | None = None
    metrics: tuple[Metric, ...]
    # Files given or found that held no run to read; written only when there are any.
    skipped: tuple[Skipped, ...] = ()
    # The tier of host checks `evalglass run` ran; absent for `evalglass score`, which runs none.
    tier: TierName | None = None
    # The earlier scorecard `score --compare` showed this one beside; absent without one.
    comparison: Comparison | None = None

    def metric(self, metric_id: str) -> Metric | None:
        """The entry for `metric_id`, or None."""
        return next((m for m in self.metrics if m.id == metric_id), None)
