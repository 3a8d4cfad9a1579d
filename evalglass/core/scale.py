"""The values a metric's scores can take, as its record declares them (`scale`), kept by its
interval: a proportion's value and n get Wilson's interval, and no interval end goes past
[0, 1]. Pure; it only narrows what an output's own numbers would claim.
"""

from __future__ import annotations

import math

import attrs

from evalglass.evidence import stats
from evalglass.evidence.model import Interval, Measurement, Method, StandardError
from evalglass.records.model import Scale

# Every scale the records can declare is a share or a score in [0, 1].
UNIT_RANGE = (0.0, 1.0)


def in_scale(measurement: Measurement, scale: Scale | None, level: float) -> Measurement:
    """The measurement with its interval kept to `scale` (unchanged when it is None)."""
    if scale is None:
        return measurement
    interval = kept(measurement.interval, measurement.value, measurement.n, scale, level)
    return (
        measurement
        if interval is measurement.interval
        else attrs.evolve(measurement, interval=interval)
    )


def kept(
    interval: Interval | None, value: float | None, n: int | None, scale: Scale | None, level: float
) -> Interval | None:
    """`interval` kept to `scale`: for a proportion, Wilson's interval from the value and n in
    place of a normal one from a reported stderr (or none at all); otherwise clipped to
    [0, 1], marked so that the evidence says it was."""
    if scale is None:
        return interval
    if scale is Scale.PROPORTION and _from_value_and_n(interval, value, n):
        assert value is not None and n is not None
        return stats.proportion(
            _successes(value, n), n, level if interval is None else interval.level
        )
    return None if interval is None else stats.clip(interval, *UNIT_RANGE)


def _from_value_and_n(interval: Interval | None, value: float | None, n: int | None) -> bool:
    """Whether a share's Wilson interval can stand in for this one: a value in [0, 1] with n,
    and no interval or a normal one from a reported stderr (never one made from the samples)."""
    if value is None or n is None or n < 1 or not (math.isfinite(value) and 0 <= value <= 1):
        return False
    if interval is None:
        return True
    basis = interval.basis
    return (
        interval.method is Method.NORMAL and isinstance(basis, StandardError) and basis.df is None
    )


def _successes(value: float, n: int) -> float:
    """value·n, given back as the whole count it is when the value is a share of n."""
    successes = value * n
    nearest = round(successes)
    return float(nearest) if abs(successes - nearest) <= 1e-9 * n else successes
