"""A proportion's interval: Wilson's, or the exact Clopper-Pearson one where Wilson's is too
generous (few successes or failures, and every small n), checked against scipy and by exact
binomial sums of the gate's one-sided error at the bar."""

from __future__ import annotations

import pytest
from scipy import stats as sp

from evalglass.evidence import binomial, stats
from evalglass.evidence.model import Method

LEVELS = (0.8, 0.9, 0.95, 0.99)


def _error_at_bar(n: int, bar: float, level: float = 0.95) -> float:
    """P(a true rate at `bar` passes `>= bar`): the binomial mass of the k whose lower bound
    clears the bar, summed exactly."""
    return sum(
        sp.binom.pmf(k, n, bar) for k in range(n + 1) if stats.proportion(k, n, level).low >= bar
    )


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("n", [1, 2, 3, 7, 20, 150])
def test_clopper_pearson_matches_scipys_beta_quantiles(n: int, level: float) -> None:
    """Every k of n: the exact bounds are scipy's Beta quantiles B(α/2; k, n−k+1) and
    B(1−α/2; k+1, n−k)."""
    alpha = 1 - level
    for k in range(n + 1):
        low, high = binomial.clopper_pearson(k, n, alpha)
        want_low = 0.0 if k == 0 else sp.beta.ppf(alpha / 2, k, n - k + 1)
        want_high = 1.0 if k == n else sp.beta.ppf(1 - alpha / 2, k + 1, n - k)
        assert low == pytest.approx(want_low, abs=1e-12)
        assert high == pytest.approx(want_high, abs=1e-12)


@pytest.mark.parametrize(("n", "wilson_error"), [(1, 0.2065), (2, 0.12)])
def test_all_successes_at_small_n_pass_at_the_bar_at_most_nominally(
    n: int, wilson_error: float
) -> None:
    """n of n at n 1 and 2: a gate at the bar Wilson's bound gives (0.2065 at n 1) passed a true
    rate there 21% and 12% of the time; the exact bound passes it at most 2.5%."""
    bar = stats.wilson(n, n).low
    assert sp.binom.pmf(n, n, bar) == pytest.approx(wilson_error, abs=0.01)
    got = stats.proportion(n, n)
    assert got.method is Method.CLOPPER_PEARSON
    assert got.low == pytest.approx(0.025 ** (1 / n), abs=1e-12)
    assert _error_at_bar(n, bar) <= 0.025


def test_one_of_one_is_bounded_exactly() -> None:
    """1 of 1 at 95%: lower bound 0.025, not Wilson's 0.2065."""
    got = stats.proportion(1, 1)
    assert got.method is Method.CLOPPER_PEARSON
    assert (got.low, got.high) == (pytest.approx(0.025, abs=1e-15), 1.0)


@pytest.mark.parametrize("level", LEVELS)
def test_bounds_rise_with_the_successes(level: float) -> None:
    """Both ends rise strictly with k at every n up to 120 (what it would take bisects on k)."""
    for n in range(1, 121):
        intervals = [stats.proportion(k, n, level) for k in range(n + 1)]
        lows = [i.low for i in intervals]
        highs = [i.high for i in intervals]
        assert lows == sorted(set(lows)) and highs == sorted(set(highs)), n


@pytest.mark.parametrize("n", [1, 2, 5, 9, 10, 20, 30, 50, 100, 200])
@pytest.mark.parametrize("p", [0.5, 0.8, 0.9, 0.95, 0.99])
def test_one_sided_error_at_the_bar_meets_the_target(n: int, p: float) -> None:
    """A true rate at the bar passes `>=` at most 3.5% of the time (exact binomial sums) at the
    issue's rates from n 30, and at most 5% below."""
    target = 0.05 if n < 30 else 0.035
    assert _error_at_bar(n, p) <= target


def test_mid_range_shares_keep_wilson() -> None:
    """Where Wilson is honest (40 of 50, 184 of 200) it is still Wilson's interval."""
    for k, n in [(25, 50), (184, 200), (500, 1000)]:
        got = stats.proportion(k, n)
        assert got.method is Method.WILSON
        assert (got.low, got.high) == (stats.wilson(k, n).low, stats.wilson(k, n).high)


def test_the_rule_is_wilsons_exact_mid_p_error_at_its_own_bound() -> None:
    """Wilson is replaced exactly where the mid-p probability of passing at its own bound (at
    the grid's edge, the plain one) exceeds 3.5% at 95% (scipy, every k of n up to 60)."""
    for n in range(1, 61):
        for k in range(n + 1):
            w = stats.wilson(k, n)
            # mid-p inside the grid; at its edge (k = n, k = 0) the whole mass of the edge
            low_tail = 0.0 if k == 0 else sp.binom.sf(k, n, w.low) + sp.binom.pmf(k, n, w.low) / 2
            high_tail = (
                0.0 if k == n else sp.binom.cdf(k - 1, n, w.high) + sp.binom.pmf(k, n, w.high) / 2
            )
            if k == n:
                low_tail = sp.binom.pmf(n, n, w.low)
            if k == 0:
                high_tail = sp.binom.pmf(0, n, w.high)
            exact = max(low_tail, high_tail) > 0.035
            assert (stats.proportion(k, n).method is Method.CLOPPER_PEARSON) == exact, (k, n)
