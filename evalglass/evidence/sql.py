"""The aggregates as SQL: the query that reduces a table of generic rows (metric, score, cluster,
model) to one row of sufficient statistics per metric and cluster, in each engine's dialect.

The query is the definition the DuckDB, Spark and warehouse paths share; `groups_to_aggregates`
turns its result rows into `Aggregates`. It builds text and converts rows; it runs nothing.

Each finite score below ±2^40 is split exactly into three integer limbs, |x| = i + f1·2^-32 +
f2·2^-64 (bits below 2^-64 dropped, as `aggregate.quantum` does), summed as 128-bit decimals so
that no engine rounds and the sums add up the same in any order.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping

import attrs

from evalglass.errors import OutputError
from evalglass.evidence import aggregate

OPTIONAL = ("cluster", "model")
# Columns of the result, in order: the marker, the group, the counts, the range, the limb sums.
RESULT = (
    "evalglass_aggregates", "metric", "cluster", "model_low", "model_high", "n", "missing",
    "nonfinite", "out_of_range", "nonbinary", "low", "high",
    "sum_0", "sum_1", "sum_2", "sq_0", "sq_1", "sq_2", "sq_3", "sq_4",
)  # fmt: skip
FORMAT_VERSION = 1


class Dialect(enum.Enum):
    DUCKDB = "duckdb"
    SPARK = "spark"
    BIGQUERY = "bigquery"
    POSTGRES = "postgres"


@attrs.frozen
class _Types:
    double: str
    text: str
    wide: str  # an exact integer type holding 2^120


_TYPES = {
    Dialect.DUCKDB: _Types("DOUBLE", "VARCHAR", "DECIMAL(38, 0)"),
    Dialect.SPARK: _Types("DOUBLE", "STRING", "DECIMAL(38, 0)"),
    Dialect.BIGQUERY: _Types("FLOAT64", "STRING", "BIGNUMERIC"),
    Dialect.POSTGRES: _Types("DOUBLE PRECISION", "TEXT", "NUMERIC"),
}


def _finite(dialect: Dialect, x: str) -> str:
    if dialect is Dialect.DUCKDB:
        return f"isfinite({x})"
    if dialect is Dialect.SPARK:
        return f"(NOT isnan({x}) AND abs({x}) <> CAST('Infinity' AS DOUBLE))"
    if dialect is Dialect.BIGQUERY:
        return f"(NOT IS_NAN({x}) AND NOT IS_INF({x}))"
    return f"({x} NOT IN ('NaN'::float8, 'Infinity'::float8, '-Infinity'::float8))"


def select_list(dialect: Dialect) -> tuple[tuple[str, str], ...]:
    """(name, aggregate expression) for every result column after the group, over the columns
    `metric`, `cluster`, `model`, `score` (double) and the limbs `s`, `i`, `f1`, `f2` the inner
    query adds; Spark's DataFrame path uses these same expressions."""
    wide = _TYPES[dialect].wide

    def total(expr: str) -> str:
        return f"sum(CAST({expr} AS {wide}))"

    def product(a: str, b: str, k: int = 1) -> str:
        factor = "" if k == 1 else f"{k} * "
        return f"{factor}CAST({a} AS {wide}) * CAST({b} AS {wide})"

    finite = _finite(dialect, "score")
    count = "sum(CASE WHEN {} THEN 1 ELSE 0 END)"
    return (
        ("model_low", "min(model)"),
        ("model_high", "max(model)"),
        ("n", "count(score)"),
        ("missing", "count(*) - count(score)"),
        ("nonfinite", count.format(f"score IS NOT NULL AND NOT {finite}")),
        ("out_of_range", count.format(f"{finite} AND abs(score) >= {int(aggregate.LIMIT)}")),
        ("nonbinary", count.format("i IS NOT NULL AND score <> 0 AND score <> 1")),
        ("low", f"min(CASE WHEN {finite} THEN score END)"),
        ("high", f"max(CASE WHEN {finite} THEN score END)"),
        ("sum_0", total("s * i")),
        ("sum_1", total("s * f1")),
        ("sum_2", total("s * f2")),
        ("sq_0", f"sum({product('f2', 'f2')})"),
        ("sq_1", f"sum({product('f1', 'f2', 2)})"),
        ("sq_2", f"sum({product('f1', 'f1')} + {product('i', 'f2', 2)})"),
        ("sq_3", f"sum({product('i', 'f1', 2)})"),
        ("sq_4", f"sum({product('i', 'i')})"),
    )


def limbs(dialect: Dialect) -> tuple[tuple[str, str], ...]:
    """(name, row expression) for the sign and the three limbs of each finite score below ±2^40
    (null for any other score), over the column `score`."""
    t = _TYPES[dialect]
    two32 = f"CAST(4294967296 AS {t.double})"
    ok = f"{_finite(dialect, 'score')} AND abs(score) < {int(aggregate.LIMIT)}"
    a = "abs(score)"
    frac = f"({a} - floor({a}))"
    scaled = f"({frac} * {two32})"
    return (
        ("s", f"CASE WHEN {ok} THEN sign(score) END"),
        ("i", f"CASE WHEN {ok} THEN floor({a}) END"),
        ("f1", f"CASE WHEN {ok} THEN floor({scaled}) END"),
        ("f2", f"CASE WHEN {ok} THEN floor(({scaled} - floor({scaled})) * {two32}) END"),
    )


def normalised(dialect: Dialect, present: Iterable[str] = OPTIONAL) -> tuple[tuple[str, str], ...]:
    """(name, row expression) giving the four columns the aggregate reads: an absent optional
    column is null, an empty cluster or model is null, clusters compare as text."""
    t = _TYPES[dialect]
    have = set(present)

    def text(column: str) -> str:
        if column not in have:
            return f"CAST(NULL AS {t.text})"
        return f"NULLIF(CAST({column} AS {t.text}), '')"

    return (
        ("metric", f"CAST(metric AS {t.text})"),
        ("cluster", text("cluster")),
        ("model", text("model")),
        ("score", f"CAST(score AS {t.double})"),
    )


def query(dialect: Dialect, table: str = "scores", present: Iterable[str] = OPTIONAL) -> str:
    """The whole query over `table`: one result row per metric and cluster (null: no cluster)."""
    rows = ",\n    ".join(f"{e} AS {n}" for n, e in normalised(dialect, present))
    split = ",\n    ".join(f"{e} AS {n}" for n, e in limbs(dialect))
    stats = ",\n  ".join(f"{e} AS {n}" for n, e in select_list(dialect))
    return (
        "-- evalglass aggregates: the sufficient statistics of a table of generic rows\n"
        "-- (docs/scale.md). Export the result as CSV or JSON lines for `evalglass score`.\n"
        f"WITH evalglass_rows AS (\n  SELECT\n    {rows}\n  FROM {table}\n),\n"
        f"evalglass_limbs AS (\n  SELECT metric, cluster, model, score,\n    {split}\n"
        "  FROM evalglass_rows\n)\n"
        f"SELECT\n  {FORMAT_VERSION} AS evalglass_aggregates,\n  metric,\n  cluster,\n  {stats}\n"
        "FROM evalglass_limbs\nGROUP BY metric, cluster\nORDER BY metric, cluster\n"
    )


def groups_to_aggregates(groups: Iterable[Mapping[str, object]], source: str) -> aggregate.Aggregates:
    """The query's result rows (from any engine, any export) as `Aggregates`."""
    totals: dict[str, aggregate.Moments] = {}
    named: dict[str, dict[str, aggregate.ClusterSums]] = {}
    squares: dict[str, int] = {}
    models: set[str] = set()
    for number, row in enumerate(groups, start=1):
        marker = _integer(row, "evalglass_aggregates", source, number)
        if marker != FORMAT_VERSION:
            raise OutputError(source, f"evalglass_aggregates: version {marker} is not 1", number)
        metric = row.get("metric")
        if not isinstance(metric, str) or not metric:
            raise OutputError(source, "metric: expected a non-empty string", number)
        for key in ("model_low", "model_high"):
            model = row.get(key)
            if isinstance(model, str) and model:
                models.add(model)
        c = {k: _integer(row, k, source, number) for k in RESULT[5:10] + RESULT[12:]}
        moments = aggregate.Moments(
            n=c["n"], missing=c["missing"], nonfinite=c["nonfinite"],
            out_of_range=c["out_of_range"], nonbinary=c["nonbinary"],
            low=_real(row, "low", source, number), high=_real(row, "high", source, number),
            total=(c["sum_0"] << 64) + (c["sum_1"] << 32) + c["sum_2"],
            squares=(c["sq_4"] << 128) + (c["sq_3"] << 96) + (c["sq_2"] << 64)
            + (c["sq_1"] << 32) + c["sq_0"],
        )  # fmt: skip
        totals[metric] = totals[metric] + moments if metric in totals else moments
        clusters = named.setdefault(metric, {})
        squares.setdefault(metric, 0)
        cluster = row.get("cluster")
        if cluster is not None and cluster != "" and moments.n:
            name = str(cluster)
            got = clusters.get(name, (0, 0))
            clusters[name] = (got[0] + moments.n, got[1] + moments.total)
            squares[metric] += moments.squares
    metrics = {
        metric: aggregate.MetricStats(
            moments=moments, clusters=named[metric], clustered_squares=squares[metric]
        )
        for metric, moments in totals.items()
    }
    if len(models) > 1:
        raise OutputError(source, f"rows name several models: {', '.join(sorted(models))}")
    return aggregate.Aggregates(
        source=source, model=models.pop() if models else None, metrics=metrics
    )


def _integer(row: Mapping[str, object], key: str, source: str, line: int) -> int:
    value = row.get(key)
    if isinstance(value, str):
        # CSV exports, and BigQuery's JSON for wide numbers, write integers as text.
        text = value.strip()
        value = int(text) if text.lstrip("-").isdigit() else value
    if value is None:
        return 0
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        # Decimal columns from a driver (Spark, psycopg) arrive as Decimal.
        try:
            whole = int(value)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            raise OutputError(source, f"{key}: expected a whole number, got {value!r}", line) from None
        if whole != value:
            raise OutputError(source, f"{key}: expected a whole number, got {value!r}", line)
        value = whole
    return value


def _real(row: Mapping[str, object], key: str, source: str, line: int) -> float | None:
    value = row.get(key)
    if value is None or value == "":
        return None
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise OutputError(source, f"{key}: expected a number, got {value!r}", line) from None
