"""Times `evalglass calibrate`'s computation at its target size, numpy against pure Python, and
measures interval coverage by simulation.

A plain script: prints numbers beside the target, asserts nothing. Run it with the repository on
PYTHONPATH and numpy installed. Target: 10,000 items x 3 human raters, 2,000 resamples, every
statistic of the scale, in under 5 s. Pure Python is timed on a few resamples and scaled
linearly (a resample's cost does not depend on how many came before). `--quick` skips the
coverage simulation.
"""

from __future__ import annotations

import collections
import itertools
import math
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from evalglass.calibration_evidence import LabelScale
from evalglass.tools.calibration import bootstrap, tables
from evalglass.tools.calibration.calibrate import calibrate
from evalglass.tools.calibration.names import Statistic
from evalglass.tools.calibration.ratings import Coverage, Ratings

ITEMS, RATERS, RESAMPLES = 10_000, 3, 2_000
TARGET_SECONDS = 5.0
PURE_RESAMPLES = 20
Row = tuple[float, tuple[float | None, ...]]


def generate(scale: LabelScale, items: int = ITEMS, seed: int = 1) -> Ratings:
    """A judge and three humans who each agree with a hidden truth most of the time; each human
    skips 10% of items (never all three)."""
    rng = random.Random(seed)
    k = {LabelScale.BINARY: 2, LabelScale.ORDINAL: 5}.get(scale, 0)
    judge, humans = [], []
    for _ in range(items):
        truth = rng.randrange(k) if k else rng.gauss(3, 1)

        def rate(right: float, truth: float = truth) -> float:
            if not k:
                return round(truth + rng.gauss(0, 0.6), 2)
            return float(truth if rng.random() < right else rng.randrange(k))

        judge.append(rate(0.8))
        row = [None if rng.random() < 0.1 else rate(0.85) for _ in range(RATERS)]
        humans.append(tuple(row) if any(v is not None for v in row) else (rate(0.85), None, None))
    return Ratings(
        scale=scale,
        categories=tuple(str(c) for c in range(k)),
        raters=tuple(f"r{r}" for r in range(RATERS)),
        items=tuple(f"q{i}" for i in range(items)),
        judge=tuple(judge),
        humans=tuple(humans),
        coverage=Coverage(
            matched=items, judged_only=0, labelled_only=0, judge_blank=0, human_blank=0
        ),
    )


def median_seconds(run: Callable[[], object], repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# ---- the same computation in pure Python, for the comparison only -----------------------------


def _kappa(conf: Sequence[Sequence[float]], weight: Callable[[int, int], float]) -> float:
    k = len(conf)
    total = sum(map(sum, conf))
    rows = [sum(r) for r in conf]
    cols = [sum(conf[i][j] for i in range(k)) for j in range(k)]
    observed = sum(weight(i, j) * conf[i][j] for i in range(k) for j in range(k))
    expected = sum(weight(i, j) * rows[i] * cols[j] for i in range(k) for j in range(k)) / total
    return 1 - observed / expected if expected else math.nan


def _alpha_categorical(o: Sequence[Sequence[float]], ordinal: bool) -> float:
    k = len(o)
    marg = [sum(r) for r in o]
    n = sum(marg)
    position = list(itertools.accumulate(marg))
    position = [p - m / 2 for p, m in zip(position, marg, strict=True)]

    def delta(c: int, d: int) -> float:
        return (position[c] - position[d]) ** 2 if ordinal else float(c != d)

    observed = sum(o[c][d] * delta(c, d) for c in range(k) for d in range(k))
    expected = sum(marg[c] * marg[d] * delta(c, d) for c in range(k) for d in range(k))
    return 1 - (n - 1) * observed / expected if expected else math.nan


def _categorical_pure(
    rows: Sequence[Row], k: int, ordinal: bool
) -> Callable[[dict[int, int]], dict[Statistic, float]]:
    """Distinct rows get their tables once; a resample is a count per distinct row."""

    def consensus(humans: Sequence[float | None]) -> int:
        given = sorted(int(h) for h in humans if h is not None)
        if ordinal:
            low, high = given[(len(given) - 1) // 2], given[len(given) // 2]
            return low if low == high else -1
        votes = collections.Counter(given).most_common()
        return votes[0][0] if len(votes) == 1 or votes[0][1] > votes[1][1] else -1

    def coincidences(values: Sequence[int]) -> list[tuple[int, int, float]]:
        m = len(values)
        if m < 2:
            return []
        return [
            (a, b, 1 / (m - 1))
            for i, a in enumerate(values)
            for j, b in enumerate(values)
            if i != j
        ]

    shares = []
    for judge, humans in rows:
        c = consensus(humans)
        present = [int(h) for h in humans if h is not None]
        pairs = [
            (int(humans[r]), int(humans[s]))
            if humans[r] is not None and humans[s] is not None
            else None
            for r, s in itertools.combinations(range(len(humans)), 2)
        ]
        shares.append(
            (int(judge), c, coincidences([int(judge), *present]), coincidences(present), pairs)
        )
    pairs_count = math.comb(RATERS, 2)
    weight: Callable[[int, int], float] = (
        (lambda i, j: (i - j) ** 2) if ordinal else (lambda i, j: float(i != j))
    )

    def stats(counts: dict[int, int]) -> dict[Statistic, float]:
        conf = [[0.0] * k for _ in range(k)]
        every = [[0.0] * k for _ in range(k)]
        human = [[0.0] * k for _ in range(k)]
        pair_conf = [[[0.0] * k for _ in range(k)] for _ in range(pairs_count)]
        for row, w in counts.items():
            judge, c, all_o, human_o, pairs = shares[row]
            if c >= 0:
                conf[judge][c] += w
            for a, b, v in all_o:
                every[a][b] += w * v
            for a, b, v in human_o:
                human[a][b] += w * v
            for p, pair in enumerate(pairs):
                if pair is not None:
                    pair_conf[p][pair[0]][pair[1]] += w
        pa = sum(conf[i][i] for i in range(k)) / sum(map(sum, conf))
        pi = [
            (sum(conf[i]) + sum(r[i] for r in conf)) / (2 * sum(map(sum, conf))) for i in range(k)
        ]
        pe = sum(p * (1 - p) for p in pi) / (k - 1)
        pairwise = statistics.fmean(_kappa(t, weight) for t in pair_conf)
        alphas = {
            Statistic.ALPHA: _alpha_categorical(every, ordinal),
            Statistic.ALPHA_HUMANS: _alpha_categorical(human, ordinal),
        }
        if ordinal:
            return {
                Statistic.WEIGHTED_KAPPA: _kappa(conf, weight),
                **alphas,
                Statistic.WEIGHTED_KAPPA_HUMANS: pairwise,
            }
        return {
            Statistic.KAPPA: _kappa(conf, weight),
            Statistic.AC1: (pa - pe) / (1 - pe),
            Statistic.PERCENT_AGREEMENT: pa,
            **alphas,
            Statistic.KAPPA_HUMANS: pairwise,
        }

    return stats


def _interval_pure(rows: Sequence[Row]) -> Callable[[dict[int, int]], dict[Statistic, float]]:
    def alpha(units: list[tuple[list[float], int]]) -> float:
        m = s1 = s2 = within = 0.0
        for values, w in units:
            if len(values) < 2:
                continue
            mean = sum(values) / len(values)
            m += w * len(values)
            s1 += w * sum(values)
            s2 += w * sum(v * v for v in values)
            within += w * 2 * len(values) * sum((v - mean) ** 2 for v in values) / (len(values) - 1)
        return 1 - (m - 1) * within / (2 * m * s2 - 2 * s1 * s1)

    def icc(pairs: list[tuple[float, float, int]]) -> float:
        n = sum(w for _, _, w in pairs)
        cols = [sum(x * w for x, _, w in pairs), sum(y * w for _, y, w in pairs)]
        total = cols[0] + cols[1]
        squares = sum((x * x + y * y) * w for x, y, w in pairs)
        row_squares = sum((x + y) ** 2 * w for x, y, w in pairs)
        corr = total * total / (2 * n)
        ss_rows, ss_cols = row_squares / 2 - corr, (cols[0] ** 2 + cols[1] ** 2) / n - corr
        ss_error = squares - corr - ss_rows - ss_cols
        msr, msc, mse = ss_rows / (n - 1), ss_cols, ss_error / (n - 1)
        return (msr - mse) / (msr + mse + 2 * (msc - mse) / n)

    def ranks(values: list[tuple[float, int]]) -> dict[float, float]:
        out, seen = {}, 0
        for value, group in itertools.groupby(sorted(values), key=lambda v: v[0]):
            w = sum(c for _, c in group)
            out[value] = seen + (w + 1) / 2
            seen += w
        return out

    consensus = [
        sum(h for h in hs if h is not None) / sum(h is not None for h in hs) for _, hs in rows
    ]

    def stats(counts: dict[int, int]) -> dict[Statistic, float]:
        drawn = list(counts.items())
        everyone = [([rows[i][0], *(h for h in rows[i][1] if h is not None)], w) for i, w in drawn]
        humans = [([h for h in rows[i][1] if h is not None], w) for i, w in drawn]
        rx = ranks([(rows[i][0], w) for i, w in drawn])
        ry = ranks([(consensus[i], w) for i, w in drawn])
        n = sum(w for _, w in drawn)
        mean = (n + 1) / 2
        cov = sum(w * (rx[rows[i][0]] - mean) * (ry[consensus[i]] - mean) for i, w in drawn)
        vx = sum(w * (rx[rows[i][0]] - mean) ** 2 for i, w in drawn)
        vy = sum(w * (ry[consensus[i]] - mean) ** 2 for i, w in drawn)
        pairwise = []
        for r, s in itertools.combinations(range(RATERS), 2):
            both = [
                (rows[i][1][r], rows[i][1][s], w)
                for i, w in drawn
                if rows[i][1][r] is not None and rows[i][1][s] is not None
            ]
            pairwise.append(icc(both))  # type: ignore[arg-type]
        return {
            Statistic.ALPHA: alpha(everyone),
            Statistic.SPEARMAN: cov / math.sqrt(vx * vy),
            Statistic.ICC: icc([(rows[i][0], consensus[i], w) for i, w in drawn]),
            Statistic.ALPHA_HUMANS: alpha(humans),
            Statistic.ICC_HUMANS: statistics.fmean(pairwise),
        }

    return stats


def pure_python(
    ratings: Ratings, resamples: int, seed: int = 1
) -> tuple[dict[Statistic, float], float]:
    """The point estimates and the seconds per resample of a pure-Python bootstrap."""
    rows: list[Row] = list(zip(ratings.judge, ratings.humans, strict=True))
    distinct: dict[Row, int] = {}
    ids = [distinct.setdefault(row, len(distinct)) for row in rows]
    unique = list(distinct)
    if ratings.scale is LabelScale.INTERVAL:
        stats = _interval_pure(unique)
    else:
        stats = _categorical_pure(
            unique, len(ratings.categories), ratings.scale is LabelScale.ORDINAL
        )
    values = stats(collections.Counter(ids))
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(resamples):
        stats(collections.Counter(rng.choices(ids, k=len(ids))))
    return values, (time.perf_counter() - start) / resamples


def speed() -> None:
    print(
        f"{ITEMS:,} items x {RATERS} human raters, {RESAMPLES:,} resamples; target "
        f"< {TARGET_SECONDS:g} s"
    )
    for scale in (LabelScale.BINARY, LabelScale.ORDINAL, LabelScale.INTERVAL):
        ratings = generate(scale)
        numpy_s = median_seconds(
            lambda ratings=ratings: bootstrap.run(tables.plan(ratings), resamples=RESAMPLES)
        )
        ours = bootstrap.run(tables.plan(ratings), resamples=0).statistics
        values, per_resample = pure_python(ratings, PURE_RESAMPLES)
        agree = values.keys() == ours.keys() and all(
            math.isclose(values[s], b.value or math.nan, rel_tol=1e-9, abs_tol=1e-12)
            for s, b in ours.items()
        )
        pure_s = per_resample * RESAMPLES
        print(
            f"  {scale.value:<9} numpy {numpy_s:6.2f} s   pure Python {pure_s:7.1f} s "
            f"(from {PURE_RESAMPLES} resamples; same point values: {agree})   "
            f"x{pure_s / numpy_s:.0f}"
        )
    with tempfile.TemporaryDirectory() as folder:
        judged, labelled = Path(folder, "j.jsonl"), Path(folder, "l.csv")
        ratings = generate(LabelScale.BINARY)
        judged.write_text(
            "".join(
                f'{{"sample_id": "{i}", "label": {int(j)}}}\n'
                for i, j in zip(ratings.items, ratings.judge, strict=True)
            )
        )
        labelled.write_text(
            "sample_id,rater,label\n"
            + "".join(
                f"{i},r{r},{int(v)}\n"
                for i, hs in zip(ratings.items, ratings.humans, strict=True)
                for r, v in enumerate(hs)
                if v is not None
            )
        )
        whole = median_seconds(
            lambda: calibrate(judged, labelled, judge="j", scale=LabelScale.BINARY)
        )
        print(
            f"  calibrate() from files, binary: {whole:.2f} s (reading, matching, "
            f"every statistic, {RESAMPLES:,} resamples)"
        )


def coverage(samples: int = 1000, n: int = 200, resamples: int = 1000) -> None:
    """Judge vs one human. Binary: a known 2x2 distribution, so kappa and AC1 are known exactly.
    Interval: judge = t + e, human = t + e', t ~ N(0, 1), e ~ N(0, 0.5²), so alpha and ICC(2,1)
    are 0.8 and Spearman's rho (6/π)·asin(0.4)."""
    print(f"coverage of the 95% interval, {samples} samples of n = {n}, {resamples} resamples")
    cells = np.array([0.25, 0.07, 0.05, 0.63])
    table = cells.reshape(2, 2)
    pe_k = (table.sum(axis=1) * table.sum(axis=0)).sum()
    share = (table.sum(axis=1) + table.sum(axis=0)) / 2
    pe_ac1 = (share * (1 - share)).sum()
    truth = {
        Statistic.KAPPA: (np.trace(table) - pe_k) / (1 - pe_k),
        Statistic.AC1: (np.trace(table) - pe_ac1) / (1 - pe_ac1),
        Statistic.ALPHA: 0.8,
        Statistic.ICC: 0.8,
        Statistic.SPEARMAN: 6 / math.pi * math.asin(0.4),
    }
    rng = np.random.default_rng(7)
    hits: collections.Counter[Statistic] = collections.Counter()
    # Alpha is known here for the interval model only.
    measured = {
        LabelScale.BINARY: (Statistic.KAPPA, Statistic.AC1),
        LabelScale.INTERVAL: (Statistic.ALPHA, Statistic.ICC, Statistic.SPEARMAN),
    }
    cover = Coverage(matched=n, judged_only=0, labelled_only=0, judge_blank=0, human_blank=0)
    for sample in range(samples):
        drawn = rng.choice(4, size=n, p=cells)
        t = rng.normal(size=n)
        for scale, judge, human in (
            (LabelScale.BINARY, drawn // 2, drawn % 2),
            (LabelScale.INTERVAL, t + rng.normal(0, 0.5, n), t + rng.normal(0, 0.5, n)),
        ):
            r = Ratings(
                scale=scale,
                categories=("0", "1") if scale.categorical else (),
                raters=("h",),
                items=tuple(map(str, range(n))),
                judge=tuple(map(float, judge)),
                humans=tuple((float(h),) for h in human),
                coverage=cover,
            )
            for s, b in bootstrap.run(
                tables.plan(r), resamples=resamples, seed=sample
            ).statistics.items():
                if s in measured[scale] and b.low is not None and b.high is not None:
                    hits[s] += b.low <= truth[s] <= b.high
    for s, value in truth.items():
        print(
            f"  {s.value:<10} true {value:.4f}   covered {hits[s] / samples:.1%} "
            f"(target 95%, tolerance 92.5-97.5%)"
        )


if __name__ == "__main__":
    speed()
    if "--quick" not in sys.argv:
        coverage()
