"""Times `evalglass trend` over 1,000 saved scorecards of 100 metrics each, beside the floor.

A plain script: prints median seconds, asserts nothing. Run it with the repository on PYTHONPATH.
Target: the scorecards read, the series built and each format rendered in at most 5 s, and the
command end to end likewise.

The scorecards are one real 100-metric scorecard (scored from generated records and an output)
carried through 1,000 weekly runs: values drift, a threshold is raised now and then, and some
metrics lose and regain authority, as a long-lived suite's would.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import attrs

from evalglass import contract
from evalglass.render import trend as render_trend
from evalglass.render.json import to_contract
from evalglass.shell import api

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scorecard import write_inputs

REPEATS = 3
RUNS = 1_000
METRICS = 100
TARGET = 5.0
T = TypeVar("T")


def timed(work: Callable[[], T]) -> tuple[float, float, T]:
    """Median wall and CPU seconds over REPEATS (CPU: this process and its children, which on
    a shared machine says what the work costs when the wall clock also counts waiting), and the
    last result."""
    walls, cpus, result = [], [], None
    for _ in range(REPEATS):
        start, cpu = time.perf_counter(), _cpu()
        result = work()
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu() - cpu)
    return statistics.median(walls), statistics.median(cpus), result  # type: ignore[return-value]


def _cpu() -> float:
    own, children = os.times(), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.user + own.system + children.ru_utime + children.ru_stime


def _run(doc: contract.Scorecard, week: int) -> contract.Scorecard:
    """The scorecard of one week: every value moved along its own slow wave."""
    metrics = []
    for i, m in enumerate(doc.metrics):
        shift = 0.02 * math.sin(week / 9 + i)
        value = None if m.value is None else m.value + shift
        interval = (
            None
            if m.interval is None or None in m.interval
            else (m.interval[0] + shift, m.interval[1] + shift)
        )  # type: ignore[operator]
        authority, threshold = m.authority, m.threshold
        if i % 10 == 3 and (week // 50) % 2:  # lose authority for 50 weeks, then regain it
            authority = contract.Authority(
                outcome="blocked", reasons=(contract.Reason("judge_drifted", "drifted"),), notes=()
            )
        if threshold is not None and threshold.value is not None and i % 7 == 0:
            threshold = attrs.evolve(threshold, value=threshold.value + 0.01 * (week // 200))
        metrics.append(
            attrs.evolve(
                m, value=value, interval=interval, authority=authority, threshold=threshold
            )
        )
    when = dt.datetime(2026, 1, 5, tzinfo=dt.UTC) + dt.timedelta(weeks=week)
    return attrs.evolve(doc, metrics=tuple(metrics), evaluated_at=when)


def write_series(folder: Path) -> list[Path]:
    output = write_inputs(folder, METRICS)
    base = to_contract(api.score([output], folder / "host_records", as_of=dt.date(2026, 1, 5)))
    paths = []
    for week in range(RUNS):
        path = folder / "runs" / f"run-{week:04d}.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(contract.dumps(_run(base, week)), encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = write_series(folder)
        size = sum(p.stat().st_size for p in paths)
        print(
            f"{RUNS} scorecards of {METRICS} metrics ({size / 1e6:.0f} MB of JSON), "
            f"median of {REPEATS}, {os.cpu_count()} cores"
        )
        floor, floor_cpu, _ = timed(lambda: [p.read_bytes() for p in paths])
        print(f"{'':<40} {'wall':>9} {'cpu':>9}")
        print(f"{'floor: read the files':<40} {floor:7.3f} s {floor_cpu:7.3f} s")
        load, load_cpu, series = timed(lambda: api.trend(paths))
        print(f"{'read and build the series':<40} {load:7.3f} s {load_cpu:7.3f} s")
        for fmt in render_trend.FORMATS:
            seconds, cpu, text = timed(lambda f=fmt: render_trend.render(series, f))
            print(
                f"{'render ' + fmt.value:<40} {seconds:7.3f} s {cpu:7.3f} s   read + render "
                f"{load + seconds:5.2f} s wall, {load_cpu + cpu:5.2f} s cpu  (target <= "
                f"{TARGET:g} s; {len(text) / 1e6:.1f} MB)"
            )
        command = [str(Path(sys.executable).parent / "evalglass"), "trend", *map(str, paths)]
        for fmt in render_trend.FORMATS:
            out = folder / f"trend.{fmt.value}"
            seconds, cpu, done = timed(
                lambda f=fmt, o=out: subprocess.run(
                    [*command, "--format", f.value, "--output", str(o)],
                    check=False,
                    capture_output=True,
                )
            )
            note = "" if done.returncode == 0 else f" (exit {done.returncode})"
            print(
                f"{'evalglass trend --format ' + fmt.value:<40} {seconds:7.3f} s {cpu:7.3f} s"
                f"   (target <= {TARGET:g} s){note}"
            )


if __name__ == "__main__":
    main()
