"""The rows reader takes whole blocks of common rows at once and other rows one by one: on any
file, in any block size, it gives what reading every row one by one gives, the same sums or the
same error naming the same line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalglass.errors import OutputError
from evalglass.evidence.adapters import rows

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
# Now and then a line that is not a row of the common shape, or not a row at all.
_ODD = st.sampled_from([
    "", "  ", "[1]", "{bad", '{"metric": "", "score": 1}', '{"metric": "a", "score": "bad"}',
    '{"metric": "a", "score": 2e12}', '{"metric": "a", "score": 1, "cluster": [1]}',
    '{"metric": "a", "score": 1, "sample_id": [1]}', '{"metric": "a", "score": NaN}',
    '{"metric": "b", "score": 1, "model": "other"}',
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
