"""Times `evalglass mcp` as an agent's host sees it, over stdio with the MCP SDK's own client: the
start (process, SDK import, records check, handshake), then `score` on the bundled example.

A plain script: prints medians beside the target and asserts nothing. Target: a warm server
answers a `score` of the bundled example within 1 s (median of CALLS calls after one warm-up call).
Needs the `mcp` extra.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

CALLS = 25
STARTS = 5
TARGET_MS = 1000
ROOT = Path(__file__).resolve().parents[1]


def _command() -> tuple[str, list[str]]:
    script = Path(sys.executable).parent / "evalglass"
    if script.exists():
        return str(script), ["mcp"]
    return sys.executable, ["-m", "evalglass", "mcp"]


async def _session(work: Path, calls: int) -> tuple[float, list[float]]:
    """Seconds to a ready session, and seconds for each `score` call after the warm-up call."""
    command, args = _command()
    params = StdioServerParameters(command=command, args=args, cwd=work)
    start = time.perf_counter()
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        ready = time.perf_counter() - start
        times = []
        for i in range(calls + 1):
            begin = time.perf_counter()
            result = await session.call_tool("score", {"outputs": ["run.json"]})
            if i:  # the first call is the warm-up
                times.append(time.perf_counter() - begin)
            if result.is_error:
                raise SystemExit(f"score failed: {result.content}")
    return ready, times


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "host_records", work / "host_records")
        shutil.copy(ROOT / "examples" / "run.json", work / "run.json")
        starts = [anyio.run(_session, work, 0)[0] for _ in range(STARTS)]
        _, calls = anyio.run(_session, work, CALLS)
    print(f"evalglass mcp over stdio, {os.cpu_count()} cores")
    print(f"{'measure':<52} {'median':>9} {'fastest':>9}  target")
    print(
        f"{f'start to a ready session ({STARTS} starts)':<52} "
        f"{statistics.median(starts) * 1000:7.1f} ms {min(starts) * 1000:6.1f} ms"
    )
    print(
        f"{f'score of the bundled example, warm ({CALLS} calls)':<52} "
        f"{statistics.median(calls) * 1000:7.1f} ms {min(calls) * 1000:6.1f} ms  "
        f"<= {TARGET_MS} ms"
    )


if __name__ == "__main__":
    main()
