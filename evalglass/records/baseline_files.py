"""Baselines that point to a saved scorecard JSON: read the metric's numbers (and per-sample
scores, when it was saved with --keep-samples) from that file into the baseline record.

The file is an approved artifact beside the records, reviewed like them; it is never "the last
run". Reading goes through a callable, so the same code serves the working tree and a git ref.
"""

from __future__ import annotations

import json
import math
import posixpath
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from evalglass.errors import RecordError
from evalglass.evidence.model import Sample
from evalglass.evidence.stats import t_quantile, z_quantile
from evalglass.records.model import BaselineRecord

Reader = Callable[[str], "str | None"]


def attach_scorecards(
    baselines: Mapping[str, BaselineRecord], read: Reader
) -> dict[str, BaselineRecord]:
    """Every baseline, with those naming a scorecard filled in from it."""
    cache: dict[str, Any] = {}
    return {
        metric_id: _filled(metric_id, b, read, cache) if b.scorecard else b
        for metric_id, b in baselines.items()
    }


def _filled(metric_id: str, b: BaselineRecord, read: Reader, cache: dict[str, Any]) -> BaselineRecord:
    assert b.scorecard is not None
    path, line = b.origin.path, b.origin.line

    def fail(message: str) -> RecordError:
        return RecordError(path, f"baseline '{metric_id}': scorecard '{b.scorecard}' {message}", line)

    if b.scorecard not in cache:
        text = read(posixpath.normpath(b.scorecard))
        if text is None:
            raise fail("not found next to the records")
        try:
            cache[b.scorecard] = json.loads(text)
        except json.JSONDecodeError as exc:
            raise fail(f"is not valid JSON ({exc.msg}, line {exc.lineno})") from None
    doc = cache[b.scorecard]
    metrics = doc.get("metrics") if isinstance(doc, dict) else None
    if not isinstance(metrics, list):
        raise fail("is not an evalglass scorecard JSON")
    entry = next((m for m in metrics if isinstance(m, dict) and m.get("id") == metric_id), None)
    if entry is None:
        raise fail(f"has no metric '{metric_id}'")
    value, n = entry.get("value"), entry.get("n")
    if not isinstance(value, int | float) or not isinstance(n, int) or n < 1:
        raise fail(f"has no finite value and n for '{metric_id}'")
    return attrs.evolve(
        b, value=float(value), n=n, stderr=b.stderr or _stderr(entry), samples=_samples(entry, fail)
    )


def _stderr(entry: Mapping[str, Any]) -> float | None:
    """Undo the interval into its standard error, where its method is value ± q·se."""
    interval, level, method = entry.get("interval"), entry.get("level"), entry.get("method")
    if not (isinstance(interval, list) and len(interval) == 2 and isinstance(level, float)):
        return None
    if not all(isinstance(x, int | float) for x in interval):
        return None
    half = float(interval[1] - interval[0]) / 2
    if method == "normal":
        return half / z_quantile(level)
    if method == "student_t" and isinstance(entry.get("n"), int) and entry["n"] > 1:
        return half / t_quantile(0.5 + level / 2, entry["n"] - 1)
    if method == "clustered" and isinstance(entry.get("clusters"), int) and entry["clusters"] > 1:
        return half / t_quantile(0.5 + level / 2, entry["clusters"] - 1)
    return None


def _samples(entry: Mapping[str, Any], fail: Callable[[str], RecordError]) -> tuple[Sample, ...] | None:
    raw = entry.get("samples")
    if not raw:
        return None
    seen: set[tuple[str, object]] = set()
    samples = []
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("score"), int | float):
            raise fail("has a malformed sample")
        key = (str(item.get("id")), item.get("epoch"))
        if key in seen:
            # Collapsing duplicates would silently change the paired comparison.
            raise fail(f"repeats sample id '{key[0]}'" + (f" epoch {key[1]}" if key[1] else ""))
        seen.add(key)
        score = float(item["score"])
        if not math.isfinite(score):
            raise fail("has a non-finite sample score")
        epoch = item.get("epoch") if isinstance(item.get("epoch"), int) else None
        samples.append(Sample(id=key[0], score=score, epoch=epoch))
    return tuple(samples)
