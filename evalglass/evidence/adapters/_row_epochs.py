"""A sample's epochs reduced to one score, as the SQL does (evidence/sql.py): per metric and
sample id, its k scored rows, their exact Σq, whether any is not finite and whether all are 0
(or all 1); its value is q = trunc(Σq / k), an exact integer division. The rows reader's exact
path uses this once a row names an epoch, row by row; its fast path reduces the samples the same
way at the end (_row_stats.py). Pure: no I/O.
"""

from __future__ import annotations

import math

import attrs

from evalglass.errors import OutputError
from evalglass.evidence import aggregate, sql

_SCALE = aggregate.SCALE
_SCALE_F = float(_SCALE)


def mean_quantum(total: int, k: int) -> int:
    """A sample's value from its k rows' Σq: trunc(Σq / k), rounded toward zero as the SQL's
    integer division does (Python's // rounds down)."""
    q = abs(total) // k
    return -q if total < 0 else q


# No row of the sample read yet: its cluster and its epochs are not known.
_UNSET = object()


@attrs.define
class _Sample:
    """One sample's rows so far: the cluster they name, the epochs they name (one key, or a set
    once there are several), scored rows, non-finite ones, zeros, ones, and Σq over the finite
    ones."""

    cluster: object = _UNSET
    epochs: object = _UNSET
    k: int = 0
    bad: int = 0
    zeros: int = 0
    ones: int = 0
    total: int = 0


@attrs.define
class Epochs:
    """Every metric's samples, and the range of the finite scores of their rows."""

    samples: dict[str, dict[str, _Sample]] = attrs.Factory(dict)
    low: dict[str, float] = attrs.Factory(dict)
    high: dict[str, float] = attrs.Factory(dict)

    def repeats(self, metric: str, sample: str, epoch: str | None) -> bool:
        """Whether a row of this sample has named this epoch already (None: no epoch); the
        epoch is noted. A sample's epochs are kept with it, so what is held grows with the
        samples, not the rows."""
        samples = self.samples.get(metric)
        if samples is None:
            samples = self.samples[metric] = {}
        got = samples.get(sample)
        if got is None:
            samples[sample] = _Sample(epochs=epoch)
            return False
        seen = got.epochs
        if seen is _UNSET:
            got.epochs = epoch
        elif type(seen) is set:
            if epoch in seen:
                return True
            seen.add(epoch)
        elif seen == epoch:
            return True
        else:
            got.epochs = {seen, epoch}
        return False

    def add(
        self, metric: str, sample: str, cluster: str | None, score: float | None,
        shown: str, line: int,
    ) -> None:  # fmt: skip
        """One row of a sample; `score` None for a row without one."""
        samples = self.samples.setdefault(metric, {})
        got = samples.get(sample)
        if got is None:
            got = samples[sample] = _Sample(cluster)
        elif got.cluster is _UNSET:
            got.cluster = cluster
        elif got.cluster != cluster:
            raise OutputError(shown, sql.two_clusters(sample, metric), line)
        if score is None:
            return
        got.k += 1
        if not math.isfinite(score):
            got.bad += 1
            return
        got.zeros += score == 0
        got.ones += score == 1
        got.total += int(score * _SCALE_F)
        self.low[metric] = min(self.low.get(metric, score), score)
        self.high[metric] = max(self.high.get(metric, score), score)

    def stats(self, metric: str) -> aggregate.MetricStats:
        """The metric's samples as statistics: each a row of its mean."""
        n = missing = nonfinite = nonbinary = total = squares = clustered_squares = 0
        clusters: dict[str, aggregate.ClusterSums] = {}
        for sample in self.samples.get(metric, {}).values():
            if not sample.k:
                missing += 1
                continue
            n += 1
            q = 0
            if sample.bad:
                nonfinite += 1
            else:
                q = mean_quantum(sample.total, sample.k)
                nonbinary += sample.zeros != sample.k and sample.ones != sample.k
                total += q
                squares += q * q
            if isinstance(sample.cluster, str):
                count, summed = clusters.get(sample.cluster, (0, 0))
                clusters[sample.cluster] = (count + 1, summed + q)
                clustered_squares += q * q
        low, high = self.low.get(metric), self.high.get(metric)
        moments = aggregate.Moments(
            n=n, missing=missing, nonfinite=nonfinite, nonbinary=nonbinary,
            low=None if low is None else float(low), high=None if high is None else float(high),
            total=total, squares=squares,
        )  # fmt: skip
        return aggregate.MetricStats(
            moments=moments, clusters=clusters, clustered_squares=clustered_squares
        )
