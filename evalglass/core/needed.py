"""What it would take: for a gate its bound decides, the value that would pass at the n it was
measured with, and the n that would pass at the value it measured. Pure. It searches with the
rule that decides the gate (decision.py passes it in), so a figure here and a gate result cannot
disagree. The formulas and their assumptions: docs/statistics.md, "What it would take".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from evalglass.evidence.model import Interval, MeanSd, Method, Proportion, StandardError
from evalglass.records.model import Op

# The interval a bar compares, at a current value and sample size (None where there is none).
Family = Callable[[float, int], Interval | None]
# The decision's own rule: whether an interval's conservative end clears a limit.
Clears = Callable[[Interval, Op, float], bool]

# Sample sizes are searched up to this; past it, "no sample size passes".
MAX_N = 10**9
NO_N = "no sample size passes at this value"
NO_N_BASELINE = (
    "no sample size passes at this value: the value clears the bar, and the baseline's own "
    "uncertainty keeps the change's bound from it"
)
NO_VALUE = "no value passes at this n"


@attrs.frozen(kw_only=True)
class Needed:
    """The least value (for a lower-is-better gate, the greatest) whose bound clears every bar
    at this n, and the least n at which this value clears them; None where no such number
    exists, with why in `reason`. `assumptions` says in one line what was held fixed."""

    value_at_n: float | None
    n_at_value: int | None
    assumptions: str
    reason: str = ""


@attrs.frozen
class Bar:
    """One bar a gate's bound must clear: the interval it compares, as a function of the current
    value and n, the rule's direction and its limit."""

    family: Family
    op: Op
    limit: float


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
    assumptions: str
    # Whether the value itself (and its change from a baseline) clears every bar.
    point_clears: bool


def held_fixed(interval: Interval, n: int) -> str | None:
    """What `stats.moved` holds fixed to remake `interval` at another value and n, in one line;
    None when it cannot remake it."""
    basis = interval.basis
    if isinstance(basis, Proportion):
        return "0/1 scores: a value is k successes of n; n at the same share"
    if isinstance(basis, MeanSd):
        if interval.method is Method.HOEFFDING:
            return "scores in [0, 1] with no spread (Hoeffding)"
        return f"the scores' standard deviation {basis.sd:.4g} held"
    if isinstance(basis, StandardError):
        sd = basis.stderr * n**0.5
        if basis.df is None:
            return f"the standard error scaled as 1/√n (standard deviation {sd:.4g} held)"
        if interval.clusters is not None:
            size = n / interval.clusters
            return f"the clusters' size {size:.3g} and spread held (standard error × √(n₀/n))"
    return None


def what_it_takes(bars: Sequence[Bar], clears: Clears, search: Search) -> Needed:
    """The two figures for a gate whose every bar is in `bars`, found with `clears`."""

    def holds(value: float, n: int) -> bool:
        for bar in bars:
            interval = bar.family(value, n)
            if interval is None or not clears(interval, bar.op, bar.limit):
                return False
        return True

    value_at_n = _value_at(holds, search)
    n_at_value = _n_at(holds, search)
    missing = [NO_VALUE] if value_at_n is None else []
    if n_at_value is None:
        missing.append(NO_N_BASELINE if search.point_clears else NO_N)
    return Needed(
        value_at_n=value_at_n,
        n_at_value=n_at_value,
        assumptions=search.assumptions,
        reason="; ".join(missing),
    )


def _value_at(holds: Callable[[float, int], bool], s: Search) -> float | None:
    """The passing value nearest the failing side at n `s.n`, or None when none passes."""
    n = s.n
    better = 1.0 if s.higher_is_better else -1.0
    if s.grid:
        # Successes k of n: the bound moves with k, so the edge is one step of the grid.
        best, worst = (n, 0) if s.higher_is_better else (0, n)
        if not holds(best / n, n):
            return None
        if holds(worst / n, n):
            return worst / n
        return _edge_int(lambda k: holds(k / n, n), best, worst) / n
    if s.bounded:
        best_v, worst_v = (1.0, 0.0) if s.higher_is_better else (0.0, 1.0)
        if not holds(best_v, n):
            return None
        if holds(worst_v, n):
            return worst_v
        return _edge(lambda v: holds(v, n), best_v, worst_v)
    # Unbounded: step out from the value, doubling, until one side passes and the other fails.
    passing = _reach(lambda v: holds(v, n), s.value, better)
    if passing is None:
        return None
    failing = _reach(lambda v: not holds(v, n), passing, -better)
    if failing is None:
        return None  # every value passes: there is no edge to name
    return _edge(lambda v: holds(v, n), passing, failing)


def _n_at(holds: Callable[[float, int], bool], s: Search) -> int | None:
    """The least n (at least `s.min_n`) at which the value passes, or None up to MAX_N."""

    def passes(n: int) -> bool:
        return holds(s.value, n)

    if not s.point_clears:
        return None
    start = max(s.min_n, s.n)
    if passes(start):
        if passes(s.min_n):
            return s.min_n
        return _edge_int(passes, start, s.min_n)
    failing, n = start, start
    while not passes(n):
        failing = n
        if n >= MAX_N:
            return None
        n = min(MAX_N, n * 2)
    return _edge_int(passes, n, failing)


def _reach(holds: Callable[[float], bool], start: float, step_sign: float) -> float | None:
    """A point where `holds` is true, stepping from `start` in the direction `step_sign` by
    doubling steps; None when none is found within 2^60 of the start."""
    step = max(abs(start), 1e-6)
    point = start
    for _ in range(64):
        if holds(point):
            return point
        point = start + step_sign * step
        step *= 2
    return None


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
