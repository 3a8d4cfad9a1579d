"""Why no format claimed a file: what the file looks like, and what each format looks for.

One line, for the error that refuses the file; it reads only the head already read.
"""

from __future__ import annotations

import re
from pathlib import Path

from evalglass.evidence.registry import adapters

_KEY = re.compile(rb'"((?:[^"\\]|\\.){0,40})"\s*:')
_SHOWN_KEYS = 6


def declined(path: Path, head: bytes) -> str:
    """`not a recognised eval output (<what it is>); tried <format>: <what it looks for>; ...`."""
    tried = "; ".join(f"{a.name} wants {a.recognises}" for a in adapters())
    return (
        f"not a recognised eval output ({_looks_like(path, head)}); tried {tried}; "
        "name the format with --input-format"
    )


def _looks_like(path: Path, head: bytes) -> str:
    body = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not body:
        return "the file is empty"
    if body.startswith(b"PK\x03\x04"):
        return "a zip archive"
    if body.startswith(b"{"):
        first = body.split(b"\n", 1)[0] if path.suffix.lower() == ".jsonl" else body
        keys = _top_keys(first)
        shown = ", ".join(keys[:_SHOWN_KEYS]) + (", ..." if len(keys) > _SHOWN_KEYS else "")
        return f"a JSON object with keys {shown}" if keys else "a JSON object"
    if body.startswith(b"["):
        return "a JSON list"
    if body.startswith(b"<"):
        return "XML or HTML"
    return "text" if _is_text(body) else "binary data"


def _top_keys(body: bytes) -> list[str]:
    """The keys of the outermost object, as far as the head goes."""
    keys, depth, in_string, escaped = [], 0, False, False
    for index, byte in enumerate(body):
        char = chr(byte)
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            if depth == 1 and (found := _KEY.match(body, index)):
                keys.append(found.group(1).decode("utf-8", "replace"))
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
    return keys


def _is_text(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        # A head may end inside a multi-byte character.
        return exc.start >= len(body) - 3
    return b"\x00" not in body
