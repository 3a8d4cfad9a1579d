"""Generic per-sample rows, as JSONL or CSV: `metric`, `score`, and optionally `sample_id`,
`cluster`, `model`, `epoch`. Streams the file once and keeps each row's score, cluster number and
sample key (about 50 bytes a row, each key once), not the rows; samples scored in several epochs
are reduced to their mean at the end. Rows that share a `cluster` get a cluster-robust interval.

A sample id seen twice for one metric is an input error: silently counting it twice would
inflate n and narrow the interval.
"""

from __future__ import annotations

import csv
import gc
import io
import json
import operator
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from evalglass.errors import OutputError
from evalglass.evidence import aggregate, progress
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.format_docs import NO_DATASET, ONE_FILE_RUNS, ROWS_COUNTING, FormatDocs
from evalglass.evidence.model import Measurement
from evalglass.evidence.registry import Adapter

if TYPE_CHECKING:
    from evalglass.evidence.adapters._row_sums import RowSums

# Recognising a rows file needs its first line alone: the sums, the exact reader and the DuckDB
# engine (with the queries they share) are imported by the functions that read, so that scoring
# another format never loads them.

ROWS_REQUIRED = ("metric", "score")
# orjson parses a line faster than json does; what it refuses goes to json.
_fast = orjson.loads
# json.loads of a str, less its per-call checks; a line opening with a byte-order mark still goes
# to json.loads, for its own message.
_decode = json.JSONDecoder().decode
# Lines are parsed a block at a time: large enough that per-block work vanishes, small enough
# that a block's parsed rows stay in the processor's cache while their columns are taken
# (64 KiB took a tenth to a fifth less CPU than 128 KiB, on sorted and shuffled rows alike).
_BLOCK_BYTES = 1 << 16
# The columns compared as text, where a float and an integer of one value are not one key.
_KEYS = ("sample_id", "cluster", "epoch")
_FLOAT = float
# CSV rows are taken this many at a time: few enough that a block's cells stay in the
# processor's cache (16,384 rows a block took four times as long as 512).
_CSV_ROWS = 1 << 9


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    """One measurement per metric of a rows file (.jsonl or .csv), streamed once. OutputError
    naming the line for a malformed row or a sample id seen twice for one metric."""
    return aggregate.measurements(aggregates(path, shown))


def aggregates(path: Path, shown: str, *, exact: bool = False) -> aggregate.Aggregates:
    """The file's sufficient statistics, per metric: what every other path computes too.

    Reduced by DuckDB when it is installed and vouches for every value (the same numbers, at
    engine speed); otherwise, and to name the line of any input error, by the exact reader
    below. `exact`: only the exact reader's slow path, every row one by one, each repeat named
    at its line."""
    from evalglass.evidence.adapters import _rows_engine as engine

    if not exact:
        found = engine.aggregates(path, shown)
        if found is not None:
            return found
    return exact_aggregates(path, shown, exact=exact)


def exact_aggregates(path: Path, shown: str, *, exact: bool = False) -> aggregate.Aggregates:
    """The file's sufficient statistics read by the rows reader itself, in Python: the
    definition the engine path is held to, and what names the line of an input error."""
    from evalglass.evidence.adapters._row_exact import Duplicate, Epochs

    epochs = False
    while True:
        try:
            return _read(path, shown, exact=exact, epochs=epochs)
        except Duplicate as found:
            # What only the exact path names the line of (a sample id given twice, a sample's
            # epochs in two clusters) may be there: read again keeping each metric's keys and,
            # if a row named an epoch, each sample's epochs and cluster.
            exact, epochs = True, found.epochs
        except Epochs:
            # The exact path met an epoch: read again, each sample's epochs and cluster kept.
            exact = epochs = True


def _read(path: Path, shown: str, *, exact: bool, epochs: bool = False) -> aggregate.Aggregates:
    # A parsed row holds no cycle, so reference counting frees every block; the cyclic
    # collector would only scan the million objects kept meanwhile, again and again.
    collecting = gc.isenabled()
    gc.disable()
    try:
        try:
            return _read_rows(path, shown, exact=exact, epochs=epochs)
        except _Reread:
            return _read_rows(path, shown, exact=exact, epochs=epochs, blocks=False)
    finally:
        if collecting:
            gc.enable()


class _Reread(Exception):
    """A CSV block that is not of the common shape holds a row over several lines, whose line
    numbers the block does not tell: the file is read again, a row at a time."""


def _read_rows(
    path: Path, shown: str, *, exact: bool, epochs: bool, blocks: bool = True
) -> aggregate.Aggregates:
    from evalglass.evidence.adapters._row_exact import Duplicate
    from evalglass.evidence.adapters._row_sums import RowSums

    sums = RowSums(shown, exact=exact, epochs=epochs)
    try:
        if path.suffix.lower() == ".csv":
            if not exact and blocks:
                _csv_blocks(path, shown, sums)
            else:
                sums.add_rows(_csv_rows(path, shown))
        else:
            number = 1  # of the block's first line
            for block in _blocks(path):
                rows = None if exact else _parsed(block)
                if rows is not None and sums.add_block(rows):
                    number += len(rows)
                else:
                    lines = _lines(block)
                    sums.add_rows(_json_rows(lines, number, shown))
                    number += len(lines)
    except UnicodeDecodeError as exc:
        raise OutputError(shown, "not UTF-8 text") from exc
    except csv.Error as exc:
        raise OutputError(shown, f"not valid CSV: {exc}") from exc
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {exc.strerror or exc}") from exc
    except OutputError:
        # A repeated sample before the line at fault is the first error: name that.
        if not exact and sums.suspect():
            raise Duplicate(sums.epochs) from None
        raise
    return sums.aggregates()


def _blocks(path: Path) -> Iterator[bytes]:
    """The file's lines, a block at a time: whole lines, each with its newline (the file's
    last line may lack one)."""
    with progress.open_binary(path) as stream:
        rest = b""
        while chunk := stream.read(_BLOCK_BYTES):
            cut = chunk.rfind(b"\n") + 1
            if cut:
                yield b"".join((rest, memoryview(chunk)[:cut]))
                rest = chunk[cut:]
            else:
                rest += chunk
        if rest:
            yield rest


def _lines(block: bytes) -> list[bytes]:
    lines = block.split(b"\n")
    if block.endswith(b"\n"):
        lines.pop()  # what follows the last newline is the next block
    return lines


def _parsed(block: bytes) -> list[Any] | None:
    """Every line of the block parsed by orjson, or None when one is not (blank, NaN,
    malformed): that block is then read line by line.

    A block with no `[` is parsed by one orjson call, as an array in which each newline
    becomes `,0,` and a newline (and a last `0` closes a block that ends in a newline):
    orjson per line costs about twice the time when each line's row is kept. It gives exactly
    the lines' rows when the array holds two elements a line, less one. A string cannot hold
    the raw newline that follows each `,0,`, an object cannot hold the `0` (where a key
    belongs) and, with no `[` in the block, no array but the outer one can: so every `0` is
    an element of the outer array, between the elements the lines hold; a blank line would
    leave `,,`, so each line holds at least one; and with 2n - 1 elements in all (2n + 1 with
    the last 0), each of the n lines holds exactly one."""
    if b"[" not in block:
        joined = block.replace(b"\n", b",0,\n")
        lines = (len(joined) - len(block)) // 3
        ends = joined.endswith(b"\n")
        if not ends:
            lines += 1  # the file's last line, with no newline
        try:
            both: list[Any] = _fast(b"".join((b"[", joined, b"0]" if ends else b"]")))
        except ValueError:
            return None
        # With a newline at the end, the array ends in two more elements: `,0,` and the 0.
        if len(both) == 2 * lines - 1 + 2 * ends:
            return both[0 : 2 * lines : 2]
        return None
    try:
        return list(map(_fast, _lines(block)))
    except ValueError:
        return None


def _json_rows(
    lines: list[bytes], first: int, shown: str
) -> Iterator[tuple[int, dict[str, object]]]:
    for number, line in enumerate(lines, start=first):
        try:
            row = _fast(line)
        except ValueError:
            if not line.strip():
                continue
            row = _slow(line, shown, number)
        else:
            if type(row) is dict and _FLOAT in map(type, map(row.get, _KEYS)):
                # orjson reads an integer past 64 bits as a float; an id is compared as text,
                # so it is read again by json, which keeps the integer's digits.
                row = _slow(line, shown, number)
        if type(row) is not dict:
            raise OutputError(shown, "expected one JSON object per line", number)
        yield number, row


def _slow(line: bytes, shown: str, number: int) -> object:
    """A line orjson refused, read by json: it accepts Python's NaN and Infinity (judged later)
    and its messages say what is wrong."""
    text = line.decode("utf-8")
    try:
        return json.loads(text) if text.startswith("\ufeff") else _decode(text)
    except json.JSONDecodeError as exc:
        raise OutputError(shown, f"not valid JSON: {exc.msg}", number) from exc
    except RecursionError as exc:
        raise OutputError(shown, "not valid JSON: nested too deeply", number) from exc
    except ValueError as exc:
        if not c.is_digit_limit(exc):
            raise
        raise OutputError(shown, f"not valid JSON: {c.DIGIT_LIMIT}", number) from exc


def _csv_blocks(path: Path, shown: str, sums: RowSums) -> None:
    """The CSV rows, a block at a time, each taken by its columns (the cells of the block's
    rows at each column's place) when every row is of the common shape, else row by row."""
    from evalglass.evidence.adapters._row_sums import COLUMNS

    with progress.open_binary(path) as raw, io.TextIOWrapper(raw, "utf-8", newline="") as stream:
        reader = csv.reader(stream)
        # As csv.DictReader: the first row names the columns, the last of a name repeated
        # holds its value.
        header = next(reader, [])
        _check_header(header, shown)
        place = {name: k for k, name in enumerate(header)}
        wanted = [place.get(name) for name in COLUMNS]
        while True:
            first = reader.line_num + 1
            block = list(islice(reader, _CSV_ROWS))
            if not block:
                return
            # A row over several lines (a quoted newline) leaves fewer rows than lines.
            one_line_each = reader.line_num - first + 1 == len(block)
            if one_line_each and _csv_columns(block, len(header), wanted, sums):
                continue
            if not one_line_each:
                raise _Reread
            sums.add_rows(
                (number, _csv_row(header, row))
                for number, row in enumerate(block, start=first)
                if row
            )


def _csv_columns(
    block: list[list[str]], width: int, wanted: list[int | None], sums: RowSums
) -> bool:
    """The block taken by its columns; False, changing nothing, when a row is not as wide as
    the header or a score is not a number (the rows are then read one by one)."""
    if [] in block:  # blank lines, which csv.DictReader skips
        block = [row for row in block if row]
        if not block:
            return True
    if len(set(map(len, block))) != 1 or len(block[0]) != width:
        return False
    columns: list[list[Any]] = [
        list(map(operator.itemgetter(k), block)) if k is not None else [None] * len(block)
        for k in wanted
    ]
    texts = columns[1]
    try:
        columns[1] = list(map(float, texts))
    except (ValueError, TypeError):
        if "" not in texts:
            return False
        try:
            # An empty cell is a score not given, as the row path reads it.
            columns[1] = [float(text) if text != "" else None for text in texts]
        except (ValueError, TypeError):
            return False
    return sums.add_columns(*columns)


def _csv_row(header: list[str], row: list[str]) -> dict[str, object]:
    """A row as csv.DictReader makes it, less the cells past the header's (which no column
    reads): absent cells None, the last of a name repeated in the header."""
    named: dict[str, object] = dict(zip(header, row))
    if len(row) < len(header):
        named.update(dict.fromkeys(header[len(row) :]))
    return named


def _check_header(names: list[str] | None, shown: str) -> None:
    missing = [c for c in ROWS_REQUIRED if c not in (names or [])]
    if missing:
        raise OutputError(shown, f"CSV header lacks column(s) {', '.join(missing)}", 1)


def _csv_rows(path: Path, shown: str) -> Iterator[tuple[int, dict[str, object]]]:
    """The CSV rows one by one, each with the line it ends on (csv.DictReader would name the
    first blank line before a row instead)."""
    with progress.open_binary(path) as raw, io.TextIOWrapper(raw, "utf-8", newline="") as stream:
        reader = csv.reader(stream)
        header = next(reader, [])
        _check_header(header, shown)
        for row in reader:
            if row:  # a blank line is no row
                yield reader.line_num, _csv_row(header, row)


def sniff(path: Path, head: bytes) -> bool:
    """A .jsonl file whose first row has metric and score, or a .csv whose header has those
    columns."""
    first = head.split(b"\n", 1)[0].strip()
    if path.suffix.lower() == ".jsonl":
        return first.startswith(b"{") and b'"metric"' in first and b'"score"' in first
    if path.suffix.lower() == ".csv":
        columns = {c.strip().strip('"') for c in first.decode("utf-8", "replace").split(",")}
        return set(ROWS_REQUIRED) <= columns
    return False


DOCS = FormatDocs(
    label="generic rows",
    versions="one set of columns, with no version field",
    model="`model`",
    graders="none named: the judge the metric's record names",
    counting=ROWS_COUNTING,
    runs=ONE_FILE_RUNS,
    identity=NO_DATASET,
)


ADAPTER = Adapter(
    name="rows",
    recognises="per-sample rows: .jsonl objects or .csv columns with metric and score",
    sniff=sniff,
    read=read,
    docs=DOCS,
)
