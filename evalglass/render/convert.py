"""A Scorecard as the JSON contract (schema_version 1), key by key.

The shape is the machine contract documented in docs/scorecard.md; change it only with a new
schema_version. Every key is written out here rather than derived from the attrs classes, so a
field added to an internal class cannot change the contract unseen; it is also several times
faster than deriving it.
"""

from __future__ import annotations

import math
from typing import Any

from evalglass.core.authority import Authority
from evalglass.core.decision import GateResult
from evalglass.core.regression import Difference
from evalglass.core.scorecard import Counts, MetricCard, Scorecard
from evalglass.core.validity import Validity
from evalglass.evidence.model import EarlierAttempt, Measurement
from evalglass.reasons import Reason
from evalglass.records.model import ThresholdRecord

SCHEMA_VERSION = 1


def _reasons(reasons: tuple[Reason, ...]) -> list[dict[str, str]]:
    return [{"code": r.code.value, "message": r.message} for r in reasons]


def _validity(v: Validity) -> dict[str, Any]:
    return {"valid": v.valid, "reasons": _reasons(v.reasons)}


def _authority(a: Authority) -> dict[str, Any]:
    return {"outcome": a.outcome.value, "reasons": _reasons(a.reasons), "notes": _reasons(a.notes)}


def _gate(g: GateResult) -> dict[str, Any]:
    return {
        "result": g.result.value,
        "reasons": _reasons(g.reasons),
        "evidence": g.evidence,
        "change": None if g.change is None else _change(g.change),
    }


def _counts(c: Counts) -> dict[str, int]:
    return {
        "passed": c.passed,
        "warned": c.warned,
        "failed": c.failed,
        "blocked": c.blocked,
        "informational": c.informational,
    }


def _finite(x: float | None) -> float | None:
    # JSON has no NaN; a non-finite value is null here and named in validity's reasons.
    return x if x is not None and math.isfinite(x) else None


def _threshold(t: ThresholdRecord) -> dict[str, Any]:
    return {
        "op": t.op.value,
        "value": t.value,
        "max_drop": t.max_drop,
        "max_relative_drop": t.max_relative_drop,
        "warn_value": t.warn_value,
        "approval": t.approval.value,
        "approved_by": t.approved_by,
        "approved_on": None if t.approved_on is None else t.approved_on.isoformat(),
    }


def _attempt(a: EarlierAttempt) -> dict[str, Any]:
    return {"source": a.source, "started": a.started, "value": _finite(a.value), "n": a.n}


def _change(change: Difference) -> dict[str, Any]:
    interval = change.interval
    return {
        "value": _finite(change.value),
        "interval": None if interval is None else [_finite(interval.low), _finite(interval.high)],
        "level": None if interval is None else interval.level,
        "method": None if interval is None else interval.method.value,
        "paired": change.paired,
    }


def _samples(m: Measurement | None) -> list[dict[str, Any]]:
    if m is None or not m.samples:
        return []
    return [{"id": s.id, "epoch": s.epoch, "score": _finite(s.score)} for s in m.samples]


def _card(card: MetricCard) -> dict[str, Any]:
    m: Measurement | None = card.measurement
    interval = None if m is None else m.interval
    return {
        "id": card.id,
        "value": None if m is None else _finite(m.value),
        "n": None if m is None else m.n,
        "interval": None if interval is None else [_finite(interval.low), _finite(interval.high)],
        "level": None if interval is None else interval.level,
        "method": None if interval is None else interval.method.value,
        "clusters": None if interval is None else interval.clusters,
        "missing": 0 if m is None else m.missing,
        "model": None if m is None else m.run.model,
        "source": None if m is None else m.run.source,
        "earlier_runs": [] if m is None else [_attempt(a) for a in m.earlier],
        "validity": _validity(card.validity),
        "authority": _authority(card.authority),
        "threshold": None if card.threshold is None else _threshold(card.threshold),
        "gate": _gate(card.gate),
    }


def scorecard_to_dict(scorecard: Scorecard, keep_samples: bool = False) -> dict[str, Any]:
    """The contract; with `keep_samples`, each metric also carries its per-sample scores, so the
    file can serve later as an approved baseline for paired comparisons."""
    metrics = [_card(card) for card in scorecard.metrics]
    if keep_samples:
        for doc, card in zip(metrics, scorecard.metrics, strict=True):
            doc["samples"] = _samples(card.measurement)
    return {
        "schema_version": SCHEMA_VERSION,
        "verdict": scorecard.verdict.value,
        "exit_code": scorecard.exit_code,
        "model": scorecard.model,
        "sources": list(scorecard.sources),
        "counts": _counts(scorecard.counts),
        "metrics": metrics,
    }
