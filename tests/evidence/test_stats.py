"""Every interval formula against an independent reference, and its coverage by simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sp

from evalglass.evidence import stats
from evalglass.evidence.model import Method

LEVELS = (0.8, 0.9, 0.95, 0.99)


@pytest.mark.parametrize("df", [1, 2, 3, 5, 10, 30, 120, 10_000])
@pytest.mark.parametrize("p", [0.6, 0.9, 0.95, 0.975, 0.995])
def test_t_quantile_matches_scipy(df: int, p: float) -> None:
    """The Student-t quantile agrees with scipy to 1e-8."""
    assert stats.t_quantile(p, df) == pytest.approx(sp.t.ppf(p, df), abs=1e-8)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 4), (10, 10), (45, 100), (999, 1000)])
def test_wilson_matches_scipy(k: int, n: int, level: float) -> None:
    """Wilson bounds agree with scipy's binomtest(...).proportion_ci(method='wilson')."""
    want = sp.binomtest(k, n).proportion_ci(confidence_level=level, method="wilson")
    got = stats.wilson(k, n, level)
    assert (got.low, got.high) == pytest.approx((want.low, want.high), abs=1e-9)


@pytest.mark.parametrize("level", LEVELS)
def test_student_t_matches_scipy(level: float) -> None:
    """The Student-t interval of a mean of scores of unknown range (one past 1) agrees with
    scipy.stats.t.interval."""
    scores = [0.2, 1.9, 0.55, 0.7, 0.4, 0.61]
    want = sp.t.interval(level, len(scores) - 1, loc=np.mean(scores), scale=sp.sem(scores))
    got = stats.student_t(scores, level)
    assert got is not None and got.method is Method.STUDENT_T
    assert (got.low, got.high) == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize("level", LEVELS)
def test_scores_in_the_unit_range_get_wilson_at_the_effective_n(level: float) -> None:
    """Scores in [0, 1] with a spread: Wilson's interval of their mean at the Korn-Graubard
    effective n = p(1 − p)/(s²/n)·(z/t_{n−1})², recomputed with scipy's quantiles."""
    scores = [0.2, 0.9, 0.55, 0.7, 0.4, 0.61, 0.35, 0.8, 0.5, 0.66, 0.45, 0.58, 0.3, 0.72]
    n, p = len(scores), float(np.mean(scores))
    z, t = sp.norm.ppf(0.5 + level / 2), sp.t.ppf(0.5 + level / 2, n - 1)
    size = p * (1 - p) / (np.var(scores, ddof=1) / n) * (z / t) ** 2
    centre = (p + z * z / (2 * size)) / (1 + z * z / size)
    half = z * np.sqrt(p * (1 - p) / size + z * z / (4 * size * size)) / (1 + z * z / size)
    got = stats.student_t(scores, level)
    assert got is not None and got.method is Method.EFFECTIVE_N
    assert (got.low, got.high) == pytest.approx((centre - half, centre + half), abs=1e-9)


@pytest.mark.parametrize("level", LEVELS)
def test_normal_matches_scipy(level: float) -> None:
    """value ± z·stderr agrees with scipy.stats.norm.interval."""
    got = stats.normal(0.8, 0.03, level)
    assert (got.low, got.high) == pytest.approx(sp.norm.interval(level, 0.8, 0.03), abs=1e-12)


def test_clustered_matches_the_sandwich_formula() -> None:
    """The cluster-robust interval equals Miller's formula, computed independently with numpy."""
    rng = np.random.default_rng(1)
    clusters = np.repeat(np.arange(12), 5)
    scores = rng.normal(size=60) + rng.normal(size=12)[clusters]
    got = stats.clustered(scores.tolist(), clusters.tolist())
    residual = scores - scores.mean()
    per_cluster = np.bincount(clusters, weights=residual)
    se = math.sqrt(12 / 11 * (per_cluster**2).sum()) / 60
    half = sp.t.ppf(0.975, 11) * se
    assert got is not None and got.clusters == 12 and got.method is Method.CLUSTERED
    assert (got.low, got.high) == pytest.approx((scores.mean() - half, scores.mean() + half))


def test_zero_variance_does_not_collapse() -> None:
    """Identical scores in [0, 1] get a range-based (Hoeffding) interval, not a point."""
    got = stats.interval_for_scores([0.9, 0.9])
    assert got is not None and got.method is Method.HOEFFDING
    half = math.sqrt(math.log(2 / 0.05) / 4)
    assert (got.low, got.high) == pytest.approx((max(0, 0.9 - half), min(1, 0.9 + half)))
    assert got.low < 0.1  # two identical scores can never clear a serious bar


def test_zero_variance_of_unknown_range_has_no_interval() -> None:
    """Identical scores outside [0, 1] have no known range: no interval at all."""
    assert stats.interval_for_scores([3.0, 3.0, 3.0]) is None


@pytest.mark.parametrize(
    "interval",
    [
        stats.proportion(25, 50),
        stats.normal(0.7, 0.02),
        stats.student_t([0.1, 0.5, 0.9, 0.4]),
        stats.interval_for_scores([0.5, 0.5, 0.5]),
        stats.clustered([1.0, 0.0, 1.0, 1.0, 0.0, 1.0], ["a", "a", "b", "b", "c", "c"]),
    ],
)
@pytest.mark.parametrize("level", LEVELS)
def test_recomputing_at_a_level_equals_computing_there(interval, level: float) -> None:
    """An interval recomputed at another level equals one computed at that level directly."""
    moved = stats.at_level(interval, level)
    assert moved is not None and moved.level == level and moved.method is interval.method
    back = stats.at_level(moved, 0.95)
    assert (back.low, back.high) == pytest.approx((interval.low, interval.high), abs=1e-12)
    if level > 0.95:
        assert moved.low <= interval.low and moved.high >= interval.high


# Coverage by simulation: seeded, a few thousand runs per setting.
RUNS = 2000


def coverage(intervals, truth: float) -> float:
    return float(np.mean([i is not None and i.low <= truth <= i.high for i in intervals]))


@pytest.mark.parametrize(
    ("n", "p", "tolerance"),
    # Wilson's coverage oscillates with n and p; near p = 0.9 at small n it dips to about 92%.
    [(30, 0.5, 0.025), (30, 0.9, 0.035), (100, 0.8, 0.025), (400, 0.95, 0.025)],
)
def test_wilson_coverage(n: int, p: float, tolerance: float) -> None:
    """Wilson's 95% interval covers the true rate within the stated tolerance of 95%."""
    rng = np.random.default_rng(n * 1000 + int(p * 100))
    hits = rng.binomial(n, p, size=RUNS)
    assert abs(coverage([stats.wilson(int(k), n) for k in hits], p) - 0.95) <= tolerance


@pytest.mark.parametrize("n", [30, 200])
def test_student_t_coverage(n: int) -> None:
    """Student-t's 95% interval covers a skewed Beta(2, 5) mean 95% ± 2 points of the time."""
    rng = np.random.default_rng(n)
    truth = 2 / 7
    runs = [stats.student_t(rng.beta(2, 5, size=n).tolist()) for _ in range(RUNS)]
    assert abs(coverage(runs, truth) - 0.95) <= 0.02


def test_student_t_coverage_is_exact_for_normal_scores_at_small_n() -> None:
    """With ten normal scores, Student-t is exact: 95% ± 1.5 points (at five, closely spread
    scores count for at most `edge_cap`'s n, and the interval only widens)."""
    rng = np.random.default_rng(5)
    runs = [stats.student_t(rng.normal(0.5, 0.1, size=10).tolist()) for _ in range(RUNS)]
    assert abs(coverage(runs, 0.5) - 0.95) <= 0.015
    five = [stats.student_t(rng.normal(0.5, 0.1, size=5).tolist()) for _ in range(RUNS)]
    assert coverage(five, 0.5) >= 0.95 - 0.015


def test_clustered_coverage_and_naive_undercoverage() -> None:
    """With correlated clusters, the robust interval keeps 95% coverage; the naive one does not,
    and the robust one is wider."""
    rng = np.random.default_rng(7)
    robust, naive = [], []
    for _ in range(RUNS):
        clusters = np.repeat(np.arange(40), 5)
        scores = rng.normal(size=40)[clusters] + 0.5 * rng.normal(size=200)
        robust.append(stats.clustered(scores.tolist(), clusters.tolist()))
        naive.append(stats.student_t(scores.tolist()))
    assert abs(coverage(robust, 0.0) - 0.95) <= 0.025
    assert coverage(naive, 0.0) < 0.80
    width = np.mean([r.high - r.low for r in robust]) / np.mean([n.high - n.low for n in naive])
    assert width > 1.5
