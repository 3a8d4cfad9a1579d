"""What it would take: for a gate its bound decides, the value that would pass at the n it was
measured with, and the n that would pass at the value it measured. Pure. It searches with the
rule that decides the gate (decision.py passes it in), so a figure here and a gate result cannot
disagree. The formulas and their assumptions: docs/statistics.md, "What it would take".
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from typing import TypeVar

import attrs

from evalglass.evidence.model import Interval, MeanSd, Method, Proportion, ValueStderr
from evalglass.records.model import Op

# The interval a bar compares, at a current value and sample size (None where there is none).
Family = Callable[[float, int], Interval | None]
# The decision's own rule: whether an interval's conservative end clears a limit.
Clears = Callable[[Interval, Op, float], bool]

# Sample sizes are searched up to this; past it, "no sample size passes".
MAX_N = 10**9
_ROOT_MAX_N = MAX_N**0.5


class Held(enum.Enum):
    """What the search holds fixed to remake an interval at another value and n (render words
    each, with its figure)."""

    # 0/1 scores: a value is k successes of n; n at the same share.
    SHARE = "share"
    # Scores in [0, 1] with no spread (Hoeffding).
    NO_SPREAD = "no_spread"
    # Scores in [0, 1]: their sd held as a ratio (the figure) of a 0/1 score's at the value.
    SD_RATIO = "sd_ratio"
    # The scores' standard deviation (the figure) held.
    SD = "sd"
    # The standard error scaled as 1/√n, the standard deviation (the figure) held.
    STDERR = "stderr"
    # The clusters' size (the figure) and design effect held, for scores in [0, 1].
    CLUSTERS_BOUNDED = "clusters_bounded"
    # The clusters' size (the figure) and spread held.
    CLUSTERS = "clusters"


@attrs.frozen
class Fixed:
    """What was held fixed, and its figure (none for a share or no spread)."""

    held: Held
    figure: float | None = None


class BaselineHeld(enum.Enum):
    """Which interval of (current − baseline) a regression gate's search remakes at another
    value and n, and so what of the baseline it holds fixed (render words each, with its
    figures, in this order)."""

    # Paired 0/1 scores (Newcombe): the baseline's share and the runs' correlation φ.
    PAIRED_SHARE = "paired_share"
    # Paired scores in [0, 1] whose differences have no spread (Hoeffding): no figure.
    PAIRED_NO_SPREAD = "paired_no_spread"
    # Paired scores (paired t): the differences' standard deviation.
    PAIRED_SD = "paired_sd"
    # Unpaired proportions (Newcombe): the baseline's value and its n.
    UNPAIRED_SHARE = "unpaired_share"
    # A baseline saved as a scorecard without samples: its interval's low and high ends.
    UNPAIRED_SAVED = "unpaired_saved"
    # A baseline's value and standard error, beside the current side's own limits or its
    # standard error.
    UNPAIRED_STDERR = "unpaired_stderr"


@attrs.frozen
class BaselineFixed:
    """What of a baseline was held fixed, and its figures (`BaselineHeld` says which, in order)."""

    held: BaselineHeld
    figures: tuple[float, ...] = ()


class Missing(enum.Enum):
    """Why a figure of what it would take does not exist."""

    NO_VALUE = "no_value"  # no value passes at this n
    NO_N = "no_n"  # no sample size passes at this value
    # The value clears the bar, and the baseline's own uncertainty keeps the change's bound from it.
    NO_N_BASELINE = "no_n_baseline"


@attrs.frozen(kw_only=True)
class Needed:
    """The least value (for a lower-is-better gate, the greatest) whose bound clears every bar
    at this n, and the least n at which this value clears them; None where no such number
    exists, with why in `missing`. `fixed` is what was held fixed, and `baseline_held` what of
    a baseline was (None without a baseline)."""

    value_at_n: float | None
    n_at_value: int | None
    fixed: Fixed
    baseline_held: BaselineFixed | None = None
    missing: tuple[Missing, ...] = ()


@attrs.frozen
class Bar:
    """One bar a gate's bound must clear: the interval it compares, as a function of the current
    value and n, the rule's direction and its limit."""

    family: Family
    op: Op
    limit: float
    # What the bound is compared around: the value, or its change from the baseline.
    point: float


@attrs.frozen(kw_only=True)
class Search:
    """What the search needs to know of the metric: its value and n, which way is better,
    whether values lie on the grid k/n (0/1 scores) or in [0, 1], and the least n that gates."""

    value: float
    n: int
    higher_is_better: bool
    grid: bool
    bounded: bool
    min_n: int
    # Whether the value itself (and its change from a baseline) clears every bar.
    point_clears: bool
    fixed: Fixed
    baseline_held: BaselineFixed | None = None


def held_fixed(interval: Interval, n: int) -> Fixed | None:
    """What `stats.moved` holds fixed to remake `interval` at another value and n; None when it
    cannot remake it."""
    basis = interval.basis
    if isinstance(basis, Proportion):
        return Fixed(Held.SHARE)
    if isinstance(basis, MeanSd):
        if interval.method is Method.HOEFFDING:
            return Fixed(Held.NO_SPREAD)
        if interval.method is Method.EFFECTIVE_N:
            return Fixed(Held.SD_RATIO, basis.sd / (basis.mean * (1 - basis.mean)) ** 0.5)
        return Fixed(Held.SD, basis.sd)
    if isinstance(basis, ValueStderr):
        if basis.df is None:
            return Fixed(Held.STDERR, basis.stderr * n**0.5)
        if interval.clusters is not None:
            size = n / interval.clusters
            return Fixed(Held.CLUSTERS_BOUNDED if basis.bounded else Held.CLUSTERS, size)
    return None


def what_it_takes(bars: Sequence[Bar], clears: Clears, search: Search) -> Needed:
    """The two figures for a gate whose every bar is in `bars`, found with `clears`."""

    def holds(value: float, n: int) -> bool:
        for bar in bars:
            interval = bar.family(value, n)
            if interval is None or not clears(interval, bar.op, bar.limit):
                return False
        return True

    value_guess, n_guess = guesses(bars, search.value, search.n, search.higher_is_better)
    value_at_n = _value_at(holds, search, value_guess)
    n_at_value = _n_at(holds, search, n_guess)
    missing = [Missing.NO_VALUE] if value_at_n is None else []
    if n_at_value is None:
        missing.append(Missing.NO_N_BASELINE if search.point_clears else Missing.NO_N)
    return Needed(
        value_at_n=value_at_n,
        n_at_value=n_at_value,
        fixed=search.fixed,
        baseline_held=search.baseline_held,
        missing=tuple(missing),
    )


def _value_at(holds: Callable[[float, int], bool], s: Search, guess: float) -> float | None:
    """The passing value nearest the failing side at n `s.n`, or None when none passes."""
    n = s.n
    side = 1 if s.higher_is_better else -1
    if s.grid:
        # Successes k of n: the bound moves with k, so the edge is one step of the grid.
        k = _nearest_int(lambda j: holds(j / n, n), round(guess * n), side, 0, n)
        return None if k is None else k / n
    low, high = (0.0, 1.0) if s.bounded else (-_FAR, _FAR)
    return _nearest_float(lambda v: holds(v, n), guess, side, low, high)


def _n_at(holds: Callable[[float, int], bool], s: Search, guess: int) -> int | None:
    """The least n (at least `s.min_n`) at which the value passes, or None up to MAX_N."""
    if not s.point_clears:
        return None
    return _nearest_int(lambda n: holds(s.value, n), guess, 1, max(1, s.min_n), MAX_N)


# The search's bounds for a value of unknown range: far past any score.
_FAR = 1e300


_N = TypeVar("_N", int, float)


def _nearest_int(
    holds: Callable[[int], bool], guess: int, side: int, low: int, high: int
) -> int | None:
    """The passing integer of [low, high] next to the failing ones, where `holds` is monotone
    and true toward `side` (+1: the larger); None when none passes. It gallops from `guess`
    (a closed form's answer, so usually a step or two away), then bisects."""
    return _gallop(holds, min(max(guess, low), high), 1, side, low, high, _edge_int)


def _nearest_float(
    holds: Callable[[float], bool], guess: float, side: int, low: float, high: float
) -> float | None:
    """`_nearest_int` for floats: galloping in steps of the guess's ulp, then bisecting down
    to adjacent doubles."""
    start = min(max(guess, low), high)
    unit = math.ulp(start) if start else math.ulp(1e-300)
    return _gallop(holds, start, unit, side, low, high, _edge)


def _gallop(
    holds: Callable[[_N], bool],
    start: _N,
    unit: _N,
    side: int,
    low: _N,
    high: _N,
    edge: Callable[[Callable[[_N], bool], _N, _N], _N],
) -> _N | None:
    """From `start`, steps of `unit` doubling each time away from the edge while on its side,
    then `edge` bisects between the last passing and the first failing point."""
    if holds(start):
        passing, step = start, unit
        while True:
            x = passing - side * step
            if not low <= x <= high:
                end = low if side > 0 else high
                return end if end == passing or holds(end) else edge(holds, passing, end)
            if not holds(x):
                return edge(holds, passing, x)
            passing, step = x, step * 2
    failing, step = start, unit
    while True:
        x = failing + side * step
        if not low <= x <= high:
            end = high if side > 0 else low
            if end == failing or not holds(end):
                return None
            return edge(holds, end, failing)
        if holds(x):
            return edge(holds, x, failing)
        failing, step = x, step * 2


def guesses(bars: Sequence[Bar], value: float, n: int, higher_is_better: bool) -> tuple[float, int]:
    """Where the search starts: the closed forms of a bound that shifts with the value and
    narrows as 1/√n (exact for the t, normal and cluster-robust intervals), refined once where
    the bound is read again (which makes Wilson's all but exact). The value and n every bar
    needs: the largest (for a lower-is-better gate, the least value)."""
    side = 1.0 if higher_is_better else -1.0
    value_guess, n_guess = value, n
    for index, bar in enumerate(bars):
        shifted, need = value, n
        for _ in range(2):
            interval = bar.family(shifted, n)
            if interval is None:
                break
            shifted += bar.limit - (interval.low if bar.op.higher_is_better else interval.high)
        for _ in range(2):
            interval = bar.family(value, need)
            if interval is None:
                break
            end = interval.low if bar.op.higher_is_better else interval.high
            gap, half = bar.point - bar.limit, bar.point - end
            if not (gap * half > 0 and math.isfinite(half / gap)):
                break
            # Past √MAX_N the ratio's square says only "more than MAX_N", and a float's square
            # overflows long before a float does (a standard error of 1e160).
            ratio = half / gap
            need = MAX_N if ratio > _ROOT_MAX_N else min(MAX_N, max(1, math.ceil(need * ratio**2)))
        if index == 0:
            value_guess, n_guess = shifted, need
        else:
            value_guess = side * max(side * value_guess, side * shifted)
            n_guess = max(n_guess, need)
    return value_guess, n_guess


def _edge(holds: Callable[[float], bool], passing: float, failing: float) -> float:
    """Bisection to the passing float next to the edge between `passing` and `failing`."""
    while True:
        mid = passing + (failing - passing) / 2
        if mid in (passing, failing):
            return passing
        if holds(mid):
            passing = mid
        else:
            failing = mid


def _edge_int(holds: Callable[[int], bool], passing: int, failing: int) -> int:
    """Bisection to the passing integer next to `failing`'s side of the edge."""
    while abs(passing - failing) > 1:
        mid = (passing + failing) // 2
        if holds(mid):
            passing = mid
        else:
            failing = mid
    return passing
