"""Generic per-sample rows, as JSONL or CSV: `metric`, `score`, and optionally `sample_id`,
`cluster`, `model`. Streams the file once and keeps each score (8 bytes a row), not the rows;
rows that share a `cluster` get a cluster-robust interval.

A sample id seen twice for one metric is an input error: silently counting it twice would
inflate n and narrow the interval.
"""

from __future__ import annotations

import array
import csv
import io
import json
import math
from collections.abc import Iterator
from pathlib import Path

import attrs
import orjson

from evalglass.errors import OutputError
from evalglass.evidence import aggregate, progress
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.model import Measurement
from evalglass.evidence.registry import Adapter

ROWS_REQUIRED = ("metric", "score")
# orjson parses a line in a third of json's time; what it refuses goes to json.
_fast = orjson.loads
# json.loads of a str, less its per-call checks; a line opening with a byte-order mark still goes
# to json.loads, for its own message.
_decode = json.JSONDecoder().decode


@attrs.define
class _Scores:
    """One metric's rows: the scores of rows naming no cluster and of rows naming one (8 bytes a
    row, not the row), each named cluster's count and exact sums, and the sample keys seen."""

    loose: array.array[float] = attrs.Factory(lambda: array.array("d"))
    clustered: array.array[float] = attrs.Factory(lambda: array.array("d"))
    clusters: dict[str, list[int]] = attrs.Factory(dict)
    ids: set[str] = attrs.Factory(set)
    missing: int = 0

    def add_clustered(self, score: float, cluster: object, shown: str, line: int) -> None:
        if type(cluster) is not str:
            if not isinstance(cluster, int | float) or isinstance(cluster, bool):
                raise OutputError(shown, "cluster: expected a string or a number", line)
            cluster = str(cluster)
        self.clustered.append(score)
        sums = self.clusters.get(cluster)
        if sums is None:
            sums = self.clusters[cluster] = [0, 0, 0]
        sums[0] += 1
        if math.isfinite(score):
            q = aggregate.quantum(score)
            sums[1] += q
            sums[2] += q * q

    def stats(self) -> aggregate.MetricStats:
        moments = aggregate.moments_of(self.loose, self.missing)
        if self.clustered:
            moments = moments + aggregate.moments_of(self.clustered)
        clusters = {
            name: aggregate.Cluster(n=n, total=total, squares=squares)
            for name, (n, total, squares) in self.clusters.items()
        }
        return aggregate.MetricStats(moments=moments, clusters=clusters)


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    return aggregate.measurements(aggregates(path, shown))


def aggregates(path: Path, shown: str) -> aggregate.Aggregates:
    """The file's sufficient statistics, per metric: what every other path computes too."""
    metrics: dict[str, _Scores] = {}
    models: set[str] = set()
    # One copy of each sample key, shared by the id sets of every metric that scores the sample.
    keys: dict[str, str] = {}
    low, high = -aggregate.LIMIT, aggregate.LIMIT
    kept = c.SampleBudget(shown)
    for line, row in _rows(path, shown):
        kept.add(c.Cost.ROW)
        metric, score = row.get("metric"), row.get("score")
        if type(metric) is not str or not metric:
            raise OutputError(shown, "metric: expected a non-empty string", line)
        scores = metrics.get(metric)
        if scores is None:
            scores = metrics[metric] = _Scores()
        sample_id = row.get("sample_id")
        if sample_id is not None and sample_id != "":
            key = f"{sample_id}\x00{row.get('epoch') or ''}"
            key = keys.setdefault(key, key)
            if key in scores.ids:
                raise OutputError(
                    shown,
                    f"sample_id {c.shown_value(sample_id)} appears twice for metric '{metric}'",
                    line,
                )
            scores.ids.add(key)
        model = row.get("model")
        if model and type(model) is str:
            models.add(model)
        if type(score) is float:
            value = score
        elif score is None or score == "":
            # An errored or skipped sample: missing, never a pass or a failure.
            scores.missing += 1
            continue
        else:
            value = _score(score, shown, line)
        if not low < value < high and math.isfinite(value):
            raise OutputError(
                shown, f"score: {value!r} is beyond ±2^40, more than evalglass sums exactly", line
            )
        cluster = row.get("cluster")
        if cluster is None or cluster == "":
            # Most rows: done here rather than in a method call, which is a third of a row's cost.
            scores.loose.append(value)
        else:
            scores.add_clustered(value, cluster, shown, line)
    if len(models) > 1:
        raise OutputError(shown, f"rows name several models: {', '.join(sorted(models))}")
    return aggregate.Aggregates(
        source=shown,
        model=models.pop() if models else None,
        metrics={metric: scores.stats() for metric, scores in metrics.items()},
    )


def _rows(path: Path, shown: str) -> Iterator[tuple[int, dict[str, object]]]:
    try:
        if path.suffix.lower() == ".csv":
            yield from _csv_rows(path, shown)
            return
        with progress.open_binary(path) as stream:
            for number, line in enumerate(stream, start=1):
                try:
                    row = _fast(line)
                except ValueError:
                    if not line.strip():
                        continue
                    row = _slow(line, shown, number)
                if type(row) is not dict:
                    raise OutputError(shown, "expected one JSON object per line", number)
                yield number, row
    except UnicodeDecodeError as exc:
        raise OutputError(shown, "not UTF-8 text") from exc
    except csv.Error as exc:
        raise OutputError(shown, f"not valid CSV: {exc}") from exc
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {exc.strerror or exc}") from exc


def _slow(line: bytes, shown: str, number: int) -> object:
    """A line orjson refused, read by json: it accepts Python's NaN and Infinity (judged later)
    and its messages say what is wrong."""
    text = line.decode("utf-8")
    try:
        return json.loads(text) if text.startswith("\ufeff") else _decode(text)
    except json.JSONDecodeError as exc:
        raise OutputError(shown, f"not valid JSON: {exc.msg}", number) from exc
    except RecursionError as exc:
        raise OutputError(shown, "not valid JSON: nested too deeply", number) from exc
    except ValueError as exc:
        if not c.is_digit_limit(exc):
            raise
        raise OutputError(shown, f"not valid JSON: {c.DIGIT_LIMIT}", number) from exc


def _csv_rows(path: Path, shown: str) -> Iterator[tuple[int, dict[str, object]]]:
    with progress.open_binary(path) as raw, io.TextIOWrapper(raw, "utf-8", newline="") as stream:
        reader = csv.DictReader(stream)
        missing = [c for c in ROWS_REQUIRED if c not in (reader.fieldnames or [])]
        if missing:
            raise OutputError(shown, f"CSV header lacks column(s) {', '.join(missing)}", 1)
        for row in reader:
            yield reader.line_num, dict(row)


def _score(raw: object, shown: str, line: int) -> float:
    if isinstance(raw, int | float):  # a boolean too: true is a pass
        return c.to_float(raw)
    if isinstance(raw, str):
        try:
            return float(raw)
        except ValueError:
            pass
    raise OutputError(shown, f"score: expected a number, got {c.shown_value(raw)}", line)


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
