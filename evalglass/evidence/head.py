"""What of a file the formats' sniffers see: its first HEAD bytes of structure.

A JSON output's marks (a key an adapter looks for) sit among the first few dozen keys, but long
text can push them far from the start: a test case's retrieval context, a prompt, a model's
answer. So in a JSON document (or JSON lines) every string longer than _LONG is cut to its two
ends before the HEAD bytes are taken, and the file is read on, in growing steps, until they hold
HEAD bytes of structure or _MOST bytes were read: detection depends on how many keys precede a
mark, never on how much text does, and never reads a file whole. Anything else (an archive,
Parquet, SQLite, XML, YAML, CSV) is seen as its first HEAD bytes.
"""

from __future__ import annotations

import re
from typing import IO

from evalglass.evidence.registry import HEAD

# The most of one file read to find its HEAD bytes of structure.
_MOST = 16 * 1024 * 1024
# A string longer than this is text, not a mark: cut to its ends.
_LONG = 64
_END = 24
_LEADING = b"\xef\xbb\xbf \t\r\n"
# A JSON string on one line, escapes included; group 1 is its closing quote, empty when the
# string is cut off (by the end of what was read, or by a line break: not JSON).
_STRING = re.compile(rb'"[^"\\\n]*(?:\\.[^"\\\n]*)*("?)')


def read_head(stream: IO[bytes]) -> bytes:
    """The head a sniffer sees, read from the start of `stream`."""
    data = stream.read(HEAD)
    if not data.lstrip(_LEADING).startswith((b"{", b"[")):
        return data
    step = HEAD
    while True:
        seen, rest = squeeze(data)
        if len(seen) >= HEAD or len(data) >= _MOST:
            return (seen + rest)[:HEAD]
        step = min(step * 16, _MOST - len(data))
        more = stream.read(step)
        if not more:
            return (seen + rest)[:HEAD]
        data += more


def squeeze(data: bytes) -> tuple[bytes, bytes]:
    """`data` with every JSON string longer than _LONG bytes cut to its first and last _END
    bytes (backslashes and quotes dropped from the kept ends, so it stays one string), up to a
    string `data` ends inside; and that unfinished rest, as it is."""
    parts, done = [], 0
    for found in _STRING.finditer(data):
        text = found.group()
        if not found.group(1):
            if data[found.end() :] in (b"", b"\\"):  # ends inside the string or an escape
                parts.append(data[done : found.start()])
                return b"".join(parts), data[found.start() :]
            continue  # a line break inside: not a JSON string, kept as it is
        if len(text) > _LONG:
            inner = text[1:-1]
            cut = b'"' + _plain(inner[:_END]) + b"..." + _plain(inner[-_END:]) + b'"'
            parts += [data[done : found.start()], cut]
            done = found.end()
    parts.append(data[done:])
    return b"".join(parts), b""


def _plain(part: bytes) -> bytes:
    return part.replace(b"\\", b"").replace(b'"', b"")
