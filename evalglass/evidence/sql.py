"""The aggregates as SQL: the query that reduces a table of generic rows (metric, score, cluster,
model, and sample_id with epoch) to one row of sufficient statistics per metric and cluster, in
each engine's dialect.

The query is the definition the warehouse paths, Spark and DuckDB (for rows with epochs) share;
`groups_to_aggregates` turns its result rows into `Aggregates`. It builds text and converts rows;
it runs nothing.

Each finite score below ±2^40 is split exactly into three integer limbs, |x| = i + f1·2^-32 +
f2·2^-64 (bits below 2^-64 dropped, as `aggregate.moments_of` does), summed as 128-bit decimals so
that no engine rounds and the sums add up the same in any order. With an epoch column, a
sample's rows (one per epoch) are first reduced to one: q = trunc(Σq / k) over its k scored
epochs, an exact integer division, then split into limbs again.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping

import attrs

from evalglass.errors import OutputError
from evalglass.evidence import aggregate

OPTIONAL = ("cluster", "model", "sample_id", "epoch")
# Columns of the result, in order: the marker, the group, the counts, the range, the limb sums.
RESULT = (
    "evalglass_aggregates", "metric", "cluster", "model_low", "model_high", "n", "missing",
    "nonfinite", "out_of_range", "nonbinary", "low", "high",
    "sum_0", "sum_1", "sum_2", "sq_0", "sq_1", "sq_2", "sq_3", "sq_4",
)  # fmt: skip
FORMAT_VERSION = 1
_TWO32 = 4294967296


class Dialect(enum.Enum):
    """The engines the aggregates query is written for, each with its own exact integer and text
    types, so that every engine sums to the same numbers."""

    DUCKDB = "duckdb"
    SPARK = "spark"
    BIGQUERY = "bigquery"
    POSTGRES = "postgres"


@attrs.frozen
class _Types:
    double: str
    text: str
    wide: str  # an exact integer type holding 2^120
    integer: str  # a 64-bit integer


_TYPES = {
    Dialect.DUCKDB: _Types("DOUBLE", "VARCHAR", "DECIMAL(38, 0)", "BIGINT"),
    Dialect.SPARK: _Types("DOUBLE", "STRING", "DECIMAL(38, 0)", "BIGINT"),
    Dialect.BIGQUERY: _Types("FLOAT64", "STRING", "BIGNUMERIC", "INT64"),
    Dialect.POSTGRES: _Types("DOUBLE PRECISION", "TEXT", "NUMERIC", "BIGINT"),
}


def _finite(dialect: Dialect, x: str) -> str:
    if dialect is Dialect.DUCKDB:
        return f"isfinite({x})"
    if dialect is Dialect.SPARK:
        return f"(NOT isnan({x}) AND abs({x}) <> CAST('Infinity' AS DOUBLE))"
    if dialect is Dialect.BIGQUERY:
        return f"(NOT IS_NAN({x}) AND NOT IS_INF({x}))"
    return f"({x} NOT IN ('NaN'::float8, 'Infinity'::float8, '-Infinity'::float8))"


def _quotient(dialect: Dialect, a: str, b: str) -> str:
    """trunc(a / b) for exact integers a >= 0 and b > 0."""
    if dialect is Dialect.DUCKDB:
        return f"(CAST({a} AS HUGEINT) // {b})"
    if dialect is Dialect.SPARK:
        # Spark divides decimals to six places, rounding half up: the floor is the quotient or
        # one more (never less), which one multiplication tells.
        floor = f"floor({a} / {b})"
        return f"({floor} - CASE WHEN {floor} * {b} > {a} THEN 1 ELSE 0 END)"
    if dialect is Dialect.BIGQUERY:
        return f"DIV({a}, {b})"
    return f"div({a}, {b})"


def _remainder(dialect: Dialect, a: str, b: str) -> str:
    """a mod b for exact integers a >= 0 and b > 0."""
    if dialect is Dialect.DUCKDB:
        return f"(CAST({a} AS HUGEINT) % {b})"
    if dialect is Dialect.SPARK:
        return f"({a} % {b})"
    if dialect is Dialect.BIGQUERY:
        return f"MOD({a}, {b})"
    return f"mod({a}, {b})"


def select_list(dialect: Dialect) -> tuple[tuple[str, str], ...]:
    """(name, aggregate expression) for every result column after the group, over one row a
    sample: `model_low`, `model_high`, its scored rows `k`, non-finite rows `bad`, rows beyond
    the exact range `oor`, whether its value is 0 or 1 (`two_valued`), the range `low`, `high` of
    its finite scores, and the sign and limbs `s`, `i`, `f1`, `f2` of its value."""
    wide = _TYPES[dialect].wide

    def total(expr: str) -> str:
        return f"sum(CAST({expr} AS {wide}))"

    def product(a: str, b: str, k: int = 1) -> str:
        factor = "" if k == 1 else f"{k} * "
        return f"{factor}CAST({a} AS {wide}) * CAST({b} AS {wide})"

    count = "sum(CASE WHEN {} THEN 1 ELSE 0 END)"
    return (
        ("model_low", "min(model_low)"),
        ("model_high", "max(model_high)"),
        ("n", count.format("k > 0")),
        ("missing", count.format("k = 0")),
        ("nonfinite", count.format("bad > 0")),
        ("out_of_range", "sum(oor)"),
        ("nonbinary", count.format("i IS NOT NULL AND two_valued = 0")),
        ("low", "min(low)"),
        ("high", "max(high)"),
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
    """(name, row expression) for what a row tells of its sample, over the column `score`: the
    sign and the three limbs of a finite score below ±2^40 (null for any other), whether it is
    scored, non-finite, beyond the range, 0, 1, and the score again where finite."""
    t = _TYPES[dialect]
    two32 = f"CAST({_TWO32} AS {t.double})"
    finite = _finite(dialect, "score")
    ok = f"{finite} AND abs(score) < {int(aggregate.LIMIT)}"
    a = "abs(score)"
    frac = f"({a} - floor({a}))"
    scaled = f"({frac} * {two32})"

    def whole(expr: str) -> str:
        return f"CAST(CASE WHEN {ok} THEN {expr} END AS {t.integer})"

    def flag(condition: str) -> str:
        return f"CASE WHEN {condition} THEN 1 ELSE 0 END"

    return (
        ("s", whole("sign(score)")),
        ("i", whole(f"floor({a})")),
        ("f1", whole(f"floor({scaled})")),
        ("f2", whole(f"floor(({scaled} - floor({scaled})) * {two32})")),
        ("k", flag("score IS NOT NULL")),
        ("bad", flag(f"score IS NOT NULL AND NOT {finite}")),
        ("oor", flag(f"{finite} AND abs(score) >= {int(aggregate.LIMIT)}")),
        ("zero", flag("score = 0")),
        ("one", flag("score = 1")),
        ("low", f"CASE WHEN {finite} THEN score END"),
    )


def normalised(dialect: Dialect, present: Iterable[str] = OPTIONAL) -> tuple[tuple[str, str], ...]:
    """(name, row expression) giving the columns the aggregate reads: an absent optional column
    is null, an empty cluster, model or sample id is null, clusters and ids compare as text."""
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
        ("sample", text("sample_id")),
        ("score", f"CAST(score AS {t.double})"),
    )


def _epochs(dialect: Dialect) -> tuple[str, str]:
    """The stages that reduce the rows naming a sample to one row: counts added, the range
    kept, and the value trunc(Σq / k) split into limbs again; the sample's cluster is the
    smallest its rows name (the readers refuse a sample naming two)."""
    t = _TYPES[dialect]

    def wide(expr: object) -> str:
        return f"CAST({expr} AS {t.wide})"

    two64 = f"{wide(_TWO32)} * {wide(_TWO32)}"
    q = f"{wide('s')} * ({wide('i')} * {two64} + {wide('f1')} * {wide(_TWO32)} + {wide('f2')})"
    mean = _quotient(dialect, "abs(q)", "k")
    return (
        "evalglass_sums AS (\n"
        "  SELECT metric, sample, min(cluster) AS cluster, min(model) AS model_low,\n"
        "    max(model) AS model_high, sum(k) AS k, sum(bad) AS bad, sum(oor) AS oor,\n"
        "    sum(zero) AS zero, sum(one) AS one, min(low) AS low, max(low) AS high,\n"
        f"    sum({q}) AS q\n"
        "  FROM evalglass_limbs WHERE sample IS NOT NULL\n  GROUP BY metric, sample\n),\n"
        "evalglass_means AS (\n"
        "  SELECT *, CASE WHEN zero = k OR one = k THEN 1 ELSE 0 END AS two_valued,\n"
        f"    CASE WHEN k > 0 AND bad = 0 AND oor = 0 THEN sign(q) END AS sq,\n"
        f"    CASE WHEN k > 0 AND bad = 0 AND oor = 0 THEN {wide(mean)} END AS a\n"
        "  FROM evalglass_sums\n),\n"
        "evalglass_split AS (\n"
        f"  SELECT *, {wide(_remainder(dialect, 'a', str(_TWO32)))} AS low_limb,\n"
        f"    {wide(_quotient(dialect, 'a', str(_TWO32)))} AS rest\n"
        "  FROM evalglass_means\n),\n"
    ), (
        "  SELECT metric, cluster, model_low, model_high, k, bad, oor, two_valued, low, high,\n"
        f"    CAST(sq AS {t.integer}) AS s,\n"
        f"    CAST({_quotient(dialect, 'rest', str(_TWO32))} AS {t.integer}) AS i,\n"
        f"    CAST({_remainder(dialect, 'rest', str(_TWO32))} AS {t.integer}) AS f1,\n"
        f"    CAST(low_limb AS {t.integer}) AS f2\n"
        "  FROM evalglass_split\n  UNION ALL\n"
    )


def query(dialect: Dialect, table: str = "scores", present: Iterable[str] = OPTIONAL) -> str:
    """The whole query over `table`: one result row per metric and cluster (null: no cluster).

    With `epoch` among the columns present (it needs `sample_id`), the rows naming a sample are
    reduced to one per sample first; otherwise each row is a sample."""
    have = set(present)
    if "epoch" in have and "sample_id" not in have:
        raise ValueError("an epoch column needs a sample_id column")
    rows = ",\n    ".join(f"{e} AS {n}" for n, e in normalised(dialect, have))
    split = ",\n    ".join(f"{e} AS {n}" for n, e in limbs(dialect))
    stats = ",\n  ".join(f"{e} AS {n}" for n, e in select_list(dialect))
    stages, reduced = _epochs(dialect) if "epoch" in have else ("", "")
    loose = "WHERE sample IS NULL\n" if "epoch" in have else ""
    return (
        "-- evalglass aggregates: the sufficient statistics of a table of generic rows\n"
        "-- (docs/scale.md). Export the result as CSV or JSON lines for `evalglass score`.\n"
        f"WITH evalglass_rows AS (\n  SELECT\n    {rows}\n  FROM {table}\n),\n"
        f"evalglass_limbs AS (\n  SELECT metric, cluster, model, sample, score,\n    {split}\n"
        "  FROM evalglass_rows\n),\n"
        f"{stages}"
        f"evalglass_samples AS (\n{reduced}"
        "  SELECT metric, cluster, model AS model_low, model AS model_high, k, bad, oor,\n"
        "    zero + one AS two_valued, low, low AS high, s, i, f1, f2\n"
        f"  FROM evalglass_limbs {loose})\n"
        f"SELECT\n  {FORMAT_VERSION} AS evalglass_aggregates,\n  metric,\n  cluster,\n  {stats}\n"
        "FROM evalglass_samples\nGROUP BY metric, cluster\nORDER BY metric, cluster\n"
    )


def two_clusters(sample_id: object, metric: str) -> str:
    """The message for a sample whose rows (its epochs) name more than one cluster."""
    return (f"sample_id {sample_id!r} names more than one cluster for metric '{metric}'; "
            "a sample's epochs share its cluster")  # fmt: skip


def groups_to_aggregates(
    groups: Iterable[Mapping[str, object]], source: str
) -> aggregate.Aggregates:
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
    refused = OutputError(source, f"{key}: expected a whole number, got {_shown(value)}", line)
    if isinstance(value, str):
        # CSV exports, and BigQuery's JSON for wide numbers, write integers as text.
        text = value.strip()
        if text.lstrip("-").isdigit():
            if len(text) > _DIGITS:
                raise refused
            value = int(text)
    if value is None:
        return 0
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        # Decimal columns from a driver (Spark, psycopg) arrive as Decimal.
        try:
            whole = int(value)  # type: ignore[call-overload]
        except (TypeError, ValueError, OverflowError):  # not a number, NaN, infinity
            raise refused from None
        if whole != value:
            raise refused
        value = whole
    return value


# More digits than Python turns into an integer (sys.get_int_max_str_digits).
_DIGITS = 4300


def _shown(value: object) -> str:
    """A value as a message shows it: a scalar as written, cut short; anything else by type."""
    if isinstance(value, str | float | bool) or value is None:
        return repr(value)[:60]
    if isinstance(value, int):
        return repr(value) if abs(value) < 10**40 else "a very large number"
    return type(value).__name__


def _real(row: Mapping[str, object], key: str, source: str, line: int) -> float | None:
    value = row.get(key)
    if value is None or value == "":
        return None
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise OutputError(source, f"{key}: expected a number, got {value!r}", line) from None
