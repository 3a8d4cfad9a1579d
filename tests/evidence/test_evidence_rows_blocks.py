"""The rows reader takes whole blocks of common rows at once and other rows one by one: on any
file, in any block size, it gives what reading every row one by one gives, the same sums or the
same error naming the same line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import orjson
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from evalglass.errors import OutputError
from evalglass.evidence import aggregate
from evalglass.evidence.adapters import rows
from evalglass.evidence.adapters._row_sums import RowSums

_ID = st.one_of(st.integers(0, 40).map(str), st.integers(0, 40), st.sampled_from([None, ""]))
_CLUSTER = st.sampled_from([None, "", "x", "y", 7, 7.0, "7"])
_SCORE = st.one_of(
    st.none(),
    st.sampled_from([0, 1, 0.0, 1.0, 0.25, -3.5, True, "", "0.5", 10**400, math.nan, math.inf]),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
)
_ROW = st.fixed_dictionaries(
    {"metric": st.sampled_from(["a", "b", "c"]), "score": _SCORE},
    optional={
        "sample_id": _ID,
        "cluster": _CLUSTER,
        "model": st.sampled_from([None, "", "m"]),
        "epoch": st.sampled_from([None, 0, 1, 2]),
    },
).map(json.dumps)
# Now and then a line that is not a row of the common shape, or not a row at all; and lines
# that a parse of the whole block as one array could misread: a row going on into the next
# line, two rows on one line, a list, blanks, a line that is only `0`.
_ODD = st.sampled_from([
    "", "  ", "[1]", "{bad", '{"metric": "", "score": 1}', '{"metric": "a", "score": "bad"}',
    '{"metric": "a", "score": 2e12}', '{"metric": "a", "score": 1, "cluster": [1]}',
    '{"metric": "a", "score": 1, "sample_id": [1]}', '{"metric": "a", "score": NaN}',
    '{"metric": "b", "score": 1, "model": "other"}',
    '{"metric": "a", "score": 1,\n"sample_id": "1"}', '{"metric": "a",\n"score": 0}',
    '{"metric": "a", "score": 1}, {"metric": "b", "score": 0}', '{"metric": "a", "score": 1},0',
    '{"metric": "a", "score": 0.5, "tags": ["x"]}', ' {"metric": "a", "score": 0.5}',
    '{"metric": "a", "score": 1}\r', '{"metric": "a", "score": 1},', "0", ",0,",
    '{"metric": "a", "score": 1, "sample_id": "s\\n1"}', '{"metric": "a", "score": 1, "x": {}}',
    '{"metric": "a", "score": -0.0, "epoch": "1"}', '{"metric": "a", "score": 1, "epoch": true}',
])  # fmt: skip
_LINE = st.one_of(*[_ROW] * 12, _ODD)


def outcome(read: object) -> object:
    try:
        return read()  # type: ignore[operator]
    except OutputError as exc:
        return str(exc)


@settings(max_examples=150, deadline=None)
@given(
    lines=st.lists(_LINE, min_size=1, max_size=80),
    block=st.integers(min_value=1, max_value=4000),
)
def test_blocks_read_as_rows_one_by_one(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str], block: int
) -> None:
    """Same Aggregates (or the same one-line error) from blocks of any size as row by row."""
    path = tmp_path_factory.mktemp("blocks") / "rows.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rows, "_BLOCK_BYTES", block)
        got = outcome(lambda: rows.exact_aggregates(path, "rows.jsonl"))
    want = outcome(lambda: rows.exact_aggregates(path, "rows.jsonl", exact=True))
    assert got == want


# Pieces of JSON, put together at random into lines that may or may not be rows.
_PIECE = st.sampled_from(
    ["{", "}", "[", "]", ",", ":", " ", "\r", '"a"', '"m', 'x"', "0", "1", "-0.0", "null",
     '{"a": 1}', '{"a": [1', "2]}", '"a": 2}', "},{", "}, {", ",0,", "\\n"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
# A list going on into the next line swallows one `,0,`, and a line with two rows makes up
# the count; a string going on into the next line; an object going on into the next line.
@example(['{"a": [1', "2]}", '{"a": 1},0,{"a": 1}'], True)
@example(['{"a": "x', 'y"}', "{}"], False)
@example(['{"a": 1', '"b": 2}', "{},{}"], True)
@given(st.lists(st.lists(_PIECE, max_size=6).map("".join), min_size=1, max_size=6), st.booleans())
def test_a_block_parses_to_its_lines_rows_or_not_at_all(lines: list[str], ends: bool) -> None:
    """Whatever the lines hold, a block is parsed (in one call or line by line) to exactly what
    parsing each line alone gives, or not at all (then it is read line by line)."""
    block = ("\n".join(lines) + ("\n" if ends else "")).encode()
    got = rows._parsed(block)
    if got is not None:
        assert got == [orjson.loads(line) for line in rows._lines(block)]


@pytest.mark.parametrize("ends", [True, False])
def test_a_block_of_rows_is_parsed_in_one_call(ends: bool) -> None:
    """A block of common rows is parsed by one orjson call, not one a line (which costs
    twice the time), with or without a newline at its end."""
    table = [{"metric": f"m{i % 3}", "score": i % 2, "sample_id": f"s{i}"} for i in range(100)]
    block = b"\n".join(orjson.dumps(row) for row in table) + (b"\n" if ends else b"")
    calls: list[bytes] = []

    def counted(text: bytes) -> object:
        calls.append(text)
        return orjson.loads(text)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rows, "_fast", counted)
        assert rows._parsed(block) == table
    assert len(calls) == 1


def test_a_repeat_inside_a_block_names_its_line(tmp_path: Path) -> None:
    """A sample id repeated within one block of common rows is named at the line that repeats
    it, before an error on a later line."""
    table = [{"metric": "m", "score": 1, "sample_id": f"s{i}"} for i in range(500)]
    table.insert(300, {"metric": "m", "score": 0, "sample_id": "s17"})
    text = "".join(json.dumps(r) + "\n" for r in table) + "{not json\n"
    path = tmp_path / "rows.jsonl"
    path.write_text(text)
    with pytest.raises(OutputError) as caught:
        rows.aggregates(path, "rows.jsonl")
    assert str(caught.value) == "rows.jsonl:301: sample_id 's17' appears twice for metric 'm'"


@pytest.mark.parametrize("epoch", [None, 1])
@pytest.mark.parametrize(
    ("score", "cluster"),
    [("bad", None), (1, [1]), (None, [1])],
    ids=["score", "cluster", "unscored"],
)
def test_a_repeat_on_a_line_at_fault_is_named_first(
    tmp_path: Path, epoch: int | None, score: object, cluster: object
) -> None:
    """A row that repeats a sample (and epoch) and is at fault itself (a score that is not a
    number, a cluster that is a list) is named for the repeat, as reading row by row does."""
    table = [{"metric": "m", "score": 1, "sample_id": f"s{i}", "epoch": epoch} for i in range(9)]
    table.append({"metric": "m", "score": score, "sample_id": "s3", "epoch": epoch,
                  "cluster": cluster})  # fmt: skip
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in table))
    want = "rows.jsonl:10: sample_id 's3' appears twice for metric 'm'"
    for exact in (False, True):
        with pytest.raises(OutputError) as caught:
            rows.exact_aggregates(path, "rows.jsonl", exact=exact)
        assert str(caught.value) == want


@pytest.mark.parametrize("epoch", [None, 1])
def test_an_unscored_row_with_a_list_for_a_cluster(tmp_path: Path, epoch: int | None) -> None:
    """A row naming a sample, without a score, with a list for a cluster: its cluster is not
    read (the row counts as missing) unless a row names an epoch (then each sample's rows
    must name one cluster, and a list is none): the same either way the file is read."""
    table: list[dict[str, object]] = [
        {"metric": "m", "score": 1, "sample_id": f"s{i}", "epoch": epoch} for i in range(9)
    ]
    table.insert(4, {"metric": "m", "score": None, "sample_id": "t", "cluster": [1]})
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in table))
    got = outcome(lambda: rows.exact_aggregates(path, "rows.jsonl"))
    assert got == outcome(lambda: rows.exact_aggregates(path, "rows.jsonl", exact=True))
    if epoch:
        assert got == "rows.jsonl:5: cluster: expected a string or a number"
    else:
        assert isinstance(got, aggregate.Aggregates) and got.metrics["m"].moments.missing == 1


@pytest.mark.parametrize("again", ["odd", 1])
@pytest.mark.parametrize("odd", [True, 1.0, "1"])
def test_an_id_equal_to_an_integer_is_keyed_by_its_own_text(
    tmp_path: Path, odd: object, again: object
) -> None:
    """In a block where each metric's ids equal the others' (`1 == 1.0 == True`), an id that
    is not the integer is keyed by its own text (`True`, `1.0`, `1`), as reading row by row
    keys it: the same id given again on that metric is a repeat, the integer 1 is one only
    where the id was the text "1"."""
    head = [{"metric": m, "score": 1, "sample_id": i if m == "a" or i != 1 else odd}
            for i in range(3) for m in ("a", "b")]  # fmt: skip
    text = "".join(json.dumps(r) + "\n" for r in head)
    repeat = {"metric": "b", "score": 0, "sample_id": odd if again == "odd" else again}
    path = tmp_path / "rows.jsonl"
    path.write_text(text + json.dumps(repeat) + "\n" + json.dumps({"metric": "a", "score": 0}))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rows, "_BLOCK_BYTES", len(text.encode()))  # the head is a block
        got = outcome(lambda: rows.exact_aggregates(path, "rows.jsonl"))
    assert got == outcome(lambda: rows.exact_aggregates(path, "rows.jsonl", exact=True))
    if again == "odd" or odd == "1":
        assert isinstance(got, str) and got.startswith("rows.jsonl:7: sample_id ")
    else:
        assert isinstance(got, aggregate.Aggregates) and got.metrics["b"].moments.n == 4


# CSV cells, now and then odd: empty, not a number, a quoted newline, a comma inside quotes.
_CELL = st.sampled_from(["", "a", "b", "7", "0", "1", "0.5", "-3.5", "nan", "x", "1e12"])
_CSV_ROW = st.tuples(
    st.sampled_from(["a", "b", ""]), st.sampled_from(["1", "0", "0.25", "", "bad", "inf", "2e12"]),
    _CELL, _CELL, st.sampled_from(["", "m", "other"]), st.sampled_from(["", "1", "2", "0"]),
).map(",".join)  # fmt: skip
_CSV_ODD = st.sampled_from([
    "", "a,1", "a,1,s1,c,m,1,extra", '"a\nb",1,s1,,,', 'a,"0.5",s2,"x,y",m,', "a,1,s1,c,m,1\r",
    '"a",1,s9,,,', "a, 1,s3,,,",
])  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    lines=st.lists(st.one_of(*[_CSV_ROW] * 8, _CSV_ODD), min_size=1, max_size=60),
    block=st.integers(min_value=1, max_value=20),
    header=st.sampled_from([
        "metric,score,sample_id,cluster,model,epoch", "score,metric,sample_id,cluster,model,epoch",
        "metric,score,sample_id,cluster,model,metric",
    ]),
)  # fmt: skip
def test_csv_blocks_read_as_rows_one_by_one(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str], block: int, header: str
) -> None:
    """CSV rows taken a block at a time by their columns give the same Aggregates (or the same
    one-line error) as the rows read one by one, in blocks of any size."""
    path = tmp_path_factory.mktemp("csv") / "rows.csv"
    path.write_text("\n".join([header, *lines]) + "\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rows, "_CSV_ROWS", block)
        got = outcome(lambda: rows.exact_aggregates(path, "rows.csv"))
    want = outcome(lambda: rows.exact_aggregates(path, "rows.csv", exact=True))
    assert got == want


def test_a_csv_file_is_taken_by_columns(tmp_path: Path) -> None:
    """A CSV file of common rows is read by blocks of columns, never a row at a time."""
    path = tmp_path / "rows.csv"
    path.write_text("metric,score,sample_id\n" + "".join(f"m,{i % 2},s{i}\n" for i in range(2000)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RowSums, "add_rows", None)  # any row taken alone fails
        got = rows.exact_aggregates(path, "rows.csv")
    assert got.metrics["m"].moments.n == 2000


def test_a_csv_row_after_blank_lines_is_named_by_its_own_line(tmp_path: Path) -> None:
    """A bad CSV row after blank lines is named at the line it is on, read either way."""
    path = tmp_path / "rows.csv"
    path.write_text("metric,score\nm,1\n\n\nm,bad\n")
    for exact in (False, True):
        with pytest.raises(OutputError) as caught:
            rows.exact_aggregates(path, "rows.csv", exact=exact)
        assert str(caught.value) == "rows.csv:5: score: expected a number, got 'bad'"
