"""Reading JSON a piece at a time gives what json.loads gives, and refuses what it refuses alike."""

from __future__ import annotations

import io
import json
import tracemalloc
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalglass.evidence.adapters._json_stream import JsonStream

_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=4), inner, max_size=5)
    ),
    max_leaves=25,
)


@st.composite
def _documents(draw: st.DrawFn) -> str:
    """A JSON document as a writer might lay it out, sometimes damaged (cut short, a character
    dropped, doubled or changed) so that it no longer parses."""
    value = draw(st.lists(_VALUES) | st.dictionaries(st.text(max_size=4), _VALUES) | _VALUES)
    indent = draw(st.sampled_from([None, 0, 2, "\t"]))
    text = json.dumps(value, indent=indent, ensure_ascii=draw(st.booleans()))
    text = draw(st.sampled_from(["", " ", "\n  "])) + text + draw(st.sampled_from(["", "\n", " x"]))
    damage = draw(st.sampled_from(["none", "none", "cut", "drop", "double", "change"]))
    if damage == "none" or not text:
        return text
    at = draw(st.integers(0, len(text) - 1))
    if damage == "cut":
        return text[:at]
    if damage == "drop":
        return text[:at] + text[at + 1 :]
    if damage == "double":
        return text[:at] + text[at] + text[at:]
    return text[:at] + draw(st.sampled_from(list('[]{},:"0-.e tn\\'))) + text[at + 1 :]


def _rebuild(stream: JsonStream, flat: bool = False) -> Any:
    """The value that comes next, descending into every array and object piece by piece; with
    `flat`, the elements of each array are read whole by `values`."""
    start = stream.peek()
    if start == "[":
        if flat:
            return stream.values(lambda element: element)
        return [_rebuild(stream) for _ in stream.items()]
    if start == "{":
        return {name: _rebuild(stream, flat) for name in stream.members()}
    return stream.value()


def _in_pieces(data: bytes, chunk: int, flat: bool = False) -> Any:
    stream = JsonStream(io.BytesIO(data), chunk=chunk)
    if not (stream.opens("[") or stream.opens("{")):
        return stream.whole()
    value = _rebuild(stream, flat)
    stream.end()
    return value


def _outcome(read: Any) -> tuple[object, ...]:
    """The value read, or the error with the place json.load would name."""
    try:
        return ("value", read())
    except json.JSONDecodeError as exc:
        return ("error", exc.msg, exc.lineno, exc.colno, exc.pos, not exc.doc.strip())


@settings(max_examples=400, deadline=None)
@given(_documents(), st.sampled_from([1, 2, 3, 7, 64, 1 << 20]), st.booleans())
def test_pieces_read_as_json_loads_reads(text: str, chunk: int, flat: bool) -> None:
    """Whatever the chunk size, element by element or descending into each, the value, or the
    error message and its line and column, match json.loads on the whole document."""
    data = text.encode()
    assert _outcome(lambda: _in_pieces(data, chunk, flat)) == _outcome(lambda: json.loads(data))


@pytest.mark.parametrize(
    "data",
    [
        "[1, 2]".encode("utf-16"),
        "[1, 2]".encode("utf-16-le"),
        "[1, 2]".encode("utf-32"),
        "\ufeff[1, 2]".encode(),
        b"[1, 12345678901234567890, 1e5, -2.5E-3, 3]",
        b'[{"a": "\xc3\xa9\xe2\x82\xac"}, "\xf0\x9f\x99\x82"]',
    ],
    ids=["utf-16", "utf-16-le", "utf-32", "bom", "numbers", "multibyte"],
)
def test_encodings_and_numbers_split_anywhere(data: bytes) -> None:
    """Encodings json.loads detects, and numbers or characters split between chunks, read alike."""
    for chunk in (1, 2, 3, 5):
        assert _in_pieces(data, chunk) == json.loads(data)


def test_bytes_that_are_not_utf8_are_refused_as_json_loads_refuses_them() -> None:
    """Invalid UTF-8 raises UnicodeDecodeError, as json.loads does."""
    with pytest.raises(UnicodeDecodeError):
        _in_pieces(b'[1, "\xff"]', 2)


def test_an_array_far_longer_than_a_chunk_is_never_held_whole() -> None:
    """Reading a 2 MB array element by element never holds more than a few chunks of it."""
    data = json.dumps([{"id": i, "text": "x" * 50} for i in range(30_000)]).encode()
    chunk = 1 << 16
    stream = JsonStream(io.BytesIO(data), chunk=chunk)
    tracemalloc.start()
    try:
        count = 0
        for _ in stream.items():
            stream.value()
            count += 1
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 30_000
    assert peak < 8 * chunk < len(data) / 4


@pytest.mark.parametrize(
    "odd",
    [
        "12345678901234567890123",
        "-98765432109876543210",
        "NaN",
        "-Infinity",
        "1E400",
        '"\\ud800"',
        '"} ] , { [ \\" ,"',
        '{"id": "u0000000000000000000000001", "n": [1, {"a": []}]}',
        "[]",
    ],
    ids=[
        "long",
        "long-negative",
        "nan",
        "infinity",
        "overflow",
        "surrogate",
        "brackets",
        "digits-in-a-string",
        "empty",
    ],
)
def test_long_arrays_read_as_json_loads_whatever_lies_among_their_elements(odd: str) -> None:
    """Arrays of thousands of objects, read element by element, equal json.loads even where an
    element holds what orjson reads otherwise (long integers, NaN, lone surrogates) or brackets
    inside strings; the array may end anywhere inside a chunk."""
    elements = [f'{{"id": {i}, "s": {{"v": [{i}, "x,y"]}}}}' for i in range(3000)]
    elements[1234] = f'{{"odd": {odd}}}'
    elements[2500] = odd
    text = f'{{"a": [{", ".join(elements)}], "b": [1, 2]}}'
    for chunk in (1 << 10, 1 << 14, 1 << 20):
        stream = JsonStream(io.BytesIO(text.encode()), chunk=chunk)
        read = {name: stream.values(lambda e: e) for name in stream.members()}
        stream.end()
        assert repr(read) == repr(json.loads(text))


def test_an_error_among_many_elements_is_placed_as_json_loads_places_it() -> None:
    """A comma with no element, deep inside a long array, is the error json.loads names, at
    the same line and column, not a batch's."""
    text = "[" + ",\n".join(f'{{"i": {i}}}' for i in range(5000)) + "]"
    broken = text.replace('{"i": 4000},', '{"i": 4000},,')
    stream = JsonStream(io.BytesIO(broken.encode()))
    with pytest.raises(json.JSONDecodeError) as caught:
        stream.values(lambda e: e)
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(broken)
    place = [(e.msg, e.lineno, e.colno, e.pos) for e in (caught.value, expected.value)]
    assert place[0] == place[1]
