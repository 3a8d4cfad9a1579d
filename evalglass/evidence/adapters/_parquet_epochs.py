"""The DuckDB query that reduces rows with epochs: each sample's rows to one value, then the
moments per metric and the sums per metric and cluster, in one pass.

Builds SQL text only; the connection is the caller's.
"""

from __future__ import annotations

from evalglass.evidence import aggregate
from evalglass.evidence.adapters._parquet_columns import INTEGERS, Columns
from evalglass.evidence.adapters._parquet_sums import SQUARES

_LIMIT = int(aggregate.LIMIT)
_OK = f"isfinite(score) AND abs(score) < {_LIMIT}"


def epochs_query(c: Columns, source: str = "scores") -> str:
    """Rows with epochs, in one pass: each sample's rows reduced to one (rows naming no sample
    are samples of their own), then the moments per metric and whether the sample names a
    cluster, and n and Σq per metric and cluster, from one aggregation per metric and cluster
    (rolled up per metric, rather than aggregated twice as grouping sets would). The result
    rows are those of `moments_query` and of `clusters_query` (`n`, `total_high`,
    `total_low`) together, told apart by `whole` (1: a moments row, whose `cluster` is null),
    each with how many samples' rows name more than one cluster (or a cluster on some and none
    on others): `split`.

    A sample's value is v = trunc(Σq / k) over its k scored rows, then split into the moments'
    four 26-bit limbs, so that Σv and Σv² are BIGINT limbs summed into HUGEINT as without
    epochs. Σq is summed exactly as HUGEINT (q < 2^104); only a sample of several scored rows
    is divided, since DuckDB's 128-bit division costs more than all the rest."""
    cluster = f"NULLIF({c.cluster}, '')" if c.has("cluster") else "CAST(NULL AS VARCHAR)"
    # '' names no sample, as null does; only an integer id cannot be ''.
    integer = c.types["sample_id"] in INTEGERS
    sample = c.sample if integer else f"NULLIF({c.sample}, '')"
    q = f"CASE WHEN {_OK} THEN CAST(trunc(score * 18446744073709551616.0) AS HUGEINT) END"
    finite = "CASE WHEN isfinite(score) THEN score END"
    bad = "score IS NOT NULL AND NOT isfinite(score)"
    beyond = f"isfinite(score) AND abs(score) >= {_LIMIT}"
    # DuckDB divides HUGEINT in software (over a microsecond each); shifts and masks are cheap.
    limbs = ", ".join(
        f"CAST((a >> {26 * k}) & CAST({(1 << 26) - 1} AS HUGEINT) AS BIGINT) AS l{k}"
        for k in range(4)
    )
    squares = ",\n    ".join(f"sum({e}) AS c{k}" for k, e in enumerate(SQUARES))
    rolled = ", ".join(f"sum(c{k})" for k in range(len(SQUARES)))
    nulls, nulls7 = ", ".join(["NULL"] * 6), ", ".join(["NULL"] * len(SQUARES))
    # Written out in both branches: a CTE read twice would be materialised, every row of it.
    rows = (f"(SELECT {c.metric} AS metric, {sample} AS sample, {cluster} AS cluster, "
            f"{c.score} AS score FROM {source})")  # fmt: skip
    return f"""WITH evalglass_samples AS (
  SELECT metric, min(cluster) AS cluster, count(score) AS k, count_if({bad}) AS bad,
    count_if({beyond}) AS oor, min({finite}) AS low, max({finite}) AS high, sum({q}) AS t,
    min(cluster) <> max(cluster) OR count(cluster) NOT IN (0, count(*)) AS split
  FROM {rows} WHERE sample IS NOT NULL GROUP BY metric, sample
  UNION ALL
  SELECT metric, cluster, CAST(score IS NOT NULL AS BIGINT), CAST({bad} AS BIGINT),
    CAST({beyond} AS BIGINT), {finite}, {finite}, {q}, false
  FROM {rows} WHERE sample IS NULL),
evalglass_means AS (
  SELECT *, k > 0 AND bad = 0 AND oor = 0 AS valued,
    CASE WHEN k > 0 AND bad = 0 AND oor = 0 THEN CASE WHEN k = 1 THEN t
      WHEN t < 0 THEN -((-t) // k) ELSE t // k END END AS v
  FROM evalglass_samples),
evalglass_split AS (
  SELECT metric, cluster, cluster IS NULL AS loose, k, bad, oor, low, high, valued, split,
    CAST(sign(v) AS BIGINT) AS s, {limbs}
  FROM (SELECT *, abs(v) AS a FROM evalglass_means)),
evalglass_clusters AS (
  SELECT metric, cluster, count_if(k > 0) AS n, count_if(k = 0) AS missing,
    count_if(k > 0 AND bad > 0) AS nonfinite, sum(oor) AS out_of_range,
    count_if(valued AND NOT (low = high AND (low = 0 OR low = 1))) AS nonbinary,
    min(low) AS low, max(high) AS high,
    sum(s * (l3 * 67108864 + l2)) AS total_high, sum(s * (l1 * 67108864 + l0)) AS total_low,
    {squares},
    count_if(split) AS split
  FROM evalglass_split GROUP BY metric, cluster)
SELECT metric, cluster IS NULL AS loose, sum(n) AS n, sum(missing), sum(nonfinite),
  sum(out_of_range), sum(nonbinary), min(low), max(high), sum(total_high) AS total_high,
  sum(total_low) AS total_low, {rolled}, CAST(NULL AS VARCHAR) AS cluster, 1 AS whole,
  sum(split) AS split
FROM evalglass_clusters GROUP BY metric, loose
UNION ALL
SELECT metric, false, n, {nulls}, total_high, total_low, {nulls7}, cluster, 0, 0
FROM evalglass_clusters WHERE cluster IS NOT NULL"""
