"""How many samples to plan for: the n at which a metric's gate, as its records define it (bar,
direction, level, decision rule, min_samples, and for a regression gate the baseline and the
allowed drop), passes with at least a given probability when the true value is the one expected.
Pure; reads records only. Formulas and their assumptions: docs/statistics.md, "Planning sample
size".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from statistics import NormalDist

import attrs

from evalglass.core.authority import Authority, Outcome
from evalglass.core.decision import GateInput, Result, result_only
from evalglass.core.saved_baseline import saved_stderr
from evalglass.core.validity import assess
from evalglass.errors import PlanError
from evalglass.evidence import stats
from evalglass.evidence.model import Measurement, Run
from evalglass.metric_ids import check_name
from evalglass.records.model import (
    BaselineRecord,
    Decision,
    HostRecords,
    MetricRecord,
    Op,
    ThresholdRecord,
)

# Sample sizes are planned up to this; past it, no n reaches the power.
MAX_N = 10**6
# Up to this n, every n is tried (a binomial's power is not monotone in n); above, bisection.
EXHAUSTIVE = 2048
_CAN_GATE = Authority(Outcome.CAN_GATE)
_RUN = Run(source="plan")


@attrs.frozen(kw_only=True)
class Plan:
    """The least n at which the gate passes with probability at least `power` when the true
    value is `expect`; None with `reason` when no n up to MAX_N does. `method` says how the
    power was computed, `achieved` what it is at n."""

    metric: str
    expect: float
    power: float
    n: int | None
    method: str
    reason: str | None = None
    achieved: float | None = None


def plan(
    metric_id: str,
    records: HostRecords,
    expect: float,
    power: float = 0.8,
    sd: float | None = None,
) -> Plan:
    """The sample size to plan for. Without `sd` the scores are 0/1 and the power is the exact
    binomial probability that the gate itself (`decide`) passes; with `sd`, scores of that
    standard deviation and the normal approximation of docs/statistics.md."""
    metric, threshold, baseline = _gate(metric_id, records)
    if not 0 < power < 1:
        raise PlanError(metric_id, f"--power {power:g} must lie strictly between 0 and 1")
    if not math.isfinite(expect):
        raise PlanError(metric_id, f"--expect {expect} is not a number")
    if sd is None:
        if not 0 <= expect <= 1:
            raise PlanError(
                metric_id,
                f"--expect {expect:g} is not a rate in [0, 1]: give --sd for scores that are "
                "not 0/1",
            )
        method = _exact_method(metric, threshold)
        chance = _exact(metric, threshold, baseline, expect)
    else:
        if not (math.isfinite(sd) and sd > 0):
            raise PlanError(metric_id, f"--sd {sd:g} must be a positive number")
        spread = _baseline_spread(baseline) if threshold.regression else None
        if threshold.regression and spread is None:
            return Plan(
                metric=metric_id, expect=expect, power=power, n=None,
                method="normal approximation",
                reason="the baseline has no standard error: a regression gate cannot compare "
                "scores that are not 0/1 with it",
            )  # fmt: skip
        method = _approx_method(metric, sd, spread)
        chance = _approximate(metric, threshold, baseline, expect, sd, spread)
    if not _clears(threshold, baseline, expect):
        return Plan(
            metric=metric_id, expect=expect, power=power, n=None, method=method,
            reason="the expected value does not clear the bar: no sample size passes with "
            "that power",
        )  # fmt: skip
    n = _least_n(chance, max(metric.min_samples, 1 if sd is None else 2), power)
    if n is None:
        return Plan(
            metric=metric_id, expect=expect, power=power, n=None, method=method,
            reason=f"no sample size up to {MAX_N:,} reaches that power",
        )  # fmt: skip
    return Plan(
        metric=metric_id, expect=expect, power=power, n=n, method=method, achieved=chance(n)
    )


def _gate(
    metric_id: str, records: HostRecords
) -> tuple[MetricRecord, ThresholdRecord, BaselineRecord | None]:
    """The records that define the gate; PlanError when there is no gate to plan for."""
    metric = records.metrics.get(metric_id)
    if metric is None or check_name(metric_id) is not None:
        what = "is a host check: its definition is its bar" if metric else "has no record"
        raise PlanError(metric_id, f"metric {what} in metrics.yaml: there is no gate to plan")
    threshold = records.thresholds.get(metric_id)
    if threshold is None:
        raise PlanError(metric_id, "no threshold in thresholds.yaml: there is no gate to plan")
    baseline = records.baselines.get(metric_id)
    if threshold.regression and (baseline is None or baseline.value is None):
        raise PlanError(
            metric_id, "the threshold allows a drop from a baseline, and baselines.yaml gives "
            "no baseline value to plan against",
        )  # fmt: skip
    return metric, threshold, baseline


def _allowed(threshold: ThresholdRecord, baseline: BaselineRecord) -> tuple[Op, float]:
    """The regression bar on current − baseline, as decision.py states it."""
    assert baseline.value is not None
    allowances = []
    if threshold.max_drop is not None:
        allowances.append(threshold.max_drop)
    if threshold.max_relative_drop is not None:
        allowances.append(threshold.max_relative_drop * abs(baseline.value))
    allowed = min(allowances)
    return (Op.GT, -allowed) if threshold.op.higher_is_better else (Op.LT, allowed)


def _clears(threshold: ThresholdRecord, baseline: BaselineRecord | None, expect: float) -> bool:
    """Whether the expected value itself clears every bar: else no n passes with any power
    beyond the chance the bound errs."""
    if threshold.value is not None and not threshold.op.holds(expect, threshold.value):
        return False
    if threshold.regression:
        assert baseline is not None and baseline.value is not None
        op, limit = _allowed(threshold, baseline)
        return op.holds(expect - baseline.value, limit)
    return True


def _exact(
    metric: MetricRecord,
    threshold: ThresholdRecord,
    baseline: BaselineRecord | None,
    expect: float,
) -> Callable[[int], float]:
    """Power at n: the binomial probability of the successes k at which `decide` passes."""
    level = metric.interval_level
    higher = threshold.op.higher_is_better

    def passes(k: int, n: int) -> bool:
        m = Measurement(
            id="plan", run=_RUN, value=k / n, n=n, interval=stats.proportion(k, n, level)
        )
        gate = result_only(GateInput(measurement=m, validity=assess(m, metric), authority=_CAN_GATE, threshold=threshold, metric=metric, baseline=baseline))  # fmt: skip
        return gate.result in (Result.PASS, Result.WARN)

    def chance(n: int) -> float:
        # The gate passes on the k at or past one edge of the grid (its bound moves with k).
        best, worst = (n, 0) if higher else (0, n)
        if not passes(best, n):
            return 0.0
        if passes(worst, n):
            return 1.0
        while abs(best - worst) > 1:
            mid = (best + worst) // 2
            if passes(mid, n):
                best = mid
            else:
                worst = mid
        if higher:
            return stats.binomial_at_least(best, n, expect)
        return 1.0 - stats.binomial_at_least(best + 1, n, expect)

    return chance


def _exact_method(metric: MetricRecord, threshold: ThresholdRecord) -> str:
    rule = "the point" if metric.decision is Decision.POINT else "Wilson's bound"
    against = "; Newcombe's interval against the baseline" if threshold.regression else ""
    return (
        f"exact binomial: 0/1 scores, the gate's own decision on {rule} at "
        f"{metric.interval_level * 100:g}%{against}"
    )


def _baseline_spread(baseline: BaselineRecord | None) -> float | None:
    """The baseline's standard error, as the regression gate would take it."""
    if baseline is None:
        return None
    if baseline.stderr is not None:
        return baseline.stderr
    if baseline.saved is not None:
        return saved_stderr(baseline.saved)
    scores = list(baseline.sample_scores.values()) if baseline.sample_scores else []
    if len(scores) >= 2:
        mean = stats.mean(scores)
        return math.sqrt(stats.squares(s - mean for s in scores) / (len(scores) - 1) / len(scores))
    return None


def _approximate(
    metric: MetricRecord,
    threshold: ThresholdRecord,
    baseline: BaselineRecord | None,
    expect: float,
    sd: float,
    spread: float | None,
) -> Callable[[int], float]:
    """Power at n by the normal approximation: the mean ~ N(expect, sd²/n), the sample sd taken
    as `sd`, the baseline as recorded; each bar is `mean ≥ c` (or ≤), so together they hold
    with the least of their powers."""
    level = metric.interval_level
    point = metric.decision is Decision.POINT
    unit = NormalDist()

    def chance(n: int) -> float:
        powers = []
        se = sd / math.sqrt(n)
        if threshold.value is not None:
            q = 0.0 if point else stats.t_quantile(0.5 + level / 2, n - 1)
            margin = expect - threshold.value
            if not threshold.op.higher_is_better:
                margin = -margin
            powers.append(unit.cdf(margin / se - q))
        if threshold.regression:
            assert baseline is not None and baseline.value is not None and spread is not None
            op, limit = _allowed(threshold, baseline)
            both = math.sqrt(se * se + spread * spread)
            margin = expect - baseline.value - limit
            if op is Op.LT:
                margin = -margin
            # The baseline is a recorded number: only the current mean varies, and the
            # bound sits q·√(se² + se_baseline²) below it.
            q = 0.0 if point else stats.z_quantile(level)
            powers.append(unit.cdf((margin - q * both) / se))
        return min(powers)

    return chance


def _approx_method(metric: MetricRecord, sd: float, spread: float | None) -> str:
    rule = "the point" if metric.decision is Decision.POINT else "Student-t's bound"
    text = (
        f"normal approximation: scores with sd {sd:g} (the sample sd taken as it), "
        f"{rule} at {metric.interval_level * 100:g}%"
    )
    if spread is not None:
        text += f"; the baseline's standard error {spread:.4g}, normal on the change"
    return text


def _least_n(chance: Callable[[int], float], least: int, power: float) -> int | None:
    """The least n from `least` at which `chance` reaches `power`: every n is tried up to
    EXHAUSTIVE (a binomial's power is a sawtooth: an n below the first doubling that reaches it
    may reach it too); above, bisection between the doublings that straddle it."""
    n = least
    while chance(n) < power:
        if n >= MAX_N:
            return None
        n = min(MAX_N, n * 2)
    found = next((m for m in range(least, min(n, EXHAUSTIVE) + 1) if chance(m) >= power), None)
    if found is not None:
        return found
    low, high = max(least, EXHAUSTIVE, n // 2), n
    while high - low > 1:
        mid = (low + high) // 2
        if chance(mid) >= power:
            high = mid
        else:
            low = mid
    return high
