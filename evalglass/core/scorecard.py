"""Assemble the scorecard: every metric's value, validity, authority and gate, and the verdict.

Pure: it calls the resolver and the decision and combines their answers; renderers read the
result and never decide.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

import attrs

from evalglass.core.authority import Authority, resolve
from evalglass.core.dataset_check import DatasetCheck, check_dataset
from evalglass.core.decision import (
    CheckInput,
    GateInput,
    GateResult,
    decide,
    decide_check,
    left_out,
)
from evalglass.core.evaluation_time import evaluation_time
from evalglass.core.exits import Verdict, exit_code
from evalglass.core.scale import in_scale
from evalglass.core.scope import NO_CHECKS, Scope
from evalglass.core.status import Status
from evalglass.core.success import DEFAULT_POLICY, PolicyOutcome, decide_run
from evalglass.core.validity import Validity, assess
from evalglass.evidence import stats
from evalglass.evidence.model import Evidence, Measurement, Skipped
from evalglass.evidence.stats import DEFAULT_LEVEL
from evalglass.metric_ids import check_metric, check_name
from evalglass.records.model import (
    HostRecords,
    MetricRecord,
    SuccessPolicy,
    ThresholdRecord,
)
from evalglass.tiers import Tier

if TYPE_CHECKING:
    # Built only for a run that has them (`--compare`, a gate that stopped): loaded there.
    from evalglass.core.comparison import Comparison, Earlier
    from evalglass.core.costly import CostlySample


@attrs.frozen(kw_only=True)
class MetricCard:
    """One metric as the scorecard holds it: the measurement (None when no output measured it),
    validity, authority, the threshold and the gate result. Renderers read it and recompute none
    of it."""

    id: str
    measurement: Measurement | None
    validity: Validity
    authority: Authority
    threshold: ThresholdRecord | None
    gate: GateResult
    # What the output says of the metric's dataset, and what the record verified of it; None
    # for a host check's metric, and when neither the record nor the output names a dataset.
    dataset: DatasetCheck | None = None
    # For a gate that failed, is unsound or blocked: the samples that cost it most (costly.py),
    # and the format of the output they are in (`inspect`, `promptfoo`, ...; None if unknown).
    costly: tuple[CostlySample, ...] = ()
    costly_format: str | None = None

    # Cached: every renderer asks it of every metric, several times.
    @functools.cached_property
    def status(self) -> Status:
        """fail, unsound, blocked, warn, pass, not_run or informational."""
        return Status.of(self.authority.outcome, self.gate.result)

    @property
    def decided(self) -> bool:
        """Whether this metric affects the verdict (enforced, blocked or unsound)."""
        return self.status.decided


@attrs.frozen(kw_only=True)
class Counts:
    """How many metrics ended each way. `blocked` includes gates whose number was unsound;
    `not_run` (checks that could gate and were not started) are in no other count."""

    passed: int
    warned: int  # passed the gate, not the warn bound
    failed: int
    blocked: int  # blocked by authority, or enforced on an unsound number
    informational: int
    # Checks that could gate and that this run did not start (another tier, or `score`).
    not_run: int = 0

    @classmethod
    def of(cls, statuses: Iterable[Status]) -> Counts:
        """The tally of these statuses: the one place a status is counted, so every headline,
        the JSON `counts` and the JUnit totals agree."""
        tally = Counter(statuses)
        return cls(
            passed=tally[Status.PASS],
            warned=tally[Status.WARN],
            failed=tally[Status.FAIL],
            blocked=sum(count for status, count in tally.items() if status.blocks),
            informational=tally[Status.INFORMATIONAL],
            not_run=tally[Status.NOT_RUN],
        )

    @property
    def enforced(self) -> int:
        """Gates compared with their threshold: passed, warned and failed (an unsound gate is
        counted as blocked)."""
        return self.passed + self.warned + self.failed


@attrs.frozen
class RecordsAt:
    """The git ref the host records were read at, as given, and the commit it named then: the
    records are that commit's, whatever the ref names later."""

    ref: str
    commit: str


@attrs.frozen(kw_only=True)
class Scorecard:
    """One run's result: the verdict and exit code, every metric card sorted by id, and what
    decided the verdict and what was read. Made by `assemble`; renderers and the exit code read
    it and decide nothing more."""

    verdict: Verdict
    exit_code: int
    metrics: tuple[MetricCard, ...]
    model: str | None
    sources: tuple[str, ...]
    # The success policy that decided the verdict, with its numbers.
    policy: PolicyOutcome
    # Files passed over, each with why: never counted, always reported.
    skipped: tuple[Skipped, ...] = ()
    # When it was evaluated (`--as-of`, or the clock): the one input that is not a file.
    evaluated_at: dt.datetime = attrs.field(converter=evaluation_time)
    # Which host checks the run started: none (`evalglass score`), or a tier's.
    scope: Scope = NO_CHECKS
    # An earlier scorecard beside this one (`--compare`), shown only: no gate reads it.
    comparison: Comparison | None = None
    # The records folder read, as the command was given or found it; None for records built in
    # memory.
    records_folder: str | None = None
    # Where the records came from: a commit (`--records-ref`), or None for the working tree.
    records_at: RecordsAt | None = None

    @functools.cached_property
    def counts(self) -> Counts:
        """The tallies every headline and the JSON `counts` show, taken from the cards' statuses
        so that they cannot disagree with them."""
        return Counts.of(m.status for m in self.metrics)


def assemble(
    records: HostRecords,
    evidence: Evidence,
    require_gate: bool = False,
    *,
    evaluated_at: dt.date | dt.datetime,
    scope: Scope = NO_CHECKS,
    records_folder: str | None = None,
    records_at: RecordsAt | None = None,
    earlier: Earlier | None = None,
) -> Scorecard:
    """The scorecard for the union of recorded and measured metrics and defined checks, sorted
    by id, its verdict under the records' success policy, evaluated at `evaluated_at` (the
    caller's clock or `--as-of`: a pure function reads no clock). `scope` says which checks the
    run started (none, by default); `records_folder` and `records_at` where the records were
    read; `earlier`, a scorecard to show each metric beside (display only)."""
    moment = evaluation_time(evaluated_at)
    evaluated_on = moment.date()
    ids = set(records.metrics) | set(evidence.measurements)
    ids.update(check_metric(name) for name in records.checks)
    formats = {found.shown: found.format for found in evidence.found}
    cards = tuple(
        _with_costly(
            _card(metric_id, records, evidence.measurements.get(metric_id), scope, evaluated_on),
            formats,
        )
        for metric_id in sorted(ids)
    )
    policy = policy_outcome(cards, records.success, scope)
    comparison = None
    if earlier is not None:
        from evalglass.core.comparison import compare

        comparison = compare(cards, earlier)
    return Scorecard(
        verdict=policy.verdict,
        exit_code=exit_code(policy.verdict, require_gate, policy.required),
        metrics=cards,
        model=_model(evidence),
        sources=evidence.sources,
        policy=policy,
        skipped=evidence.skipped,
        evaluated_at=moment,
        scope=scope,
        comparison=comparison,
        records_folder=records_folder,
        records_at=records_at,
    )


def _card(
    metric_id: str,
    records: HostRecords,
    measurement: Measurement | None,
    scope: Scope,
    evaluated_on: dt.date,
) -> MetricCard:
    metric = records.metrics.get(metric_id)
    threshold = records.thresholds.get(metric_id)
    authority = resolve(metric_id, records, measurement, evaluated_on=evaluated_on)
    if measurement is not None:
        level = metric.interval_level if metric else DEFAULT_LEVEL
        measurement = in_scale(
            at_level(measurement, level), metric.scale if metric else None, level
        )
    validity = assess(measurement, metric, threshold)
    name = check_name(metric_id)
    max_attempts = (records.success or DEFAULT_POLICY).max_attempts
    if name is not None:
        gate = decide_check(
            CheckInput(
                measurement=measurement, validity=validity, authority=authority,
                scope=scope.of(records.checks.get(name)), max_attempts=max_attempts,
            )
        )  # fmt: skip
    elif scope.leaves_out_unmeasured and measurement is None:
        gate = left_out(scope.leaves_out_unmeasured)
    else:
        gate = decide(
            GateInput(
                measurement=measurement, validity=validity, authority=authority,
                threshold=threshold, metric=metric, baseline=records.baselines.get(metric_id),
                max_attempts=max_attempts,
            )
        )  # fmt: skip
    return MetricCard(
        id=metric_id,
        measurement=measurement,
        validity=validity,
        authority=authority,
        threshold=threshold,
        gate=gate,
        dataset=None if name is not None else _dataset(metric, records, measurement),
    )


_STOPPING = frozenset({Status.FAIL, Status.UNSOUND, Status.BLOCKED})


def _with_costly(card: MetricCard, formats: dict[str, str]) -> MetricCard:
    """The card with the samples that cost it most, when its gate failed, is unsound or is
    blocked: what a reader opens first."""
    if card.status not in _STOPPING:
        return card
    from evalglass.core.costly import costly_samples

    costly = costly_samples(card.measurement, card.threshold)
    if not costly:
        return card
    return attrs.evolve(card, costly=costly, costly_format=formats.get(costly[0].source))


def _dataset(
    metric: MetricRecord | None, records: HostRecords, measurement: Measurement | None
) -> DatasetCheck | None:
    dataset_id = metric.dataset if metric is not None else None
    seen = measurement.run.dataset if measurement is not None else None
    if dataset_id is None and seen is None:
        return None
    record = records.datasets.get(dataset_id) if dataset_id is not None else None
    return check_dataset(dataset_id, record, seen)


def at_level(measurement: Measurement, level: float) -> Measurement:
    """The measurement with its interval at the metric's own level (none if it cannot be)."""
    interval = measurement.interval
    if interval is None or interval.level == level:
        return measurement
    return attrs.evolve(measurement, interval=stats.at_level(interval, level))


def policy_outcome(
    cards: tuple[MetricCard, ...], policy: SuccessPolicy | None, scope: Scope = NO_CHECKS
) -> PolicyOutcome:
    """The verdict under `policy`, and the numbers that decided it.

    A fast-tier run (`evalglass run --tier fast`, on every push) is a part of the whole: it
    runs the fast checks and reads whatever outputs it is given. A must_pass id it does not
    measure (a check of the full tier, an eval metric no output given names) is left to the
    full run, which asks for it, instead of blocking every push; it is listed as `deferred`.
    Everything the fast run does measure is held to the policy as in a full run."""
    statuses = {card.id: card.status for card in cards}
    if policy is None or not policy.must_pass:
        return decide_run(statuses, policy)
    named = {card.id: card for card in cards if card.id in policy.must_pass}
    deferred: tuple[str, ...] = ()
    if scope.tier is Tier.FAST:
        deferred = tuple(
            i for i in policy.must_pass
            if i not in named or named[i].measurement is None or not_started(named[i])
        )  # fmt: skip
    not_run = {i for i, card in named.items() if not_started(card)}
    asked = attrs.evolve(policy, must_pass=tuple(i for i in policy.must_pass if i not in deferred))
    outcome = decide_run(statuses, asked, not_run)
    return attrs.evolve(outcome, policy=policy, deferred=deferred)


def not_started(card: MetricCard) -> bool:
    """A host check that could gate and that this run did not start (another tier, `score`)."""
    return card.status is Status.NOT_RUN


def _model(evidence: Evidence) -> str | None:
    """The model under evaluation when every output agrees on one; None when none or several.
    A host check evaluates no model."""
    models = {m.run.models for m in evidence.measurements.values() if not m.attempts}
    named = models.pop() if len(models) == 1 else ()
    return named[0] if len(named) == 1 else None
