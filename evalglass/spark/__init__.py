"""evalglass aggregates from a Spark DataFrame of generic rows (the optional extra
`evalglass[spark]`): the same sufficient statistics as every other path, computed on the cluster.

Only aggregates reach the driver (one row per metric and cluster), never the rows themselves.
`python -m evalglass.spark PATH --out aggregates.json` runs it under spark-submit.
"""

from __future__ import annotations

from typing import Any

from evalglass.errors import OutputError
from evalglass.evidence import sql
from evalglass.evidence.adapters import aggregates as document

__all__ = ["aggregate"]


def aggregate(df: Any, source: str = "spark") -> dict[str, Any]:
    """The aggregates document (docs/scale.md) of a DataFrame with the generic row columns.

    A sample id repeated for one metric (and epoch), rows naming several models, a row without a
    metric or a score beyond ±2^40 are input errors, as in the rows reader.
    """
    from pyspark.sql import functions as F

    columns = set(df.columns)
    lacking = [c for c in ("metric", "score") if c not in columns]
    if lacking:
        raise OutputError(source, f"the DataFrame lacks column(s) {', '.join(lacking)}")
    dialect = sql.Dialect.SPARK
    if "sample_id" in columns:
        _refuse_duplicates(df, "epoch" in columns, source)
    present = [c for c in sql.OPTIONAL if c in columns]
    rows = df.select(*(F.expr(e).alias(n) for n, e in sql.normalised(dialect, present)))
    if rows.filter("metric IS NULL OR metric = ''").limit(1).count():
        raise OutputError(source, "metric: expected a non-empty string (a row has none)")
    split = rows.select(
        "metric", "cluster", "model", "score",
        *(F.expr(e).alias(n) for n, e in sql.limbs(dialect)),
    )  # fmt: skip
    grouped = split.groupBy("metric", "cluster").agg(
        *(F.expr(e).alias(n) for n, e in sql.select_list(dialect))
    )
    marker = {"evalglass_aggregates": sql.FORMAT_VERSION}
    groups = ({**marker, **row.asDict()} for row in grouped.toLocalIterator())
    return document.to_document(sql.groups_to_aggregates(groups, source))


def _refuse_duplicates(df: Any, epochs: bool, source: str) -> None:
    from pyspark.sql import functions as F

    epoch = (
        F.coalesce(F.expr("NULLIF(CAST(epoch AS STRING), '0')"), F.lit(""))
        if epochs
        else F.lit("")
    )
    keyed = df.select(
        F.col("metric"), F.expr("CAST(sample_id AS STRING)").alias("id"), epoch.alias("epoch")
    ).filter("id IS NOT NULL AND id <> ''")
    found = keyed.groupBy("metric", "id", "epoch").count().filter("count > 1").limit(1).collect()
    if found:
        raise OutputError(
            source, f"sample_id {found[0]['id']!r} appears twice for metric '{found[0]['metric']}'"
        )
