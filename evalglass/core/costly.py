"""The samples that cost a failed or blocked gate most, so a reader can open them: for 0/1 scores
the failing ones in the order the reader kept them, for other scores the worst, at most MOST.

Pure: it reads the per-sample scores a reader kept (none are kept by the rows and Parquet readers,
which sum; then nothing is shown rather than something partial) and the threshold's direction.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterator

import attrs

from evalglass.evidence.model import Measurement, Sample
from evalglass.records.model import ThresholdRecord

MOST = 10  # samples listed per gate


@attrs.frozen(kw_only=True)
class CostlySample:
    """One sample that pulled the metric toward failing: its id, epoch, score and the output
    file it is in."""

    id: str
    epoch: int | None
    score: float
    source: str


def costly_samples(
    measurement: Measurement | None, threshold: ThresholdRecord | None
) -> tuple[CostlySample, ...]:
    """At most MOST samples, worst first: with 0/1 scores, those scoring the failing side (0 when
    higher is better, 1 when lower is) in the order kept; otherwise the lowest scores (the
    highest, when lower is better), ties in the order kept. Empty without kept samples or a
    threshold to say which side is worse. Memory is MOST samples, however many there are."""
    if measurement is None or threshold is None or not measurement.samples:
        return ()
    higher = threshold.op.higher_is_better
    samples = measurement.samples

    def finite() -> Iterator[Sample]:
        return (s for s in samples if math.isfinite(s.score))

    chosen: list[Sample]
    if all(s.score in (0.0, 1.0) for s in finite()):
        bad = 0.0 if higher else 1.0
        chosen = list(itertools.islice((s for s in finite() if s.score == bad), MOST))
    else:
        sign = 1.0 if higher else -1.0
        ranked = heapq.nsmallest(
            MOST, enumerate(finite()), key=lambda pair: (sign * pair[1].score, pair[0])
        )
        chosen = [s for _, s in ranked]
    source = measurement.run.source
    return tuple(CostlySample(id=s.id, epoch=s.epoch, score=s.score, source=source) for s in chosen)
