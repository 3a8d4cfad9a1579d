"""Times a 10,000-metric scorecard from records and an output to every format, beside the floor.

A plain script: prints median seconds, asserts nothing. Run it with the repository on PYTHONPATH.
Target: records loaded, output read, authority resolved and all six formats rendered in at most
3 s; the Markdown comment within GitHub's 65,536-character limit.
"""

from __future__ import annotations

import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from evalglass.render import Format, render
from evalglass.shell import api

REPEATS = 5
T = TypeVar("T")
METRICS = 10_000
GITHUB_COMMENT_LIMIT = 65_536


# How metrics stand, in proportions a large suite might have: most gates pass, a few fail or are
# blocked or unsound, and many do not gate yet.
_MIX = (
    ["pass"] * 55 + ["fail"] * 5 + ["blocked"] * 3 + ["unsound"] * 2 + ["proposed"] * 15
    + ["informational"] * 10 + ["unrecorded"] * 10
)  # fmt: skip


def write_inputs(folder: Path, n: int) -> Path:
    """n metrics: host records for those that have one, and one generic JSON output measuring
    every metric with value, n and stderr. Returns the output's path."""
    files: dict[str, list[str]] = {
        kind: [f"{kind}:"] for kind in ("metrics", "thresholds", "datasets", "policies")
    }
    measured = {}
    for i in range(n):
        kind = _MIX[i % len(_MIX)]
        metric, dataset = f"suite{i // 100}/task{i}/accuracy", f"data-{i % 50}"
        # Every metric its own numbers, as in a real suite: nothing drawn once serves them all.
        value = (0.70 if kind == "fail" else 0.87) + (i * 37 % 101) / 1000
        samples = 20 if kind == "unsound" else 300 + i % 211
        measured[metric] = {"value": value, "n": samples, "stderr": 0.004 + (i % 13) / 1000}
        if kind == "unrecorded":
            continue
        status = "informational" if kind == "informational" else "gating"
        files["metrics"] += [
            f"  {metric}:",
            f"    status: {status}",
            f"    dataset: {'retired-data' if kind == 'blocked' else dataset}",
            "    min_samples: 100",
        ]
        files["thresholds"] += [
            f"  {metric}:",
            "    op: '>='",
            "    value: 0.85",
            f"    approval: {'proposed' if kind == 'proposed' else 'approved'}",
            "    approved_by: '@alice'",
            "    approved_on: 2026-11-01",
            "    approved_for:",
            f"      dataset_version: '{'2025-01' if kind == 'blocked' else '2026-10'}'",
        ]
    for j in range(50):
        files["datasets"] += [f"  data-{j}:", "    status: validated", "    version: '2026-10'"]
        files["policies"] += [f"  data-{j}:", "    policy: permitted"]
    files["datasets"] += ["  retired-data:", "    status: retired", "    version: '2025-01'"]
    files["policies"] += ["  retired-data:", "    policy: permitted"]
    records = folder / "host_records"
    records.mkdir()
    for kind, lines in files.items():
        (records / f"{kind}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    output = folder / "run.json"
    output.write_text(json.dumps({"model": "acme/model-x", "metrics": measured}), encoding="utf-8")
    return output


def median_seconds(run: Callable[[], object], repeats: int = REPEATS) -> tuple[float, float]:
    """Median wall-clock and process CPU seconds; on a shared machine the CPU time moves less."""
    walls, cpus = [], []
    for _ in range(repeats):
        start, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def timed(phases: dict[str, list[tuple[float, float]]], name: str, run: Callable[[], T]) -> T:
    """Runs once, adding its wall-clock and CPU seconds to phases[name]."""
    start, cpu = time.perf_counter(), time.process_time()
    result = run()
    phases.setdefault(name, []).append((time.perf_counter() - start, time.process_time() - cpu))
    return result


def _medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def read_texts(folder: Path) -> None:
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            json.loads(path.read_text()) if path.suffix == ".json" else path.read_text()


def cli_seconds(folder: Path, output: Path) -> float:
    """What a pipeline runs: `evalglass score` printing workflow commands and writing the other
    five formats, in a fresh process; median wall seconds."""
    script = Path(sys.executable).parent / "evalglass"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "evalglass"]
    command += ["score", str(output), "--records", str(folder / "host_records"),
                "--format", "github"]  # fmt: skip
    for fmt in ("terminal", "markdown", "json", "junit", "html"):
        command += ["--write", f"{fmt}={folder / ('scorecard.' + fmt)}"]
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("GITHUB_STEP_SUMMARY", None)

    def run() -> None:
        subprocess.run(command, stdout=subprocess.DEVNULL, env=env, check=False)

    return median_seconds(run)[0]


def main() -> None:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    print(f"floor: python -c pass (wall)                  {time.perf_counter() - start:8.4f} s")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        output = write_inputs(folder, METRICS)
        records = folder / "host_records"
        print(f"{METRICS} metrics, median of {REPEATS}: wall s, cpu s")
        raw, raw_cpu = median_seconds(functools.partial(read_texts, folder))
        print(f"    read the text, parse the JSON only        {raw:8.4f} {raw_cpu:8.4f}")
        # Each repeat scores afresh and renders that scorecard once in every format, as one
        # run does: nothing a first render computes is reused by a later repeat.
        phases: dict[str, list[tuple[float, float]]] = {}
        sizes: dict[str, int] = {}
        for _ in range(REPEATS):
            scorecard = timed(phases, "score", lambda: api.score([output], records))
            for fmt in Format:
                text = timed(phases, fmt.value, functools.partial(render, scorecard, fmt))
                sizes[fmt.value] = len(text)
        scored, scored_cpu = _medians(phases.pop("score"))
        print(f"    load, read and resolve (api.score)        {scored:8.4f} {scored_cpu:8.4f}")
        counts = scorecard.counts
        print(
            f"    verdict {scorecard.verdict.value}: {counts.passed} passed, {counts.failed} "
            f"failed, {counts.blocked} blocked or unsound, {counts.informational} informational"
        )
        total, total_cpu = scored, scored_cpu
        for name, runs in phases.items():
            seconds, cpu = _medians(runs)
            total, total_cpu = total + seconds, total_cpu + cpu
            print(f"    render {name:<10} {sizes[name]:>12,} chars     {seconds:8.4f} {cpu:8.4f}")
        print(
            f"    total                                     {total:8.4f} {total_cpu:8.4f}"
            "   (target 3 s)"
        )
        print(
            f"    one CLI run writing every format          {cli_seconds(folder, output):8.4f}"
            "   (wall, start-up included)"
        )
        comment = sizes[Format.MARKDOWN.value]
        fits = "within" if comment <= GITHUB_COMMENT_LIMIT else "OVER"
        print(f"    markdown comment {comment:,} chars: {fits} GitHub's {GITHUB_COMMENT_LIMIT:,}")


if __name__ == "__main__":
    main()
