"""The rows reader's running state, and how it turns into `Aggregates`: per metric, each scored
row's score and cluster (as a small integer), each sample key's hash, and the missing count.

A block of parsed rows is taken whole, column by column, by C-level loops (`map`, `set`,
`array.extend`) when every row is of the common shape; any other block is taken row by row, with
messages naming lines. Both fill the same state. Repeated sample ids are found from the hashes at
the end; a repeat (or two ids whose hashes collide) makes the reader read again exactly, row by
row, keeping the keys themselves, which names the line. Reads no files.
"""

from __future__ import annotations

import array
import math
import operator
from collections import Counter, defaultdict, deque
from collections.abc import Iterable, Iterator
from itertools import compress, count, islice, repeat
from typing import Any

from evalglass.errors import OutputError
from evalglass.evidence import aggregate
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.adapters._row_epochs import Epochs as Epochs_

_NONE = type(None)
_IDS = frozenset({str, int, _NONE})
_get = dict.get
_append: Any = array.array.append
_list_append: Any = list.append
_LIMIT = aggregate.LIMIT
_SCALE = aggregate.SCALE
_SCALE_F = float(_SCALE)


class Duplicate(Exception):
    """Two rows of one metric may name one sample: read again, exactly."""


class Epochs(Exception):
    """A row names an epoch: read again, reducing each sample's rows to one."""


def _drain(iterator: Iterable[object]) -> None:
    deque(iterator, maxlen=0)


def _hashes() -> array.array[int]:
    return array.array("q")


class RowSums:
    """Everything the reader keeps: 16 to 40 bytes a scored row. With `exact`, each metric's
    sample keys themselves instead of their hashes, for naming a repeated one."""

    def __init__(self, shown: str, *, exact: bool = False, epochs: bool = False) -> None:
        self.shown = shown
        self.exact = exact or epochs
        # With epochs, the rows naming a sample are kept per sample, not as rows.
        self.epochs = Epochs_() if epochs else None
        # Each metric's scores (numbers as parsed: a list holds 0 and 1 for nothing, and passes
        # over it make no objects) and each score's cluster as a number, 0 for none.
        self.scores: defaultdict[str, list[float]] = defaultdict(list)
        self.clusters: defaultdict[str, list[int]] = defaultdict(list)
        self.cluster_number: defaultdict[object, int] = defaultdict(count(1).__next__)
        self.cluster_number[None] = self.cluster_number[""] = 0
        self.hashes: defaultdict[str, array.array[int]] = defaultdict(_hashes)
        self.keys: defaultdict[str, set[object]] = defaultdict(set)
        self.shared: dict[object, object] = {}
        self.ids: dict[str, str] = {}
        self.missing: Counter[str] = Counter()
        self.models: set[str] = set()
        self.kept = c.SampleBudget(shown)

    def add_block(self, rows: list[Any]) -> bool:
        """Take a block of parsed rows at once; False, changing nothing, when a row is not of
        the common shape (then `add_rows` takes the block)."""
        try:
            metrics: list[Any] = list(map(_get, rows, repeat("metric")))
            scores: list[Any] = list(map(_get, rows, repeat("score")))
            ids: list[Any] = list(map(_get, rows, repeat("sample_id")))
            models = set(map(_get, rows, repeat("model")))
            # Hashing each column's distinct values also caches the hashes the routing uses.
            named = set(metrics)
            distinct_ids = set(ids)
        except TypeError:  # a row that is not an object; a list where a string belongs
            return False
        if not all(type(m) is str and m for m in named):
            return False
        id_kinds = set(map(type, distinct_ids))
        if not _IDS.issuperset(id_kinds) or any(map(_get, rows, repeat("epoch"))):
            return False
        clusters = list(map(_get, rows, repeat("cluster")))
        scored = metrics
        absent: Iterator[str] = iter(())
        if None in scores:
            present = list(map(operator.is_not, scores, repeat(None)))
            absent = compress(metrics, map(operator.not_, present))
            scored, scores = list(compress(metrics, present)), list(compress(scores, present))
            clusters = list(compress(clusters, present))
        if scores and not _within(scores):
            return False
        numbering = self.cluster_number
        before = len(numbering)
        try:
            numbers = list(map(numbering.__getitem__, clusters))
        except TypeError:  # a list or an object as a cluster
            numbers = None
        if numbers is None or len(numbering) > before:
            # Clusters new to this block: only text is taken here (`7` must read as "7").
            fresh = list(islice(numbering, before, None))
            if numbers is None or not all(type(name) is str for name in fresh):
                for name in fresh:
                    del numbering[name]
                return False
        # Every check passed: now the state changes.
        self.kept.add(c.Cost.ROW, len(rows))
        self.missing.update(absent)
        self.models.update(m for m in models if m and type(m) is str)
        _drain(map(_list_append, map(self.scores.__getitem__, scored), scores))
        _drain(map(_list_append, map(self.clusters.__getitem__, scored), numbers))
        if distinct_ids != {None}:
            if None in distinct_ids or "" in distinct_ids:
                keep = [i is not None and i != "" for i in ids]
                metrics, ids = list(compress(metrics, keep)), list(compress(ids, keep))
            keys = ids if int not in id_kinds else map(str, ids)
            _drain(map(_append, map(self.hashes.__getitem__, metrics), map(hash, keys)))
        return True

    def add_rows(self, rows: Iterable[tuple[int, dict[str, object]]]) -> None:
        """Take rows one by one, each checked with its line number in the messages."""
        shown = self.shown
        for line, row in rows:
            self.kept.add(c.Cost.ROW)
            metric, score = row.get("metric"), row.get("score")
            if type(metric) is not str or not metric:
                raise OutputError(shown, "metric: expected a non-empty string", line)
            sample_id = row.get("sample_id")
            named = sample_id is not None and sample_id != ""
            if named:
                epoch = row.get("epoch")
                if epoch and self.epochs is None:
                    raise Epochs
                key: object = (str(sample_id), str(epoch)) if epoch else str(sample_id)
                if self.epochs is not None:
                    # One copy of a sample's id for all its metrics.
                    text = str(sample_id)
                    sample = self.ids.setdefault(text, text)
                    if self.epochs.repeats(metric, sample, str(epoch) if epoch else None):
                        raise OutputError(
                            shown,
                            f"sample_id {c.shown_value(sample_id)} appears twice for metric "
                            f"'{metric}'", line,
                        )  # fmt: skip
                elif self.exact:
                    key = self.shared.setdefault(key, key)
                    seen = self.keys[metric]
                    if key in seen:
                        raise OutputError(
                            shown,
                            f"sample_id {c.shown_value(sample_id)} appears twice for metric "
                            f"'{metric}'", line,
                        )  # fmt: skip
                    seen.add(key)
                else:
                    self.hashes[metric].append(hash(key))
            model = row.get("model")
            if model and type(model) is str:
                self.models.add(model)
            if type(score) is float:
                value: float | None = score
            elif score is None or score == "":
                # An errored or skipped sample: missing, never a pass or a failure.
                value = None
            else:
                value = _score(score, shown, line)
            if value is not None and not -_LIMIT < value < _LIMIT and math.isfinite(value):
                raise OutputError(
                    shown, f"score: {value!r} is beyond ±2^40, more than evalglass sums exactly",
                    line,
                )  # fmt: skip
            if named and self.epochs is not None:
                cluster = _cluster(row.get("cluster"), shown, line)
                self.epochs.add(metric, sample, cluster, value, shown, line)
            elif value is None:
                self.missing[metric] += 1
            else:
                self.scores[metric].append(value)
                cluster = _cluster(row.get("cluster"), shown, line)
                self.clusters[metric].append(self.cluster_number[cluster])

    def repeats(self) -> bool:
        """Whether two rows of one metric may name one sample (their keys' hashes are equal)."""
        return any(len(set(h)) != len(h) for h in self.hashes.values())

    def aggregates(self) -> aggregate.Aggregates:
        if self.repeats():
            raise Duplicate
        if len(self.models) > 1:
            raise OutputError(
                self.shown, f"rows name several models: {', '.join(sorted(self.models))}"
            )
        names = {number: str(name) for name, number in self.cluster_number.items() if number}
        metrics = set(self.missing) | self.scores.keys()
        stats = {
            m: _stats(self.scores[m], self.clusters[m], self.missing[m], names) for m in metrics
        }
        if self.epochs is not None:
            for m in self.epochs.samples:
                reduced = self.epochs.stats(m)
                stats[m] = stats[m] + reduced if m in stats else reduced
        return aggregate.Aggregates(
            source=self.shown, model=next(iter(self.models), None), metrics=stats
        )


def _within(scores: list[Any]) -> bool:
    """Whether every score is a number, finite and below ±2^40 (else the block is read row by
    row, where a score of another kind or beyond is named, and a NaN kept)."""
    try:
        # A NaN or an infinity makes the sum one; a sum that overflows only sends the block on.
        return math.isfinite(sum(scores)) and -_LIMIT < min(scores) and max(scores) < _LIMIT
    except (TypeError, OverflowError):  # text or a list; an integer too large for a float
        return False


def _stats(
    scores: list[float], clusters: list[int], missing: int, names: dict[int, str]
) -> aggregate.MetricStats:
    """A metric's statistics from its scores and their cluster numbers (0: none)."""
    if not any(clusters):
        return aggregate.MetricStats(moments=aggregate.moments_of(scores, missing))
    loose: list[float] = []
    inner, numbers = scores, clusters
    if 0 in clusters:
        loose = list(compress(scores, map(operator.not_, clusters)))
        inner, numbers = list(compress(scores, clusters)), list(compress(clusters, clusters))
    within = aggregate.moments_of(inner)
    sizes = Counter(numbers)
    if within.nonbinary == 0 and within.nonfinite == 0:
        # Every score 0 or 1: a cluster's sum is its count of ones.
        ones = Counter(compress(numbers, map(operator.eq, inner, repeat(1))))
        sums = {names[c]: (n, ones[c] * _SCALE) for c, n in sizes.items()}
    else:
        sums = _cluster_sums(inner, numbers, sizes, names)
    return aggregate.MetricStats(
        moments=aggregate.moments_of(loose, missing) + within,
        clusters=sums,
        clustered_squares=within.squares,
    )


def _cluster_sums(
    scores: list[float], numbers: list[int], sizes: Counter[int], names: dict[int, str]
) -> dict[str, tuple[int, int]]:
    """Each cluster's (n, Σq): the scores gathered per cluster (a pointer a row), then summed."""
    gathered: dict[int, list[float]] = {number: [] for number in sizes}
    _drain(map(_list_append, map(gathered.__getitem__, numbers), scores))
    exact = _exact_sum if math.isfinite(sum(scores)) else _finite_sum
    return {names[c]: (len(group), exact(group)) for c, group in gathered.items()}


def _exact_sum(scores: list[float]) -> int:
    return sum(map(int, map(_SCALE_F.__mul__, scores)))


def _finite_sum(scores: list[float]) -> int:
    return sum(map(int, map(_SCALE_F.__mul__, filter(math.isfinite, scores))))


def _cluster(raw: object, shown: str, line: int) -> str | None:
    """A row's cluster as text (`7` and `"7"` are one cluster); None for none."""
    if raw is None or raw == "":
        return None
    if type(raw) is str:
        return raw
    if not isinstance(raw, int | float) or isinstance(raw, bool):
        raise OutputError(shown, "cluster: expected a string or a number", line)
    return str(raw)


def _score(raw: object, shown: str, line: int) -> float:
    if isinstance(raw, int | float):  # a boolean too: true is a pass
        return c.to_float(raw)
    if isinstance(raw, str):
        try:
            return float(raw)
        except ValueError:
            pass
    raise OutputError(shown, f"score: expected a number, got {c.shown_value(raw)}", line)
