"""The DuckDB queries that reduce a table of generic rows (the view `scores`, or another view of
the same columns) to `Aggregates`, in few passes and little arithmetic a row; and the assembly
of their results.

Builds SQL text and reads result rows; the connection is the caller's. The numbers are those of
`evalglass sql` (docs/scale.md), which the tests check, but arranged for speed: the full
statistics per metric and whether a row names a cluster, where grouping is cheap; only n and Σq
per metric and cluster, where the groups are many, from the fewest limbs the scores' range
allows summed as DOUBLE (exact in groups below `Limbs.rows` rows, which the caller checks); Σq²
from integer limbs summed as BIGINT into HUGEINT, never DECIMAL arithmetic a row; each metric
grouped by its place among the metrics, an integer, not by its text; columns used as stored where
their type allows, since a cast or a string function a row costs more than the sums.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Mapping, Sequence
from itertools import repeat
from typing import Any

import attrs

from evalglass.errors import OutputError
from evalglass.evidence import aggregate

_LIMIT = int(aggregate.LIMIT)
_OK = f"isfinite(score) AND abs(score) < {_LIMIT}"
_INTEGERS = frozenset({"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT",
                       "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"})  # fmt: skip
# Σq² is the sum of seven limb products, C_k at 2^(26k) (docs/scale.md).
SQUARES = (
    "l0 * l0", "2 * l0 * l1", "2 * l0 * l2 + l1 * l1", "2 * (l0 * l3 + l1 * l2)",
    "2 * l1 * l3 + l2 * l2", "2 * l2 * l3", "l3 * l3",
)  # fmt: skip
# At most this many distinct (metric, score) pairs are counted first (a small hash table).
_FEW = 1 << 21
# A bit a metric below bit 58 of one 64-bit word, whose top bits count the rows: more metrics than
# this are grouped this many at a time, and looked up in an ENUM rather than a list.
_MASK = 58
# A DOUBLE holds every integer below 2^53 exactly, so DuckDB's sum of integers each below 2^26 in
# magnitude is exact, in whatever order it adds them, over fewer than this many of them. DuckDB
# sums DOUBLE about twice as fast as it sums BIGINT into HUGEINT.
LIMB_ROWS = 1 << 27
# Below this magnitude, q = trunc(|score| · 2^64) has no bits from 2^78 up.
_SMALL = 2.0**14


def quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


@attrs.frozen
class Columns:
    """The table's columns and their DuckDB types, and each used column as an expression of
    the type the statistics need (the column itself when it already is)."""

    types: Mapping[str, str]
    # Whether metric, cluster and model hold JSON texts (JSON lines as DuckDB wrote each value
    # back, one text for one value), named by decoding them once grouped, not a row at a time.
    json: bool = False

    def has(self, column: str) -> bool:
        return column in self.types

    def _as(self, column: str, kind: str) -> str:
        return column if self.types[column] == kind else f"CAST({column} AS {kind})"

    @property
    def metric(self) -> str:
        return self._as("metric", "VARCHAR")

    @property
    def score(self) -> str:
        return self._as("score", "DOUBLE")

    @property
    def cluster(self) -> str:
        """The cluster as text, where '' (like null) names none."""
        return self._as("cluster", "VARCHAR")

    @property
    def sample(self) -> str:
        """The sample id as grouped: an integer as itself, anything else as its text, as the
        rows reader compares them ('' and null name none)."""
        return (
            "sample_id"
            if self.types["sample_id"] in _INTEGERS
            else self._as("sample_id", "VARCHAR")
        )

    def name(self, key: str) -> str:
        """The name a metric, cluster or model key stands for."""
        if not self.json:
            return key
        return key[1:-1] if "\\" not in key else str(json.loads(key))

    @property
    def epoch(self) -> str:
        """An epoch as grouped: '' for none (null, 0, false, empty), as the rows reader reads it."""
        kind = self.types.get("epoch")
        if kind is None:
            return "''"
        if kind == "BOOLEAN":
            return "CASE WHEN epoch THEN 'true' ELSE '' END"
        if kind == "VARCHAR":
            return "coalesce(epoch, '')"
        return "CASE WHEN epoch IS NULL OR epoch = 0 THEN '' ELSE CAST(epoch AS VARCHAR) END"


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


def few_scores(counts: Sequence[tuple[Any, ...]]) -> bool:
    """Whether the metrics' distinct scores are few beside their rows (a few of each, as in
    pass/fail and graded scores, not latencies), so counting each distinct score first and
    splitting it into limbs once pays."""
    rows: int = sum(row[1] for row in counts)
    distinct: int = sum(row[2] for row in counts)
    return 2 * distinct <= _FEW and 8 * distinct <= rows


def refuse_blank(metrics: Sequence[str | None], shown: str, c: Columns) -> list[str]:
    """The metrics' keys, sorted; a row without a metric is an input error, and so, in JSON
    lines, is a metric that is not a string."""
    if any(m is None or m == "" for m in metrics):
        raise OutputError(shown, "metric: expected a non-empty string (a row has none)")
    if c.json and any(m == '""' or not m.startswith('"') for m in metrics if m):
        raise OutputError(shown, "metric: expected a non-empty string")
    return sorted(m for m in metrics if m)


def named_sample(c: Columns) -> str:
    """Whether a row names a sample (null and '' name none)."""
    if c.types["sample_id"] in _INTEGERS:
        return "sample_id IS NOT NULL"
    return f"{c.sample} <> ''"


def metric_number(c: Columns, metrics: Sequence[str]) -> str:
    """A row's metric as its place (from 0) in `metrics`, the sorted metrics: an integer groups
    faster than the text. Looked up in a list among few metrics, in an ENUM among many."""
    listed = ", ".join(map(quoted, metrics))
    if len(metrics) <= _MASK:
        return f"list_position([{listed}], {c.metric}) - 1"
    return f"enum_code(CAST({c.metric} AS ENUM({listed})))"


def metric_named(number: str, metrics: Sequence[str]) -> str:
    """The metric's key back from its place (`metric_number`), on a result row."""
    return f"[{', '.join(map(quoted, metrics))}][{number} + 1]"


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
    part = "" if len(metrics) <= _MASK else f", k // {_MASK}"
    epoch = (", ep", f", {c.epoch} AS ep") if c.has("epoch") else ("", "")
    row = f"(CAST(1 AS BIGINT) << {_MASK}) | (CAST(1 AS BIGINT) << CAST(k % {_MASK} AS INTEGER))"
    return f"""SELECT id{epoch[0]}, s >> {_MASK} AS rows,
  bit_count(s & CAST({(1 << _MASK) - 1} AS HUGEINT)) AS bits
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


def models_query(c: Columns, every: bool = False) -> str:
    """Distinct models: a few (as stored, which DuckDB answers from the file's dictionaries),
    or `every` one as text, for the message naming them."""
    if every:
        return ("SELECT DISTINCT CAST(model AS VARCHAR) AS m FROM scores "
                "WHERE m IS NOT NULL AND m <> '' ORDER BY m")  # fmt: skip
    # Null and '' name no model: four values hold two that do, if any two do.
    return "SELECT DISTINCT model FROM scores LIMIT 4"


def moments_query(
    c: Columns,
    metrics: Sequence[str],
    few: bool = False,
    source: str = "scores",
    some_loose: bool = True,
) -> str:
    """Per metric (of the sorted `metrics`, grouped by its place) and whether the row names a
    cluster: counts, range, Σq and Σq² (where no row names none, `some_loose` false, that need
    not be asked a row).

    Each finite score below ±2^40 is split exactly into four 26-bit limbs of |q| (q < 2^104),
    l3·2^78 + l2·2^52 + l1·2^26 + l0, by scaling and flooring doubles (each step exact). With
    `few`, rows are first counted per distinct score (w), and each sum is weighted by w."""
    loose = f"({c.cluster} IS NULL OR {c.cluster} = '')" if c.has("cluster") else "true"
    if not some_loose:
        loose = "false"
    rows = (f"SELECT {metric_number(c, metrics)} AS k, {loose} AS loose, {c.score} AS score "
            f"FROM {source}")  # fmt: skip
    if few:
        rows = f"SELECT k, loose, score, count(*) AS w FROM ({rows}) GROUP BY ALL"

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
    integer = c.types["sample_id"] in _INTEGERS
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


def clusters_query(
    c: Columns, metrics: Sequence[str], finite: bool, limbs: Limbs, source: str = "scores"
) -> str:
    """Per metric (of the sorted `metrics`, grouped by its place) and named cluster as stored:
    n and Σq, as `per_metric` gathers them. The groups are many, so they carry the fewest sums,
    as `limbs` says. `finite`: every score is known finite and in range (always so for UNIT)."""
    rows = (f"SELECT {metric_number(c, metrics)} AS metric, {c.cluster} AS cluster, "
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
    return per_metric(groups, limbs.count, c, metrics)


def per_metric(
    groups: str, limbs: int, c: Columns, metrics: Sequence[str] | None = None
) -> str:
    """The rows of the query `groups` (metric, cluster, n, and Σq as the limb sums `s0` …, the
    most significant first), those of a named cluster with scores, gathered per metric into
    lists: a few Python objects a cluster rather than a row of them, and each cluster named as
    its key stands for. With `metrics`, `groups` gives each metric as its place in them."""
    label = "cluster"
    if c.json:
        label = "CASE WHEN contains(cluster, '\\') THEN cluster ->> '$' ELSE cluster[2:-2] END"
    sums = ", ".join(f"list(coalesce(s{k}, 0)) AS s{k}" for k in range(limbs))
    gathered = f"""SELECT metric, list({label}) AS clusters, list(n) AS ns, {sums}
FROM ({groups})
WHERE n > 0 AND cluster IS NOT NULL AND CAST(cluster AS VARCHAR) <> ''
GROUP BY metric"""
    if metrics is None:
        return gathered
    return f"SELECT {metric_named('metric', metrics)} AS metric, * EXCLUDE (metric) FROM ({gathered})"


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
