"""Reading judgments and labels (JSONL or CSV) and matching them by sample id."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import hypothesis.strategies as hs
import pytest
from hypothesis import HealthCheck, given, settings

from evalglass.calibration_evidence import LabelScale
from evalglass.errors import CalibrationError, EvalglassError
from evalglass.tools.calibration.inputs import read_label_file
from evalglass.tools.calibration.ratings import match


def write(path: Path, rows: list[dict[str, object]]) -> Path:
    """JSONL for a .jsonl path, CSV (header from the first row) for a .csv path."""
    if path.suffix == ".csv":
        with path.open("w", newline="", encoding="utf-8") as stream:
            writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_judge_rows_and_rater_labels_match_by_sample_id(tmp_path: Path) -> None:
    """Items in both files are matched (sorted by id); the rest are counted on their side."""
    judged = write(tmp_path / "j.jsonl", [{"sample_id": i, "label": "pass"} for i in "abc"])
    labelled = write(
        tmp_path / "l.csv",
        [
            {"sample_id": "a", "rater": "ann", "label": "pass"},
            {"sample_id": "a", "rater": "bo", "label": "fail"},
            {"sample_id": "b", "rater": "bo", "label": "pass"},
            {"sample_id": "z", "rater": "bo", "label": "pass"},
        ],
    )
    r = match(
        read_label_file(judged, raters_allowed=False),
        read_label_file(labelled, raters_allowed=True),
    )
    assert r.items == ("a", "b")
    assert r.raters == ("ann", "bo")
    assert r.scale is LabelScale.BINARY and r.categories == ("fail", "pass")
    assert r.judge == (1.0, 1.0)
    assert r.humans == ((1.0, 0.0), (None, 1.0))
    assert (r.coverage.matched, r.coverage.judged_only, r.coverage.labelled_only) == (2, 1, 1)


def test_duplicate_id_in_the_judgments_names_the_line(tmp_path: Path) -> None:
    """A sample judged twice is exit-4 input naming file, line, the earlier line and the count."""
    judged = write(
        tmp_path / "j.jsonl",
        [
            {"sample_id": "a", "label": 1},
            {"sample_id": "b", "label": 0},
            {"sample_id": "a", "label": 0},
            {"sample_id": "b", "label": 0},
        ],
    )
    with pytest.raises(CalibrationError) as caught:
        read_label_file(judged, raters_allowed=False)
    assert isinstance(caught.value, EvalglassError)
    assert str(caught.value) == (
        f"{judged}:3: sample_id 'a' repeats line 1; 2 repeated rows in "
        "all (several labels per item need a 'rater' field)"
    )


def test_duplicate_rater_label_in_csv_names_the_line(tmp_path: Path) -> None:
    """In a CSV, the line is the file's line (header = line 1)."""
    labelled = write(
        tmp_path / "l.csv",
        [
            {"sample_id": "a", "rater": "ann", "label": "x"},
            {"sample_id": "a", "rater": "bo", "label": "x"},
            {"sample_id": "a", "rater": "ann", "label": "y"},
        ],
    )
    with pytest.raises(
        CalibrationError,
        match=r"l\.csv:4: sample_id 'a' for rater 'ann' "
        r"repeats line 2$",
    ):
        read_label_file(labelled, raters_allowed=True)


def test_no_common_item_is_an_error(tmp_path: Path) -> None:
    """Two files that share no sample id cannot calibrate anything."""
    judged = write(tmp_path / "j.jsonl", [{"sample_id": "a", "label": 1}])
    labelled = write(tmp_path / "l.jsonl", [{"sample_id": "b", "label": 1}])
    with pytest.raises(CalibrationError, match="no sample_id is in both"):
        match(
            read_label_file(judged, raters_allowed=False),
            read_label_file(labelled, raters_allowed=True),
        )


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([{"sample_id": "a"}], r":1: label: missing"),
        ([{"label": 1}], r":1: sample_id: missing"),
        ([{"sample_id": 1.5, "label": 1}], r":1: sample_id: expected a string or an integer"),
        ([{"sample_id": "a", "label": [1]}], r":1: label: expected a string, a number"),
    ],
)
def test_malformed_rows_name_line_and_field(
    tmp_path: Path, rows: list[dict[str, object]], message: str
) -> None:
    """Every malformed row is refused with its line and field."""
    with pytest.raises(CalibrationError, match=message):
        read_label_file(write(tmp_path / "x.jsonl", rows), raters_allowed=True)


def test_csv_without_a_label_column_is_refused(tmp_path: Path) -> None:
    """The CSV header must name sample_id and label."""
    path = tmp_path / "x.csv"
    path.write_text("sample_id,grade\na,1\n")
    with pytest.raises(CalibrationError, match=r"x\.csv:1: CSV header has no 'label' column"):
        read_label_file(path, raters_allowed=True)


def test_bad_json_line_is_refused(tmp_path: Path) -> None:
    """A JSONL line that is not JSON names its line."""
    path = tmp_path / "x.jsonl"
    path.write_text('{"sample_id": "a", "label": 1}\n{oops\n')
    with pytest.raises(CalibrationError, match=r"x\.jsonl:2: not valid JSON"):
        read_label_file(path, raters_allowed=True)


def test_blank_labels_are_counted_not_matched(tmp_path: Path) -> None:
    """An empty label (a judge that gave no grade) is counted and its item not matched."""
    judged = write(
        tmp_path / "j.jsonl", [{"sample_id": "a", "label": None}, {"sample_id": "b", "label": "1"}]
    )
    labelled = write(
        tmp_path / "l.csv", [{"sample_id": "a", "label": "1"}, {"sample_id": "b", "label": ""}]
    )
    with pytest.raises(CalibrationError, match="no sample_id is in both"):
        match(
            read_label_file(judged, raters_allowed=False),
            read_label_file(labelled, raters_allowed=True),
        )
    labelled = write(
        tmp_path / "l.csv", [{"sample_id": "a", "label": "1"}, {"sample_id": "b", "label": "1.0"}]
    )
    r = match(
        read_label_file(judged, raters_allowed=False),
        read_label_file(labelled, raters_allowed=True),
    )
    assert r.items == ("b",)
    assert (r.coverage.judge_blank, r.coverage.labelled_only) == (1, 1)


def test_numbers_are_one_category_whatever_their_spelling(tmp_path: Path) -> None:
    """1, 1.0 and "1" are one label; JSON true is the word true."""
    judged = write(
        tmp_path / "j.jsonl", [{"sample_id": "a", "label": 1}, {"sample_id": "b", "label": True}]
    )
    labelled = write(
        tmp_path / "l.csv",
        [{"sample_id": "a", "label": "1.0"}, {"sample_id": "b", "label": "true"}],
    )
    r = match(
        read_label_file(judged, raters_allowed=False),
        read_label_file(labelled, raters_allowed=True),
    )
    assert r.categories == ("1", "true")
    assert r.judge == (0.0, 1.0) and r.humans == ((0.0,), (1.0,))


def test_binary_scale_refuses_a_third_label(tmp_path: Path) -> None:
    """--scale binary with three labels names where the third first appears."""
    judged = write(
        tmp_path / "j.jsonl",
        [{"sample_id": i, "label": v} for i, v in zip("abc", ["y", "n", "y"], strict=True)],
    )
    labelled = write(
        tmp_path / "l.jsonl",
        [{"sample_id": i, "label": v} for i, v in zip("abc", ["y", "n", "maybe"], strict=True)],
    )
    with pytest.raises(CalibrationError, match=r"l\.jsonl:3: label: .*'maybe' would be a third"):
        match(
            read_label_file(judged, raters_allowed=False),
            read_label_file(labelled, raters_allowed=True),
            LabelScale.BINARY,
        )


def test_ordinal_and_interval_labels_must_be_numbers(tmp_path: Path) -> None:
    """On a numeric scale a word is refused with its line; numbers order the categories."""
    judged = write(
        tmp_path / "j.jsonl", [{"sample_id": "a", "label": 10}, {"sample_id": "b", "label": 2}]
    )
    labelled = write(
        tmp_path / "l.csv", [{"sample_id": "a", "label": "2"}, {"sample_id": "b", "label": "high"}]
    )
    for scale in (LabelScale.ORDINAL, LabelScale.INTERVAL):
        with pytest.raises(CalibrationError, match=r"l\.csv:3: label: expected a finite number"):
            match(
                read_label_file(judged, raters_allowed=False),
                read_label_file(labelled, raters_allowed=True),
                scale,
            )
    labelled = write(
        tmp_path / "l.csv", [{"sample_id": "a", "label": "2"}, {"sample_id": "b", "label": "10"}]
    )
    r = match(
        read_label_file(judged, raters_allowed=False),
        read_label_file(labelled, raters_allowed=True),
        LabelScale.ORDINAL,
    )
    assert r.categories == ("2", "10")


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=hs.lists(
        hs.tuples(
            hs.from_regex(r"[a-z0-9]{1,6}", fullmatch=True),
            hs.sampled_from(["", "ann", "bo"]),
            hs.one_of(hs.integers(-5, 5).map(str), hs.sampled_from(["pass", "fail", "x y"])),
        ),
        min_size=1,
        max_size=30,
        unique_by=lambda r: (r[0], r[1]),
    )
)
def test_csv_and_jsonl_read_the_same(tmp_path: Path, rows: list[tuple[str, str, str]]) -> None:
    """The same rows written as CSV and as JSONL read back identically, in file order."""
    dicts: list[dict[str, object]] = [{"sample_id": s, "rater": r, "label": v} for s, r, v in rows]
    from_csv = read_label_file(write(tmp_path / "x.csv", dicts), raters_allowed=True)
    from_jsonl = read_label_file(write(tmp_path / "x.jsonl", dicts), raters_allowed=True)
    assert [(r.sample_id, r.rater, r.label) for r in from_csv.rows] == rows
    assert [(r.sample_id, r.rater, r.label) for r in from_jsonl.rows] == rows


@settings(max_examples=300)
@given(
    hs.lists(
        hs.sampled_from(
            ["a", "{}", " ", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f",
             "\x85", "\u2028", "\u2029", "é"]
        ),
        max_size=30,
    ).map("".join)
)  # fmt: skip
def test_lines_are_read_one_at_a_time_as_splitlines_splits_them(text: str) -> None:
    """The JSONL reader's lines, taken one at a time rather than as one list, are exactly
    `str.splitlines()`'s (so line numbers in messages do not change)."""
    from evalglass.tools.calibration.inputs import _lines

    assert list(_lines(text)) == text.splitlines()


def test_a_file_past_the_row_cap_is_refused_naming_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A judgments or labels file with more rows than EVALGLASS_MAX_LABEL_ROWS is refused at
    the first row past it, naming the file, the line and the variable; at the cap it is read."""
    rows = [{"sample_id": f"q{i}", "label": i % 2} for i in range(6)]
    path = write(tmp_path / "labels.jsonl", rows)
    monkeypatch.setenv("EVALGLASS_MAX_LABEL_ROWS", "5")
    with pytest.raises(CalibrationError) as refused:
        read_label_file(path, raters_allowed=True)
    assert str(refused.value) == (
        f"{path}:6: a judgments or labels file with more than 5 rows is past the cap; "
        "set EVALGLASS_MAX_LABEL_ROWS to raise it"
    )
    monkeypatch.setenv("EVALGLASS_MAX_LABEL_ROWS", "6")
    assert len(read_label_file(path, raters_allowed=True).rows) == 6
