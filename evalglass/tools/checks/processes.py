"""Run one process to completion or its time limit: a new session, so a timeout kills the whole
process group (grandchildren too); stdout discarded, the end of stderr kept. I/O only; what the
exit means is for `attempts.py`. On Windows, which has no process groups to signal, the tree is
ended with `taskkill /T /F` from the check's process.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import IO

import attrs

from evalglass.evidence.model import STDERR_KEPT

_CHUNK = 65536


@attrs.frozen(kw_only=True)
class Finished:
    """How a process ended: its exit code (-N when signal N ended it), or that it timed out."""

    exit_code: int
    timed_out: bool
    duration: float  # seconds
    stderr: str  # the last STDERR_KEPT bytes it wrote to stderr


def run_process(argv: Sequence[str], cwd: str, timeout: float) -> Finished:
    """Run `argv` in `cwd` for at most `timeout` seconds, then kill its process group.

    OSError when it cannot start (executable not found, not executable). Whatever the process
    leaves behind in its group when it ends is killed too: a check's processes do not outlive it.
    """
    started = time.monotonic()
    process = subprocess.Popen(
        list(argv), cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    assert process.stderr is not None
    tail = bytearray()
    reader = threading.Thread(target=_drain, args=(process.stderr, tail), daemon=True)
    reader.start()
    timed_out = False
    try:
        code = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(process.pid)
        code = process.wait()
    except BaseException:
        # Interrupted (Ctrl-C): take the whole group down with us.
        _kill_group(process.pid)
        process.wait()
        raise
    duration = time.monotonic() - started
    _kill_group(process.pid)
    # A process that left its group (setsid) may hold stderr open: do not wait for it for ever.
    reader.join(timeout=1.0)
    return Finished(exit_code=code, timed_out=timed_out, duration=duration, stderr=_text(tail))


def _kill_group(pgid: int) -> None:
    if sys.platform == "win32":
        # Windows' own tree kill: every process the check's started (/T), forced (/F). While
        # `Popen` holds the process's handle its id cannot be reused, so no other tree is hit;
        # the descendants of a process that already ended cannot be found from it.
        subprocess.run(
            ["taskkill", "/T", "/F", "/PID", str(pgid)], check=False,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _drain(stream: IO[bytes], tail: bytearray) -> None:
    """Read the stream to its end, keeping only its last STDERR_KEPT bytes."""
    with contextlib.suppress(OSError, ValueError):
        while chunk := stream.read1(_CHUNK):  # type: ignore[attr-defined]
            tail += chunk
            if len(tail) > STDERR_KEPT:
                del tail[: len(tail) - STDERR_KEPT]
    with contextlib.suppress(OSError):
        stream.close()


def _text(tail: bytearray) -> str:
    data = bytes(tail)
    # The cut may fall inside a UTF-8 character: drop its continuation bytes.
    start = 0
    while start < len(data) and data[start] & 0xC0 == 0x80 and start < 3:
        start += 1
    return data[start:].decode("utf-8", errors="replace")
