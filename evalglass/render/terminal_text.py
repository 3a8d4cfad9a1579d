"""Untrusted text made inert on a terminal: control characters shown, never sent.

A scorecard file given to `trend` may come from anywhere (a CI artifact); an escape sequence in a
metric id must not move the cursor, recolour or retitle the user's terminal.
"""

from __future__ import annotations

import re

# C0 controls (tab and newline included: one value stays on one line), DEL, and C1 controls.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def terminal_safe(text: object) -> str:
    """`text` with each control character written as its escape, e.g. `\\x1b`."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], str(text))
