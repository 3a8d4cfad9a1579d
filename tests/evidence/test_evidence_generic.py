"""The generic formats: JSON summaries, per-sample JSONL and CSV rows, and how outputs combine."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sp

from evalglass.errors import OutputError
from evalglass.evidence.model import DatasetIdentity, Measurement, Method, Run
from evalglass.evidence.read import merge, read_outputs
from evalglass.reasons import ValidityCode


def write(tmp_path: Path, name: str, content: object) -> Path:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def one(tmp_path: Path, entry: object, **top: object) -> Measurement:
    path = write(tmp_path, "run.json", {"model": "acme/x", **top, "metrics": {"m": entry}})
    return read_outputs([path]).measurements["m"]


def test_bare_number_has_no_n_and_no_interval(tmp_path: Path) -> None:
    """A bare number is a value alone: unknown n, no interval."""
    m = one(tmp_path, 0.91)
    assert (m.value, m.n, m.interval) == (0.91, None, None)
    assert m.run.model == "acme/x"


def test_value_n_stderr_gives_a_normal_interval(tmp_path: Path) -> None:
    """value, n and stderr give value ± z·stderr, named as the normal method."""
    m = one(tmp_path, {"value": 0.91, "n": 412, "stderr": 0.014})
    assert m.n == 412 and m.interval is not None
    assert m.interval.method is Method.NORMAL
    assert m.interval.low == pytest.approx(0.91 - sp.norm.ppf(0.975) * 0.014, abs=1e-12)


def test_binary_scores_give_a_proportions_interval(tmp_path: Path) -> None:
    """0/1 scores give their mean, their count, and a proportion's interval: at n 4, the exact
    Clopper-Pearson one (checked against scipy)."""
    m = one(tmp_path, {"scores": [1, 0, 1, 1]})
    assert (m.value, m.n) == (0.75, 4)
    assert m.interval is not None and m.interval.method is Method.CLOPPER_PEARSON
    low, high = sp.binomtest(3, 4).proportion_ci(method="exact")
    assert (m.interval.low, m.interval.high) == pytest.approx((low, high), abs=1e-9)


def test_continuous_scores_give_student_t(tmp_path: Path) -> None:
    """Non-binary scores of unknown range give a Student-t interval (checked against scipy)."""
    scores = [0.2, 1.9, 0.55, 0.7, 0.4]
    m = one(tmp_path, {"scores": scores})
    assert m.interval is not None and m.interval.method is Method.STUDENT_T
    low, high = sp.t.interval(0.95, len(scores) - 1, loc=sum(scores) / 5, scale=sp.sem(scores))
    assert (m.interval.low, m.interval.high) == pytest.approx((low, high), abs=1e-9)


def test_reported_value_disagreeing_with_scores_is_a_finding(tmp_path: Path) -> None:
    """When an output's value and its own scores disagree, the value is kept and flagged."""
    m = one(tmp_path, {"value": 0.9, "scores": [1, 0, 1, 0]})
    assert m.value == 0.9
    assert [f.code for f in m.findings] == [ValidityCode.VALUE_MISMATCH]


def test_nan_and_infinity_are_read(tmp_path: Path) -> None:
    """Python-written NaN and Infinity load; they are judged later, not rejected here."""
    path = write(tmp_path, "run.json", '{"metrics": {"a": NaN, "b": {"value": Infinity, "n": 5}}}')
    ms = read_outputs([path]).measurements
    assert math.isnan(ms["a"].value) and ms["b"].value == math.inf


def test_authority_fields_in_an_output_are_ignored(tmp_path: Path) -> None:
    """`authority`, `status` and the like inside an output are read as nothing at all."""
    plain = one(tmp_path, {"value": 0.9, "n": 10})
    loud = one(
        tmp_path,
        {"value": 0.9, "n": 10, "authority": "can_gate", "status": "gating"},
        authority={"m": "can_gate"},
        thresholds={"m": 0.1},
    )
    assert plain == loud


def test_dataset_identity_is_read(tmp_path: Path) -> None:
    """An output's dataset name, version and fingerprint reach the run."""
    m = one(tmp_path, 0.5, dataset={"name": "qa", "version": "2", "fingerprint": "sha256:1"})
    assert m.run.dataset == DatasetIdentity(name="qa", version="2", fingerprint="sha256:1")


def test_a_metric_names_its_own_dataset_in_place_of_the_files(tmp_path: Path) -> None:
    """One file of a QA set and a safety set: a metric's own `dataset` replaces the file's for
    that metric (not merged with it); the others, and one whose `dataset` is null, keep the
    file's."""
    path = write(tmp_path, "run.json", {
        "model": "acme/x",
        "dataset": {"name": "qa-gold", "version": "2026-10"},
        "metrics": {
            "qa/exact": {"scores": [1, 0, 1]},
            "qa/plain": 0.5,
            "qa/null": {"value": 0.5, "n": 10, "dataset": None},
            "safety/tox": {"value": 0.01, "n": 150, "dataset": {"name": "toxic-prompts"}},
        },
    })  # fmt: skip
    got = {k: m.run.dataset for k, m in read_outputs([path]).measurements.items()}
    qa = DatasetIdentity(name="qa-gold", version="2026-10")
    assert got == {
        "qa/exact": qa,
        "qa/null": qa,
        "qa/plain": qa,
        "safety/tox": DatasetIdentity(name="toxic-prompts"),
    }


@pytest.mark.parametrize(
    ("dataset", "said"),
    [
        ("toxic-prompts", "metrics.m.dataset: expected an object, got a string"),
        ({"name": 3}, "metrics.m.dataset.name: expected a string, got a number"),
        ({"version": ["1"]}, "metrics.m.dataset.version: expected a string, got a list"),
    ],
)
def test_a_metrics_dataset_that_is_not_an_identity_is_refused_at_its_place(
    tmp_path: Path, dataset: object, said: str
) -> None:
    """Not an object, or a field that is not a string: exit-4 input naming the metric's field."""
    with pytest.raises(OutputError, match=re.escape(said)):
        one(tmp_path, {"value": 0.5, "n": 10, "dataset": dataset})


_NAMES = st.none() | st.text(max_size=8)
_IDENTITIES = st.fixed_dictionaries(
    {}, optional={"name": _NAMES, "version": _NAMES, "fingerprint": _NAMES}
)
_ENTRIES = st.sampled_from([{"value": 0.5, "n": 10}, {"scores": [1, 0]}, {"value": 0.5}])


@given(
    st.none() | _IDENTITIES,
    st.lists(st.tuples(_ENTRIES, st.none() | st.just("null") | _IDENTITIES), max_size=4),
)
def test_every_metric_reads_its_own_dataset_else_the_files(
    top: dict[str, str | None] | None,
    entries: list[tuple[dict[str, object], dict[str, str | None] | str | None]],
) -> None:
    """For any file dataset and any per-metric ones (absent, null, or an object of any fields),
    each metric's run names exactly its own dataset when it gives an object, else the file's."""
    import tempfile

    def identity(raw: dict[str, str | None] | None) -> DatasetIdentity | None:
        return None if raw is None else DatasetIdentity(**raw)

    metrics: dict[str, object] = {}
    want: dict[str, DatasetIdentity | None] = {}
    for i, (entry, own) in enumerate(entries):
        body = dict(entry)
        if own is not None:
            body["dataset"] = None if own == "null" else own
        metrics[f"m{i}"] = body
        want[f"m{i}"] = identity(top) if own in (None, "null") else identity(own)  # type: ignore[arg-type]
    doc: dict[str, object] = {"metrics": metrics}
    if top is not None:
        doc["dataset"] = top
    with tempfile.TemporaryDirectory() as folder:
        if not metrics:
            return  # a file with no metric is an input error, tested elsewhere
        path = Path(folder) / "run.json"
        path.write_text(json.dumps(doc))
        got = {k: m.run.dataset for k, m in read_outputs([path]).measurements.items()}
    assert got == want


def test_jsonl_rows_aggregate_per_metric(tmp_path: Path) -> None:
    """Per-sample JSONL rows give each metric its mean, n and interval."""
    lines = [{"metric": "a", "score": s, "sample_id": str(i)} for i, s in enumerate([1, 0, 1])]
    lines += [{"metric": "b", "score": s} for s in (0.5, 0.7, 0.9)]
    path = write(tmp_path, "rows.jsonl", "\n".join(json.dumps(x) for x in lines) + "\n")
    ms = read_outputs([path]).measurements
    assert ms["a"].value == pytest.approx(2 / 3) and ms["a"].n == 3
    assert ms["a"].interval.method is Method.CLOPPER_PEARSON
    assert ms["b"].value == pytest.approx(0.7) and ms["b"].interval.method is Method.EFFECTIVE_N


# Scores are summed exactly on a grid of 2^-64: a spread below it is no spread (docs/scale.md).
_ON_GRID = st.floats(min_value=-1e3, max_value=1e3).filter(lambda x: x == 0 or abs(x) >= 2**-12)


@given(st.lists(_ON_GRID, min_size=2, max_size=50))
def test_streamed_rows_match_the_batch_interval(scores: list[float]) -> None:
    """The exact-sum interval of the rows reader equals the batch computation."""
    import tempfile

    from evalglass.evidence import stats

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rows.jsonl"
        path.write_text("".join(json.dumps({"metric": "a", "score": s}) + "\n" for s in scores))
        m = read_outputs([path]).measurements["a"]
    want = stats.interval_for_scores(scores)
    assert m.value == pytest.approx(sum(scores) / len(scores), abs=1e-9)
    if want is None:  # identical scores of unknown range: no honest interval either way
        assert m.interval is None
    else:
        assert m.interval is not None and m.interval.method is want.method
        assert (m.interval.low, m.interval.high) == pytest.approx((want.low, want.high), abs=1e-6)


def test_csv_rows_and_duplicate_sample_ids(tmp_path: Path) -> None:
    """CSV rows read like JSONL; a sample id repeated for one metric names its line."""
    ok = write(tmp_path, "rows.csv", "metric,score,sample_id\na,1,s1\na,0,s2\n")
    assert read_outputs([ok]).measurements["a"].n == 2
    bad = write(tmp_path, "dup.csv", "metric,score,sample_id\na,1,s1\na,0,s1\n")
    with pytest.raises(OutputError, match=r"dup.csv:3: sample_id 's1' appears twice"):
        read_outputs([bad])


def test_folder_reads_every_recognised_file(tmp_path: Path) -> None:
    """A folder argument reads each recognised output below it and skips the rest."""
    write(tmp_path, "a.json", {"metrics": {"x": 1.0}})
    (tmp_path / "sub").mkdir()
    write(tmp_path, "sub/b.json", {"metrics": {"y": 2.0}})
    write(tmp_path, "notes.txt", "hello")
    evidence = read_outputs([tmp_path])
    assert sorted(evidence.measurements) == ["x", "y"]
    assert len(evidence.sources) == 2


def test_empty_folder_is_an_error(tmp_path: Path) -> None:
    """A folder with nothing recognisable is an input error, not an empty pass."""
    with pytest.raises(OutputError, match="no recognised eval output"):
        read_outputs([tmp_path])


def _timed(source: str, started: str | None, value: float) -> Measurement:
    return Measurement(id="m", run=Run(source=source, started=started), value=value, n=10)


def test_retries_keep_the_newest_run_and_show_the_others() -> None:
    """Several runs of one metric: the newest by its own start time decides; all are kept."""
    found = merge(
        [
            _timed("b.eval", "2026-11-29T10:00:00+00:00", 0.4),
            _timed("c.eval", "2026-11-29T12:00:00+00:00", 0.9),
            _timed("a.eval", "2026-11-29T11:00:00+00:00", 0.3),
        ]
    )
    assert found["m"].run.source == "c.eval"
    assert [(a.source, a.value) for a in found["m"].earlier] == [("b.eval", 0.4), ("a.eval", 0.3)]


def test_runs_without_start_time_cannot_be_ordered() -> None:
    """Two outputs of one metric with no start time: an input error naming both."""
    with pytest.raises(OutputError, match=r"b.json: metric 'm' is also measured by a.json"):
        merge([_timed("a.json", None, 0.1), _timed("b.json", None, 0.2)])


def test_no_outputs_given_is_empty_evidence_not_an_error() -> None:
    """Scoring the records alone reads nothing and refuses nothing."""
    evidence = read_outputs([])
    assert (dict(evidence.measurements), evidence.sources, evidence.skipped) == ({}, (), ())
