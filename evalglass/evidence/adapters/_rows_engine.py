"""Generic rows in JSONL or CSV reduced by DuckDB when the `parquet` extra is installed: the file
is read once into a table of typed columns, every value checked to be one the rows reader reads
the same way, then reduced by the Parquet path's queries, so the three formats give the same
numbers.

DuckDB's readers take some values the rows reader refuses or reads otherwise (a number as a
metric becomes text, `true` as an id becomes "true", `nan` is a number). So each JSON column is
read as raw JSON (each CSV cell as text) and typed by the SQL each column's declaration holds
beside the rows reader's rule (`_row_columns`); a value outside what these rules cover, any
error of DuckDB's, or any input error the queries find gives None, and the caller reads the
file with the exact reader, which names the line. Must not decide anything the rows reader
would decide otherwise.
"""

from __future__ import annotations

import csv
import io
import os
import stat
from pathlib import Path
from typing import Any

from evalglass.errors import OutputError
from evalglass.evidence import aggregate
from evalglass.evidence.adapters import parquet
from evalglass.evidence.adapters._parquet_columns import quoted
from evalglass.evidence.adapters._parquet_reduce import reduce_scores, trim
from evalglass.evidence.adapters._row_columns import NAMES, typed

# Files smaller than this are read faster by the rows reader than by DuckDB, which starts,
# scans the lines and loads a table first (docs/scale.md, "Which path"). CSV, which the rows
# reader takes a row at a time: about even at 4 MB. JSON lines, which it takes a block at a
# time, with or without epochs: even in wall time near a million rows (100 MB), where DuckDB
# still takes more CPU on two cores and twice the memory.
FROM_BYTES = {"csv": 4 << 20, "jsonl": 128 << 20}
_ROWS = "evalglass_rows"


def aggregates(path: Path, shown: str) -> aggregate.Aggregates | None:
    """The file's sufficient statistics, reduced by DuckDB; None when the file is small (below
    `FROM_BYTES`), or DuckDB is not installed, or it cannot vouch that the rows reader would
    read every value the same way, or it finds an input error (the rows reader then reads the
    file, and names the line)."""
    try:
        found = os.stat(path)
        table = path.suffix.lower() == ".csv"
        least = FROM_BYTES["csv" if table else "jsonl"]
        if not stat.S_ISREG(found.st_mode) or found.st_size < least:
            return None
        import duckdb  # noqa: F401  (only whether it is there)
    except (ImportError, OSError):
        return None
    try:
        if _starts_with_bom(path):
            return None
        with parquet.connected(shown) as (con, placed):
            [link] = placed.paths([(path, shown)])
            if table:
                source = _csv_source(path, link)
                if source is None:
                    return None
            else:
                if _json_suspect(con, link):
                    return None
                trim(con)
                source = _json_source(link)
            loose = _load(con, source)
            sums = reduce_scores(con, shown, not table, lambda: _unload(con), loose)
    except (OutputError, OSError, UnicodeDecodeError, csv.Error):
        return None
    # A score beyond the exact range is an input error, which the rows reader names by line.
    if any(m.moments.out_of_range for m in sums.metrics.values()):
        return None
    return sums


def _starts_with_bom(path: Path) -> bool:
    # DuckDB skips a byte-order mark; the rows reader refuses the first line (JSON) or reads the
    # mark as part of the first column's name (CSV).
    with open(path, "rb") as stream:
        return stream.read(3) == b"\xef\xbb\xbf"


# Whether a line may hold what DuckDB's JSON reader takes and Python's json (the rows reader)
# refuses, anywhere in the line, in a column evalglass reads or not: a vertical tab or form feed
# (DuckDB trims them off a line's ends, as whitespace), a byte-order mark, a trailing comma,
# `nan` or `inf` in any spelling but Python's `NaN`, `Infinity`, `-Infinity`, nesting too deep
# for Python's parser, an integer of more digits than Python converts. Each test may also match
# a string that only looks so (then the rows reader reads the file: slower, never otherwise).
# A regular expression a line costs DuckDB more than the rest of the scan unless it opens with
# one fixed character (in either case), as these do: every spelling of nan or inf holds an `n`
# followed by `an` or `f`, and only such lines are tested closely. 8 MiB buffers: smaller cost
# more CPU (2 MiB: three times the scan), larger more memory (the default: 50 MB more).
_SPELLED = r"[:,\[]\s*[-+]?(?i:nan|inf)"
_PYTHONS = r"[:,\[]\s*(NaN|-?Infinity)"
_SUSPECT = f"""SELECT 1 FROM read_csv(?, columns = {{'line': 'VARCHAR'}}, header = false,
  auto_detect = false, delim = ?, quote = '', escape = '', strict_mode = true,
  buffer_size = 8388608)
WHERE contains(line, chr(11)) OR contains(line, chr(12)) OR contains(line, chr(65279))
  OR regexp_matches(line, ',\\s*[\\]}}]')
  OR regexp_matches(line, '(?i)n(?:an|f)')
    AND len(regexp_extract_all(line, '{_SPELLED}')) <> len(regexp_extract_all(line, '{_PYTHONS}'))
  OR strlen(line) >= 200 AND (strlen(line) - strlen(translate(line, '[{{', '')) >= 200
    OR strlen(line) >= 4000 AND list_max(list_transform(regexp_extract_all(line, '[0-9]+'),
      lambda d: strlen(d))) >= 4000)
LIMIT 1"""


def _json_suspect(con: Any, link: str) -> bool:
    """Whether some line may be read by DuckDB where the rows reader refuses it (`_SUSPECT`):
    one scan of the lines as text, which DuckDB splits at newlines alone (a delimiter no JSON
    line holds raw)."""
    return con.execute(_SUSPECT, [link, "\x1f"]).fetchone() is not None


def _json_source(link: str) -> tuple[str, str]:
    """The rows, each column typed from its JSON text by its declaration (`_row_columns`), and
    the condition that a row's values are ones vouched for. A value's JSON type is told by its
    text's first character (a string opens with a quote), cheaper than asking DuckDB's JSON
    functions, which parse the value again."""
    columns = ", ".join(f"{quoted(name)}: 'JSON'" for name in NAMES)
    reader = (f"read_json({quoted(link)}, format = 'newline_delimited', compression = 'none', "
              f"columns = {{{columns}}})")  # fmt: skip
    texts = ", ".join(f"CAST({name} AS VARCHAR) AS t_{name}" for name in NAMES)
    return typed(f"SELECT {texts} FROM {reader}", json=True)


def _csv_source(path: Path, link: str) -> tuple[str, str] | None:
    """The rows of a CSV file as text, and the condition that a row's values are ones vouched
    for; None when the file holds a double quote anywhere, or its header repeats a name or lacks
    metric or score.

    Python's csv module reads a malformed quoted field leniently (`"a" ,1` is the metric `a `)
    where DuckDB reads it otherwise, so only files without quotes are read here, with quoting
    off: then both split each line at every comma. A scan for the byte costs little beside the
    read."""
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            if b'"' in chunk:
                return None
    with open(path, "rb") as stream:
        head = stream.readline()
    try:
        names = head.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError:
        return None
    header = next(csv.reader(io.StringIO(names)), [])
    if "\r" in names or len(set(header)) != len(header):
        return None
    if not {"metric", "score"} <= set(header):
        return None
    columns = ", ".join(f"{quoted(name)}: 'VARCHAR'" for name in header)
    reader = (f"read_csv({quoted(link)}, header = true, auto_detect = false, delim = ',', "
              "quote = '', escape = '', strict_mode = true, null_padding = false, "
              f"compression = 'none', columns = {{{columns}}})")  # fmt: skip

    def column(name: str) -> str:
        return f'"{name}"' if name in header else "CAST(NULL AS VARCHAR)"

    texts = ", ".join(f"{column(name)} AS t_{name}" for name in NAMES)
    return typed(f"SELECT {texts} FROM {reader}", json=False)


def _load(con: Any, source: tuple[str, str]) -> bool:
    """The rows of `source` (a query and the condition its rows must meet), typed, in a table
    of our own, and the view `scores` over it with the columns the rows name: read once, where
    each of the queries after would read the file again. A row not vouched for stops DuckDB
    there, with an error. Whether some row names no cluster (its cluster is null: the source
    reads '' as null)."""
    rows, vouched = source
    con.execute(
        f"CREATE TEMP TABLE {_ROWS} AS SELECT metric, score, sample_id, cluster, model, epoch "
        f"FROM ({rows}) WHERE {vouched} OR error('evalglass: not vouched for')"
    )
    rows, ids, clusters, models, epochs = con.execute(
        f"SELECT count(*), count(sample_id), count(cluster), count(model), count(epoch) "
        f"FROM {_ROWS}"
    ).fetchone()
    # A column no row fills is left out, as absent from a Parquet file.
    named = ["metric", "score"] + [
        name
        for name, present in (
            ("sample_id", ids), ("cluster", clusters), ("model", models), ("epoch", epochs)
        )
        if present
    ]  # fmt: skip
    con.execute(f"CREATE TEMP VIEW scores AS SELECT {', '.join(named)} FROM {_ROWS}")
    # What the reading held beside the table (its buffers) goes back before the passes.
    trim(con)
    return bool(clusters < rows)


def _unload(con: Any) -> None:
    """The typed rows dropped, once read, and their memory given back before Python builds the
    result."""
    con.execute(f"DROP TABLE IF EXISTS {_ROWS}")
    trim(con)
