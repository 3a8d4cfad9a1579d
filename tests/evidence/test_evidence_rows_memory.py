"""Per-sample rows are read in little memory by the pure rows reader (DuckDB hidden here, as where
the extra is not installed): a score and a flag a row, plus each sample's key once, and rows with
and without a cluster still give the batch cluster-robust interval."""

from __future__ import annotations

import json
import math
import sys
import tracemalloc
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from evalglass.evidence import stats
from evalglass.evidence.adapters import rows
from evalglass.evidence.model import Method


@pytest.fixture(autouse=True, scope="module")
def _pure_reader() -> Iterator[None]:
    """The rows reader's own memory is measured, not DuckDB's (which tracemalloc cannot see)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "duckdb", None)
        yield


def test_rows_take_a_small_fixed_cost_each(tmp_path: Path) -> None:
    """100,000 rows (50,000 samples, two metrics) are read in under 160 bytes a row."""
    path = tmp_path / "rows.jsonl"
    with path.open("w") as stream:
        for i in range(50_000):
            for metric in ("a/accuracy", "b/accuracy"):
                stream.write(json.dumps({"sample_id": f"s{i}", "metric": metric, "score": i % 2}))
                stream.write("\n")
    tracemalloc.start()
    try:
        measurements = rows.read(path, "rows.jsonl")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [m.n for m in measurements] == [50_000, 50_000]
    assert peak < 160 * 100_000


@settings(max_examples=50, deadline=None)
@example([(0.95, None), (0.95, "a"), (0.95, "a")])  # no spread at all
@example([(4.9e-61, "a"), (0.0, "a"), (0.0, None)])  # spread below the reader's resolution
@example([(3.79, "a"), (6.79, None), (6.79, None), (6.79, None), (9.79, "a")])
@example([(0.0, None), (0.0, "a"), (1.0, "a")])  # scores in [0, 1]: a proportion's interval
@given(
    st.lists(
        st.tuples(
            st.floats(min_value=-10, max_value=10), st.sampled_from([None, "", "a", "b", "c", 7])
        ),
        min_size=2,
        max_size=40,
    )
)
def test_rows_with_and_without_a_cluster_give_the_batch_interval(
    tmp_path_factory: pytest.TempPathFactory, scored: list[tuple[float, object]]
) -> None:
    """A row without a cluster is a cluster of its own, wherever it comes among clustered rows;
    the interval is the cluster-robust one computed exactly (in rationals) from the scores as the
    reader sums them, q = trunc(score * 2^64): no spread left at that resolution, no interval.
    Scores all within [0, 1] take a proportion's interval at the design-effect n instead."""
    path = tmp_path_factory.mktemp("rows") / "rows.jsonl"
    path.write_text(
        "".join(json.dumps({"metric": "m", "score": s, "cluster": c}) + "\n" for s, c in scored)
    )
    (got,) = rows.read(path, "rows.jsonl")
    labels = [("row", i) if c in (None, "") else ("cluster", c) for i, (_, c) in enumerate(scored)]
    if len(set(labels)) == len(labels):
        return  # no cluster holds two rows: not a clustered interval
    quantized = [Fraction(math.trunc(Fraction(s) * 2**64), 2**64) for s, _ in scored]
    sums: dict[object, Fraction] = {}
    counts: dict[object, int] = {}
    for q, label in zip(quantized, labels, strict=True):
        sums[label] = sums.get(label, Fraction(0)) + q
        counts[label] = counts.get(label, 0) + 1
    n, c = len(quantized), len(sums)
    mean = sum(quantized, Fraction(0)) / n
    residual = sum((sums[k] - counts[k] * mean) ** 2 for k in sums)
    if residual == 0:
        assert got.interval is None
        return
    if all(0 <= s <= 1 for s, _ in scored):
        assert got.interval is not None and got.interval.clusters == c
        assert got.interval.method is Method.CLUSTERED_EFFECTIVE_N
        assert 0 <= got.interval.low <= float(mean) <= got.interval.high <= 1
        return
    se = math.sqrt(residual * c / (c - 1)) / n
    half = stats.t_quantile(0.975, c - 1) * se
    assert got.interval is not None and got.interval.clusters == c
    want = (float(mean) - half, float(mean) + half)
    assert (got.interval.low, got.interval.high) == pytest.approx(want, rel=1e-9, abs=1e-12)


def test_rows_with_epochs_take_what_rows_without_take(tmp_path: Path) -> None:
    """Rows with epochs (every tenth sample scored twice) are read in what rows without an
    epoch take, under 160 bytes a row: only the samples with several rows are gathered, at
    the end, and each row's epoch is a pointer to its text, kept once."""
    path = tmp_path / "rows.jsonl"
    with path.open("w") as stream:
        for u in range(55_000):
            sample, epoch = (u // 11) * 10 + min(u % 11, 9), 2 if u % 11 == 10 else 1
            for metric in ("a/accuracy", "b/accuracy"):
                row = {"sample_id": f"s{sample}", "metric": metric, "score": u % 2, "epoch": epoch}
                stream.write(json.dumps(row) + "\n")
    tracemalloc.start()
    try:
        measurements = rows.read(path, "rows.jsonl")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [m.n for m in measurements] == [50_000, 50_000]
    assert peak < 160 * 110_000
