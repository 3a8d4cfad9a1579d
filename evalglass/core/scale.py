"""The values a metric's scores can take, as its record declares them (`scale`), kept by its
interval: a proportion's value and n get a proportion's interval, and no interval end goes past
[0, 1]. Pure; it only narrows what an output's own numbers would claim.
"""

from __future__ import annotations

import math

import attrs

from evalglass.evidence import rates, stats
from evalglass.evidence.model import Interval, Measurement, Method, MethodBasis, ValueStderr
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
    """`interval` kept to `scale`: for a proportion, a proportion's interval from the value and n in
    place of a normal one from a reported stderr (or none at all); otherwise clipped to
    [0, 1], marked so that the evidence says it was. A value outside [0, 1] is left as it is:
    it is out of its range (validity says so), never clipped into a pass."""
    if scale is None:
        return interval
    if value is None or not (math.isfinite(value) and UNIT_RANGE[0] <= value <= UNIT_RANGE[1]):
        return interval
    if scale is Scale.PROPORTION and n is not None and _from_value_and_n(interval):
        return rates.share(
            value, n, level if interval is None else interval.level, MethodBasis.DECLARED_SCALE
        )
    return None if interval is None else stats.clip(interval, *UNIT_RANGE)


def _from_value_and_n(interval: Interval | None) -> bool:
    """Whether a share's Wilson interval can stand in for this one: none, or a normal one from
    a reported stderr (never one made from the samples, nor a cluster-robust one)."""
    if interval is None:
        return True
    basis = interval.basis
    return interval.method is Method.NORMAL and isinstance(basis, ValueStderr) and basis.df is None
