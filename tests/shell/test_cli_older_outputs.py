"""Outputs people already have, end to end through the CLI: older lm-eval results, Inspect runs
whose epochs were not reduced, a committed .deepeval/ folder left by a stopped run."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_runner import cli
from tests.evidence_files import FIXTURES

RECORDS = """\
metrics:
  '{metric}':
    status: gating
    dataset: data
    min_samples: {min_samples}
"""
THRESHOLDS = """\
thresholds:
  '{metric}':
    op: '>='
    value: {value}
    approval: approved
    approved_by: '@alice'
    approved_on: 2026-11-01
    approved_for:
      dataset_version: '1'
"""


def gate(tmp_path: Path, output: Path, metric: str, value: float, dataset: str) -> dict:
    """`evalglass score OUTPUT` against a gate on `metric` over the dataset the output names;
    the metric's card, with the run's exit code."""
    folder = tmp_path / "host_records"
    folder.mkdir()
    (folder / "metrics.yaml").write_text(RECORDS.format(metric=metric, min_samples=10))
    (folder / "thresholds.yaml").write_text(THRESHOLDS.format(metric=metric, value=value))
    (folder / "datasets.yaml").write_text(
        f"datasets:\n  data:\n    status: validated\n    version: '1'\n    names:\n"
        f"      - '{dataset}'\n"
    )
    (folder / "policies.yaml").write_text("policies:\n  data:\n    policy: permitted\n")
    result = cli("score", str(output), "--records", str(folder), "--format", "json", cwd=tmp_path)
    card = next(m for m in json.loads(result.stdout)["metrics"] if m["id"] == metric)
    return {**card, "exit": result.returncode, "stderr": result.stderr}


def test_an_unreduced_epochs_run_gates_on_its_distinct_samples(tmp_path: Path) -> None:
    """--epochs 2 --no-epochs-reducer: n 16 (not 32), and the gate is decided (here: pass)."""
    log = next((FIXTURES / "inspect/older-shapes/logs/no-reducer").glob("*.eval"))
    got = gate(tmp_path, log, "lookup/includes/accuracy", 0.01, "lookup16")
    assert (got["value"], got["n"], got["gate"]["result"], got["exit"]) == (0.375, 16, "pass", 0)


def test_lm_eval_0_4_results_without_sample_len_gate(tmp_path: Path) -> None:
    """A public lm-eval 0.4.7 results file: n is its 5153 documents, and the gate passes."""
    results = FIXTURES / "lm-eval/public-0.4/rwkv7-goose"
    got = gate(tmp_path, results, "lambada_openai/acc", 0.4, "EleutherAI/lambada_openai/default")
    assert (got["n"], got["gate"]["result"], got["exit"]) == (5153, "pass", 0)


def test_lm_eval_v03_results_cannot_gate_without_a_count(tmp_path: Path) -> None:
    """v0.3 results: lm-eval's value is read, but with no count of documents the gate is
    unsound (too_few_samples), never a pass."""
    results = FIXTURES / "lm-eval/public-0.3/bloom-1b1_gsm8k_8-shot.json"
    got = gate(tmp_path, results, "gsm8k/acc", 0.001, "gsm8k")
    assert (got["value"], got["n"]) == (0.008339651250947688, None)
    assert got["gate"]["result"] == "unsound"
    assert [r["code"] for r in got["gate"]["reasons"]] == ["too_few_samples"]
    assert got["exit"] == 3


def test_a_committed_deepeval_folder_with_a_stopped_run_scores(tmp_path: Path) -> None:
    """.deepeval/ after a complete run and a stopped one: the complete run gates, and the
    stopped run's .temp_test_run_data.json is one 'skipped' line, not an input error."""
    folder = FIXTURES / "deepeval/interrupted/results/.deepeval"
    got = gate(tmp_path, folder, "Exact Match", 0.5, "arith11.jsonl")
    assert (got["n"], got["exit"]) == (11, 0)
    skipped = [line for line in got["stderr"].splitlines() if ".temp_test_run_data.json" in line]
    assert len(skipped) == 1 and "DeepEval computed no result" in skipped[0]
