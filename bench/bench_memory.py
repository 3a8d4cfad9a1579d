"""Peak memory and wall time of `evalglass score` on large outputs, beside merely parsing them.

A plain script: prints numbers, asserts nothing. Targets: under 300 MB peak resident memory and
within 2x the time it takes to parse the same file with the JSON parser the reader itself uses
(`json.loads` per line for JSONL; for the `.eval` log, decompressing and `json.loads` of the
members the reader opens). Every command runs in its own subprocess, so each peak is its own.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import zstandard

ROWS = 1_000_000
ROW_METRICS = 10
SAMPLES = 100_000
REPEATS = 3

PARSE_ROWS = """
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    json.loads(line)
"""

# What the Inspect reader opens: the header, the summaries and the reductions.
PARSE_EVAL = """
import json, struct, sys, zipfile, zstandard
path = sys.argv[1]
with open(path, "rb") as raw:
    archive = zipfile.ZipFile(raw)
    for name in ("header.json", "summaries.json", "reductions.json"):
        info = archive.getinfo(name)
        raw.seek(info.header_offset)
        name_len, extra_len = struct.unpack("<HH", raw.read(30)[26:30])
        raw.seek(info.header_offset + 30 + name_len + extra_len)
        data = zstandard.ZstdDecompressor().decompress(
            raw.read(info.compress_size), max_output_size=info.file_size
        )
        json.loads(data)
        del data
"""


def write_rows(path: Path, *, epochs: bool = False) -> None:
    """ROWS JSONL rows: ROW_METRICS metrics over ROWS / ROW_METRICS samples each, half of them
    pass/fail and half graded in [0, 1]. With `epochs`, every row names an epoch and every
    tenth sample is scored twice (epochs 1 and 2)."""
    rng = random.Random(0)
    with path.open("w", encoding="utf-8") as stream:
        for i in range(ROWS // ROW_METRICS):
            sample, epoch = ((i // 11) * 10 + min(i % 11, 9), 2 if i % 11 == 10 else 1)
            for k in range(ROW_METRICS):
                score = int(rng.random() < 0.8) if k % 2 == 0 else round(rng.random(), 4)
                row: dict[str, object] = {
                    "sample_id": f"s{sample if epochs else i:06d}",
                    "metric": f"bench/metric_{k}",
                    "score": score,
                    "model": "acme/model-x",
                }
                if epochs:
                    row["epoch"] = epoch
                stream.write(json.dumps(row) + "\n")


# The four scorers of the Inspect fixture (tests/fixtures/inspect): three pass/fail, one graded.
SCORERS = ("match", "includes", "numeric_closeness", "model_graded_fact")


def _summary(i: int, rng: random.Random) -> dict[str, Any]:
    """One sample's summary, shaped like those Inspect 0.3.285 writes into summaries.json."""
    a, b = rng.randint(1, 99), rng.randint(1, 99)
    scores: dict[str, dict[str, Any]] = {}
    for scorer in SCORERS:
        if scorer == "numeric_closeness":
            value: object = round(rng.random(), 4)
            scores[scorer] = {
                "value": value,
                "answer": str(a * b),
                "explanation": f"pred={a * b}.0 target={a * b}.0 rel_err=0.0000",
                "metadata": {"rel_err": 0.0},
                "history": [],
            }
        else:
            value = "C" if rng.random() < 0.8 else "I"
            scores[scorer] = {
                "value": value,
                "answer": str(a * b),
                "explanation": str(a * b),
                "history": [],
            }
            if scorer == "model_graded_fact":
                scores[scorer]["metadata"] = {"grading": "Key removed from summary (> 1k)"}
    return {
        "id": f"arith-{i:06d}",
        "epoch": 1,
        "input": f"What is {a} * {b}? Reply with just the number.",
        "target": str(a * b),
        "metadata": {"category": "multiplication"},
        "scores": scores,
        "model_usage": {
            "mockllm/model": {"input_tokens": 30, "output_tokens": 1, "total_tokens": 31},
            "mockllm/judge": {"input_tokens": 30, "output_tokens": 9, "total_tokens": 39},
        },
        "role_usage": {},
        "started_at": "2026-11-29T22:43:36.204156+00:00",
        "completed_at": "2026-11-29T22:43:36.464605+00:00",
        "total_time": 0.26,
        "working_time": 0.219,
        "uuid": f"u{i:021d}",
        "retries": 0,
        "completed": True,
        "message_count": 3,
        "turn_count": 1,
    }


def _as_float(value: str | float) -> float:
    return {"C": 1.0, "I": 0.0}[value] if isinstance(value, str) else value


def _summaries(samples: int) -> Iterator[dict[str, Any]]:
    rng = random.Random(1)
    return (_summary(i, rng) for i in range(samples))


def eval_members(samples: int) -> Iterator[tuple[str, bytes]]:
    """The members of an Inspect `.eval` log in the order Inspect writes them, one at a time.
    Each sample also gets its own `samples/` member, as in a real log, so the archive directory
    is as long; their bodies are the summary rather than the full transcript, since the reader
    never opens them."""
    spec = {
        "eval_id": "bench",
        "run_id": "bench",
        "task": "arith",
        "task_id": "bench",
        "created": "2026-11-29T22:43:35+00:00",
        "model": "mockllm/model",
        "dataset": {"name": "arith", "location": "arith.jsonl", "samples": samples},
        "config": {"epochs": 1},
        "scorers": [
            {"name": s, "options": {}, "metrics": [{"name": "inspect_ai/accuracy"}]}
            for s in SCORERS
        ],
    }
    yield "_journal/start.json", json.dumps({"version": 2, "eval": spec, "plan": {}}).encode()
    for summary in _summaries(samples):
        yield f"samples/{summary['id']}_epoch_1.json", json.dumps(summary).encode()
    batch: list[str] = []
    for i, summary in enumerate(_summaries(samples)):
        batch.append(json.dumps(summary))
        if len(batch) == 1000 or i == samples - 1:
            yield f"_journal/summaries/{i // 1000 + 1}.json", f"[{', '.join(batch)}]".encode()
            batch = []
    yield "summaries.json", f"[{', '.join(json.dumps(s) for s in _summaries(samples))}]".encode()
    values: dict[str, list[float]] = {scorer: [] for scorer in SCORERS}
    reductions = []
    for scorer in SCORERS:
        entries = []
        for summary in _summaries(samples):
            score = summary["scores"][scorer]
            values[scorer].append(_as_float(score["value"]))
            entries.append(
                json.dumps(
                    {
                        "value": values[scorer][-1],
                        "answer": score["answer"],
                        "explanation": score["explanation"],
                        "history": [],
                        "sample_id": summary["id"],
                    }
                )
            )
        reductions.append(f'{{"scorer": "{scorer}", "samples": [{", ".join(entries)}]}}')
        del entries
    yield "reductions.json", f"[{', '.join(reductions)}]".encode()
    del reductions
    scores = []
    for scorer in SCORERS:
        mean = statistics.fmean(values[scorer])
        metric = "mean" if scorer == "numeric_closeness" else "accuracy"
        scores.append(
            {
                "name": scorer,
                "scorer": scorer,
                "scored_samples": samples,
                "unscored_samples": 0,
                "params": {},
                "metrics": {
                    metric: {"name": metric, "value": mean, "params": {}},
                    "stderr": {
                        "name": "stderr",
                        "params": {},
                        "value": statistics.stdev(values[scorer]) / samples**0.5,
                    },
                },
            }
        )
    header = {
        "version": 2,
        "status": "success",
        "eval": spec,
        "plan": {"steps": []},
        "results": {"total_samples": samples, "completed_samples": samples, "scores": scores},
        "stats": {
            "started_at": "2026-11-29T22:43:35+00:00",
            "completed_at": "2026-11-29T23:43:35+00:00",
            "model_usage": {},
        },
        "invalidated": False,
        "tags": [],
        "metadata": {},
    }
    yield "header.json", json.dumps(header).encode()


def write_zip(path: Path, members: Iterable[tuple[str, bytes]]) -> None:
    """A zip archive of zstd members (method 93), which Python 3.11's zipfile cannot write;
    with a zip64 end record, since there are more than 65,535 members."""
    compressor = zstandard.ZstdCompressor(level=1)
    directory = []
    with path.open("wb") as out:
        for name, body in members:
            data, crc, encoded = compressor.compress(body), zlib.crc32(body), name.encode()
            offset = out.tell()
            out.write(
                struct.pack(
                    "<IHHHHHIIIHH",
                    0x04034B50,
                    63,
                    0,
                    93,
                    0,
                    0x5B7D,
                    crc,
                    len(data),
                    len(body),
                    len(encoded),
                    0,
                )
            )
            out.write(encoded)
            out.write(data)
            directory.append(
                struct.pack(
                    "<IHHHHHHIIIHHHHHII",
                    0x02014B50,
                    63,
                    63,
                    0,
                    93,
                    0,
                    0x5B7D,
                    crc,
                    len(data),
                    len(body),
                    len(encoded),
                    0,
                    0,
                    0,
                    0,
                    0,
                    offset,
                )
                + encoded
            )
        start = out.tell()
        for entry in directory:
            out.write(entry)
        size, end = out.tell() - start, out.tell()
        count = len(directory)
        out.write(
            struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 63, 63, 0, 0, count, count, size, start)
        )
        out.write(struct.pack("<IIQI", 0x07064B50, 0, end, 1))
        out.write(
            struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
        )


def measure(command: list[str], cwd: Path) -> tuple[float, float, int]:
    """Wall seconds, peak resident MB and exit code of one run of `command`."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, process.returncode  # ru_maxrss is in KiB on Linux


def report(label: str, command: list[str], cwd: Path) -> tuple[float, float]:
    runs = [measure(command, cwd) for _ in range(REPEATS)]
    wall = statistics.median(r[0] for r in runs)
    peak = max(r[1] for r in runs)
    code = runs[-1][2]
    print(f"    {label:<34} {wall:8.2f} s   peak {peak:7.1f} MB   exit {code}")
    return wall, peak


def evalglass_command() -> list[str]:
    script = Path(sys.executable).parent / "evalglass"
    return [str(script)] if script.exists() else [sys.executable, "-m", "evalglass"]


# `evalglass` with DuckDB made unavailable, as where the `parquet` extra is not installed: rows
# files then take the pure rows reader whatever their size.
PURE = (
    "import sys; sys.modules['duckdb'] = None; from evalglass.__main__ import main; "
    "sys.argv = ['evalglass', *sys.argv[1:]]; main()"
)


def write_files(folder: Path) -> None:
    write_rows(folder / "rows.jsonl")
    write_rows(folder / "epochs.jsonl", epochs=True)
    write_zip(folder / "run.eval", eval_members(SAMPLES))


def run(work: Path) -> None:
    evalglass = evalglass_command()
    (work / "host_records").mkdir(exist_ok=True)
    print(f"median wall of {REPEATS} runs, highest peak RSS; targets: < 300 MB, < 2x parse")
    report("floor: python -c pass", [sys.executable, "-c", "pass"], work)
    if not (work / "epochs.jsonl").exists():
        start = time.perf_counter()
        # In a child process: a child's peak RSS starts from its parent's high-water mark.
        subprocess.run([sys.executable, __file__, "--write", str(work)], check=True)
        print(f"    (files written in {time.perf_counter() - start:.1f} s)")
    rows = f"{ROWS:,} rows, {ROW_METRICS} metrics"
    cases = [
        ("rows.jsonl", PARSE_ROWS, rows),
        ("epochs.jsonl", PARSE_ROWS, f"{rows}, every tenth sample in two epochs"),
        ("run.eval", PARSE_EVAL, f"{SAMPLES:,} samples, {len(SCORERS)} scorers, zstd"),
    ]
    for name, parse, what in cases:
        size = (work / name).stat().st_size / 1e6
        print(f"{name} ({what}; {size:.1f} MB on disk)")
        parse_wall, _ = report("parse only (json)", [sys.executable, "-c", parse, name], work)
        score = ["score", name, "--records", "host_records"]
        score_wall, _ = report("evalglass score", [*evalglass, *score], work)
        print(f"    score / parse                      {score_wall / parse_wall:8.2f} x")
        if name.endswith(".jsonl"):
            pure_wall, _ = report(
                "  pure rows reader (DuckDB hidden)", [sys.executable, "-c", PURE, *score], work
            )
            print(f"    pure / parse                       {pure_wall / parse_wall:8.2f} x")


def main() -> None:
    """`bench_memory.py [FOLDER]`: the files are written to FOLDER (kept, and reused when there)
    or to a temporary folder."""
    if sys.argv[1:2] == ["--write"]:
        write_files(Path(sys.argv[2]))
    elif len(sys.argv) > 1:
        Path(sys.argv[1]).mkdir(parents=True, exist_ok=True)
        run(Path(sys.argv[1]))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            run(Path(tmp))


if __name__ == "__main__":
    main()
