"""The aggregates format: a partial's sufficient statistics (docs/scale.md), as one JSON document,
or as the rows `evalglass sql` queries return, exported as CSV or JSON lines.

Every file of this format given in one run is a part of one dataset: the parts are added together
before any statistic is computed, never treated as retries of each other.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from evalglass._inputs import open_regular
from evalglass.errors import OutputError
from evalglass.evidence import aggregate
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.format_docs import (
    ONE_FILE_RUNS,
    WRITERS_FINGERPRINT,
    Counting,
    FormatDocs,
    Identity,
)
from evalglass.evidence.model import DatasetIdentity, Measurement
from evalglass.evidence.registry import Adapter

MARKER = "evalglass_aggregates"
_COUNTS = ("n", "missing", "nonfinite", "out_of_range", "nonbinary", "sum", "sum_squares")
_CLUSTERED = "clustered_sum_squares"


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    """One aggregates file's measurements: `read_together` of that file alone."""
    return read_together([(path, shown)])


def read_together(files: Sequence[tuple[Path, str]]) -> tuple[Measurement, ...]:
    """The measurements of every aggregates file given in one run, added together as parts of one
    dataset before any statistic is computed. OutputError for a file that is not aggregates, or
    for counts and sums that no set of scores could have."""
    merged = aggregate.merge(load(path, shown) for path, shown in files)
    shown = files[0][1] if len(files) == 1 else f"{files[0][1]} (+{len(files) - 1} more)"
    for metric, stats in merged.metrics.items():
        _check_possible(stats, f"metric '{c.one_line(metric, 80)}'", shown)
    return aggregate.measurements(merged, tuple(shown for _, shown in files))


# Every score is below 2^40 in magnitude, so its quantum (score x 2^64) is below 2^104: what n
# scores can sum to, and their squares, is bounded. Past that, or where the sums contradict
# each other, no set of scores could have them (and the arithmetic that follows would overflow).
_QUANTUM = 2**104


def _check_possible(stats: aggregate.MetricStats, where: str, shown: str) -> None:
    """OutputError for sums that no set of scores could have."""
    m = stats.moments
    named = named_total = 0
    for name, (count, total) in stats.clusters.items():
        if count < 0 or abs(total) > count * _QUANTUM:
            raise OutputError(
                shown, f"{where} cluster {c.one_line(name, 40)!r}: counts and sums no set of "
                "scores could have",
            )  # fmt: skip
        named += count
        named_total += total
    parts = [
        (m.n, m.total, m.squares, where),
        (named, named_total, stats.clustered_squares, f"{where} rows with a cluster"),
        (m.n - named, m.total - named_total, m.squares - stats.clustered_squares,
         f"{where} rows without a cluster"),
    ]  # fmt: skip
    counts = (m.n, m.missing, m.nonfinite, m.out_of_range, m.nonbinary)
    if any(count > c.LARGEST_COUNT for count in counts):
        raise OutputError(shown, f"{where}: a count past {c.LARGEST_COUNT}")
    for n, total, squares, here in parts:
        if n < 0 or squares < 0 or abs(total) > n * _QUANTUM or squares > n * _QUANTUM**2:
            raise OutputError(shown, f"{here}: counts and sums no set of scores could have")
        if n * squares < total * total:
            raise OutputError(shown, f"{here}: a sum of squares smaller than its sum allows")
    for bound in (m.low, m.high):
        if bound is not None and not abs(bound) < aggregate.LIMIT:
            raise OutputError(shown, f"{where}: low and high must lie within ±2^40")


def load(path: Path, shown: str) -> aggregate.Aggregates:
    """One partial, from whichever spelling the file is in."""
    # The queries' module (large) is what reading takes; recognising a file does not.
    from evalglass.evidence import sql

    suffix = path.suffix.lower()
    if suffix not in (".csv", ".jsonl"):
        return from_document(c.load_json_file(path, shown), shown)
    try:
        with open_regular(path) as raw:
            stream = io.TextIOWrapper(raw, "utf-8", newline="")
            if suffix == ".csv":
                return sql.groups_to_aggregates(_csv(stream), shown)
            return sql.groups_to_aggregates(_lines(stream, shown), shown)
    except (UnicodeDecodeError, csv.Error) as exc:
        raise OutputError(shown, f"not readable: {c.one_line(exc)}") from exc
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {exc.strerror or exc}") from exc


def _csv(stream: Any) -> Iterator[Mapping[str, object]]:
    for row in csv.DictReader(stream):
        # An empty CSV cell is SQL's null.
        yield {k: (None if v == "" else v) for k, v in row.items()}


def _lines(stream: Any, shown: str) -> Iterator[Mapping[str, object]]:
    for _, row in c.json_objects(stream, shown):
        yield row


def from_document(doc: object, shown: str) -> aggregate.Aggregates:
    """The JSON document's partial; every malformed field is one error naming it."""
    from evalglass.evidence import sql

    if not isinstance(doc, dict) or doc.get(MARKER) != sql.FORMAT_VERSION:
        raise OutputError(shown, f'expected a JSON object with "{MARKER}": 1')
    metrics = doc.get("metrics")
    if not isinstance(metrics, dict):
        raise OutputError(shown, "metrics: expected an object")
    return aggregate.Aggregates(
        source=shown,
        model=_text(doc, "model", shown),
        dataset=_dataset(doc.get("dataset"), shown),
        metrics={str(k): _metric(v, k, shown) for k, v in metrics.items()},
    )


def _metric(entry: object, metric: object, shown: str) -> aggregate.MetricStats:
    # Messages name the field; the name is only made for one (a merge reads many thousands).
    where = f"metrics.{metric}"
    if not isinstance(entry, dict):
        raise OutputError(shown, f"{where}: expected an object")
    counts: list[Any] = list(map(entry.get, _COUNTS))
    # Most partials are whole numbers throughout: checked at once, else field by field.
    if set(map(type, counts)) != {int} or min(counts[:5]) < 0 or counts[6] < 0:
        counts = [_count(v, where, k, shown) for k, v in zip(_COUNTS, counts, strict=True)]
    n, missing, nonfinite, out_of_range, nonbinary, total, squares = counts
    moments = aggregate.Moments(
        n=n, missing=missing, nonfinite=nonfinite, out_of_range=out_of_range,
        nonbinary=nonbinary, low=_real(entry, "low", where, shown),
        high=_real(entry, "high", where, shown), total=total, squares=squares,
    )  # fmt: skip
    raw = entry.get("clusters", {})
    if not isinstance(raw, dict):
        raise OutputError(shown, f"{where}.clusters: expected an object")
    clusters: dict[str, aggregate.ClusterSums] = {}
    for name, sums in raw.items():
        # Checked by exact type: a thousand partials can hold millions of clusters.
        if type(sums) is not list or len(sums) != 2:
            raise OutputError(shown, f"{where}.clusters.{name}: expected [n, sum]")
        n, total = sums
        if type(n) is not int or n < 0 or type(total) is not int:
            raise OutputError(
                shown, f"{where}.clusters.{name}: expected [n, sum] of whole numbers, got {sums!r}"
            )
        clusters[str(name)] = (n, total)
    squares = _count(entry.get(_CLUSTERED), where, _CLUSTERED, shown)
    return aggregate.MetricStats(moments=moments, clusters=clusters, clustered_squares=squares)


def to_document(aggregates: aggregate.Aggregates) -> dict[str, Any]:
    """The JSON document of a partial (what `from_document` reads back)."""
    from evalglass.evidence import sql

    dataset = aggregates.dataset
    return {
        MARKER: sql.FORMAT_VERSION,
        "model": aggregates.model,
        "dataset": None
        if dataset is None
        else {"name": dataset.name, "version": dataset.version, "fingerprint": dataset.fingerprint},
        "metrics": {
            metric: {
                "n": m.moments.n,
                "missing": m.moments.missing,
                "nonfinite": m.moments.nonfinite,
                "out_of_range": m.moments.out_of_range,
                "nonbinary": m.moments.nonbinary,
                "low": m.moments.low,
                "high": m.moments.high,
                "sum": m.moments.total,
                "sum_squares": m.moments.squares,
                _CLUSTERED: m.clustered_squares,
                "clusters": {name: list(sums) for name, sums in sorted(m.clusters.items())},
            }
            for metric, m in sorted(aggregates.metrics.items())
        },
    }


def _count(value: object, where: str, key: str, shown: str) -> int:
    """A count or a sum (only `sum` may be negative); null reads as 0."""
    if type(value) is int and (value >= 0 or key == "sum"):
        return value
    if value is None:
        return 0
    raise OutputError(shown, f"{where}.{key}: expected a whole number, got {c.shown_value(value)}")


def _real(entry: Mapping[str, object], key: str, where: str, shown: str) -> float | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise OutputError(shown, f"{where}.{key}: expected a number, got {c.shown_value(value)}")
    return c.to_float(value)


def _text(doc: Mapping[str, object], key: str, shown: str) -> str | None:
    value = doc.get(key)
    if value is None or (isinstance(value, str) and value):
        return value
    raise OutputError(shown, f"{key}: expected a non-empty string or null")


def _dataset(raw: object, shown: str) -> DatasetIdentity | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise OutputError(shown, "dataset: expected an object or null")
    return DatasetIdentity(
        name=_text(raw, "name", shown),
        version=_text(raw, "version", shown),
        fingerprint=_text(raw, "fingerprint", shown),
    )


def sniff(path: Path, head: bytes) -> bool:
    """An aggregates document: a .json object naming the marker, or `evalglass sql` results (.csv
    or .jsonl) whose first line has the marker column."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        return head.lstrip().startswith(b"{") and f'"{MARKER}"'.encode() in head
    if suffix == ".csv":
        return head.lstrip(b"\xef\xbb\xbf").startswith(MARKER.encode())
    if suffix == ".jsonl":
        return f'"{MARKER}"'.encode() in head.split(b"\n", 1)[0]
    return False


DOCS = FormatDocs(
    label="aggregates",
    versions='`"evalglass_aggregates": 1`',
    model="`model`",
    graders="none named: the judge the metric's record names",
    counting=Counting(
        n="as the producer counted (the same rules)",
        missing="as the producer counted",
        repeats="reduced by the producer",
        groups="none",
    ),
    runs=ONE_FILE_RUNS,
    identity=Identity(
        name="`dataset.name`",
        version="`dataset.version`",
        sample_key=WRITERS_FINGERPRINT,
        no_fingerprint="no `dataset.fingerprint`",
    ),
)


ADAPTER = Adapter(
    name="aggregates",
    recognises=f'aggregates: a .json object with "{MARKER}", or evalglass sql results as '
    f".csv or .jsonl with an {MARKER} column",
    sniff=sniff,
    read=read,
    read_together=read_together,
    docs=DOCS,
)
