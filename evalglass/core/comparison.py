"""A scorecard beside an earlier one (`score --compare CARD.json`): per metric the earlier value,
the change and, where the numbers allow, the change's own interval, by the regression module's
paired and unpaired methods. Pure, and display only: a comparison never changes a gate, the
verdict or the exit code (a regression gate is a baselines.yaml record, decided in the core).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from evalglass.core.regression import Difference, difference
from evalglass.records.model import BaselineRecord

if TYPE_CHECKING:
    from evalglass import contract
    from evalglass.core.scorecard import MetricCard

DEFAULT_LEVEL = 0.95  # for a metric whose current interval names no level


@attrs.frozen(kw_only=True)
class MetricChange:
    """One metric against the earlier scorecard: its value there (None when it had none or was
    not in it) and current − earlier with its interval (None without both values)."""

    id: str
    earlier: float | None
    change: Difference | None


@attrs.frozen(kw_only=True)
class Earlier:
    """An earlier scorecard to show a run beside: as its file holds it, that file's name, and
    when the commit it should describe was made (None: not checked)."""

    scorecard: contract.Scorecard
    source: str
    base_committed_at: dt.datetime | None = None


@attrs.frozen(kw_only=True)
class Comparison:
    """The earlier scorecard, when it was evaluated, whether it is older than the commit it
    should describe (`stale`: None when that was not checked or it has no time), and each
    current metric's change."""

    source: str
    evaluated_at: dt.datetime | None
    stale: bool | None
    metrics: tuple[MetricChange, ...]
    # By id, built once: every format looks up each metric's change.
    _by_id: Mapping[str, MetricChange] = attrs.field(
        init=False, eq=False, repr=False,
        default=attrs.Factory(lambda self: {m.id: m for m in self.metrics}, takes_self=True),
    )  # fmt: skip

    def of(self, metric_id: str) -> MetricChange | None:
        """The change for `metric_id`, or None when it was not compared."""
        return self._by_id.get(metric_id)


def compare(cards: Sequence[MetricCard], earlier: Earlier) -> Comparison:
    """Every measured metric of `cards` against its entry in the earlier scorecard. With
    `base_committed_at` (when the base commit was made), an earlier scorecard evaluated before it
    is stale: it describes an older base than the one compared with."""
    changes = []
    before = earlier.scorecard
    # Indexed once: a lookup per metric, not a scan of the earlier card per metric.
    entries = {entry.id: entry for entry in reversed(before.metrics)}
    for card in cards:
        m = card.measurement
        if m is None:
            continue
        entry = entries.get(card.id)
        if entry is None or entry.value is None:
            changes.append(MetricChange(id=card.id, earlier=None, change=None))
            continue
        level = m.interval.level if m.interval is not None else DEFAULT_LEVEL
        then = BaselineRecord(
            dataset_version="",
            value=entry.value,
            n=entry.n,
            saved=entry,
            sample_scores=_scores(entry.samples),
        )
        try:
            change = difference(m, then, level)
        except (ArithmeticError, ValueError):
            # The earlier card is untrusted and display only: numbers no interval method can
            # take (a value of 1e154 squared, a count past a float's range) show no change
            # rather than stop the run whose gates they cannot touch.
            change = None
        changes.append(MetricChange(id=card.id, earlier=entry.value, change=change))
    stale = None
    if earlier.base_committed_at is not None and before.evaluated_at is not None:
        stale = before.evaluated_at < earlier.base_committed_at
    return Comparison(
        source=earlier.source,
        evaluated_at=before.evaluated_at,
        stale=stale,
        metrics=tuple(changes),
    )


def _scores(samples: Sequence[contract.Sample] | None) -> Mapping[str, float] | None:
    """One score per sample id, epochs averaged, as a saved baseline's are for pairing; None
    when the earlier scorecard kept no samples (the change is then unpaired)."""
    if not samples:
        return None
    by_id: dict[str, list[float]] = {}
    for sample in samples:
        if sample.score is not None:
            by_id.setdefault(sample.id, []).append(sample.score)
    return {k: sum(v) / len(v) for k, v in by_id.items()} or None
