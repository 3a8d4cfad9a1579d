"""Scale paths beside their floors: Parquet through DuckDB at 100M rows, merging 1,000 partials,
the plain JSONL rows reader at 1M rows, and a Parquet baseline paired with the current rows.

A plain script: prints numbers beside each target, asserts nothing. Targets: 100,000,000 Parquet
rows (20 metrics, 10,000 clusters) scored in under 60 s and 1 GB peak on 2 cores, shown beside
DuckDB's bare `SELECT count(*), sum(score)` over the same file and the JSONL path at 1M rows;
1,000 partial aggregates of 20 metrics merged in under 1 s. A regression gate over 10,000,000
current rows paired in DuckDB with a 10,000,000-row baseline file (`rows:` in baselines.yaml),
beside the unpaired score of the same current file (the floor). The generated files go to a
temporary folder (a few GB at 100M rows) and are deleted after; `--rows N` and `--paired-rows N`
scale the runs down.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

METRICS = 20
CLUSTERS = 10_000


def generate(path: Path, rows: int, seed: int = 0) -> None:
    """`rows` rows: half the metrics pass/fail, half graded; each sample in one of 10,000 clusters.
    Another `seed` gives other scores for the same samples."""
    import duckdb

    con = duckdb.connect()
    con.execute(f"""COPY (
        SELECT 'bench/metric_' || (i % {METRICS}) AS metric,
               CASE WHEN i % {METRICS} < {METRICS // 2}
                    THEN CAST(hash(i + {seed}) % 5 < 4 AS DOUBLE)
                    ELSE (hash(i + {seed}) % 10000) / 10000.0 END
                   AS score,
               's' || (i // {METRICS}) AS sample_id,
               'c' || ((i // {METRICS}) % {CLUSTERS}) AS cluster,
               'acme/model-x' AS model
        FROM range({rows}) t(i)
    ) TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE 1000000)""")


def timed(command: list[str], cwd: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user and system, every thread) and the child's peak resident
    memory in MB, each command in its own process. On a shared machine the wall time moves with
    the load; the CPU time much less."""
    wrapper = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
        "w = time.perf_counter() - t; u = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "print(w, u.ru_utime + u.ru_stime, u.ru_maxrss / 1024, r.returncode)"
    )
    out = subprocess.run(
        [sys.executable, "-c", wrapper, *command],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    if out[3] not in ("0", "3"):
        raise SystemExit(f"{command} exited {out[3]}")
    return float(out[0]), float(out[1]), float(out[2])


def evalglass() -> list[str]:
    script = Path(sys.executable).parent / "evalglass"
    return [str(script)] if script.exists() else [sys.executable, "-m", "evalglass"]


def bench_parquet(work: Path, rows: int) -> float:
    path = work / "scores.parquet"
    start = time.perf_counter()
    generate(path, rows)
    print(
        f"{rows:,} rows, {METRICS} metrics, {CLUSTERS:,} clusters: "
        f"{path.stat().st_size / 1e9:.2f} GB Parquet, written in {time.perf_counter() - start:.0f} s"
    )
    bare = (
        "import duckdb, sys; duckdb.connect().execute("
        '"SELECT count(*), sum(score) FROM read_parquet(?)", [sys.argv[1]]).fetchall()'
    )
    floor, floor_cpu, floor_rss = timed([sys.executable, "-c", bare, str(path)], work)
    print(
        f"  floor: DuckDB SELECT count(*), sum(score)  {floor:7.1f} s ({floor_cpu:.1f} s CPU)"
        f"  {floor_rss:6.0f} MB"
    )
    wall, cpu, rss = timed([*evalglass(), "score", str(path), "--records", "host_records"], work)
    print(
        f"  evalglass score                        {wall:7.1f} s ({cpu:.1f} s CPU)  {rss:6.0f} MB"
        f"   target < 60 s, < 1024 MB;  {wall / floor:.1f}x the floor"
    )
    path.unlink()
    return wall


def paired_records(folder: Path) -> None:
    """Every metric gating with an approved max_drop against a baseline read from `base.parquet`."""
    ids = [f"bench/metric_{k}" for k in range(METRICS)]
    folder.mkdir()
    (folder / "datasets.yaml").write_text(
        "datasets:\n  d:\n    status: validated\n    version: '1'\n"
    )
    (folder / "policies.yaml").write_text("policies:\n  d:\n    policy: permitted\n")
    (folder / "metrics.yaml").write_text(
        "metrics:\n" + "".join(f"  {m}:\n    status: gating\n    dataset: d\n" for m in ids)
    )
    (folder / "thresholds.yaml").write_text(
        "thresholds:\n"
        + "".join(
            f"  {m}:\n    op: '>='\n    max_drop: 0.05\n    approval: approved\n"
            "    approved_by: '@lead'\n    approved_on: 2026-01-01\n    approved_for:\n"
            "      dataset_version: '1'\n"
            for m in ids
        )
    )
    (folder / "baselines.yaml").write_text(
        "baselines:\n"
        + "".join(f"  {m}:\n    rows: base.parquet\n    dataset_version: '1'\n" for m in ids)
    )


def bench_paired(work: Path, rows: int) -> None:
    current, records = work / "current.parquet", work / "paired_records"
    paired_records(records)
    generate(current, rows)
    generate(records / "base.parquet", rows, seed=7)
    print(f"paired baseline: {rows:,} current rows against a {rows:,}-row baseline file")
    floor, floor_cpu, floor_rss = timed(
        [*evalglass(), "score", str(current), "--records", "host_records"], work
    )
    print(
        f"  floor: evalglass score, unpaired, no baseline  {floor:7.1f} s ({floor_cpu:.1f} s CPU)"
        f"  {floor_rss:6.0f} MB"
    )
    wall, cpu, rss = timed([*evalglass(), "score", str(current), "--records", str(records)], work)
    print(
        f"  evalglass score, paired in DuckDB             {wall:7.1f} s ({cpu:.1f} s CPU)"
        f"  {rss:6.0f} MB   {wall / floor:.1f}x the floor"
    )
    current.unlink()


def bench_jsonl(work: Path, rows: int = 1_000_000) -> float:
    import random

    path = work / "rows.jsonl"
    rng = random.Random(0)
    with path.open("w") as stream:
        for i in range(rows):
            k = i % METRICS
            score = int(rng.random() < 0.8) if k < METRICS // 2 else round(rng.random(), 4)
            stream.write(
                json.dumps(
                    {
                        "sample_id": f"s{i // METRICS}",
                        "metric": f"bench/metric_{k}",
                        "score": score,
                        "cluster": f"c{(i // METRICS) % CLUSTERS}",
                    }
                )
            )
            stream.write("\n")
    parse = "import orjson, sys\nfor line in open(sys.argv[1], 'rb'):\n    orjson.loads(line)"
    floor, floor_cpu, _ = timed([sys.executable, "-c", parse, str(path)], work)
    wall, cpu, rss = timed([*evalglass(), "score", str(path), "--records", "host_records"], work)
    print(
        f"JSONL rows reader, {rows:,} rows with clusters: {wall:.2f} s ({cpu:.2f} s CPU), "
        f"{rss:.0f} MB; {wall / floor:.2f}x orjson's bare per-line parse ({floor:.2f} s, "
        f"{floor_cpu:.2f} s CPU)   target 1.5x, < 150 MB"
    )
    path.unlink()
    return wall


def bench_merge(work: Path, partials: int = 1000) -> None:
    from evalglass.evidence.adapters import aggregates, rows

    source = work / "part.jsonl"
    with source.open("w") as stream:
        for i in range(2000):
            stream.write(
                json.dumps(
                    {
                        "metric": f"bench/metric_{i % METRICS}",
                        "score": (i % 7) / 7,
                        "cluster": f"c{i % 50}",
                    }
                )
                + "\n"
            )
    doc = json.dumps(aggregates.to_document(rows.aggregates(source, "part")))
    folder = work / "partials"
    folder.mkdir()
    for k in range(partials):
        (folder / f"part-{k:04d}.json").write_text(doc)
    wall, _, rss = timed([*evalglass(), "score", str(folder), "--records", "host_records"], work)
    start = time.perf_counter()
    files = sorted(folder.iterdir())
    aggregates.read_together([(p, p.name) for p in files])
    inner = time.perf_counter() - start
    print(
        f"merging {partials:,} partials of {METRICS} metrics (5 clusters each, 50 in all): "
        f"{inner:.2f} s to read and merge, {wall:.2f} s for evalglass score, {rss:.0f} MB"
        "   target < 1 s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=100_000_000)
    parser.add_argument("--skip-parquet", action="store_true")
    parser.add_argument("--paired-rows", type=int, default=10_000_000)
    parser.add_argument("--only-paired", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="evalglass-bench-") as tmp:
        work = Path(tmp)
        (work / "host_records").mkdir()
        print(
            f"cores: {len(os.sched_getaffinity(0))}; load average {os.getloadavg()[0]:.1f}; "
            f"peak RSS of this script so far {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB"
        )
        bench_paired(work, args.paired_rows)
        if args.only_paired:
            return
        bench_merge(work)
        jsonl = bench_jsonl(work)
        if not args.skip_parquet:
            parquet = bench_parquet(work, args.rows)
            print(
                f"  {parquet / jsonl:.1f}x the JSONL path's time at 1M rows, for "
                f"{args.rows / 1e6:.0f}x the rows"
            )
        print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
