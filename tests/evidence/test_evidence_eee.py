"""Every Eval Ever files, as the EEE repository holds them and as its converters write them:
one metric per evaluation result, n from the samples evaluated (never the dataset's size), the
model, dataset and graders the file names, an interval only from a real standard error."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evalglass.errors import OutputError
from evalglass.evidence.adapters import eee
from evalglass.evidence.read import read_outputs
from evalglass.evidence.registry import detect
from tests.evidence_files import FIXTURES, others, outputs, refuse

EEE = FIXTURES / "eee"
ARC_020 = EEE / "repository/ai2_arc-0.2.0/9563d156-9b7e-41b9-b50a-6430637937ed.json"
MMLU_020 = EEE / "repository/global-mmlu-lite-0.2.0/7e577a20-9de8-49d7-b598-11755237d256.json"
DEMO_030 = EEE / "repository/demo-0.3.0/f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40.json"
LM = EEE / "converted/lm-eval"
INSPECT = EEE / "converted/inspect"
SIMPLEQA = (
    INSPECT
    / "SimpleQA-Verified/anthropic/claude-opus-4-6/f153501a-236c-4307-ba57-26aea0eb2edc.json"
)
CYSE2 = (
    INSPECT
    / "cyse2_vulnerability_exploit/mistral/mistral-large-latest/13894dac-d395-4aa6-b67e-1fdd33d72e33.json"
)
ARC_030 = INSPECT / "ai2_arc/ollama/qwen2.5-0.5b/f6229c75-4597-49c4-9384-eddec929b791.json"

# Every metric of every aggregate file but the global-mmlu scrape (below): value as the file's
# score_details.score, n as the distinct sample ids of its rows (or its listed sample_ids).
EXPECTED = {
    "choice": (ARC_020, 0.3333333333333333, 3),
    "demo-source.demo_bench/demo-source.demo_bench": (DEMO_030, 0.75, 1),
    "arith_gen/strict-match/exact_match:strict-match": (LM, 0.15, 20),
    "arith_gen/flexible-extract/exact_match:flexible-extract": (LM, 0.15, 20),
    "arith_mc/acc": (LM, 0.4, 20),
    "arith_mc/acc_norm": (LM, 0.4, 20),
    "arith_suite/acc": (LM, 0.4, None),
    "arc_easy/choice:accuracy": (ARC_030, 0.3333333333333333, 3),
    "inspect_evals/cyse2_vulnerability_exploit/vul_exploit_scorer:accuracy": (CYSE2, 0.38108974358974373, 1),
    "inspect_evals/cyse2_vulnerability_exploit/vul_exploit_scorer:mean": (CYSE2, 0.38108974358974357, 1),
    "simpleqa_verified/simpleqa_scorer:accuracy": (SIMPLEQA, 0.431, 1000),
}  # fmt: skip


def aggregates() -> list[Path]:
    return [p for p in outputs(EEE) if p.suffix == ".json"]


def test_every_metric_of_every_file_reads_as_the_file_says() -> None:
    """Each evaluation result is one metric with the file's own score and n counted from the
    samples evaluated; the whole table, the scrape's 19 results aside."""
    evidence = read_outputs([EEE])
    found = {k: (m.value, m.n) for k, m in evidence.measurements.items() if m.run.source}
    scrape = {k for k, m in evidence.measurements.items() if "global-mmlu" in m.run.source}
    assert len(scrape) == 19
    assert {k: v for k, v in found.items() if k not in scrape} == {
        k: (value, n) for k, (_, value, n) in EXPECTED.items()
    }
    for metric_id, (where, _, _) in EXPECTED.items():
        assert str(where.relative_to(EEE)) in evidence.measurements[metric_id].run.source


def test_n_is_the_samples_evaluated_never_the_datasets_size() -> None:
    """`samples_number` 2376 (ARC-Easy's size) for 3 evaluated samples reads n 3, in the
    repository's 0.2.0 file and in the 0.3.0 converter's; it is kept as the dataset's size."""
    for path, metric in ((ARC_020, "choice"), (ARC_030, "arc_easy/choice:accuracy")):
        (m,) = eee.read(path, path.name)
        assert (m.id, m.n, m.run.dataset and m.run.dataset.samples) == (metric, 3, 2376)
        raw = json.loads(path.read_text())["evaluation_results"][0]["source_data"]
        assert raw["samples_number"] == 2376


def test_epochs_count_a_sample_once() -> None:
    """Inspect's 4 epochs of one sample: the converter writes `num_samples` 2340 and a row per
    result; n is the one distinct sample."""
    raw = json.loads(CYSE2.read_text())
    assert raw["evaluation_results"][0]["score_details"]["uncertainty"]["num_samples"] == 2340
    assert [m.n for m in eee.read(CYSE2, CYSE2.name)] == [1, 1]


def test_a_half_width_stored_as_bounds_is_no_interval() -> None:
    """The global-mmlu scrape stores ±0.0451 as `confidence_interval` [-0.0451, 0.0451] with
    method 'unknown' around 0.695: no interval, and no n (the file lists no samples)."""
    raw = json.loads(MMLU_020.read_text())["evaluation_results"]
    arabic = next(e for e in raw if e["evaluation_name"] == "Arabic")
    assert arabic["score_details"]["uncertainty"]["confidence_interval"]["lower"] == -0.0451
    read = {m.id: m for m in eee.read(MMLU_020, MMLU_020.name)}
    assert (read["Arabic"].value, read["Arabic"].n, read["Arabic"].interval) == (0.695, None, None)
    assert all(m.interval is None for m in read.values())


def test_a_standard_error_gives_a_normal_interval() -> None:
    """lm-eval's converted acc: 0.4 ± 1.96 x 0.11239 (its standard_error)."""
    evidence = read_outputs([LM / "arith_mc"])
    interval = evidence.measurements["arith_mc/acc"].interval
    assert interval is not None and interval.method.value == "normal"
    assert (interval.low, interval.high) == pytest.approx((0.17972, 0.62028), abs=1e-5)


def test_model_dataset_graders_and_start_come_from_the_file() -> None:
    """The model is `model_info.id`, the dataset `source_data`, the graders the
    `llm_scoring.judges`, the start the evaluation timestamp (Unix seconds)."""
    (m,) = eee.read(SIMPLEQA, SIMPLEQA.name)
    assert m.run.models == ("anthropic/claude-opus-4-6",)
    assert m.run.graders == ("google/gemini-2.0-flash-001",)
    assert m.run.dataset is not None
    assert (m.run.dataset.name, m.run.dataset.location) == (
        "SimpleQA-Verified",
        "codelion/SimpleQA-Verified",
    )
    assert m.run.started == "2026-02-06T02:15:41+00:00"


def test_every_eee_file_is_recognised_and_no_other_frameworks_file_is() -> None:
    """Detection picks the EEE format for every aggregate file, and EEE's sniffer claims no
    other framework's fixture."""
    for path in aggregates():
        found = detect(path, path.read_bytes()[:4096])
        assert found is not None and found.name == "eee", path
    for path in others("eee"):
        assert not eee.sniff(path, path.read_bytes()[:4096]), path


def test_an_unread_schema_version_is_refused(tmp_path: Path) -> None:
    """A schema version other than 0.2.x or 0.3.0 is one input error naming it."""
    doc = json.loads(DEMO_030.read_text())
    doc["schema_version"] = "0.4.0"
    path = tmp_path / "future.json"
    path.write_text(json.dumps(doc))
    error = refuse(eee, path, "future.json")
    assert error.message == (
        "schema_version: Every Eval Ever '0.4.0' is not read (0.2.x and 0.3.0 are)"
    )


def test_one_metric_twice_in_a_file_is_refused(tmp_path: Path) -> None:
    """Two results with one id: an input error naming both entries, never file order."""
    doc = json.loads(DEMO_030.read_text())
    doc["evaluation_results"].append(doc["evaluation_results"][0])
    path = tmp_path / "twice.json"
    path.write_text(json.dumps(doc))
    error = refuse(eee, path, "twice.json")
    assert error.message.startswith("evaluation_results[1]: metric 'demo-source.demo_bench/")


def test_a_rows_path_elsewhere_is_looked_for_only_beside_the_file(tmp_path: Path) -> None:
    """`detailed_evaluation_results.file_path` naming another folder is looked for beside the
    aggregate under its own name: a file never makes evalglass read a file elsewhere."""
    doc = json.loads(ARC_020.read_text())
    doc["detailed_evaluation_results"]["file_path"] = "../../secret/rows.jsonl"
    (tmp_path / "secret").mkdir()
    shutil.copy(
        ARC_020.with_name("ai2_arc_ollama_qwen2.5%3A0.5b_1761001924.jsonl"),
        tmp_path / "secret" / "rows.jsonl",
    )
    del doc["evaluation_results"][0]["source_data"]["sample_ids"]
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    (inner / "run.json").write_text(json.dumps(doc))
    (m,) = eee.read(inner / "run.json", "run.json")
    assert m.n is None


def test_a_broken_rows_line_is_an_error_naming_it(tmp_path: Path) -> None:
    """A rows file beside the aggregate that is not JSON lines: an error naming that file and
    line."""
    shutil.copy(DEMO_030, tmp_path / DEMO_030.name)
    rows = tmp_path / DEMO_030.name.replace(".json", "_samples.jsonl")
    rows.write_text('{"sample_id": "a"}\nnot json\n')
    with pytest.raises(OutputError) as caught:
        eee.read(tmp_path / DEMO_030.name, DEMO_030.name)
    assert (caught.value.path, caught.value.line) == (rows.name, 2)
