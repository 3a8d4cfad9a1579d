"""What a baseline saved as a scorecard JSON gives the change's interval when it kept no
per-sample scores: its standard error where its interval is value ± q·se, or else its own
limits, rebuilt at the gate's level on the grounds its method made them. Pure.

A range-aware interval (a proportion's, or one at an effective n) is not value ± q·se, so it
cannot be undone into a standard error; its limits are combined with the current run's by
Newcombe's hybrid construction instead (MOVER: Zou & Donner 2008, Stat Med 27:1693).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from evalglass.evidence import stats
from evalglass.evidence.model import Interval, Method, ValueStderr

if TYPE_CHECKING:
    from evalglass import contract

_PROPORTION = frozenset({"wilson", "clopper_pearson"})
_EFFECTIVE = frozenset({"effective_n", "clustered_effective_n"})


def saved_stderr(entry: contract.Metric) -> float | None:
    """A saved scorecard's interval undone into its standard error, where its method is
    value ± q·se (normal, Student-t, cluster-robust); None for any other."""
    if entry.interval is None or entry.level is None:
        return None
    low, high = entry.interval
    if low is None or high is None:
        return None
    half = (high - low) / 2
    if entry.method == "normal":
        return half / stats.z_quantile(entry.level)
    if entry.method == "student_t" and entry.n is not None and entry.n > 1:
        return half / stats.t_quantile(0.5 + entry.level / 2, entry.n - 1)
    if entry.method == "clustered" and entry.clusters is not None and entry.clusters > 1:
        return half / stats.t_quantile(0.5 + entry.level / 2, entry.clusters - 1)
    return None


def saved_limits(entry: contract.Metric, level: float) -> Interval | None:
    """The saved baseline's own interval at `level`: a proportion's (Wilson's or
    Clopper–Pearson's) of value·n of n; Hoeffding's from value and n; an effective-n interval
    from the standard error its saved limits imply (the effective n they were made at, found by
    bisection on their width). None for any other method, or numbers that do not fit it."""
    value, n, method = entry.value, entry.n, entry.method
    if value is None or n is None or n < 1 or method is None or not 0 <= value <= 1:
        return None
    if method in _PROPORTION:
        return stats.proportion(stats.successes(value, n), n, level)
    if method == "hoeffding":
        return stats.student_t_from(value, 0.0, n, level, bounded=True)
    if method not in _EFFECTIVE or entry.interval is None or entry.level is None:
        return None
    low, high = entry.interval
    clusters = entry.clusters if method == "clustered_effective_n" else None
    df = n - 1 if clusters is None else clusters - 1
    if low is None or high is None or df < 1 or not 0 < value < 1 or not low < high:
        return None
    size = _effective_size(value, high - low, entry.level)
    # n* = p(1 − p)/se² · (z/t)², undone at the saved level, and made again at `level`.
    quantiles = stats.z_quantile(entry.level) / stats.t_quantile(0.5 + entry.level / 2, df)
    se = math.sqrt(value * (1 - value) / size) * quantiles
    basis = ValueStderr(value, se, df=df, bounded=True)
    return stats.effective_wilson(value, se, df, level, basis, clusters=clusters)


def _effective_size(value: float, width: float, level: float) -> float:
    """The n* at which a proportion's interval of `value` is `width` wide (it narrows as n*
    grows), to 1e-9 relative."""
    lo, hi = 1e-6, 1e15
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        low, high, _ = stats.proportion_bounds(value * mid, mid, level)
        if high - low > width:
            lo = mid
        else:
            hi = mid
        if hi / lo < 1 + 1e-9:
            break
    return math.sqrt(lo * hi)


def mover(
    current: Interval, now: float, baseline: Interval, then: float, level: float
) -> Interval | None:
    """The interval of now − then from each side's own limits at `level` (the current one made
    again at it): L = θ̂ − √((now − l₁)² + (u₂ − then)²), U = θ̂ + √((u₁ − now)² + (then − l₂)²)."""
    own = stats.at_level(current, level)
    if own is None:
        return None
    theta = now - then
    low = theta - math.hypot(now - own.low, baseline.high - then)
    high = theta + math.hypot(own.high - now, then - baseline.low)
    return Interval(low, high, level, Method.NEWCOMBE)
