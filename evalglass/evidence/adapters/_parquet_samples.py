"""The DuckDB queries about the samples of a table of generic rows: whether a metric scores a
sample twice (in one epoch), which samples are scored in several epochs, and the first sample
that breaks a rule, for the message naming it.

Builds SQL text only; the connection is the caller's.
"""

from __future__ import annotations

from collections.abc import Sequence

from evalglass.evidence.adapters._parquet_columns import (
    MASK,
    Columns,
    metric_number,
    named_sample,
)


def _per_sample(c: Columns, metrics: Sequence[str]) -> str:
    """Each sample (by the hash of its id) and epoch: its rows and how many distinct metrics
    they name, as `rows` and `bits`; they differ where a metric may score the sample twice.

    Grouped by sample rather than by sample and metric (far fewer groups), in one sum: each of
    a sample's rows adds 2^58, counting it, and 2^k for its metric's place k. Where no metric
    repeats, the low 58 bits hold one bit a row; a metric scored twice carries, so the low bits
    hold fewer bits than the rows counted above them. More metrics are grouped 58 at a time.
    An id's 64-bit hash groups faster than the id; two ids of one hash share a group, where a
    metric scoring both looks like a repeat, which `repeated_query` then looks for exactly."""
    number = metric_number(c, metrics)
    part = "" if len(metrics) <= MASK else f", k // {MASK}"
    epoch = (", ep", f", {c.epoch} AS ep") if c.has("epoch") else ("", "")
    row = f"(CAST(1 AS BIGINT) << {MASK}) | (CAST(1 AS BIGINT) << CAST(k % {MASK} AS INTEGER))"
    return f"""SELECT id{epoch[0]}, s >> {MASK} AS rows,
  bit_count(s & CAST({(1 << MASK) - 1} AS HUGEINT)) AS bits
FROM (SELECT id{epoch[0]}, sum({row}) AS s
  FROM (SELECT hash({c.sample}) AS id{epoch[1]}, {number} AS k FROM scores WHERE {named_sample(c)})
  GROUP BY id{epoch[0]}{part})"""


def repeats_query(c: Columns, metrics: Sequence[str]) -> str:
    """One row if some metric may score a sample (and epoch) twice, none otherwise."""
    return f"SELECT 1 FROM ({_per_sample(c, metrics)}) WHERE rows <> bits LIMIT 1"


SEVERAL = "evalglass_several"


def several_query(c: Columns, metrics: Sequence[str]) -> str:
    """The table `SEVERAL` of the samples (by the hash of their ids) scored in more than one
    epoch, with their rows, and of any some metric may score twice in one epoch (`repeated`).
    Rows with epochs are mostly of samples scored once, which need no reducing."""
    return f"""CREATE OR REPLACE TEMP TABLE {SEVERAL} AS
SELECT id, bool_or(rows <> bits) AS repeated, sum(rows) AS rows
FROM ({_per_sample(c, metrics)})
GROUP BY id HAVING count(DISTINCT ep) > 1 OR bool_or(rows <> bits)"""


def split_by_epochs(c: Columns) -> tuple[str, str]:
    """Views of the rows of samples scored in one epoch and of those in several (`SEVERAL`)."""
    on = f"ON hash({c.sample}) = {SEVERAL}.id"
    return (
        f"CREATE OR REPLACE TEMP VIEW evalglass_once AS SELECT scores.* FROM scores ANTI JOIN {SEVERAL} {on}",
        f"CREATE OR REPLACE TEMP VIEW evalglass_epochs AS SELECT scores.* FROM scores SEMI JOIN {SEVERAL} {on}",
    )


def repeated_query(c: Columns) -> str:
    """The first (metric, sample id) scored twice, if any: run only once one may exist."""
    return f"""SELECT {c.metric} AS metric, CAST({c.sample} AS VARCHAR) AS id FROM scores
WHERE sample_id IS NOT NULL AND CAST(sample_id AS VARCHAR) <> ''
GROUP BY metric, id, {c.epoch} HAVING count(*) > 1 ORDER BY metric, id LIMIT 1"""


def split_samples_query(c: Columns) -> str:
    """The first (metric, sample id) whose rows name more than one cluster (or a cluster on
    some and none on others): a sample's epochs share its cluster."""
    cluster = f"NULLIF({c.cluster}, '')" if c.has("cluster") else "CAST(NULL AS VARCHAR)"
    return f"""SELECT metric, id FROM (
  SELECT {c.metric} AS metric, NULLIF(CAST(sample_id AS VARCHAR), '') AS id, {cluster} AS cluster
  FROM scores)
WHERE id IS NOT NULL
GROUP BY metric, id
HAVING count(DISTINCT cluster) > 1 OR (count(cluster) > 0 AND count(cluster) < count(*))
ORDER BY metric, id LIMIT 1"""
