"""The rows reader's row path: rows one by one, each checked with its line number in the
messages, into the same columns the block path fills (`_row_sums`), so that one reduction
(`_row_stats`) serves every way of reading. Every rule of what a row's values mean is applied
here, once, for both of its modes:

- fast: what only a whole pass can tell (a sample id given twice, a sample's epochs in two
  clusters) is left to the end, where the reduction finds it; a row at fault that may repeat a
  sample asks for the file to be read again, exactly (`Duplicate`), since a repeat before the
  fault is the first error;
- exact (`Seen`): each sample's key (not a hash) is kept, so a repeat, or once rows name epochs
  a sample's rows in two clusters, is named at its line.

Reads no files.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from evalglass.errors import OutputError
from evalglass.evidence import sql
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.adapters import _row_values as values
from evalglass.evidence.adapters._row_values import cluster, score, twice

if TYPE_CHECKING:
    from evalglass.evidence.adapters._row_sums import RowSums


class Duplicate(Exception):
    """The rows may hold an input error only the exact path names the line of: read again,
    exactly (with `epochs`, reducing each sample's rows, as a row named an epoch)."""

    def __init__(self, epochs: bool = False) -> None:
        super().__init__()
        self.epochs = epochs


class Epochs(Exception):
    """The exact path met a row naming an epoch: read again, checking each sample's epochs
    and clusters."""


# A sample whose cluster no row has named yet (its first row had an input error there).
_UNSET = -1


class Seen:
    """The exact path's record of each metric's samples so far: their keys; with `epochs`,
    each sample's cluster number and the epochs its rows name (one, or a set once several)."""

    def __init__(self, epochs: bool) -> None:
        self.epochs = epochs
        self.keys: defaultdict[str, set[str]] = defaultdict(set)
        self.samples: defaultdict[str, dict[str, list[object]]] = defaultdict(dict)

    def repeats(self, metric: str, key: str, epoch: str | None) -> bool:
        """Whether a row of the metric named this sample (and epoch) already; it is noted.
        Epochs when a row names an epoch and epochs are not kept."""
        if not self.epochs:
            if epoch is not None:
                raise Epochs
            seen = self.keys[metric]
            if key in seen:
                return True
            seen.add(key)
            return False
        samples = self.samples[metric]
        got = samples.get(key)
        if got is None:
            samples[key] = [_UNSET, epoch]
            return False
        named = got[1]
        if type(named) is set:
            if epoch in named:
                return True
            named.add(epoch)
        elif named == epoch:
            return True
        else:
            got[1] = {named, epoch}
        return False

    def splits(self, metric: str, key: str, number: int) -> bool:
        """Whether the sample's rows so far named another cluster (number 0: none)."""
        got = self.samples[metric][key]
        if got[0] == _UNSET:
            got[0] = number
            return False
        return got[0] != number


def add_rows(sums: RowSums, rows: Iterable[tuple[int, dict[str, object]]]) -> None:
    """Take rows one by one into the columns of `sums`, each checked with its line number in
    the messages; exactly where `sums.seen` is kept."""
    shown, seen, ids, kept = sums.shown, sums.seen, sums.ids, sums.kept
    for line, row in rows:
        kept.add(c.Cost.ROW)
        metric = values.metric(row.get("metric"), shown, line)
        sample_id = row.get("sample_id")
        key = epoch = None
        text = values.sample_key(sample_id)
        if text is not None:
            key = ids.get(text)
            if key is None:
                key = ids[text] = text
                kept.add(c.Cost.KEY)
            epoch = values.epoch(row.get("epoch"))
            sums.epochs = sums.epochs or epoch is not None
            if seen is not None and seen.repeats(metric, key, epoch):
                raise OutputError(shown, twice(sample_id, metric), line)
        model = values.model(row.get("model"))
        if model is not None:
            sums.models.add(model)
        scored = False
        try:
            value = score(row.get("score"), shown, line)
            scored = True
            if key is None and value is None:
                sums.metric(metric).missing += 1
                continue
            if value is None and seen is not None and not seen.epochs:
                number = 0  # a sample without a score: its cluster is not read
            else:
                number = sums.cluster_number[cluster(row.get("cluster"), shown, line)]
        except OutputError:
            # The exact path names a repeat first; and it reads the cluster of an unscored
            # row only once a row has named an epoch.
            unscored = scored and value is None
            if (
                seen is None
                and key is not None
                and (unscored or sums.named_before(metric, key, epoch))
            ):
                raise Duplicate(sums.epochs) from None  # fmt: skip
            raise
        state = sums.metric(metric)
        if key is None:
            state.loose.append(value)
            state.loose_numbers.append(number)
            continue
        if seen is not None and seen.epochs and seen.splits(metric, key, number):
            raise OutputError(shown, sql.two_clusters(key, metric), line)
        state.keys.append(key)
        state.add_scores([value])
        sums.unscored = sums.unscored or value is None
        state.numbers.append(number)
        state.add_epochs(None if epoch is None else (epoch,), 1)
