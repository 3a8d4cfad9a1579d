"""What one generic row's values mean, read row by row: a metric (non-empty text), a score (a
number, text holding one, or nothing), a sample's key and an epoch (any value as its text), a
cluster (text, or a number read as its text), a model (text, else none), and the message for a
sample named twice. Both of the rows reader's paths read rows by these rules, and
`_row_columns` declares each beside the SQL the DuckDB path types the same column with. Pure:
no I/O.
"""

from __future__ import annotations

import math

from evalglass.errors import OutputError
from evalglass.evidence import aggregate
from evalglass.evidence.adapters import _common as c

_LIMIT = aggregate.LIMIT


def metric(raw: object, shown: str, line: int) -> str:
    """A row's metric: non-empty text. OutputError for anything else."""
    if type(raw) is not str or not raw:
        raise OutputError(shown, "metric: expected a non-empty string", line)
    return raw


def sample_key(raw: object, shown: str = "", line: int = 0) -> str | None:
    """A row's sample id as its key, the text of any value (`7` and `"7"` are one sample);
    None for none (null or '')."""
    if raw is None or raw == "":
        return None
    return str(raw)


def epoch(raw: object, shown: str = "", line: int = 0) -> str | None:
    """A row's epoch as its text; None for none: any value Python takes for false (null, 0,
    false, '')."""
    return str(raw) if raw else None


def model(raw: object, shown: str = "", line: int = 0) -> str | None:
    """The model a row names: non-empty text; any other value names none."""
    return raw if raw and type(raw) is str else None


def score(raw: object, shown: str, line: int) -> float | None:
    """A row's score; None for an errored or skipped sample (missing, never a pass or a
    failure). OutputError for anything not a number, or a finite one at or beyond ±2^40."""
    if type(raw) is float:
        value = raw
    elif raw is None or raw == "":
        return None
    else:
        value = _number(raw, shown, line)
    if not -_LIMIT < value < _LIMIT and math.isfinite(value):
        raise OutputError(
            shown, f"score: {value!r} is beyond ±2^40, more than evalglass sums exactly", line
        )
    return value


def _number(raw: object, shown: str, line: int) -> float:
    if isinstance(raw, int | float):  # a boolean too: true is a pass
        return c.to_float(raw)
    if isinstance(raw, str):
        try:
            return float(raw)
        except ValueError:
            pass
    raise OutputError(shown, f"score: expected a number, got {c.shown_value(raw)}", line)


def cluster(raw: object, shown: str, line: int) -> str | None:
    """A row's cluster as text (`7` and `"7"` are one cluster); None for none."""
    if raw is None or raw == "":
        return None
    if type(raw) is str:
        return raw
    if not isinstance(raw, int | float) or isinstance(raw, bool):
        raise OutputError(shown, "cluster: expected a string or a number", line)
    return str(raw)


def twice(sample_id: object, metric: str) -> str:
    """The message for a sample id (with its epoch) given twice for one metric."""
    return f"sample_id {c.shown_value(sample_id)} appears twice for metric '{metric}'"
