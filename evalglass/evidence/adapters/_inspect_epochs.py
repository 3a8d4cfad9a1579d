"""An Inspect log's per-sample scores, epoch by epoch, and how they become one score per sample.

Inspect reduces each sample's epochs with the log's reducer before its metrics (`mean` unless
the log names another); `--no-epochs-reducer` (`epochs_reducer: []`) feeds its metrics every
epoch's score instead. Either way a sample counts once in n: its epochs are one sample's
answers, not independent samples, so the unreduced ones are averaged per sample here.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import attrs

from evalglass.evidence.adapters import _common as c
from evalglass.evidence.adapters import _inspect_files as files
from evalglass.evidence.adapters._inspect_scores import epoch_reducer, value_to_float
from evalglass.evidence.model import Reduction, Sample

DEFAULT_REDUCER = "mean"


@attrs.frozen
class EpochScore:
    sample_id: str
    epoch: int | None
    score: float
    metadata: dict[str, Any]


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


def epoch_scores(
    samples: list[files.Summary] | None, name: str, scorer: str
) -> list[EpochScore] | None:
    """Scores per (sample, epoch) as Inspect's value_to_float reads them; errored ones have none."""
    if samples is None:
        return None
    found = []
    for summary in samples:
        if summary.scores is None:
            continue
        value = files.score_value(summary.scores, name, scorer)
        if value is None or math.isnan(value):
            continue  # an unscored sample (Score.unscored(), NaN): missing, not a score
        found.append(EpochScore(summary.id, summary.epoch, value, summary.metadata))
    return found


def scored_ids(samples: list[files.Summary] | None, name: str, scorer: str) -> set[str] | None:
    """The samples with a score for the entry, whatever its value: a metric of the scorer's own
    over dict-valued scores (no key of the dict is the entry's name) has no one number per
    sample, yet Inspect scored every sample that has one."""
    if samples is None:
        return None
    return {
        s.id for s in samples if s.scores is not None and files.has_score(s.scores, name, scorer)
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
        values = []
        for written in reduction.values:
            sample, raw = written
            value = value_to_float(raw.get(name) if isinstance(raw, dict) else raw)
            if value is not None and not math.isnan(value):
                values.append((str(sample) if isinstance(sample, str | int) else None, value))
        return values
    return None


def reduce(scores: list[EpochScore], reducer: str) -> list[tuple[str | None, float]] | None:
    """Reduce each sample's epochs as the log says; None for a reducer we cannot reproduce."""
    by_sample: dict[str, list[float]] = {}
    for score in scores:
        by_sample.setdefault(score.sample_id, []).append(score.score)
    reduce_one = epoch_reducer(reducer)
    if reduce_one is None:
        return None
    return [(sample, reduce_one(values)) for sample, values in by_sample.items()]


def reduction(scores: list[EpochScore] | None, reducer: str) -> Reduction | None:
    """How epochs were reduced, when any sample was scored more than once."""
    if not scores:
        return None
    counts = Counter(s.sample_id for s in scores)
    least, most = min(counts.values()), max(counts.values())
    return Reduction(reducer=reducer, least=least, most=most) if most > 1 else None


def samples(scores: list[EpochScore] | None, cluster_key: str | None) -> tuple[Sample, ...] | None:
    if scores is None:
        return None
    ordered = sorted(scores, key=lambda s: (s.sample_id, s.epoch or 0))
    return tuple(
        Sample(
            id=s.sample_id,
            score=s.score,
            epoch=s.epoch,
            cluster=None if cluster_key is None else c.text(str(s.metadata.get(cluster_key, ""))),
        )
        for s in ordered
    )
