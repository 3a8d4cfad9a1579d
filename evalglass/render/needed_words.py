"""What would pass a gate its bound decided, in words: the two figures, what was held fixed to
find them and why one is missing. The core carries the figures, kinds and codes (core/needed.py);
the scorecard line and the JSON's `assumptions` and `reason` are worded here."""

from __future__ import annotations

from evalglass.core.needed import BaselineHeld, Held, Missing, Needed
from evalglass.core.scorecard import MetricCard
from evalglass.evidence.model import Proportion
from evalglass.numbers import fmt


def needed_text(card: MetricCard) -> str:
    """What would pass a gate its bound decided, in one line: `would pass: a value of at least
    0.945 (189 of 200) at n 200, or n 865 at value 0.92 (what was held)`; "" for any other."""
    needed = card.gate.needed
    m = card.measurement
    if needed is None or card.threshold is None or m is None or m.n is None or m.value is None:
        return ""
    least = "at least" if card.threshold.op.higher_is_better else "at most"
    if needed.value_at_n is None:
        by_value = f"no value passes at n {m.n}"
    else:
        share = ""
        if m.interval is not None and isinstance(m.interval.basis, Proportion):
            share = f" ({round(needed.value_at_n * m.n)} of {m.n})"
        by_value = f"a value of {least} {fmt(needed.value_at_n)}{share} at n {m.n}"
    if needed.n_at_value is None:
        by_n = f"no sample size passes at value {fmt(m.value)}"
    else:
        by_n = f"n {needed.n_at_value} at value {fmt(m.value)}"
    return f"would pass: {by_value}, or {by_n} ({assumptions_text(needed)})"


def assumptions_text(needed: Needed) -> str:
    """What a figure of what it would take held fixed, in one line (the JSON's `assumptions`)."""
    fixed = needed.fixed
    said = _HELD[fixed.held].format(figure=fixed.figure)
    baseline = needed.baseline_held
    if baseline is None:
        return said
    return f"{said}; {_BASELINE_HELD[baseline.held].format(*baseline.figures)}"


def missing_text(needed: Needed) -> str:
    """Why a figure does not exist, in one line ("" when both do: the JSON's `reason`)."""
    return "; ".join(_MISSING[m] for m in needed.missing)


# Each holds the figure it names, formatted as `stats.moved`'s assumptions were always shown.
_HELD = {
    Held.SHARE: "0/1 scores: a value is k successes of n; n at the same share",
    Held.NO_SPREAD: "scores in [0, 1] with no spread (Hoeffding)",
    Held.SD_RATIO: "scores in [0, 1]: their sd held as {figure:.4g} of a 0/1 score's at the value",
    Held.SD: "the scores' standard deviation {figure:.4g} held",
    Held.STDERR: "the standard error scaled as 1/√n (standard deviation {figure:.4g} held)",
    Held.CLUSTERS_BOUNDED: (
        "the clusters' size {figure:.3g} and design effect held (standard error × √(n₀/n), its "
        "spread relative to a 0/1 score's at the value)"
    ),
    Held.CLUSTERS: "the clusters' size {figure:.3g} and spread held (standard error × √(n₀/n))",
}
# Each holds its figures in `BaselineHeld`'s order.
_BASELINE_HELD = {
    BaselineHeld.PAIRED_SHARE: (
        "paired: the baseline's share {0:.4g} and the runs' correlation φ {1:.3g} held"
    ),
    BaselineHeld.PAIRED_NO_SPREAD: "paired: no spread in the differences",
    BaselineHeld.PAIRED_SD: "paired: the differences' sd {0:.4g} held",
    BaselineHeld.UNPAIRED_SHARE: "unpaired: the baseline's {0:.4g} of n {1:.0f} held",
    BaselineHeld.UNPAIRED_SAVED: (
        "unpaired: the baseline's saved interval [{0:.4g}, {1:.4g}] held"
    ),
    BaselineHeld.UNPAIRED_STDERR: (
        "unpaired: the baseline's {0:.4g} and standard error {1:.4g} held"
    ),
}
_MISSING = {
    Missing.NO_VALUE: "no value passes at this n",
    Missing.NO_N: "no sample size passes at this value",
    Missing.NO_N_BASELINE: (
        "no sample size passes at this value: the value clears the bar, and the baseline's own "
        "uncertainty keeps the change's bound from it"
    ),
}
