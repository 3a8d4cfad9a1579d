"""How a number reads in every message and format: short, but never misleadingly rounded.

In the foundation because reason messages (core), findings (tools) and every format (render) word
numbers alike; it holds no sentence, only the figures inside them.
"""

from __future__ import annotations

import math


def fmt(x: float, against: float | None = None) -> str:
    """Four significant digits, more when needed so `x` and `against` never print the same
    while differing (a bound of 0.84999 must not read as 0.85 beside a threshold of 0.85)."""
    if not math.isfinite(x):
        return str(x)
    if against is None:  # the common case, in every row of every scorecard
        return f"{x:.4g}"
    for digits in range(4, 18):
        text = f"{x:.{digits}g}"
        if against is None or x == against or text != f"{against:.{digits}g}":
            return text
    return repr(x)


def plural(count: int, word: str) -> str:
    """`1 gate`, `3 gates`."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def bar_text(
    op: str, value: float | None, max_drop: float | None, max_relative_drop: float | None
) -> str:
    """A threshold's bars as figures: `>= 0.85`, `max drop 0.02`, or both joined by `and`; ""
    for a threshold that sets none. Every scorecard, trend and diff writes a bar this way."""
    parts = []
    if value is not None:
        parts.append(f"{op} {fmt(value)}")
    if max_drop is not None:
        parts.append(f"max drop {fmt(max_drop)}")
    if max_relative_drop is not None:
        parts.append(f"max relative drop {fmt(max_relative_drop)}")
    return " and ".join(parts)
