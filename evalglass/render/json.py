"""The JSON scorecard: the view model (view.py) mapped field by field onto the contract's classes,
then written by the contract's converter. The words in it (the evidence line, the unmet
messages) are the view's, made once for every format. Reads a Scorecard; never decides."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

from evalglass import contract as c
from evalglass.core.authority import Authority
from evalglass.core.dataset_check import DatasetCheck
from evalglass.core.needed import Needed
from evalglass.core.scorecard import MetricCard, Scorecard
from evalglass.core.status import Status
from evalglass.core.validity import Validity
from evalglass.evidence.model import Interval, Sample
from evalglass.reasons import Reason
from evalglass.records.model import ApprovedFor, ThresholdRecord
from evalglass.render.needed_words import assumptions_text, missing_text
from evalglass.render.policy_view import PolicyView
from evalglass.render.view import (
    AttemptView,
    EarlierRunView,
    MetricView,
    metric_view,
    scorecard_view,
)

if TYPE_CHECKING:
    from evalglass.core.comparison import Comparison
    from evalglass.core.regression import Difference


def render(scorecard: Scorecard, keep_samples: bool = False) -> str:
    """The scorecard JSON, written by the contract's converter; with `keep_samples`, each metric
    also carries its per-sample scores, so the file can serve as a paired baseline."""
    return c.dumps(to_contract(scorecard, keep_samples))


def to_contract(scorecard: Scorecard, keep_samples: bool = False) -> c.Scorecard:
    """The contract's view of a scorecard, from its view model; with `keep_samples`, each metric
    also carries its per-sample scores, so the file can serve later as an approved baseline for
    paired comparisons."""
    view = scorecard_view(scorecard)
    counts = view.counts
    return c.Scorecard(
        schema_version=c.SCHEMA_VERSION,
        verdict=view.verdict.value,
        exit_code=view.exit_code,
        evaluated_at=view.evaluated_at,
        model=view.model,
        sources=view.sources,
        records_folder=view.records_folder,
        records_at=None
        if view.records_ref is None or view.records_commit is None
        else c.RecordsAt(ref=view.records_ref, commit=view.records_commit),
        counts=c.Counts(
            passed=counts.passed,
            warned=counts.warned,
            failed=counts.failed,
            blocked=counts.blocked,
            informational=counts.informational,
            not_run=counts.not_run,
        ),
        policy=_policy(view.policy),
        metrics=tuple(_metric(m, keep_samples) for m in view.metrics),
        skipped=tuple(c.Skipped(source=s.source, reason=s.reason) for s in view.skipped),
        tier=None if view.tier is None else view.tier.value,
        comparison=None if view.compared is None else _comparison(view.compared),
    )


def _comparison(comparison: Comparison) -> c.Comparison:
    return c.Comparison(
        source=comparison.source,
        evaluated_at=comparison.evaluated_at,
        stale=comparison.stale,
        metrics=tuple(
            c.MetricComparison(
                id=m.id,
                earlier=_finite(m.earlier),
                change=None if m.change is None else _change(m.change),
            )
            for m in comparison.metrics
        ),
    )


def _policy(p: PolicyView) -> c.Policy:
    return c.Policy(
        source=p.source.value,
        mode=p.mode.value,
        min_gates=p.min_gates,
        min_pass_rate=p.min_pass_rate,
        must_pass=p.must_pass,
        max_attempts=p.max_attempts,
        decided_by=p.decided_by.value,
        enforced=p.enforced,
        passed=p.passed,
        pass_rate=p.pass_rate,
        tolerated=tuple(c.Tolerated(id=i, status=_status(s)) for i, s in p.tolerated),
        unmet=tuple(
            c.Unmet(
                id=u.id, status=None if u.status is None else _status(u.status), message=u.message
            )
            for u in p.unmet
        ),
    )


def _status(status: Status) -> c.StatusName:
    # The contract's vocabulary is pinned to the enum's values by a test.
    return cast("c.StatusName", status.value)


def _finite(x: float | None) -> float | None:
    # JSON has no NaN; a non-finite value is null here and named in validity's reasons.
    return x if x is not None and math.isfinite(x) else None


def _pair(interval: Interval | None) -> tuple[float | None, float | None] | None:
    return None if interval is None else (_finite(interval.low), _finite(interval.high))


def _reasons(reasons: tuple[Reason, ...]) -> tuple[c.Reason, ...]:
    return tuple(c.Reason(r.code.value, r.message) for r in reasons)


def _validity(v: Validity) -> c.Validity:
    return c.Validity(valid=v.valid, reasons=_reasons(v.reasons))


def _authority(a: Authority) -> c.Authority:
    return c.Authority(
        outcome=a.outcome.value, reasons=_reasons(a.reasons), notes=_reasons(a.notes)
    )


def _change(change: Difference) -> c.Change:
    interval = change.interval
    return c.Change(
        value=_finite(change.value),
        interval=_pair(interval),
        level=None if interval is None else interval.level,
        method=None if interval is None else interval.method.value,
        paired=change.paired,
    )


def _needed(n: Needed) -> c.Needed:
    return c.Needed(
        value_at_n=None if n.value_at_n is None else _finite(n.value_at_n),
        n_at_value=n.n_at_value,
        assumptions=assumptions_text(n),
        reason=missing_text(n) or None,
    )


def _gate(m: MetricView) -> c.Gate:
    g = m.gate
    return c.Gate(
        result=g.result.value,
        reasons=_reasons(g.reasons),
        evidence=m.rests_on,
        change=None if g.change is None else _change(g.change),
        needed=None if g.needed is None else _needed(g.needed),
    )


def _threshold(t: ThresholdRecord) -> c.Threshold:
    return c.Threshold(
        op=t.op.value,
        value=t.value,
        max_drop=t.max_drop,
        max_relative_drop=t.max_relative_drop,
        warn_value=t.warn_value,
        approval=t.approval.value,
        approved_by=t.approved_by,
        approved_on=None if t.approved_on is None else t.approved_on.isoformat(),
        approved_for=None if t.approved_for is None else _approved_for(t.approved_for),
        expires_on=None if t.expires_on is None else t.expires_on.isoformat(),
    )


def _approved_for(a: ApprovedFor) -> c.ApprovedFor:
    return c.ApprovedFor(
        dataset_version=a.dataset_version, fingerprint=a.fingerprint, judge_model=a.judge_model
    )


def _earlier(a: EarlierRunView) -> c.EarlierRun:
    return c.EarlierRun(source=a.source, started=a.started, value=_finite(a.value), n=a.n)


def _check_attempt(a: AttemptView) -> c.Attempt:
    return c.Attempt(
        outcome=cast("c.OutcomeOfAttempt", a.outcome),
        command=a.command,
        found=a.found,
        exit_code=a.exit_code,
        duration=None if a.duration is None else _finite(a.duration),
        timed_out=a.timed_out,
        cached=None
        if not a.cached_commit
        else c.CachedPass(commit=a.cached_commit, recorded=a.cached_on),
        stderr=a.stderr,
        stdout=a.stdout,
    )


def _dataset(d: DatasetCheck) -> c.Dataset:
    return c.Dataset(
        record=d.record,
        name=d.name,
        version=d.version,
        fingerprint=d.fingerprint,
        name_verified=d.name_verified,
        version_verified=d.version_verified,
        fingerprint_verified=d.fingerprint_verified,
    )


def _samples(samples: tuple[Sample, ...]) -> tuple[c.Sample, ...]:
    return tuple(c.Sample(id=s.id, epoch=s.epoch, score=_finite(s.score)) for s in samples)


def metric(card: MetricCard, keep_samples: bool = False) -> c.Metric:
    """One card as the contract's metric entry: what `explain --format json` shows as its card."""
    return _metric(metric_view(card), keep_samples)


def _metric(m: MetricView, keep_samples: bool) -> c.Metric:
    interval = m.interval
    return c.Metric(
        id=m.id,
        value=_finite(m.value),
        n=m.n,
        interval=_pair(interval),
        level=None if interval is None else interval.level,
        method=None if interval is None else interval.method.value,
        method_basis=None if interval is None else interval.method_basis.value,
        clusters=None if interval is None else interval.clusters,
        missing=m.missing,
        model=m.model,
        source=m.source,
        dataset=None if m.dataset is None else _dataset(m.dataset),
        earlier_runs=tuple(_earlier(a) for a in m.earlier_runs),
        validity=_validity(m.validity),
        authority=_authority(m.authority),
        threshold=None if m.threshold is None else _threshold(m.threshold),
        gate=_gate(m),
        samples=_samples(m.samples) if keep_samples else None,
        attempts=tuple(_check_attempt(a) for a in m.attempts) if m.attempts else None,
        costly_samples=tuple(
            c.CostlySample(id=s.id, epoch=s.epoch, score=s.score, source=s.source) for s in m.costly
        )
        or None,
    )
