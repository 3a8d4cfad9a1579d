"""DeepEval's .temp_test_run_data.json: the cases of a run under way (or one that never wrapped
up), for which DeepEval computed no result. It holds no run: skipped with a note, never read."""

from __future__ import annotations

import json

import pytest

from evalglass.errors import OutputError
from evalglass.evidence.read import read_outputs
from tests.evidence_files import FIXTURES

FOLDER = FIXTURES / "deepeval/interrupted/results/.deepeval"
TEMP = FOLDER / ".temp_test_run_data.json"


def test_a_committed_deepeval_folder_reads_the_finished_run() -> None:
    """Beside .latest_test_run.json the unfinished run is skipped with a note, not a collision:
    the metrics are the complete run's (Exact Match 10 of 11, n 11)."""
    evidence = read_outputs([FOLDER])
    latest = json.loads((FOLDER / ".latest_test_run.json").read_text())["testRunData"]
    scores = next(m["scores"] for m in latest["metricsScores"] if m["metric"] == "Exact Match")
    got = evidence.measurements["Exact Match"]
    assert (got.value, got.n) == (sum(scores) / len(scores), len(latest["testCases"]))
    notes = {s.source.rsplit("/", 1)[-1]: s.reason for s in evidence.skipped}
    assert "DeepEval computed no result" in notes[".temp_test_run_data.json"]
    assert TEMP.name not in {s.rsplit("/", 1)[-1] for s in evidence.sources}


def test_alone_it_holds_no_run_to_read() -> None:
    """Given by itself, the unfinished run is an input error saying what the file is."""
    assert json.loads(TEMP.read_text())["metricsScores"] == []
    with pytest.raises(OutputError) as caught:
        read_outputs([TEMP])
    assert "holds no run to read: DeepEval's working copy of a test run" in str(caught.value)
