"""Regression gates against an approved baseline, the warn tier, and per-metric interval levels."""

from __future__ import annotations

import datetime as dt
import json
import math
from pathlib import Path

import numpy as np
import pytest

from evalglass import contract
from evalglass.core.authority import Authority, Outcome, resolve
from evalglass.core.decision import GateInput, Result, decide
from evalglass.core.regression import difference, newcombe_paired, newcombe_unpaired
from evalglass.core.saved_baseline import saved_limits, saved_stderr
from evalglass.core.scorecard import MetricCard, at_level
from evalglass.core.validity import assess
from evalglass.errors import RecordError
from evalglass.evidence import stats
from evalglass.evidence.model import Interval, Measurement, Method, Run, Sample
from evalglass.reasons import AuthorityCode as C
from evalglass.records.load import load_records
from evalglass.records.model import (
    Approval,
    BaselineRecord,
    Decision,
    MetricRecord,
    MetricStatus,
    Op,
    ThresholdRecord,
)
from evalglass.render import Format, render
from evalglass.render.evidence_line import evidence_line
from evalglass.shell.api import score as score_outputs
from tests import states as s

RUN = Run(source="run.json", models=["acme/x"])
CAN_GATE = Authority(Outcome.CAN_GATE)


@pytest.mark.parametrize(
    ("s1", "n1", "s2", "n2", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17:873, Table II, method 10
        (56, 70, 48, 80, 0.0524, 0.3339),
        (9, 10, 3, 10, 0.1705, 0.8090),
        (6, 7, 2, 7, 0.0582, 0.8062),
        (5, 56, 0, 29, -0.0381, 0.1926),
    ],
)
def test_newcombe_unpaired_matches_the_published_table(s1, n1, s2, n2, low, high) -> None:
    """The unpaired hybrid score interval reproduces Newcombe's published values."""
    got = newcombe_unpaired(s1, n1, s2, n2, 0.95)
    assert (round(got.low, 4), round(got.high, 4)) == (low, high)


def samples(scores) -> tuple[Sample, ...]:
    return tuple(Sample(id=str(i), score=float(x)) for i, x in enumerate(scores))


def measured(scores, level: float = 0.95) -> Measurement:
    values = [float(x) for x in scores]
    return Measurement(
        id="m",
        run=RUN,
        value=float(np.mean(values)),
        n=len(values),
        interval=stats.interval_for_scores(values, level),
        samples=samples(values),
    )


def baseline_of(scores, **extra) -> BaselineRecord:
    values = [float(x) for x in scores]
    return BaselineRecord(
        value=float(np.mean(values)),
        n=len(values),
        dataset_version="1",
        sample_scores={str(i): x for i, x in enumerate(values)},
        **extra,
    )


RUNS = 2000


def test_paired_binary_coverage_and_width() -> None:
    """Paired Newcombe covers the true change at about 95%, and is narrower than unpaired
    when the runs are correlated."""
    rng = np.random.default_rng(11)
    hits, paired_w, unpaired_w = 0, [], []
    for _ in range(RUNS):
        base = rng.random(300) < 0.8
        flip = rng.random(300) < 0.1
        now = np.where(flip, rng.random(300) < 0.7, base)  # mostly the same answers
        truth = 0.9 * 0.8 + 0.1 * 0.7 - 0.8
        pairs = list(zip(now.astype(float), base.astype(float), strict=True))
        paired = newcombe_paired(pairs, 0.95)
        unpaired = newcombe_unpaired(now.sum(), 300, base.sum(), 300, 0.95)
        hits += paired.low <= truth <= paired.high
        paired_w.append(paired.high - paired.low)
        unpaired_w.append(unpaired.high - unpaired.low)
    assert abs(hits / RUNS - 0.95) <= 0.025
    assert np.mean(paired_w) < 0.6 * np.mean(unpaired_w)


def test_paired_continuous_uses_paired_t() -> None:
    """Continuous scores matched by sample id use a paired t interval of the differences."""
    rng = np.random.default_rng(3)
    base = rng.random(50)
    now = base + rng.normal(0, 0.01, 50)
    change = difference(measured(now), baseline_of(base), 0.95)
    assert change is not None and change.paired == 50
    assert change.interval.method is Method.PAIRED_T
    diffs = now - base
    from scipy import stats as sp

    want = sp.t.interval(0.95, 49, loc=diffs.mean(), scale=sp.sem(diffs))
    assert (change.interval.low, change.interval.high) == pytest.approx(want)


def regression_gate(op: Op = Op.GE, decision: Decision = Decision.BOUND, **bar) -> tuple:
    metric = MetricRecord(status=MetricStatus.GATING, dataset="d", decision=decision)
    threshold = ThresholdRecord(
        op=op, approval=Approval.APPROVED, approved_by="@a", approved_on=dt.date(2026, 1, 1), **bar
    )
    return metric, threshold


def gate(now, base, op: Op = Op.GE, decision: Decision = Decision.BOUND, **bar):
    metric, threshold = regression_gate(op, decision, **bar)
    m = measured(now)
    return decide(
        GateInput(
            measurement=m,
            validity=assess(m, metric),
            authority=CAN_GATE,
            threshold=threshold,
            metric=metric,
            baseline=base,
        )
    )


def line(now, base, op: Op = Op.GE, **bar) -> str:
    """The evidence line of the regression gate `gate` decides."""
    metric, threshold = regression_gate(op, **bar)
    m = measured(now)
    validity = assess(m, metric)
    result = decide(
        GateInput(
            measurement=m,
            validity=validity,
            authority=CAN_GATE,
            threshold=threshold,
            metric=metric,
            baseline=base,
        )
    )
    card = MetricCard(
        id="m", measurement=m, validity=validity, authority=CAN_GATE, threshold=threshold,
        gate=result,
    )  # fmt: skip
    return evidence_line(card)


def test_regression_gate_rates() -> None:
    """A real drop of 10 points fails nearly always; noise passes at the test's power (about
    80% here); a drop exactly at the allowance passes at most about 2.5% of the time."""
    rng = np.random.default_rng(5)
    outcomes: dict[str, list[Result]] = {"drop": [], "noise": [], "edge": []}
    for _ in range(400):
        base_scores = rng.random(1000) < 0.8
        base = BaselineRecord(value=float(base_scores.mean()), n=1000, dataset_version="1")
        for name, rate in (("drop", 0.7), ("noise", 0.8), ("edge", 0.75)):
            now = (rng.random(1000) < rate).astype(float)
            outcomes[name].append(gate(now, base, max_drop=0.05).result)
    rate = {k: v.count(Result.PASS) / len(v) for k, v in outcomes.items()}
    # Power on pure noise, by the normal approximation: P(d - z·se > -0.05) = Φ(0.05/se - z).
    se = (2 * 0.8 * 0.2 / 1000) ** 0.5
    from statistics import NormalDist

    power = NormalDist().cdf(0.05 / se - 1.96)
    assert rate["drop"] <= 0.01
    assert abs(rate["noise"] - power) <= 0.06
    assert rate["edge"] <= 0.045


def test_relative_drop_and_the_stricter_allowance() -> None:
    """max_relative_drop is a fraction of the baseline; with both, the stricter one applies."""
    base = BaselineRecord(value=0.8, n=10_000, dataset_version="1")
    now = [1.0] * 7850 + [0.0] * 2150  # 0.785: a drop of 0.015
    assert gate(now, base, max_relative_drop=0.05).result is Result.PASS  # allows 0.04
    assert gate(now, base, max_relative_drop=0.05, max_drop=0.02).result is Result.FAIL


def test_lower_is_better_is_mirrored() -> None:
    """For a <= metric the allowance is a rise: the upper bound of the change must stay below."""
    base = BaselineRecord(value=0.05, n=10_000, dataset_version="1")
    small = [1.0] * 600 + [0.0] * 9400  # 0.06
    big = [1.0] * 900 + [0.0] * 9100  # 0.09
    assert gate(small, base, op=Op.LE, max_drop=0.02).result is Result.PASS
    assert gate(big, base, op=Op.LE, max_drop=0.02).result is Result.FAIL
    said = line(big, base, op=Op.LE, max_drop=0.02)
    assert said.startswith("change upper bound 0.0")
    assert " is not < 0.02 (allowed rise 0.02; current − baseline 0.04 from baseline 0.05, " in said
    assert said.endswith(", unpaired, 95% Newcombe)")


def test_point_rule_compares_the_point_change() -> None:
    """decision: point compares the point difference, not its bound."""
    base = BaselineRecord(value=0.8, n=50, dataset_version="1")
    now = [1.0] * 39 + [0.0] * 11  # 0.78: point drop 0.02, bound much lower
    assert gate(now, base, max_drop=0.03).result is Result.FAIL
    assert gate(now, base, decision=Decision.POINT, max_drop=0.03).result is Result.PASS


def test_baseline_without_spread_is_unsound() -> None:
    """A baseline with a value but no n, stderr or samples gives no interval: unsound."""
    base = BaselineRecord(value=0.8, n=None, dataset_version="1", scorecard="x.json")
    result = gate([1.0, 0.0] * 50, base, max_drop=0.05)
    assert result.result is Result.UNSOUND
    assert [r.code.value for r in result.reasons] == ["interval_unavailable"]


def test_warn_tier() -> None:
    """Passing the gate but not warn_value is `warn`: shown, and the verdict still passes."""
    metric, threshold = regression_gate(value=0.5, warn_value=0.9)
    m = measured([1.0] * 80 + [0.0] * 20)
    result = decide(
        GateInput(
            measurement=m,
            validity=assess(m, metric),
            authority=CAN_GATE,
            threshold=threshold,
            metric=metric,
        )
    )
    assert result.result is Result.WARN
    card = MetricCard(
        id="m", measurement=m, validity=assess(m, metric), authority=CAN_GATE,
        threshold=threshold, gate=result,
    )  # fmt: skip
    assert evidence_line(card) == (
        "lower bound 0.7112 >= 0.5 (value 0.8, n 100, 95% Wilson); "
        "warning: lower bound 0.7112 is not >= 0.9 (value 0.8, n 100, 95% Wilson)"
    )


def test_regression_threshold_requires_a_baseline() -> None:
    """A threshold with max_drop blocks (baseline_missing) until a baseline is recorded."""
    import attrs

    records = s.records(s.State())
    t = attrs.evolve(records.thresholds[s.METRIC], max_drop=0.02)
    records = attrs.evolve(records, thresholds={s.METRIC: t})
    got = resolve(s.METRIC, records, s.measurement(s.State()), evaluated_on=s.TODAY)
    assert got.outcome is Outcome.BLOCKED
    assert [r.code for r in got.reasons] == [C.BASELINE_MISSING]


def test_baseline_comparability_names_every_dimension() -> None:
    """A baseline on another dataset version and fingerprint names both in one reason."""
    import attrs

    records = s.records(s.State(requires_baseline=True, baseline="other_version"))
    dataset = attrs.evolve(records.datasets[s.DATASET], fingerprint="sha:new")
    baseline = attrs.evolve(records.baselines[s.METRIC], fingerprint="sha:old")
    bound = attrs.evolve(records.thresholds[s.METRIC].approved_for, fingerprint="sha:new")
    threshold = attrs.evolve(records.thresholds[s.METRIC], approved_for=bound)
    records = attrs.evolve(
        records,
        datasets={s.DATASET: dataset},
        baselines={s.METRIC: baseline},
        thresholds={s.METRIC: threshold},
    )
    measurement = s.measurement(s.State())
    assert measurement.run.dataset is not None
    # Measured on the data the record now pins: only the baseline is of other data.
    seen = attrs.evolve(measurement.run.dataset, fingerprint="sha:new")
    measurement = attrs.evolve(measurement, run=attrs.evolve(measurement.run, dataset=seen))
    got = resolve(s.METRIC, records, measurement, evaluated_on=s.TODAY)
    assert [r.code for r in got.reasons] == [C.BASELINE_NOT_COMPARABLE]
    assert "dataset version" in got.reasons[0].message
    assert "dataset fingerprint" in got.reasons[0].message


def test_interval_level_is_used() -> None:
    """A metric's interval_level recomputes its interval: 99% is wider than 95%."""
    m = measured([1.0] * 90 + [0.0] * 10)
    wide = at_level(m, 0.99)
    assert wide.interval.level == 0.99
    assert wide.interval.low < m.interval.low and wide.interval.high > m.interval.high


def write_records(folder: Path, baseline: str) -> None:
    folder.mkdir()
    (folder / "baselines.yaml").write_text(baseline)


def saved_scorecard(tmp_path: Path, scores: list[float]) -> str:
    """A real scorecard JSON, as `evalglass score --format json --keep-samples` writes it, of a
    generic output whose metric `m` has these per-sample scores (sample ids "0", "1", ...)."""
    output = tmp_path / "run.json"
    output.write_text(json.dumps({"metrics": {"m": {"scores": scores}}}))
    (tmp_path / "no_records").mkdir(exist_ok=True)
    return render(score_outputs([output], tmp_path / "no_records"), Format.JSON, keep_samples=True)


def test_baseline_read_from_a_saved_scorecard(tmp_path: Path) -> None:
    """A baseline naming a saved scorecard takes its value, n and per-sample scores from it."""
    folder = tmp_path / "host_records"
    write_records(folder, "baselines:\n  m:\n    scorecard: base.json\n    dataset_version: '1'\n")
    (folder / "base.json").write_text(saved_scorecard(tmp_path, [1.0, 0.0]))
    b = load_records(folder).baselines["m"]
    assert (b.value, b.n) == (0.5, 2)
    assert b.sample_scores == {"0": 1.0, "1": 0.0}


def test_duplicate_sample_ids_in_a_baseline_are_an_input_error(tmp_path: Path) -> None:
    """Repeated sample ids in a baseline scorecard are refused, naming the baseline's line."""
    doc = json.loads(saved_scorecard(tmp_path, [1.0, 0.0]))
    doc["metrics"][0]["samples"][1]["id"] = "0"
    folder = tmp_path / "host_records"
    write_records(folder, "baselines:\n  m:\n    scorecard: base.json\n    dataset_version: '1'\n")
    (folder / "base.json").write_text(json.dumps(doc))
    with pytest.raises(RecordError) as error:
        load_records(folder)
    assert str(error.value).endswith(
        "baselines.yaml:2: baseline 'm': scorecard 'base.json' repeats sample id '0'"
    )


def test_a_baseline_file_must_be_a_whole_scorecard(tmp_path: Path) -> None:
    """A hand-made file that is not a scorecard is refused, naming the field, never half-read."""
    folder = tmp_path / "host_records"
    write_records(folder, "baselines:\n  m:\n    scorecard: base.json\n    dataset_version: '1'\n")
    doc = json.loads(saved_scorecard(tmp_path, [1.0, 0.0]))
    doc["metrics"][0]["value"] = True
    (folder / "base.json").write_text(json.dumps(doc))
    with pytest.raises(RecordError, match=r"baselines.yaml:2: .*metrics\[0\]\.value"):
        load_records(folder)


@pytest.mark.parametrize("name", ["../base.json", "/etc/base.json", "a/../../base.json", "..", "."])
def test_a_baseline_file_outside_the_records_folder_is_refused(tmp_path: Path, name: str) -> None:
    """A baseline scorecard path that leaves the records folder is an input error."""
    folder = tmp_path / "host_records"
    write_records(folder, f"baselines:\n  m:\n    scorecard: '{name}'\n    dataset_version: '1'\n")
    (tmp_path / "base.json").write_text(saved_scorecard(tmp_path, [1.0, 0.0]))
    with pytest.raises(RecordError, match="outside the records folder"):
        load_records(folder)


def test_missing_baseline_scorecard_is_an_input_error(tmp_path: Path) -> None:
    """A baseline naming a file that is not there is an input error, not a silent pass."""
    folder = tmp_path / "host_records"
    write_records(folder, "baselines:\n  m:\n    scorecard: gone.json\n    dataset_version: '1'\n")
    with pytest.raises(RecordError, match="scorecard 'gone.json' not found"):
        load_records(folder)


def _saved(interval: Interval, value: float, n: int) -> contract.Metric:
    """A saved scorecard's entry for a metric measured as `interval` (no samples kept)."""
    return contract.Metric(
        id="m", value=value, n=n, interval=(interval.low, interval.high), level=interval.level,
        method=interval.method.value, clusters=interval.clusters, missing=0, model="m",
        source="run.json", earlier_runs=(), validity=contract.Validity(valid=True, reasons=()),
        authority=contract.Authority(outcome="can_gate", reasons=(), notes=()), threshold=None,
        gate=contract.Gate(result="pass", reasons=(), evidence="", change=None),
    )  # fmt: skip


def test_a_saved_range_aware_interval_is_rebuilt_at_any_level() -> None:
    """A saved interval that is not value ± q·se (a proportion's, Hoeffding's, one at an
    effective n, clustered or not) is remade from the saved numbers: at its own level the
    saved limits, at another the interval the scores themselves give there."""
    graded = [0.5 + 0.05 * (i % 10) for i in range(60)]
    labels = [f"c{i // 4}" for i in range(60)]
    cases = [
        (lambda level: stats.interval_for_scores(graded, level), stats.mean(graded), 60),
        (lambda level: stats.clustered(graded, labels, level), stats.mean(graded), 60),
        (lambda level: stats.proportion(45, 60, level), 0.75, 60),
        (lambda level: stats.proportion(3, 60, level), 0.05, 60),
        (lambda level: stats.student_t([0.7] * 20, level), 0.7, 20),
    ]
    for make, value, n in cases:
        saved = make(0.95)
        assert saved is not None
        assert saved_stderr(_saved(saved, value, n)) is None
        for level in (0.95, 0.9, 0.99):
            want, got = make(level), saved_limits(_saved(saved, value, n), level)
            assert want is not None and got is not None, saved.method
            assert got.method is want.method
            assert math.isclose(got.low, want.low, rel_tol=1e-6), (saved.method, level)
            assert math.isclose(got.high, want.high, rel_tol=1e-6), (saved.method, level)
