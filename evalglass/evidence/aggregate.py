"""Sufficient statistics of per-sample scores, how partials merge, and the measurement they give.

Every path that reads rows (the rows reader, DuckDB over Parquet, SQL in a warehouse, Spark)
reduces them to these numbers, and one function here turns them into a measurement, so the same
rows give the same scorecard byte for byte whichever engine summed them. Pure: no I/O.

Sums are exact integers, so they add up to the same number in any order and on any partition:
each score is taken as q = trunc(score · 2^64) (exact for every score whose magnitude is at least
2^-12, and off by less than 2^-64 below that), and a metric keeps Σq and Σq². Scores at or beyond
±2^40 are refused rather than summed inexactly.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

import attrs

from evalglass.errors import OutputError
from evalglass.evidence import stats
from evalglass.evidence.model import DatasetIdentity, Measurement, Run

SCALE_BITS = 64
SCALE = 1 << SCALE_BITS
_SCALE_F = float(SCALE)
_SLICE = 1 << 16
# Scores are summed exactly below this magnitude (the SQL splits them into 128-bit sums).
LIMIT = 2.0**40

_T = TypeVar("_T")


@attrs.frozen(kw_only=True)
class Moments:
    """A group of rows: counts, the range of the finite scores, and the exact sums Σq, Σq²
    (finite scores only; q = trunc(score · 2^64))."""

    n: int = 0
    missing: int = 0
    nonfinite: int = 0
    out_of_range: int = 0
    nonbinary: int = 0
    low: float | None = None
    high: float | None = None
    total: int = 0
    squares: int = 0

    def __add__(self, other: Moments) -> Moments:
        """Both parts' moments together. Exact, so partials merge to the same numbers in any
        order and grouping."""
        return Moments(
            n=self.n + other.n,
            missing=self.missing + other.missing,
            nonfinite=self.nonfinite + other.nonfinite,
            out_of_range=self.out_of_range + other.out_of_range,
            nonbinary=self.nonbinary + other.nonbinary,
            low=_extreme(min, self.low, other.low),
            high=_extreme(max, self.high, other.high),
            total=self.total + other.total,
            squares=self.squares + other.squares,
        )


def _extreme(pick: object, a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b) if pick is min else max(a, b)


# A named cluster's rows: how many, and Σq over them (the cluster-robust interval needs no more
# of each cluster). Plain pairs, since merging a thousand partials adds up millions of them.
ClusterSums = tuple[int, int]


@attrs.frozen(kw_only=True)
class MetricStats:
    """One metric: every row's moments, each named cluster's (n, Σq) (empty when none), and Σq²
    over the rows that name a cluster (so that the rows naming none have theirs too)."""

    moments: Moments
    clusters: Mapping[str, ClusterSums] = attrs.field(factory=dict)
    clustered_squares: int = 0

    def __add__(self, other: MetricStats) -> MetricStats:
        """Both parts together, clusters of one name added. Exact, so partials merge to the same
        numbers in any order and grouping."""
        clusters = dict(self.clusters)
        _add_clusters(clusters, other.clusters)
        return MetricStats(
            moments=self.moments + other.moments,
            clusters=clusters,
            clustered_squares=self.clustered_squares + other.clustered_squares,
        )


def _add_clusters(into: dict[str, ClusterSums], more: Mapping[str, ClusterSums]) -> None:
    get = into.get
    for name, pair in more.items():
        got = get(name)
        into[name] = pair if got is None else (got[0] + pair[0], got[1] + pair[1])


@attrs.frozen(kw_only=True)
class Aggregates:
    """One partial (or several merged): who was measured, and each metric's statistics."""

    source: str
    model: str | None = None
    dataset: DatasetIdentity | None = None
    metrics: Mapping[str, MetricStats] = attrs.field(factory=dict)


def merge(partials: Iterable[Aggregates]) -> Aggregates:
    """Partials of one dataset added together, before any statistic is computed.

    Partials that name different models or datasets are not parts of one run: an input error.
    """
    first: Aggregates | None = None
    model_from = dataset_from = None
    model: str | None = None
    dataset: DatasetIdentity | None = None
    totals: dict[str, Moments] = {}
    named: dict[str, dict[str, ClusterSums]] = {}
    squares: dict[str, int] = {}
    for part in partials:
        if first is None:
            first = part
        if model is None:
            model_from = part
        if dataset is None:
            dataset_from = part
        model = _same(model, part.model, "model", model_from, part)
        dataset = _same(dataset, part.dataset, "dataset", dataset_from, part)
        # Added in place: a partial's clusters are folded in once, not copied per partial.
        for metric, more in part.metrics.items():
            if metric in totals:
                totals[metric] = totals[metric] + more.moments
                squares[metric] += more.clustered_squares
                _add_clusters(named[metric], more.clusters)
            else:
                totals[metric] = more.moments
                squares[metric] = more.clustered_squares
                named[metric] = dict(more.clusters)
    if first is None:
        raise ValueError("merge() needs at least one partial")
    metrics = {
        m: MetricStats(moments=totals[m], clusters=named[m], clustered_squares=squares[m])
        for m in totals
    }
    return Aggregates(source=first.source, model=model, dataset=dataset, metrics=metrics)


def _same(
    a: _T | None, b: _T | None, what: str, first: Aggregates | None, other: Aggregates
) -> _T | None:
    if a is not None and b is not None and a != b:
        raise OutputError(
            other.source,
            f"names {what} {_shown(b)} but {first.source if first else 'another'} names "
            f"{_shown(a)}; partials merged together must come from one run",
        )
    return a if a is not None else b


def _shown(value: object) -> str:
    if isinstance(value, DatasetIdentity):
        fields = attrs.asdict(value, filter=lambda _, v: v is not None)
        return "{" + ", ".join(f"{k}={v!r}" for k, v in fields.items()) + "}"
    return repr(value)


def measurements(aggregates: Aggregates, sources: tuple[str, ...] = ()) -> tuple[Measurement, ...]:
    """Every metric's measurement; `sources` names the files behind a merged dataset."""
    run = Run(
        source=joined(sources) or aggregates.source,
        models=[aggregates.model],
        dataset=aggregates.dataset,
    )
    return tuple(
        measure(metric, entry, run) for metric, entry in sorted(aggregates.metrics.items())
    )


def joined(sources: tuple[str, ...]) -> str:
    """The source a dataset read from several files names: the first, and how many more."""
    if len(sources) <= 1:
        return sources[0] if sources else ""
    return f"{sources[0]} (+{len(sources) - 1} more)"


def measure(metric: str, entry: MetricStats, run: Run) -> Measurement:
    """The metric's value, n and interval: cluster-robust when rows share a cluster, Wilson
    when every score is 0 or 1, Student-t otherwise (docs/statistics.md)."""
    m = entry.moments
    if m.out_of_range:
        raise OutputError(
            run.source,
            f"metric '{metric}': {m.out_of_range} score(s) of magnitude 2^40 or more, "
            "beyond what evalglass sums exactly",
        )
    if m.n == 0:
        return Measurement(id=metric, run=run, value=None, n=0, missing=m.missing)
    if m.nonfinite:
        return Measurement(id=metric, run=run, value=math.nan, n=m.n, missing=m.missing)
    n = m.n
    # Integer division of Python ints is correctly rounded: the same float from the same sums.
    mean = m.total / (n * SCALE)
    named = sum(count for count, _ in entry.clusters.values())
    clusters = len(entry.clusters) + (n - named)
    if clusters < n:
        assert m.low is not None and m.high is not None
        interval = stats.clustered_from_residual(
            n, mean, _residual(entry, mean), clusters, bounded=m.low >= 0.0 and m.high <= 1.0
        )
    elif m.nonbinary == 0:
        interval = stats.proportion(float(m.total // SCALE), n)
    else:
        assert m.low is not None and m.high is not None
        # Identical scores have no spread, whatever is left below the summing grid.
        spread = n > 1 and m.low != m.high
        sd = (
            math.sqrt((n * m.squares - m.total**2) / (n * (n - 1) * SCALE * SCALE))
            if spread
            else 0.0
        )
        bounded = m.low >= 0.0 and m.high <= 1.0
        interval = stats.student_t_from(mean, sd, n, bounded=bounded, reach=(m.low, m.high))
    return Measurement(id=metric, run=run, value=mean, n=n, interval=interval, missing=m.missing)


def _residual(entry: MetricStats, mean: float) -> float:
    """Σ_c (S_c − n_c·mean)² over the named clusters and, exactly, over the rows that name no
    cluster (each a cluster of its own)."""
    m = entry.moments
    terms = [(total / SCALE - count * mean) ** 2 for count, total in entry.clusters.values()]
    loose_n = m.n - sum(count for count, _ in entry.clusters.values())
    if loose_n:
        s = m.total - sum(total for _, total in entry.clusters.values())
        ss = m.squares - entry.clustered_squares
        # Σ (x − mean)² = Σx² − 2·mean·Σx + n·mean², with mean = p/d exactly.
        p, d = mean.as_integer_ratio()
        numerator = ss * d * d - 2 * p * d * s * SCALE + loose_n * p * p * SCALE * SCALE
        terms.append(numerator / (d * d * SCALE * SCALE))
    return math.fsum(terms)


def moments_of(values: Sequence[float], missing: int = 0) -> Moments:
    """The moments of scores held in memory (every value below ±2^40 or not finite; ints and
    bools are numbers too)."""
    n = len(values)
    if not n:
        return Moments(missing=missing)
    finite = values
    # A NaN or an infinity makes the sum one; finite scores below 2^40 cannot overflow it.
    if not math.isfinite(sum(values)):
        finite = list(filter(math.isfinite, values))
    binary = finite.count(0) + finite.count(1)
    low = high = None
    total = squares = 0
    if binary == len(finite) and finite:
        # Every score 0 or 1: the sums are a count, no big-integer work a row.
        low, high = float(min(finite)), float(max(finite))
        ones = finite.count(1)
        total, squares = ones * SCALE, ones * SCALE * SCALE
    elif finite:
        low, high = float(min(finite)), float(max(finite))
        # A slice at a time: the quanta of a million scores would be 50 MB at once.
        for start in range(0, len(finite), _SLICE):
            qs = list(map(int, map(_SCALE_F.__mul__, finite[start : start + _SLICE])))
            total += sum(qs)
            squares += sum(map(operator.mul, qs, qs))
    return Moments(
        n=n,
        missing=missing,
        nonfinite=n - len(finite),
        nonbinary=len(finite) - binary,
        low=low,
        high=high,
        total=total,
        squares=squares,
    )
