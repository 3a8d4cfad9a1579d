"""Generic per-sample rows, as JSONL or CSV: `metric`, `score`, and optionally `sample_id`,
`cluster`, `model`. Streams the file once and keeps running sums, not the rows; rows that share
a `cluster` get a cluster-robust interval.

A sample id seen twice for one metric is an input error: silently counting it twice would
inflate n and narrow the interval.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterator
from pathlib import Path

import attrs

from evalglass import stats
from evalglass.errors import OutputError
from evalglass.evidence.model import Measurement, Run

FORMAT = "rows"
_REQUIRED = ("metric", "score")


def sniff(path: Path, head: bytes) -> bool:
    first = head.split(b"\n", 1)[0].strip()
    if path.suffix.lower() == ".jsonl":
        return first.startswith(b"{") and b'"metric"' in first and b'"score"' in first
    if path.suffix.lower() == ".csv":
        columns = {c.strip().strip('"') for c in first.decode("utf-8", "replace").split(",")}
        return set(_REQUIRED) <= columns
    return False


@attrs.define
class _Running:
    """Welford's running mean and variance, and whether every score so far was 0 or 1."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0
    binary: bool = True
    bounded: bool = True
    finite: bool = True
    low: float = math.inf
    high: float = -math.inf
    ids: set[str] = attrs.Factory(set)
    # Per-cluster sums and counts; a row without a cluster is a cluster of its own.
    cluster_sums: dict[object, float] = attrs.Factory(dict)
    cluster_counts: dict[object, int] = attrs.Factory(dict)

    def add(self, score: float, cluster: object) -> None:
        if not math.isfinite(score):
            self.finite = False
        self.n += 1
        delta = score - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (score - self.mean)
        self.binary = self.binary and score in (0.0, 1.0)
        self.bounded = self.bounded and 0.0 <= score <= 1.0
        self.low, self.high = min(self.low, score), max(self.high, score)
        key = ("row", self.n) if cluster in (None, "") else ("cluster", cluster)
        self.cluster_sums[key] = self.cluster_sums.get(key, 0.0) + score
        self.cluster_counts[key] = self.cluster_counts.get(key, 0) + 1


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    metrics: dict[str, _Running] = {}
    models: set[str] = set()
    for line, row in _rows(path, shown):
        metric, score = row.get("metric"), row.get("score")
        if not isinstance(metric, str) or not metric:
            raise OutputError(shown, "metric: expected a non-empty string", line)
        value = _score(score, shown, line)
        running = metrics.setdefault(metric, _Running())
        sample_id = row.get("sample_id")
        if sample_id not in (None, ""):
            key = f"{sample_id}\x00{row.get('epoch') or ''}"
            if key in running.ids:
                raise OutputError(
                    shown, f"sample_id {sample_id!r} appears twice for metric '{metric}'", line
                )
            running.ids.add(key)
        model = row.get("model")
        if isinstance(model, str) and model:
            models.add(model)
        running.add(value, row.get("cluster"))
    if len(models) > 1:
        raise OutputError(shown, f"rows name several models: {', '.join(sorted(models))}")
    run = Run(source=shown, model=models.pop() if models else None)
    return tuple(_measurement(metric, running, run) for metric, running in metrics.items())


def _measurement(metric: str, r: _Running, run: Run) -> Measurement:
    if not r.finite:
        return Measurement(id=metric, run=run, value=math.nan, n=r.n)
    if len(r.cluster_sums) < r.n:
        interval = stats.clustered_from(r.n, r.mean, r.cluster_sums, r.cluster_counts)
    elif r.binary:
        interval = stats.wilson(r.mean * r.n, r.n)
    else:
        # Identical scores have no spread, whatever rounding left in the running sum.
        spread = r.n > 1 and r.low != r.high
        sd = math.sqrt(max(r.m2, 0.0) / (r.n - 1)) if spread else 0.0
        interval = stats.student_t_from(r.mean, sd, r.n, bounded=r.bounded)
    return Measurement(id=metric, run=run, value=r.mean, n=r.n, interval=interval)


def _rows(path: Path, shown: str) -> Iterator[tuple[int, dict[str, object]]]:
    try:
        with path.open(encoding="utf-8", newline="") as stream:
            if path.suffix.lower() == ".csv":
                reader = csv.DictReader(stream)
                missing = [c for c in _REQUIRED if c not in (reader.fieldnames or [])]
                if missing:
                    raise OutputError(shown, f"CSV header lacks column(s) {', '.join(missing)}", 1)
                for row in reader:
                    yield reader.line_num, dict(row)
                return
            for number, text in enumerate(stream, start=1):
                if not text.strip():
                    continue
                try:
                    row = json.loads(text)
                except json.JSONDecodeError as exc:
                    raise OutputError(shown, f"not valid JSON: {exc.msg}", number) from exc
                if not isinstance(row, dict):
                    raise OutputError(shown, "expected one JSON object per line", number)
                yield number, row
    except UnicodeDecodeError as exc:
        raise OutputError(shown, "not UTF-8 text") from exc
    except csv.Error as exc:
        raise OutputError(shown, f"not valid CSV: {exc}") from exc
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {exc.strerror or exc}") from exc


def _score(raw: object, shown: str, line: int) -> float:
    if isinstance(raw, bool):
        return float(raw)
    if isinstance(raw, int | float):
        return float(raw)
    if isinstance(raw, str):
        try:
            return float(raw)
        except ValueError:
            pass
    raise OutputError(shown, f"score: expected a number, got {raw!r}", line)
