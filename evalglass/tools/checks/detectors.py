"""The file checks: `file_exists` and `regex`. They read the file system every time (never cached),
so deleting a file takes its pass back on the next run. A file that is not there is an ordinary
fail; one that cannot be read is a check that could not run.
"""

from __future__ import annotations

import os
import re
import stat
import time
import warnings
from pathlib import Path

from evalglass._inputs import TooLarge, read_regular
from evalglass.evidence.model import Attempt, AttemptOutcome
from evalglass.records.model import CheckRecord

_PASSED, _FAILED, _UNRUN = (
    AttemptOutcome.PASSED,
    AttemptOutcome.FAILED,
    AttemptOutcome.COULD_NOT_RUN,
)
_SHOWN = 120  # characters of a matching line shown


def file_exists(check: CheckRecord, base: Path) -> Attempt:
    """absent (fail), empty (a fail only with non_empty), or present with its size."""
    assert check.file_exists is not None
    name = check.file_exists
    command = f"file_exists {name}" + (" (non_empty)" if check.non_empty else "")
    started = time.monotonic()

    def attempt(outcome: AttemptOutcome, found: str) -> Attempt:
        return Attempt(
            outcome=outcome, command=command, found=found, duration=time.monotonic() - started
        )

    try:
        info = os.stat(base / name)
    except (FileNotFoundError, NotADirectoryError):
        return attempt(_FAILED, f"absent: no file '{name}'")
    except OSError as exc:
        return attempt(_UNRUN, f"cannot look at '{name}': {exc.strerror or exc}")
    if stat.S_ISDIR(info.st_mode):
        return attempt(_FAILED, f"'{name}' is a directory, not a file")
    if info.st_size == 0:
        return attempt(_FAILED if check.non_empty else _PASSED, f"empty: '{name}' has 0 bytes")
    return attempt(_PASSED, f"present: '{name}', {info.st_size:,} bytes")


def regex(check: CheckRecord, base: Path) -> Attempt:
    """The pattern found in the file (the line it is on), or not; a missing file is no match."""
    assert check.regex is not None and check.in_file is not None
    name = check.in_file
    command = f"regex '{check.regex}' in {name}"
    started = time.monotonic()

    def attempt(outcome: AttemptOutcome, found: str) -> Attempt:
        return Attempt(
            outcome=outcome, command=command, found=found, duration=time.monotonic() - started
        )

    try:
        # Read as every input is: a regular file only (a link to /dev/zero or a FIFO would never
        # end or never start), within the parse cap.
        text = read_regular(base / name).decode("utf-8")
    except (FileNotFoundError, NotADirectoryError):
        # Not vacuously true: a pattern cannot hold in a file that is not there.
        return attempt(_FAILED, f"file not found: '{name}'")
    except UnicodeDecodeError:
        return attempt(_UNRUN, f"cannot read '{name}': not UTF-8 text")
    except OSError as exc:
        return attempt(_UNRUN, f"cannot read '{name}': {exc.strerror or exc}")
    except TooLarge as exc:
        return attempt(_UNRUN, f"cannot read '{name}': {exc}")
    with warnings.catch_warnings():
        # A pattern validate accepted: Python's warning of a possible nested set is not output.
        warnings.simplefilter("ignore", FutureWarning)
        match = re.search(check.regex, text, re.MULTILINE)
    if match is None:
        lines = text.count("\n") + (not text.endswith("\n") and bool(text))
        return attempt(_FAILED, f"no match in '{name}' ({lines:,} lines)")
    line = text.count("\n", 0, match.start()) + 1
    shown = " ".join(match.group(0).split())[:_SHOWN]
    return attempt(_PASSED, f"matches in '{name}' on line {line}: '{shown}'")
