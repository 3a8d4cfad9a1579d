"""The evaluation time: the moment a scorecard is evaluated at, from `--as-of` or the clock.

One aware UTC datetime to the second, the same wherever it is used (the scorecard's
`evaluated_at`; approvals' dates, by its UTC date). Pure: the shell reads the clock.
"""

from __future__ import annotations

import datetime as dt
import re

# A date, or a time to the minute or second with an optional zone: what --as-of accepts. Python's
# fromisoformat alone would also take `20261130` and week dates, which nobody means here.
_AS_OF = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,6})?)?(?:Z|[+-][0-9]{2}:[0-9]{2})?)?"
)


def evaluation_time(as_of: dt.date | dt.datetime) -> dt.datetime:
    """`as_of` as an aware UTC datetime to the second: a date is its midnight UTC, and a time
    without a zone is taken as UTC (as eval outputs' start times are). Its UTC date is the
    evaluation date, which dated records (an approval's `approved_on` and `expires_on`) are
    compared with."""
    if not isinstance(as_of, dt.datetime):
        return dt.datetime(as_of.year, as_of.month, as_of.day, tzinfo=dt.UTC)
    moment = as_of if as_of.tzinfo is not None else as_of.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC).replace(microsecond=0)


def parse_as_of(text: str) -> dt.date | dt.datetime:
    """`YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM[:SS][zone]`; ValueError saying what is expected."""
    expected = "expected a date YYYY-MM-DD or a time YYYY-MM-DDTHH:MM:SSZ"
    if _AS_OF.fullmatch(text) is None:
        raise ValueError(f"{text!r}: {expected}")
    try:
        if len(text) == 10:
            return dt.date.fromisoformat(text)
        return dt.datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a real date or time; {expected}") from None
