"""Inspect's `value_to_float` and built-in epoch reducers, mirrored so that scores recomputed
from a log match the metrics Inspect reported; a reducer it cannot mirror is reported unknown."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from statistics import median

from evalglass.evidence.adapters import _common as c

Reducer = Callable[[Sequence[float]], float]

_CONSTANTS = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0}
_DECIMAL = re.compile(r"[0-9]+\.?[0-9]*|\.[0-9]+")
# Built once: called per sample and scorer, `bool | int | float` would build a new union each time.
_SCALAR = bool | int | float


def value_to_float(value: object) -> float | None:
    """C=1, P=0.5, I and N=0, yes/true=1, no/false=0, numeric strings as numbers.

    Any other string counts 0, as in Inspect; non-scalar values (lists, objects) are None.
    """
    # The values nearly every score has, first: it is called once per sample and scorer.
    if type(value) is float:
        return value
    if type(value) is str and value in _CONSTANTS:
        return _CONSTANTS[value]
    if isinstance(value, _SCALAR):
        return c.to_float(value)
    if not isinstance(value, str):
        return None
    if value in _CONSTANTS:
        return _CONSTANTS[value]
    lowered = value.lower()
    if lowered in ("yes", "true"):
        return 1.0
    if lowered in ("no", "false"):
        return 0.0
    return float(lowered) if _DECIMAL.fullmatch(lowered) else 0.0


def epoch_reducer(name: str) -> Reducer | None:
    """Inspect's built-in reducer of that name, or None when it is not one we can mirror."""
    if name == "mean":
        return lambda values: c.mean(values) or 0.0
    if name == "median":
        return median
    if name == "max":
        return max
    if name == "mode":
        return lambda values: Counter(values).most_common(1)[0][0]
    if m := re.fullmatch(r"at_least_([0-9]{1,9})", name):
        k = int(m.group(1))
        return lambda values: 1.0 if sum(v >= 1.0 for v in values) >= k else 0.0
    if m := re.fullmatch(r"pass_at_([0-9]{1,9})", name):
        k = int(m.group(1))
        return lambda values: _pass_at(values, k)
    return None


def _pass_at(values: Sequence[float], k: int) -> float:
    # The unbiased pass@k estimator Inspect uses: 1 - C(n-c, k) / C(n, k).
    total, correct = len(values), sum(v >= 1.0 for v in values)
    if total - correct < k:
        return 1.0
    product = 1.0
    for i in range(total - correct + 1, total + 1):
        product *= 1.0 - k / i
    return 1.0 - product
