"""DuckDB's fast sums over Parquet equal the rows reader's exactly, on any scores the format takes:
signs, zeros, the smallest and largest magnitudes, NaN and infinities, missing scores, rows with
and without clusters; whichever way the per-metric sums are grouped; and the repeated-sample
check is exact past 64 metrics and with integer ids and epochs."""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalglass.errors import OutputError
from evalglass.evidence import aggregate
from evalglass.evidence.adapters import _parquet_sums, parquet, rows

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


@pytest.mark.parametrize("few", [True, False])
@settings(max_examples=40, deadline=None)
@given(table=st.lists(_ROW, min_size=1, max_size=40))
def test_duckdb_sums_equal_the_rows_reader(
    tmp_path_factory: pytest.TempPathFactory, few: bool, table: list[dict[str, object]]
) -> None:
    """Every count, sum, square sum, range and cluster from DuckDB equals the rows reader's."""
    folder = tmp_path_factory.mktemp("sums")
    jsonl, target = write(folder, table, {"metric": "VARCHAR", "score": "DOUBLE",
                                          "cluster": "VARCHAR"})  # fmt: skip
    want = rows.exact_aggregates(jsonl, "rows")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_parquet_sums, "few_scores", lambda counts: few)
        got = parquet.aggregates([(target, "rows")])
    assert got == want


def test_repeats_are_found_past_64_metrics(tmp_path: Path) -> None:
    """With 70 metrics (masks of 64), a sample scored twice by one metric is an input error,
    and 70 metrics each scoring a sample once are not."""
    table: list[dict[str, object]] = [
        {"metric": f"m{k}", "score": 1.0, "sample_id": f"s{i}"} for i in range(3) for k in range(70)
    ]
    types = {"metric": "VARCHAR", "score": "DOUBLE", "sample_id": "VARCHAR"}
    _, target = write(tmp_path, table, types)
    assert len(parquet.aggregates([(target, "p")]).metrics) == 70
    table.append({"metric": "m67", "score": 0.0, "sample_id": "s1"})
    _, target = write(tmp_path, table, types)
    with pytest.raises(OutputError, match="sample_id 's1' appears twice for metric 'm67'"):
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
    for read in (lambda: parquet.aggregates([(target, "p")]), lambda: rows.exact_aggregates(jsonl, "p")):
        with pytest.raises(OutputError, match="sample_id '?7'? appears twice for metric 'm'"):
            read()
