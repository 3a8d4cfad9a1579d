"""How an interval names itself wherever it is shown: its level and method (`95% Wilson`), the
clusters it was made over, the range it was clipped to, and its ends.

Beside the evidence it describes, so that doctor (tools) and every format (render) name an
interval alike; the core compares intervals and never words them.
"""

from __future__ import annotations

from evalglass.evidence.model import Interval, Method
from evalglass.numbers import fmt

_METHOD_NAMES = {
    Method.WILSON: "Wilson",
    Method.CLOPPER_PEARSON: "Clopper-Pearson",
    Method.STUDENT_T: "Student-t",
    Method.NORMAL: "normal",
    Method.HOEFFDING: "Hoeffding (zero variance)",
    Method.CLUSTERED: "cluster-robust",
    Method.EFFECTIVE_N: "effective n",
    Method.CLUSTERED_EFFECTIVE_N: "cluster-robust effective n",
    Method.NEWCOMBE: "Newcombe",
    Method.PAIRED_T: "paired t",
}


def interval_label(interval: Interval) -> str:
    """`95% Wilson`: the level and the method, as evidence names them."""
    label = f"{interval.level * 100:g}% {_METHOD_NAMES[interval.method]}"
    if interval.clusters is not None:
        label = f"{label}, {interval.clusters} clusters"
    if interval.clipped is not None:
        low, high = interval.clipped
        label = f"{label}, clipped to {ends_text(low, high)}"
    return label


def interval_text(interval: Interval) -> str:
    """`[low, high]`, each end written as `fmt` writes numbers."""
    return ends_text(interval.low, interval.high)


def ends_text(low: float, high: float) -> str:
    """`[low, high]`: the one way two ends are written, for an interval or a range."""
    return f"[{fmt(low)}, {fmt(high)}]"
