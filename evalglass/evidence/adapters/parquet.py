"""Generic rows in Parquet, reduced by DuckDB (the optional extra `evalglass[parquet]`): the
same columns, rules and sufficient statistics as the rows reader, computed out of core.

Recognising a Parquet file reads its magic bytes only; DuckDB loads when a file is read. Every
Parquet file given in one run is read as one table, so a sample id repeated across files is
found like one repeated within a file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evalglass.errors import OutputError
from evalglass.evidence import aggregate, sql
from evalglass.evidence.adapters._common import one_line
from evalglass.evidence.model import Measurement
from evalglass.evidence.registry import Adapter

MAGIC = b"PAR1"
INSTALL = "pip install 'evalglass[parquet]'"
# DuckDB's own memory, spilling to a temporary folder beyond it; overridable for big machines.
MEMORY_LIMIT = os.environ.get("EVALGLASS_DUCKDB_MEMORY", "600MB")


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    return read_together([(path, shown)])


def read_together(files: Sequence[tuple[Path, str]]) -> tuple[Measurement, ...]:
    return aggregate.measurements(aggregates(files), tuple(shown for _, shown in files))


def aggregates(files: Sequence[tuple[Path, str]]) -> aggregate.Aggregates:
    """The sufficient statistics of every row of every file, as one table."""
    first = files[0][1]
    try:
        import duckdb
    except ImportError:
        raise OutputError(first, f"reading Parquet needs DuckDB: {INSTALL}") from None
    try:
        # Spills go to a folder of our own, never beside the user's files.
        with tempfile.TemporaryDirectory(prefix="evalglass-duckdb-") as spill, duckdb.connect(
            config={"memory_limit": MEMORY_LIMIT, "temp_directory": spill}
        ) as con:
            return _aggregate(con, [os.fspath(p) for p, _ in files], first)
    except duckdb.Error as exc:
        raise OutputError(first, f"cannot read as Parquet rows: {one_line(exc)}") from exc


def _aggregate(con: Any, paths: list[str], shown: str) -> aggregate.Aggregates:
    # A view takes no parameters: the paths are quoted as SQL string literals.
    listed = ", ".join("'" + p.replace("'", "''") + "'" for p in paths)
    con.execute(
        f"CREATE TEMP VIEW scores AS SELECT * FROM read_parquet([{listed}], union_by_name = true)"
    )
    columns = {row[0] for row in con.execute("DESCRIBE scores").fetchall()}
    lacking = [c for c in ("metric", "score") if c not in columns]
    if lacking:
        raise OutputError(shown, f"Parquet rows lack column(s) {', '.join(lacking)}")
    blank = con.execute(
        "SELECT count(*) FROM scores WHERE metric IS NULL OR CAST(metric AS VARCHAR) = ''"
    ).fetchone()
    if blank and blank[0]:
        raise OutputError(shown, "metric: expected a non-empty string (a row has none)")
    if "sample_id" in columns:
        _refuse_duplicates(con, "epoch" in columns, shown)
    cursor = con.execute(sql.query(sql.Dialect.DUCKDB, "scores", [c for c in sql.OPTIONAL if c in columns]))
    names = [d[0] for d in cursor.description]
    groups = (dict(zip(names, row, strict=True)) for row in cursor.fetchall())
    return sql.groups_to_aggregates(groups, shown)


def _refuse_duplicates(con: Any, epochs: bool, shown: str) -> None:
    """A sample id twice for one metric (and epoch) is an input error, as in the rows reader."""
    epoch = "coalesce(NULLIF(CAST(epoch AS VARCHAR), '0'), '')" if epochs else "''"
    found = con.execute(
        f"""SELECT metric, CAST(sample_id AS VARCHAR) AS id FROM scores
        WHERE sample_id IS NOT NULL AND CAST(sample_id AS VARCHAR) <> ''
        GROUP BY metric, id, {epoch} HAVING count(*) > 1 ORDER BY metric, id LIMIT 1"""
    ).fetchone()
    if found:
        metric, sample_id = found
        raise OutputError(shown, f"sample_id {sample_id!r} appears twice for metric '{metric}'")


def sniff(path: Path, head: bytes) -> bool:
    return head.startswith(MAGIC)


ADAPTER = Adapter(
    name="parquet",
    recognises="Parquet rows (PAR1) with metric and score columns",
    sniff=sniff,
    read=read,
    rank=1,
    read_together=read_together,
)
