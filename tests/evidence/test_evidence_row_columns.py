"""Each column of a generic row is read alike by its two declared halves: the rows reader's rule
and the SQL DuckDB types the value with. Wherever the SQL vouches for a value, the rows reader
reads it to the same value; wherever the rows reader refuses it or reads it otherwise, the SQL
refuses to vouch (and the file goes to the rows reader)."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from evalglass.errors import OutputError
from evalglass.evidence import aggregate
from evalglass.evidence.adapters import _row_sums, _rows_engine, rows
from evalglass.evidence.adapters._row_columns import COLUMNS, NAMES, RowColumn


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One folder for the one-row files (hypothesis runs many examples a test)."""
    yield tmp_path_factory.mktemp("columns")


# What a JSON value may be: scalars of every kind (integers past 64 and 128 bits, NaN and the
# infinities as Python's json writes them), strings escaped or not, arrays and objects; and
# numbers spelled as Python's json.dumps never spells them (an exponent, a point, -0).
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**140), 2**140), st.floats(),
    st.text(max_size=6), st.sampled_from(["", "0", "1", "true", "NaN", "7", " 1", "0.5", "a\"b"]),
)  # fmt: skip
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=2), inner, max_size=2)
    ),
    max_leaves=3,
)
_NUMBER = r"-?(0|[1-9][0-9]{0,42})(\.[0-9]{1,4})?([eE][+-]?[0-9]{1,3})?"
# The values each column's rule singles out, drawn often.
_JSON_EDGES = st.sampled_from([
    "true", "false", "null", '""', "0", "-0", "0.0", "-0.0", "1", "1.5", "NaN", "Infinity",
    "-Infinity", "1E5", "1e400", '"0.5"', '"7"', "7", "[]", "{}", '"\\u0061"', "1099511627776",
])  # fmt: skip
_JSON_TEXTS = st.one_of(
    _JSON_EDGES,
    _VALUES.map(json.dumps),
    st.text(max_size=8).map(json.dumps),
    st.text(max_size=8).map(lambda v: json.dumps(v, ensure_ascii=False)),
    st.from_regex(_NUMBER, fullmatch=True),
)
# CSV cells: text without the quote, the comma and line ends (a file holding a quote goes to the
# rows reader whole; a comma or a line end would end the cell), and spellings of numbers that
# Python's float() and DuckDB's cast read otherwise.
_CELL_CHARS = st.characters(exclude_characters='",\r\n', exclude_categories=("Cs",))
_CELLS = st.one_of(
    st.text(_CELL_CHARS, max_size=8),
    st.from_regex(r"[+-]?[0-9]{0,4}\.?[0-9]{0,4}([eE][+-]?[0-9]{1,3})?", fullmatch=True),
    st.sampled_from([
        "nan", "+NaN", "-inf", "Infinity", "+infinity", "iNf", "infinite", "1_0", " 1", "1 ",
        "0x10", "１", "-0", "1e400", "1099511627776", "5.", ".5", "\t1", "true", "\x0b1", "١",
    ]),
)  # fmt: skip


def _same(column: RowColumn, sql_value: object, python_value: object, *, json_text: bool) -> bool:
    """Whether the SQL half's value is the rows reader's: a score as the same double (NaN as
    NaN), text as the same string (from JSON, the SQL value is the string's JSON text)."""
    if sql_value is None or python_value is None:
        return sql_value is None and python_value is None
    if column.name == "score":
        assert isinstance(sql_value, float) and isinstance(python_value, float)
        if math.isnan(python_value):
            return math.isnan(sql_value)
        # -0.0 too: DuckDB writes a JSON -0 back as 0, as Python's json reads it.
        return sql_value == python_value and math.copysign(1, sql_value) == math.copysign(
            1, python_value
        )
    assert isinstance(sql_value, str)
    return (json.loads(sql_value) if json_text else sql_value) == python_value


def _beyond(column: RowColumn, sql_value: object) -> bool:
    """A finite score at or beyond the exact range: vouched for by the typing, refused by the
    reduction (its out_of_range count), which sends the file to the rows reader."""
    return (
        column.name == "score"
        and isinstance(sql_value, float)
        and math.isfinite(sql_value)
        and not -aggregate.LIMIT < sql_value < aggregate.LIMIT
    )


def _agree(
    column: RowColumn, sql: tuple[object, bool] | None, python: object, json_text: bool
) -> None:
    """The two halves agree: the SQL half vouches only for what the rows reader reads alike."""
    if sql is None or sql[1] is not True:
        event("the SQL half refuses")
        return
    sql_value = sql[0]
    if isinstance(python, OutputError):
        event("the rows reader refuses; the reduction refuses it beyond the range")
        assert _beyond(column, sql_value), (sql_value, str(python))
        return
    event("both read the value")
    assert _same(column, sql_value, python, json_text=json_text), (sql_value, python)


# One connection for every example: connecting costs more than the query on one row.
_CONNECTION = duckdb.connect()


def _sql(query: tuple[str, str] | None, name: str) -> tuple[object, bool] | None:
    """The SQL half on a one-row file: the typed value and whether it is vouched for; None where
    DuckDB refuses the file."""
    if query is None:
        return None
    rows_query, vouched = query
    try:
        got = _CONNECTION.execute(f"SELECT {name}, ({vouched}) FROM ({rows_query})").fetchall()
    except duckdb.Error:
        return None
    [(value, ok)] = got
    return value, ok


def _row_line(name: str, text: str) -> str:
    """A JSON line whose other columns the rows reader and DuckDB read alike."""
    row = {"metric": '"a"', "score": "1", name: text}
    return "{" + ", ".join(f'"{k}": {v}' for k, v in row.items()) + "}"


@pytest.mark.parametrize("column", COLUMNS, ids=NAMES)
@settings(max_examples=100, deadline=None)
@given(text=_JSON_TEXTS)
def test_a_json_value_is_read_alike_by_both_halves(
    folder: Path, column: RowColumn, text: str
) -> None:
    """Any JSON value in any column: where the declared SQL vouches for it, the rows reader's
    rule reads it to the same value; where the rule refuses it, the SQL does not vouch."""
    line = _row_line(column.name, text)
    path = folder / f"{column.name}.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    python: object
    try:
        [(number, row)] = list(rows._json_rows([line.encode()], 1, "rows.jsonl"))
        python = column.read(row.get(column.name), "rows.jsonl", number)
    except OutputError as exc:
        python = exc
    _agree(column, _sql(_rows_engine._json_source(str(path)), column.name), python, True)


@pytest.mark.parametrize("column", COLUMNS, ids=NAMES)
@settings(max_examples=100, deadline=None)
@given(cell=_CELLS)
def test_a_csv_cell_is_read_alike_by_both_halves(
    folder: Path, column: RowColumn, cell: str
) -> None:
    """Any CSV cell in any column: where the declared SQL vouches for it, the rows reader's rule
    reads it to the same value; where the rule refuses it, the SQL does not vouch."""
    names = ["metric", "score"] + ([column.name] if column.name not in ("metric", "score") else [])
    cells = {"metric": "a", "score": "1", column.name: cell}
    text = ",".join(names) + "\n" + ",".join(cells[n] for n in names) + "\n"
    path = folder / f"{column.name}.csv"
    path.write_text(text, encoding="utf-8", newline="")
    python: object
    try:
        [row] = list(csv.DictReader(io.StringIO(text, newline="")))
        python = column.read(row.get(column.name), "rows.csv", 2)
    except OutputError as exc:
        python = exc
    _agree(column, _sql(_rows_engine._csv_source(path, str(path)), column.name), python, False)


def test_the_declarations_cover_every_column_the_rows_reader_reads() -> None:
    """One declaration per column the rows reader takes, each once."""
    assert sorted(NAMES) == sorted(_row_sums.COLUMNS) and len(set(NAMES)) == len(NAMES)
