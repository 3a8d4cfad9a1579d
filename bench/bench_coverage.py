"""Coverage and one-sided error at the bar of every interval a gate compares, by setting.

    python bench/bench_coverage.py            # the table docs/statistics.md carries
    python bench/bench_coverage.py --quick    # a smaller, faster run

Each row is a setting whose truth is known. The intervals are made as the readers make them
(`stats.interval_for_scores`, `stats.clustered`, the aggregate of rows for sums) and the gate is
decided by the engine's own rule (`decision.clears` on the interval at the metric's level); the
rows a value and n decide are run end to end through `evalglass.score` on generic JSON files,
every k of n weighted by its binomial probability (exact). "error" is how often a metric whose
true value sits exactly at the bar passes (target 3.5% at n >= 30 or 30 clusters, 5% below;
nominal 2.5%); "cover" is the two-sided coverage of the 95% interval; "n cost" is the sample
size a gate needs, relative to Student-t's, to pass at a fixed true value (the squared ratio of
the mean distances from the value to the conservative bound); "fires" is how often the
`interval_unreliable` reason blocks the gate (`interval_checks.limit_reached`) and "left" how
often a metric at its bar passes with the reason silent. Seeded: the same table each run.
"""

from __future__ import annotations

import math
import random
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from evalglass.core.decision import clears
from evalglass.core.interval_checks import limit_reached
from evalglass.evidence import stats
from evalglass.evidence.model import Interval, Method
from evalglass.records.model import Op

LEVEL = 0.95
SEED = 37


def target(n: int) -> float:
    """The target for the one-sided error at the bar."""
    return 0.035 if n >= 30 else 0.05


def row(
    setting: str,
    method: str,
    n: int,
    cover: float | None,
    error: float,
    cost: str,
    flagged: tuple[float, float] | None = None,
) -> str:
    """One printed row with the target and PASS/MISS beside it; `n` is the sample size, or the
    number of clusters for a clustered setting. `flagged`: how often `interval_unreliable`
    fired, and how often the gate passed at the bar with it silent."""
    goal = target(n)
    mark = "PASS" if error <= goal else "MISS"
    shown = "     " if cover is None else f"{cover:5.3f}"
    fired = "           " if flagged is None else f"{flagged[0]:5.3f} {flagged[1]:5.3f}"
    return (
        f"{setting:<36} {n:>4} {method:<32} {shown} {error:6.3f} {goal:5.3f} {mark} {fired} {cost}"
    ).rstrip()


def simulate(
    setting: str,
    n: int,
    truth: float,
    op: Op,
    draw: Callable[[random.Random], Sequence[float]],
    make: Callable[[Sequence[float]], Interval | None],
    runs: int,
) -> tuple[str, float, float, float, tuple[float, float]]:
    """The method's name, coverage, error at the bar (bar = truth), the mean distance from the
    mean to the conservative bound, and how often `interval_unreliable` fired and the gate
    passed with it silent, over `runs` seeded draws."""
    rng = random.Random(f"{SEED}/{setting}/{n}")
    covered = passed = fired = silent = 0
    distance = 0.0
    names: set[str] = set()
    for _ in range(runs):
        scores = draw(rng)
        interval = make(scores)
        if interval is None:
            continue
        names.add(interval.method.value)
        covered += interval.low <= truth <= interval.high
        passes = clears(interval, op, truth)
        passed += passes
        flagged = bool(limit_reached(interval, op))
        fired += flagged
        silent += passes and not flagged
        centre = stats.mean(scores)
        distance += centre - interval.low if op.higher_is_better else interval.high - centre
    flags = (fired / runs, silent / runs)
    return "+".join(sorted(names)), covered / runs, passed / runs, distance / runs, flags


def t_interval(scores: Sequence[float]) -> Interval | None:
    """Student-t, what the readers gave every continuous score before the range was used."""
    n = len(scores)
    centre = stats.mean(scores)
    sd = math.sqrt(stats.squares(s - centre for s in scores) / (n - 1))
    if sd == 0:
        return None
    half = stats.t_quantile(0.5 + LEVEL / 2, n - 1) * sd / math.sqrt(n)
    return Interval(centre - half, centre + half, LEVEL, Method.STUDENT_T)


def partial_credit(rng: random.Random, n: int) -> list[float]:
    """{0, .5, 1} with P = .05, .1, .85: mean 0.9."""
    return [rng.choices((0.0, 0.5, 1.0), (0.05, 0.1, 0.85))[0] for _ in range(n)]


def beta_near_one(rng: random.Random, n: int) -> list[float]:
    """Beta(9.9, 0.1): mean 0.99, most scores all but 1, a few far below."""
    return [rng.betavariate(9.9, 0.1) for _ in range(n)]


def lognormal(rng: random.Random, n: int) -> list[float]:
    """Latency, lognormal with σ = 1: mean e^0.5."""
    return [rng.lognormvariate(0.0, 1.0) for _ in range(n)]


def normal_scores(rng: random.Random, n: int) -> list[float]:
    """Normal(100, 15): symmetric scores of unknown range, where t is right."""
    return [rng.gauss(100.0, 15.0) for _ in range(n)]


def symmetric(rng: random.Random, n: int) -> list[float]:
    """Beta(2, 2): symmetric about 0.5, where t is already right."""
    return [rng.betavariate(2.0, 2.0) for _ in range(n)]


def clustered_draw(rng: random.Random, clusters: int, size: int = 5) -> list[tuple[float, str]]:
    """0/1 scores in clusters of `size` with intra-cluster correlation 0.3 and mean 0.9 (each
    cluster's rate drawn from Beta(0.9κ, 0.1κ), κ = 1/0.3 − 1)."""
    kappa = 1 / 0.3 - 1
    out = []
    for c in range(clusters):
        rate = rng.betavariate(0.9 * kappa, 0.1 * kappa)
        out.extend((float(rng.random() < rate), f"c{c}") for _ in range(size))
    return out


def exact_proportions(ns: Sequence[int], ps: Sequence[float]) -> list[str]:
    """0/1 samples: the error at the bar summed exactly over k (binomial weights)."""
    lines = []
    for n in ns:
        for p in ps:
            error = cover = 0.0
            names = set()
            for k in range(n + 1):
                weight = math.comb(n, k) * p**k * (1 - p) ** (n - k)
                interval = stats.interval_for_scores([1.0] * k + [0.0] * (n - k), LEVEL)
                assert interval is not None
                names.add(interval.method.value)
                error += weight * clears(interval, Op.GE, p)
                cover += weight * (interval.low <= p <= interval.high)
            method = "+".join(sorted(names))
            lines.append(row(f"0/1 samples, p {p:g}", method, n, cover, error, ""))
    return lines


def through_score(n: int, p: float, stderr: Callable[[float], float], op: str) -> float:
    """A value and n (and a reported stderr) read from generic JSON and gated `op p` by
    `evalglass.score`: the probability, exactly over k, that a true rate p passes."""
    import evalglass

    error = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp) / "records"
        records.mkdir()
        (records / "metrics.yaml").write_text(
            "metrics:\n  m:\n    status: gating\n    dataset: d\n    min_samples: 1\n"
        )
        (records / "thresholds.yaml").write_text(
            f"thresholds:\n  m:\n    op: '{op}'\n    value: {p!r}\n    approval: approved\n"
            "    approved_by: '@bench'\n    approved_on: 2026-01-01\n"
            "    approved_for:\n      dataset_version: '1'\n"
        )
        (records / "datasets.yaml").write_text(
            "datasets:\n  d:\n    status: validated\n    version: '1'\n"
        )
        (records / "policies.yaml").write_text("policies:\n  d:\n    policy: permitted\n")
        out = Path(tmp) / "run.json"
        for k in range(n + 1):
            value = k / n
            out.write_text(
                f'{{"model": "m", "metrics": {{"m": {{"value": {value!r}, "n": {n}, '
                f'"stderr": {stderr(value)!r}}}}}}}'
            )
            card = evalglass.score([out], records)
            if card.metrics[0].gate.result.value in ("pass", "warn"):
                error += math.comb(n, k) * p**k * (1 - p) ** (n - k)
    return error


def regressions(runs: int) -> list[str]:
    """Regression gates with a true drop exactly at the allowance (max_drop 0.05): how often
    the change's lower bound clears −0.05."""
    from evalglass.core.regression import difference
    from evalglass.evidence.model import Measurement, Run, Sample
    from evalglass.records.model import BaselineRecord

    drop, run = 0.05, Run(source="bench")

    def measured(scores: Sequence[float]) -> Measurement:
        samples = tuple(Sample(id=str(i), score=s) for i, s in enumerate(scores))
        return Measurement(
            id="m", run=run, value=stats.mean(scores), n=len(scores),
            interval=stats.interval_for_scores(scores, LEVEL), samples=samples,
        )  # fmt: skip

    def gate(
        name: str, n: int, draw: Callable[[random.Random], tuple[Measurement, BaselineRecord]]
    ) -> str:
        rng = random.Random(f"{SEED}/{name}/{n}")
        passed, names = 0, set()
        for _ in range(runs):
            current, baseline = draw(rng)
            change = difference(current, baseline, LEVEL)
            if change is None or change.interval is None:
                continue
            names.add(change.interval.method.value)
            passed += clears(change.interval, Op.GE, -drop)
        return row(name, "+".join(sorted(names)), n, None, passed / runs, "")

    def unpaired(
        rng: random.Random, n: int = 200, stderr: bool = False
    ) -> tuple[Measurement, BaselineRecord]:
        then = sum(rng.random() < 0.9 for _ in range(1000)) / 1000
        now = [float(rng.random() < 0.9 - drop) for _ in range(n)]
        se = math.sqrt(then * (1 - then) / 999) if stderr else None
        return measured(now), BaselineRecord(dataset_version="1", value=then, n=1000, stderr=se)

    def paired(
        rng: random.Random, n: int = 200, binary: bool = True
    ) -> tuple[Measurement, BaselineRecord]:
        before, after = [], []
        for _ in range(n):
            if binary:
                # Baseline 0.85; a sample that passed keeps passing with 0.888, one that failed
                # passes with 0.3: correlated runs whose true change is exactly −0.05.
                b = float(rng.random() < 0.85)
                a = float(rng.random() < (0.755 / 0.85 if b else 0.3))
            else:
                b = rng.betavariate(6.0, 4.0)
                a = b - drop + rng.gauss(0.0, 0.1)
            before.append(b)
            after.append(a)
        base = BaselineRecord(
            dataset_version="1", value=stats.mean(before), n=n,
            sample_scores={str(i): s for i, s in enumerate(before)},
        )  # fmt: skip
        return measured(after), base

    return [
        gate("regression, Newcombe unpaired", 200, unpaired),
        gate("regression, baseline with stderr", 200, lambda r: unpaired(r, stderr=True)),
        gate("regression, Newcombe paired", 200, paired),
        gate("regression, paired t", 200, lambda r: paired(r, binary=False)),
    ]


def lm_eval_stderr(n: int) -> Callable[[float], float]:
    """The standard error lm-eval writes for a mean of n 0/1 scores: √(p(1 − p)/(n − 1))."""
    return lambda v: math.sqrt(max(v * (1 - v), 0.0) / (n - 1))


SETTINGS: list[tuple[str, float, Op, Callable[[random.Random, int], list[float]]]] = [
    ("partial credit {0,.5,1}, mean .9", 0.9, Op.GE, partial_credit),
    ("Beta(9.9, .1), mean .99", 0.99, Op.GE, beta_near_one),
    ("lognormal σ 1, <=", math.exp(0.5), Op.LE, lognormal),
    ("Beta(2, 2), mean .5 (power)", 0.5, Op.GE, symmetric),
    ("normal(100, 15), range unknown, <=", 100.0, Op.LE, normal_scores),
]


def continuous(runs: int) -> list[str]:
    """Each continuous setting at n 10, 30, 100: the readers' interval, and Student-t beside it."""
    lines = []
    for name, truth, op, gen in SETTINGS:
        for n in (10, 30, 100):

            def draw(
                rng: random.Random, n: int = n, gen: Callable[..., list[float]] = gen
            ) -> list[float]:
                return gen(rng, n)

            method, cover, error, far, flags = simulate(
                name, n, truth, op, draw, stats.interval_for_scores, runs
            )
            _, t_cover, t_error, t_far, _ = simulate(name, n, truth, op, draw, t_interval, runs)
            cost = f"{(far / t_far) ** 2:.3f}" if t_far else ""
            lines.append(row(name, method, n, cover, error, cost, flags))
            lines.append(row(name, "student_t (before)", n, t_cover, t_error, "1.000"))
    return lines


def clustered(runs: int) -> list[str]:
    """0/1 scores in clusters of 5 (ICC 0.3, mean 0.9), by the number of clusters."""
    lines = []
    for c in (3, 5, 10, 30, 100):
        labels = [f"c{i // 5}" for i in range(5 * c)]

        def draw(rng: random.Random, c: int = c) -> list[float]:
            return [score for score, _ in clustered_draw(rng, c)]

        def make(scores: Sequence[float], labels: list[str] = labels) -> Interval | None:
            return stats.clustered(scores, labels, LEVEL)

        name = "clustered ICC .3, mean .9, size 5"
        method, cover, error, _, flags = simulate(name, c * 5, 0.9, Op.GE, draw, make, runs)
        lines.append(row(name, method, c, cover, error, "", flags))
    return lines


def main(argv: Sequence[str]) -> int:
    """Print the table."""
    runs = 1000 if "--quick" in argv else 4000
    print(f"{'setting':<36} {'n':>4} {'method':<32} cover  error  goal mark fires  left n cost")
    lines = exact_proportions((1, 2, 5, 10, 30, 100), (0.5, 0.9, 0.95, 0.99))
    for n in (1, 2):
        # All successes, at the bar Wilson's own bound of n of n would give.
        bar = stats.wilson(n, n, LEVEL).low
        error = bar**n * clears(stats.proportion(n, n, LEVEL), Op.GE, bar)
        lines.append(row(f"0/1, n of n, bar {bar:.4f}", "clopper_pearson", n, None, error, ""))
    for n in (30, 100):
        for p in (0.95, 0.99):
            error = through_score(n, p, lm_eval_stderr(n), ">=")
            lines.append(
                row(f"value, n, lm-eval stderr, p {p:g}", "read by score", n, None, error, "")
            )
    lines.extend(continuous(runs))
    lines.extend(clustered(runs))
    lines.extend(regressions(runs))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
