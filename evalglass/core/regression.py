"""How far a run sits from its approved baseline: the interval of (current − baseline).

Pure. Paired when both sides carry per-sample scores matched by sample id (Newcombe's hybrid
score interval for 0/1 scores, paired t otherwise), or when the pairs come already summed
(`PairedSums`, from rows paired where they are stored): the same interval from their sufficient
statistics. Unpaired from the two standard errors, or Newcombe's unpaired interval for two
proportions. docs/statistics.md gives the formulas.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import attrs

from evalglass.core.needed import BaselineFixed, BaselineHeld, Family
from evalglass.core.saved_baseline import mover, saved_limits, saved_stderr
from evalglass.evidence import aggregate, rates, stats
from evalglass.evidence.model import (
    Interval,
    Measurement,
    Method,
    PairedSums,
    Proportion,
    Sample,
    ValueStderr,
)
from evalglass.records.model import BaselineRecord, Op, ThresholdRecord


@attrs.frozen
class Difference:
    """current − baseline, with its interval; `paired` counts matched samples when paired."""

    value: float
    interval: Interval | None
    paired: int | None = None


def difference(current: Measurement, baseline: BaselineRecord, level: float) -> Difference | None:
    """The difference and its interval at `level`; None when either side has no value."""
    if current.value is None or baseline.value is None:
        return None
    point = current.value - baseline.value
    summed = current.paired
    if summed is not None and summed.n >= 2:
        return Difference(point, paired_from_sums(summed, level), paired=summed.n)
    pairs = _pairs(current.samples, baseline.sample_scores)
    if len(pairs) >= 2:
        return Difference(point, _paired(pairs, level), paired=len(pairs))
    return Difference(point, _unpaired(current, baseline, level))


def _by_id(samples: Sequence[Sample]) -> dict[str, float]:
    """One score per sample id: epochs of a sample are averaged, as Inspect's default reducer."""
    sums: dict[str, list[float]] = {}
    for s in samples:
        sums.setdefault(s.id, []).append(s.score)
    return {k: stats.mean(v) for k, v in sums.items()}


def _pairs(
    current: Sequence[Sample] | None, baseline: Mapping[str, float] | None
) -> list[tuple[float, float]]:
    if not current or not baseline:
        return []
    now = _by_id(current)
    return [(now[k], baseline[k]) for k in sorted(now.keys() & baseline.keys())]


def _paired(pairs: list[tuple[float, float]], level: float) -> Interval | None:
    if all(a in (0, 1) and b in (0, 1) for a, b in pairs):
        return newcombe_paired(pairs, level)
    diffs = [a - b for a, b in pairs]
    n = len(diffs)
    mean = stats.mean(diffs)
    if min(diffs) == max(diffs):
        # No spread in the differences: for scores in [0, 1] a range-based bound (range 2).
        if all(0 <= a <= 1 and 0 <= b <= 1 for a, b in pairs):
            half = 2 * math.sqrt(math.log(2 / (1 - level)) / (2 * n))
            return Interval(mean - half, mean + half, level, Method.HOEFFDING)
        return None
    sd = math.sqrt(stats.squares(d - mean for d in diffs) / (n - 1))
    se = sd / math.sqrt(n)
    half = stats.t_quantile(0.5 + level / 2, n - 1) * se
    return Interval(
        mean - half, mean + half, level, Method.PAIRED_T, basis=ValueStderr(mean, se, df=n - 1)
    )


def paired_from_sums(sums: PairedSums, level: float) -> Interval | None:
    """The interval `_paired` gives for the pairs these are the sums of (two or more): exact
    sums on the grid of 2^-64, so the mean and variance are rounded once, at the end."""
    if sums.binary:
        return _newcombe_counts(
            sums.both, sums.current_only, sums.baseline_only, sums.neither, level
        )
    n, scale = sums.n, aggregate.SCALE
    # Integer division of Python ints is correctly rounded: the mean, rounded once.
    mean = sums.total / (n * scale)
    # n·Σd² − (Σd)² = Σ_{i<j} (d_i − d_j)², exactly: zero iff every difference is the same.
    spread = n * sums.squares - sums.total**2
    if spread == 0:
        if sums.bounded:
            half = 2 * math.sqrt(math.log(2 / (1 - level)) / (2 * n))
            return Interval(mean - half, mean + half, level, Method.HOEFFDING)
        return None
    # Σ(d − mean)² / (n − 1), from the exact sums: (nΣd² − (Σd)²) / (n(n − 1)).
    sd = math.sqrt(spread / (n * (n - 1) * scale * scale))
    se = sd / math.sqrt(n)
    half = stats.t_quantile(0.5 + level / 2, n - 1) * se
    return Interval(
        mean - half, mean + half, level, Method.PAIRED_T, basis=ValueStderr(mean, se, df=n - 1)
    )


def newcombe_paired(pairs: list[tuple[float, float]], level: float) -> Interval:
    """Newcombe (1998) method 10: hybrid score interval for a difference of paired proportions."""
    n = len(pairs)
    a = sum(1 for x, y in pairs if x == 1 and y == 1)
    b = sum(1 for x, y in pairs if x == 1 and y == 0)
    c = sum(1 for x, y in pairs if x == 0 and y == 1)
    return _newcombe_counts(a, b, c, n - a - b - c, level)


def _newcombe_counts(a: int, b: int, c: int, d: int, level: float) -> Interval:
    """Newcombe's paired interval from the pairs scoring (1, 1), (1, 0), (0, 1) and (0, 0)."""
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    denom = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(denom) if denom else 0.0
    return _hybrid(p1, n, p2, n, phi, level)


def newcombe_unpaired(s1: float, n1: int, s2: float, n2: int, level: float) -> Interval:
    """Newcombe (1998) method 10 for two independent proportions (s successes of n)."""
    return _hybrid(s1 / n1, n1, s2 / n2, n2, 0.0, level)


def _hybrid(p1: float, n1: int, p2: float, n2: int, phi: float, level: float) -> Interval:
    first, second = stats.wilson(p1 * n1, n1, level), stats.wilson(p2 * n2, n2, level)
    l1, u1, l2, u2 = first.low, first.high, second.low, second.high
    theta = p1 - p2
    delta = math.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    eps = math.sqrt(max((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
    return Interval(theta - delta, theta + eps, level, Method.NEWCOMBE)


def _hybrid_with_stderr(
    current: Interval, now: float, then: float, se_then: float, level: float
) -> Interval | None:
    """Newcombe's hybrid interval of now − then with the current side's own proportion limits
    and the baseline's normal limits then ± z·se: the MOVER construction (Zou & Donner 2008,
    Stat Med 27:1693), of which Newcombe's method 10 is the case of two Wilson intervals."""
    own = stats.at_level(current, level)
    if own is None or not math.isfinite(se_then) or se_then < 0:
        return None
    half_then = stats.z_quantile(level) * se_then
    theta = now - then
    delta = math.hypot(now - own.low, half_then)
    eps = math.hypot(own.high - now, half_then)
    return Interval(theta - delta, theta + eps, level, Method.NEWCOMBE)


def _unpaired(current: Measurement, baseline: BaselineRecord, level: float) -> Interval | None:
    assert current.value is not None and baseline.value is not None
    interval = current.interval
    basis = interval.basis if interval is not None else None
    se_then = baseline.stderr
    if se_then is None and baseline.saved is not None:
        se_then = saved_stderr(baseline.saved)
    if isinstance(basis, Proportion) and _share(baseline, se_then):
        # A proportion against a baseline of the same metric: both sides are proportions, and
        # Newcombe's interval holds when the baseline also records its binomial stderr (a
        # normal interval's current side is 0 wide at no successes).
        assert baseline.n is not None and baseline.value is not None
        return newcombe_unpaired(
            basis.successes, basis.n, baseline.value * baseline.n, baseline.n, level
        )
    if isinstance(basis, Proportion) and se_then is not None and interval is not None:
        # A baseline that varies more than a share (a cluster-robust or bootstrapped stderr):
        # its own normal limits, with the current side's proportion limits, never a Wald
        # stderr that is 0 wide at no successes.
        return _hybrid_with_stderr(interval, current.value, baseline.value, se_then, level)
    limits = _saved_limits(baseline, se_then, level)
    if limits is not None and interval is not None:
        return mover(interval, current.value, limits, baseline.value, level)
    se_now = stats.standard_error(interval) if interval is not None else None
    if se_then is None and baseline.sample_scores:
        scores = list(baseline.sample_scores.values())
        if len(scores) >= 2:
            mean = stats.mean(scores)
            se_then = math.sqrt(
                stats.squares(s - mean for s in scores) / (len(scores) - 1) / len(scores)
            )
    if se_now is None or se_then is None:
        return None
    point = current.value - baseline.value
    se = math.sqrt(se_now * se_now + se_then * se_then)
    if se == 0:
        return None
    return stats.normal(point, se, level)


def _saved_limits(baseline: BaselineRecord, se: float | None, level: float) -> Interval | None:
    """A saved baseline's own limits, where it has no standard error and no per-sample scores."""
    if se is not None or baseline.saved is None or baseline.sample_scores:
        return None
    return saved_limits(baseline.saved, level)


def _share(baseline: BaselineRecord, stderr: float | None) -> bool:
    """Whether the baseline can be read as a share of its n: a value in [0, 1] with n, and no
    standard error beyond its binomial one (a larger one, cluster-robust or bootstrapped, says
    the baseline varies more than a share of independent samples: it is kept)."""
    value, n = baseline.value, baseline.n
    if not n or value is None or not 0 <= value <= 1:
        return False
    if stderr is None or n < 2:
        return True
    binomial = math.sqrt(value * (1 - value) / (n - 1))
    return stderr <= binomial * (1 + rates.STDERR_TOLERANCE) + 1e-12


def change_family(
    current: Measurement,
    baseline: BaselineRecord,
    level: float,
    current_at: Family,
) -> tuple[Family, BaselineFixed] | None:
    """The interval of (current − baseline) as `difference` makes it, at another current value
    and n, with what of the baseline it holds fixed; None when `difference` would give no
    interval.

    The baseline is held as recorded. Paired: the pairs' spread of differences (paired t) or
    the runs' correlation φ (Newcombe) is held, and the baseline side has the same n. Unpaired:
    the current side is `current_at` (its own interval at that value and n)."""
    if current.value is None or baseline.value is None:
        return None
    observed = current.value
    # n is the current run's; the pairs are a share of it, kept at other sizes.
    measured = current.n or 0
    summed = current.paired
    if summed is not None and summed.n >= 2:
        if summed.binary:
            counts = (summed.both, summed.current_only, summed.baseline_only, summed.neither)
            return _newcombe_family(*counts, observed, level, measured)
        n, scale = summed.n, aggregate.SCALE
        spread = n * summed.squares - summed.total**2
        sd = math.sqrt(spread / (n * (n - 1) * scale * scale)) if spread else 0.0
        mean = summed.total / (n * scale)
        return _paired_t_family(mean, sd, summed.bounded, observed, level, (n, measured))
    pairs = _pairs(current.samples, baseline.sample_scores)
    if len(pairs) >= 2:
        if all(a in (0, 1) and b in (0, 1) for a, b in pairs):
            a = sum(1 for x, y in pairs if x == 1 and y == 1)
            b = sum(1 for x, y in pairs if x == 1 and y == 0)
            c = sum(1 for x, y in pairs if x == 0 and y == 1)
            return _newcombe_family(a, b, c, len(pairs) - a - b - c, observed, level, measured)
        diffs = [x - y for x, y in pairs]
        mean = stats.mean(diffs)
        sd = 0.0
        if min(diffs) != max(diffs):
            sd = math.sqrt(stats.squares(d - mean for d in diffs) / (len(diffs) - 1))
        bounded = all(0 <= x <= 1 and 0 <= y <= 1 for x, y in pairs)
        return _paired_t_family(mean, sd, bounded, observed, level, (len(pairs), measured))
    return _unpaired_family(current, baseline, level, current_at)


def _pairs_at(paired: int, measured: int, n: int) -> int:
    """The pairs a run of n would have, at the share of its samples this run paired."""
    return paired if n == measured or measured < 1 else max(1, round(paired * n / measured))


def _newcombe_family(
    a: int, b: int, c: int, d: int, observed: float, level: float, measured: int
) -> tuple[Family, BaselineFixed]:
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    denom = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(denom) if denom else 0.0

    def at(value: float, size: int) -> Interval | None:
        share = p1 + (value - observed)
        size = _pairs_at(n, measured, size)
        if not 0 <= share <= 1:
            return None
        return _hybrid(share, size, p2, size, phi, level)

    return at, BaselineFixed(BaselineHeld.PAIRED_SHARE, (p2, phi))


def _paired_t_family(
    mean: float, sd: float, bounded: bool, observed: float, level: float, sizes: tuple[int, int]
) -> tuple[Family, BaselineFixed] | None:
    if sd == 0 and not bounded:
        return None
    paired, measured = sizes

    def at(value: float, size: int) -> Interval | None:
        n = _pairs_at(paired, measured, size)
        if n < 2:
            return None
        centre = mean + (value - observed)
        if sd == 0:
            half = 2 * math.sqrt(math.log(2 / (1 - level)) / (2 * n))
            return Interval(centre - half, centre + half, level, Method.HOEFFDING)
        se = sd / math.sqrt(n)
        half = stats.t_quantile(0.5 + level / 2, n - 1) * se
        return Interval(
            centre - half, centre + half, level, Method.PAIRED_T,
            basis=ValueStderr(centre, se, df=n - 1),
        )  # fmt: skip

    if sd == 0:
        return at, BaselineFixed(BaselineHeld.PAIRED_NO_SPREAD)
    return at, BaselineFixed(BaselineHeld.PAIRED_SD, (sd,))


def _unpaired_family(
    current: Measurement,
    baseline: BaselineRecord,
    level: float,
    current_at: Family,
) -> tuple[Family, BaselineFixed] | None:
    assert baseline.value is not None
    interval = current.interval
    if interval is None:
        return None
    then = baseline.value
    se_then = baseline.stderr
    if se_then is None and baseline.saved is not None:
        se_then = saved_stderr(baseline.saved)
    if isinstance(interval.basis, Proportion) and _share(baseline, se_then):
        assert baseline.n is not None
        s2, n2 = then * baseline.n, baseline.n

        def proportions(value: float, n: int) -> Interval | None:
            if n < 1 or not 0 <= value <= 1:
                return None
            return newcombe_unpaired(value * n, n, s2, n2, level)

        return proportions, BaselineFixed(BaselineHeld.UNPAIRED_SHARE, (then, n2))
    limits = _saved_limits(baseline, se_then, level)
    if limits is not None:
        saved = limits

        def own_limits(value: float, n: int) -> Interval | None:
            now = current_at(value, n)
            return None if now is None else mover(now, value, saved, then, level)

        return own_limits, BaselineFixed(BaselineHeld.UNPAIRED_SAVED, (saved.low, saved.high))
    if se_then is None and baseline.sample_scores:
        scores = list(baseline.sample_scores.values())
        if len(scores) >= 2:
            mean = stats.mean(scores)
            se_then = math.sqrt(
                stats.squares(s - mean for s in scores) / (len(scores) - 1) / len(scores)
            )
    if se_then is None:
        return None
    fixed = se_then
    held = BaselineFixed(BaselineHeld.UNPAIRED_STDERR, (then, fixed))
    if isinstance(interval.basis, Proportion):

        def hybrid(value: float, n: int) -> Interval | None:
            now = current_at(value, n)
            return None if now is None else _hybrid_with_stderr(now, value, then, fixed, level)

        return hybrid, held

    def normal(value: float, n: int) -> Interval | None:
        now = current_at(value, n)
        se_now = None if now is None else stats.standard_error(now)
        if se_now is None:
            return None
        se = math.sqrt(se_now * se_now + fixed * fixed)
        return None if se == 0 else stats.normal(value - then, se, level)

    return normal, held


def allowed_drop(threshold: ThresholdRecord, baseline_value: float) -> float:
    """The stricter of the absolute and the relative allowance, when both are given."""
    allowances = []
    if threshold.max_drop is not None:
        allowances.append(threshold.max_drop)
    if threshold.max_relative_drop is not None:
        allowances.append(threshold.max_relative_drop * abs(baseline_value))
    return min(allowances)


def drop_bar(threshold: ThresholdRecord, baseline_value: float) -> tuple[float, Op]:
    """The bar (current − baseline) must clear, and how: above −allowed when higher is better,
    below +allowed when lower is, mirrored."""
    allowed = allowed_drop(threshold, baseline_value)
    return (-allowed, Op.GT) if threshold.op.higher_is_better else (allowed, Op.LT)
