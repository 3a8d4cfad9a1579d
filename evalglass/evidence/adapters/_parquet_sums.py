"""The DuckDB queries that reduce a table of generic rows (the view `scores`, or another view of
the same columns) to each metric's moments and each cluster's sums, in few passes and little
arithmetic a row; and the assembly of their results.

Builds SQL text and reads result rows; the connection is the caller's. The numbers are those of
`evalglass sql` (docs/scale.md), which the tests check, but arranged for speed: the full
statistics per metric and whether a row names a cluster, where grouping is cheap (counted per
distinct score first where the scores are few, in the same pass that finds the metrics); only
n and Σq per metric and cluster, where the groups are many, from the fewest limbs the scores'
range allows summed as DOUBLE (exact in groups below `Limbs.rows` rows, which the caller
checks); Σq² from integer limbs summed as BIGINT into HUGEINT, never DECIMAL arithmetic a row;
columns used as stored where their type allows, since a cast or a string function a row costs
more than the sums."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from itertools import repeat
from typing import Any

import attrs

from evalglass.evidence import aggregate
from evalglass.evidence.adapters._parquet_columns import Columns, metric_named, metric_number

_LIMIT = int(aggregate.LIMIT)
_OK = f"isfinite(score) AND abs(score) < {_LIMIT}"
# Σq² is the sum of seven limb products, C_k at 2^(26k) (docs/scale.md).
SQUARES = (
    "l0 * l0", "2 * l0 * l1", "2 * l0 * l2 + l1 * l1", "2 * (l0 * l3 + l1 * l2)",
    "2 * l1 * l3 + l2 * l2", "2 * l2 * l3", "l3 * l3",
)  # fmt: skip
# At most this many distinct (metric, score) pairs are counted first (a small hash table).
_FEW = 1 << 21
# A DOUBLE holds every integer below 2^53 exactly, so DuckDB's sum of integers each below 2^26 in
# magnitude is exact, in whatever order it adds them, over fewer than this many of them. DuckDB
# sums DOUBLE about twice as fast as it sums BIGINT into HUGEINT.
LIMB_ROWS = 1 << 27
# Below this magnitude, q = trunc(|score| · 2^64) has no bits from 2^78 up.
_SMALL = 2.0**14


def metrics_query(c: Columns) -> str:
    """Each metric: its rows, about how many distinct scores it has (which decides whether
    `moments_query` counts each distinct score first), how many of its rows name no cluster,
    and its least and greatest score (NaN the greatest)."""
    loose = "count(*)"
    if c.has("cluster"):
        loose = f"count(*) - count(NULLIF({c.cluster}, ''))"
    return (f"SELECT {c.metric} AS metric, count(*), approx_count_distinct({c.score}), {loose}, "
            f"min({c.score}), max({c.score}) FROM scores GROUP BY metric")  # fmt: skip


def loose_rows(counts: Sequence[tuple[Any, ...]]) -> bool:
    """Whether some row of `metrics_query`'s counts names no cluster."""
    return any(row[3] for row in counts)


def few_scores(rows: int, distinct: int) -> bool:
    """Whether `distinct` scores among `rows` are few (a few a metric, as in pass/fail and
    graded scores, not latencies), so counting each distinct score first and splitting it into
    limbs once pays."""
    return 2 * distinct <= _FEW and 8 * distinct <= rows


# The first rows, which tell the metrics and whether their scores are few.
_PROBE = 1 << 20
# The table of the rows counted per metric, cluster-or-none and distinct score.
DISTINCT = "evalglass_distinct"


def probe_query(c: Columns) -> str:
    """The metrics the first rows name, each with those rows and about how many distinct scores
    they hold: reading them costs little (a scan stops at the limit)."""
    return (f"SELECT {c.metric} AS metric, count(*), approx_count_distinct({c.score}) "
            f"FROM (SELECT * FROM scores LIMIT {_PROBE}) GROUP BY metric")  # fmt: skip


def _loose(c: Columns, loose: bool | None = None) -> str:
    """Whether a row names no cluster; `loose` False: no row does (known before)."""
    if loose is False:
        return "false"
    return f"({c.cluster} IS NULL OR {c.cluster} = '')" if c.has("cluster") else "true"


def distinct_query(c: Columns, metrics: Sequence[str], loose: bool | None) -> str:
    """The table `DISTINCT`: the rows counted (w) per metric (its place in `metrics`, null for
    one not among them), whether they name no cluster, and score, in one pass over the rows.
    Grouped by the metric's place, an integer: by its text the same grouping costs twice."""
    return f"""CREATE OR REPLACE TEMP TABLE {DISTINCT} AS
SELECT k, loose, score, count(*) AS w FROM (
  SELECT {metric_number(c, metrics)} AS k, {_loose(c, loose)} AS loose, {c.score} AS score
  FROM scores)
GROUP BY ALL"""


def counts_query(metrics: Sequence[str]) -> str:
    """`metrics_query`'s counts from the table `DISTINCT` (the distinct scores exact, not
    about); a metric null where some row names none of `metrics`."""
    return f"""SELECT {metric_named("k", metrics)} AS metric, sum(w), count(*),
  sum(CASE WHEN loose THEN w ELSE 0 END), min(score), max(score)
FROM {DISTINCT} GROUP BY k"""


def moments_query(
    c: Columns,
    metrics: Sequence[str],
    few: bool = False,
    source: str = "scores",
    some_loose: bool = True,
    grouped: bool = False,
) -> str:
    """Per metric (of the sorted `metrics`, grouped by its place) and whether the row names a
    cluster: counts, range, Σq and Σq² (where no row names none, `some_loose` false, that need
    not be asked a row). `grouped`: `source` is already counted per distinct score, as
    `DISTINCT` (`few` then holds).

    Each finite score below ±2^40 is split exactly into four 26-bit limbs of |q| (q < 2^104),
    l3·2^78 + l2·2^52 + l1·2^26 + l0, by scaling and flooring doubles (each step exact). With
    `few`, rows are first counted per distinct score (w), and each sum is weighted by w."""
    loose = _loose(c, None if some_loose else False)
    rows = (f"SELECT {metric_number(c, metrics)} AS k, {loose} AS loose, {c.score} AS score "
            f"FROM {source}")  # fmt: skip
    if grouped:
        rows = f"SELECT * FROM {source}"
    elif few:
        rows = f"SELECT k, loose, score, count(*) AS w FROM ({rows}) GROUP BY ALL"
    if few or grouped:

        def total(expr: str) -> str:
            return f"sum(CAST(w AS HUGEINT) * ({expr}))"

        def tally(condition: str) -> str:
            return f"sum(CASE WHEN {condition} THEN w ELSE 0 END)"

        everything = "sum(w)"
    else:

        def total(expr: str) -> str:
            return f"sum({expr})"

        def tally(condition: str) -> str:
            return f"count_if({condition})"

        everything = "count(*)"
    squares = ",\n  ".join(f"{total(e)} AS c{k}" for k, e in enumerate(SQUARES))
    return f"""SELECT {metric_named("k", metrics)} AS metric, * EXCLUDE (k) FROM (SELECT k, loose,
  {tally("score IS NOT NULL")} AS n, {everything} - {tally("score IS NOT NULL")} AS missing,
  {tally("score IS NOT NULL AND NOT isfinite(score)")} AS nonfinite,
  {tally(f"isfinite(score) AND abs(score) >= {_LIMIT}")} AS out_of_range,
  {tally("l0 IS NOT NULL AND score <> 0 AND score <> 1")} AS nonbinary,
  min(CASE WHEN isfinite(score) THEN score END) AS low,
  max(CASE WHEN isfinite(score) THEN score END) AS high,
  {total("s * (l3 * 67108864 + l2)")} AS total_high, {total("s * (l1 * 67108864 + l0)")} AS total_low,
  {squares}
FROM ({split(rows)})
GROUP BY k, loose)"""


def split(rows: str) -> str:
    """The rows of the query `rows` (a column `score`), each with the sign `s` and the four
    26-bit limbs `l0`..`l3` of |q| (null where the score is not finite or beyond ±2^40)."""
    return f"""
  SELECT *, CAST(sign(score) AS BIGINT) AS s,
    CAST(floor(t3) AS BIGINT) AS l3, CAST(floor(t2) AS BIGINT) AS l2,
    CAST(floor(t1) AS BIGINT) AS l1, CAST(floor((t1 - floor(t1)) * 67108864.0) AS BIGINT) AS l0
  FROM (
    SELECT *, (t2 - floor(t2)) * 67108864.0 AS t1 FROM (
      SELECT *, (t3 - floor(t3)) * 67108864.0 AS t2 FROM (
        SELECT *, CASE WHEN {_OK} THEN abs(score) * 0.00006103515625 END AS t3
        FROM ({rows}))))"""


@attrs.frozen
class Limbs:
    """How `clusters_query` sums q per cluster: as `count` signed limbs of `bits` bits each,
    the most significant first, each limb's sum exact in a group of fewer than `rows` rows
    (None: in any group), which the caller checks."""

    count: int
    bits: int
    rows: int | None


# Every score within [-1, 1], so |q| <= 2^64: two 32-bit limbs summed as DOUBLE, exact below
# 2^21 rows a cluster (2^21 · 2^32 = 2^53). The common case: scores are mostly fractions.
UNIT = Limbs(2, 32, 1 << 21)
# Every score below 2^14 in magnitude (q < 2^78): three 26-bit limbs as DOUBLE.
SMALL = Limbs(3, 26, LIMB_ROWS)
FULL = Limbs(4, 26, LIMB_ROWS)
# Any group: two 52-bit limbs summed as BIGINT into HUGEINT.
WIDE = Limbs(2, 52, None)


def limbs_for(counts: Sequence[tuple[Any, ...]]) -> Limbs:
    """The fewest limbs every score allows, from `metrics_query`'s least and greatest scores
    (NaN the greatest, so a metric with NaN keeps all four; a metric of null scores alone has
    no range)."""
    ranges = [(row[4], row[5]) for row in counts if row[4] is not None]
    if all(-1.0 <= low and high <= 1.0 for low, high in ranges):
        return UNIT
    if all(-_SMALL < low and high < _SMALL for low, high in ranges):
        return SMALL
    return FULL


def clusters_query(c: Columns, finite: bool, limbs: Limbs, source: str = "scores") -> str:
    """Per metric and named cluster as stored: n and Σq, as `per_metric` gathers them. The
    groups are many, so they carry the fewest sums, as `limbs` says. `finite`: every score is
    known finite and in range (always so for UNIT). Grouped by the metric's text beside the
    cluster's: DuckDB hashes a dictionary-encoded column's texts once, which makes the pair of
    texts cheaper to group than a metric's place computed a row."""
    rows = (f"SELECT {c.metric} AS metric, {c.cluster} AS cluster, "
            f"{c.score} AS score FROM {source}")  # fmt: skip
    if limbs == UNIT:
        # q = trunc(score · 2^64) = trunc(a) · 2^32 + trunc(frac(a) · 2^32) for a = score · 2^32:
        # both parts carry q's sign, and each step is exact in a double.
        split = (f"SELECT *, trunc(a) AS d0, trunc((a - trunc(a)) * 4294967296.0) AS d1 "
                 f"FROM (SELECT *, score * 4294967296.0 AS a FROM ({rows}))")  # fmt: skip
        total = "CAST(sum(d{k}) AS BIGINT)"
    else:
        parts: tuple[str, ...]
        if limbs == WIDE:
            parts = ("floor(a)", "floor((a - floor(a)) * 4503599627370496.0)")
            kind, scaled, total = "BIGINT", "abs(score) * 4096.0", "sum(d{k})"
        else:
            limb = "floor((t1 - floor(t1)) * 67108864.0)"
            parts = ("floor(t3)", "floor(t2)", "floor(t1)", limb)[4 - limbs.count :]
            # Each sum an integer below 2^53: as BIGINT, which Python takes faster than HUGEINT.
            kind, scaled = "DOUBLE", "abs(score) * 0.00006103515625"
            total = "CAST(sum(d{k}) AS BIGINT)"
        signed = ", ".join(
            f"CASE WHEN {_OK} THEN CAST({e} * sign(score) AS {kind}) END AS d{k}"
            if not finite
            else f"CAST({e} * sign(score) AS {kind}) AS d{k}"
            for k, e in enumerate(parts)
        )
        split = f"""SELECT metric, cluster, score, {signed} FROM (
    SELECT *, (t2 - floor(t2)) * 67108864.0 AS t1 FROM (
      SELECT *, (t3 - floor(t3)) * 67108864.0 AS t2 FROM (
        SELECT *, {scaled} AS t3, t3 AS a FROM ({rows}))))"""
    sums = ", ".join(f"{total.format(k=k)} AS s{k}" for k in range(limbs.count))
    groups = f"""SELECT metric, cluster, count(score) AS n, {sums} FROM ({split})
GROUP BY metric, cluster"""
    return per_metric(groups, limbs.count, c)


def per_metric(groups: str, limbs: int, c: Columns) -> str:
    """The rows of the query `groups` (metric, cluster, n, and Σq as the limb sums `s0` …, the
    most significant first), those of a named cluster with scores, gathered per metric into
    lists: a few Python objects a cluster rather than a row of them, and each cluster named as
    its key stands for."""
    label = "cluster"
    if c.json:
        label = "CASE WHEN contains(cluster, '\\') THEN cluster ->> '$' ELSE cluster[2:-2] END"
    sums = ", ".join(f"list(coalesce(s{k}, 0)) AS s{k}" for k in range(limbs))
    return f"""SELECT metric, list({label}) AS clusters, list(n) AS ns, {sums}
FROM ({groups})
WHERE n > 0 AND cluster IS NOT NULL AND CAST(cluster AS VARCHAR) <> ''
GROUP BY metric"""


def assemble(
    moments: Sequence[tuple[Any, ...]],
    clusters: Sequence[tuple[Any, ...]],
    model: str | None,
    source: str,
    c: Columns,
    bits: int,
) -> aggregate.Aggregates:
    """`Aggregates` from the moments (`moments_query`, or the whole rows of `epochs_query`) and
    the clusters (`per_metric`, their limbs `bits` apart), each metric named as its key stands
    for."""
    totals: dict[str, aggregate.Moments] = {}
    squares: dict[str, int] = {}
    name = c.name
    for row in moments:
        metric, loose, low, high = name(row[0]), row[1], row[7], row[8]
        # A sum or a count_if over nulls alone is null.
        n, missing, nonfinite, out_of_range, nonbinary, high_sum, low_sum = (
            v or 0 for v in row[2:7] + row[9:11]
        )
        square = sum((c or 0) << (26 * k) for k, c in enumerate(row[11:]))
        part = aggregate.Moments(
            n=n, missing=missing, nonfinite=nonfinite, out_of_range=out_of_range,
            nonbinary=nonbinary, low=low, high=high, total=(high_sum << 52) + low_sum,
            squares=square,
        )  # fmt: skip
        totals[metric] = totals[metric] + part if metric in totals else part
        squares[metric] = squares.get(metric, 0) + (0 if loose else square)
    named: dict[str, dict[str, aggregate.ClusterSums]] = {metric: {} for metric in totals}
    for metric, labels, ns, *limbs in clusters:
        sums = limbs[0]
        for limb in limbs[1:]:
            sums = map(operator.add, map(operator.lshift, sums, repeat(bits)), limb)
        named[name(metric)] = dict(zip(labels, zip(ns, sums)))
    return aggregate.Aggregates(
        source=source,
        model=model,
        metrics={
            metric: aggregate.MetricStats(
                moments=m, clusters=named[metric], clustered_squares=squares[metric]
            )
            for metric, m in totals.items()
        },
    )
