"""A proportion's interval as evalglass makes it, from scipy: Wilson's score interval, or the
exact Clopper–Pearson one where evalglass's rule (`binomial.wilson_too_generous`) finds Wilson's
too generous. Tests of readers compare with this rather than with one method."""

from __future__ import annotations

import scipy.stats as sp

from evalglass.evidence.binomial import wilson_too_generous
from evalglass.evidence.model import Method

PROPORTION_METHODS = (Method.WILSON, Method.CLOPPER_PEARSON)


def proportion(successes: int, n: int, level: float = 0.95) -> tuple[Method, float, float]:
    """The method evalglass picks for k of n, and that method's bounds by scipy."""
    wilson = sp.binomtest(successes, n).proportion_ci(level, method="wilson")
    if wilson_too_generous(successes, n, wilson.low, wilson.high, 1 - level):
        exact = sp.binomtest(successes, n).proportion_ci(level, method="exact")
        return Method.CLOPPER_PEARSON, exact.low, exact.high
    return Method.WILSON, wilson.low, wilson.high
