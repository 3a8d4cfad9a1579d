"""Live progress of `evalglass run` on a terminal: a line per check attempt, its elapsed time
ticking while it runs, then its outcome. Writes to the stream it is given (stderr); the CLI uses
it only when that stream is a terminal, so logs and pipes stay quiet.
"""

from __future__ import annotations

import threading
import time
from typing import TextIO

import attrs

from evalglass.evidence.model import Attempt, AttemptOutcome
from evalglass.metric_ids import check_metric
from evalglass.records.model import CheckRecord
from evalglass.tools.checks.session import Progress

_WORDS = {AttemptOutcome.PASSED: "pass", AttemptOutcome.FAILED: "fail",
          AttemptOutcome.COULD_NOT_RUN: "not run"}  # fmt: skip
_TICK = 0.5  # seconds between updates of a running check's elapsed time


@attrs.define
class _Line:
    """The line of the attempt running now, rewritten in place until it ends."""

    stream: TextIO
    label: str = ""
    begun: float = 0.0
    done: threading.Event = attrs.Factory(threading.Event)
    ticker: threading.Thread | None = None

    def show(self, text: str, end: str = "") -> None:
        self.stream.write(f"\r\x1b[K{text}{end}")
        self.stream.flush()

    def started(self, name: str, check: CheckRecord, number: int) -> None:
        self.label = check_metric(name) + (" (retry)" if number > 1 else "")
        self.begun, self.done = time.monotonic(), threading.Event()
        self.show(f"  running  {self.label}")
        self.ticker = threading.Thread(target=self._tick, args=(self.done,), daemon=True)
        self.ticker.start()

    def _tick(self, done: threading.Event) -> None:
        while not done.wait(_TICK):
            self.show(f"  running  {self.label}  {time.monotonic() - self.begun:.0f} s")

    def ended(self, name: str, attempt: Attempt) -> None:
        self.done.set()
        if self.ticker is not None:
            self.ticker.join()
        word = "cached" if attempt.cached is not None else _WORDS[attempt.outcome]
        self.show(f"  {word:<8} {self.label}  {time.monotonic() - self.begun:.1f} s", end="\n")


def terminal_progress(stream: TextIO) -> Progress:
    """One line per attempt on `stream`, rewritten in place while the attempt runs."""
    line = _Line(stream)
    return Progress(started=line.started, ended=line.ended)
