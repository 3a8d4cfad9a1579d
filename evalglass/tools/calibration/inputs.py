"""Reads a judgments or labels file (JSONL or CSV: `sample_id`, `label`, optional `rater`) into
rows, with the file's sha256. It checks shape and duplicates only; what a label means (category or
number) is decided when the two files are matched (ratings.py).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import attrs

from evalglass._inputs import LABEL_ROWS, TooLarge, read_regular
from evalglass.errors import CalibrationError

# A label as the file gave it: JSON's scalar types, or CSV text. None is an empty label.
RawLabel = str | int | float | bool | None


@attrs.frozen
class Row:
    """One label as the file gave it, with its rater ("" when none is named) and its line for
    messages."""

    sample_id: str
    rater: str
    label: RawLabel
    line: int


@attrs.frozen
class LabelFile:
    """One file's rows, in file order, and what identifies its bytes."""

    path: str
    sha256: str
    rows: tuple[Row, ...]
    has_rater: bool


def read_label_file(path: Path, *, raters_allowed: bool) -> LabelFile:
    """Read one file. Without `raters_allowed` (the judge's file) a `rater` field is ignored.

    A sample id given twice (twice for one rater, where raters are allowed) is an input error
    naming the first repeat's line and how many ids repeat in all: counting an item twice would
    narrow every interval.
    """
    shown = str(path)
    data = read_input(path, shown)
    sha256 = hashlib.sha256(data).hexdigest()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CalibrationError(shown, "is not UTF-8 text", line) from None
    del data  # the text is all that is read from here on: the bytes need not be held with it
    jsonl = _is_jsonl(path, text)
    rows: list[Row] = []
    has_rater = False
    limit = LABEL_ROWS.limit()
    for line, fields in (_jsonl_rows if jsonl else _csv_rows)(text, shown):
        if len(rows) == limit:
            try:
                LABEL_ROWS.check(limit + 1)
            except TooLarge as exc:
                raise CalibrationError(shown, str(exc), line) from None
        sample_id = _key(fields.get("sample_id"), "sample_id", shown, line, required=True)
        rater = _key(fields.get("rater"), "rater", shown, line) if raters_allowed else ""
        has_rater = has_rater or bool(rater)
        if "label" not in fields:
            raise CalibrationError(shown, "label: missing (every row needs one)", line)
        rows.append(Row(sample_id, rater, _label(fields["label"], shown, line), line))
    _refuse_duplicates(rows, shown, has_rater)
    return LabelFile(shown, sha256, tuple(rows), has_rater)


def read_input(path: Path, shown: str) -> bytes:
    """The bytes of a labels, judgments or evidence file, read as every input is: a regular file
    only (a FIFO or a device is refused at once, never waited on) and no larger than the parse
    cap (EVALGLASS_MAX_PARSE_BYTES), checked on its size before reading."""
    try:
        return read_regular(path)
    except FileNotFoundError:
        raise CalibrationError(shown, "does not exist") from None
    except OSError as exc:
        raise CalibrationError(shown, f"cannot read: {exc.strerror or exc}") from None
    except TooLarge as exc:
        raise CalibrationError(shown, str(exc)) from None


def _is_jsonl(path: Path, text: str) -> bool:
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return False
    if suffix in (".jsonl", ".ndjson", ".json"):
        return True
    return text.lstrip().startswith("{")


# A line and its end, as str.splitlines ends lines; matched one at a time, so a million lines
# are never a list of a million strings beside the rows read from them.
_ENDS = "\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029"
_LINE = re.compile(f"([^{_ENDS}]*)(\r\n|[{_ENDS}]|\\Z)")


def _lines(text: str) -> Iterator[str]:
    """The lines of `text`, as `text.splitlines()` gives them, one at a time."""
    for found in _LINE.finditer(text):
        if found.end() == len(text) and not found.group():
            return  # the end of the text, after its last line
        yield found.group(1)


def _jsonl_rows(text: str, shown: str) -> Iterator[tuple[int, dict[str, object]]]:
    for number, line in enumerate(_lines(text), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CalibrationError(
                shown, f"not valid JSON: {exc.msg} (column {exc.colno})", number
            ) from None
        except ValueError:  # an integer past Python's digit limit
            raise CalibrationError(shown, "a number with too many digits", number) from None
        except RecursionError:
            raise CalibrationError(shown, "nested too deeply to read", number) from None
        if not isinstance(row, dict):
            raise CalibrationError(shown, "expected a JSON object on each line", number)
        yield number, row


def _csv_rows(text: str, shown: str) -> Iterator[tuple[int, dict[str, object]]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [name.strip() for name in reader.fieldnames or ()]
    for required in ("sample_id", "label"):
        if required not in header:
            found = ", ".join(header) or "nothing"
            raise CalibrationError(
                shown, f"CSV header has no '{required}' column (found {found})", 1
            )
    reader.fieldnames = header
    try:
        for row in reader:
            yield reader.line_num, {k: v for k, v in row.items() if k is not None}
    except csv.Error as exc:
        raise CalibrationError(shown, f"not valid CSV: {exc}", reader.line_num) from None


def _key(value: object, field: str, shown: str, line: int, *, required: bool = False) -> str:
    """An id as text: a string, or an integer (JSON ids are often numbers)."""
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if value is None or value == "":
        if required:
            raise CalibrationError(shown, f"{field}: missing", line)
        return ""
    raise CalibrationError(shown, f"{field}: expected a string or an integer, got {value!r}", line)


def _label(value: object, shown: str, line: int) -> RawLabel:
    if isinstance(value, str):
        return value.strip() or None
    if value is None or isinstance(value, (bool, int, float)):
        return value
    raise CalibrationError(
        shown, f"label: expected a string, a number or true/false, got {type(value).__name__}", line
    )


def _refuse_duplicates(rows: list[Row], shown: str, has_rater: bool) -> None:
    # A set of the keys (the id alone without raters: no tuple per row), and the lines of the
    # first repeat looked up again only when there is one.
    seen: set[object] = set()
    repeats: list[Row] = []
    for row in rows:
        key = (row.sample_id, row.rater) if has_rater else row.sample_id
        if key in seen:
            repeats.append(row)
        else:
            seen.add(key)
    if not repeats:
        return
    row = repeats[0]
    earlier = next(r.line for r in rows if (r.sample_id, r.rater) == (row.sample_id, row.rater))
    whose = f" for rater '{row.rater}'" if row.rater else ""
    more = "" if len(repeats) == 1 else f"; {len(repeats)} repeated rows in all"
    hint = "" if has_rater else " (several labels per item need a 'rater' field)"
    raise CalibrationError(
        shown, f"sample_id '{row.sample_id}'{whose} repeats line {earlier}{more}{hint}", row.line
    )
