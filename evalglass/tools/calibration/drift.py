"""Drift: a new sample's agreement against the evidence recorded earlier, statistic by
statistic, with an interval for the difference. A report for the host, who decides whether to
set `calibration: drifted`; nothing here edits a record. Pure and numpy-free.

The recorded evidence keeps intervals, not items, so the difference's interval combines the two
intervals by MOVER (Zou & Donner 2008), which keeps their asymmetry and treats the two samples as
independent.
"""

from __future__ import annotations

import enum
import math

import attrs

from evalglass.calibration_evidence import CalibrationEvidence, Estimate
from evalglass.errors import CalibrationError
from evalglass.tools.calibration.names import Statistic


class DriftFinding(enum.Enum):
    """What the interval of new − recorded shows: only an interval wholly on one side of zero is
    evidence either way."""

    SUSPECTED = "suspected drift"  # the whole interval of new − recorded is below zero
    IMPROVED = "improved"  # the whole interval is above zero
    NONE = "no evidence of drift"
    UNKNOWN = "cannot say"  # a value or an interval is missing on either side


@attrs.frozen(kw_only=True)
class StatisticChange:
    """One statistic compared: both estimates, new − recorded with its interval (None where
    either side lacks one), and what that shows."""

    statistic: str
    recorded: Estimate
    current: Estimate
    difference: float | None
    low: float | None
    high: float | None
    finding: DriftFinding


@attrs.frozen(kw_only=True)
class Drift:
    """A new sample against the recorded evidence: a change for each statistic the two share, and
    notes on what else differs (judge, judge model, label set)."""

    against: str
    recorded_date: str
    recorded_model: str | None
    changes: tuple[StatisticChange, ...]
    notes: tuple[str, ...]

    @property
    def suspected(self) -> tuple[str, ...]:
        """The statistics whose agreement fell: the whole interval of the difference is below
        zero."""
        return tuple(c.statistic for c in self.changes if c.finding is DriftFinding.SUSPECTED)


def compare(current: CalibrationEvidence, recorded: CalibrationEvidence, against: str) -> Drift:
    """Every judge statistic the two share (the humans' own agreement is not the judge's and is
    left out). Raises CalibrationError when the two are on different scales or levels."""
    if current.scale is not recorded.scale:
        raise CalibrationError(
            against,
            f"recorded on the {recorded.scale.value} scale, this sample on "
            f"{current.scale.value}: their statistics are not comparable",
        )
    if current.level != recorded.level:
        raise CalibrationError(
            against, f"recorded at level {recorded.level:g}, this sample at {current.level:g}"
        )
    notes = []
    if recorded.judge != current.judge:
        notes.append(f"recorded for judge {recorded.judge}, this sample is judge {current.judge}")
    if recorded.judge_model != current.judge_model:
        notes.append(
            f"recorded with judge model {recorded.judge_model or 'unknown'}, this "
            f"sample with {current.judge_model or 'unknown'}"
        )
    if recorded.categories != current.categories and current.scale.categorical:
        notes.append("the two samples use different label sets")
    changes = tuple(
        _change(name, recorded.statistics[name], estimate)
        for name, estimate in current.statistics.items()
        if name in recorded.statistics and not _is_ceiling(name)
    )
    return Drift(
        against=against,
        recorded_date=recorded.date,
        recorded_model=recorded.judge_model,
        changes=changes,
        notes=tuple(notes),
    )


def _is_ceiling(name: str) -> bool:
    try:
        return Statistic(name).ceiling
    except ValueError:
        return name.endswith("_humans")


def _change(name: str, recorded: Estimate, current: Estimate) -> StatisticChange:
    before, after = recorded, current
    if (
        before.value is None
        or before.low is None
        or before.high is None
        or after.value is None
        or after.low is None
        or after.high is None
    ):
        difference = (
            None if before.value is None or after.value is None else after.value - before.value
        )
        return StatisticChange(
            statistic=name,
            recorded=recorded,
            current=current,
            difference=difference,
            low=None,
            high=None,
            finding=DriftFinding.UNKNOWN,
        )
    difference = after.value - before.value
    # MOVER: each side's distance to its own bound, combined in quadrature, on the side it
    # pushes the difference.
    low = difference - math.hypot(after.value - after.low, before.high - before.value)
    high = difference + math.hypot(after.high - after.value, before.value - before.low)
    if high < 0:
        finding = DriftFinding.SUSPECTED
    elif low > 0:
        finding = DriftFinding.IMPROVED
    else:
        finding = DriftFinding.NONE
    return StatisticChange(
        statistic=name,
        recorded=recorded,
        current=current,
        difference=difference,
        low=low,
        high=high,
        finding=finding,
    )


def to_document(drift: Drift) -> dict[str, object]:
    """The comparison as JSON, for the report of a run with --against."""
    return {
        "against": drift.against,
        "recorded_date": drift.recorded_date,
        "recorded_model": drift.recorded_model,
        "notes": list(drift.notes),
        "suspected": list(drift.suspected),
        "changes": {
            c.statistic: {
                "recorded": c.recorded.value,
                "current": c.current.value,
                "difference": c.difference,
                "interval": None if c.low is None or c.high is None else [c.low, c.high],
                "finding": c.finding.value,
            }
            for c in drift.changes
        },
    }
