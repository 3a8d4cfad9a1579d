"""Interval estimates for a metric's value; pure functions of numbers, no I/O.

Every interval names its method and keeps the basis it was computed from, so the scorecard can
recompute it at the metric's own `interval_level` and every gate's evidence can say how its
bound was made. Formulas and references: docs/statistics.md.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from statistics import NormalDist

import attrs

from evalglass.evidence.binomial import clopper_pearson, regularized_beta, wilson_too_generous
from evalglass.evidence.model import (
    Basis,
    Interval,
    MeanSd,
    Method,
    MethodBasis,
    Proportion,
    ValueStderr,
)

DEFAULT_LEVEL = 0.95
# What one whole score's distance from the edge adds to the n a mean of scores in [0, 1] may
# count for (`edge_cap`): small enough to hold Beta(9.9, 0.1) to its target, large enough to
# leave closely spread symmetric scores alone from n 10 (bench/bench_coverage.py).
EDGE_CREDIT = 10.0


def mean(values: Sequence[float]) -> float:
    """The mean of one or more values, exactly rounded. Finite values whose sum passes the
    largest float still have a finite mean; infinities and NaN give what IEEE arithmetic gives
    (inf, or NaN for inf and -inf), never an exception."""
    n = len(values)
    try:
        return math.fsum(values) / n
    except OverflowError:
        return math.fsum(v / n for v in values)
    except ValueError:  # fsum refuses inf + -inf
        return math.nan


def squares(deviations: Iterable[float]) -> float:
    """The sum of squares; past the largest float it is infinite (so no interval is finite and
    the gate is unsound), not an exception."""
    return math.fsum(d * d for d in deviations)


@functools.lru_cache(maxsize=64)
def z_quantile(level: float) -> float:
    """Two-sided standard-normal critical value for a confidence `level`."""
    return NormalDist().inv_cdf(0.5 + level / 2)


def wilson(successes: float, n: int, level: float = DEFAULT_LEVEL) -> Interval:
    """Wilson score interval for a proportion; stays inside [0, 1] and honest at 0 or n successes."""
    low, high = _wilson_bounds(successes / n, n, level)
    return Interval(low, high, level, Method.WILSON, basis=Proportion(successes, n))


def proportion(successes: float, n: int, level: float = DEFAULT_LEVEL) -> Interval:
    """The interval of a share of 0/1 scores: Wilson's score interval, or the exact
    Clopper–Pearson one where Wilson's is too generous (few successes or few failures, and
    every small n: `binomial.wilson_too_generous`). Every reader and the core make a
    proportion's interval here."""
    low, high, exact = proportion_bounds(successes, n, level)
    method = Method.CLOPPER_PEARSON if exact else Method.WILSON
    return Interval(low, high, level, method, basis=Proportion(successes, n))


def proportion_bounds(successes: float, n: float, level: float) -> tuple[float, float, bool]:
    """Wilson's bounds, or Clopper–Pearson's (and True) where Wilson's are too generous."""
    low, high = _wilson_bounds(successes / n, n, level)
    if wilson_too_generous(successes, n, low, high, 1 - level):
        low, high = clopper_pearson(successes, n, 1 - level)
        return low, high, True
    return low, high, False


def _wilson_bounds(p: float, n: float, level: float) -> tuple[float, float]:
    z = z_quantile(level)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    # With no successes (or no failures) that end is the edge itself: computed, it is the
    # difference of two equal terms, a rounding error away from it (2.8e-17, 1 - 1.1e-16).
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return low, high


def normal(value: float, stderr: float, level: float = DEFAULT_LEVEL) -> Interval:
    """value ± z·stderr, for a framework-reported standard error."""
    half = z_quantile(level) * stderr
    return Interval(
        value - half, value + half, level, Method.NORMAL, basis=ValueStderr(value, stderr),
        method_basis=MethodBasis.REPORTED_STDERR,
    )  # fmt: skip


def student_t(scores: Sequence[float], level: float = DEFAULT_LEVEL) -> Interval | None:
    """Student-t interval for the mean of `scores`; None with fewer than two scores."""
    n = len(scores)
    if n < 2:
        return None
    centre = mean(scores)
    # Identical scores have no spread, whatever rounding the mean picked up.
    spread = min(scores) != max(scores)
    sd = math.sqrt(squares(s - centre for s in scores) / (n - 1)) if spread else 0.0
    bounded = all(0 <= s <= 1 for s in scores)
    return student_t_from(centre, sd, n, level, bounded=bounded, reach=(min(scores), max(scores)))


def student_t_from(
    mean: float,
    sd: float,
    n: int,
    level: float = DEFAULT_LEVEL,
    *,
    bounded: bool = False,
    reach: tuple[float | None, float | None] = (None, None),
) -> Interval | None:
    """Student-t interval from summary statistics (sample standard deviation `sd`).

    At zero variance a t interval collapses to a point that two identical scores would pass;
    scores known to lie in [0, 1] get Hoeffding's range-based bound instead, and scores of
    unknown range get no interval at all.
    """
    if n < 2:
        return None
    basis = MeanSd(mean, sd, n, bounded, *reach)
    if sd == 0:
        if not bounded:
            return None
        half = math.sqrt(math.log(2 / (1 - level)) / (2 * n))
        return Interval(
            max(0.0, mean - half), min(1.0, mean + half), level, Method.HOEFFDING, basis=basis
        )
    if bounded:
        return effective_wilson(mean, sd / math.sqrt(n), n - 1, level, basis)
    half = t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    return Interval(mean - half, mean + half, level, Method.STUDENT_T, basis=basis)


def effective_n(centre: float, se: float, df: int, level: float) -> float:
    """The number of 0/1 scores whose Wilson interval is as wide as the scores' own standard
    error `se` gives: n* = p(1 − p)/se² · (z/t_df)², p the mean (Korn & Graubard 1998, "Confidence
    intervals for proportions with small expected number of positive counts estimated from
    survey data", Survey Methodology 24:193, with t on `df` degrees of freedom). Zero where
    p(1 − p) is 0, infinite where se is."""
    spread = centre * (1 - centre)
    if spread <= 0:
        return 0.0
    if se <= 0:
        return math.inf
    return spread / (se * se) * (z_quantile(level) / t_quantile(0.5 + level / 2, df)) ** 2


def edge_cap(centre: float, n: int) -> float:
    """The most 0/1 scores a mean of n scores in [0, 1] may count for: n·(1 + 10·D), D = n·min(x̄,
    1 − x̄) the scores' distance from the nearer edge in whole scores. Near an edge a sample short
    of the rare scores that carry the mean has a small spread and would count for many."""
    return n * (1 + EDGE_CREDIT * n * min(centre, 1 - centre))


def effective_wilson(
    centre: float, se: float, df: int, level: float, basis: Basis, clusters: int | None = None
) -> Interval:
    """A proportion's interval (`proportion`: Wilson's, or Clopper–Pearson's where Wilson's is
    too generous) at the scores' effective n (`effective_n`), for a mean of scores in [0, 1].
    A t interval takes the spread at the observed mean; near 0 or 1 that spread shrinks with
    the mean itself (few low scores give both a high mean and a small sd), so t passes skewed
    scores at the bar far more often than α/2. The score form takes the spread at the bound
    instead, as it does for 0/1 scores, and stays inside [0, 1]. Unclustered, n* is at most
    `edge_cap`."""
    method = Method.CLUSTERED_EFFECTIVE_N if clusters is not None else Method.EFFECTIVE_N
    size = effective_n(centre, se, df, level)
    if clusters is None:
        size = min(size, edge_cap(centre, df + 1))
    if size == 0:
        low, high = 0.0, 1.0
    elif math.isinf(size):
        low = high = centre
    else:
        low, high, _ = proportion_bounds(centre * size, size, level)
    return Interval(low, high, level, method, basis=basis, clusters=clusters)


def interval_for_scores(scores: Sequence[float], level: float = DEFAULT_LEVEL) -> Interval | None:
    """A proportion's interval when every score is 0 or 1, Student-t otherwise."""
    if scores and all(s in (0, 1) for s in scores):
        return proportion(math.fsum(scores), len(scores), level)
    return student_t(scores, level)


def clustered(
    scores: Sequence[float], clusters: Sequence[object], level: float = DEFAULT_LEVEL
) -> Interval | None:
    """Cluster-robust interval for a mean (Miller 2024, "Adding Error Bars to Evals", eq. 4).

    Scores that share a cluster (epochs of one sample, variants of one document) are not
    independent; the standard error sums residuals within each cluster before squaring, and
    the t quantile has C - 1 degrees of freedom. None with fewer than two clusters.
    """
    n = len(scores)
    sums: dict[object, float] = {}
    counts: dict[object, int] = {}
    for score, cluster in zip(scores, clusters, strict=True):
        sums[cluster] = sums.get(cluster, 0.0) + score
        counts[cluster] = counts.get(cluster, 0) + 1
    bounded = all(0 <= s <= 1 for s in scores)
    centre = mean(scores) if n else 0.0
    residual = squares(sums[k] - counts[k] * centre for k in sums)
    return clustered_from_residual(n, centre, residual, len(sums), level, bounded=bounded)


def clustered_from_residual(
    n: int,
    centre: float,
    residual: float,
    c: int,
    level: float = DEFAULT_LEVEL,
    *,
    bounded: bool = False,
) -> Interval | None:
    """The cluster-robust interval from Σ_c (S_c − n_c·mean)² over `c` clusters: mean ± t·SE on
    C − 1 degrees of freedom, or, for scores in [0, 1] (`bounded`), Wilson's at the effective
    n that SE gives (the design effect's n, `effective_wilson`)."""
    if c < 2:
        return None
    se = math.sqrt(residual * c / (c - 1)) / n
    if se == 0:
        return None
    return _clustered(centre, se, c, level, bounded)


def _clustered(centre: float, se: float, c: int, level: float, bounded: bool) -> Interval:
    basis = ValueStderr(centre, se, df=c - 1, bounded=bounded)
    if bounded:
        return effective_wilson(centre, se, c - 1, level, basis, clusters=c)
    half = t_quantile(0.5 + level / 2, c - 1) * se
    return Interval(centre - half, centre + half, level, Method.CLUSTERED, basis=basis, clusters=c)


def at_level(interval: Interval, level: float) -> Interval | None:
    """The same interval recomputed at another confidence level, on the same grounds; None when
    it cannot be."""
    if interval.level == level:
        return interval
    again = _at_level(interval, level)
    if again is None or again.method_basis is interval.method_basis:
        return again
    return attrs.evolve(again, method_basis=interval.method_basis)


def _at_level(interval: Interval, level: float) -> Interval | None:
    basis: Basis | None = interval.basis
    if isinstance(basis, Proportion):
        return proportion(basis.successes, basis.n, level)
    if isinstance(basis, MeanSd):
        reach = (basis.low, basis.high)
        return student_t_from(
            basis.mean, basis.sd, basis.n, level, bounded=basis.bounded, reach=reach
        )
    if isinstance(basis, ValueStderr) and basis.bounded and basis.df is not None:
        return effective_wilson(
            basis.value, basis.stderr, basis.df, level, basis, clusters=interval.clusters
        )
    if isinstance(basis, ValueStderr):
        q = z_quantile(level) if basis.df is None else t_quantile(0.5 + level / 2, basis.df)
        half = q * basis.stderr
        return Interval(
            basis.value - half,
            basis.value + half,
            level,
            interval.method,
            basis=basis,
            clusters=interval.clusters,
        )
    return None


def clip(interval: Interval, low: float, high: float) -> Interval:
    """The interval with its ends kept inside [low, high], the values the scores can take;
    marked `clipped` when an end was cut back, so every evidence string can say so."""
    if low <= interval.low and interval.high <= high:
        return interval
    return attrs.evolve(
        interval,
        low=min(max(interval.low, low), high),
        high=max(min(interval.high, high), low),
        clipped=(low, high),
    )


def successes(value: float, n: int) -> float:
    """value·n, given back as the whole count it is when the value is a share of n (a product
    of floats is a rounding away from it)."""
    product = value * n
    nearest = round(product)
    return float(nearest) if abs(product - nearest) <= 1e-9 * n else product


def moved(interval: Interval, value: float, n: int, observed_n: int) -> Interval | None:
    """The interval its method gives at another value and sample size, holding what was observed
    of the scores' spread: a proportion's Wilson interval at value·n successes; Student-t with
    the same standard deviation; normal with the same standard deviation (stderr·√n); the
    cluster-robust one with the same clusters' size and spread. None without a basis."""
    basis = interval.basis
    level = interval.level
    if isinstance(basis, Proportion):
        if n < 1 or not 0 <= value <= 1:
            return None
        return proportion(successes(value, n), n, level)
    if isinstance(basis, MeanSd):
        if basis.bounded and not 0 <= value <= 1:
            return None
        if basis.bounded and basis.sd > 0:
            # Scores in [0, 1] hold their spread relative to 0/1 scores' at the same mean
            # (sd² / p(1 − p)), so the bound stays monotone in the value up to the range's end.
            ratio = basis.sd / math.sqrt(basis.mean * (1 - basis.mean))
            sd = ratio * math.sqrt(value * (1 - value))
            if n < 2:
                return None
            return effective_wilson(
                value, sd / math.sqrt(n), n - 1, level, MeanSd(value, sd, n, True)
            )
        return student_t_from(value, basis.sd, n, level, bounded=basis.bounded)
    if isinstance(basis, ValueStderr) and observed_n >= 1 and n >= 1:
        scale = math.sqrt(observed_n / n)
        if basis.df is None:
            return normal(value, basis.stderr * scale, level)
        if interval.clusters is not None and interval.clusters >= 2:
            c0 = interval.clusters
            c = max(2, round(c0 * n / observed_n))
            # SE = √(C/(C−1)·Σ_c r_c²)/n, and Σ_c r_c² grows with C at a fixed cluster size.
            se = basis.stderr * scale * math.sqrt((c / (c - 1)) / (c0 / (c0 - 1)))
            if basis.bounded:
                if not 0 <= value <= 1:
                    return None
                # The design effect held: the spread relative to 0/1 scores' at the same mean.
                se *= math.sqrt(value * (1 - value) / (basis.value * (1 - basis.value)))
            return _clustered(value, se, c, level, basis.bounded)
    return None


def standard_error(interval: Interval) -> float | None:
    """The standard error behind an interval, for combining two of them into a difference."""
    basis = interval.basis
    if isinstance(basis, Proportion):
        p = basis.successes / basis.n
        return math.sqrt(p * (1 - p) / basis.n)
    if isinstance(basis, MeanSd):
        return basis.sd / math.sqrt(basis.n)
    if isinstance(basis, ValueStderr):
        return basis.stderr
    return None


@functools.lru_cache(maxsize=1024)
def t_quantile(p: float, df: int) -> float:
    """Inverse CDF of Student's t with `df` degrees of freedom, by bisection on the exact CDF."""
    if not 0 < p < 1:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2


def binomial_at_least(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p): the regularized incomplete beta I_p(k, n − k + 1)."""
    return 1.0 if k <= 0 else 0.0 if k > n else regularized_beta(k, n - k + 1, p)


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t on `df` degrees of freedom (regularized incomplete beta)."""
    x = df / (df + t * t)
    tail = 0.5 * regularized_beta(df / 2, 0.5, x)
    return 1 - tail if t >= 0 else tail
