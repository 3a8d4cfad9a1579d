"""What a figure of what it would take held fixed, and why a figure is missing, in words: the
core carries the kind and its figure, render words each (the JSON's `assumptions`, `reason`)."""

from __future__ import annotations

from evalglass.core.needed import BaselineFixed, BaselineHeld, Fixed, Held, Missing, Needed
from evalglass.render.needed_words import assumptions_text, missing_text

HELD = {
    Fixed(Held.SHARE): "0/1 scores: a value is k successes of n; n at the same share",
    Fixed(Held.NO_SPREAD): "scores in [0, 1] with no spread (Hoeffding)",
    Fixed(Held.SD_RATIO, 0.812345): (
        "scores in [0, 1]: their sd held as 0.8123 of a 0/1 score's at the value"
    ),
    Fixed(Held.SD, 0.212345): "the scores' standard deviation 0.2123 held",
    Fixed(Held.STDERR, 1.23456): (
        "the standard error scaled as 1/√n (standard deviation 1.235 held)"
    ),
    Fixed(Held.CLUSTERS_BOUNDED, 12.345): (
        "the clusters' size 12.3 and design effect held (standard error × √(n₀/n), its spread "
        "relative to a 0/1 score's at the value)"
    ),
    Fixed(Held.CLUSTERS, 12.345): (
        "the clusters' size 12.3 and spread held (standard error × √(n₀/n))"
    ),
}
MISSING = {
    Missing.NO_VALUE: "no value passes at this n",
    Missing.NO_N: "no sample size passes at this value",
    Missing.NO_N_BASELINE: (
        "no sample size passes at this value: the value clears the bar, and the baseline's own "
        "uncertainty keeps the change's bound from it"
    ),
}


def test_every_kind_of_held_reads_with_its_figure() -> None:
    """Each thing the search holds fixed is worded, with its figure, and none is left out."""
    assert {fixed.held for fixed in HELD} == set(Held)
    for fixed, said in HELD.items():
        assert assumptions_text(Needed(value_at_n=None, n_at_value=None, fixed=fixed)) == said


BASELINE_HELD = {
    BaselineFixed(BaselineHeld.PAIRED_SHARE, (0.912345, 0.4567)): (
        "paired: the baseline's share 0.9123 and the runs' correlation φ 0.457 held"
    ),
    BaselineFixed(BaselineHeld.PAIRED_NO_SPREAD): "paired: no spread in the differences",
    BaselineFixed(BaselineHeld.PAIRED_SD, (0.212345,)): "paired: the differences' sd 0.2123 held",
    BaselineFixed(BaselineHeld.UNPAIRED_SHARE, (0.912345, 200)): (
        "unpaired: the baseline's 0.9123 of n 200 held"
    ),
    BaselineFixed(BaselineHeld.UNPAIRED_SAVED, (0.812345, 0.912345)): (
        "unpaired: the baseline's saved interval [0.8123, 0.9123] held"
    ),
    BaselineFixed(BaselineHeld.UNPAIRED_STDERR, (0.912345, 0.0312345)): (
        "unpaired: the baseline's 0.9123 and standard error 0.03123 held"
    ),
}


def test_every_kind_of_baseline_held_follows_the_current_sides_assumptions() -> None:
    """Against a baseline, what of it was held, worded with its figures, follows the current
    side's assumptions; every kind is worded."""
    assert {fixed.held for fixed in BASELINE_HELD} == set(BaselineHeld)
    share = HELD[Fixed(Held.SHARE)]
    for baseline, said in BASELINE_HELD.items():
        got = Needed(value_at_n=0.9, n_at_value=10, fixed=Fixed(Held.SHARE), baseline_held=baseline)
        assert assumptions_text(got) == f"{share}; {said}"


def test_every_missing_figure_says_why() -> None:
    """Each reason a figure is missing is worded, joined in order; none missing is empty."""
    assert set(MISSING) == set(Missing)
    for missing, said in MISSING.items():
        got = Needed(value_at_n=None, n_at_value=None, fixed=Fixed(Held.SHARE), missing=(missing,))
        assert missing_text(got) == said
    both = (Missing.NO_VALUE, Missing.NO_N)
    got = Needed(value_at_n=None, n_at_value=None, fixed=Fixed(Held.SHARE), missing=both)
    assert missing_text(got) == f"{MISSING[Missing.NO_VALUE]}; {MISSING[Missing.NO_N]}"
    assert missing_text(Needed(value_at_n=1.0, n_at_value=3, fixed=Fixed(Held.SHARE))) == ""
