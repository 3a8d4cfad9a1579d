"""Helpers the framework adapters share: JSON loading, shape checks, intervals, cross-checks.
It translates JSON, OS and shape errors into `OutputError`, knows no framework's layout, and
never decides authority."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from evalglass.errors import OutputError
from evalglass.evidence import progress, stats
from evalglass.evidence.model import Interval
from evalglass.reasons import Reason, ValidityCode

ZIP_MAGIC = b"PK\x03\x04"
BOM_AND_SPACE = b"\xef\xbb\xbf \t\r\n"

# A framework's aggregate and our recomputation from its own samples may differ by float
# summation order, never by more than this.
TOLERANCE = 1e-6

# Errors that unexpected JSON shapes raise deep inside an adapter (`.get` on a list, a missing
# key, float("abc"), 1 / 0 on a zero count): translated once, at the adapter's boundary.
_SHAPE_ERRORS = (KeyError, TypeError, AttributeError, IndexError, ValueError, ArithmeticError)


def one_line(text: object, limit: int = 200) -> str:
    """A message fragment safe for a one-line error: no newlines, bounded length."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def load_json_file(path: Path, shown: str) -> Any:
    """Parse a whole JSON file, translating every OS, encoding and syntax error."""
    try:
        with progress.open_binary(path) as stream:
            return load_json_stream(stream, shown)
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {one_line(exc.strerror or exc)}") from exc


def load_json_stream(stream: IO[bytes], shown: str, member: str | None = None) -> Any:
    """Parse JSON from a binary stream; `member` names the part of an archive being read."""
    with json_errors(shown, member):
        return json.load(stream)


@contextlib.contextmanager
def json_errors(shown: str, member: str | None = None) -> Iterator[None]:
    """Turn a JSON syntax, encoding or nesting error into an `OutputError` naming the place."""
    where = f"{member}: " if member else ""
    try:
        yield
    except json.JSONDecodeError as exc:
        if not exc.doc.strip():
            raise OutputError(shown, f"{where}empty, expected JSON") from exc
        # A line number inside an archive member is not a line of the file the user named.
        line = None if member else exc.lineno
        at = f"line {exc.lineno} column {exc.colno}" if member else f"column {exc.colno}"
        raise OutputError(shown, f"{where}not valid JSON: {exc.msg} ({at})", line) from exc
    except UnicodeDecodeError as exc:
        raise OutputError(shown, f"{where}not valid JSON: not UTF-8 text") from exc
    except RecursionError as exc:
        raise OutputError(shown, f"{where}not valid JSON: nested too deeply") from exc


def parse_json_line(text: str | bytes, shown: str, line: int) -> Any:
    """One line of a JSON Lines file; errors carry the line number."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise OutputError(shown, f"not valid JSON: {exc.msg} (column {exc.colno})", line) from exc
    except UnicodeDecodeError as exc:
        raise OutputError(shown, "not valid JSON: not UTF-8 text", line) from exc
    except RecursionError as exc:
        raise OutputError(shown, "not valid JSON: nested too deeply", line) from exc


@contextlib.contextmanager
def shape_errors(shown: str) -> Iterator[None]:
    """Turn an unexpected structure found while walking parsed JSON into an `OutputError`."""
    try:
        yield
    except OutputError:
        raise
    except RecursionError as exc:
        raise OutputError(shown, "unexpected structure: nested too deeply") from exc
    except _SHAPE_ERRORS as exc:
        detail = f"missing key {exc.args[0]!r}" if isinstance(exc, KeyError) and exc.args else exc
        raise OutputError(shown, f"unexpected structure: {one_line(detail)}") from exc


def mapping(value: object, shown: str, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise OutputError(shown, f"{where}: expected an object, got {kind(value)}")
    return value


def sequence(value: object, shown: str, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise OutputError(shown, f"{where}: expected a list, got {kind(value)}")
    return value


def section(obj: dict[str, Any], key: str) -> dict[str, Any]:
    """An optional nested object; absent or of another type reads as empty."""
    value = obj.get(key)
    return value if isinstance(value, dict) else {}


def integer(value: object) -> int | None:
    """A count written as a JSON integer (or an integral float); anything else is None."""
    if not is_number(value) or not math.isfinite(value):  # type: ignore[arg-type]
        return None
    whole = int(value)  # type: ignore[call-overload]
    return whole if whole == value else None


def kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if is_number(value) else type(value).__name__)


def is_number(value: object) -> bool:
    # JSON true/false are bools, and bool is an int: a flag must never read as a score.
    return isinstance(value, int | float) and not isinstance(value, bool)


def number(value: object, shown: str, where: str) -> float | None:
    """A reported number, or None when absent; anything else is a malformed file."""
    if value is None:
        return None
    if not is_number(value):
        raise OutputError(shown, f"{where}: expected a number, got {kind(value)}")
    return float(value)  # type: ignore[arg-type]


def text(value: object) -> str | None:
    """An identity string (model, dataset name); anything that is not a non-empty string is None."""
    return value if isinstance(value, str) and value.strip() else None


def iso_time(value: object) -> str | None:
    """A timestamp as an ISO 8601 string `datetime.fromisoformat` reads; aware times in UTC.

    Frameworks write `Z` suffixes, offsets or epoch seconds; one spelling lets runs from
    different files be ordered. Unreadable times are dropped rather than guessed.
    """
    moment: dt.datetime
    if is_number(value):
        try:
            moment = dt.datetime.fromtimestamp(float(value), tz=dt.UTC)  # type: ignore[arg-type]
        except (OverflowError, OSError, ValueError):
            return None
    elif isinstance(value, str):
        try:
            moment = dt.datetime.fromisoformat(value.strip())
        except ValueError:
            return None
    else:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(dt.UTC)
    return moment.isoformat()


def finite(values: Sequence[float]) -> bool:
    return all(math.isfinite(v) for v in values)


def interval(
    value: float | None, scores: Sequence[float] | None, stderr: float | None
) -> Interval | None:
    """From per-sample scores when there are any, else from the framework's stderr, else None."""
    if scores:
        return stats.interval_for_scores(scores) if finite(scores) else None
    if value is None or stderr is None:
        return None
    if not (math.isfinite(value) and math.isfinite(stderr)) or stderr < 0:
        return None
    return stats.normal(value, stderr)


def mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def mismatch(reported: float | None, recomputed: float | None, what: str) -> tuple[Reason, ...]:
    """A finding when the file's aggregate disagrees with what its own samples give."""
    if reported is None or recomputed is None:
        return ()
    if not (math.isfinite(reported) and math.isfinite(recomputed)):
        return ()
    if abs(reported - recomputed) <= TOLERANCE:
        return ()
    return (
        Reason(
            ValidityCode.VALUE_MISMATCH,
            f"reported value {reported!r} differs from {recomputed!r}, {what}",
        ),
    )


def count_mismatch(reported: int | None, counted: int, what: str) -> tuple[Reason, ...]:
    if reported is None or reported == counted:
        return ()
    return (
        Reason(ValidityCode.VALUE_MISMATCH, f"file reports {reported} {what} but lists {counted}"),
    )
