"""Generated generic rows (several metrics, clusters, missing scores) written as JSONL and as
Parquet, for the tests that check every path gives the same numbers."""

from __future__ import annotations

import json
import random
from pathlib import Path

COLUMNS = {
    "metric": "VARCHAR",
    "score": "DOUBLE",
    "sample_id": "VARCHAR",
    "cluster": "VARCHAR",
    "model": "VARCHAR",
}


def generated(seed: int = 0, count: int = 3000) -> list[dict[str, object]]:
    """Pass/fail, graded and unbounded metrics; two of them clustered, some scores missing."""
    rng = random.Random(seed)
    rows: list[dict[str, object]] = []
    for i in range(count):
        sample = f"s{i}"
        cluster = f"doc-{i % 37}"
        rows.append(
            {
                "metric": "qa/exact",
                "score": int(rng.random() < 0.8),
                "sample_id": sample,
                "model": "acme/x",
            }
        )
        rows.append(
            {
                "metric": "qa/graded",
                "score": None if i % 50 == 0 else round(rng.random(), 3),
                "sample_id": sample,
                "cluster": cluster,
                "model": "acme/x",
            }
        )
        rows.append(
            {
                "metric": "qa/latency",
                "score": rng.lognormvariate(3, 1) * 1000,
                "sample_id": sample,
                "cluster": cluster if i % 3 else None,
                "model": "acme/x",
            }
        )
    return rows


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def write_parquet(path: Path, rows: list[dict[str, object]], files: int = 1) -> Path:
    """The rows as Parquet, written by DuckDB; with `files` > 1, a folder of that many files."""
    import duckdb

    source = write_jsonl(path.with_suffix(".source.jsonl"), rows)
    con = duckdb.connect()
    columns = ", ".join(f"'{k}': '{v}'" for k, v in COLUMNS.items())
    table = f"read_json('{source}', columns={{{columns}}})"
    if files == 1:
        con.execute(f"COPY (SELECT * FROM {table}) TO '{path}' (FORMAT parquet)")
    else:
        path.mkdir()
        for k in range(files):
            part = path / f"part-{k}.parquet"
            con.execute(
                f"COPY (SELECT * EXCLUDE (r) FROM (SELECT *, row_number() OVER () AS r FROM {table}) "
                f"WHERE r % {files} = {k}) TO '{part}' (FORMAT parquet)"
            )
    source.unlink()
    return path
