"""evalglass plan: the n it gives is checked by seeded simulation of the gate itself (`decide` on
intervals made as the readers make them): at n the gate passes at least as often as asked, at
0.8 n less often; and the command reads records only."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from evalglass.core.authority import Authority, Outcome
from evalglass.core.decision import GateInput, Result, result_only
from evalglass.core.validity import assess
from evalglass.errors import EvalglassError
from evalglass.evidence import stats
from evalglass.evidence.model import Measurement, Run
from evalglass.records.model import (
    Approval,
    BaselineRecord,
    Decision,
    HostRecords,
    MetricRecord,
    MetricStatus,
    Op,
    ThresholdRecord,
)
from evalglass.tools.planning import plan
from tests.cli_runner import cli
from tests.shell.test_cli import EXAMPLE_RECORDS

CAN_GATE = Authority(Outcome.CAN_GATE)
RUN = Run(source="sim")
DRAWS = 4000


def records(op: Op, value: float | None, *, level: float = 0.95, decision=Decision.BOUND,
            baseline: BaselineRecord | None = None, **drop: float) -> HostRecords:  # fmt: skip
    metric = MetricRecord(status=MetricStatus.GATING, dataset="d", min_samples=10,
                          interval_level=level, decision=decision)  # fmt: skip
    threshold = ThresholdRecord(op=op, value=value, approval=Approval.APPROVED, approved_by="@a",
                                approved_on=dt.date(2026, 1, 1), **drop)  # fmt: skip
    return HostRecords(
        metrics={"m": metric},
        thresholds={"m": threshold},
        baselines={} if baseline is None else {"m": baseline},
    )


def passes(host: HostRecords, m: Measurement) -> bool:
    rec, t = host.metrics["m"], host.thresholds["m"]
    gate = result_only(
        GateInput(
            measurement=m,
            validity=assess(m, rec),
            authority=CAN_GATE,
            threshold=t,
            metric=rec,
            baseline=host.baselines.get("m"),
        )
    )
    return gate.result in (Result.PASS, Result.WARN)


def binary_rate(host: HostRecords, n: int, p: float, seed: int) -> float:
    """How often the gate passes on n 0/1 scores of true rate p, over DRAWS seeded runs."""
    level = host.metrics["m"].interval_level
    draws = np.random.default_rng(seed).binomial(n, p, DRAWS)
    verdicts = {
        int(k): passes(host, Measurement(id="m", run=RUN, value=k / n, n=n,
                                         interval=stats.proportion(int(k), n, level)))
        for k in np.unique(draws)
    }  # fmt: skip
    return float(np.mean([verdicts[int(k)] for k in draws]))


BINARY = [
    ("ge", records(Op.GE, 0.85), 0.9, 0.8),
    ("le", records(Op.LE, 0.05), 0.02, 0.8),
    ("ge_99", records(Op.GE, 0.7, level=0.99), 0.8, 0.9),
    ("gt_point", records(Op.GT, 0.8, decision=Decision.POINT), 0.83, 0.8),
    (
        "regression",
        records(
            Op.GE,
            None,
            max_drop=0.05,
            baseline=BaselineRecord(value=0.85, n=500, dataset_version="1"),
        ),
        0.86,
        0.8,
    ),
]

# Three standard errors of a simulated rate near 0.8, and the approximation's own slack.
TOLERANCE = 3 * (0.8 * 0.2 / DRAWS) ** 0.5


@pytest.mark.parametrize(("name", "host", "expect", "power"), BINARY)
def test_binary_plans_hold_in_simulation(name, host, expect, power) -> None:
    """0/1 scores: the gate passes at least `power` of the time at the planned n, and less than
    `power` at 0.8 n (exact binomial, so only simulation error separates them)."""
    got = plan("m", host, expect, power)
    assert got.n is not None and got.achieved is not None and got.achieved >= power
    assert binary_rate(host, got.n, expect, seed=1) >= power - TOLERANCE
    assert binary_rate(host, int(got.n * 0.8), expect, seed=2) < power


def continuous_rate(host: HostRecords, n: int, mean: float, sd: float, seed: int) -> float:
    """How often the gate passes on n normal scores, over DRAWS seeded runs (Student-t, as the
    readers make it from per-sample scores)."""
    rng = np.random.default_rng(seed)
    wins = 0
    for _ in range(DRAWS // 4):
        scores = rng.normal(mean, sd, n).tolist()
        m = Measurement(id="m", run=RUN, value=stats.mean(scores), n=n,
                        interval=stats.student_t(scores))  # fmt: skip
        wins += passes(host, m)
    return wins / (DRAWS // 4)


CONTINUOUS = [
    ("ge", records(Op.GE, 0.5), 0.55, 0.25, 0.8),
    ("le", records(Op.LE, 2.0), 1.8, 0.6, 0.9),
    (
        "regression",
        records(
            Op.GE,
            None,
            max_drop=0.03,
            baseline=BaselineRecord(value=0.6, n=400, stderr=0.01, dataset_version="1"),
        ),
        0.61,
        0.2,
        0.8,
    ),
]


@pytest.mark.parametrize(("name", "host", "expect", "sd", "power"), CONTINUOUS)
def test_continuous_plans_hold_in_simulation(name, host, expect, sd, power) -> None:
    """Scores of a given sd: at the planned n the gate passes about `power` of the time or more
    (the normal approximation), at 0.8 n clearly less."""
    got = plan("m", host, expect, power, sd=sd)
    assert got.n is not None
    slack = 2 * TOLERANCE  # a quarter of the draws: twice the standard error
    assert continuous_rate(host, got.n, expect, sd, seed=3) >= power - slack
    assert continuous_rate(host, int(got.n * 0.8), expect, sd, seed=4) < power


def test_a_value_that_does_not_clear_the_bar_has_no_n() -> None:
    """Expecting less than the bar: no n, and the reason says why."""
    got = plan("m", records(Op.GE, 0.85), 0.84)
    assert got.n is None and got.reason is not None and "does not clear the bar" in got.reason


def test_there_is_no_plan_without_a_gate() -> None:
    """A metric with no threshold has no gate to plan for: an input error."""
    host = records(Op.GE, 0.85)
    with pytest.raises(EvalglassError, match="no threshold"):
        plan("m", HostRecords(metrics=host.metrics), 0.9)


def test_plan_on_the_command_line_reads_records_only(tmp_path: Path) -> None:
    """`evalglass plan ... --format json` gives {metric, expect, power, n, method, reason}, the
    same n as the library, exit 0; the records folder is unchanged; a bad id is exit 4."""
    shutil.copytree(EXAMPLE_RECORDS, tmp_path / "host_records")
    before = {p: p.read_bytes() for p in (tmp_path / "host_records").iterdir()}
    result = cli("plan", "qa/exact_match", "--expect", "0.9", "--format", "json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert list(doc) == ["metric", "expect", "power", "n", "method", "reason"]
    from evalglass.records.load import load_records

    want = plan("qa/exact_match", load_records(tmp_path / "host_records"), 0.9)
    assert (doc["n"], doc["power"], doc["reason"]) == (want.n, 0.8, None)
    terminal = cli("plan", "qa/exact_match", "--expect", "0.9", cwd=tmp_path)
    assert terminal.stdout.startswith(f"qa/exact_match: plan for n {want.n}: ")
    assert {p: p.read_bytes() for p in (tmp_path / "host_records").iterdir()} == before
    assert cli("plan", "qa/nope", "--expect", "0.9", cwd=tmp_path).returncode == 4


def _wilson_lower(k: np.ndarray, n: int, z: float) -> np.ndarray:
    """Wilson's lower bound, written out again from the formula (docs/statistics.md)."""
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half


def test_binary_plan_is_the_least_n_by_brute_force() -> None:
    """`>= 0.9`, expecting 0.92 at power 0.8: the plan is the least n of all, found by trying
    every n with scipy's binomial, not the first one past a bisection (1,617, not 1,692)."""
    from scipy.stats import binom, norm

    got = plan("m", records(Op.GE, 0.9), 0.92, 0.8)
    z = float(norm.ppf(0.975))
    least = None
    for n in range(10, 2049):
        k = np.arange(n + 1)
        passing = k[_wilson_lower(k, n, z) >= 0.9]
        if passing.size and binom.sf(passing.min() - 1, n, 0.92) >= 0.8:
            least = n
            break
    assert least == 1617
    assert got.n == least
