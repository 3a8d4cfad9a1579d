"""The one cattrs converter: unstructures a Scorecard into the JSON contract (schema_version 1).

The shape is the machine contract documented in docs/scorecard.md; change it only with a new
schema_version.
"""

from __future__ import annotations

import datetime as dt
import enum
import math
from typing import Any

import cattrs

from evalglass.evidence.model import EarlierAttempt, Measurement
from evalglass.reasons import Reason
from evalglass.records.model import ThresholdRecord
from evalglass.regression import Difference
from evalglass.scorecard import MetricCard, Scorecard

SCHEMA_VERSION = 1

converter = cattrs.Converter()
converter.register_unstructure_hook(enum.Enum, lambda e: e.value)
converter.register_unstructure_hook(dt.date, lambda d: d.isoformat())
converter.register_unstructure_hook(Reason, lambda r: {"code": r.code.value, "message": r.message})


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


converter.register_unstructure_hook(Difference, _change)


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
        "validity": converter.unstructure(card.validity),
        "authority": converter.unstructure(card.authority),
        "threshold": None if card.threshold is None else _threshold(card.threshold),
        "gate": converter.unstructure(card.gate),
    }


converter.register_unstructure_hook(MetricCard, _card)


def scorecard_to_dict(scorecard: Scorecard, keep_samples: bool = False) -> dict[str, Any]:
    """The contract; with `keep_samples`, each metric also carries its per-sample scores, so the
    file can serve later as an approved baseline for paired comparisons."""
    metrics = [converter.unstructure(card) for card in scorecard.metrics]
    if keep_samples:
        for doc, card in zip(metrics, scorecard.metrics, strict=True):
            doc["samples"] = _samples(card.measurement)
    return {
        "schema_version": SCHEMA_VERSION,
        "verdict": scorecard.verdict.value,
        "exit_code": scorecard.exit_code,
        "model": scorecard.model,
        "sources": list(scorecard.sources),
        "counts": converter.unstructure(scorecard.counts),
        "metrics": metrics,
    }
