"""Compare a can_gate metric with its approved threshold. The only place a gate result is made.

Metrics that are not can_gate are never compared: their result is `not_enforced`, whatever the
number says. A threshold may hold an absolute bar (`value`), a largest allowed regression from
the approved baseline (`max_drop`, `max_relative_drop`), or both; every one given must hold.
A host check has no threshold and no interval: its attempts are its result (`decide_check`).
Each kind of gate is its own function of a small typed input (`GateInput`, `CheckInput`).
For either, a pass that came only after earlier attempts missed is a warning, and a fail when it
came later than the success policy's `max_attempts` allows (the rule and its words: `attempts`).
"""

from __future__ import annotations

import enum
import sys
from typing import TYPE_CHECKING

import attrs

from evalglass.core.attempts import Tries, after_failed_attempts, retried
from evalglass.core.authority import Authority, Outcome
from evalglass.core.needed import Bar, Needed, Search, held_fixed
from evalglass.core.needed import what_it_takes as search_needed
from evalglass.core.scale import kept
from evalglass.core.scope import CheckScope
from evalglass.core.validity import Validity, assess
from evalglass.evidence import stats
from evalglass.evidence.model import (
    AttemptOutcome,
    EarlierAttempt,
    Interval,
    MeanSd,
    Measurement,
    Proportion,
)
from evalglass.reasons import GateCode as G
from evalglass.reasons import Reason
from evalglass.reasons import ValidityCode as V
from evalglass.records.model import BaselineRecord, Decision, MetricRecord, Op, ThresholdRecord

if TYPE_CHECKING:
    from evalglass.core.regression import Difference


class Result(enum.StrEnum):
    """A gate's result. Only a can_gate metric is ever pass, warn, fail or unsound; every other
    metric is not_enforced, whatever its number."""

    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"
    UNSOUND = "unsound"
    NOT_ENFORCED = "not_enforced"


class Ground(enum.Enum):
    """What a gate result rests on, which its evidence line shows (render/evidence_line.py):
    the bars compared; or, uncompared, what was measured, the run's scope, or a check's
    attempts."""

    # Every bar of the threshold compared: `GateResult.compared`.
    COMPARED = "compared"
    # Not compared, with what was measured: authority did not let it gate.
    MEASURED = "measured"
    # Not compared: the number is unsound for the threshold's rule (validity's reasons).
    CANNOT_COMPARE = "cannot_compare"
    # Not compared: a regression bar without an interval for the change.
    NO_CHANGE_INTERVAL = "no_change_interval"
    # Outside this run's scope (another tier's check, or an eval metric a fast run leaves out).
    NOT_RUN = "not_run"
    # A host check: its attempts are its evidence.
    ATTEMPTS = "attempts"


class Side(enum.Enum):
    """Which number a bar compared: the point itself, or the end of its interval that makes the
    bar hardest to clear."""

    POINT = "point"
    LOWER = "lower"
    UPPER = "upper"


@attrs.frozen(kw_only=True)
class Compared:
    """One bar a gate compared, as numbers: `compared` (the value, or the change from the
    baseline when `drop` is set; at `side`) against `limit` by `op`, and whether it held. A
    drop bar also carries its allowance (the stricter of max_drop and max_relative_drop) and the
    baseline value the change is measured from."""

    holds: bool
    side: Side
    compared: float
    op: Op
    limit: float
    drop: bool = False
    allowed: float | None = None
    baseline: float | None = None


@attrs.frozen
class GateResult:
    """The gate result with its reason codes and what it rests on, as numbers: the bars compared
    (`compared`, and `warning` for a warn_value bar the run missed), or why nothing was. Every
    format's evidence line is rendered from it and the card (render/evidence_line.py). Made only
    by `decide`."""

    result: Result
    reasons: tuple[Reason, ...] = ()
    ground: Ground = Ground.COMPARED
    compared: tuple[Compared, ...] = ()
    warning: Compared | None = None
    # current − baseline, for a regression gate: what a reader needs to re-check it.
    change: Difference | None = None
    # What value, or what n, would pass: for a gate its bound decided (None for any other).
    needed: Needed | None = None


@attrs.frozen(kw_only=True)
class GateInput:
    """What an eval metric's gate is decided from: its measurement (None when no output measured
    it), validity and authority, and the records it is held to. `max_attempts` is the success
    policy's: the latest attempt a gate may pass on after an earlier one missed (None: any, with
    the warning)."""

    measurement: Measurement | None
    validity: Validity
    authority: Authority
    threshold: ThresholdRecord | None
    metric: MetricRecord | None
    baseline: BaselineRecord | None = None
    max_attempts: int | None = None


@attrs.frozen(kw_only=True)
class CheckInput:
    """What a host check's gate is decided from: its attempts (in the measurement), validity,
    authority, whether this run started it, and the success policy's `max_attempts`."""

    measurement: Measurement | None
    validity: Validity
    authority: Authority
    scope: CheckScope
    max_attempts: int | None = None


def decide(gate: GateInput) -> GateResult:
    """The gate result for an eval metric, with what value or n would pass a gate its bound
    decided (`needed`); compares only when authority is can_gate."""
    result = result_only(gate)
    metric = gate.metric
    if (
        result.ground is not Ground.COMPARED
        or metric is None
        or metric.decision is not Decision.BOUND
        # Past the policy's bound on attempts no value or n would pass it.
        or any(r.code is G.TOO_MANY_ATTEMPTS for r in result.reasons)
    ):
        return result
    assert gate.measurement is not None and gate.threshold is not None  # compared implies both
    needed = _needed(gate.measurement, gate.threshold, metric, gate.baseline)
    return attrs.evolve(result, needed=needed)


def left_out(why: str) -> GateResult:
    """An eval metric this run's scope leaves out and no output measured (a fast-tier run): not
    run, as a check of another tier is, instead of unsound."""
    return GateResult(Result.NOT_ENFORCED, (Reason(G.NOT_RUN, why),), Ground.NOT_RUN)


def result_only(gate: GateInput) -> GateResult:
    """The gate result alone, without `needed`: for callers that decide many hypothetical runs
    and read only the result, and for judging earlier attempts by the gate's own rule."""
    measurement, validity, threshold, metric = (
        gate.measurement, gate.validity, gate.threshold, gate.metric,
    )  # fmt: skip
    if gate.authority.outcome is not Outcome.CAN_GATE or threshold is None or metric is None:
        return GateResult(Result.NOT_ENFORCED, ground=Ground.MEASURED)
    if not validity.valid:
        return GateResult(Result.UNSOUND, validity.reasons, Ground.CANNOT_COMPARE)
    assert measurement is not None and measurement.value is not None  # valid implies both
    baseline = gate.baseline
    checks: list[Compared] = []
    if threshold.value is not None:
        checks.append(_absolute(measurement, threshold.op, threshold.value, metric.decision))
    change = None
    if threshold.regression:
        # The comparison with a baseline loads only for a gate that has one to compare with.
        from evalglass.core.regression import difference

        change = difference(measurement, baseline, metric.interval_level) if baseline else None
        regression = _regression(change, threshold, baseline, metric.decision)
        if regression is None:
            reason = Reason(
                V.INTERVAL_UNAVAILABLE,
                "no interval for the change from the baseline (it needs n and a standard error, "
                "or per-sample scores, on both sides)",
            )
            return GateResult(Result.UNSOUND, (reason,), Ground.NO_CHANGE_INTERVAL, change=change)
        checks.append(regression)
    compared = tuple(checks)
    if not all(c.holds for c in checks):
        return GateResult(Result.FAIL, compared=compared, change=change)
    tries = after_failed_attempts(
        measurement, lambda a: _earlier_passes(a, measurement, threshold, metric, baseline)
    )
    if tries is not None:
        # Rerunning an eval until it passes is not a pass: flaky, as a check passing on retry;
        # past the policy's bound it fails.
        reason = retried(tries, gate.max_attempts)
        result = Result.FAIL if reason.code is G.TOO_MANY_ATTEMPTS else Result.WARN
        return GateResult(result, (reason,), compared=compared, change=change)
    if threshold.warn_value is not None:
        warn = _absolute(measurement, threshold.op, threshold.warn_value, metric.decision)
        if not warn.holds:
            return GateResult(Result.WARN, compared=compared, warning=warn, change=change)
    return GateResult(Result.PASS, compared=compared, change=change)


def _earlier_passes(
    attempt: EarlierAttempt,
    newest: Measurement,
    threshold: ThresholdRecord,
    metric: MetricRecord,
    baseline: BaselineRecord | None,
) -> bool:
    """Whether an earlier attempt passes by the gate's own rule, judged as the newest is: its
    interval at the metric's level and kept to its scale, its validity, every bar."""
    level = metric.interval_level
    interval = attempt.interval
    if interval is not None:
        interval = stats.at_level(interval, level)
    interval = kept(interval, attempt.value, attempt.n, metric.scale, level)
    earlier = Measurement(
        id=newest.id, run=newest.run, value=attempt.value, n=attempt.n, interval=interval,
        missing=attempt.missing, findings=attempt.findings,
    )  # fmt: skip
    gate = result_only(
        GateInput(
            measurement=earlier, validity=assess(earlier, metric, threshold),
            authority=Authority(Outcome.CAN_GATE), threshold=threshold, metric=metric,
            baseline=baseline,
        )
    )  # fmt: skip
    return gate.result in (Result.PASS, Result.WARN)


def clears(interval: Interval, op: Op, limit: float) -> bool:
    """The bound rule: whether the conservative end of `interval` clears `limit` by `op`. Every
    bound-decided gate, and every figure of what it would take, is this comparison."""
    compared, _ = _conservative(interval, op)
    return op.holds(compared, limit) and not _undecided(interval, compared, limit)


# Relative rounding an interval's end can carry: a few operations, each half an ulp.
_ROUNDING = 16 * sys.float_info.epsilon


def _undecided(interval: Interval, compared: float, limit: float) -> bool:
    """Whether the end and the limit differ by no more than the rounding of the numbers the end
    was computed from: floating point cannot say which side it is on, and that goes against
    passing. Equal numbers are compared as they are (an end at the edge of the range is exact)."""
    scale = max(abs(interval.low), abs(interval.high), abs(limit))
    return compared != limit and abs(compared - limit) <= _ROUNDING * scale


def _needed(
    m: Measurement,
    threshold: ThresholdRecord,
    metric: MetricRecord,
    baseline: BaselineRecord | None,
) -> Needed | None:
    """What value at this n, and what n at this value, would pass every bar of the gate; None
    when its interval cannot be remade at another value or n."""
    interval, n, value = m.interval, m.n, m.value
    if interval is None or n is None or value is None:
        return None
    level = metric.interval_level

    def current(v: float, size: int) -> Interval | None:
        return kept(stats.moved(interval, v, size, n), v, size, metric.scale, level)

    fixed = held_fixed(interval, n)
    if fixed is None:
        return None
    baseline_held = None
    bars = []
    point_clears = True
    if threshold.value is not None:
        bars.append(Bar(current, threshold.op, threshold.value, value))
        point_clears = threshold.op.holds(value, threshold.value)
    if threshold.regression:
        if baseline is None or baseline.value is None:
            return None
        from evalglass.core.regression import change_family, drop_bar

        family = change_family(m, baseline, level, current)
        if family is None:
            return None
        limit, op = drop_bar(threshold, baseline.value)
        bars.append(Bar(family[0], op, limit, value - baseline.value))
        point_clears = point_clears and op.holds(value - baseline.value, limit)
        baseline_held = family[1]
    basis = interval.basis
    search = Search(
        value=value,
        n=n,
        higher_is_better=threshold.op.higher_is_better,
        grid=isinstance(basis, Proportion),
        bounded=metric.scale is not None or (isinstance(basis, MeanSd) and basis.bounded),
        min_n=metric.min_samples,
        point_clears=point_clears,
        fixed=fixed,
        baseline_held=baseline_held,
    )
    return search_needed(bars, clears, search)


def decide_check(gate: CheckInput) -> GateResult:
    """A check passes iff its process exited as expected in time (or its file holds); a gating
    check that failed was run once more, and passing only then is a warning (a fail under a
    policy of `max_attempts: 1`)."""
    measurement, validity, authority, check = (
        gate.measurement, gate.validity, gate.authority, gate.scope,
    )  # fmt: skip
    attempts = () if measurement is None else measurement.attempts
    if not check.started:
        reasons = (Reason(G.NOT_RUN, check.not_started),) if check.not_started else ()
        return GateResult(Result.NOT_ENFORCED, reasons, Ground.NOT_RUN)
    if authority.outcome is not Outcome.CAN_GATE:
        return GateResult(Result.NOT_ENFORCED, ground=Ground.ATTEMPTS)
    if not attempts:
        # Started and no result is no pass: fail closed.
        reason = Reason(V.VALUE_MISSING, "the check was in this run's scope and has no result")
        return GateResult(Result.UNSOUND, (reason,), Ground.ATTEMPTS)
    if not validity.valid:
        return GateResult(Result.UNSOUND, validity.reasons, Ground.ATTEMPTS)
    if attempts[-1].outcome is not AttemptOutcome.PASSED:
        return GateResult(Result.FAIL, ground=Ground.ATTEMPTS)
    if len(attempts) > 1:
        # Only an attempt that did not pass is ever retried: every one before the last failed.
        reason = retried(Tries(len(attempts), len(attempts) - 1), gate.max_attempts)
        result = Result.FAIL if reason.code is G.TOO_MANY_ATTEMPTS else Result.WARN
        return GateResult(result, (reason,), Ground.ATTEMPTS)
    return GateResult(Result.PASS, ground=Ground.ATTEMPTS)


def _absolute(m: Measurement, op: Op, limit: float, decision: Decision) -> Compared:
    assert m.value is not None
    if decision is Decision.POINT:
        return Compared(
            holds=op.holds(m.value, limit), side=Side.POINT, compared=m.value, op=op, limit=limit
        )
    # Validity has already made a bound rule without an interval unsound: never a point rule.
    assert m.interval is not None
    compared, side = _conservative(m.interval, op)
    return Compared(
        holds=clears(m.interval, op, limit), side=side, compared=compared, op=op, limit=limit
    )


def _conservative(interval: Interval, op: Op) -> tuple[float, Side]:
    """The end of the interval that makes the gate hardest to pass."""
    if op.higher_is_better:
        return interval.low, Side.LOWER
    return interval.high, Side.UPPER


def _regression(
    change: Difference | None,
    threshold: ThresholdRecord,
    baseline: BaselineRecord | None,
    decision: Decision,
) -> Compared | None:
    """Non-inferiority: the run must show, at the interval level, it is no worse than allowed."""
    if change is None or baseline is None or baseline.value is None:
        return None
    from evalglass.core.regression import allowed_drop, drop_bar

    allowed = allowed_drop(threshold, baseline.value)
    # Higher is better: (current − baseline) must stay above −allowed; lower is better, mirrored.
    limit, op = drop_bar(threshold, baseline.value)
    if decision is Decision.POINT:
        compared, side = change.value, Side.POINT
        holds = op.holds(compared, limit)
    elif change.interval is None:
        return None
    else:
        compared, side = _conservative(change.interval, op)
        holds = clears(change.interval, op, limit)
    return Compared(
        holds=holds, side=side, compared=compared, op=op, limit=limit, drop=True,
        allowed=allowed, baseline=baseline.value,
    )  # fmt: skip
