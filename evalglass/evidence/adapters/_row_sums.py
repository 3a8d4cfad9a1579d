"""The rows reader's columns: per metric, each row's score, its cluster as a small number and
its sample's key (one copy of each key for every metric), kept as columns and reduced at the end
(`_row_stats`): rows naming a sample once are summed as they are, samples named by several rows
(epochs) reduced to their mean first.

A block of parsed rows is taken whole, column by column, by C-level loops (`map`, slices,
`set`) when every row is of the common shape; any other block is taken row by row
(`_row_exact`), with messages naming lines. Both fill the same columns, which one reduction
reads, however they were read. What only the exact mode can name the line of (a sample id and
epoch given twice for a metric, a sample's epochs in two clusters) is found at the end of a fast
read, and makes the reader read again, exactly. Reads no files.
"""

from __future__ import annotations

import operator
from array import array
from collections import defaultdict
from collections.abc import Iterable
from itertools import compress, count, islice, repeat
from typing import Any

from evalglass.errors import OutputError
from evalglass.evidence import aggregate
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.adapters import _row_exact
from evalglass.evidence.adapters._row_exact import Duplicate, Seen
from evalglass.evidence.adapters._row_routes import (
    each,
    integers,
    routes_of,
    take,
    within,
    within_or_none,
)
from evalglass.evidence.adapters._row_stats import (
    Clusters,
    Conflict,
    Repeats,
    plain,
    reduced,
)
from evalglass.evidence.adapters._row_values import epoch as read_epoch

_NONE = type(None)
# What a block takes as a sample id or an epoch without reading the rows one by one (a float,
# a boolean or a list is read by the row path's rules).
_KEYS = frozenset({str, int, _NONE})
_get = dict.get
_LIMIT = aggregate.LIMIT


class _EpochText(dict[object, str | None]):
    """An epoch as parsed (text or an integer) to its text; None for no epoch (0, "", null)."""

    def __missing__(self, epoch: object) -> str | None:
        text = self[epoch] = read_epoch(epoch)
        return text


class _Metric:
    """One metric's rows: those naming no sample (scored ones, and a count of the others), and
    those naming one (a score or None, a cluster number, the sample's key and, once any row
    names an epoch, each row's epoch)."""

    __slots__ = ("epochs", "keys", "loose", "loose_numbers", "missing", "numbers", "scores")

    def __init__(self) -> None:
        self.loose: list[Any] = []
        self.loose_numbers: list[int] = []
        self.missing = 0
        # Scores as doubles side by side: each pass at the end (min, max, counts, sums) then
        # reads them in order, where float objects lie scattered among the parsed rows' (the
        # passes took twice as long). A list once a row has no score (None).
        self.scores: array[float] | list[Any] = array("d")
        self.numbers: list[int] = []
        self.keys: list[str] = []
        self.epochs: list[str | None] | None = None

    def add_scores(self, scores: list[Any]) -> None:
        """The scores of rows just added: numbers, or None for a row without one."""
        kept = self.scores
        if isinstance(kept, list):
            kept += scores
            return
        try:
            kept.fromlist(scores)  # all or none of them
        except TypeError:  # a None
            self.scores = kept.tolist() + scores

    def add_epochs(self, epochs: Iterable[str | None] | None, rows: int) -> None:
        """The epochs of the `rows` rows just added (None: none names one)."""
        if epochs is not None:
            if self.epochs is None:
                self.epochs = [None] * (len(self.keys) - rows)
            self.epochs.extend(epochs)
        elif self.epochs is not None:
            self.epochs.extend(repeat(None, rows))


# The columns a block is taken as, in this order.
COLUMNS = ("metric", "score", "sample_id", "epoch", "model", "cluster")
_GETTERS = {name: operator.itemgetter(name) for name in COLUMNS}


def _column(rows: list[Any], name: str) -> list[Any]:
    """The rows' values of a key; None where a row lacks it. TypeError for a row that is not
    an object."""
    try:
        # A key every row has is taken faster by itemgetter than by dict.get.
        return list(map(_GETTERS[name], rows))
    except KeyError:
        return list(map(_get, rows, repeat(name)))


class RowSums:
    """Everything the reader keeps: about 60 bytes a row, plus each sample's key once (and,
    exactly, each metric's keys again, to name a repeat at its line)."""

    def __init__(self, shown: str, *, exact: bool = False, epochs: bool = False) -> None:
        self.shown = shown
        # Exact: rows are taken one by one only, each repeat named at its line (with `epochs`,
        # also each sample's epochs in two clusters).
        self.seen = Seen(epochs) if exact else None
        self.metrics: dict[str, _Metric] = {}
        self.cluster_number: defaultdict[object, int] = defaultdict(count(1).__next__)
        self.cluster_number[None] = self.cluster_number[""] = 0
        self.ids: dict[str, str] = {}
        self.epoch_text = _EpochText()
        self.models: set[str] = set()
        self.kept = c.SampleBudget(shown)
        # Whether any row named an epoch: the exact path then reduces samples from the start.
        self.epochs = False
        # Whether a row naming a sample may have no score (None among the kept scores).
        self.unscored = False

    def metric(self, name: str) -> _Metric:
        got = self.metrics.get(name)
        if got is None:
            got = self.metrics[name] = _Metric()
        return got

    def add_block(self, rows: list[Any]) -> bool:
        """Take a block of parsed rows at once; False, changing nothing, when a row is not of
        the common shape (then `add_rows` takes the block)."""
        try:
            columns = list(map(_column, repeat(rows), COLUMNS))
        except TypeError:  # a row that is not an object
            return False
        return self.add_columns(*columns)

    def add_columns(
        self,
        metrics: list[Any],
        scores: list[Any],
        ids: list[Any],
        epochs: list[Any],
        modelled: list[Any],
        clusters: list[Any],
    ) -> bool:
        """Take a block's columns (in the order of `COLUMNS`, one value a row each) at once;
        False, changing nothing, when a value is not of the common kind (then `add_rows` takes
        the block's rows)."""
        if not metrics:
            return True
        try:
            # Rows mostly name one model: comparing each to the first is cheaper than hashing.
            first = modelled[0]
            models = {first} if modelled.count(first) == len(modelled) else set(modelled)
            routes = routes_of(metrics)
        except TypeError:  # a list where a string belongs
            return False
        if not all(type(m) is str and m for m, _ in routes):
            return False
        unscored = not within(scores)
        if unscored and not (None in scores and within_or_none(scores)):
            return False
        texts = None
        if any(epochs):
            if not _KEYS.issuperset(map(type, epochs)):
                return False
            texts = list(map(self.epoch_text.__getitem__, epochs))
        keys = each(ids, routes, self._interned)
        if keys is None:
            keys = each(ids, routes, self._numbered, integers)
        if keys is not None:  # every row names its sample, by text or by an integer
            numbers = each(clusters, routes, self._numbers)
            if numbers is None:
                return False
            self._changed(len(metrics), models, texts, unscored)
            for (metric, where), got, their in zip(routes, keys, numbers, strict=True):
                state = self.metric(metric)
                state.keys += got
                state.add_scores(take(scores, where))
                state.numbers += their
                state.add_epochs(None if texts is None else take(texts, where), len(got))
            return True
        kinds = set(map(type, ids))
        if not _KEYS.issuperset(kinds):
            return False
        whole = self._numbers(clusters)
        if whole is None:
            return False
        self._changed(len(metrics), models, texts, unscored)
        if kinds == {_NONE}:
            self._loose(routes, scores, whole)
        elif _NONE not in kinds and "" not in ids:  # integer ids, or text and integers
            self._named(routes, scores, whole, self._keys(ids, kinds), texts)
        else:  # rows naming no sample among rows naming one
            named = [i is not None and i != "" for i in ids]
            part = [list(compress(column, named)) for column in (metrics, scores, whole, ids)]
            some = None if texts is None else list(compress(texts, named))
            self._named(routes_of(part[0]), part[1], part[2], self._keys(part[3], kinds), some)
            loose = list(map(operator.not_, named))
            rest = [list(compress(column, loose)) for column in (metrics, scores, whole)]
            self._loose(routes_of(rest[0]), rest[1], rest[2])
        return True

    def _changed(
        self, rows: int, models: set[Any], texts: list[Any] | None, unscored: bool
    ) -> None:
        """Every check of a block passed: what it holds besides its columns is kept."""
        self.kept.add(c.Cost.ROW, rows)
        self.models.update(m for m in models if m and type(m) is str)
        self.epochs = self.epochs or texts is not None
        self.unscored = self.unscored or unscored

    def _interned(self, ids: list[Any]) -> list[str] | None:
        """Each sample id as its key, one copy of each for the whole file; None, keeping
        none of them, when an id new to the file is not non-empty text."""
        known = self.ids
        before = len(known)
        try:
            keys: list[str] | None = list(map(known.setdefault, ids, ids))
        except TypeError:  # a list or an object as an id
            keys = None
        if keys is None or len(known) > before:
            # Only text is ever kept, and no other value equals text: a new id is checked.
            fresh = list(islice(reversed(known), len(known) - before))
            if keys is None or not all(type(key) is str and key for key in fresh):
                for key in fresh:
                    del known[key]
                return None
            self.kept.add(c.Cost.KEY, len(fresh))
        return keys

    def _numbered(self, ids: list[Any]) -> list[str] | None:
        """Integer sample ids as their keys (their digits), one copy of each for the file;
        None, keeping none, unless every id is an integer."""
        return self._keys(ids, {int}) if integers(ids) else None

    def _numbers(self, clusters: list[Any]) -> list[int] | None:
        """Each row's cluster number, or None, numbering nothing, when a cluster is new to
        this block and not text (`7` must read as "7": the row path reads it)."""
        numbering = self.cluster_number
        before = len(numbering)
        try:
            numbers: list[int] | None = list(map(numbering.__getitem__, clusters))
        except TypeError:  # a list or an object as a cluster
            numbers = None
        if numbers is None or len(numbering) > before:
            fresh = list(islice(reversed(numbering), len(numbering) - before))
            if numbers is None or not all(type(name) is str for name in fresh):
                for name in fresh:
                    del numbering[name]
                return None
        return numbers

    def _keys(self, ids: list[Any], kinds: set[type]) -> list[str]:
        """Each sample id (text or an integer) as its key, one copy of each key for the file."""
        text = ids if int not in kinds else list(map(str, ids))
        before = len(self.ids)
        keys = list(map(self.ids.setdefault, text, text))
        self.kept.add(c.Cost.KEY, len(self.ids) - before)
        return keys

    def _named(
        self,
        routes: list[tuple[str, slice | list[int]]],
        scores: list[Any],
        numbers: list[int],
        keys: list[str],
        epochs: list[str | None] | None,
    ) -> None:
        for metric, where in routes:
            state = self.metric(metric)
            got = take(keys, where)
            state.keys += got
            state.add_scores(take(scores, where))
            state.numbers += take(numbers, where)
            state.add_epochs(None if epochs is None else take(epochs, where), len(got))

    def _loose(
        self, routes: list[tuple[str, slice | list[int]]], scores: list[Any], numbers: list[int]
    ) -> None:
        for metric, where in routes:
            state = self.metric(metric)
            got, their = take(scores, where), take(numbers, where)
            if None in got:
                present = list(map(operator.is_not, got, repeat(None)))
                state.missing += present.count(False)
                got, their = list(compress(got, present)), list(compress(their, present))
            state.loose += got
            state.loose_numbers += their

    def add_rows(self, rows: Iterable[tuple[int, dict[str, object]]]) -> None:
        """Take rows one by one, each checked with its line number in the messages."""
        _row_exact.add_rows(self, rows)

    def named_before(self, metric: str, key: str, epoch: str | None) -> bool:
        """Whether a row of the metric named this sample and epoch already."""
        state = self.metrics.get(metric)
        if state is None:
            return False
        epochs = state.epochs or repeat(None)
        return any(k is key and e == epoch for k, e in zip(state.keys, epochs))

    def suspect(self) -> bool:
        """Whether the rows so far hold what only the exact path names: a sample id and epoch
        given twice for a metric, or a sample's epochs in two clusters."""
        try:
            self._stats()
        except Conflict:
            return True
        return False

    def aggregates(self) -> aggregate.Aggregates:
        try:
            stats = self._stats()
        except Conflict:
            if self.seen is not None:  # the exact path named every conflict at its line
                raise RuntimeError("rows the exact path took hold a conflict") from None
            raise Duplicate(self.epochs) from None
        if len(self.models) > 1:
            raise OutputError(
                self.shown, f"rows name several models: {', '.join(sorted(self.models))}"
            )
        return aggregate.Aggregates(
            source=self.shown, model=next(iter(self.models), None), metrics=stats
        )

    def _stats(self) -> dict[str, aggregate.MetricStats]:
        names = {number: str(name) for name, number in self.cluster_number.items() if number}
        # Rows that are samples, and samples of several rows, each share their clusters' sizes.
        clusters, samples = Clusters(names), Clusters(names)
        stats = {}
        # Metrics scored on the same samples in the same order share their repeats, found once.
        last: list[str] | None = None
        repeats = Repeats([])
        shared: tuple[list[int] | None, list[int]] = (None, [])
        for metric, state in self.metrics.items():
            if state.keys != last:
                last, repeats, shared = state.keys, Repeats(state.keys), (None, [])
            scores, numbers = state.scores, state.numbers
            if repeats.groups:
                scores = list(compress(scores, repeats.single))
                if numbers != shared[0]:
                    shared = (numbers, list(compress(numbers, repeats.single)))
                numbers = shared[1]
            missing = state.missing
            if self.unscored and None in scores:
                present = list(map(operator.is_not, scores, repeat(None)))
                missing += present.count(False)
                scores, numbers = list(compress(scores, present)), list(compress(numbers, present))
            if state.loose:
                scores = [*state.loose, *scores] if scores else state.loose
                numbers = state.loose_numbers + numbers if numbers else state.loose_numbers
            entry = plain(scores, numbers, missing, clusters)
            if repeats.groups:
                entry += reduced(repeats, state.scores, state.numbers, state.epochs, samples)
            stats[metric] = entry
        return stats
