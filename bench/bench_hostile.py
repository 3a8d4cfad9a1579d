"""Peak memory and wall time of `evalglass score` on each hostile input, at the default caps.

A plain script: prints numbers beside the target (under 500 MB peak resident memory on every
hostile input, and a refusal or an answer rather than a crash), asserts nothing. Each bomb is
built in a temporary folder and scored in its own subprocess, so each peak is its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hostile import bombs

TARGET_MB = 500
SCORE = "import sys; from evalglass.__main__ import main; sys.argv = ['evalglass', *sys.argv[1:]]; main()"

BOMBS: dict[str, Callable[[Path], Path]] = {
    "zstd header.json declaring 3 GiB": lambda d: bombs.expanding_header(d / "h.eval", 3 << 30),
    "header.json of 192 MiB (past the parse cap)": lambda d: bombs.expanding_header(
        d / "p.eval", 192 << 20
    ),
    "summaries: 1,000,000 tiny samples": lambda d: bombs.many_summaries(d / "s.eval", 1_000_000),
    "reductions: 10,000,000 tiny values": lambda d: bombs.many_reductions(d / "r.eval", 10_000_000),
    "2 GiB sparse generic JSON": lambda d: bombs.sparse_json(d / "sparse.json", 2 << 30),
    "generic JSON of 1,900,000 empty objects (under the cap)": lambda d: bombs.dense_json(
        d / "dense.json", 1_900_000
    ),
    "Inspect log with 20,000 retries of one metric": lambda d: bombs.retries(d / "r.json", 20_000),
}


def peak_of(path: Path) -> tuple[float, float, int, str]:
    """(peak MB, seconds, exit code, first line of stderr) of scoring `path`."""
    started = time.perf_counter()
    result = subprocess.run(
        [
            "/usr/bin/time",
            "-f",
            "%M",
            sys.executable,
            "-c",
            SCORE,
            "score",
            str(path),
            "--records",
            str(ROOT / "host_records"),
        ],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    seconds = time.perf_counter() - started
    lines = result.stderr.strip().splitlines()
    return int(lines[-1]) / 1024, seconds, result.returncode, (lines[0] if len(lines) > 1 else "")


def main() -> None:
    print(f"{'hostile input':58} {'peak MB':>8} {'seconds':>8} exit  (target < {TARGET_MB} MB)")
    with tempfile.TemporaryDirectory() as folder:
        for name, build in BOMBS.items():
            path = build(Path(folder))
            peak, seconds, code, message = peak_of(path)
            print(f"{name:58} {peak:8.0f} {seconds:8.1f} {code:4}  {message[:70]}")
            path.unlink()


if __name__ == "__main__":
    main()
