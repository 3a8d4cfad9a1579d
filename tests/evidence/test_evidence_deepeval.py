"""The DeepEval adapter against a real test-run file (deepeval 4.3.1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from scipy import stats as sp

from evalglass.evidence.adapters import deepeval
from evalglass.evidence.model import DatasetIdentity, Measurement, Method
from evalglass.reasons import ValidityCode
from tests.evidence_files import FIXTURES, NOT_RUNS, claims, files, others

RUN = FIXTURES / "deepeval/results/main/test_run_20261129_224500.json"

# The fingerprint of the fixture's 20 test cases (what each asked), by docs/formats.md's rule.
CASES = "sha256:202b7a73caac843d3d05a9ded20d31d28212d9d45e0d4363ae1bf7bf2dd4eb22"


def read(path: Path = RUN) -> dict[str, Measurement]:
    return {m.id: m for m in deepeval.read(path, str(path))}


def edited(tmp_path: Path, edit: Any, name: str = RUN.name) -> Path:
    doc = json.loads(RUN.read_text())
    edit(doc)
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def with_metric_errors(doc: dict[str, Any]) -> None:
    """The fixture's errors run: the custom metric raises on the 5 subtraction cases.

    DeepEval then writes "error" and no "score" on those cases and drops them from the score
    list, as its README documents for `deepeval test run -i`.
    """
    kept = []
    for case in doc["testCases"]:
        data = case["metricsData"][1]
        if " - " in case["input"]:
            del data["score"]
            data.update(error=f"simulated metric failure on {case['name']}", success=False)
            case["success"] = False
        else:
            kept.append(data["score"])
    closeness = doc["metricsScores"][1]
    closeness.update(scores=kept, errors=5, passes=sum(s >= 0.99 for s in kept))
    closeness["fails"] = len(kept) - closeness["passes"]


def test_values_are_the_means_of_deepevals_score_lists() -> None:
    """Exact Match 9/20 = 0.45 and Numeric Closeness 0.996375 over 20 test cases."""
    m = read()
    assert set(m) == {"Exact Match", "Numeric Closeness"}
    assert m["Exact Match"].value == 0.45
    assert m["Numeric Closeness"].value == pytest.approx(0.996375, abs=1e-15)
    assert {(x.n, x.missing, x.findings) for x in m.values()} == {(20, 0, ())}


def test_per_case_scores_are_the_samples() -> None:
    """Each test case's score is a sample, named by the test case."""
    m = read()["Exact Match"]
    assert m.samples is not None and len(m.samples) == 20
    assert (m.samples[0].id, m.samples[0].score) == ("arith-01", 1.0)
    low, high = sp.binomtest(9, 20).proportion_ci(method="wilson")
    assert m.interval is not None and m.interval.method is Method.WILSON
    assert (m.interval.low, m.interval.high) == pytest.approx((low, high), abs=1e-12)
    closeness = read()["Numeric Closeness"].interval
    assert closeness is not None and closeness.method is Method.EFFECTIVE_N


def test_identity_of_model_and_dataset() -> None:
    """The logged hyperparameters name the model and dataset; the file name the time."""
    run = read()["Exact Match"].run
    assert run.source == str(RUN)
    assert (run.model, run.graders, run.status) == ("fake-arith-model-v1", (), None)
    assert run.dataset == DatasetIdentity(name="arith.jsonl", samples=20, fingerprint=CASES)
    assert run.started == "2026-11-29T22:45:00"


def test_errored_measurements_are_missing_never_passes(tmp_path: Path) -> None:
    """5 metric errors: n 15, missing 5, the mean over the 15 scores, no errored sample."""
    m = read(edited(tmp_path, with_metric_errors))["Numeric Closeness"]
    assert (m.n, m.missing, m.findings) == (15, 5, ())
    assert m.samples is not None and len(m.samples) == 15
    assert "arith-02" not in {s.id for s in m.samples}
    scores = [s.score for s in m.samples]
    assert m.value == pytest.approx(sum(scores) / 15, abs=1e-15)
    assert read(edited(tmp_path, with_metric_errors))["Exact Match"].missing == 0


def test_the_evaluation_model_is_the_judge(tmp_path: Path) -> None:
    """An LLM metric's evaluationModel is the judge of that metric only."""

    def edit(doc: dict[str, Any]) -> None:
        for case in doc["testCases"]:
            case["metricsData"][1]["evaluationModel"] = "gpt-4.1"

    m = read(edited(tmp_path, edit))
    assert m["Numeric Closeness"].run.graders == ("gpt-4.1",)
    assert m["Exact Match"].run.graders == ()


def test_every_evaluation_model_of_a_metric_is_named(tmp_path: Path) -> None:
    """Test cases graded by different models: the metric names each, not one of them."""

    def edit(doc: dict[str, Any]) -> None:
        for i, case in enumerate(doc["testCases"]):
            case["metricsData"][1]["evaluationModel"] = (
                "gpt-4.1" if i % 2 else "fake-arith-model-v1"
            )

    m = read(edited(tmp_path, edit))
    assert m["Numeric Closeness"].run.graders == ("fake-arith-model-v1", "gpt-4.1")


def test_a_confident_ai_dataset_names_itself(tmp_path: Path) -> None:
    """datasetAlias and datasetVersion, when DeepEval writes them, identify the dataset."""

    def edit(doc: dict[str, Any]) -> None:
        doc.update(datasetAlias="arith-qa", datasetVersion="3")

    run = read(edited(tmp_path, edit))["Exact Match"].run
    assert run.dataset == DatasetIdentity(
        name="arith-qa", version="3", samples=20, fingerprint=CASES
    )


def test_a_score_list_its_cases_contradict_is_a_finding(tmp_path: Path) -> None:
    """A metricsScores list that the test cases do not give is flagged with both numbers."""

    def edit(doc: dict[str, Any]) -> None:
        doc["metricsScores"][0]["scores"][3] = 1.0

    m = read(edited(tmp_path, edit))["Exact Match"]
    assert m.value == 0.5
    assert [r.code for r in m.findings] == [ValidityCode.VALUE_MISMATCH]
    assert "0.5" in m.findings[0].message and "0.45" in m.findings[0].message


def test_a_renamed_file_has_no_start_time(tmp_path: Path) -> None:
    """Without DeepEval's file name there is no time to order runs by; none is invented."""
    path = edited(tmp_path, lambda doc: None, name="run.json")
    assert read(path)["Exact Match"].run.started is None


def test_authority_looking_fields_change_nothing(tmp_path: Path) -> None:
    """official, and fields claiming approval, are ignored."""

    def edit(doc: dict[str, Any]) -> None:
        doc.update(official=True, authority={"outcome": "can_gate"})
        doc["hyperparameters"]["gating"] = "approved"

    edited_m, original = read(edited(tmp_path, edit)), read()
    for metric_id, m in original.items():
        got = edited_m[metric_id]
        assert attrs.evolve(got, run=attrs.evolve(got.run, source=m.run.source)) == m


@pytest.mark.parametrize("path", files("deepeval"), ids=lambda p: p.name)
def test_sniff_claims_test_run_files(path: Path) -> None:
    """sniff() claims every test run DeepEval wrote (.deepeval/ copies too); its metric cache
    and the working copy of a run under way are named as not a run."""
    sniffed, note = claims("deepeval", path)
    if path.name in NOT_RUNS:
        assert note is not None and note.startswith(
            ("DeepEval's metric cache", "DeepEval's SQLite store", "DeepEval's working copy")
        )
    else:
        assert (sniffed, note) == (True, None)


@pytest.mark.parametrize("path", others("deepeval"), ids=lambda p: p.name)
def test_sniff_leaves_other_frameworks_files_alone(path: Path) -> None:
    """sniff() is false on every other framework's file, and none is taken for DeepEval's."""
    assert claims("deepeval", path) == (False, None)
