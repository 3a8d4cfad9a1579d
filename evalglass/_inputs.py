"""Opening the files a user names as inputs, and the caps on what reading them may cost.

Only regular files are read: a FIFO or a device would block or never end. Every cap can be raised
by an environment variable, so a host with unusually large logs is never stuck; none is a
decision about authority.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from typing import IO

import attrs

from evalglass.errors import EvalglassError


class NotARegularFile(OSError):
    """A named input is a FIFO, a device, a socket or a directory: it is not read."""


class TooLarge(Exception):
    """Something is past one of the caps; `str()` is the message, without the place."""


@attrs.frozen
class Cap:
    """A limit on one kind of cost, with the environment variable that raises it."""

    variable: str
    default: int
    what: str  # how a refusal opens: "the text to parse in one piece is", "an output"
    unit: str = "bytes"  # "bytes", or what is counted

    def limit(self) -> int:
        """The variable's value (`512M`, `2G` or a plain number), else the default. A value that
        is not a size is refused, not silently replaced by the default."""
        raw = os.environ.get(self.variable)
        if raw is None or not raw.strip():
            return self.default
        found = _SIZE.fullmatch(raw.strip())
        if found is None or (found.group(2) and self.unit != "bytes"):
            example = "512M or 2G" if self.unit == "bytes" else "5000000"
            raise EvalglassError(
                self.variable, f"expected a number such as {example}, got {raw[:40]!r}"
            )
        return int(found.group(1)) * _UNITS[found.group(2).upper()]

    def check(self, amount: int) -> None:
        """Raise TooLarge when `amount` is past the cap."""
        limit = self.limit()
        if amount <= limit:
            return
        if self.unit == "bytes":
            problem = f"{self.what} {_size(amount)}, past the {_size(limit)} cap"
        else:
            problem = f"{self.what} with more than {limit:,} {self.unit} is past the cap"
        raise TooLarge(f"{problem}; set {self.variable} to raise it")


def _size(amount: int) -> str:
    for unit, factor in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if amount >= factor:
            return f"{amount / factor:.4g} {unit}"
    return f"{amount} bytes"


_SIZE = re.compile(r"([0-9]{1,15}) *([kmgt]?)(?:i?b)?", re.IGNORECASE)
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}

# What the members read from one archive may expand to, together: checked against the sizes the
# archive declares before anything is decompressed, and while decompressing.
ARCHIVE_BYTES = Cap("EVALGLASS_MAX_ARCHIVE_BYTES", 2 << 30, "the archive members read expand to")
# The largest text parsed in one piece: a JSON output or records file read whole, an archive
# member that is not read as a stream, one element of a streamed array. Parsing holds the bytes,
# the text and what it parses into at once.
PARSE_BYTES = Cap("EVALGLASS_MAX_PARSE_BYTES", 128 << 20, "the text to parse in one piece is")
# Values in a JSON document parsed in one piece, counted from its brackets and commas before it
# is parsed: an empty object is three bytes of text and seventy of memory.
JSON_VALUES = Cap("EVALGLASS_MAX_JSON_VALUES", 4_000_000, "a JSON document", "values")
# What the per-sample entries kept from one output (scores, rows, summaries, reduced values,
# documents, test cases) take in memory, by a fixed estimate for each kind of entry: they are
# held for as long as the run lasts, and a tiny entry of text can be a large object.
SAMPLE_MEMORY = Cap(
    "EVALGLASS_MAX_SAMPLE_MEMORY", 384 << 20, "the per-sample entries kept from one output take"
)
# The same bound on the samples a scorecard JSON kept (--keep-samples): a `--compare` card or a
# baseline's saved scorecard, estimated from their count before the file is parsed.
CARD_SAMPLE_MEMORY = attrs.evolve(SAMPLE_MEMORY, what="the samples kept in one scorecard JSON take")

# Cells of the agreement tables `evalglass calibrate` bootstraps over, one row per item: on a
# categorical scale each table has as many cells as distinct labels squared, so 20,000 labels
# would ask for gigabytes per item. The default holds a million binary items, or 100,000 items
# on ten labels with one human rater.
# Rows of one judgments or labels file `evalglass calibrate` reads: each is held, with its sample
# id, until the items are matched (about 250 bytes a row; a million binary items with one human
# rater peaked at 519 MiB). The default keeps the whole run under 500 MB.
LABEL_ROWS = Cap("EVALGLASS_MAX_LABEL_ROWS", 800_000, "a judgments or labels file", "rows")
AGREEMENT_CELLS = Cap("EVALGLASS_MAX_AGREEMENT_CELLS", 1 << 25, "agreement tables", "cells")


def open_regular(path: str | os.PathLike[str]) -> IO[bytes]:
    """`path` opened for binary reading, if it is a regular file (see `regular_fd`)."""
    fd = regular_fd(path)
    try:
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def regular_fd(path: str | os.PathLike[str]) -> int:
    """A file descriptor open for reading `path`, if it is a regular file.

    The file is opened without blocking and checked before a byte is read, so a FIFO with no
    writer or a terminal cannot hang the run. Raises FileNotFoundError and the other OSErrors as
    `open` does, and NotARegularFile for anything but a regular file.
    """
    fd = os.open(path, _READ_FLAGS)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFile(0, f"not a regular file ({_kind(mode)})", os.fspath(path))
        if sys.platform != "win32":
            # Through os, not fcntl: nothing POSIX-only is imported (Windows opens no FIFO here).
            os.set_blocking(fd, True)
        return fd
    except BaseException:
        os.close(fd)
        raise


# Opened without blocking (a FIFO with no writer), never becoming a controlling terminal, not
# inherited; Windows has none of these flags and needs binary mode asked for.
_READ_FLAGS = os.O_RDONLY | sum(
    getattr(os, name, 0) for name in ("O_NONBLOCK", "O_CLOEXEC", "O_NOCTTY", "O_BINARY")
)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def read_regular(path: str | os.PathLike[str]) -> bytes:
    """The whole of a regular file no larger than PARSE_BYTES; raises as `open_regular`, and
    TooLarge past the cap (from its size before reading, and while reading: it may grow)."""
    with open_regular(path) as stream:
        return read_capped(stream, PARSE_BYTES, os.fstat(stream.fileno()).st_size)


def read_capped(stream: IO[bytes], cap: Cap, declared: int | None = None) -> bytes:
    """Read `stream` to its end, refusing past `cap` bytes (at once when `declared` says so)."""
    if declared is not None:
        cap.check(declared)
    # The declared size in one read (asking for the whole cap at once would reserve it), then
    # anything more, if the stream is longer than declared, a chunk at a time up to the cap.
    parts = [stream.read(declared + 1)] if declared is not None else []
    total = sum(map(len, parts))
    if declared is None or total > declared:
        while chunk := stream.read(1 << 20):
            total += len(chunk)
            cap.check(total)
            parts.append(chunk)
    cap.check(total)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def check_json_values(text: bytes | str) -> None:
    """Refuse a JSON text with more values than JSON_VALUES, before it is parsed.

    Every value but the first of an array or object follows a comma, and every array or object
    opens with a bracket: one more than the count of those characters bounds the values (member
    names repeat, and the parser keeps one copy of each). Commas inside strings only make it
    stricter.
    """
    if isinstance(text, str):
        marks = text.count(",") + text.count("[") + text.count("{")
    else:
        marks = text.count(b",") + text.count(b"[") + text.count(b"{")
    JSON_VALUES.check(marks + 1)
