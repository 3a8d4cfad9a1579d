"""Aggregate partials: merged by addition before any statistic, so any split of the rows gives the
scorecard of the whole; identity conflicts are input errors; exact sums keep the interval right."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from evalglass.errors import OutputError
from evalglass.evidence import aggregate
from evalglass.evidence.adapters import aggregates, rows
from evalglass.evidence.model import Method, Run
from evalglass.evidence.read import read_outputs
from tests.scale_rows import generated, write_jsonl

_ROW = st.fixed_dictionaries(
    {
        "metric": st.sampled_from(["a", "b"]),
        "score": st.one_of(
            st.none(),
            st.sampled_from([0, 1]),
            st.floats(min_value=-50, max_value=50).filter(lambda x: x == 0 or abs(x) >= 2**-12),
        ),
        "cluster": st.sampled_from([None, "x", "y", "z"]),
    }
)


def partial(folder: Path, name: str, part: list[dict[str, object]]) -> Path:
    """The aggregates document of some rows, as a producer would write it."""
    source = write_jsonl(folder / f"{name}.jsonl", part)
    doc = aggregates.to_document(rows.aggregates(source, name))
    source.unlink()
    target = folder / f"{name}.json"
    target.write_text(json.dumps(doc))
    return target


@settings(max_examples=60, deadline=None)
@given(
    st.lists(_ROW, min_size=1, max_size=60), st.lists(st.integers(0, 3), min_size=60, max_size=60)
)
def test_merged_partials_give_the_scorecard_of_the_whole(
    tmp_path_factory: pytest.TempPathFactory, table: list[dict[str, object]], parts: list[int]
) -> None:
    """Any split of the rows into up to four partials measures exactly what the whole file does."""
    folder = tmp_path_factory.mktemp("split")
    whole = read_outputs([write_jsonl(folder / "whole.jsonl", table)]).measurements
    split: dict[int, list[dict[str, object]]] = {}
    for row, k in zip(table, parts, strict=False):
        split.setdefault(k, []).append(row)
    files = [partial(folder, f"part{k}", chunk) for k, chunk in sorted(split.items())]
    merged = read_outputs(files).measurements
    assert merged.keys() == whole.keys()
    for metric, m in whole.items():
        got = merged[metric]
        assert (got.value, got.n, got.missing, got.interval) == (
            m.value,
            m.n,
            m.missing,
            m.interval,
        ) or (
            m.value is not None
            and math.isnan(m.value)
            and got.value is not None
            and math.isnan(got.value)
        )


def test_the_document_round_trips(tmp_path: Path) -> None:
    """to_document then from_document gives back the same partial."""
    source = write_jsonl(tmp_path / "rows.jsonl", generated(count=200))
    agg = rows.aggregates(source, "rows.jsonl")
    assert (
        aggregates.from_document(json.loads(json.dumps(aggregates.to_document(agg))), "rows.jsonl")
        == agg
    )


def test_partials_naming_different_models_are_an_input_error(tmp_path: Path) -> None:
    """Two partials of 'one run' naming different models are refused, naming both."""
    first = partial(tmp_path, "one", [{"metric": "a", "score": 1, "model": "m1"}])
    second = partial(tmp_path, "two", [{"metric": "a", "score": 0, "model": "m2"}])
    with pytest.raises(OutputError, match="names model 'm2' but .*one.json names 'm1'"):
        read_outputs([first, second])


def test_a_malformed_partial_names_the_field(tmp_path: Path) -> None:
    """A negative count in a partial is one error naming the field."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"evalglass_aggregates": 1, "metrics": {"a": {"n": -1}}}))
    with pytest.raises(OutputError, match=r"metrics\.a\.n: expected a whole number, got -1"):
        read_outputs([path])


def test_cluster_sums_no_scores_could_have_are_refused(tmp_path: Path) -> None:
    """Clustered rows whose Σq² exceeds the metric's (so the rows without a cluster would have a
    negative one) are an input error in one line, not a crash or an interval."""
    doc = {"evalglass_aggregates": 1, "metrics": {"a": {
        "n": 4, "sum": 2 << 64, "sum_squares": 2 << 128, "clustered_sum_squares": 3 << 128,
        "clusters": {"c": [2, 2 << 64]}}}}  # fmt: skip
    path = tmp_path / "part.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(OutputError, match="rows without a cluster: counts and sums no set"):
        read_outputs([path])


def test_the_student_t_interval_matches_scipy() -> None:
    """From exact sums of scores of unknown range, the Student-t interval is scipy's, to 1e-12."""
    values = [1.13, 0.5, 0.77, 0.9, 0.31, 0.62, 0.05, 0.99]
    stats_ = aggregate.MetricStats(moments=_moments(values))
    m = aggregate.measure("m", stats_, _run())
    assert m.interval is not None and m.interval.method is Method.STUDENT_T
    want = scipy_stats.t.interval(
        0.95, len(values) - 1, loc=sum(values) / len(values), scale=scipy_stats.sem(values)
    )
    assert m.interval.low == pytest.approx(want[0], abs=1e-12)
    assert m.interval.high == pytest.approx(want[1], abs=1e-12)


def test_exact_sums_keep_the_spread_of_large_nearby_scores() -> None:
    """Scores near 1e9 differing by 1e-3: the sd is right where a float sum of squares is lost."""
    values = [1e9 + k * 0.001 for k in range(1000)]
    m = aggregate.measure("m", aggregate.MetricStats(moments=_moments(values)), _run())
    assert m.interval is not None and m.interval.basis is not None
    want = scipy_stats.tstd(values)
    assert m.interval.basis.sd == pytest.approx(want, rel=1e-6)  # type: ignore[union-attr]
    naive = sum(v * v for v in values) / len(values) - (sum(values) / len(values)) ** 2
    assert abs(math.sqrt(max(naive, 0.0)) - want) > 0.01  # what a float Σx² would give


def _moments(values: list[float]) -> aggregate.Moments:
    import array

    return aggregate.moments_of(array.array("d", values))


def _run() -> Run:
    return Run(source="test")
