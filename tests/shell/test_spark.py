"""evalglass.spark in Spark local mode: a partitioned DataFrame gives the aggregates, and so the
scorecard, of the JSONL rows reader on the same rows; the command line writes them for score."""

from __future__ import annotations

import json
import math
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evalglass.errors import OutputError
from evalglass.evidence.adapters import aggregates, rows
from tests.cli_runner import cli
from tests.scale_rows import generated, write_jsonl, write_parquet
from tests.shell.test_cli import EXAMPLE_RECORDS

pytestmark = pytest.mark.skipif(
    shutil.which("java") is None and not os.environ.get("JAVA_HOME"),
    reason="Spark needs a Java runtime, and this machine has none (.ci/run installs one)",
)


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    from pyspark.sql import SparkSession

    # The JVM starts with these options (pyspark passes the conf to spark-submit). A test's jobs
    # are small and run once: the JIT's first tier compiles them soon enough, and the optimising
    # tier would spend more time compiling than it saves.
    java = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
    session = (
        SparkSession.builder.master("local[2]").appName("evalglass-tests")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.extraJavaOptions", java)
        .getOrCreate()
    )  # fmt: skip
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_a_four_partition_dataframe_gives_the_jsonl_scorecard(spark: Any, tmp_path: Path) -> None:
    """Spark's aggregates of four partitions score byte-identically to the JSONL rows."""
    from evalglass.spark import aggregate

    table = generated(seed=5, count=1000)
    source = write_jsonl(tmp_path / "scores.jsonl", table)
    df = spark.read.parquet(str(write_parquet(tmp_path / "scores.parquet", table))).repartition(4)
    assert df.rdd.getNumPartitions() == 4
    doc = aggregate(df, source="scores.jsonl")
    assert aggregates.from_document(doc, "scores.jsonl") == rows.exact_aggregates(
        source, "scores.jsonl"
    )
    (tmp_path / "aggregates.json").write_text(json.dumps(doc))
    pinned = ("--as-of", "2026-11-30")  # one evaluation time, so the bytes compare
    card = cli(
        "score",
        "aggregates.json",
        "--records",
        str(EXAMPLE_RECORDS),
        "--format",
        "json",
        *pinned,
        cwd=tmp_path,
    )
    want = cli(
        "score",
        "scores.jsonl",
        "--records",
        str(EXAMPLE_RECORDS),
        "--format",
        "json",
        *pinned,
        cwd=tmp_path,
    )
    assert card.stdout.replace("aggregates.json", "scores.jsonl") == want.stdout


def test_a_duplicate_sample_id_is_refused_in_spark(spark: Any) -> None:
    """A sample id twice for one metric is the rows reader's input error."""
    from evalglass.spark import aggregate

    df = spark.createDataFrame(
        [("m", 1.0, "s1"), ("m", 0.0, "s1")], ["metric", "score", "sample_id"]
    )
    with pytest.raises(OutputError, match="sample_id 's1' appears twice for metric 'm'"):
        aggregate(df)


def test_epochs_are_reduced_per_sample_as_in_the_rows_reader(spark: Any, tmp_path: Path) -> None:
    """Samples scored over several epochs (signs, fractions, a missing and a NaN epoch) in four
    partitions give exactly the rows reader's sums; epochs of one sample in two clusters are
    refused."""
    from evalglass.spark import aggregate
    from tests.evidence.test_evidence_parquet_sums import write

    table: list[dict[str, object]] = []
    for i in range(60):
        for epoch in range(1, 2 + i % 4):
            score = (
                None
                if (i, epoch) == (5, 1)
                else math.nan
                if (i, epoch) == (7, 2)
                else (((i * 7 + epoch * 13) % 17) / 3 - 2.5)
            )
            table.append(
                {
                    "metric": f"m{i % 2}",
                    "score": score,
                    "sample_id": f"s{i}",
                    "epoch": epoch,
                    "cluster": f"c{i % 5}" if i % 3 else None,
                }
            )
    types = {
        "metric": "VARCHAR",
        "score": "DOUBLE",
        "sample_id": "VARCHAR",
        "epoch": "INTEGER",
        "cluster": "VARCHAR",
    }
    jsonl, target = write(tmp_path, table, types)
    df = spark.read.parquet(str(target)).repartition(4)
    got = aggregates.from_document(aggregate(df, source="rows"), "rows")
    assert got == rows.exact_aggregates(jsonl, "rows")
    assert got.metrics["m0"].moments.n == 30 and got.metrics["m1"].moments.nonfinite == 1
    split = spark.createDataFrame(
        [("m", 1.0, "s1", 1, "x"), ("m", 0.0, "s1", 2, "y")],
        ["metric", "score", "sample_id", "epoch", "cluster"],
    )
    with pytest.raises(OutputError, match="sample_id 's1' names more than one cluster"):
        aggregate(split)


def test_the_command_writes_aggregates_for_score(
    spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`python -m evalglass.spark PATH --out aggregates.json` writes what `score` reads, and
    leaves a session it did not start running. (In-process: a second JVM would cost a minute.)"""
    from evalglass.spark.__main__ import main

    table = generated(seed=6, count=300)
    write_jsonl(tmp_path / "scores.jsonl", table)
    write_parquet(tmp_path / "scores.parquet", table)
    monkeypatch.chdir(tmp_path)
    assert main(["scores.parquet", "--out", "agg.json"]) == 0
    assert not spark.sparkContext._jsc.sc().isStopped()
    got = aggregates.load(tmp_path / "agg.json", "agg.json")
    assert got == rows.exact_aggregates(tmp_path / "scores.jsonl", "agg.json")
