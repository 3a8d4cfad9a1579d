"""Progress of reading eval outputs: which output is being read, and how many bytes of its files
so far, told to a watcher the shell may attach (a progress bar). It counts and shows nothing.

Adapters open their files with `open_binary` / `read_regular`: regular files only
(evalglass/_inputs.py: a FIFO or a device would hang the run), counted when a watcher is attached
(a small run's first second, the library and tests have none); a file read is never changed.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Protocol

from evalglass import _inputs


class Watcher(Protocol):
    """What the reading tells a display. Called from the reading thread; must be cheap."""

    def started(self, shown: str) -> None:
        """Reading the output named `shown` has begun."""

    def opened(self, size: int) -> None:
        """A file of that output (itself, or one beside it) was opened: `size` more bytes."""

    def read(self, count: int) -> None:
        """`count` more bytes were read."""

    def finished(self, read: bool) -> None:
        """That output is read (`read`), or reading it failed: its error says so, alone."""


_WATCHER: contextvars.ContextVar[Watcher | None] = contextvars.ContextVar(
    "evalglass_progress", default=None
)
# Large reads through few calls: the count costs one call per this many bytes at most.
_BUFFER = 1 << 16


@contextlib.contextmanager
def watched(watcher: Watcher) -> Iterator[None]:
    """Tell `watcher` about every output read inside this block (in this context only)."""
    token = _WATCHER.set(watcher)
    try:
        yield
    finally:
        _WATCHER.reset(token)


@contextlib.contextmanager
def reading(shown: str) -> Iterator[None]:
    """Around reading one output: its start and its end, for the watcher if there is one."""
    watcher = _WATCHER.get()
    if watcher is None:
        yield
        return
    watcher.started(shown)
    try:
        yield
    except BaseException:
        watcher.finished(read=False)
        raise
    watcher.finished(read=True)


def open_binary(path: Path) -> IO[bytes]:
    """A regular file opened for binary reading, its bytes counted when a watcher is attached.
    Raises as `_inputs.open_regular`."""
    watcher = _WATCHER.get()
    if watcher is None:
        return _inputs.open_regular(path)
    raw = _Counted(_inputs.regular_fd(path), watcher)
    try:
        watcher.opened(os.fstat(raw.fileno()).st_size)
    except BaseException:
        raw.close()
        raise
    return io.BufferedReader(raw, buffer_size=_BUFFER)


def read_regular(path: Path) -> bytes:
    """The whole of a regular file within the parse cap, as `_inputs.read_regular`, counted."""
    with open_binary(path) as stream:
        return _inputs.read_capped(stream, _inputs.PARSE_BYTES, os.fstat(stream.fileno()).st_size)


class _Counted(io.FileIO):
    """A file that tells the watcher how many bytes each read returned."""

    def __init__(self, fd: int, watcher: Watcher) -> None:
        super().__init__(fd, "rb", closefd=True)
        self._watcher = watcher

    def readinto(self, buffer: memoryview, /) -> int | None:  # type: ignore[override]
        count = super().readinto(buffer)
        if count:
            self._watcher.read(count)
        return count

    def read(self, size: int | None = -1, /) -> bytes:
        data = super().read(size)
        if data:
            self._watcher.read(len(data))
        return data

    def readall(self) -> bytes:
        data = super().readall()
        self._watcher.read(len(data))
        return data
