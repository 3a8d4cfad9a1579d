"""A perfect score under a gate's own method: the bound it gets at n, and the least n at which
that bound clears a bar. Pure. Doctor asks it whether a gate can pass at all at the n it is
measured with, and whether min_samples lets in sample sizes at which nothing could pass.
"""

from __future__ import annotations

import enum
import math

from evalglass.core.decision import clears
from evalglass.evidence import stats
from evalglass.evidence.model import Interval, MeanSd, Proportion
from evalglass.records.model import Op, Scale


class PerfectBound(enum.Enum):
    """How a gate's method bounds a perfect score (every sample at the better end): Wilson's
    interval of n of n (0/1 scores), or Hoeffding's (scores in [0, 1] with no spread, which is
    what Student-t gives identical scores)."""

    WILSON = "Wilson"
    HOEFFDING = "Hoeffding"


def perfect_bound(interval: Interval | None, scale: Scale | None) -> PerfectBound | None:
    """The method a perfect score would be bounded by, from the gate's interval (or, with none
    measured, the records' scale: a proportion unless they say the scores are in [0, 1]); None
    for a method with no range to be perfect in (normal, cluster-robust, unbounded scores)."""
    if interval is None:
        return PerfectBound.HOEFFDING if scale is Scale.UNIT else PerfectBound.WILSON
    basis = interval.basis
    if isinstance(basis, Proportion):
        return PerfectBound.WILSON
    if isinstance(basis, MeanSd) and basis.bounded:
        return PerfectBound.HOEFFDING
    return None


def perfect_interval(kind: PerfectBound, op: Op, n: int, level: float) -> Interval | None:
    """A perfect score's interval at n: all ones for `>=`/`>`, all zeros for `<=`/`<`."""
    best = 1.0 if op.higher_is_better else 0.0
    if kind is PerfectBound.WILSON:
        return stats.proportion(best * n, n, level)
    return stats.student_t_from(best, 0.0, n, level, bounded=True)


def perfect_passes(kind: PerfectBound, op: Op, bar: float, n: int, level: float) -> bool:
    """Whether a perfect score at n clears `bar` by the decision's own rule."""
    interval = perfect_interval(kind, op, n, level)
    return interval is not None and clears(interval, op, bar)


def least_perfect_n(kind: PerfectBound, op: Op, bar: float, level: float) -> int | None:
    """The least n at which a perfect score clears `bar`; None when no n does (a bar at the very
    end of the range). The closed form (Wilson n/(n+z²); Hoeffding 1 − √(ln(2/α)/2n)) gives
    the answer to within one; the interval itself settles it."""
    higher = op.higher_is_better
    if (higher and bar >= 1) or (not higher and bar <= 0):
        return None  # the bound of a perfect score never reaches the end of the range
    gap = (1 - bar) if higher else bar
    if gap >= 1:
        estimate = 1.0
    elif kind is PerfectBound.WILSON:
        z2 = stats.z_quantile(level) ** 2
        estimate = (1 - gap) * z2 / gap
    else:
        estimate = math.log(2 / (1 - level)) / (2 * gap * gap)
    smallest = 1 if kind is PerfectBound.WILSON else 2
    n = max(smallest, math.floor(estimate))
    while not perfect_passes(kind, op, bar, n, level):
        n += 1
    while n > smallest and perfect_passes(kind, op, bar, n - 1, level):
        n -= 1
    return n
