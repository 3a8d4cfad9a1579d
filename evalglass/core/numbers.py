"""How numbers and intervals read in evidence strings: short, but never misleadingly rounded."""

from __future__ import annotations

import math

from evalglass.evidence.model import Interval, Measurement, Method

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


def fmt(x: float, against: float | None = None) -> str:
    """Four significant digits, more when needed so `x` and `against` never print the same
    while differing (a bound of 0.84999 must not read as 0.85 beside a threshold of 0.85)."""
    if not math.isfinite(x):
        return str(x)
    if against is None:  # the common case, in every row of every scorecard
        return f"{x:.4g}"
    for digits in range(4, 18):
        text = f"{x:.{digits}g}"
        if against is None or x == against or text != f"{against:.{digits}g}":
            return text
    return repr(x)


def plural(count: int, word: str) -> str:
    """`1 gate`, `3 gates`."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def interval_label(interval: Interval) -> str:
    """`95% Wilson`: the level and the method, as evidence names them."""
    label = f"{interval.level * 100:g}% {_METHOD_NAMES[interval.method]}"
    if interval.clusters is not None:
        label = f"{label}, {interval.clusters} clusters"
    if interval.clipped is not None:
        low, high = interval.clipped
        label = f"{label}, clipped to [{fmt(low)}, {fmt(high)}]"
    return label


def interval_text(interval: Interval) -> str:
    """`[low, high]`, each end written as `fmt` writes numbers."""
    return f"[{fmt(interval.low)}, {fmt(interval.high)}]"


def n_text(m: Measurement) -> str:
    """`n 11`, or `n 11 with 3 scores each reduced by mean` when cases were scored repeatedly:
    n counts cases, and the evidence says how their repeats became one score."""
    if m.n is None:
        return "n unknown"
    r = m.reduction
    if r is None:
        return f"n {m.n}"
    each = str(r.most) if r.least == r.most else f"{r.least}–{r.most}"
    return f"n {m.n} with {each} scores each reduced by {r.reducer}"
