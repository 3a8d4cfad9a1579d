"""Scale paths beside their floors: Parquet through DuckDB (with and without epochs), the JSONL
rows reader at 1M rows (with and without epochs), merging 1,000 partials, a Parquet baseline
paired with the current rows, and a 20,000-sample Inspect log beside its floor (listing,
decompressing and `json.loads` of the three members evalglass reads; target 1.3x) and beside
Inspect's own `read_eval_log` (target 50x, when inspect_ai is installed).

A plain script: prints each figure beside its floor and the ratio, asserts nothing. The floors:
for Parquet, a plain DuckDB query computing the same statistics in floating point over the same
file (with epochs: each sample's mean first, then per metric n, Σ, Σ² and per cluster n, Σ); for
JSONL and CSV through DuckDB, DuckDB's own `read_json` (`read_csv`) with the same group-by; for
the pure rows reader (DuckDB hidden), orjson's bare per-line parse of the file. Targets: Parquet
within 2x of its floor and under 1 GB, at 100M rows, 20 metrics, 10,000 clusters; JSONL through
DuckDB within 1.3x of its floor and under 150 MB; the pure rows reader within 3x of orjson's
parse; JSONL and CSV of 10M rows, which `evalglass score` reads through DuckDB, within 1.5x of
DuckDB's own query of the same statistics (`--engine-rows`); every DuckDB path under 1 GiB peak
on rows in random order with epochs and 50,000 clusters (`--memory-rows`, `--memory-text-rows`).
`--rows N` and `--paired-rows N` scale the runs down; the generated files go to a
temporary folder and are deleted after. The JSONL and CSV figures and their floors run `--repeat`
times in turn (medians printed): their single runs moved by half on a shared machine. The
evalglass package is compiled to bytecode first, as an installed one is, so that no run pays for
compiling it; the fixed costs of a run (starting evalglass, importing DuckDB) are printed first,
since the floors pay only the second.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

METRICS = 20
CLUSTERS = 10_000


def generate(
    path: Path,
    rows: int,
    seed: int = 0,
    *,
    epochs: bool = False,
    clusters: int = CLUSTERS,
    shuffled: bool = False,
) -> None:
    """`rows` rows: half the metrics pass/fail, half graded; each sample in one of `clusters`
    clusters. With `epochs`, every tenth sample is scored twice (epochs 1 and 2). Another `seed`
    gives other scores for the same samples; `shuffled`, the rows in random order (no sample's
    rows together). Parquet, or JSON lines for a `.jsonl` path, CSV for a `.csv` path."""
    import duckdb

    unit = f"(i // {METRICS})"
    if epochs:
        sample = f"(({unit} // 11) * 10 + least({unit} % 11, 9))"
        epoch = f", CASE WHEN {unit} % 11 = 10 THEN 2 ELSE 1 END AS epoch"
    else:
        sample, epoch = unit, ""
    kind = {".jsonl": "json", ".csv": "csv, HEADER"}.get(
        path.suffix, "parquet, ROW_GROUP_SIZE 1000000"
    )
    order = f"ORDER BY hash(i + {seed} + 1)" if shuffled else ""
    config = {"preserve_insertion_order": shuffled, "memory_limit": "3GB"}
    duckdb.connect(config=config).execute(f"""COPY (
        SELECT 'bench/metric_' || (i % {METRICS}) AS metric,
               CASE WHEN i % {METRICS} < {METRICS // 2}
                    THEN CAST(hash(i + {seed}) % 5 < 4 AS DOUBLE)
                    ELSE (hash(i + {seed}) % 10000) / 10000.0 END
                   AS score,
               's' || {sample} AS sample_id,
               'c' || ({sample} % {clusters}) AS cluster,
               'acme/model-x' AS model{epoch}
        FROM range({rows}) t(i) {order}
    ) TO '{path}' (FORMAT {kind})""")


def floor_query(reader: str, epochs: bool) -> str:
    """The plain DuckDB query of the same statistics in floating point: per metric n, Σ, Σ² and
    per metric and cluster n, Σ; with epochs, over each sample's mean."""
    if epochs:
        source = (f"(SELECT metric, sample_id, min(cluster) AS cluster, avg(score) AS score "
                  f"FROM {reader} GROUP BY metric, sample_id)")  # fmt: skip
    else:
        source = reader
    return (f"SELECT metric, cluster, count(score), sum(score), sum(score * score) FROM {source} "
            "GROUP BY GROUPING SETS ((metric), (metric, cluster))")  # fmt: skip


def duckdb_floor(reader: str, epochs: bool) -> list[str]:
    """A process running `floor_query` over the file named by its first argument."""
    text = floor_query(reader.replace("FILE", "?"), epochs)
    script = f"import duckdb, sys; duckdb.connect().execute({text!r}, [sys.argv[1]]).fetchall()"
    return [sys.executable, "-c", script]


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


Figure = tuple[float, float, float]


def in_turn(commands: list[list[str]], cwd: Path, repeat: int) -> list[Figure]:
    """`timed` of each command, `repeat` times in turn, and the median of each figure (the peak
    memory: the highest): on a shared machine a single run moves with the load of the moment,
    the commands of one round alike."""
    runs = [[timed(command, cwd) for command in commands] for _ in range(repeat)]

    def median(figures: list[Figure]) -> Figure:
        return (
            statistics.median(f[0] for f in figures),
            statistics.median(f[1] for f in figures),
            max(f[2] for f in figures),
        )

    return [median([run[k] for run in runs]) for k in range(len(commands))]


def evalglass() -> list[str]:
    script = Path(sys.executable).parent / "evalglass"
    return [str(script)] if script.exists() else [sys.executable, "-m", "evalglass"]


# The summary table docs/scale.md shows, a row per figure, printed at the end of a run.
TABLE: list[str] = []


def line(
    what: str,
    figure: tuple[float, float, float],
    floor: tuple[float, float, float],
    target: str,
    row: str = "",
) -> str:
    """One figure beside its floor, as printed; with `row`, also the table's row for it."""
    wall, cpu, rss = figure
    if row:
        TABLE.append(f"| {row} | {wall / floor[0]:.2f}x | {cpu / floor[1]:.2f}x | {rss:.0f} MB "
                     f"({floor[2]:.0f}) | {target} |")  # fmt: skip
    return (f"  {what:34} {wall:7.2f} s ({cpu:.2f} s CPU) {rss:6.0f} MB;  floor {floor[0]:.2f} s "
            f"({floor[1]:.2f} s CPU) {floor[2]:.0f} MB;  {wall / floor[0]:.2f}x wall, "
            f"{cpu / floor[1]:.2f}x CPU   target {target}")  # fmt: skip


def bench_parquet(work: Path, rows: int, epochs: bool) -> None:
    path = work / "scores.parquet"
    start = time.perf_counter()
    generate(path, rows, epochs=epochs)
    print(
        f"Parquet, {rows:,} rows, {METRICS} metrics, {CLUSTERS:,} clusters"
        f"{', every tenth sample in two epochs' if epochs else ''}: "
        f"{path.stat().st_size / 1e9:.2f} GB, written in {time.perf_counter() - start:.0f} s; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    score = [*evalglass(), "score", str(path), "--records", "host_records"]
    floor_command = [*duckdb_floor("read_parquet(FILE)", epochs), str(path)]
    what = f"{rows:,} Parquet rows{', epochs' if epochs else ''}"
    if epochs:
        # The plain query with epochs takes half a minute and GBs: once.
        figure, floor = in_turn([score, floor_command], work, 1)
    else:
        figure, floor, bare = in_turn([score, floor_command, [*groupings(), str(path)]], work, 3)
    print(f"  floor: plain DuckDB query, floating point  {floor[0]:.2f} s ({floor[1]:.2f} s CPU) "
          f"{floor[2]:.0f} MB")  # fmt: skip
    print(line("evalglass score", figure, floor, "2x, < 1024 MB", what))
    if not epochs:
        print(line("its three groupings, counts only", bare, floor, "(what no exact path avoids)",
                   f"{what}: the three groupings, bare"))  # fmt: skip
        print("    (each figure and its floor: medians of 3 runs in turn)")
    path.unlink()


def groupings() -> list[str]:
    """A process running, bare (a count each), the three groupings the exact statistics need
    without epochs: per sample (the repeated-sample check), per metric and score (Σq² from
    each distinct score), per metric and cluster (Σq per cluster). Each is as costly as the
    floor's one group-by; together they bound how near the floor the exact path can come."""
    # Each group's count kept (the largest taken), so that no group's result crosses to Python.
    queries = [
        f"SELECT max(n) FROM (SELECT {keys}, count(*) AS n FROM read_parquet(?) GROUP BY ALL)"
        for keys in ("hash(sample_id) AS id", "metric, score", "metric, cluster")
    ]
    script = (f"import duckdb, sys; con = duckdb.connect()\n"
              f"for q in {queries!r}: con.execute(q, [sys.argv[1]]).fetchall()")  # fmt: skip
    return [sys.executable, "-c", script]


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


def pure_evalglass() -> list[str]:
    """`evalglass` with DuckDB made unavailable, as where the `parquet` extra is not installed:
    JSONL and CSV rows then take the pure rows reader."""
    hide = (
        "import sys; sys.modules['duckdb'] = None; from evalglass.__main__ import main; "
        "sys.argv = ['evalglass', *sys.argv[1:]]; main()"
    )
    return [sys.executable, "-c", hide]


def engine_evalglass() -> list[str]:
    """`evalglass` reading every JSONL and CSV rows file through DuckDB, whatever its size: the
    engine path's own figure, where `evalglass score` would take the rows reader."""
    force = (
        "import sys; from evalglass.evidence.adapters import _rows_engine as e; "
        "e.FROM_BYTES = dict.fromkeys(e.FROM_BYTES, 0); from evalglass.__main__ import main; "
        "sys.argv = ['evalglass', *sys.argv[1:]]; main()"
    )
    return [sys.executable, "-c", force]


def bench_jsonl(work: Path, rows: int, epochs: bool, repeat: int = 1) -> None:
    path = work / "rows.jsonl"
    generate(path, rows, epochs=epochs)
    print(
        f"JSONL, {rows:,} rows with clusters and sample ids"
        f"{', every tenth sample in two epochs' if epochs else ''}: "
        f"{path.stat().st_size / 1e6:.0f} MB; load average {os.getloadavg()[0]:.1f}"
    )
    parse = "import orjson, sys\nfor line in open(sys.argv[1], 'rb'):\n    orjson.loads(line)"
    floor = [*duckdb_floor("read_json(FILE)", epochs), str(path)]
    score = ["score", str(path), "--records", "host_records"]
    chosen, duck = in_turn([[*evalglass(), *score], floor], work, repeat)
    engine, duck_again = in_turn([[*engine_evalglass(), *score], floor], work, repeat)
    pure, orjson_floor = in_turn(
        [[*pure_evalglass(), *score], [sys.executable, "-c", parse, str(path)]], work, repeat
    )
    what = f"{rows:,} JSON lines{', epochs' if epochs else ''}"
    print(line("evalglass score, DuckDB installed", chosen, duck, "1.3x DuckDB, < 150 MB",
               f"{what}, DuckDB installed"))  # fmt: skip
    print(line("  the same, forced through DuckDB", engine, duck_again, "(the engine path)",
               f"{what}, forced through DuckDB"))  # fmt: skip
    print(line("evalglass score, pure rows reader", pure, orjson_floor, "3x orjson's parse",
               f"{what}, pure rows reader"))  # fmt: skip
    if repeat > 1:
        print(f"    (each figure and its floor: medians of {repeat} runs in turn)")
    if not epochs:
        table = work / "rows.csv"
        duckdb_copy(path, table)
        print(f"CSV, the same rows: {table.stat().st_size / 1e6:.0f} MB")
        engine, duck = in_turn(
            [[*evalglass(), "score", str(table), "--records", "host_records"],
             [*duckdb_floor("read_csv(FILE)", epochs), str(table)]], work, repeat,
        )  # fmt: skip
        print(line("evalglass score, DuckDB installed", engine, duck, "1.3x DuckDB read_csv",
                   f"{rows:,} CSV rows, DuckDB installed"))  # fmt: skip
        table.unlink()
    path.unlink()


def bench_pure_orders(work: Path, rows: int, repeat: int = 1) -> None:
    """The pure rows reader (DuckDB hidden) on JSONL and CSV, rows sorted (each sample's metrics
    together, as written) and shuffled (every row at a random place), with and without epochs,
    each beside its bare parse: orjson a line for JSONL, a `csv.reader` loop for CSV."""
    parse_json = "import orjson, sys\nfor line in open(sys.argv[1], 'rb'):\n    orjson.loads(line)"
    parse_csv = ("import csv, sys\nfor row in csv.reader(open(sys.argv[1], newline='')):\n"
                 "    pass")  # fmt: skip
    for epochs in (False, True):
        for shuffled in (False, True):
            path, table = work / "pure.jsonl", work / "pure.csv"
            generate(path, rows, epochs=epochs)
            if shuffled:
                shuffle(path)
            duckdb_copy(path, table)
            shape = (f"{rows:,} rows{', epochs' if epochs else ''}, "
                     f"{'shuffled' if shuffled else 'sorted'}")  # fmt: skip
            print(f"pure rows reader, {shape}: JSONL {path.stat().st_size / 1e6:.0f} MB, "
                  f"CSV {table.stat().st_size / 1e6:.0f} MB; load average "
                  f"{os.getloadavg()[0]:.1f}")  # fmt: skip
            for name, source, parse, floor in (
                ("JSONL", path, parse_json, "3x orjson's parse, < 150 MB"),
                ("CSV", table, parse_csv, "3x csv.reader"),
            ):
                score = [*pure_evalglass(), "score", str(source), "--records", "host_records"]
                figure, bare = in_turn(
                    [score, [sys.executable, "-c", parse, str(source)]], work, repeat
                )
                print(line(f"evalglass score, {name}", figure, bare, floor,
                           f"{shape}, {name}, pure rows reader"))  # fmt: skip
            path.unlink()
            table.unlink()
    if repeat > 1:
        print(f"    (each figure and its floor: medians of {repeat} runs in turn)")


def bench_engine(work: Path, rows: int, repeat: int) -> None:
    """JSON lines and CSV large enough that `evalglass score` reads them through DuckDB and
    start-up no longer dominates (10M rows), beside DuckDB's own query of the same statistics
    over the same file (`read_json`, `read_csv`): the peer a user with DuckDB would write."""
    for suffix, reader, kind in ((".jsonl", "read_json(FILE)", "JSON lines"),
                                 (".csv", "read_csv(FILE)", "CSV rows")):  # fmt: skip
        path = work / f"engine{suffix}"
        generate(path, rows)
        print(f"{kind}, {rows:,} rows read through DuckDB: {path.stat().st_size / 1e6:.0f} MB; "
              f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
        figure, floor = in_turn(
            [[*evalglass(), "score", str(path), "--records", "host_records"],
             [*duckdb_floor(reader, False), str(path)]], work, repeat,
        )  # fmt: skip
        what = f"{rows:,} {kind}, through DuckDB"
        print(line("evalglass score", figure, floor, "1.5x DuckDB's query", what))
        path.unlink()
    if repeat > 1:
        print(f"    (each figure and its floor: medians of {repeat} runs in turn)")


def shuffle(path: Path) -> None:
    """The JSON lines rewritten in a random order (fixed: by a hash of the row), by DuckDB."""
    import duckdb

    shuffled = path.with_suffix(".shuffled.jsonl")
    duckdb.connect().execute(
        f"COPY (SELECT * FROM read_json('{path}') ORDER BY hash(sample_id, metric, "
        f"score)) TO '{shuffled}' (FORMAT json)"
    )
    shuffled.replace(path)


def bench_memory(work: Path, rows: int, text_rows: int) -> None:
    """Peak memory of each DuckDB path on the hardest shape for it: rows in random order, every
    tenth sample in two epochs, 50,000 clusters. Parquet at `rows`; JSON lines and CSV (read
    through DuckDB, whatever their size) at `text_rows`. The peak is the whole process's,
    DuckDB's and Python's."""
    for suffix, count in ((".parquet", rows), (".jsonl", text_rows), (".csv", text_rows)):
        path = work / f"hard{suffix}"
        generate(path, count, epochs=True, clusters=50_000, shuffled=True)
        run = evalglass() if suffix == ".parquet" else engine_evalglass()
        wall, cpu, rss = timed([*run, "score", str(path), "--records", "host_records"], work)
        what = f"{count:,} {suffix[1:]} rows, unsorted, epochs, 50,000 clusters"
        TABLE.append(f"| {what} | {wall:.1f} s | {cpu:.1f} s | {rss:.0f} MiB | < 1024 MiB |")
        print(f"  {what}: {wall:.1f} s ({cpu:.1f} s CPU), peak {rss:.0f} MiB   target < 1024 MiB")
        path.unlink()


def duckdb_copy(source: Path, target: Path) -> None:
    """The JSON lines as CSV with a header, written by DuckDB."""
    import duckdb

    duckdb.connect().execute(
        f"COPY (SELECT * FROM read_json('{source}')) TO '{target}' (FORMAT csv, HEADER)"
    )


def bench_start(work: Path) -> None:
    """What every run pays before reading a row: `evalglass score` of a one-row file (the pure
    reader, below the engine's threshold), and Python importing DuckDB and connecting."""
    one = work / "one.jsonl"
    one.write_text('{"metric": "bench/metric_0", "score": 1}\n')
    start = timed([*evalglass(), "score", str(one), "--records", "host_records"], work)
    script = "import duckdb; duckdb.connect().execute('SELECT 1').fetchall()"
    duck = timed([sys.executable, "-c", script], work)
    print(f"start-up: evalglass score of one row {start[0]:.2f} s ({start[1]:.2f} s CPU) "
          f"{start[2]:.0f} MB; importing DuckDB {duck[0]:.2f} s ({duck[1]:.2f} s CPU) "
          f"{duck[2]:.0f} MB")  # fmt: skip
    one.unlink()


def bench_inspect(work: Path, samples: int, repeat: int) -> None:
    """An Inspect `.eval` log of `samples` samples (bench_memory.py's, with a `samples/` member
    per sample, as a real log has) beside its floor: listing the archive, decompressing the
    three members evalglass reads (header, summaries, reductions) and `json.loads` of each, in
    one process. Then Inspect's own `read_eval_log` on the same file, once, when inspect_ai is
    installed (`pip install inspect_ai`): its ratio to evalglass, target 50x."""
    import bench_memory  # beside this script

    path = work / "run.eval"
    bench_memory.write_zip(path, bench_memory.eval_members(samples))
    print(f"Inspect .eval, {samples:,} samples, {len(bench_memory.SCORERS)} scorers, zstd: "
          f"{path.stat().st_size / 1e6:.0f} MB; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    score = [*evalglass(), "score", str(path), "--records", "host_records"]
    floor = [sys.executable, "-c", bench_memory.PARSE_EVAL, str(path)]
    figure, parsed = in_turn([score, floor], work, repeat)
    what = f"{samples:,}-sample Inspect log"
    print(line("evalglass score", figure, parsed, "1.3x the floor", what))
    if repeat > 1:
        print(f"    (the figure and its floor: medians of {repeat} runs in turn)")
    if importlib.util.find_spec("inspect_ai") is None:
        print("  Inspect's read_eval_log: not installed (pip install inspect_ai), not run")
    else:
        read = "import sys; from inspect_ai.log import read_eval_log; read_eval_log(sys.argv[1])"
        wall, cpu, rss = timed([sys.executable, "-c", read, str(path)], work)
        print(f"  Inspect's read_eval_log, once           {wall:7.2f} s ({cpu:.2f} s CPU) "
              f"{rss:6.0f} MB;  {wall / figure[0]:.0f}x evalglass's wall, {cpu / figure[1]:.0f}x "
              "its CPU   target 50x")  # fmt: skip
    path.unlink()


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
    parser.add_argument("--jsonl-rows", type=int, default=1_000_000)
    parser.add_argument("--skip-parquet", action="store_true")
    parser.add_argument("--paired-rows", type=int, default=10_000_000)
    parser.add_argument("--skip-paired", action="store_true")
    parser.add_argument("--skip-pure-orders", action="store_true")
    parser.add_argument("--engine-rows", type=int, default=10_000_000)
    parser.add_argument("--skip-engine", action="store_true")
    parser.add_argument("--memory-rows", type=int, default=20_000_000)
    parser.add_argument("--memory-text-rows", type=int, default=5_000_000)
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument(
        "--repeat", type=int, default=5, help="runs of each JSONL and CSV figure and its floor"
    )
    parser.add_argument("--inspect-samples", type=int, default=20_000)
    parser.add_argument("--skip-inspect", action="store_true")
    args = parser.parse_args()
    import evalglass

    compileall.compile_dir(Path(evalglass.__file__).parent, quiet=1)
    with tempfile.TemporaryDirectory(prefix="evalglass-bench-") as tmp:
        work = Path(tmp)
        (work / "host_records").mkdir()
        print(
            f"cores: {len(os.sched_getaffinity(0))}; load average {os.getloadavg()[0]:.1f}; "
            f"peak RSS of this script so far {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB"
        )
        bench_start(work)
        if not args.skip_inspect:
            bench_inspect(work, args.inspect_samples, args.repeat)
        for epochs in (False, True):
            bench_jsonl(work, args.jsonl_rows, epochs, args.repeat)
        if not args.skip_pure_orders:
            bench_pure_orders(work, args.jsonl_rows, args.repeat)
        if not args.skip_parquet:
            for epochs in (False, True):
                bench_parquet(work, args.rows, epochs)
        if not args.skip_engine:
            bench_engine(work, args.engine_rows, min(args.repeat, 3))
        if not args.skip_memory:
            bench_memory(work, args.memory_rows, args.memory_text_rows)
        bench_merge(work)
        if not args.skip_paired:
            bench_paired(work, args.paired_rows)
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
    print(
        "\nThe table in docs/scale.md (ratios to each figure's floor; peak memory, the floor's in"
    )
    print("brackets):\n")
    print("| figure | wall | CPU | peak | target |\n|---|---|---|---|---|")
    print("\n".join(TABLE))


if __name__ == "__main__":
    main()
