"""Run one process to completion or its time limit: a new session, so a timeout kills the whole
process group (grandchildren too), and on Linux as a child subreaper, so a daemon that left the
group (setsid) is adopted and killed too; the end of stdout and of stderr kept. I/O only; what
the exit means is for `attempts.py`. On Windows, which has no process groups to signal, the tree
is ended with `taskkill /T /F` from the check's process.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import IO

import attrs

from evalglass.evidence.model import STDERR_KEPT, STDOUT_KEPT

_CHUNK = 65536


@attrs.frozen(kw_only=True)
class Finished:
    """How a process ended: its exit code (-N when signal N ended it), or that it timed out."""

    exit_code: int
    timed_out: bool
    duration: float  # seconds
    stderr: str  # the last STDERR_KEPT bytes it wrote to stderr
    stdout: str = ""  # the last STDOUT_KEPT bytes it wrote to stdout


def run_process(argv: Sequence[str], cwd: str, timeout: float) -> Finished:
    """Run `argv` in `cwd` for at most `timeout` seconds, then kill its process group.

    OSError when it cannot start (executable not found, not executable). Whatever the process
    leaves behind in its group when it ends is killed too: a check's processes do not outlive it.
    """
    with _adopting() as contained:
        return _run(argv, cwd, timeout, contained)


def _run(argv: Sequence[str], cwd: str, timeout: float, contained: Callable[[], None]) -> Finished:
    started = time.monotonic()
    process = subprocess.Popen(
        list(argv), cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    assert process.stderr is not None and process.stdout is not None
    # Each stream read to its end on its own thread, keeping only its end: a check that prints
    # gigabytes costs a few KB, and neither pipe fills up and stalls the process.
    tail, out = bytearray(), bytearray()
    readers = [
        threading.Thread(target=_drain, args=(process.stderr, tail, STDERR_KEPT), daemon=True),
        threading.Thread(target=_drain, args=(process.stdout, out, STDOUT_KEPT), daemon=True),
    ]
    for reader in readers:
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
        contained()
        raise
    duration = time.monotonic() - started
    _kill_group(process.pid)
    contained()
    # A process that left its group (setsid) may hold a stream open: do not wait for it for ever.
    for reader in readers:
        reader.join(timeout=1.0)
    return Finished(
        exit_code=code, timed_out=timed_out, duration=duration, stderr=_text(tail),
        stdout=_text(out),
    )  # fmt: skip


# Linux's prctl options: while set, a process that loses its parent (a daemon that left its
# session with setsid and double-forked) becomes evalglass's child instead of init's, where it
# can be found and ended. Elsewhere, or where prctl is refused, only the group is contained.
_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37
_ROUNDS = 64  # of killing adopted processes, each round's orphans adopted for the next


@contextlib.contextmanager
def _adopting() -> Iterator[Callable[[], None]]:
    """While the check runs evalglass is a child subreaper; `contained()` kills every process it
    adopted meanwhile (never one of its own children from before), then their orphans."""
    prctl = _prctl()
    previous = ctypes.c_int(0)
    if prctl is None or prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(previous), 0, 0, 0) != 0:
        yield lambda: None
        return
    before = _children()
    if prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        yield lambda: None
        return

    def contained() -> None:
        for _ in range(_ROUNDS):
            adopted = _children() - before
            if not adopted:
                return
            for pid in adopted:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            for pid in adopted:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)

    try:
        yield contained
    finally:
        prctl(_PR_SET_CHILD_SUBREAPER, previous.value, 0, 0, 0)


def _prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        function: Callable[..., int] = libc.prctl
    except (OSError, AttributeError):
        return None
    return function


def _children() -> set[int]:
    """The processes whose parent is this one, from /proc (each's parent is the field after the
    state, after the last ')' of its name)."""
    me, found = os.getpid(), set()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stream:
                fields = stream.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 1 and int(fields[1]) == me:
            found.add(int(entry.name))
    return found


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


def _drain(stream: IO[bytes], tail: bytearray, kept: int) -> None:
    """Read the stream to its end, keeping only its last `kept` bytes."""
    with contextlib.suppress(OSError, ValueError):
        while chunk := stream.read1(_CHUNK):  # type: ignore[attr-defined]
            tail += chunk
            if len(tail) > kept:
                del tail[: len(tail) - kept]
    with contextlib.suppress(OSError):
        stream.close()


def _text(tail: bytearray) -> str:
    data = bytes(tail)
    # The cut may fall inside a UTF-8 character: drop its continuation bytes.
    start = 0
    while start < len(data) and data[start] & 0xC0 == 0x80 and start < 3:
        start += 1
    return data[start:].decode("utf-8", errors="replace")
