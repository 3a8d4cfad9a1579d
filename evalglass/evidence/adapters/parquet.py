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
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from evalglass.errors import OutputError, install_hint
from evalglass.evidence import aggregate, sql
from evalglass.evidence.adapters import _parquet_pairs as pairs
from evalglass.evidence.adapters import _parquet_sums as q
from evalglass.evidence.adapters._common import one_line
from evalglass.evidence.format_docs import NO_DATASET, ONE_FILE_RUNS, ROWS_COUNTING, FormatDocs
from evalglass.evidence.model import Measurement, PairedSums
from evalglass.evidence.registry import Adapter

MAGIC = b"PAR1"
# DuckDB's own memory, spilling to a temporary folder beyond it; overridable for big machines.
MEMORY_LIMIT = os.environ.get("EVALGLASS_DUCKDB_MEMORY", "600MB")
# Rows with epochs, mostly of samples scored once: those rows are summed as rows and only the
# samples scored in several epochs reduced a sample at a time, unless their rows are at least
# this share of all (then every sample is reduced, without the joins that tell them apart).
SEVERAL_SHARE = 0.5


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
            sides.append(_columns(con, view))
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


def trim(con: Any) -> None:
    """DuckDB's memory held for reuse (blocks of what it has dropped or read) given back to the
    system: it keeps them until its memory limit falls below what it holds, so the limit is
    brought down to what it uses, and back."""
    used = con.execute("SELECT sum(memory_usage_bytes) FROM duckdb_memory()").fetchone()[0]
    con.execute(f"SET memory_limit = '{(used or 0) + (16 << 20)}B'")
    con.execute(f"SET memory_limit = {q.quoted(MEMORY_LIMIT)}")


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
    # A view takes no parameters: the paths are quoted as SQL string literals.
    return f"read_parquet([{', '.join(map(q.quoted, paths))}], union_by_name = true)"


def _columns(con: Any, view: str, json_keys: bool = False) -> q.Columns:
    types = {row[0]: row[1] for row in con.execute(f"DESCRIBE {view}").fetchall()}
    return q.Columns(types, json=json_keys)


def _aggregate(con: Any, paths: list[str], shown: str) -> aggregate.Aggregates:
    con.execute(f"CREATE TEMP VIEW scores AS SELECT * FROM {_parquet(paths)}")
    return reduce_scores(con, shown)


def _keep() -> None:
    pass


def reduce_scores(
    con: Any, shown: str, json_keys: bool = False, release: Callable[[], None] = _keep
) -> aggregate.Aggregates:
    """The sufficient statistics of the rows of the view (or table) `scores`, whatever it is
    read from: Parquet files, or JSON lines and CSV read into typed columns (`json_keys`: the
    metric, cluster and model columns hold each value's JSON text). `release` is called once
    the rows are no longer read, before the largest result (one entry a cluster) is fetched."""
    c = _columns(con, "scores", json_keys)
    lacking = [name for name in ("metric", "score") if not c.has(name)]
    if lacking:
        raise OutputError(shown, f"Parquet rows lack column(s) {', '.join(lacking)}")
    counts = con.execute(q.metrics_query(c)).fetchall()
    metrics = q.refuse_blank([row[0] for row in counts], shown, c)
    epochs = c.has("epoch") and c.has("sample_id")
    several = 0
    if c.has("sample_id") and metrics:
        if epochs:
            con.execute(q.several_query(c, metrics))
            repeated, several = con.execute(
                f"SELECT count_if(repeated), sum(rows) FROM {q.SEVERAL}"
            ).fetchone()
        else:
            repeated = con.execute(q.repeats_query(c, metrics)).fetchone()
        found = con.execute(q.repeated_query(c)).fetchone() if repeated else None
        if found:
            metric, sample_id = found
            raise OutputError(
                shown, f"sample_id {sample_id!r} appears twice for metric '{c.name(metric)}'"
            )
    model = _model(con, c, shown)
    if not several:
        return _once(con, c, counts, metrics, model, shown, release=release)
    if several >= SEVERAL_SHARE * sum(row[1] for row in counts):
        return _with_epochs(con, c, model, shown, release=release)
    for view in q.split_by_epochs(c):
        con.execute(view)
    reduced = _with_epochs(con, c, model, shown, "evalglass_epochs")
    return aggregate.merge([_once(con, c, counts, metrics, model, shown, "evalglass_once", release), reduced])


def _once(
    con: Any,
    c: q.Columns,
    counts: list[tuple[Any, ...]],
    metrics: list[str],
    model: str | None,
    shown: str,
    source: str = "scores",
    release: Callable[[], None] = _keep,
) -> aggregate.Aggregates:
    """Rows each its own sample: the moments per metric, then n and Σq per cluster."""
    few, loose = q.few_scores(counts), q.loose_rows(counts)
    moments = con.execute(q.moments_query(c, metrics, few, source, loose)).fetchall()
    if not c.has("cluster"):
        release()
        return q.assemble(moments, [], model, shown, c, q.WIDE.bits)
    finite = not any(row[4] or row[5] for row in moments)
    # The groups are many here: the memory the passes before held goes back first.
    trim(con)
    limbs = q.limbs_for(counts)
    query = q.clusters_query(c, metrics, finite, limbs, source)
    con.execute(f"CREATE OR REPLACE TEMP TABLE {_CLUSTERS} AS {query}")
    if limbs.rows is not None and con.execute(
        f"SELECT max(list_max(ns)) >= {limbs.rows} FROM {_CLUSTERS}"
    ).fetchone()[0]:
        limbs = q.WIDE
        query = q.clusters_query(c, metrics, finite, limbs, source)
        con.execute(f"CREATE OR REPLACE TEMP TABLE {_CLUSTERS} AS {query}")
    release()
    clusters = con.execute(f"SELECT * FROM {_CLUSTERS}").fetchall()
    return q.assemble(moments, clusters, model, shown, c, limbs.bits)


def _with_epochs(
    con: Any,
    c: q.Columns,
    model: str | None,
    shown: str,
    source: str = "scores",
    release: Callable[[], None] = _keep,
) -> aggregate.Aggregates:
    """Rows with epochs: each sample's rows reduced to one inside DuckDB, in one pass; only
    when a sample names two clusters, a second finds it for the message."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE evalglass_reduced AS {q.epochs_query(c, source)}")
    if con.execute("SELECT sum(split) FROM evalglass_reduced WHERE whole = 1").fetchone()[0]:
        metric, sample_id = con.execute(q.split_samples_query(c)).fetchone()
        raise OutputError(shown, sql.two_clusters(sample_id, c.name(metric)))
    release()
    moments = con.execute(
        "SELECT * EXCLUDE (cluster, whole, split) FROM evalglass_reduced WHERE whole = 1"
    ).fetchall()
    named = ("SELECT metric, cluster, n, total_high AS s0, total_low AS s1 "
             "FROM evalglass_reduced WHERE whole = 0")  # fmt: skip
    clusters = con.execute(q.per_metric(named, 2, c)).fetchall()
    # epochs_query's Σq: two limbs 52 bits apart, as WIDE's.
    return q.assemble(moments, clusters, model, shown, c, q.WIDE.bits)


_CLUSTERS = "evalglass_clusters"


def _model(con: Any, c: q.Columns, shown: str) -> str | None:
    """The one model the rows name, as the rows reader reads one: a non-empty string."""
    if not c.has("model") or c.types["model"] != "VARCHAR":
        return None
    named = {row[0] for row in con.execute(q.models_query(c)).fetchall()} - {None, ""}
    if len(named) > 1:
        every = [row[0] for row in con.execute(q.models_query(c, every=True)).fetchall()]
        raise OutputError(shown, f"rows name several models: {', '.join(map(c.name, every))}")
    return c.name(named.pop()) if named else None


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
