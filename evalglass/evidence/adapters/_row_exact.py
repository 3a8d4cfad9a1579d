"""The rows reader's exact path: every row one by one, each sample's key itself kept (not a hash)
and, once a row names an epoch, each sample's rows reduced as they come. It is the definition the
fast path (`_row_sums`) is held to, and what names the line of an input error the fast path only
suspects: a sample id repeated, a sample's epochs in two clusters. Reads no files.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from itertools import count

from evalglass.errors import OutputError
from evalglass.evidence import aggregate
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.adapters._row_epochs import Epochs as Samples
from evalglass.evidence.adapters._row_stats import Clusters, plain
from evalglass.evidence.adapters._row_values import cluster, score, twice


class Epochs(Exception):
    """A row names an epoch: read again, reducing each sample's rows to one."""


class ExactRows:
    """Each metric's scores and cluster numbers, and its sample keys; with `epochs`, each
    metric's samples instead (their rows reduced as they come)."""

    def __init__(self, shown: str, *, epochs: bool = False) -> None:
        self.shown = shown
        self.epochs = Samples() if epochs else None
        self.scores: defaultdict[str, list[float]] = defaultdict(list)
        self.clusters: defaultdict[str, list[int]] = defaultdict(list)
        self.cluster_number: defaultdict[object, int] = defaultdict(count(1).__next__)
        self.cluster_number[None] = self.cluster_number[""] = 0
        self.keys: defaultdict[str, set[str]] = defaultdict(set)
        # One copy of each sample's id for all its metrics.
        self.ids: dict[str, str] = {}
        self.missing: Counter[str] = Counter()
        self.models: set[str] = set()
        self.kept = c.SampleBudget(shown)

    def add_rows(self, rows: Iterable[tuple[int, dict[str, object]]]) -> None:
        """Take rows one by one, each checked with its line number in the messages."""
        shown = self.shown
        for line, row in rows:
            self.kept.add(c.Cost.ROW)
            metric = row.get("metric")
            if type(metric) is not str or not metric:
                raise OutputError(shown, "metric: expected a non-empty string", line)
            sample_id = row.get("sample_id")
            named = sample_id is not None and sample_id != ""
            if named:
                epoch = row.get("epoch")
                if epoch and self.epochs is None:
                    raise Epochs
                text = str(sample_id)
                sample = self.ids.setdefault(text, text)
                if self.epochs is not None:
                    if self.epochs.repeats(metric, sample, str(epoch) if epoch else None):
                        raise OutputError(shown, twice(sample_id, metric), line)
                else:
                    seen = self.keys[metric]
                    if sample in seen:
                        raise OutputError(shown, twice(sample_id, metric), line)
                    seen.add(sample)
            model = row.get("model")
            if model and type(model) is str:
                self.models.add(model)
            value = score(row.get("score"), shown, line)
            if named and self.epochs is not None:
                self.epochs.add(
                    metric, sample, cluster(row.get("cluster"), shown, line), value, shown, line
                )
            elif value is None:
                self.missing[metric] += 1
            else:
                self.scores[metric].append(value)
                named_cluster = cluster(row.get("cluster"), shown, line)
                self.clusters[metric].append(self.cluster_number[named_cluster])

    def aggregates(self) -> aggregate.Aggregates:
        if len(self.models) > 1:
            raise OutputError(
                self.shown, f"rows name several models: {', '.join(sorted(self.models))}"
            )
        names = {number: str(name) for name, number in self.cluster_number.items() if number}
        metrics = set(self.missing) | self.scores.keys()
        clusters = Clusters(names)
        stats = {
            m: plain(self.scores[m], self.clusters[m], self.missing[m], clusters) for m in metrics
        }
        if self.epochs is not None:
            for m in self.epochs.samples:
                reduced = self.epochs.stats(m)
                stats[m] = stats[m] + reduced if m in stats else reduced
        return aggregate.Aggregates(
            source=self.shown, model=next(iter(self.models), None), metrics=stats
        )
