"""Helpers the framework adapters share: JSON loading, shape checks, intervals, cross-checks.
It translates JSON, OS and size errors into `OutputError`, knows no framework's layout, and
never decides authority.

Adapters check every shape they read with these helpers (`mapping`, `sequence`, `number`, ...),
so a file of the wrong shape is an OutputError naming the place, and any other exception out of
an adapter is a bug in evalglass, reported as one, never blamed on the user's file.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import enum
import json
import math
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from evalglass import _inputs
from evalglass.errors import OutputError
from evalglass.evidence import progress, rates, stats
from evalglass.evidence.model import Interval, MethodBasis
from evalglass.reasons import Reason, ValidityCode

ZIP_MAGIC = b"PK\x03\x04"
BOM_AND_SPACE = b"\xef\xbb\xbf \t\r\n"

# A framework's aggregate and our recomputation from its own samples may differ by float
# summation order, never by more than this.
TOLERANCE = 1e-6


def one_line(text: object, limit: int = 200) -> str:
    """A message fragment safe for a one-line error: no newlines, bounded length."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def read_whole(path: Path, shown: str) -> bytes:
    """A whole regular file's bytes, within the size cap; OutputError for any OS or size error."""
    try:
        return progress.read_regular(path)
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {one_line(exc.strerror or exc)}") from exc
    except _inputs.TooLarge as exc:
        raise OutputError(shown, str(exc)) from exc


def load_json_file(path: Path, shown: str) -> Any:
    """Parse a whole JSON file, translating every OS, encoding, syntax and size error.
    Python-written NaN and Infinity are accepted (and judged later)."""
    return parse_json(read_whole(path, shown), shown)


def load_json_stream(stream: IO[bytes], shown: str, member: str, declared: int) -> Any:
    """Parse a whole archive member of `declared` size; `member` names it in messages."""
    with json_errors(shown, member):
        return parse_json(_inputs.read_capped(stream, _inputs.PARSE_BYTES, declared), shown, member)


def parse_json(data: bytes, shown: str, member: str | None = None) -> Any:
    """JSON text parsed whole, once its count of values is known to be within the cap."""
    with json_errors(shown, member):
        _inputs.check_json_values(data)
        return json.loads(data)


@contextlib.contextmanager
def json_errors(shown: str, member: str | None = None) -> Iterator[None]:
    """Turn a JSON syntax, encoding, nesting or size error into an `OutputError` naming the
    place."""
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
    except _inputs.TooLarge as exc:
        raise OutputError(shown, f"{where}{exc}") from exc
    except ValueError as exc:
        if not is_digit_limit(exc):
            raise
        raise OutputError(shown, f"{where}not valid JSON: {DIGIT_LIMIT}") from exc


# Python refuses to turn more digits than this into an integer (sys.get_int_max_str_digits).
DIGIT_LIMIT = "a number with more than 4300 digits"


def is_digit_limit(exc: ValueError) -> bool:
    """Whether `exc` is Python's refusal of an integer with too many digits."""
    return "integer string conversion" in str(exc)


def json_objects(
    stream: Iterable[str | bytes], shown: str, expected: str = "expected one JSON object per line"
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each non-blank line of a JSON Lines stream, parsed, with its line number; a line that is
    not a JSON object is an error saying `expected`."""
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        row = parse_json_line(line, shown, number)
        if not isinstance(row, dict):
            raise OutputError(shown, expected, number)
        yield number, row


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
    except ValueError as exc:
        if not is_digit_limit(exc):
            raise
        raise OutputError(shown, f"not valid JSON: {DIGIT_LIMIT}", line) from exc


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


# Past 2**53 a count is no longer exact as a float, and no eval counts that far.
LARGEST_COUNT = 2**53


def integer(value: object) -> int | None:
    """A count or an index written as a JSON integer (or an integral float) of at most
    LARGEST_COUNT either way; anything else is None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not -LARGEST_COUNT <= value <= LARGEST_COUNT:
        return None
    whole = int(value)
    return whole if whole == value else None


def count(value: object) -> int | None:
    """A count: an `integer` that is not negative; anything else is None."""
    found = integer(value)
    return found if found is not None and found >= 0 else None


def optional_list(obj: dict[str, Any], key: str, shown: str, where: str) -> list[Any]:
    """A list that may be left out (or null): empty then; anything but a list is malformed."""
    value = obj.get(key)
    return [] if value is None else sequence(value, shown, where)


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
    return to_float(value)  # type: ignore[arg-type]


def to_float(value: float) -> float:
    """A JSON number as a float; an integer too large for one is infinite, as a JSON float
    literal that large already is (and is judged not finite later, never a crash)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def shown_value(value: object, limit: int = 60) -> str:
    """A value from a file, as a message shows it: a scalar as written (one line, cut short),
    anything else by its kind (an object or a list may be nested deep, or be huge)."""
    if isinstance(value, str):
        return one_line(repr(value[: limit + 1]), limit)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > LARGEST_COUNT:
        return "a very large number"
    if value is None or isinstance(value, bool | int | float):
        return repr(value)
    return kind(value)


class Cost(enum.IntEnum):
    """What one per-sample entry of each kind takes in memory until the run ends, in bytes (as
    measured with tracemalloc, rounded up), everything derived from it included."""

    ROW = 48  # a score as parsed, its cluster number, a pointer to its sample's key
    KEY = 104  # a sample's key, kept once for all its rows: its text and its slot in a table
    SCORE = 160  # a score kept as a Sample, for pairing with a baseline
    SUMMARY = 720  # an Inspect summary, its epoch score and its Sample
    # A value an Inspect reducer gave, kept as a new (sample id, value) pair and its list slot,
    # with an id or value of its own (an int or a float): 48 undercounted the pair itself.
    REDUCED = 96


class SampleBudget:
    """The per-sample entries kept from one output so far, by their estimated memory: past the
    SAMPLE_MEMORY cap, the output is refused rather than held."""

    def __init__(self, shown: str) -> None:
        self._shown, self._kept = shown, 0
        self._limit = _inputs.SAMPLE_MEMORY.limit()

    def add(self, cost: Cost, count: int = 1) -> None:
        self._kept += cost * count
        if self._kept > self._limit:
            try:
                _inputs.SAMPLE_MEMORY.check(self._kept)
            except _inputs.TooLarge as exc:
                raise OutputError(self._shown, str(exc)) from None


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
    value: float | None,
    scores: Sequence[float] | None,
    stderr: float | None,
    *,
    n: int | None = None,
    rate: bool = False,
    clusters: int | None = None,
) -> Interval | None:
    """From per-sample scores when there are any; else Wilson's from the value and n when the
    value is a share of n (`rate`: the framework's metric is one by construction; or the
    stderr is the binomial one); else from the framework's stderr (`clusters` for a clustered
    one, 0 when their number is unknown); else None. Rules: rates.py."""
    if scores:
        return stats.interval_for_scores(scores) if finite(scores) else None
    if value is None or not math.isfinite(value):
        return None
    share = rate or (stderr is not None and n is not None and rates.binomial(value, n, stderr))
    if n and clusters is None and share:
        return rates.share(value, n, stats.DEFAULT_LEVEL, MethodBasis.INFERRED_PROPORTION)
    if stderr is None:
        return None
    return rates.reported(value, stderr, clusters)


def out_of_range(value: float | None, rate: bool) -> tuple[Reason, ...]:
    """A rate's value outside [0, 1]: impossible, so unsound (`value_out_of_range`), never
    clipped into a pass."""
    if not rate or value is None or not math.isfinite(value) or 0 <= value <= 1:
        return ()
    return (
        Reason(
            ValidityCode.VALUE_OUT_OF_RANGE,
            f"value {value:g} is outside [0, 1], and the metric is a rate",
        ),
    )


def mean(values: Sequence[float]) -> float | None:
    return stats.mean(values) if values else None


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
