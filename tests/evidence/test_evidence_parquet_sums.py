"""DuckDB's fast sums over Parquet equal the rows reader's exactly, on any scores the format takes:
signs, zeros, the smallest and largest magnitudes, NaN and infinities, missing scores, rows with
and without clusters; whichever way the per-metric and per-cluster sums are taken; rows with
epochs, whether every sample is reduced or only those scored in several epochs; and the
repeated-sample check is exact however many metrics, with integer ids and epochs, and where ids
share a hash."""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import attrs
import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalglass.errors import OutputError
from evalglass.evidence import aggregate
from evalglass.evidence.adapters import (
    _parquet_reduce,
    _parquet_samples,
    _parquet_sums,
    parquet,
    rows,
)

_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0**-12, 2.0**-70, 5e-324, 2.0**40 - 2.0**-12,
          -(2.0**40 - 1), 123456.789, math.nan, math.inf, -math.inf]  # fmt: skip
_SCORE = st.one_of(
    st.none(),
    st.sampled_from(_EDGES),
    st.floats(min_value=-(2.0**40) + 1, max_value=2.0**40 - 1),
)
_ROW = st.fixed_dictionaries(
    {
        "metric": st.sampled_from(["a", "b", "c"]),
        "score": _SCORE,
        "cluster": st.sampled_from([None, "", "x", "y", "z"]),
    }
)


@functools.cache
def _database() -> duckdb.DuckDBPyConnection:
    """One in-memory database for every table the tests write: connecting costs more than
    writing a small table, and the property tests write one per example."""
    return duckdb.connect()


def write(folder: Path, table: list[dict[str, object]], types: dict[str, str]) -> tuple[Path, Path]:
    """The rows as JSONL (Python's json, NaN as written) and as Parquet (values inserted as they
    are, with the column types given)."""
    jsonl = folder / "rows.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in table))
    con = _database()
    con.execute(f"CREATE OR REPLACE TABLE t ({', '.join(f'{k} {v}' for k, v in types.items())})")
    con.executemany(
        f"INSERT INTO t VALUES ({', '.join('?' for _ in types)})",
        [[r.get(k) for k in types] for r in table],
    )
    target = folder / "rows.parquet"
    con.execute(f"COPY t TO '{target}' (FORMAT parquet)")
    return jsonl, target


@pytest.mark.parametrize(
    ("few", "wide", "probe"),
    [(True, False, 1000), (True, False, 1), (False, False, 1000), (False, True, 1000)],
)
@settings(max_examples=40, deadline=None)
@given(table=st.lists(_ROW, min_size=1, max_size=40))
def test_duckdb_sums_equal_the_rows_reader(
    tmp_path_factory: pytest.TempPathFactory,
    few: bool,
    wide: bool,
    probe: int,
    table: list[dict[str, object]],
) -> None:
    """Every count, sum, square sum, range and cluster from DuckDB equals the rows reader's:
    moments from each distinct score (counted in the pass that finds the metrics, or again
    where the first rows (`probe`) miss a metric) or from each row; cluster sums from DOUBLE
    limbs or, as for a cluster too large for them (`wide`), from BIGINT limbs into HUGEINT."""
    folder = tmp_path_factory.mktemp("sums")
    jsonl, target = write(folder, table, {"metric": "VARCHAR", "score": "DOUBLE",
                                          "cluster": "VARCHAR"})  # fmt: skip
    want = rows.exact_aggregates(jsonl, "rows")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_parquet_sums, "few_scores", lambda rows, distinct: few)
        patch.setattr(_parquet_sums, "_PROBE", probe)
        if wide:
            patch.setattr(_parquet_sums, "limbs_for", lambda counts: _TOO_SMALL)
        got = parquet.aggregates([(target, "rows")])
    assert got == want


# Limbs exact in no group: every cluster goes to the WIDE limbs.
_TOO_SMALL = _parquet_sums.Limbs(4, 26, 1)
_UNIT_SCORE = st.one_of(
    st.none(),
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 2.0**-12, 2.0**-70, 5e-324, 1 - 2.0**-53]),
    st.floats(min_value=-1.0, max_value=1.0),
)
_UNIT_ROW = st.fixed_dictionaries(
    {
        "metric": st.sampled_from(["a", "b"]),
        "score": _UNIT_SCORE,
        "cluster": st.sampled_from([None, "x", "y"]),
    }
)


@pytest.mark.parametrize("wide", [False, True])
@settings(max_examples=40, deadline=None)
@given(table=st.lists(_UNIT_ROW, min_size=1, max_size=40))
def test_scores_within_one_sum_per_cluster_in_two_32_bit_limbs(
    tmp_path_factory: pytest.TempPathFactory, wide: bool, table: list[dict[str, object]]
) -> None:
    """Where every score lies within [-1, 1], the per-cluster sums take two 32-bit limbs of q,
    signed as q, and equal the rows reader's sums; and so do they where a cluster holds too
    many rows for those limbs to sum exactly, which sends every cluster to the wide limbs."""
    folder = tmp_path_factory.mktemp("unit")
    types = {"metric": "VARCHAR", "score": "DOUBLE", "cluster": "VARCHAR"}
    jsonl, target = write(folder, table, types)
    con = _database()
    con.execute(f"CREATE OR REPLACE TEMP VIEW scores AS SELECT * FROM read_parquet('{target}')")
    counts = con.execute(
        _parquet_sums.metrics_query(_parquet_reduce.columns(con, "scores"))
    ).fetchall()
    assert _parquet_sums.limbs_for(counts) == _parquet_sums.UNIT
    with pytest.MonkeyPatch.context() as patch:
        if wide:
            patch.setattr(_parquet_sums, "UNIT", attrs.evolve(_parquet_sums.UNIT, rows=1))
        assert parquet.aggregates([(target, "rows")]) == rows.exact_aggregates(jsonl, "rows")


@pytest.mark.parametrize("edge", [1.0 + 2.0**-52, -1.0 - 2.0**-52, math.nan, math.inf])
def test_a_score_beyond_one_or_not_finite_keeps_more_limbs(tmp_path: Path, edge: float) -> None:
    """One score just beyond ±1, NaN or infinity among fractions: the 32-bit limbs are not
    taken, and the sums still equal the rows reader's."""
    table: list[dict[str, object]] = [
        {"metric": "a", "score": s, "cluster": f"c{i % 2}"}
        for i, s in enumerate([0.25, -1.0, edge])
    ]
    jsonl, target = write(tmp_path, table, {"metric": "VARCHAR", "score": "DOUBLE",
                                            "cluster": "VARCHAR"})  # fmt: skip
    con = _database()
    con.execute(f"CREATE OR REPLACE TEMP VIEW scores AS SELECT * FROM read_parquet('{target}')")
    counts = con.execute(
        _parquet_sums.metrics_query(_parquet_reduce.columns(con, "scores"))
    ).fetchall()
    assert _parquet_sums.limbs_for(counts) != _parquet_sums.UNIT
    assert parquet.aggregates([(target, "rows")]) == rows.exact_aggregates(jsonl, "rows")


def test_the_top_limb_is_left_out_only_where_every_score_is_below_2_to_the_14(
    tmp_path: Path,
) -> None:
    """Per-cluster sums from three limbs where every score lies below 2^14 in magnitude, the
    same as from four; a score of 2^14, or NaN as the greatest, keeps the fourth."""
    table: list[dict[str, object]] = [
        {"metric": "a", "score": s, "cluster": f"c{i % 3}"}
        for i, s in enumerate([2.0**14 - 2.0**-38, -(2.0**14) + 2.0**-38, 0.1, 2.0**-70, 1e-300])
    ]
    types = {"metric": "VARCHAR", "score": "DOUBLE", "cluster": "VARCHAR"}
    _, target = write(tmp_path, table, types)
    con = _database()
    con.execute(f"CREATE OR REPLACE TEMP VIEW scores AS SELECT * FROM read_parquet('{target}')")
    c = _parquet_reduce.columns(con, "scores")
    counts = con.execute(_parquet_sums.metrics_query(c)).fetchall()
    assert _parquet_sums.limbs_for(counts) == _parquet_sums.SMALL
    three, four = (
        con.execute(_parquet_sums.clusters_query(c, True, limbs)).fetchall()
        for limbs in (_parquet_sums.SMALL, _parquet_sums.FULL)
    )
    assert len(three[0]) == len(four[0]) - 1
    assert _parquet_sums.assemble([], three, None, "p", c, 26) == _parquet_sums.assemble(
        [], four, None, "p", c, 26
    )
    for edge in (2.0**14, -(2.0**14), math.nan):
        wider = [*table, {"metric": "a", "score": edge, "cluster": "c0"}]
        _, target = write(tmp_path, wider, types)
        con.execute(f"CREATE OR REPLACE TEMP VIEW scores AS SELECT * FROM read_parquet('{target}')")
        counts = con.execute(_parquet_sums.metrics_query(c)).fetchall()
        assert _parquet_sums.limbs_for(counts) == _parquet_sums.FULL


@pytest.mark.parametrize("metrics", [58, 59, 70, 117])
def test_repeats_are_found_however_many_metrics(tmp_path: Path, metrics: int) -> None:
    """Metrics are counted 58 to a word (and found in an ENUM past 58): with as many metrics as
    fill one word, one more, and several words, a sample scored twice by the last metric is an
    input error, and every metric scoring each sample once is not; the sums are the rows
    reader's."""
    last = f"m{metrics - 1:03d}"
    table: list[dict[str, object]] = [
        {
            "metric": f"m{k:03d}",
            "score": (i + k) % 3 / 2,
            "sample_id": f"s{i}",
            "cluster": f"c{i % 2}",
        }
        for i in range(3)
        for k in range(metrics)
    ]
    types = {"metric": "VARCHAR", "score": "DOUBLE", "sample_id": "VARCHAR", "cluster": "VARCHAR"}
    jsonl, target = write(tmp_path, table, types)
    assert parquet.aggregates([(target, "p")]) == rows.exact_aggregates(jsonl, "p")
    table.append({"metric": last, "score": 0.0, "sample_id": "s1", "cluster": "c1"})
    _, target = write(tmp_path, table, types)
    with pytest.raises(OutputError, match=f"sample_id 's1' appears twice for metric '{last}'"):
        parquet.aggregates([(target, "p")])


def test_integer_ids_and_epochs_repeat_as_in_the_rows_reader(tmp_path: Path) -> None:
    """Integer sample ids with epochs: a sample's epochs are one sample (epoch 0 is none), the
    same id and epoch twice is an input error, in Parquet as in JSONL."""
    types = {"metric": "VARCHAR", "score": "DOUBLE", "sample_id": "BIGINT", "epoch": "INTEGER"}
    table: list[dict[str, object]] = [
        {"metric": "m", "score": 1.0, "sample_id": 7, "epoch": 1},
        {"metric": "m", "score": 0.0, "sample_id": 7, "epoch": 2},
        {"metric": "m", "score": 1.0, "sample_id": 7, "epoch": 0},
        {"metric": "m", "score": 0.0, "sample_id": 8, "epoch": 1},
    ]
    jsonl, target = write(tmp_path, table, types)
    got, want = parquet.aggregates([(target, "p")]), rows.exact_aggregates(jsonl, "p")
    assert got == want and want.metrics["m"].moments.n == 2
    assert want.metrics["m"].moments.total == 2 * aggregate.SCALE // 3
    table.append({"metric": "m", "score": 1.0, "sample_id": 7, "epoch": None})
    jsonl, target = write(tmp_path, table, types)
    for read in (
        lambda: parquet.aggregates([(target, "p")]),
        lambda: rows.exact_aggregates(jsonl, "p"),
    ):
        with pytest.raises(OutputError, match="sample_id '?7'? appears twice for metric 'm'"):
            read()


# Rows with epochs: a few samples, each named in one cluster, scored in one epoch or several.
_EPOCH_ROW = st.fixed_dictionaries(
    {
        "metric": st.sampled_from(["a", "b"]),
        "score": st.one_of(st.none(), st.sampled_from([0.0, 1.0, 0.5, math.nan, 2.0**-70])),
        "sample_id": st.one_of(st.none(), st.sampled_from(["s1", "s2", "s3", "s4", ""])),
        "epoch": st.one_of(st.none(), st.integers(1, 3)),
    }
)


def _one_cluster_a_sample(table: list[dict[str, object]]) -> list[dict[str, object]]:
    """The rows less repeats of (metric, sample, epoch), each sample in the cluster its id
    names (s4 in none), so that every path reads them without an input error."""
    seen: set[tuple[object, ...]] = set()
    kept = []
    for row in table:
        sample = row["sample_id"]
        if sample:
            key = (row["metric"], sample, row["epoch"] or None)
            if key in seen:
                continue
            seen.add(key)
        kept.append({**row, "cluster": f"c{sample}" if sample and sample != "s4" else None})
    return kept


@pytest.mark.parametrize("share", [0.0, 2.0], ids=["every sample reduced", "several apart"])
@settings(max_examples=40, deadline=None)
@given(table=st.lists(_EPOCH_ROW, min_size=1, max_size=30))
def test_epochs_reduce_alike_all_at_once_or_only_where_several(
    tmp_path_factory: pytest.TempPathFactory, share: float, table: list[dict[str, object]]
) -> None:
    """Rows with epochs give the rows reader's sums whether every sample is reduced or only
    the samples scored in several epochs are, the rest summed as rows."""
    folder = tmp_path_factory.mktemp("epochs")
    types = {"metric": "VARCHAR", "score": "DOUBLE", "sample_id": "VARCHAR", "epoch": "INTEGER",
             "cluster": "VARCHAR"}  # fmt: skip
    jsonl, target = write(folder, _one_cluster_a_sample(table), types)
    want = rows.exact_aggregates(jsonl, "p")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_parquet_reduce, "SEVERAL_SHARE", share)
        assert parquet.aggregates([(target, "p")]) == want


@pytest.mark.parametrize("epochs", [False, True])
def test_ids_that_only_share_a_hash_are_no_repeat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, epochs: bool
) -> None:
    """The repeat check groups samples by the hash of their ids; where it sees a repeat that is
    not one (as two ids of one hash would look), the exact check finds none and the rows are
    read, to the rows reader's sums."""
    table: list[dict[str, object]] = [
        {"metric": m, "score": (i % 3) / 2, "sample_id": f"s{i}", "epoch": 1 + i % 2}
        for i in range(6)
        for m in ("a", "b")
    ]
    types = {"metric": "VARCHAR", "score": "DOUBLE", "sample_id": "VARCHAR"}
    if epochs:
        types["epoch"] = "INTEGER"
    else:
        table = [{k: v for k, v in r.items() if k != "epoch"} for r in table]
    jsonl, target = write(tmp_path, table, types)
    several = _parquet_samples.several_query
    monkeypatch.setattr(_parquet_samples, "repeats_query", lambda c, metrics: "SELECT 1")
    monkeypatch.setattr(
        _parquet_samples,
        "several_query",
        lambda c, metrics: several(c, metrics).replace("bool_or(rows <> bits)", "true"),
    )
    assert parquet.aggregates([(target, "p")]) == rows.exact_aggregates(jsonl, "p")
