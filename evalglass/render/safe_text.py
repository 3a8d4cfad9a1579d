"""Untrusted text made safe to show: every character that could move the cursor, recolour the
screen, reorder what is shown, end a line, or fail to encode, written as a visible escape.

Metric ids, model names, sources and messages come from eval outputs and records; shown raw, a
newline or an ANSI sequence in an id could print a forged "PASS" line. Every text format passes
untrusted text through `escape` (Markdown and HTML add their own escaping on top); only the JSON
contract keeps text as it was, escaped by its encoder.
"""

from __future__ import annotations

import re

# C0 controls (tab and newline included: one field stays on one line), DEL and C1 controls; the
# Arabic letter mark and the left-to-right and right-to-left marks; the line and paragraph
# separators; the bidirectional embeddings, overrides and isolates; lone surrogates (from a JSON
# "\ud800" escape or an undecodable file name), which no UTF-8 stream can carry.
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(found: re.Match[str]) -> str:
    char = found.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape(text: object) -> str:
    """`text` as one line with nothing that acts on a terminal or reorders it; characters that
    do are shown as `\\n`, `\\x1b`, `\\u202e`. Safe text comes back as it was."""
    shown = str(text)
    if _UNSAFE.search(shown) is None:
        return shown
    return _UNSAFE.sub(_escaped, shown)
