"""The promptfoo adapter against a real `-o results.json` export (promptfoo 0.121.20)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from scipy import stats as sp

from evalglass.evidence.adapters import _promptfoo_graders as graded_by
from evalglass.evidence.adapters import promptfoo
from evalglass.evidence.model import UNKNOWN_GRADER, DatasetIdentity, Measurement, Method
from evalglass.reasons import ValidityCode
from tests.evidence_files import FIXTURES, NOT_RUNS, claims, files, others, refuse

RESULTS = FIXTURES / "promptfoo/results/results.json"
COLUMNS = ("echo/terse", "echo/verbose", "mock-calculator/terse", "mock-calculator/verbose")
METRICS = ("pass_rate", "contains_expected", "closeness", "brevity")


def read(path: Path = RESULTS) -> dict[str, Measurement]:
    return {m.id: m for m in promptfoo.read(path, str(path))}


def edited(tmp_path: Path, edit: Any) -> Path:
    doc = json.loads(RESULTS.read_text())
    edit(doc)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(doc))
    return path


def test_ids_are_provider_prompt_metric_for_every_column() -> None:
    """Four prompt x provider columns, each with pass_rate and the three named metrics."""
    assert set(read()) == {f"{column}/{metric}" for column in COLUMNS for metric in METRICS}


def test_pass_rates_count_provider_errors_as_missing() -> None:
    """echo: 8 of 10 pass; mock-calculator: 7 of 9 graded pass, its ERROR row is missing."""
    m = read()
    echo, calc = m["echo/terse/pass_rate"], m["mock-calculator/terse/pass_rate"]
    assert (echo.value, echo.n, echo.missing) == (0.8, 10, 0)
    assert (calc.value, calc.n, calc.missing) == (7 / 9, 9, 1)
    assert calc.samples is not None and "8" not in {s.id for s in calc.samples}
    rates = [x for metric_id, x in m.items() if metric_id.endswith("/pass_rate")]
    passes = sum(sum(s.score for s in x.samples or ()) for x in rates)
    graded = sum(x.n or 0 for x in rates)
    # promptfoo's own summary: 30 passed, 8 failed, 2 errors.
    assert (passes, graded - passes, sum(x.missing for x in rates)) == (30, 8, 2)


def test_a_pass_passed_by_the_test_threshold_counts_as_a_pass() -> None:
    """add-08 passes on its test-level threshold although 'contains' fails."""
    samples = read()["echo/terse/pass_rate"].samples
    assert samples is not None and {s.id: s.score for s in samples}["7"] == 1.0


def test_named_metrics_are_weighted_means_not_sums() -> None:
    """namedScores are sums: the mean divides by the summed weights (brevity weighs 0.5)."""
    m = read()
    assert m["echo/terse/contains_expected"].value == 0.7
    assert m["echo/terse/closeness"].value == pytest.approx(9.52142857142857 / 10, abs=1e-15)
    # brevity: namedScores 5 over namedScoreWeights 5 (10 rows x weight 0.5), not 5 / 10.
    assert m["echo/terse/brevity"].value == 1.0
    assert m["echo/verbose/brevity"].value == pytest.approx(4.230530125008419 / 5, abs=1e-15)
    assert all(x.findings == () for x in m.values())


def test_named_metrics_leave_error_rows_out() -> None:
    """mock-calculator's named metrics have 9 rows (its ERROR row is missing), not 10."""
    m = read()["mock-calculator/verbose/closeness"]
    assert (m.value, m.n, m.missing) == (7 / 9, 9, 1)
    assert m.samples is not None and len(m.samples) == 9


def test_intervals_come_from_the_rows() -> None:
    """0/1 metrics get a proportion's interval over the rows (8 of 10: the exact one);
    closeness (fractions in [0, 1]) gets the range-aware effective-n interval."""
    m = read()
    pass_rate = m["echo/terse/pass_rate"]
    low, high = sp.binomtest(8, 10).proportion_ci(method="exact")
    assert pass_rate.interval is not None and pass_rate.interval.method is Method.CLOPPER_PEARSON
    assert (pass_rate.interval.low, pass_rate.interval.high) == pytest.approx(
        (low, high), abs=1e-12
    )
    closeness = m["echo/terse/closeness"]
    assert closeness.interval is not None and closeness.interval.method is Method.EFFECTIVE_N


def test_identity_of_model_and_dataset() -> None:
    """The provider id is the model; ten inline tests are the dataset; no grader was used."""
    m = read()
    echo, calc = m["echo/terse/pass_rate"].run, m["mock-calculator/verbose/brevity"].run
    assert (echo.model, calc.model) == ("echo", "file://calc_provider.js")
    assert echo.source == str(RESULTS)
    assert (echo.graders, echo.status) == ((), None)
    assert echo.started == "2026-11-29T22:48:19.436000+00:00"
    assert echo.dataset == DatasetIdentity(
        samples=10,
        # Of each testCase's description and vars, by docs/formats.md's rule.
        fingerprint="sha256:3dfa6f6648a59889578dacafb47f925abd5aa011d8b6a32028c9170fd9fcdcad",
    )


def test_a_model_graded_assertion_names_its_grader_as_judge(tmp_path: Path) -> None:
    """An llm-rubric assertion's provider is the judge of its metric and of the pass rate."""

    def edit(doc: dict[str, Any]) -> None:
        for row in doc["results"]["results"]:
            for comp in (row["gradingResult"] or {}).get("componentResults", []):
                if comp["assertion"]["metric"] == "closeness":
                    comp["assertion"]["type"] = "llm-rubric"
                    comp["assertion"]["provider"] = "openai:gpt-4.1-mini"

    m = read(edited(tmp_path, edit))
    assert m["echo/terse/closeness"].run.graders == ("openai:gpt-4.1-mini",)
    assert m["echo/terse/pass_rate"].run.graders == ("openai:gpt-4.1-mini",)
    assert m["echo/terse/brevity"].run.graders == ()


def test_every_row_grader_is_named_not_the_first(tmp_path: Path) -> None:
    """Rows graded by different providers (their own, their test's, the default test's): the
    metric names every one of them."""

    def edit(doc: dict[str, Any]) -> None:
        doc["config"].setdefault("defaultTest", {})["options"] = {"provider": "openai:gpt-4.1"}
        for i, row in enumerate(doc["results"]["results"]):
            for comp in (row["gradingResult"] or {}).get("componentResults", []):
                if comp["assertion"]["metric"] == "closeness":
                    comp["assertion"]["type"] = "llm-rubric"
                    if i % 3 == 1:
                        comp["assertion"]["provider"] = "echo"
                    elif i % 3 == 2:
                        row["testCase"].setdefault("options", {})["provider"] = {
                            "id": "anthropic:claude"
                        }

    m = read(edited(tmp_path, edit))
    assert m["echo/terse/closeness"].run.graders == ("anthropic:claude", "echo", "openai:gpt-4.1")


def test_a_column_whose_rows_name_several_providers_names_them_all(tmp_path: Path) -> None:
    """The model under evaluation is taken from every row of a column: a second provider in a
    later row is a second model, not hidden behind the first row's."""

    def edit(doc: dict[str, Any]) -> None:
        rows = [r for r in doc["results"]["results"] if r["promptIdx"] == 0]
        rows[-1]["provider"] = {"id": "openai:gpt-4.1", "label": "echo"}

    m = read(edited(tmp_path, edit))
    assert m["echo/terse/pass_rate"].run.models == ("echo", "openai:gpt-4.1")
    assert m["echo/terse/pass_rate"].run.model == "echo, openai:gpt-4.1"
    assert m["echo/verbose/pass_rate"].run.models == ("echo",)


GRADERS = FIXTURES / "promptfoo/graders/results/results.json"


def test_a_real_column_graded_per_row_names_every_grader() -> None:
    """promptfoo picks the grader per row: the default test's, a test's own, an assertion's,
    and on one row the provider under test itself (written as {providerId, label}): all named."""
    m = read(GRADERS)
    every = ("file://grader_x.js", "file://grader_y.js", "file://model_a.js")
    assert m["model-a/sum/rubric"].run.graders == every
    assert m["model-a/sum/rubric"].run.models == ("file://model_a.js",)
    assert m["model-b/sum/rubric"].run.graders == every
    assert m["model-a/sum/correct"].run.graders == ()


def test_counts_the_rows_contradict_are_findings(tmp_path: Path) -> None:
    """A column pass count its rows do not give is flagged with both numbers."""

    def edit(doc: dict[str, Any]) -> None:
        doc["results"]["prompts"][0]["metrics"]["testPassCount"] = 9

    m = read(edited(tmp_path, edit))["echo/terse/pass_rate"]
    assert {r.code for r in m.findings} == {ValidityCode.VALUE_MISMATCH}
    assert any("9" in r.message and "8" in r.message for r in m.findings)


def test_authority_looking_fields_change_nothing(tmp_path: Path) -> None:
    """Fields claiming approval or gating status inside the export are ignored."""

    def edit(doc: dict[str, Any]) -> None:
        doc["authority"] = {"outcome": "can_gate"}
        doc["config"]["metadata"] = {"evalglass": {"status": "gating"}}

    edited_m, original = read(edited(tmp_path, edit)), read()
    for metric_id, m in original.items():
        assert attrs.evolve(edited_m[metric_id], run=m.run) == m


def test_exports_before_version_3_are_refused(tmp_path: Path) -> None:
    """An older export layout is an OutputError, never a guess."""

    def edit(doc: dict[str, Any]) -> None:
        doc["results"]["version"] = 2

    assert "version 2" in str(refuse(promptfoo, edited(tmp_path, edit), "old/results.json"))


@pytest.mark.parametrize("path", files("promptfoo"), ids=lambda p: p.name)
def test_sniff_claims_every_export_that_holds_the_run(path: Path) -> None:
    """sniff() claims the JSON, YAML, XML and JSONL exports; the JUnit report is named as too
    thin to read; the CSV is neither (it is not read)."""
    sniffed, note = claims("promptfoo", path)
    if path.name in NOT_RUNS:
        assert note is not None and note.startswith("promptfoo's JUnit report")
    else:
        assert (sniffed, note) == (path.suffix != ".csv", None)


@pytest.mark.parametrize("path", others("promptfoo"), ids=lambda p: p.name)
def test_sniff_leaves_other_frameworks_files_alone(path: Path) -> None:
    """sniff() is false on every other framework's file, and none is taken for promptfoo's."""
    assert claims("promptfoo", path) == (False, None)


DEFAULT_GRADER = FIXTURES / "promptfoo-default-grader/results"


def test_a_rubric_graded_by_promptfoos_default_grader_names_an_unknown_grader() -> None:
    """llm-rubric with no grader named anywhere (promptfoo's default grader): the rubric and
    the pass rate it feeds are judged by an unknown grader; the contains metric by none."""
    m = read(DEFAULT_GRADER / "default/results.json")
    assert m["mock-calculator/sum/rubric"].run.graders == (UNKNOWN_GRADER,)
    assert m["mock-calculator/sum/pass_rate"].run.graders == (UNKNOWN_GRADER,)
    assert m["mock-calculator/sum/correct"].run.graders == ()
    rubric = m["mock-calculator/sum/rubric"]
    assert (rubric.value, rubric.n) == (4 / 6, 6)


def test_a_grader_given_with_the_grader_flag_is_named() -> None:
    """`--grader openai:chat:gpt-4.1-mini` is recorded as the provider object it became
    ({modelName, ...}, no id): its model is the grader."""
    m = read(DEFAULT_GRADER / "cli-grader/results.json")
    assert m["mock-calculator/sum/rubric"].run.graders == ("gpt-4.1-mini",)
    assert m["mock-calculator/sum/correct"].run.graders == ()


def test_every_model_graded_assertion_type_has_a_grader(tmp_path: Path) -> None:
    """Each assertion type promptfoo has a model grade (the declared list, its negations and
    the red-team graders) makes the metric judged; other types do not."""
    kinds = [
        *sorted(graded_by.MODEL_GRADED),
        "not-similar",
        "promptfoo:redteam:harmful:hate",
    ]
    for kind in [*kinds, "contains", "javascript", "max-score", "not-contains"]:

        def edit(doc: dict[str, Any], kind: str = kind) -> None:
            for row in doc["results"]["results"]:
                for comp in (row["gradingResult"] or {}).get("componentResults", []):
                    if comp["assertion"]["metric"] == "closeness":
                        comp["assertion"]["type"] = kind

        m = read(edited(tmp_path, edit))
        expected = (UNKNOWN_GRADER,) if kind in kinds else ()
        assert m["echo/terse/closeness"].run.graders == expected, kind
