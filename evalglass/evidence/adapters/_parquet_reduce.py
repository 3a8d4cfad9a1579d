"""The reduction of the rows of the view (or table) `scores` to `Aggregates` inside DuckDB: the
order of the passes, each the query of `_parquet_sums`, `_parquet_samples` or `_parquet_epochs`,
and what each pass's result decides about the next.

Runs queries on the caller's connection; reads no file itself.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from evalglass.errors import OutputError
from evalglass.evidence import aggregate, sql
from evalglass.evidence.adapters import _parquet_epochs as epochs
from evalglass.evidence.adapters import _parquet_samples as samples
from evalglass.evidence.adapters import _parquet_sums as q
from evalglass.evidence.adapters._parquet_columns import (
    Columns,
    models_query,
    quoted,
    refuse_blank,
)

# DuckDB's own memory, spilling to a temporary folder beyond it; overridable for big machines.
MEMORY_LIMIT = os.environ.get("EVALGLASS_DUCKDB_MEMORY", "600MB")
# Rows with epochs, mostly of samples scored once: those rows are summed as rows and only the
# samples scored in several epochs reduced a sample at a time, unless their rows are at least
# this share of all (then every sample is reduced, without the joins that tell them apart).
SEVERAL_SHARE = 0.5
_CLUSTERS = "evalglass_clusters"


def trim(con: Any) -> None:
    """DuckDB's memory held for reuse (blocks of what it has dropped or read) given back to the
    system: it keeps them until its memory limit falls below what it holds, so the limit is
    brought down to what it uses, and back."""
    used = con.execute("SELECT sum(memory_usage_bytes) FROM duckdb_memory()").fetchone()[0]
    con.execute(f"SET memory_limit = '{(used or 0) + (16 << 20)}B'")
    con.execute(f"SET memory_limit = {quoted(MEMORY_LIMIT)}")


def columns(con: Any, view: str, json_keys: bool = False) -> Columns:
    """The columns of `view` and their DuckDB types."""
    types = {row[0]: row[1] for row in con.execute(f"DESCRIBE {view}").fetchall()}
    return Columns(types, json=json_keys)


def _keep() -> None:
    pass


def reduce_scores(
    con: Any,
    shown: str,
    json_keys: bool = False,
    release: Callable[[], None] = _keep,
    loose: bool | None = None,
) -> aggregate.Aggregates:
    """The sufficient statistics of the rows of the view (or table) `scores`, whatever it is
    read from: Parquet files, or JSON lines and CSV read into typed columns (`json_keys`: the
    metric, cluster and model columns hold each value's JSON text). `release` is called once
    the rows are no longer read, before the largest result (one entry a cluster) is fetched.
    `loose`: whether some row names no cluster, where the caller knows (None: unknown, asked a
    row at a time)."""
    c = columns(con, "scores", json_keys)
    lacking = [name for name in ("metric", "score") if not c.has(name)]
    if lacking:
        raise OutputError(shown, f"Parquet rows lack column(s) {', '.join(lacking)}")
    if not c.has("cluster"):
        loose = True
    counts, metrics, grouped = _metrics(con, c, shown, loose)
    several = 0
    if c.has("sample_id") and metrics:
        several = _samples(con, c, metrics, shown)
    model = _model(con, c, shown)
    if not several:
        return _once(con, c, counts, metrics, model, shown, release=release, grouped=grouped)
    con.execute(f"DROP TABLE IF EXISTS {q.DISTINCT}")
    if several >= SEVERAL_SHARE * sum(row[1] for row in counts):
        return _with_epochs(con, c, model, shown, release=release)
    for view in samples.split_by_epochs(c):
        con.execute(view)
    reduced = _with_epochs(con, c, model, shown, "evalglass_epochs")
    once = _once(con, c, counts, metrics, model, shown, "evalglass_once", release)
    return aggregate.merge([once, reduced])


def _metrics(
    con: Any, c: Columns, shown: str, loose: bool | None
) -> tuple[list[tuple[Any, ...]], list[str], bool]:
    """Each metric's counts (as `metrics_query` gives them), the sorted metrics, and whether
    the rows were counted per distinct score into the table `q.DISTINCT` on the way, from
    which the moments then come without another read of the rows.

    The first rows tell the metrics and whether their scores are few; where a later row names
    another metric (or none), the metrics are counted again over every row."""
    probe = con.execute(q.probe_query(c)).fetchall()
    guess = refuse_blank([row[0] for row in probe], shown, c)
    if guess and q.few_scores(sum(row[1] for row in probe), sum(row[2] for row in probe)):
        con.execute(q.distinct_query(c, guess, loose))
        counts = con.execute(q.counts_query(guess)).fetchall()
        if all(row[0] is not None for row in counts):
            return counts, guess, True
        con.execute(f"DROP TABLE {q.DISTINCT}")
    counts = con.execute(q.metrics_query(c)).fetchall()
    return counts, refuse_blank([row[0] for row in counts], shown, c), False


def _samples(con: Any, c: Columns, metrics: list[str], shown: str) -> int:
    """How many rows belong to samples scored in several epochs (0 without epochs); an
    OutputError naming the first sample a metric scores twice in one epoch."""
    several = 0
    if c.has("epoch"):
        con.execute(samples.several_query(c, metrics))
        repeated, several = con.execute(
            f"SELECT count_if(repeated), sum(rows) FROM {samples.SEVERAL}"
        ).fetchone()
    else:
        repeated = con.execute(samples.repeats_query(c, metrics)).fetchone()
    found = con.execute(samples.repeated_query(c)).fetchone() if repeated else None
    if found:
        metric, sample_id = found
        raise OutputError(
            shown, f"sample_id {sample_id!r} appears twice for metric '{c.name(metric)}'"
        )
    return int(several or 0)


def _once(
    con: Any,
    c: Columns,
    counts: Sequence[tuple[Any, ...]],
    metrics: list[str],
    model: str | None,
    shown: str,
    source: str = "scores",
    release: Callable[[], None] = _keep,
    grouped: bool = False,
) -> aggregate.Aggregates:
    """Rows each its own sample: the moments per metric (from `q.DISTINCT` where `grouped`),
    then n and Σq per cluster."""
    if grouped:
        moments = con.execute(
            q.moments_query(c, metrics, True, q.DISTINCT, grouped=True)
        ).fetchall()
        con.execute(f"DROP TABLE {q.DISTINCT}")
    else:
        few = q.few_scores(sum(row[1] for row in counts), sum(row[2] for row in counts))
        moments = con.execute(
            q.moments_query(c, metrics, few, source, q.loose_rows(counts))
        ).fetchall()
    if not c.has("cluster"):
        release()
        return q.assemble(moments, [], model, shown, c, q.WIDE.bits)
    finite = not any(row[4] or row[5] for row in moments)
    # The groups are many here: the memory the passes before held goes back first.
    trim(con)
    limbs = q.limbs_for(counts)
    query = q.clusters_query(c, finite, limbs, source)
    con.execute(f"CREATE OR REPLACE TEMP TABLE {_CLUSTERS} AS {query}")
    if (
        limbs.rows is not None
        and con.execute(f"SELECT max(list_max(ns)) >= {limbs.rows} FROM {_CLUSTERS}").fetchone()[0]
    ):
        limbs = q.WIDE
        query = q.clusters_query(c, finite, limbs, source)
        con.execute(f"CREATE OR REPLACE TEMP TABLE {_CLUSTERS} AS {query}")
    release()
    clusters = con.execute(f"SELECT * FROM {_CLUSTERS}").fetchall()
    return q.assemble(moments, clusters, model, shown, c, limbs.bits)


def _with_epochs(
    con: Any,
    c: Columns,
    model: str | None,
    shown: str,
    source: str = "scores",
    release: Callable[[], None] = _keep,
) -> aggregate.Aggregates:
    """Rows with epochs: each sample's rows reduced to one inside DuckDB, in one pass; only
    when a sample names two clusters, a second finds it for the message."""
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE evalglass_reduced AS {epochs.epochs_query(c, source)}"
    )
    if con.execute("SELECT sum(split) FROM evalglass_reduced WHERE whole = 1").fetchone()[0]:
        metric, sample_id = con.execute(samples.split_samples_query(c)).fetchone()
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


def _model(con: Any, c: Columns, shown: str) -> str | None:
    """The one model the rows name, as the rows reader reads one: a non-empty string."""
    if not c.has("model") or c.types["model"] != "VARCHAR":
        return None
    named = {row[0] for row in con.execute(models_query(c)).fetchall()} - {None, ""}
    if len(named) > 1:
        every = [row[0] for row in con.execute(models_query(c, every=True)).fetchall()]
        raise OutputError(shown, f"rows name several models: {', '.join(map(c.name, every))}")
    return c.name(named.pop()) if named else None
