"""Whether calibration evidence meets a host's bar: a statistic's lower interval bound at least
a given value. Pure, and numpy-free, so authority can call it; it grants nothing by itself.
"""

from __future__ import annotations

import attrs

from evalglass.calibration_evidence import CalibrationEvidence
from evalglass.numbers import fmt


@attrs.frozen
class AgreementCheck:
    """The answer and its evidence: `lower` is the statistic's lower interval bound (None when
    the evidence has no such statistic or no interval for it)."""

    met: bool
    statistic: str
    bar: float
    lower: float | None
    message: str


def check_agreement(
    evidence: CalibrationEvidence, statistic: str, lower_bound: float
) -> AgreementCheck:
    """Met only when the evidence has `statistic` with an interval whose lower bound is at least
    `lower_bound`: a point value alone, or no interval, never meets a bar."""
    estimate = evidence.statistics.get(statistic)
    bar = fmt(lower_bound)
    if estimate is None:
        has = ", ".join(sorted(evidence.statistics)) or "none"
        return AgreementCheck(
            False,
            statistic,
            lower_bound,
            None,
            f"the calibration evidence has no {statistic} (it has: {has})",
        )
    level = f"{evidence.level * 100:g}% bootstrap"
    if estimate.low is None or estimate.value is None:
        value = "undefined" if estimate.value is None else fmt(estimate.value)
        return AgreementCheck(
            False,
            statistic,
            lower_bound,
            None,
            f"{statistic} has no {level} interval (value {value}, n {estimate.n}): it cannot "
            f"show agreement of at least {bar}",
        )
    met = estimate.low >= lower_bound
    low = fmt(estimate.low, lower_bound)
    return AgreementCheck(
        met,
        statistic,
        lower_bound,
        estimate.low,
        f"{statistic} lower bound {low} {'>=' if met else '<'} {bar} "
        f"(value {fmt(estimate.value)}, n {estimate.n}, {level})",
    )
