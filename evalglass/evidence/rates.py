"""When a value read without its samples is a share of n, and the interval a framework's value
and standard error get. Pure functions of numbers, no I/O.

An adapter knows when its framework's metric is a rate by construction (lm-eval's `acc`, an
Inspect accuracy of a C/I scorer, promptfoo's pass rate); a reported standard error that is the
binomial one, √(p(1−p)/(n−1)) or √(p(1−p)/n), for a value that is a whole count of n says so
too. Either way the interval is Wilson's from the value and n, never value ± z·stderr, which at
a share near 0 or 1 is narrower than the truth allows. docs/statistics.md gives the rules.
"""

from __future__ import annotations

import math

import attrs

from evalglass.evidence import stats
from evalglass.evidence.model import Interval, Method, MethodBasis, ValueStderr

# A reported standard error is the binomial one when within this share of it: frameworks write
# it in full, people round it to a few digits.
STDERR_TOLERANCE = 5e-3
# value·n is a whole count when within this share of n of one (a value written in full).
COUNT_TOLERANCE = 1e-6


def binomial(value: float, n: int, stderr: float) -> bool:
    """Whether `stderr` is the binomial standard error of a share `value` of n, by either
    convention (n − 1, as lm-eval and Inspect write it, or n), for a value that is a whole count
    of n: a spread that only 0/1 scores have among scores in [0, 1]."""
    if n < 2 or not (math.isfinite(value) and math.isfinite(stderr)) or not 0 <= value <= 1:
        return False
    product = value * n
    if abs(product - round(product)) > COUNT_TOLERANCE * n:
        return False
    spread = value * (1 - value)
    return any(
        abs(stderr - math.sqrt(spread / m)) <= STDERR_TOLERANCE * math.sqrt(spread / m) + 1e-12
        for m in (n - 1, n)
    )


def share(value: float, n: int, level: float, why: MethodBasis) -> Interval | None:
    """A proportion's interval (Wilson's, or Clopper–Pearson's where Wilson's errs) of a share
    `value` of n (successes value·n); None for a value that is
    not a share (outside [0, 1], not finite) or no n."""
    if n < 1 or not math.isfinite(value) or not 0 <= value <= 1:
        return None
    return attrs.evolve(stats.proportion(stats.successes(value, n), n, level), method_basis=why)


def reported(
    value: float, stderr: float, clusters: int | None = None, level: float = stats.DEFAULT_LEVEL
) -> Interval | None:
    """The interval of a framework's value and standard error: value ± z·stderr, or for a
    cluster-robust stderr over C clusters value ± t₍C−1₎·stderr (the quantile evalglass uses
    for its own cluster-robust interval). None where no honest interval exists: a stderr that is
    negative or not finite; a clustered one over fewer than two clusters, or an unknown number
    (`clusters` 0); and a stderr of 0, which for scores of unknown range says nothing of how far
    the mean may be (identical scores of unknown range get none either)."""
    if not (math.isfinite(value) and math.isfinite(stderr)) or stderr <= 0:
        return None
    if clusters is None:
        return stats.normal(value, stderr, level)
    if clusters < 2:
        return None
    half = stats.t_quantile(0.5 + level / 2, clusters - 1) * stderr
    return Interval(
        value - half, value + half, level, Method.CLUSTERED,
        basis=ValueStderr(value, stderr, df=clusters - 1), clusters=clusters,
        method_basis=MethodBasis.REPORTED_STDERR,
    )  # fmt: skip
