"""Parquet rows through DuckDB, and the SQL `evalglass sql` prints: the same rows give the same
scorecard, byte for byte, as the JSONL rows reader."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from evalglass.evidence import aggregate, sql
from evalglass.evidence.adapters import rows as rows_adapter
from tests.cli_runner import cli
from tests.scale_rows import generated, write_jsonl, write_parquet
from tests.shell.test_cli import EXAMPLE_RECORDS


def scorecard(target: Path, cwd: Path) -> str:
    # One fixed evaluation time, so two scorecards compare byte for byte.
    result = cli(
        "score",
        str(target),
        "--records",
        str(EXAMPLE_RECORDS),
        "--format",
        "json",
        "--as-of",
        "2026-11-30",
        cwd=cwd,
    )
    assert result.returncode in (0, 3), result.stderr
    return result.stdout


def test_parquet_scorecard_is_byte_identical_to_jsonl(tmp_path: Path) -> None:
    """Clusters, missing scores, three metrics: Parquet and JSONL give the same scorecard bytes."""
    rows = generated()
    write_jsonl(tmp_path / "scores.jsonl", rows)
    write_parquet(tmp_path / "scores.parquet", rows)
    from_jsonl = scorecard(Path("scores.jsonl"), tmp_path)
    from_parquet = scorecard(Path("scores.parquet"), tmp_path)
    assert '"method": "clustered"' in from_jsonl and '"missing": 60' in from_jsonl
    assert from_parquet.replace("scores.parquet", "scores.jsonl") == from_jsonl


def test_a_folder_of_parquet_files_is_one_table(tmp_path: Path) -> None:
    """Four Parquet files in a folder (or a quoted glob) are read together, as one dataset."""
    rows = generated(seed=1, count=800)
    write_jsonl(tmp_path / "scores.jsonl", rows)
    write_parquet(tmp_path / "parts", rows, files=4)

    def metrics(target: str) -> list[dict[str, object]]:
        found = json.loads(scorecard(Path(target), tmp_path))["metrics"]
        return [{k: v for k, v in m.items() if k != "source"} for m in found]

    want = metrics("scores.jsonl")
    assert metrics("parts") == want and metrics("parts/*.parquet") == want
    measured = [
        m
        for m in json.loads(scorecard(Path("parts"), tmp_path))["metrics"]
        if not m["id"].startswith("check/")
    ]  # the example's host checks, not run
    assert measured[0]["source"] == "parts/part-0.parquet (+3 more)"


def test_a_duplicate_sample_id_in_parquet_is_an_input_error(tmp_path: Path) -> None:
    """A sample id twice for one metric is exit 4 with the rows reader's message, across files."""
    rows = generated(count=50)
    rows.append(dict(rows[3]))
    write_parquet(tmp_path / "parts", rows, files=2)
    result = cli("score", "parts", "--records", str(EXAMPLE_RECORDS), cwd=tmp_path)
    assert result.returncode == 4 and result.stdout == ""
    assert result.stderr.strip().endswith("sample_id 's1' appears twice for metric 'qa/exact'")
    assert len(result.stderr.strip().splitlines()) == 1


def test_parquet_without_duckdb_names_the_extra(tmp_path: Path) -> None:
    """Without DuckDB installed, a Parquet input is exit 4 with one line naming the extra."""
    write_parquet(tmp_path / "scores.parquet", generated(count=10))
    hide = (
        "import sys; sys.modules['duckdb'] = None; from evalglass.__main__ import main; "
        "sys.argv = ['evalglass', 'score', 'scores.parquet', '--records', sys.argv[1]]; main()"
    )
    result = subprocess.run(
        [sys.executable, "-c", hide, str(EXAMPLE_RECORDS)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 4
    assert result.stderr.splitlines() == [
        (
            "evalglass: scores.parquet: reading Parquet needs DuckDB: pip install 'duckdb>=1.1' "
            "(evalglass's 'parquet' extra)"
        )
    ]


def test_the_printed_duckdb_query_gives_the_python_aggregates(tmp_path: Path) -> None:
    """`evalglass sql --dialect duckdb` run by DuckDB gives exactly the rows reader's sums, and
    its CSV export scores like the JSONL rows."""
    rows = generated(seed=2, count=500)
    source = write_jsonl(tmp_path / "scores.jsonl", rows)
    printed = cli("sql", "--dialect", "duckdb", "--table", "evals", cwd=tmp_path)
    assert printed.returncode == 0
    con = duckdb.connect()
    write_parquet(tmp_path / "evals.parquet", rows)
    con.execute(f"CREATE VIEW evals AS SELECT * FROM '{tmp_path / 'evals.parquet'}'")
    cursor = con.execute(printed.stdout)
    names = [d[0] for d in cursor.description]
    assert tuple(names) == sql.RESULT
    got = sql.groups_to_aggregates((dict(zip(names, r)) for r in cursor.fetchall()), "sql")
    want = rows_adapter.exact_aggregates(source, "sql")
    assert got == want
    con.execute(
        f"COPY ({printed.stdout.rstrip().rstrip(';')}) TO '{tmp_path / 'agg.csv'}' (HEADER)"
    )
    from_csv = scorecard(Path("agg.csv"), tmp_path)
    assert from_csv.replace("agg.csv", "scores.jsonl") == scorecard(Path("scores.jsonl"), tmp_path)


def test_the_scale_docs_duckdb_recipe_runs_on_files_of_metric_and_score(tmp_path: Path) -> None:
    """docs/scale.md's DuckDB lines, on Parquet files with only `metric` and `score`: the query
    (`--optional-columns ''`) runs inside COPY as printed, and its CSV scores like the rows."""
    rows = [{"metric": r["metric"], "score": r["score"]} for r in generated(seed=3, count=300)]
    source = write_jsonl(tmp_path / "scores.jsonl", rows)
    (tmp_path / "scores").mkdir()
    con = duckdb.connect()
    table = f"read_json('{source}', columns={{'metric': 'VARCHAR', 'score': 'DOUBLE'}})"
    for k in range(2):
        part = tmp_path / "scores" / f"part-{k}.parquet"
        con.execute(
            f"COPY (SELECT * FROM {table} WHERE hash(metric, score) % 2 = {k}) TO '{part}' "
            "(FORMAT parquet)"
        )
    printed = cli(
        "sql", "--dialect", "duckdb", "--table", "'scores/*.parquet'", "--optional-columns", "",
        cwd=tmp_path,
    )  # fmt: skip
    assert printed.returncode == 0, printed.stderr
    at_root = duckdb.connect()
    at_root.execute(f"SET file_search_path = '{tmp_path}'")
    at_root.execute(f"COPY ({printed.stdout}) TO '{tmp_path / 'aggregates.csv'}' (HEADER)")
    from_csv = scorecard(Path("aggregates.csv"), tmp_path)
    assert from_csv.replace("aggregates.csv", "scores.jsonl") == scorecard(
        Path("scores.jsonl"), tmp_path
    )


@pytest.mark.parametrize("dialect", [d.value for d in sql.Dialect])
def test_every_dialect_prints_the_same_columns(dialect: str, tmp_path: Path) -> None:
    """Each dialect's query selects the documented result columns, over the table named."""
    printed = cli("sql", "--dialect", dialect, "--table", "proj.evals", cwd=tmp_path)
    assert printed.returncode == 0
    assert "FROM proj.evals" in printed.stdout
    for column in sql.RESULT:
        assert f" AS {column}" in printed.stdout or f"  {column}," in printed.stdout


@pytest.mark.parametrize("dialect", [d.value for d in sql.Dialect])
def test_every_dialect_reduces_epochs_when_the_table_has_them(dialect: str, tmp_path: Path) -> None:
    """Naming sample_id and epoch, each dialect's query reduces each sample's rows to one first
    (and still selects the documented columns); epoch without sample_id is a usage error."""
    printed = cli(
        "sql", "--dialect", dialect, "--optional-columns", "cluster,sample_id,epoch", cwd=tmp_path
    )
    assert printed.returncode == 0
    assert "GROUP BY metric, sample\n" in printed.stdout and "UNION ALL" in printed.stdout
    for column in sql.RESULT:
        assert f" AS {column}" in printed.stdout or f"  {column}," in printed.stdout
    alone = cli("sql", "--dialect", dialect, "--optional-columns", "epoch", cwd=tmp_path)
    assert alone.returncode == 2 and "epoch needs sample_id" in alone.stderr


def test_an_unknown_dialect_is_a_usage_error(tmp_path: Path) -> None:
    """`--dialect oracle` is exit 2, naming the dialects there are."""
    result = cli("sql", "--dialect", "oracle", cwd=tmp_path)
    assert result.returncode == 2 and "duckdb, spark, bigquery, postgres" in result.stderr


def test_scores_beyond_the_exact_range_are_refused(tmp_path: Path) -> None:
    """A score of 1e300 is an input error in Parquet as in JSONL, never a silently rounded sum."""
    rows = [
        {"metric": "m", "score": 1e300, "sample_id": "a"},
        {"metric": "m", "score": 0.5, "sample_id": "b"},
    ]
    write_jsonl(tmp_path / "big.jsonl", rows)
    write_parquet(tmp_path / "big.parquet", rows)
    for name in ("big.jsonl", "big.parquet"):
        result = cli("score", name, "--records", str(EXAMPLE_RECORDS), cwd=tmp_path)
        assert result.returncode == 4 and "2^40" in result.stderr, result.stderr
    assert aggregate.LIMIT == 2.0**40


@pytest.mark.parametrize("name", ["scores[1].parquet", "~/scores.parquet", "s*?.parquet"])
def test_duckdb_reads_the_file_named_never_a_pattern(name: str, tmp_path: Path) -> None:
    """A file whose name DuckDB would read as a pattern (`[1]`, a folder named `~`, `*`, `?`)
    is read as itself: never `scores1.parquet`, the home folder or another match."""
    decoy = [{"metric": "qa/exact", "score": 1, "sample_id": "d"}]
    rows = [{"metric": "qa/exact", "score": 0, "sample_id": f"s{i}"} for i in range(3)]
    for other in ("scores1.parquet", "s1.parquet", "sab.parquet"):
        write_parquet(tmp_path / other, decoy)
    (tmp_path / "~").mkdir()
    write_parquet(tmp_path / name, rows)
    (measured,) = [m for m in json.loads(scorecard(Path(name), tmp_path))["metrics"]
                   if m["id"] == "qa/exact"]  # fmt: skip
    assert (measured["value"], measured["n"]) == (0.0, 3)
