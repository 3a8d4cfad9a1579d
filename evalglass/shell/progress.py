"""Progress on stderr while eval outputs are read: a bar on a terminal (bytes read, rate, time
left) once an output has taken a second, drawn by rich.progress (shell/_progress_bar.py, imported
only then); in CI or when stderr is not a terminal, one line per output that took that long,
once it is read. Never on stdout, never in a file evalglass writes.

Only the shell attaches it; the library reads quietly.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

from evalglass.evidence import progress

if TYPE_CHECKING:
    import threading

    from evalglass.shell._progress_bar import Drawn

DELAY = 1.0  # seconds an output may take before anything is shown about it
REFRESH = 0.2  # seconds between redraws of the bar
_BAR_CELLS = (10, 30)  # the bar's narrowest and widest, in characters


def interactive(stream: TextIO) -> bool:
    """A person is watching: stderr is a terminal and no CI system says otherwise."""
    ci = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
    try:
        return stream.isatty() and not ci
    except ValueError:  # a closed stream
        return False


@contextlib.contextmanager
def shown(stream: TextIO | None = None) -> Iterator[None]:
    """Show progress of the outputs read inside this block on `stream` (default: stderr)."""
    out = stream if stream is not None else sys.stderr
    display: _Lines = _Bar(out) if interactive(out) else _Lines(out)
    with progress.watched(display):
        try:
            yield
        finally:
            display.close()


class _Lines:
    """One line per output that took DELAY or longer, when it is read."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = ""
        self.total = 0
        self.done = 0
        self.start = 0.0

    def started(self, shown: str) -> None:
        self.shown, self.total, self.done, self.start = shown, 0, 0, time.monotonic()

    def opened(self, size: int) -> None:
        self.total += size

    def read(self, count: int) -> None:
        self.done += count

    def finished(self, read: bool) -> None:
        elapsed = time.monotonic() - self.start
        if read and elapsed >= DELAY:
            self.stream.write(done_line(self.shown, self.done, elapsed) + "\n")
            self.stream.flush()
        self.shown = ""

    def close(self) -> None:
        """Nothing to stop: lines are written as outputs finish."""


class _Bar(_Lines):
    """A bar redrawn in place by a background thread, started with the first output."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__(stream)
        import threading

        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._drawn: Drawn | None = None

    def started(self, shown: str) -> None:
        with self._lock:
            super().started(shown)
        if self._thread is None:
            import threading

            self._thread = threading.Thread(
                target=self._run, name="evalglass-progress", daemon=True
            )
            self._thread.start()

    def finished(self, read: bool) -> None:
        with self._lock:
            elapsed = time.monotonic() - self.start
            if self._drawn is not None:
                # The bar gives way to the line saying what was read, and stays out of the way;
                # after a failure, to nothing: the error is the one line that follows.
                self._drawn.clear()
                self._drawn = None
                if read:
                    self.stream.write(done_line(self.shown, self.done, elapsed) + "\n")
                    self.stream.flush()
            self.shown = ""

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(REFRESH):
            with self._lock:
                elapsed = time.monotonic() - self.start
                if self.shown and elapsed >= DELAY:
                    self._draw(elapsed)

    def _draw(self, elapsed: float) -> None:
        width = _width(self.stream)
        if self._drawn is None:
            # rich is imported here, the first time a bar is shown, and only then.
            from evalglass.shell._progress_bar import Drawn

            self._drawn = Drawn(self.stream, width)
        numbers = numbers_text(self.done, self.total, elapsed)
        name, cells, numbers = layout(self.shown, numbers, width)
        self._drawn.draw(name, cells, numbers, self.done, self.total)


def numbers_text(done: int, total: int, elapsed: float) -> str:
    """`48%  512.0 MB of 1.1 GB  85.3 MB/s  6 s left`: what the bar shows beside it."""
    rate = done / elapsed if elapsed > 0 else 0.0
    if done == 0 and total == 0:
        # Nothing counted: a reader that opens the files itself (DuckDB). Time is all there is.
        return f"{_duration(elapsed)} so far"
    if total > 0:
        share = min(done / total, 1.0)
        if done < total and rate > 0:
            left = f"{_duration((total - done) / rate)} left"
        else:
            left = "reading done, working"
        return f"{share:4.0%}  {size(done)} of {size(total)}  {size(rate)}/s  {left}"
    return f"{size(done)}  {size(rate)}/s"


def layout(shown: str, numbers: str, width: int) -> tuple[str, int, str]:
    """The name, the bar's width in cells and the numbers for `reading NAME BAR NUMBERS` to fit
    in `width` (a line wider than the terminal would wrap): the name is shortened from the left,
    then the bar narrowed; on a terminal too narrow even then, the numbers are cut short."""
    room = width - 1 - len(f"reading    {numbers}")
    name = shown
    if len(name) + _BAR_CELLS[0] > room:
        keep = max(room - _BAR_CELLS[0], 12)
        name = "…" + shown[-(keep - 1) :] if len(shown) > keep else shown
    cells = max(_BAR_CELLS[0], min(_BAR_CELLS[1], room - len(name)))
    return name, cells, numbers[: max(width - 1 - len(f"reading   {name}") - cells, 0)]


def done_line(shown: str, done: int, elapsed: float) -> str:
    """`evalglass: read NAME: 1.1 GB in 13 s (85.3 MB/s)`."""
    if done == 0:
        return f"evalglass: read {shown} in {_duration(elapsed)}"
    rate = done / elapsed if elapsed > 0 else 0.0
    return f"evalglass: read {shown}: {size(done)} in {_duration(elapsed)} ({size(rate)}/s)"


def size(count: float) -> str:
    """Bytes in decimal units: `812 B`, `3.4 kB`, `512.0 MB`, `1.1 GB`."""
    if count < 1000:
        return f"{count:.0f} B"
    for unit in ("kB", "MB"):
        count /= 1000
        if count < 1000:
            return f"{count:.1f} {unit}"
    return f"{count / 1000:.1f} GB"


def _duration(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60:02d} s"


def _width(stream: TextIO) -> int:
    try:
        # A terminal that reports no size (a bare pty) is taken as the usual 80 columns.
        return os.get_terminal_size(stream.fileno()).columns or 80
    except (OSError, ValueError, AttributeError):
        return 80
