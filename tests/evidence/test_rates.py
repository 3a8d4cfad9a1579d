"""A value read without its samples is a share of n when the evidence says so, and then its
interval is Wilson's: a reported stderr never makes it narrower than that; a stderr of 0 for a
value that is not a share gives no interval at all."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from evalglass.evidence import rates
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.model import MethodBasis

shares = st.integers(min_value=2, max_value=5000).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))
)
from tests.proportion_reference import PROPORTION_METHODS, proportion


@given(shares, st.sampled_from([0, 1]))
def test_the_binomial_stderr_of_a_share_is_recognised(share: tuple[int, int], less: int) -> None:
    """k of n with √(p(1−p)/(n−1)) (lm-eval's, Inspect's) or √(p(1−p)/n): a share of n."""
    k, n = share
    p = k / n
    assert rates.binomial(p, n, math.sqrt(p * (1 - p) / (n - less)))


@given(shares, st.floats(min_value=0, max_value=10, allow_nan=False))
def test_a_rate_gets_a_proportions_interval_whatever_stderr_it_reports(
    share: tuple[int, int], se: float
) -> None:
    """A rate by construction: a proportion's interval of k of n (scipy's), whatever the
    stderr."""
    k, n = share
    got = c.interval(k / n, None, se, n=n, rate=True)
    method, low, high = proportion(k, n)
    assert got is not None and got.method is method
    assert got.method_basis is MethodBasis.INFERRED_PROPORTION
    assert math.isclose(got.low, low, abs_tol=1e-9)
    assert math.isclose(got.high, high, abs_tol=1e-9)


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), st.integers(2, 10**6))
def test_a_stderr_of_zero_that_is_not_a_share_gives_no_interval(value: float, n: int) -> None:
    """A stderr of 0 says nothing of how far a mean of unknown range may be: no interval, but
    for a share of none or all of n (the binomial stderr of 0 or 1), whose Wilson interval
    reaches the far side."""
    got = c.interval(value, None, 0.0, n=n)
    if got is not None:
        assert got.method in PROPORTION_METHODS and min(abs(value), abs(1 - value)) < 1e-6
        assert got.high - got.low > 0
