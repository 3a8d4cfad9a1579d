"""Generic rows through DuckDB: JSONL, CSV and Parquet of the same rows give byte-identical
scorecards, equal to the pure rows reader's; and on any file, hostile values included, the
engine path ends as the pure path does, with the same sums or the same error naming the same
line."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import evalglass
from evalglass.errors import OutputError
from evalglass.evidence.adapters import _rows_engine, rows
from evalglass.render import json as render_json
from tests.shell.test_cli import EXAMPLE_RECORDS


@pytest.fixture(autouse=True, scope="module")
def _every_file_through_duckdb() -> Iterator[None]:
    """Small files would take the rows reader (faster there than starting DuckDB): here every
    file the engine can vouch for takes the engine path."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_rows_engine, "FROM_BYTES", dict.fromkeys(_rows_engine.FROM_BYTES, 0))
        yield


# The same rows as JSONL, CSV and Parquet: values each format holds alike (a CSV cell is text,
# so no booleans; an epoch is a positive integer, since a CSV "0" names an epoch and JSON 0 not).
_METRIC = st.sampled_from(["qa/exact", "qa/graded", "m,with comma", "ünï/côdé", 'q"uote'])
_SCORE = st.one_of(
    st.none(),
    st.sampled_from([0, 1, 0.0, 1.0, 0.5, -0.0, math.nan, math.inf, -math.inf, 5e-324, 0.1]),
    st.integers(-(2**39), 2**39),
    st.floats(min_value=-1e11, max_value=1e11, allow_nan=False),
)
_ID = st.one_of(
    st.none(),
    st.sampled_from(["", "s1", "s2", "s,3", "ü", "a b", "1"]),
    st.integers(0, 5),
    st.just(2**70),
)
_ROW = st.fixed_dictionaries(
    {"metric": _METRIC, "score": _SCORE},
    optional={
        "sample_id": _ID,
        "epoch": st.one_of(st.none(), st.integers(1, 3)),
        "cluster": st.one_of(
            st.none(), st.sampled_from(["c1", "c2", "", 'c"3', "c\\4", "ç"]), st.integers(0, 2)
        ),
        "model": st.sampled_from(["acme/x", None]),
    },
)


def _key(row: dict[str, Any]) -> object:
    return None if row.get("sample_id") in (None, "") else str(row["sample_id"])


def _consistent(rows_: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows less repeats of (metric, sample, epoch), each sample's cluster the first its rows
    name: valid rows, which every path reads to a scorecard."""
    seen: set[object] = set()
    cluster: dict[object, object] = {}
    kept = []
    for row in rows_:
        key = _key(row)
        if key is not None:
            mark = (row["metric"], key, row.get("epoch"))
            if mark in seen:
                continue
            seen.add(mark)
            row = {**row, "cluster": cluster.setdefault((row["metric"], key), row.get("cluster"))}
        kept.append(row)
    return kept


def _jsonl(path: Path, rows_: list[dict[str, Any]]) -> Path:
    # json.dumps writes NaN and Infinity as Python's json reads them.
    path.write_text("".join(json.dumps(r) + "\n" for r in rows_), encoding="utf-8")
    return path


def _csv(path: Path, rows_: list[dict[str, Any]]) -> Path:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["metric", "score", "sample_id", "epoch", "cluster", "model"])
    for r in rows_:
        cells = [r.get(k) for k in ("metric", "score", "sample_id", "epoch", "cluster", "model")]
        writer.writerow(
            ["" if v is None else repr(v) if isinstance(v, float) else v for v in cells]
        )
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def _parquet(path: Path, rows_: list[dict[str, Any]]) -> Path:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE t (metric VARCHAR, score DOUBLE, sample_id VARCHAR, epoch BIGINT, "
        "cluster VARCHAR, model VARCHAR)"
    )

    def text(v: object) -> str | None:
        return None if v is None else str(v)

    con.executemany(
        "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)",
        [
            (r["metric"], None if r["score"] is None else float(r["score"]),
             text(r.get("sample_id")), r.get("epoch"), text(r.get("cluster")), r.get("model"))
            for r in rows_
        ],
    )  # fmt: skip
    con.execute(f"COPY t TO '{path}' (FORMAT parquet)")
    return path


def _scorecard(path: Path) -> str:
    # One fixed evaluation time, so that two scorecards compare byte for byte.
    card = evalglass.score([path], EXAMPLE_RECORDS, as_of=dt.date(2026, 11, 30))
    return render_json.render(card).replace(path.name, "rows")


@pytest.fixture
def no_duckdb(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A switch that makes `import duckdb` fail, as where the extra is not installed."""

    def hide() -> None:
        monkeypatch.setitem(sys.modules, "duckdb", None)

    return hide


@settings(max_examples=25)
@given(st.lists(_ROW, min_size=1, max_size=40))
def test_jsonl_csv_and_parquet_give_byte_identical_scorecards(
    tmp_path_factory: pytest.TempPathFactory, generated: list[dict[str, Any]]
) -> None:
    """Epochs, clusters, missing scores, NaN, ints and floats, odd ids: the three formats give the
    same scorecard bytes through DuckDB, and the same as the pure rows reader's."""
    folder = tmp_path_factory.mktemp("rows")
    valid = _consistent(generated)
    jsonl, table = _jsonl(folder / "rows.jsonl", valid), _csv(folder / "rows.csv", valid)
    parquet = _parquet(folder / "rows.parquet", valid)
    # The engine vouches for every value here: it is the path these scorecards took (for CSV,
    # unless a cell needed quoting: such a file goes to the rows reader, below).
    assert _rows_engine.aggregates(jsonl, "rows") is not None
    quoted = '"' in table.read_text(encoding="utf-8")
    assert (_rows_engine.aggregates(table, "rows") is None) == quoted
    engine = [_scorecard(p) for p in (jsonl, table, parquet)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "duckdb", None)
        assert _rows_engine.aggregates(jsonl, "rows") is None
        pure = [_scorecard(p) for p in (jsonl, table)]
    assert engine[0] == engine[1] == engine[2] == pure[0] == pure[1]


def _outcome(path: Path, note: bool = True) -> object:
    """The sums, or the message of the input error; `note`: which path read it, as a hypothesis
    event (only inside a hypothesis test)."""
    if note:
        event("engine path" if _rows_engine.aggregates(path, "rows.x") else "exact reader")
    try:
        return rows.aggregates(path, "rows.x")
    except OutputError as exc:
        return str(exc)


def _pure_outcome(path: Path, note: bool = True) -> object:
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "duckdb", None)
        return _outcome(path, note)


# Raw JSON texts for each column: what the rows reader takes, and what DuckDB reads otherwise
# (a number as a metric, true or 1E5 as an id, NaN spelled as Python's json does not).
_RAW = {
    "metric": ['"a"', '"b"', "5", '""', "null", "true", '"\\u0061"', '"a\\"b"', '["a"]', "1.5"],
    "score": [
        "1", "0", "0.5", "-0", "1E5", "1e400", "NaN", "Infinity", "-Infinity", "nan", "inf",
        "true", "false", "null", '""', '"0.5"', '"nan"', '" 1"', "1099511627776", "1099511627775",
        "123456789012345678901234567890", "[1]", "-NaN",
    ],
    "sample_id": [
        '"s1"', '"s2"', "1", "2", "1E5", "100000.0", "true", "false", "null", '""', "[1]", "{}",
        "18446744073709551616", "-0", '"1"', "1.0", "-3", "NaN", '"a\\u0000b"',
    ],
    "cluster": ['"c1"', '"c2"', "7", '"7"', "7.0", "true", "null", '""', "[1]", "1E5", "-1",
                '"c\\"1"', '"c\\n1"', '"c\\u00e71"', '"\\u0063\\u0031"'],
    "epoch": ["1", "2", "0", "null", "false", "true", '"1"', '""', "1.0", "[]", '"a"', "-1", "0.0"],
    "model": ['"acme/x"', '"acme/y"', "5", "null", '""', "true"],
}  # fmt: skip
# The values among these that the engine vouches for: files of these alone take its path.
_VOUCHED = {
    "metric": ['"a"', '"b"', '"\\u0061"', '"a\\"b"'],
    "score": ["1", "0", "0.5", "-0", "1E5", "NaN", "Infinity", "-Infinity", "true", "false",
              "null", '""', "1099511627775", "-2.5e-7"],
    "sample_id": ['"s1"', '"s2"', "1", "2", "null", '""', "18446744073709551616", "-0", '"1"',
                  "-3", '"a\\u0000b"'],
    "cluster": ['"c1"', '"c2"', "7", '"7"', "null", '""', "-1", '"c\\"1"', '"c\\n1"',
                '"c\\u00e71"', '"\\u0063\\u0031"'],
    "epoch": ["1", "2", "0", "null", "false", '"1"', '""', "-1"],
    "model": ['"acme/x"', "5", "null", '""', "true"],
}  # fmt: skip


def _lines(pools: dict[str, list[str]]) -> st.SearchStrategy[str]:
    return st.fixed_dictionaries(
        {k: st.sampled_from(v) for k, v in pools.items() if k in ("metric", "score")},
        optional={k: st.sampled_from(v) for k, v in pools.items() if k not in ("metric", "score")},
    ).map(lambda row: "{" + ", ".join(f'"{k}": {v}' for k, v in row.items()) + "}")


_MILD = _lines(_VOUCHED)
_LINE = _lines(_RAW)
# Lines that are not rows of the common shape, or not rows at all.
_ODD_LINES = [
    "", "   ", "[1]", "5", "{bad", '{"metric": "a", "metric": "b", "score": 1}',
    '{"metric": "a", "score": 1} trailing', '{"metric": "a", "score": 1}\r',
    '{"metric": "a\\ud800", "score": 1}', '{"Metric": "a", "score": 1}',
    # What DuckDB's JSON reader takes and Python's json refuses, in a column evalglass ignores.
    '{"metric": "a", "score": 1, "x": nan}', '{"metric": "a", "score": 1, "x": [-inf]}',
    '{"metric": "a", "score": 1, "x": 1,}', '\x0b{"metric": "a", "score": 1}',
    '\ufeff{"metric": "a", "score": 1}', '{"metric": "a", "score": 1, "x": +Infinity}',
    '{"metric": "a", "score": 1, "x": ' + "[" * 1500 + "]" * 1500 + "}",
    '{"metric": "a", "score": 1, "x": ' + "9" * 5000 + "}",
    '{"metric": "a", "score": 1, "x": NAN}', '{"metric": "a", "score": 1, "x": [1, nAn]}',
    '{"metric": "a", "score": INF}', '{"metric": "a", "score": -Inf}',
    '{"metric": "a", "score": 1, "x": iNfInItY}', '{"metric": "a", "score": 1, "x": -NaN}',
    '{"metric": "a", "score": 1, "x": [1 , ]}', '{"metric": "a", "score": 1 ,\t}',
    ' \x0b {"metric": "a", "score": 1}', '{"metric": "a", "score": 1}\x0c',
    '{"metric": "a", "model": nan, "score": 1}',
    # What only looks so: the same outcome either way.
    '{"metric": "inference/nan", "score": 1, "x": "note: inf"}',
    '{"metric": "a", "score": 1, "x": [NaN, -Infinity]}',
]  # fmt: skip
_ODD_LINE = st.sampled_from(_ODD_LINES)
_PLAIN_LINE = st.sampled_from(['{"metric": "a", "score": 1}', '{"metric": "b", "score": 0.25}'])


@settings(max_examples=60)
@given(
    st.one_of(
        st.lists(st.one_of(_PLAIN_LINE, _MILD), max_size=12),
        st.lists(st.one_of(_PLAIN_LINE, _MILD, _MILD, _LINE, _ODD_LINE), max_size=12),
    ),
    st.sampled_from([b"", b"\xef\xbb\xbf"]),
)
def test_jsonl_engine_ends_as_the_pure_reader_does(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str], mark: bytes
) -> None:
    """Any JSON lines, hostile values among them: the engine path gives the pure reader's sums,
    or the same error naming the same line."""
    path = tmp_path_factory.mktemp("rows") / "rows.jsonl"
    path.write_bytes(mark + "".join(f"{line}\n" for line in lines).encode("utf-8", "surrogatepass"))
    assert _outcome(path) == _pure_outcome(path)


_CSV_RAW = {
    "metric": ["a", "b", " a", "", "b,c", 'q"q', "5"],
    "score": [
        "1", "0", "0.5", " 1", "1 ", "1_0", "nan", "NaN", "-inf", "Infinity", "+infinity", "0x10",
        "1e5", ".5", "5.", "+1", "abc", "", "1e400", "1099511627776", "1099511627775", "-0",
        "1,5", "１",
    ],
    "sample_id": ["s1", "s2", "1", "", " s1", "s1 ", "True"],
    "cluster": ["c1", "c2", "", "7", "7.0"],
    "epoch": ["1", "2", "0", "", "1.0", "a"],
    "model": ["acme/x", "acme/y", ""],
}  # fmt: skip
# Cells the engine vouches for (a file of these alone takes its path), ids from a wider range
# so that a plain file seldom repeats one.
_CSV_VOUCHED = {
    "metric": ["a", "b", " a", "b,c", 'q"q', "5"],
    "score": ["1", "0", "0.5", "nan", "NaN", "-inf", "Infinity", "+infinity", "1e5", ".5", "5.",
              "+1", "", "1099511627775", "-0"],
    "sample_id": [f"s{i}" for i in range(30)] + ["", " s1", "1"],
    "cluster": ["c1", "c2", "", "7", "7.0"],
    "epoch": ["1", "2", "0", "", "1.0", "a"],
    "model": ["acme/x", ""],
}  # fmt: skip
_CSV_HEADERS = st.sampled_from([
    "metric,score,sample_id,epoch,cluster,model", "metric,score", "score,metric,sample_id",
    "metric,score,cluster,cluster", '"metric",score', "metric,score,extra", "metric;score",
])  # fmt: skip
_CSV_ODD_LINES = [
    "", "a", "   ", "a,1,s1,1,c1,acme/x,extra", '"a,1', '"a"b,1', '"a" ,1', "a,1\r", "a\x00,1",
    "\ufeffa,1", "a,1\x0b",
]  # fmt: skip
_CSV_ODD = st.sampled_from(_CSV_ODD_LINES)


@settings(max_examples=60)
@given(
    _CSV_HEADERS,
    st.lists(st.one_of(st.integers(0, 3), st.integers(1, 3), _CSV_ODD), max_size=10),
    st.data(),
    st.sampled_from(["\n", "\r\n"]),
)
def test_csv_engine_ends_as_the_pure_reader_does(
    tmp_path_factory: pytest.TempPathFactory,
    header: str,
    kinds: list[int | str],
    data: st.DataObject,
    newline: str,
) -> None:
    """Any CSV, hostile cells and lines among them: the engine path gives the pure reader's sums,
    or the same error naming the same line."""
    names = next(csv.reader([header]))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=newline)
    out.write(header + newline)
    for kind in kinds:
        if isinstance(kind, str):
            out.write(kind + newline)
            continue
        pool = _CSV_VOUCHED if kind else _CSV_RAW
        writer.writerow([data.draw(st.sampled_from(pool.get(n, ["x", ""]))) for n in names])
    path = tmp_path_factory.mktemp("rows") / "rows.csv"
    path.write_text(out.getvalue(), encoding="utf-8", newline="")
    assert _outcome(path) == _pure_outcome(path)


@pytest.mark.parametrize("odd", _ODD_LINES, ids=range(len(_ODD_LINES)))
def test_each_known_odd_json_line_ends_as_the_pure_reader_does(tmp_path: Path, odd: str) -> None:
    """Each line DuckDB's JSON reader is known to read otherwise than Python's json, between two
    plain rows: the engine path gives the pure reader's sums, or the same error and line (the
    random tests above draw these too, but not every one on every run)."""
    path = tmp_path / "rows.jsonl"
    lines = ['{"metric": "a", "score": 1}', odd, '{"metric": "a", "score": 0}']
    path.write_bytes("".join(f"{line}\n" for line in lines).encode("utf-8", "surrogatepass"))
    assert _outcome(path, note=False) == _pure_outcome(path, note=False)


# Every control character, the byte-order mark and two other odd spaces, at a line's start and
# end (where DuckDB trims what it takes for whitespace), between tokens and inside a string.
_PLACES = {
    "start": '{c}{{"metric": "a", "score": 1}}', "end": '{{"metric": "a", "score": 1}}{c}',
    "token": '{{"metric":{c} "a", "score": 1}}', "string": '{{"metric": "a{c}", "score": 1}}',
}  # fmt: skip
_CHARS = [chr(k) for k in (*range(32), 127, 0xFEFF, 0x2028, 0xA0) if chr(k) != "\n"]


@pytest.mark.parametrize("char", _CHARS, ids=[f"U+{ord(c):04X}" for c in _CHARS])
def test_each_odd_character_ends_as_the_pure_reader_does(tmp_path: Path, char: str) -> None:
    """A control character (or an odd space) anywhere in a line: the engine path gives the
    pure reader's sums or error, wherever it stands."""
    for place, line in _PLACES.items():
        path = tmp_path / f"{place}.jsonl"
        lines = ['{"metric": "a", "score": 1}', line.format(c=char), '{"metric": "a", "score": 0}']
        path.write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
        assert _outcome(path, note=False) == _pure_outcome(path, note=False), place


@pytest.mark.parametrize("odd", _CSV_ODD_LINES, ids=range(len(_CSV_ODD_LINES)))
def test_each_known_odd_csv_line_ends_as_the_pure_reader_does(tmp_path: Path, odd: str) -> None:
    """Each CSV line the two readers are known to read apart, between two plain rows."""
    path = tmp_path / "rows.csv"
    path.write_text(f"metric,score\na,1\n{odd}\nb,0\n", encoding="utf-8", newline="")
    assert _outcome(path, note=False) == _pure_outcome(path, note=False)


def test_keys_are_named_as_the_rows_reader_names_them(tmp_path: Path) -> None:
    """Metrics, clusters and models grouped by their JSON texts get the names the rows reader
    gives them: escaped or not, a string or an integer's digits, one key however it is written."""
    lines = [
        '{"metric": "a\\"b", "score": 1, "cluster": "c\\"1", "model": "m\\\\x"}',
        '{"metric": "\\u0061\\"b", "score": 0, "cluster": "\\u0063\\"1", "model": "m\\\\x"}',
        '{"metric": "a\\"b", "score": 0.5, "cluster": "c\\n1"}',
        '{"metric": "é", "score": 1, "cluster": 7, "sample_id": 3}',
        '{"metric": "\\u00e9", "score": 0, "cluster": "7", "sample_id": "4"}',
    ]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    got = _rows_engine.aggregates(path, "rows.x")
    assert got is not None and got == _pure_outcome(path, note=False)
    assert set(got.metrics) == {'a"b', "é"} and got.model == "m\\x"
    assert set(got.metrics['a"b'].clusters) == {'c"1', "c\n1"}
    assert set(got.metrics["é"].clusters) == {"7"}


def test_a_value_the_engine_cannot_vouch_for_is_read_by_the_exact_reader(tmp_path: Path) -> None:
    """A number as a metric: DuckDB would read it as the text "5"; the engine path declines and
    the exact reader names the line."""
    path = tmp_path / "rows.jsonl"
    path.write_text('{"metric": "a", "score": 1}\n{"metric": 5, "score": 1}\n')
    assert _rows_engine.aggregates(path, "rows.jsonl") is None
    with pytest.raises(OutputError) as caught:
        rows.aggregates(path, "rows.jsonl")
    assert str(caught.value) == "rows.jsonl:2: metric: expected a non-empty string"


def test_a_repeated_sample_is_named_by_line_though_duckdb_found_it(tmp_path: Path) -> None:
    """DuckDB finds the repeat without a line; the exact reader reads the file again to name it."""
    path = tmp_path / "rows.csv"
    path.write_text("metric,score,sample_id\na,1,s1\na,0,s2\na,1,s1\n")
    with pytest.raises(OutputError) as caught:
        rows.aggregates(path, "rows.csv")
    assert str(caught.value) == "rows.csv:4: sample_id 's1' appears twice for metric 'a'"


@pytest.mark.parametrize(
    ("kind", "name", "text"),
    [
        ("csv", "rows.csv", "metric,score\na,1\n"),
        ("jsonl", "rows.jsonl", '{"metric": "a", "score": 1}\n'),
        ("jsonl", "rows.jsonl", '{"metric": "a", "score": 1, "sample_id": "s", "epoch": 1}\n'),
    ],
)
def test_a_small_file_takes_the_rows_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, name: str, text: str
) -> None:
    """Below its kind's FROM_BYTES the rows reader is faster than DuckDB: the engine declines,
    with or without an epoch column."""
    path = tmp_path / name
    path.write_text(text)
    size = path.stat().st_size
    others = {k: v for k, v in _rows_engine.FROM_BYTES.items() if k != kind}
    monkeypatch.setattr(_rows_engine, "FROM_BYTES", {**others, kind: size})
    assert _rows_engine.aggregates(path, name) is not None
    monkeypatch.setattr(_rows_engine, "FROM_BYTES", {**others, kind: size + 1})
    assert _rows_engine.aggregates(path, name) is None


def test_without_duckdb_the_pure_reader_reads_the_rows(tmp_path: Path, no_duckdb: Any) -> None:
    """Where the extra is not installed the engine path declines at once, and the rows are read."""
    path = tmp_path / "rows.jsonl"
    path.write_text('{"metric": "a", "score": 1, "sample_id": 1}\n{"metric": "a", "score": 0}\n')
    no_duckdb()
    assert _rows_engine.aggregates(path, "rows.jsonl") is None
    assert rows.aggregates(path, "rows.jsonl").metrics["a"].moments.n == 2
