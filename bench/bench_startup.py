"""Times the installed `evalglass` command from a cold process, beside the interpreter's own floor.

A plain script, hyperfine-like: runs each command in a subprocess several times and prints the
median and fastest wall-clock milliseconds, and each command's own time beyond the floor
(`python -c pass`); asserts nothing. Targets: `--version` within 150 ms, `score` on the bundled
example within 150 ms of its own beyond the floor. The package is compiled to bytecode first, as
an installed one is, so that no run pays for compiling it.
"""

from __future__ import annotations

import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 21
WARMUP = 2
ROOT = Path(__file__).resolve().parents[1]


def evalglass_command() -> list[str]:
    """The console script beside this interpreter, as a user runs it; else the module."""
    script = Path(sys.executable).parent / "evalglass"
    return [str(script)] if script.exists() else [sys.executable, "-m", "evalglass"]


def wall_ms(command: list[str], cwd: Path) -> tuple[float, float, int]:
    """Median and fastest wall-clock milliseconds over RUNS, and the exit code of the last run."""
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("GITHUB_STEP_SUMMARY", None)
    code = 0
    for _ in range(WARMUP):
        subprocess.run(
            command,
            cwd=cwd,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        code = subprocess.run(
            command,
            cwd=cwd,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        ).returncode
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, min(times) * 1000, code


def main() -> None:
    import evalglass as package

    compileall.compile_dir(Path(package.__file__).parent, quiet=1)
    evalglass = evalglass_command()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "host_records", work / "host_records")
        shutil.copy(ROOT / "examples" / "run.json", work / "run.json")
        rows = [
            ("floor: python -c pass", [sys.executable, "-c", "pass"], None),
            ("reference: python -c 'import typer'", [sys.executable, "-c", "import typer"], None),
            ("evalglass --version", [*evalglass, "--version"], 150),
            ("evalglass --help", [*evalglass, "--help"], None),
            ("evalglass score run.json", [*evalglass, "score", "run.json"], None),
            (
                "evalglass score run.json --format json",
                [*evalglass, "score", "run.json", "--format", "json"],
                None,
            ),
            (
                "evalglass score run.json --format markdown",
                [*evalglass, "score", "run.json", "--format", "markdown"],
                None,
            ),
        ]
        print(f"wall clock over {RUNS} runs (after {WARMUP} warm-up runs), {os.cpu_count()} cores;"
              f" load average {os.getloadavg()[0]:.1f}")  # fmt: skip
        print(f"{'command':<44} {'median':>9} {'fastest':>9} {'own':>9}  target")
        floor = 0.0
        for name, command, target in rows:
            median, fastest, code = wall_ms(command, work)
            floor = floor or median  # the first row is the floor
            goal = f"<= {target} ms" if target else ""
            if command[-2:] == ["score", "run.json"]:
                goal = "<= 150 ms of its own"
            note = f" (exit {code})" if code not in (0,) else ""
            print(f"{name:<44} {median:7.1f} ms {fastest:6.1f} ms {median - floor:6.1f} ms  "
                  f"{goal}{note}")  # fmt: skip


if __name__ == "__main__":
    main()
