"""Interval estimates for a metric's value; pure functions of numbers, no I/O.

Each function returns an `Interval` that names its method, so every gate's evidence can say how
its bound was computed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

from evalglass.evidence.model import Interval, Method

DEFAULT_LEVEL = 0.95


def z_quantile(level: float) -> float:
    """Two-sided standard-normal critical value for a confidence `level`."""
    return NormalDist().inv_cdf(0.5 + level / 2)


def wilson(successes: float, n: int, level: float = DEFAULT_LEVEL) -> Interval:
    """Wilson score interval for a proportion; stays inside [0, 1] and honest at 0 or n successes."""
    z = z_quantile(level)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Interval(max(0.0, centre - half), min(1.0, centre + half), level, Method.WILSON)


def normal(value: float, stderr: float, level: float = DEFAULT_LEVEL) -> Interval:
    """value ± z·stderr, for a framework-reported standard error."""
    half = z_quantile(level) * stderr
    return Interval(value - half, value + half, level, Method.NORMAL)


def student_t(scores: Sequence[float], level: float = DEFAULT_LEVEL) -> Interval | None:
    """Student-t interval for the mean of `scores`; None with fewer than two scores."""
    n = len(scores)
    if n < 2:
        return None
    mean = math.fsum(scores) / n
    sd = math.sqrt(math.fsum((s - mean) ** 2 for s in scores) / (n - 1))
    return student_t_from(mean, sd, n, level)


def student_t_from(mean: float, sd: float, n: int, level: float = DEFAULT_LEVEL) -> Interval | None:
    """Student-t interval from summary statistics (sample standard deviation `sd`)."""
    if n < 2:
        return None
    half = t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    return Interval(mean - half, mean + half, level, Method.STUDENT_T)


def interval_for_scores(scores: Sequence[float], level: float = DEFAULT_LEVEL) -> Interval | None:
    """Wilson when every score is 0 or 1, Student-t otherwise."""
    if scores and all(s in (0, 1) for s in scores):
        return wilson(math.fsum(scores), len(scores), level)
    return student_t(scores, level)


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


def t_cdf(t: float, df: int) -> float:
    x = df / (df + t * t)
    tail = 0.5 * _betainc(df / 2, 0.5, x)
    return 1 - tail if t >= 0 else tail


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b) (continued fraction, Numerical Recipes §6.4)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1 - math.exp(log_front) * _betacf(b, a, 1 - x) / b


def _betacf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h
