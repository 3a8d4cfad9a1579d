"""DeepEval runs repeated (`deepeval test run -r 3`, named and unnamed cases) and its default
`.deepeval/` results, written by deepeval 4.3.1. Expected numbers come from DeepEval's own
metricsScores and testCases in the file, never from evalglass."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evalglass.errors import OutputError
from evalglass.evidence.adapters import deepeval
from evalglass.evidence.model import Measurement
from evalglass.evidence.read import read_outputs
from tests.evidence_files import FIXTURES

REPEAT = FIXTURES / "deepeval/repeat/results"
DEFAULT = FIXTURES / "deepeval/default-results/results/.deepeval"


def run_file(name: str) -> Path:
    return next((REPEAT / name).glob("test_run_*.json"))


def read(path: Path) -> dict[str, Measurement]:
    return {m.id: m for m in deepeval.read(path, str(path))}


def run_doc(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text())
    return doc.get("testRunData", doc)


def check_against_deepeval(m: dict[str, Measurement], doc: dict[str, Any], cases: int) -> None:
    """Each metric's value is the mean of DeepEval's own score list, n the distinct cases."""
    for entry in doc["metricsScores"]:
        got = m[entry["metric"]]
        scores = entry["scores"]
        assert got.value == pytest.approx(sum(scores) / len(scores), abs=1e-12)
        assert (got.n, got.missing, got.findings) == (cases, entry["errors"], ())


@pytest.mark.parametrize("name", ["repeat3", "repeat3-unnamed"])
def test_repeated_cases_count_once(name: str) -> None:
    """-r 3 writes each of the 11 cases three times: n is 11 (the named run's distinct names),
    not DeepEval's 33 scores, and each case's repeats are its epochs, reduced by their mean."""
    doc = run_doc(run_file(name))
    named = run_doc(run_file("repeat3"))
    cases = len({case["name"] for case in named["testCases"]})
    assert len(doc["testCases"]) == 3 * cases
    m = read(run_file(name))
    check_against_deepeval(m, doc, cases)
    assert {x.run.dataset.samples for x in m.values() if x.run.dataset} == {cases}
    for got in m.values():
        assert got.reduction is not None
        assert (got.reduction.reducer, got.reduction.least, got.reduction.most) == ("mean", 3, 3)
        assert got.samples is not None and len(got.samples) == len(doc["testCases"])


def test_unnamed_repeats_keep_the_case_names_of_a_plain_run() -> None:
    """Unnamed cases are named by pytest (`test_arith[case-01-2-3]` for repeat 2 of 3): the
    repeat suffix is dropped, so samples pair with an unrepeated run's."""
    m = read(run_file("repeat3-unnamed"))["Exact Match"]
    assert m.samples is not None
    ids = {s.id for s in m.samples}
    assert len(ids) == m.n and "test_arith[case-01]" in ids


def test_a_plain_run_has_no_reduction() -> None:
    """Without repeats every case is scored once: n is DeepEval's own count of scores."""
    path = run_file("plain")
    doc = run_doc(path)
    m = read(path)
    check_against_deepeval(m, doc, len(doc["testCases"]))
    assert {x.reduction for x in m.values()} == {None}


def test_the_default_latest_test_run_file_is_read() -> None:
    """`.deepeval/.latest_test_run.json` keeps the run under testRunData: it reads as the run."""
    path = DEFAULT / ".latest_test_run.json"
    doc = run_doc(path)
    assert "testRunData" in json.loads(path.read_text())
    check_against_deepeval(read(path), doc, len(doc["testCases"]))


def test_the_deepeval_folder_is_one_run() -> None:
    """.latest_run_full.json and .latest_test_run.json hold the same run: it is read once, the
    other copy and the metric cache are skipped with a note."""
    evidence = read_outputs([DEFAULT])
    assert [Path(s).name for s in evidence.sources] == [".latest_run_full.json"]
    notes = {Path(s.source).name: s.reason for s in evidence.skipped}
    assert notes[".latest_test_run.json"].startswith("the same run as")
    assert notes[".deepeval-cache.json"].startswith("DeepEval's metric cache")
    doc = run_doc(DEFAULT / ".latest_test_run.json")
    check_against_deepeval(dict(evidence.measurements), doc, len(doc["testCases"]))


def test_a_link_to_confident_ai_is_not_a_run(tmp_path: Path) -> None:
    """Logged in, DeepEval overwrites .latest_test_run.json with only a link: nothing to read."""
    path = tmp_path / ".latest_test_run.json"
    path.write_text(json.dumps({"testRunLink": "https://app.confident-ai.com/x"}))
    with pytest.raises(OutputError, match="holds no run to read: DeepEval's link"):
        read_outputs([path])


def test_a_run_with_no_metric_is_an_input_error(tmp_path: Path) -> None:
    """A test run whose cases ran no metric is refused, never an empty list of metrics."""
    doc = run_doc(run_file("plain"))
    doc["metricsScores"] = []
    for case in doc["testCases"]:
        case["metricsData"] = []
    path = tmp_path / "test_run_20261130_203409.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(OutputError, match="holds no metric"):
        read_outputs([path])
