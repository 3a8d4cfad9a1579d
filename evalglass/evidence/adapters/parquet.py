"""Generic rows in Parquet, reduced by DuckDB (the optional extra `evalglass[parquet]`): the
same columns, rules and sufficient statistics as the rows reader, computed out of core.

Recognising a Parquet file reads its magic bytes only; DuckDB loads when a file is read. Every
Parquet file given in one run is read as one table, so a sample id repeated across files is
found like one repeated within a file. A baseline's rows file is read here too, and paired with
the current files by sample id inside DuckDB (`with_baseline`).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalglass.errors import OutputError, install_hint
from evalglass.evidence import aggregate
from evalglass.evidence.adapters._common import one_line
from evalglass.evidence.format_docs import NO_DATASET, ONE_FILE_RUNS, ROWS_COUNTING, FormatDocs
from evalglass.evidence.model import Measurement
from evalglass.evidence.registry import Adapter

if TYPE_CHECKING:
    from evalglass.evidence.model import PairedSums

# Recognising a file needs its magic bytes alone: the reading machinery (the temporary folder,
# the queries) is imported by the functions that read, so that scoring another format never
# loads it.

MAGIC = b"PAR1"


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    """One Parquet file's measurements: `read_together` of that file alone."""
    return read_together([(path, shown)])


def read_together(files: Sequence[tuple[Path, str]]) -> tuple[Measurement, ...]:
    """The measurements of every Parquet file given in one run, reduced by DuckDB as one table,
    so a sample id repeated across files is found as within one. OutputError when DuckDB (the
    `parquet` extra) is missing or cannot read the rows."""
    return aggregate.measurements(aggregates(files), tuple(shown for _, shown in files))


def aggregates(files: Sequence[tuple[Path, str]]) -> aggregate.Aggregates:
    """The sufficient statistics of every row of every file, as one table."""
    first = files[0][1]
    with connected(first) as (con, placed):
        return _aggregate(con, placed.paths(files), first)


def with_baseline(
    baseline: tuple[Path, str], current: Sequence[tuple[Path, str]], metrics: Sequence[str]
) -> tuple[aggregate.Aggregates, Mapping[str, PairedSums]]:
    """A baseline rows file's sufficient statistics, the same numbers scoring it would give;
    and, given the current Parquet files, each of `metrics` paired between the two by sample
    id, reduced in DuckDB (no row reaches Python). A metric with no pair has no entry.
    OutputError, naming the baseline file, when DuckDB is missing or cannot read the rows, or
    the baseline repeats a sample id."""
    from evalglass.evidence.adapters import _parquet_pairs as pairs
    from evalglass.evidence.adapters._parquet_reduce import columns

    shown = baseline[1]
    with connected(shown) as (con, placed):
        then_paths = placed.paths([baseline])
        found = _aggregate(con, then_paths, shown)
        if not current or not metrics:
            return found, {}
        sides = []
        for view, paths in (
            ("evalglass_then", then_paths),
            ("evalglass_now", placed.paths(current)),
        ):
            con.execute(f"CREATE TEMP VIEW {view} AS SELECT * FROM {_parquet(paths)}")
            sides.append(columns(con, view))
        then, now = sides
        if not (now.has("sample_id") and then.has("sample_id")):
            return found, {}
        return found, pairs.assemble(con.execute(pairs.pairs_query(now, then, metrics)).fetchall())


@contextlib.contextmanager
def connected(shown: str) -> Iterator[tuple[Any, _Placed]]:
    """A DuckDB connection of our own settings and a private folder of its own; OutputError
    naming `shown` when DuckDB (the `parquet` extra) is missing or fails."""
    try:
        import duckdb
    except ImportError:
        raise OutputError(
            shown, f"reading Parquet needs DuckDB: {install_hint('parquet')}"
        ) from None
    import tempfile

    from evalglass.evidence.adapters._parquet_reduce import MEMORY_LIMIT

    placed: _Placed | None = None
    try:
        # Spills go to a folder of our own, never beside the user's files.
        with (
            tempfile.TemporaryDirectory(prefix="evalglass-duckdb-") as spill,
            duckdb.connect(
                config={
                    "memory_limit": MEMORY_LIMIT,
                    "temp_directory": spill,
                    # Nothing here depends on the order of rows: DuckDB may keep less in memory.
                    "preserve_insertion_order": False,
                    # Memory DuckDB is done with goes back to the system at once, not when the
                    # connection closes: Python builds its result beside what DuckDB held.
                    "allocator_flush_threshold": "16MB",
                    "allocator_bulk_deallocation_flush_threshold": "16MB",
                }
            ) as con,
        ):
            # DuckDB draws a progress bar on the terminal for a long query; ours is a one-shot
            # command.
            con.execute("SET enable_progress_bar = false")
            placed = _Placed(Path(spill))
            yield con, placed
    except duckdb.Error as exc:
        said = placed.unplaced(str(exc)) if placed else str(exc)
        raise OutputError(shown, f"cannot read as Parquet rows: {one_line(said)}") from exc


# DuckDB reads a path as a pattern: `*`, `?` and `[...]` glob, and a component `~` is the home
# folder, so `scores[1].parquet` would read `scores1.parquet`. A path of these characters alone
# means only itself.
_PLAIN = re.compile(r"[A-Za-z0-9._/\\: -]+" if os.name == "nt" else r"[A-Za-z0-9._/ -]+")


class _Placed:
    """The paths handed to DuckDB: for each file (already found and recognised), a link of a
    plain name in our private folder to its absolute path, which DuckDB cannot reinterpret."""

    def __init__(self, folder: Path) -> None:
        self._folder = os.path.abspath(folder)
        self._shown: dict[str, str] = {}

    @property
    def folder(self) -> str:
        """The private folder itself, for files of our own (it goes when the connection does)."""
        return self._folder

    def paths(self, files: Sequence[tuple[Path, str]]) -> list[str]:
        """A path for each file; OutputError where the platform makes no links and the path
        is not plain."""
        placed = []
        for path, shown in files:
            target = os.path.abspath(path)
            link = os.path.join(self._folder, f"input-{len(self._shown)}.parquet")
            try:
                if not _PLAIN.fullmatch(link):
                    raise OSError("a temporary folder of another name")
                os.symlink(target, link)
            except OSError:
                if not _PLAIN.fullmatch(target):
                    raise OutputError(
                        shown, "cannot hand this path to DuckDB unchanged (it reads *, ?, [ ] "
                        "and ~ as patterns); rename the file or its folder"
                    ) from None  # fmt: skip
                link = target
            self._shown[link] = shown
            placed.append(link)
        return placed

    def unplaced(self, message: str) -> str:
        """DuckDB's message with each path placed written as the user named it."""
        for link, shown in sorted(self._shown.items(), key=lambda item: -len(item[0])):
            message = message.replace(link, shown)
        return message


def _parquet(paths: list[str]) -> str:
    from evalglass.evidence.adapters._parquet_columns import quoted

    # A view takes no parameters: the paths are quoted as SQL string literals.
    return f"read_parquet([{', '.join(map(quoted, paths))}], union_by_name = true)"


def _aggregate(con: Any, paths: list[str], shown: str) -> aggregate.Aggregates:
    from evalglass.evidence.adapters._parquet_reduce import reduce_scores

    con.execute(f"CREATE TEMP VIEW scores AS SELECT * FROM {_parquet(paths)}")
    return reduce_scores(con, shown, loose=None if _some_loose(con, paths) else False)


def _some_loose(con: Any, paths: list[str]) -> bool:
    """Whether some row may name no cluster, from the files' own statistics (no row read): not
    where every file has the column and every row group of it counts no null and its least
    value is not empty. A file without statistics, or a column not plain, may have some."""
    from evalglass.evidence.adapters._parquet_columns import quoted

    found = con.execute(
        "SELECT count(DISTINCT file_name), bool_and(stats_null_count = 0 "
        "AND stats_min_value IS NOT NULL AND stats_min_value <> '') "
        f"FROM parquet_metadata([{', '.join(map(quoted, paths))}]) "
        "WHERE path_in_schema = 'cluster'"
    ).fetchone()
    return not (found[0] == len(set(paths)) and found[1])


def sniff(path: Path, head: bytes) -> bool:
    """A Parquet file, by its magic bytes alone."""
    return head.startswith(MAGIC)


DOCS = FormatDocs(
    label="Parquet",
    versions="generic rows' columns, in any Parquet file DuckDB reads",
    model="`model`",
    graders="none named: the judge the metric's record names",
    counting=ROWS_COUNTING,
    runs=ONE_FILE_RUNS,
    identity=NO_DATASET,
)


ADAPTER = Adapter(
    name="parquet",
    recognises="Parquet rows (PAR1) with metric and score columns",
    sniff=sniff,
    read=read,
    read_together=read_together,
    docs=DOCS,
)
