"""Rows with epochs count samples, not rows: each sample's epochs are reduced to their mean first
(q = trunc(Σq / k), exactly), the same way in the rows reader, in DuckDB over Parquet and in the
SQL `evalglass sql` prints; a sample whose epochs name two clusters is an input error."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from evalglass.errors import OutputError
from evalglass.evidence import aggregate
from evalglass.evidence.adapters import parquet, rows
from evalglass.evidence.read import read_outputs
from tests.evidence.test_evidence_parquet_sums import write

_TYPES = {"metric": "VARCHAR", "score": "DOUBLE", "sample_id": "VARCHAR", "epoch": "INTEGER",
          "cluster": "VARCHAR"}  # fmt: skip
_SCORE = st.one_of(
    st.none(),
    st.sampled_from([0.0, 1.0, 0.5, -2.0, 2.0**-70, 1e9 + 0.001, math.nan]),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
)
_KEY = st.tuples(st.sampled_from(["a", "b"]), st.sampled_from([None, "s1", "s2", "s3", "s4"]),
                 st.sampled_from([None, 0, 1, 2, 3]))  # fmt: skip


@st.composite
def tables(draw: st.DrawFn) -> list[dict[str, object]]:
    """Rows of two metrics, some naming samples with several epochs; each sample one cluster."""
    keys = draw(st.lists(_KEY, min_size=1, max_size=30))
    clusters = {s: draw(st.sampled_from([None, "x", "y"])) for s in ("s1", "s2", "s3", "s4")}
    table: list[dict[str, object]] = []
    seen: set[tuple[object, ...]] = set()
    for metric, sample, epoch in keys:
        named = (metric, sample, epoch or None)
        if sample is not None and named in seen:
            continue  # the same sample and epoch twice is a test of its own
        seen.add(named)
        cluster = clusters[sample] if sample else draw(st.sampled_from([None, "x", "z"]))
        table.append({"metric": metric, "score": draw(_SCORE), "sample_id": sample,
                      "epoch": epoch, "cluster": cluster})  # fmt: skip
    return table


@settings(max_examples=60, deadline=None)
@given(table=tables())
def test_epochs_reduce_alike_in_jsonl_and_parquet(
    tmp_path_factory: pytest.TempPathFactory, table: list[dict[str, object]]
) -> None:
    """The rows reader and DuckDB (running `evalglass sql`'s query) give the same sums."""
    jsonl, target = write(tmp_path_factory.mktemp("epochs"), table, _TYPES)
    assert parquet.aggregates([(target, "rows")]) == rows.exact_aggregates(jsonl, "rows")


def test_n_counts_samples_and_the_value_is_the_mean_of_means(tmp_path: Path) -> None:
    """Three samples scored in 3, 2 and 1 epochs: n is 3 and the value the mean of their means;
    a sample with no scored epoch is missing."""
    table: list[dict[str, object]] = [
        {"metric": "m", "score": s, "sample_id": i, "epoch": e, "cluster": None}
        for i, e, s in [("p", 1, 1.0), ("p", 2, 0.0), ("p", 3, 1.0), ("q", 1, 0.0), ("q", 2, 0.0),
                        ("r", 1, 1.0), ("t", 1, None), ("t", 2, None)]
    ]  # fmt: skip
    jsonl, target = write(tmp_path, table, _TYPES)
    for path in (jsonl, target):
        (m,) = read_outputs([path]).measurements.values()
        assert (m.n, m.missing) == (3, 1)
        assert m.value == pytest.approx((2 / 3 + 0 + 1) / 3, abs=1e-15)
    assert rows.aggregates(jsonl, "r").metrics["m"].moments.total == (
        2 * aggregate.SCALE // 3 + aggregate.SCALE
    )


def test_a_sample_whose_epochs_name_two_clusters_is_refused(tmp_path: Path) -> None:
    """Epochs of one sample in clusters x and y: exit-4 input error in JSONL and Parquet."""
    table: list[dict[str, object]] = [
        {"metric": "m", "score": 1.0, "sample_id": "p", "epoch": 1, "cluster": "x"},
        {"metric": "m", "score": 0.0, "sample_id": "p", "epoch": 2, "cluster": "y"},
    ]
    jsonl, target = write(tmp_path, table, _TYPES)
    for read in (
        lambda: rows.exact_aggregates(jsonl, "r"),
        lambda: parquet.aggregates([(target, "r")]),
    ):
        with pytest.raises(OutputError, match="sample_id 'p' names more than one cluster"):
            read()


@pytest.mark.parametrize("clusters", [("x", "y"), ("x", None), (None, "y")])
def test_a_sample_with_a_cluster_on_some_epochs_only_is_refused(
    tmp_path: Path, clusters: tuple[str | None, str | None]
) -> None:
    """A sample's epochs naming two clusters, or a cluster on one and none on the other, are
    refused alike by the rows reader and by DuckDB's one-pass epochs query."""
    table: list[dict[str, object]] = [
        {"metric": "m", "score": 1.0, "sample_id": "q", "epoch": 1, "cluster": "x"},
        {"metric": "m", "score": 1.0, "sample_id": "p", "epoch": 1, "cluster": clusters[0]},
        {"metric": "m", "score": 0.0, "sample_id": "p", "epoch": 2, "cluster": clusters[1]},
    ]
    jsonl, target = write(tmp_path, table, _TYPES)
    for read in (
        lambda: rows.exact_aggregates(jsonl, "r"),
        lambda: parquet.aggregates([(target, "r")]),
    ):
        with pytest.raises(OutputError, match="sample_id 'p' names more than one cluster"):
            read()


_HARD = st.sampled_from([None, 0.0, -0.0, 1.0, 0, 1, True, 0.5, -0.25, 5e-324, 2.0**-70,
                         2.0**40 - 2.0**-12, 1e9 + 0.001, math.nan, "0.5"])  # fmt: skip


@st.composite
def epoch_lines(draw: st.DrawFn) -> list[str]:
    """JSON lines of samples scored in one to five epochs (one of them maybe none: 0, null),
    rows of a sample apart, on one or two metrics; in one table in four, one row at fault: an
    epoch named twice, or a sample's epochs in two clusters."""
    table: list[dict[str, object]] = []
    for index in range(draw(st.integers(1, 12))):
        cluster = draw(st.sampled_from([None, "x", "y", 7]))
        epochs = draw(st.lists(st.sampled_from([1, 2, 3, "4", "5"]), min_size=1, max_size=5,
                               unique_by=str))  # fmt: skip
        epochs[0] = draw(st.sampled_from([epochs[0], 0, None]))
        for metric in draw(st.sampled_from([["a"], ["a", "b"]])):
            table += [{"metric": metric, "score": draw(_HARD), "sample_id": f"s{index}",
                       "epoch": epoch, "cluster": cluster} for epoch in epochs]  # fmt: skip
    fault = draw(st.sampled_from(["", "", "", "cluster", "epoch"]))
    if fault:
        row = dict(draw(st.sampled_from(table)))
        row.update({"cluster": "z", "epoch": 9} if fault == "cluster" else {"score": 0.25})
        table.insert(draw(st.integers(0, len(table))), row)
    order = draw(st.permutations(range(len(table))))
    return [json.dumps(table[i]) for i in sorted(order, key=lambda i: order[i] % 4)]


def outcome(read: object) -> object:
    try:
        return read()  # type: ignore[operator]
    except OutputError as exc:
        return str(exc)


_FAULTY = [
    {"metric": "a", "score": 1.0, "sample_id": "p", "epoch": 1, "cluster": "x"},
    {"metric": "a", "score": None, "sample_id": "q", "epoch": 1, "cluster": "x"},
    {"metric": "a", "score": 0.0, "sample_id": "p", "epoch": 2, "cluster": "x"},
    {"metric": "a", "score": None, "sample_id": "q", "epoch": 2, "cluster": "y"},
]


@settings(max_examples=150, deadline=None)
# A sample in two clusters among samples of the same size, with and without a missing score.
@example(lines=[json.dumps(row) for row in _FAULTY], block=1 << 18)
@example(lines=[json.dumps({**row, "score": 0.5}) for row in _FAULTY], block=64)
@given(lines=epoch_lines(), block=st.sampled_from([64, 300, 1 << 18]))
def test_epochs_read_in_blocks_as_row_by_row(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str], block: int
) -> None:
    """The rows reader's fast path (blocks, epochs reduced at the end) gives what the exact
    path gives reading every row one by one: the same sums, or the same error naming the same
    line (an epoch named twice, a sample's epochs in two clusters)."""
    path = tmp_path_factory.mktemp("epochs") / "rows.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rows, "_BLOCK_BYTES", block)
        got = outcome(lambda: rows.exact_aggregates(path, "rows.jsonl"))
    assert got == outcome(lambda: rows.exact_aggregates(path, "rows.jsonl", exact=True))
