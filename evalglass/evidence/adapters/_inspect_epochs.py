"""An Inspect log's per-sample scores, epoch by epoch, and how they become one score per sample.

Inspect reduces each sample's epochs with the log's reducer before its metrics (`mean` unless
the log names another); `--no-epochs-reducer` (`epochs_reducer: []`) feeds its metrics every
epoch's score instead. Either way a sample counts once in n: its epochs are one sample's
answers, not independent samples, so the unreduced ones are averaged per sample here.

A log's summaries are walked once per results entry, into one number (or none) per summary:
no object per score is built but the Samples the measurement keeps, and the summaries are put
in sample order once for every entry.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from typing import Any

import attrs

from evalglass.evidence.adapters import _common as c
from evalglass.evidence.adapters import _inspect_files as files
from evalglass.evidence.adapters._inspect_scores import epoch_reducer, value_to_float
from evalglass.evidence.model import Reduction, Sample

DEFAULT_REDUCER = "mean"
# A reduced sample's id, kept as text when it is one (a JSON number is written as text).
_ID = str | int


@attrs.frozen
class Summaries:
    """A log's (sample, epoch) summaries in the log's order."""

    rows: list[files.Summary]

    @functools.cached_property
    def order(self) -> list[int]:
        """The summaries' positions by sample id, then epoch (stable: the log's order breaks
        ties), as a measurement lists its samples."""
        rows = self.rows
        return sorted(range(len(rows)), key=lambda i: (rows[i].id, rows[i].epoch or 0))

    @functools.cached_property
    def repeated(self) -> bool:
        """Whether any sample has more than one summary (epochs): else no scorer's epochs were
        reduced, and there is nothing to count."""
        return len({row.id for row in self.rows}) < len(self.rows)


@attrs.frozen
class EpochScores:
    """One results entry's score in each summary, as Inspect's value_to_float reads it: None
    where there is none (an errored sample, an unscored one (NaN), a value that is no number)."""

    summaries: Summaries
    values: list[float | None]

    def ids(self) -> list[str]:
        """The sample of each score, in the log's order (a sample once per epoch scored)."""
        rows = self.summaries.rows
        return [rows[i].id for i, value in enumerate(self.values) if value is not None]

    def pooled(self) -> list[float]:
        """Every epoch's score, in the log's order."""
        return [value for value in self.values if value is not None]


def default_reducer(spec: dict[str, Any]) -> str:
    """The reducer the log names for every scorer (`eval.config.epochs_reducer`), else `mean`."""
    reducers = c.section(spec, "config").get("epochs_reducer")
    if isinstance(reducers, list) and len(reducers) == 1 and isinstance(reducers[0], str):
        return reducers[0]
    return DEFAULT_REDUCER


def unreduced(spec: dict[str, Any]) -> bool:
    """Whether the run kept every epoch's score (`--no-epochs-reducer`: an empty reducer list),
    so its metrics and its `scored_samples` are over epochs, not samples."""
    return c.section(spec, "config").get("epochs_reducer") == []


def epoch_scores(summaries: Summaries | None, name: str, scorer: str) -> EpochScores | None:
    """Scores per (sample, epoch) summary; None when the log has no summaries."""
    if summaries is None:
        return None
    return EpochScores(summaries, files.score_values(summaries.rows, name, scorer))


def scored_ids(summaries: Summaries | None, name: str, scorer: str) -> set[str] | None:
    """The samples with a score for the entry, whatever its value: a metric of the scorer's own
    over dict-valued scores (no key of the dict is the entry's name) has no one number per
    sample, yet Inspect scored every sample that has one."""
    if summaries is None:
        return None
    return {
        s.id
        for s in summaries.rows
        if s.scores is not None and files.has_score(s.scores, name, scorer)
    }


def reduced(
    reductions: list[files.Reduction] | None,
    name: str,
    scorer: str,
    reducer: str,
    default: str,
) -> list[tuple[str | None, float]] | None:
    """The epoch-reduced (sample id, value) pairs Inspect itself fed this scorer's metrics;
    unscored samples (NaN) are left out, as Inspect leaves them out of its metrics."""
    for reduction in reductions or []:
        if (c.text(reduction.reducer) or default) != reducer:
            continue
        if c.text(reduction.scorer) not in (name, scorer):
            continue
        values: list[tuple[str | None, float]] = []
        add, isnan = values.append, math.isnan
        for sample, raw in reduction.values:
            # A float first: what nearly every reduced sample has.
            value = (
                raw
                if type(raw) is float
                else value_to_float(raw.get(name) if isinstance(raw, dict) else raw)
            )
            if value is None or isnan(value):
                continue
            if type(sample) is str:
                add((sample, value))
            else:
                add((str(sample) if isinstance(sample, _ID) else None, value))
        return values
    return None


def reduce(scores: EpochScores, reducer: str) -> list[tuple[str | None, float]] | None:
    """Reduce each sample's epochs as the log says; None for a reducer we cannot reproduce."""
    reduce_one = epoch_reducer(reducer)
    if reduce_one is None:
        return None
    by_sample: dict[str, list[float]] = {}
    for summary, value in zip(scores.summaries.rows, scores.values, strict=True):
        if value is not None:
            by_sample.setdefault(summary.id, []).append(value)
    return [(sample, reduce_one(values)) for sample, values in by_sample.items()]


def reduction(
    scores: EpochScores | None, reducer: str, within: frozenset[str] | None = None
) -> Reduction | None:
    """How epochs were reduced, when any sample (of those `within`, if given) was scored more
    than once."""
    if scores is None or not scores.summaries.repeated:
        return None
    ids = scores.ids()
    counts = Counter(ids if within is None else (i for i in ids if i in within))
    if not counts:
        return None
    least, most = min(counts.values()), max(counts.values())
    return Reduction(reducer=reducer, least=least, most=most) if most > 1 else None


def samples(scores: EpochScores | None, cluster_key: str | None) -> tuple[Sample, ...] | None:
    """Each score as a Sample, by sample id, then epoch."""
    if scores is None:
        return None
    rows, values = scores.summaries.rows, scores.values
    found: list[Sample] = []
    add = found.append
    for i in scores.summaries.order:
        value = values[i]
        if value is None:
            continue
        row = rows[i]
        cluster = None if cluster_key is None else c.text(str(row.metadata.get(cluster_key, "")))
        add(Sample(id=row.id, score=value, epoch=row.epoch, cluster=cluster))
    return tuple(found)
