"""`python -m evalglass.spark PATH --out aggregates.json`: the aggregates of a Parquet, CSV or
JSON-lines dataset, for spark-submit; `evalglass score aggregates.json` then scores them."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from evalglass.errors import EvalglassError
from evalglass.shell.writing import write_all
from evalglass.spark import aggregate


def main(argv: list[str] | None = None) -> int:
    """Aggregate the rows at `path` on Spark and write the aggregates JSON to `--out` atomically.
    Returns 4, with one line on stderr, for input evalglass refuses or an output it cannot write;
    a bad command line exits 2."""
    parser = argparse.ArgumentParser(prog="python -m evalglass.spark", description=__doc__)
    parser.add_argument("path", help="a Parquet file or folder (or .csv / .jsonl) of generic rows")
    parser.add_argument("--out", required=True, type=Path, help="where to write the aggregates")
    parser.add_argument("--master", help="Spark master (default: spark-submit's, else local[*])")
    args = parser.parse_args(argv)
    if args.out.exists() and args.out.resolve() == Path(args.path).resolve():
        parser.error(f"--out {args.out} would overwrite the input")
    from pyspark.sql import SparkSession

    # A session this command starts is stopped when it ends; one it was handed (spark-submit's, a
    # notebook's) belongs to its owner.
    owned = SparkSession.getActiveSession() is None
    builder = SparkSession.builder.appName("evalglass-aggregates")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    # A local path is this process's, not the JVM's working directory; a URI (s3://, hdfs://)
    # is passed as it is.
    path = args.path if "://" in args.path else os.path.abspath(args.path)
    try:
        reader = spark.read
        suffix = Path(args.path).suffix.lower()
        if suffix == ".csv":
            df = reader.option("header", True).option("inferSchema", True).csv(path)
        elif suffix in (".jsonl", ".json"):
            df = reader.json(path)
        else:
            df = reader.parquet(path)
        doc = aggregate(df, source=args.path)
    except EvalglassError as exc:
        print(f"evalglass: {exc}", file=sys.stderr)
        return 4
    finally:
        if owned:
            spark.stop()
    try:
        write_all([(args.out, json.dumps(doc, indent=1) + "\n")])
    except EvalglassError as exc:
        print(f"evalglass: {exc}", file=sys.stderr)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
