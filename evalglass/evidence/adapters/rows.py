"""Generic per-sample rows, as JSONL or CSV: `metric`, `score`, and optionally `sample_id`,
`cluster`, `model`. Streams the file once and keeps each score (8 bytes a row), not the rows;
rows that share a `cluster` get a cluster-robust interval.

A sample id seen twice for one metric is an input error: silently counting it twice would
inflate n and narrow the interval.
"""

from __future__ import annotations

import array
import csv
import json
import math
from collections.abc import Iterator
from pathlib import Path

import attrs

from evalglass.errors import OutputError
from evalglass.evidence import progress, stats
from evalglass.evidence.model import Measurement, Run
from evalglass.evidence.registry import Adapter

ROWS_REQUIRED = ("metric", "score")
# json.loads of a str, less its per-call checks; a line opening with a byte-order mark still goes
# to json.loads, for its own message.
_decode = json.JSONDecoder().decode


@attrs.define
class _Scores:
    """One metric's rows: each score as read (8 bytes a row, not the row), which rows named a
    cluster, the sum and count per named cluster, and the sample keys seen."""

    values: array.array[float] = attrs.Factory(lambda: array.array("d"))
    clustered: bytearray = attrs.Factory(bytearray)
    cluster_sums: dict[object, float] = attrs.Factory(dict)
    cluster_counts: dict[object, int] = attrs.Factory(dict)
    ids: set[str] = attrs.Factory(set)

    def add_clustered(self, score: float, cluster: object) -> None:
        self.values.append(score)
        self.clustered.append(1)
        key = ("cluster", cluster)
        self.cluster_sums[key] = self.cluster_sums.get(key, 0.0) + score
        self.cluster_counts[key] = self.cluster_counts.get(key, 0) + 1

    @property
    def clusters(self) -> int:
        """Named clusters, and each row without a cluster as a cluster of its own."""
        return len(self.cluster_sums) + self.clustered.count(0)

    def cluster_totals(self) -> tuple[dict[object, float], dict[object, int]]:
        """Every cluster's sum and count, each row without a cluster as a cluster of one."""
        sums, counts = dict(self.cluster_sums), dict(self.cluster_counts)
        for row, (score, named) in enumerate(zip(self.values, self.clustered, strict=True)):
            if not named:
                sums["row", row] = 0.0 + score
                counts["row", row] = 1
        return sums, counts


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    metrics: dict[str, _Scores] = {}
    models: set[str] = set()
    # One copy of each sample key, shared by the id sets of every metric that scores the sample.
    keys: dict[str, str] = {}
    for line, row in _rows(path, shown):
        metric, score = row.get("metric"), row.get("score")
        if not isinstance(metric, str) or not metric:
            raise OutputError(shown, "metric: expected a non-empty string", line)
        if type(score) is float or type(score) is int:
            value = float(score)
        else:
            value = _score(score, shown, line)
        scores = metrics.get(metric)
        if scores is None:
            scores = metrics[metric] = _Scores()
        sample_id = row.get("sample_id")
        if sample_id not in (None, ""):
            key = f"{sample_id}\x00{row.get('epoch') or ''}"
            key = keys.setdefault(key, key)
            if key in scores.ids:
                raise OutputError(
                    shown, f"sample_id {sample_id!r} appears twice for metric '{metric}'", line
                )
            scores.ids.add(key)
        model = row.get("model")
        if isinstance(model, str) and model:
            models.add(model)
        cluster = row.get("cluster")
        if cluster in (None, ""):
            # Most rows: done here rather than in a method call, which is a third of a row's cost.
            scores.values.append(value)
            scores.clustered.append(0)
        else:
            scores.add_clustered(value, cluster)
    if len(models) > 1:
        raise OutputError(shown, f"rows name several models: {', '.join(sorted(models))}")
    run = Run(source=shown, model=models.pop() if models else None)
    return tuple(_measurement(metric, scores, run) for metric, scores in metrics.items())


def _measurement(metric: str, scores: _Scores, run: Run) -> Measurement:
    values, n = scores.values, len(scores.values)
    if not all(map(math.isfinite, values)):
        return Measurement(id=metric, run=run, value=math.nan, n=n)
    mean, m2 = _welford(values)
    if scores.clusters < n:
        interval = stats.clustered_from(n, mean, *scores.cluster_totals())
    elif all(v in (0.0, 1.0) for v in values):
        interval = stats.wilson(mean * n, n)
    else:
        # Identical scores have no spread, whatever rounding left in the running sum.
        spread = n > 1 and min(values) != max(values)
        sd = math.sqrt(max(m2, 0.0) / (n - 1)) if spread else 0.0
        bounded = all(0.0 <= v <= 1.0 for v in values)
        interval = stats.student_t_from(mean, sd, n, bounded=bounded)
    return Measurement(id=metric, run=run, value=mean, n=n, interval=interval)


def _welford(values: array.array[float]) -> tuple[float, float]:
    """The mean and the sum of squared deviations, updated row by row in the order read."""
    mean, m2 = 0.0, 0.0
    for n, score in enumerate(values, start=1):
        delta = score - mean
        mean += delta / n
        m2 += delta * (score - mean)
    return mean, m2


def _rows(path: Path, shown: str) -> Iterator[tuple[int, dict[str, object]]]:
    try:
        with progress.open_text(path, encoding="utf-8", newline="") as stream:
            if path.suffix.lower() == ".csv":
                reader = csv.DictReader(stream)
                missing = [c for c in ROWS_REQUIRED if c not in (reader.fieldnames or [])]
                if missing:
                    raise OutputError(shown, f"CSV header lacks column(s) {', '.join(missing)}", 1)
                for row in reader:
                    yield reader.line_num, dict(row)
                return
            for number, text in enumerate(stream, start=1):
                if not text or text.isspace():
                    continue
                try:
                    row = json.loads(text) if text.startswith("\ufeff") else _decode(text)
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


def sniff(path: Path, head: bytes) -> bool:
    first = head.split(b"\n", 1)[0].strip()
    if path.suffix.lower() == ".jsonl":
        return first.startswith(b"{") and b'"metric"' in first and b'"score"' in first
    if path.suffix.lower() == ".csv":
        columns = {c.strip().strip('"') for c in first.decode("utf-8", "replace").split(",")}
        return set(ROWS_REQUIRED) <= columns
    return False


ADAPTER = Adapter(
    name="rows",
    recognises="per-sample rows: .jsonl objects or .csv columns with metric and score",
    sniff=sniff,
    read=read,
    rank=1,
)
