"""Is a measured number sound enough to compare with a threshold? Pure; knows nothing of authority.

Validity is judged against the metric's own record (min_samples, decision rule, missing samples)
where one exists, and against the record defaults where none does. A host check's result is
sound when it ran: it has no samples and no interval to judge.
"""

from __future__ import annotations

import math
from typing import cast

import attrs

from evalglass.core.interval_checks import limit_reached
from evalglass.evidence.model import AttemptOutcome, Measurement
from evalglass.numbers import plural
from evalglass.reasons import Reason
from evalglass.reasons import ValidityCode as V
from evalglass.records.model import Decision, MetricRecord, Scale, ThresholdRecord

_DEFAULTS = attrs.fields(MetricRecord)
# The record's defaults, for a metric measured with no record.
_MIN_SAMPLES = cast(int, _DEFAULTS.min_samples.default)
_DECISION = cast(Decision, _DEFAULTS.decision.default)
_MAX_MISSING = cast(float, _DEFAULTS.max_missing_fraction.default)
# What an adapter can say about a metric that has no value.
_WHY_NO_VALUE = frozenset({V.VALUE_MISSING, V.RUN_INCOMPLETE})


@attrs.frozen
class Validity:
    """Whether a measured number may be compared with a threshold; when not, every reason why,
    not just the first."""

    valid: bool
    reasons: tuple[Reason, ...] = ()


def assess(
    measurement: Measurement | None,
    metric: MetricRecord | None,
    threshold: ThresholdRecord | None = None,
) -> Validity:
    """Every reason the measurement cannot be compared; valid only when there are none. Given
    the threshold, an interval its bound rule would compare is held to its method's measured
    limits (`interval_checks`)."""
    min_samples = metric.min_samples if metric else _MIN_SAMPLES
    decision = metric.decision if metric else _DECISION
    max_missing = metric.max_missing_fraction if metric else _MAX_MISSING
    if measurement is not None and measurement.attempts:
        return _check(measurement)
    if measurement is None or measurement.value is None:
        # An adapter that knows why nothing was measured (a run that ended in error) says so.
        said = (
            tuple(f for f in measurement.findings if f.code in _WHY_NO_VALUE) if measurement else ()
        )
        return Validity(False, said or (Reason(V.VALUE_MISSING, "no value was measured"),))
    reasons = []
    if not math.isfinite(measurement.value):
        reasons.append(Reason(V.VALUE_NOT_FINITE, f"value is {measurement.value}"))
    elif metric is not None and metric.scale is not None:
        reasons.extend(_out_of_scale(measurement, metric.scale))
    n = measurement.n
    if n is None:
        reasons.append(Reason(V.TOO_FEW_SAMPLES, "sample count unknown"))
    elif n < min_samples:
        reasons.append(Reason(V.TOO_FEW_SAMPLES, f"n {n} < min_samples {min_samples}"))
    interval = measurement.interval
    if decision is Decision.BOUND and (
        interval is None or not (math.isfinite(interval.low) and math.isfinite(interval.high))
    ):
        reasons.append(Reason(V.INTERVAL_UNAVAILABLE, "no interval, and the gate compares a bound"))
    elif decision is Decision.BOUND and threshold is not None and threshold.value is not None:
        assert interval is not None
        past = limit_reached(interval, threshold.op)
        if past:
            reasons.append(Reason(V.INTERVAL_UNRELIABLE, past))
    if measurement.missing:
        total = (n or 0) + measurement.missing
        fraction = measurement.missing / total
        if fraction > max_missing:
            reasons.append(
                Reason(
                    V.TOO_MANY_MISSING,
                    f"{measurement.missing} of {total} samples errored or were skipped "
                    f"({fraction:.1%} > max_missing_fraction {max_missing:g})",
                )
            )
    reasons.extend(measurement.findings)
    return Validity(not reasons, tuple(reasons))


def _out_of_scale(measurement: Measurement, scale: Scale) -> tuple[Reason, ...]:
    """A value, or a sample's score, outside [0, 1], which every declared scale is: a number
    the metric cannot take is unsound, never clipped into a pass."""
    value = measurement.value
    assert value is not None
    if not 0 <= value <= 1:
        said = f"value {value:g} is outside [0, 1], the range of its scale ({scale.value})"
        return (Reason(V.VALUE_OUT_OF_RANGE, said),)
    outside = sum(1 for s in measurement.samples or () if not 0 <= s.score <= 1)
    if outside:
        said = f"{plural(outside, 'sample score')} outside [0, 1], the range of its scale ({scale.value})"
        return (Reason(V.VALUE_OUT_OF_RANGE, said),)
    return ()


def _check(measurement: Measurement) -> Validity:
    """A check's result is sound when every attempt ran, whatever it found."""
    unrun = tuple(
        Reason(V.CHECK_COULD_NOT_RUN, f"could not run: {a.found}")
        for a in measurement.attempts
        if a.outcome is AttemptOutcome.COULD_NOT_RUN
    )
    return Validity(not unrun, unrun)
