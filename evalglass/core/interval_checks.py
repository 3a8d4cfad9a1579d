"""Whether the interval a bound rule compares comes from a method in a setting where it was
measured to pass a metric at its bar far more often than its level says (`interval_unreliable`:
the gate is unsound, as with no interval at all). Validity asks, given the threshold; pure.

Each limit is docs/statistics.md's, measured by bench/bench_coverage.py, and is read from what
every reader keeps (the interval's method and clusters, the scores' mean, n, range).
"""

from __future__ import annotations

from evalglass.evidence.model import Interval, MeanSd, Method
from evalglass.records.model import Op

# Below this many clusters the cluster-robust interval was not shown to meet its target: at 3
# and 5 clusters its coverage was 59% and 79%, and most runs had no interval at all.
MIN_CLUSTERS = 10
# Scores of unknown range that reach more than this many times as far from their mean on the
# side the gate's bound is as on the other are skewed toward it: Student-t passed a lognormal
# latency at its bar 12% of the time at n 30, and 0.7% of symmetric samples reach so far.
SKEW_REACH = 2.0
_CLUSTERED = frozenset({Method.CLUSTERED, Method.CLUSTERED_EFFECTIVE_N})


def limit_reached(interval: Interval, op: Op) -> str:
    """Which measured limit of its method the interval is past, for a gate by `op` ("" for none)."""
    clusters = interval.clusters
    if interval.method in _CLUSTERED and clusters is not None and clusters < MIN_CLUSTERS:
        return (
            f"the cluster-robust interval rests on {clusters} clusters; below {MIN_CLUSTERS} "
            "it was not shown to hold its level (docs/statistics.md)"
        )
    basis = interval.basis
    if interval.method is not Method.STUDENT_T or not isinstance(basis, MeanSd):
        return ""
    if basis.low is None or basis.high is None:
        return ""
    above, below = basis.high - basis.mean, basis.mean - basis.low
    toward, away, side = (below, above, "below") if op.higher_is_better else (above, below, "above")
    if toward <= SKEW_REACH * away:
        return ""
    return (
        f"the scores reach {toward:.4g} {side} their mean and {away:.4g} the other way: skewed "
        f"toward the bound the gate compares, where Student-t passes a metric at its bar far "
        "more often than its level says (docs/statistics.md)"
    )
