"""`evalglass calibrate` on hostile label files: read like every input (regular files only, the
parse cap), one line and exit 4 for what cannot be read, a label set too large for the statistics
refused with its numbers, and label text shown escaped on the terminal."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from evalglass.tools.calibration import bootstrap, tables
from evalglass.tools.calibration.inputs import read_label_file
from evalglass.tools.calibration.ratings import match
from tests.hostile.harness import one_line_error, run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "calibration"
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture
def work(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    return tmp_path


def _calibrate(work: Path, judgments: str, labels: str, *more: str) -> str:
    result = run(
        "calibrate", judgments, labels, "--judge", "grader-v2", *more, cwd=work, limited=True,
        timeout=60,
    )  # fmt: skip
    return one_line_error(result)


@pytest.mark.parametrize("which", ["judgments", "labels", "against"])
def test_a_fifo_is_refused_at_once(work: Path, which: str) -> None:
    """A FIFO with no writer, named as any of the three files, is refused, never waited on."""
    os.mkfifo(work / "pipe")
    files = {"judgments": "judgments.jsonl", "labels": "labels.csv", "against": None}
    files[which] = "pipe"
    more = ("--against", files["against"] or "grader-v2.json")
    line = _calibrate(work, files["judgments"] or "", files["labels"] or "", *more)
    assert "pipe: cannot" in line and "FIFO" in line


@pytest.mark.parametrize("which", ["labels", "against"])
def test_a_link_to_dev_zero_is_refused(work: Path, which: str) -> None:
    """A link to an endless device is not a file: refused before a byte is read."""
    (work / "zero").symlink_to("/dev/zero")
    labels = "zero" if which == "labels" else "labels.csv"
    against = "zero" if which == "against" else "grader-v2.json"
    line = _calibrate(work, "judgments.jsonl", labels, "--against", against)
    assert "zero: cannot" in line and "device" in line


def test_a_huge_sparse_file_is_refused_by_its_size(work: Path) -> None:
    """A 1.5 GiB file (sparse: it costs no disk) is refused from its size, under 1 GiB of
    address space, naming the cap that raises it."""
    with open(work / "big.jsonl", "wb") as stream:
        stream.truncate(3 << 29)
    line = _calibrate(work, "big.jsonl", "labels.csv")
    assert "big.jsonl: " in line and "EVALGLASS_MAX_PARSE_BYTES" in line


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ('{"sample_id": "q0001", "label": ' + "1" * 5000 + "}", "too many digits"),
        ('{"sample_id": "q0001", "label": ' + DEEP + "}", "nested too deeply"),
    ],
    ids=["5000-digit-integer", "100000-deep"],
)
def test_a_pathological_json_line_is_one_line(work: Path, content: str, words: str) -> None:
    """A line past Python's digit limit or nested past its recursion limit names the line."""
    (work / "bad.jsonl").write_text(content + "\n")
    line = _calibrate(work, "bad.jsonl", "labels.csv")
    assert f"bad.jsonl:1: {words}" in line or words in line


@pytest.mark.parametrize("content", ['{"a": ' + "1" * 5000 + "}", DEEP], ids=["digits", "deep"])
def test_pathological_recorded_evidence_is_one_line(work: Path, content: str) -> None:
    """The same for the evidence named by --against."""
    (work / "bad.json").write_text(content)
    line = _calibrate(work, "judgments.jsonl", "labels.csv", "--against", "bad.json")
    assert "bad.json: not valid JSON" in line


def test_an_integer_too_large_for_a_float_is_a_label_not_a_crash(work: Path) -> None:
    """A 400-digit integer label is a category of its own on a nominal scale."""
    rows = [{"sample_id": f"q{i:04d}", "label": 10**400 if i % 2 else "pass"} for i in range(1, 9)]
    (work / "j.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    labels = "sample_id,label\n" + "".join(f"q{i:04d},pass\n" for i in range(1, 9))
    (work / "l.csv").write_text(labels)
    result = run("calibrate", "j.jsonl", "l.csv", "--judge", "g", "--seed", "1", cwd=work)
    assert result.returncode == 0, result.stderr


def test_too_many_distinct_labels_are_refused_with_the_numbers(work: Path) -> None:
    """20,000 distinct labels would ask the agreement tables for 10^12 cells: refused in one
    line naming the count of labels and of items, and the cap, before any table is built."""
    n = 20_000
    (work / "j.jsonl").write_text(
        "".join(json.dumps({"sample_id": str(i), "label": f"l{i}"}) + "\n" for i in range(n))
    )
    (work / "l.csv").write_text("sample_id,label\n" + "".join(f"{i},l{i}\n" for i in range(n)))
    line = _calibrate(work, "j.jsonl", "l.csv")
    assert "l.csv: 20,000 distinct labels on the nominal scale over 20,000 items" in line
    assert "EVALGLASS_MAX_AGREEMENT_CELLS" in line


def test_label_text_is_escaped_on_the_terminal(work: Path) -> None:
    """An escape sequence or a newline in a label is shown as a visible escape, never sent to
    the terminal: it cannot clear the screen or print a line of its own."""
    hostile = "pass\x1b[2J\nPASS"
    rows = [{"sample_id": f"q{i}", "label": hostile if i % 2 else "fail"} for i in range(8)]
    (work / "j.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (work / "l.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = run("calibrate", "j.jsonl", "l.jsonl", "--judge", "g\x1b]0;x", cwd=work)
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout
    assert "pass\\x1b[2J\\nPASS" in result.stdout
    assert not any(line.startswith("PASS") for line in result.stdout.splitlines())


def test_the_bootstrap_draws_do_not_depend_on_its_chunking(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drawing a few resamples at a time (as a million items do) gives the very same intervals
    as drawing many at once: memory is bounded without changing the answer."""
    ratings = match(
        read_label_file(work / "judgments.jsonl", raters_allowed=False),
        read_label_file(work / "labels.csv", raters_allowed=True),
        None,
    )
    plan = tables.plan(ratings)
    whole = bootstrap.run(plan, resamples=300, seed=7)
    monkeypatch.setattr(bootstrap, "INDICES", plan.features.shape[0] * 3)
    chunked = bootstrap.run(plan, resamples=300, seed=7)
    for statistic, got in whole.statistics.items():
        again = chunked.statistics[statistic]
        assert (got.value, got.low, got.high) == (again.value, again.low, again.high)
    assert np.array_equal(whole.point_sums, chunked.point_sums)
