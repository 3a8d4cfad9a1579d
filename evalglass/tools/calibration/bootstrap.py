"""The seeded percentile bootstrap over items: every statistic of a plan, on the data as given and
on each resample of its items, with a 95% interval. Pure given the seed; no I/O.

Items are drawn with replacement; every statistic is computed on the same resamples. Rows that
are identical item for item (common on categorical scales) are drawn as one row with a count,
so a resample costs one matrix product over the distinct rows, not a pass over the items.
"""

from __future__ import annotations

import attrs
import numpy as np

from evalglass.tools.calibration.names import DEFAULT_RESAMPLES, DEFAULT_SEED, LEVEL, Statistic
from evalglass.tools.calibration.statistics import Array
from evalglass.tools.calibration.tables import Batch, ResamplePlan

# Resamples drawn at once: at most CHUNK, and at most INDICES item indices in all (a million
# items draw a few resamples at a time), so memory is linear in the items with a small constant,
# whatever --resamples says. The draws, and so the intervals, do not depend on the chunking.
CHUNK = 200
INDICES = 1 << 21
# More undefined resamples than this (a resample where, say, every item got one label) and the
# percentile of the rest would describe a biased remainder: no interval, rather than a wrong one.
MAX_UNDEFINED_SHARE = 0.01


@attrs.frozen
class Bootstrapped:
    """One statistic: its value on the data as given and its percentile interval. The interval is
    None when too many resamples left the statistic undefined for the rest to be trusted."""

    value: float | None
    low: float | None
    high: float | None
    undefined: int  # resamples where the statistic was undefined


@attrs.frozen(eq=False)
class Bootstraps:
    """Every statistic bootstrapped, and the column sums of the data as given (the confusion
    table is read from them)."""

    statistics: dict[Statistic, Bootstrapped]
    point_sums: Array  # the column sums of the data as given (e.g. the confusion table)


def run(
    plan: ResamplePlan,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    level: float = LEVEL,
) -> Bootstraps:
    """Bootstrap every statistic of `plan` on the same `resamples` resamples of the items. The
    generator is seeded with `seed`, so the same inputs give the same intervals; memory stays
    bounded by CHUNK resamples at a time."""
    n = plan.features.shape[0]
    rows, inverse = np.unique(plan.features, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    distinct = rows.shape[0]
    given = np.bincount(inverse, minlength=distinct).astype(np.float64)[None, :]
    point = _batch(given, rows)
    estimators = {e.statistic: e.bound(rows) for e in plan.estimators}
    values = {s: float(value(point)[0]) for s, value in estimators.items()}
    drawn: dict[Statistic, list[Array]] = {s: [] for s in estimators}
    rng = np.random.default_rng(seed)
    done = 0
    while done < resamples and n:
        size = min(CHUNK, max(1, INDICES // n), resamples - done)
        picks = inverse[rng.integers(0, n, size=(size, n))]
        picks += (np.arange(size) * distinct)[:, None]
        counts = np.bincount(picks.ravel(), minlength=size * distinct)
        batch = _batch(counts.reshape(size, distinct).astype(np.float64), rows)
        for statistic, value in estimators.items():
            drawn[statistic].append(value(batch))
        done += size
    return Bootstraps(
        statistics={
            s: _interval(values[s], np.concatenate(drawn[s]) if drawn[s] else np.zeros(0), level)
            for s in values
        },
        point_sums=point.sums[0],
    )


def _batch(counts: Array, rows: Array) -> Batch:
    return Batch(counts=counts, rows=rows, sums=counts @ rows)


def _interval(value: float, resampled: Array, level: float) -> Bootstrapped:
    defined = resampled[np.isfinite(resampled)]
    undefined = int(resampled.size - defined.size)
    point = value if np.isfinite(value) else None
    if point is None or not defined.size or undefined > MAX_UNDEFINED_SHARE * resampled.size:
        return Bootstrapped(point, None, None, undefined)
    tail = (1 - level) / 2
    low, high = np.quantile(defined, [tail, 1 - tail])
    return Bootstrapped(point, float(low), float(high), undefined)
