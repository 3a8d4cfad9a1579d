"""A metric's statistics from the rows the rows reader kept: rows that are each a sample of their
own (a score and a cluster number each), and samples named by several rows (their epochs), each
reduced to q = trunc(Σq / k) as the SQL does (evidence/sql.py). Pure: no I/O.

Every pass over the rows is a C-level loop (`map`, `compress`, `Counter`, slices) where it can
be; a Python loop is left only where each step is a plain addition.
"""

from __future__ import annotations

import math
import operator
from collections import Counter, defaultdict, deque
from collections.abc import Iterable, Sequence
from itertools import chain, compress, repeat
from typing import Any

from evalglass.evidence import aggregate

_SCALE = aggregate.SCALE
_SCALE_F = float(_SCALE)
# Quanta are made a slice at a time: those of a million scores would be 50 MB at once.
_SLICE = 1 << 16
list_append: Any = list.append


def mean_quantum(total: int, k: int) -> int:
    """A sample's value from its k rows' Σq: trunc(Σq / k), rounded toward zero as the SQL's
    integer division does (Python's // rounds down)."""
    q = abs(total) // k
    return -q if total < 0 else q


class Conflict(Exception):
    """Two rows of a metric name one sample and one epoch, or one sample's rows name two
    clusters: an input error whose line only the exact path names."""


def drain(iterator: Iterable[object]) -> None:
    """Run a `map` made for its effects (appends), at C speed, keeping nothing."""
    deque(iterator, maxlen=0)


class Clusters:
    """The clusters of the rows last reduced, by number: how many rows each has (0, none,
    apart), and their names. Metrics scored on the same samples in the same order share
    them, counted once."""

    def __init__(self, names: dict[int, str]) -> None:
        self.names = names
        self.numbers: Sequence[int] | None = None
        self.sizes: Counter[int] = Counter()
        self.loose = 0
        self.labels: list[str] = []

    def of(self, numbers: Sequence[int]) -> Counter[int]:
        """The named clusters' sizes; `loose` is then the count of rows naming none."""
        if numbers != self.numbers:
            self.numbers, self.sizes = numbers, Counter(numbers)
            self.loose = self.sizes.pop(0, 0)
            self.labels = list(map(self.names.__getitem__, self.sizes))
        return self.sizes

    def sums(self, totals: Iterable[int]) -> dict[str, aggregate.ClusterSums]:
        """Each cluster's (n, Σq), from its Σq in the order of `sizes`."""
        return dict(zip(self.labels, zip(self.sizes.values(), totals)))


def plain(
    scores: Sequence[float], numbers: Sequence[int], missing: int, clusters: Clusters
) -> aggregate.MetricStats:
    """A metric's statistics from rows that are each a sample: their scores and cluster
    numbers (0: none)."""
    sizes = clusters.of(numbers)
    if not sizes:
        return aggregate.MetricStats(moments=aggregate.moments_of(scores, missing))
    loose: Sequence[float] = []
    inner, within = scores, numbers
    if clusters.loose:
        loose = list(compress(scores, map(operator.not_, numbers)))
        inner, within = list(compress(scores, numbers)), list(compress(numbers, numbers))
    moments, totals = _clustered(inner, within, sizes)
    return aggregate.MetricStats(
        moments=aggregate.moments_of(loose, missing) + moments,
        clusters=clusters.sums(totals),
        clustered_squares=moments.squares,
    )


def _clustered(
    scores: Sequence[float], numbers: Sequence[int], sizes: Counter[int]
) -> tuple[aggregate.Moments, Iterable[int]]:
    """The moments of scores in named clusters (as `moments_of` gives them) and each
    cluster's Σq, in the order of `sizes`, each q made once."""
    finite = scores if math.isfinite(sum(scores)) else list(filter(math.isfinite, scores))
    # Counting against floats compares float to float, twice as fast as against ints.
    ones = finite.count(1.0)
    binary = finite.count(0.0) + ones
    low = high = None
    if finite:
        low, high = float(min(finite)), float(max(finite))
    if binary == len(scores):
        # Every score 0 or 1: the sums are counts, a cluster's its count of ones.
        total, squares = ones * _SCALE, ones * _SCALE * _SCALE
        per = Counter(compress(numbers, scores))  # 1 is true, 0 (and -0.0) false
        totals: Iterable[int] = map(operator.mul, map(per.get, sizes, repeat(0)), repeat(_SCALE))
    else:
        slots = _slots(sizes)
        total = squares = 0
        whole = len(finite) == len(scores)
        for start in range(0, len(scores), _SLICE):
            part = scores[start : start + _SLICE]
            if whole:
                qs = list(map(math.trunc, map(_SCALE_F.__mul__, part)))
            else:  # a score that is not finite adds nothing to a sum
                qs = [int(q * _SCALE_F) if math.isfinite(q) else 0 for q in part]
            squares += sum(map(operator.mul, qs, qs))
            for number, q in zip(numbers[start : start + _SLICE], qs):
                slots[number] += q
        total = sum(slots.values() if type(slots) is dict else slots)
        totals = map(slots.__getitem__, sizes)
    moments = aggregate.Moments(
        n=len(scores), nonfinite=len(scores) - len(finite), nonbinary=len(finite) - binary,
        low=low, high=high, total=total, squares=squares,
    )  # fmt: skip
    return moments, totals


def _slots(sizes: Counter[int]) -> Any:
    """A running sum per cluster number (and for 0): a list indexed by number where the
    numbers are dense, else a dict."""
    top = max(sizes, default=0)
    if top > 4 * len(sizes) + 1024:
        return dict.fromkeys(chain(sizes, (0,)), 0)
    return [0] * (top + 1)


class Repeats:
    """Where keys are named more than once: `single` tells, position by position, whether its
    key is named once, and `groups[k]` holds the positions of each key named by k rows, k at a
    time (each key's in order). Metrics scored on the same samples share them."""

    def __init__(self, keys: list[str]) -> None:
        self.single: list[bool] = []
        self.groups: dict[int, list[int]] = {}
        if len(set(keys)) == len(keys):
            return
        many = {key for key, n in Counter(keys).items() if n > 1}
        self.single = list(map(operator.not_, map(many.__contains__, keys)))
        at: defaultdict[str, list[int]] = defaultdict(list)
        where = list(compress(range(len(keys)), map(operator.not_, self.single)))
        drain(map(list_append, map(at.__getitem__, map(keys.__getitem__, where)), where))
        groups: defaultdict[int, list[int]] = defaultdict(list)
        for positions in at.values():
            groups[len(positions)] += positions
        self.groups = dict(groups)
        self._checked: tuple[Sequence[int], Sequence[str | None], dict[int, list[int]]] | None
        self._checked = None

    def clusters(
        self, numbers: Sequence[int], epochs: Sequence[str | None]
    ) -> dict[int, list[int]]:
        """Each k-row sample's cluster number, by k, once every sample's rows are checked to
        name one cluster and k epochs (Conflict otherwise). Metrics whose rows name the same
        clusters and epochs share them, checked once."""
        if self._checked and self._checked[0] == numbers and self._checked[1] == epochs:
            return self._checked[2]
        firsts = {}
        for k, at in self.groups.items():
            rows = list(map(numbers.__getitem__, at))
            first = rows[0::k]
            if any(rows[j::k] != first for j in range(1, k)):
                raise Conflict
            named = list(map(epochs.__getitem__, at))
            if k <= 4:  # each pair of a sample's rows names two epochs
                for i in range(k):
                    if any(
                        any(map(operator.eq, named[i::k], named[j::k])) for j in range(i + 1, k)
                    ):
                        raise Conflict
            elif len(set(zip(_each_sample(len(at) // k, k), named))) < len(at):
                raise Conflict
            firsts[k] = first
        self._checked = (numbers, epochs, firsts)
        return firsts


def _each_sample(samples: int, k: int) -> Iterable[int]:
    """0 k times, 1 k times, ... : each row's sample, rows gathered k at a time."""
    return chain.from_iterable(map(repeat, range(samples), repeat(k)))


class _Samples:
    """Samples reduced to one value each: the quanta of those with a finite mean and their
    cluster numbers, the cluster numbers of those with a score that is not finite, and
    counts."""

    def __init__(self) -> None:
        self.quanta: list[int] = []
        self.numbers: list[int] = []
        self.bad: list[int] = []
        self.missing = self.nonbinary = 0
        self.low: float | None = None
        self.high: float | None = None

    def extent(self, low: float, high: float) -> None:
        self.low = low if self.low is None else min(self.low, low)
        self.high = high if self.high is None else max(self.high, high)

    def stats(self, clusters: Clusters) -> aggregate.MetricStats:
        quanta, numbers = self.quanta, self.numbers
        squares = list(map(operator.mul, quanta, quanta))
        # A sample whose score is not finite counts in its cluster and adds nothing to it.
        sizes = clusters.of(numbers + self.bad if self.bad else numbers)
        sums: dict[str, aggregate.ClusterSums] = {}
        clustered = 0
        if sizes:
            slots = _slots(sizes)
            for number, q in zip(numbers, quanta):
                slots[number] += q
            sums = clusters.sums(map(slots.__getitem__, sizes))
            clustered = sum(compress(squares, numbers))
        moments = aggregate.Moments(
            n=len(quanta) + len(self.bad), missing=self.missing, nonfinite=len(self.bad),
            nonbinary=self.nonbinary, low=self.low, high=self.high, total=sum(quanta),
            squares=sum(squares),
        )  # fmt: skip
        return aggregate.MetricStats(moments=moments, clusters=sums, clustered_squares=clustered)


def reduced(
    repeats: Repeats,
    scores: Sequence[float | None],
    numbers: Sequence[int],
    epochs: Sequence[str | None] | None,
    clusters: Clusters,
) -> aggregate.MetricStats:
    """The statistics of the samples named by several rows each: every sample a row of its
    mean. Conflict when a sample names one epoch twice or two clusters."""
    if epochs is None:
        raise Conflict  # no row names an epoch: a sample id given twice
    out = _Samples()
    for k, first in repeats.clusters(numbers, epochs).items():
        at = repeats.groups[k]
        if not _reduce_alike(k, at, scores, first, out):
            groups = zip(*[iter(at)] * k, strict=True)
            for group, number in zip(groups, first, strict=True):
                _reduce_one(group, scores, number, out)
    return out.stats(clusters)


def _reduce_alike(
    k: int, at: list[int], scores: Sequence[float | None], first: list[int], out: _Samples
) -> bool:
    """Samples of k rows each (their positions `at`, k at a time; their clusters `first`), at
    once, column by column: row j of every sample is the slice [j::k]. False, changing
    nothing, unless every row is scored and finite (then each sample is reduced alone)."""
    gathered = list(map(scores.__getitem__, at))
    if None in gathered or not math.isfinite(sum(gathered)):  # type: ignore[arg-type]
        return False
    values: list[float] = gathered  # type: ignore[assignment]
    qs = list(map(math.trunc, map(_SCALE_F.__mul__, values)))
    totals = qs[0::k]
    for j in range(1, k):
        totals = list(map(operator.add, totals, qs[j::k]))
    if min(totals) >= 0:  # then // is the truncation, and faster
        means = list(map(operator.floordiv, totals, repeat(k)))
    else:
        means = list(map(mean_quantum, totals, repeat(k)))
    if values.count(0.0) + values.count(1.0) == len(values):
        # Rows of 0 and 1 only: a sample is all 0 or all 1 when its Σq is 0 or k·2^64.
        binary = totals.count(0) + totals.count(k * _SCALE)
    else:
        zeros = list(map(operator.eq, values[0::k], repeat(0.0)))
        ones = list(map(operator.eq, values[0::k], repeat(1.0)))
        for j in range(1, k):
            zeros = list(map(operator.add, zeros, map(operator.eq, values[j::k], repeat(0.0))))
            ones = list(map(operator.add, ones, map(operator.eq, values[j::k], repeat(1.0))))
        binary = zeros.count(k) + ones.count(k)
    out.quanta += means
    out.numbers += first
    out.nonbinary += len(first) - binary
    out.extent(float(min(values)), float(max(values)))
    return True


def _reduce_one(
    group: Sequence[int], scores: Sequence[float | None], number: int, out: _Samples
) -> None:
    """One sample's rows (checked) to its mean: Σq over its finite scores, divided by its
    scored rows; a score that is not finite makes the sample's one."""
    k = bad = zeros = ones = total = 0
    for i in group:
        score = scores[i]
        if score is None:
            continue
        k += 1
        if not math.isfinite(score):
            bad += 1
            continue
        zeros += score == 0
        ones += score == 1
        total += int(score * _SCALE_F)
        out.extent(float(score), float(score))
    if not k:
        out.missing += 1
    elif bad:
        out.bad.append(number)
    else:
        out.quanta.append(mean_quantum(total, k))
        out.numbers.append(number)
        out.nonbinary += zeros != k and ones != k
