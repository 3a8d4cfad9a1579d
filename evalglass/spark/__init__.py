"""evalglass aggregates from a Spark DataFrame of generic rows (the optional extra
`evalglass[spark]`): the same sufficient statistics as every other path, computed on the cluster.

Only aggregates reach the driver (one row per metric and cluster), never the rows themselves.
`python -m evalglass.spark PATH --out aggregates.json` runs it under spark-submit.
"""

from __future__ import annotations

import uuid
from typing import Any

from evalglass.errors import OutputError
from evalglass.evidence import sql
from evalglass.evidence.adapters import aggregates as document

__all__ = ["aggregate"]


def aggregate(df: Any, source: str = "spark") -> dict[str, Any]:
    """The aggregates document (docs/scale.md) of a DataFrame with the generic row columns.

    A sample id repeated for one metric (and epoch), a sample whose epochs name two clusters,
    rows naming several models, a row without a metric or a score beyond ±2^40 are input
    errors, as in the rows reader. The numbers come from the query `evalglass sql --dialect
    spark` prints, run on the DataFrame as a temporary view.
    """
    from pyspark.sql import functions as F

    columns = set(df.columns)
    lacking = [c for c in ("metric", "score") if c not in columns]
    if lacking:
        raise OutputError(source, f"the DataFrame lacks column(s) {', '.join(lacking)}")
    present = [c for c in sql.OPTIONAL if c in columns]
    if "epoch" in columns and "sample_id" not in columns:
        present.remove("epoch")
    if "sample_id" in columns:
        _refuse_duplicates(df, "epoch" in columns, source)
    metric = F.expr("CAST(metric AS STRING)")
    if df.filter(metric.isNull() | (metric == "")).limit(1).count():
        raise OutputError(source, "metric: expected a non-empty string (a row has none)")
    if "epoch" in present:
        _refuse_split_samples(df, "cluster" in columns, source)
    view = f"evalglass_rows_{uuid.uuid4().hex}"
    df.createOrReplaceTempView(view)
    try:
        grouped = df.sparkSession.sql(sql.query(sql.Dialect.SPARK, view, present))
        groups = (row.asDict() for row in grouped.toLocalIterator())
        return document.to_document(sql.groups_to_aggregates(groups, source))
    finally:
        df.sparkSession.catalog.dropTempView(view)


def _refuse_split_samples(df: Any, clustered: bool, source: str) -> None:
    """A sample whose rows (its epochs) name more than one cluster is an input error."""
    from pyspark.sql import functions as F

    cluster = F.expr("NULLIF(CAST(cluster AS STRING), '')") if clustered else F.lit(None)
    keyed = df.select(
        F.expr("CAST(metric AS STRING)").alias("metric"),
        F.expr("NULLIF(CAST(sample_id AS STRING), '')").alias("id"),
        cluster.cast("string").alias("cluster"),
    ).filter("id IS NOT NULL")
    found = (
        keyed.groupBy("metric", "id")
        .agg(F.countDistinct("cluster").alias("named"), F.count("cluster").alias("clustered"),
             F.count(F.lit(1)).alias("rows"))
        .filter("named > 1 OR (clustered > 0 AND clustered < rows)")
        .orderBy("metric", "id").limit(1).collect()
    )  # fmt: skip
    if found:
        raise OutputError(source, sql.two_clusters(found[0]["id"], found[0]["metric"]))


def _refuse_duplicates(df: Any, epochs: bool, source: str) -> None:
    from pyspark.sql import functions as F

    epoch = (
        F.coalesce(F.expr("NULLIF(CAST(epoch AS STRING), '0')"), F.lit("")) if epochs else F.lit("")
    )
    keyed = df.select(
        F.col("metric"), F.expr("CAST(sample_id AS STRING)").alias("id"), epoch.alias("epoch")
    ).filter("id IS NOT NULL AND id <> ''")
    found = keyed.groupBy("metric", "id", "epoch").count().filter("count > 1").limit(1).collect()
    if found:
        raise OutputError(
            source, f"sample_id {found[0]['id']!r} appears twice for metric '{found[0]['metric']}'"
        )
