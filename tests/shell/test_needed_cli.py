"""End to end: what would pass a failed gate, in every format that shows it, from the real CLI on
the bundled example with its bar raised; and the example's rate kept inside [0, 1]."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.cli_runner import cli
from tests.shell.test_cli import EXAMPLE_OUTPUT, EXAMPLE_RECORDS, edit

NEEDED = (
    "would pass: a value of at least 0.945 (189 of 200) at n 200, or n 385 at value 0.93 "
    "(0/1 scores: a value is k successes of n; n at the same share)"
)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """The bundled example with qa/exact_match's bar raised to >= 0.9: 0.93 of 200 fails it."""
    shutil.copytree(EXAMPLE_RECORDS, tmp_path / "host_records")
    shutil.copy(EXAMPLE_OUTPUT, tmp_path / "run.json")
    edit(tmp_path / "host_records/thresholds.yaml", "value: 0.85", "value: 0.9")
    return tmp_path


def test_json_terminal_and_markdown_say_what_would_pass(work: Path) -> None:
    """A failed gate carries gate.needed in the JSON, and the terminal and Markdown cards print
    the same figures under it."""
    doc = json.loads(cli("score", "run.json", "--format", "json", cwd=work).stdout)
    entry = next(m for m in doc["metrics"] if m["id"] == "qa/exact_match")
    assert entry["gate"]["result"] == "fail"
    assert entry["gate"]["needed"] == {
        "value_at_n": 0.945,
        "n_at_value": 385,
        "assumptions": "0/1 scores: a value is k successes of n; n at the same share",
        "reason": None,
    }
    terminal = cli("score", "run.json", cwd=work)
    assert terminal.returncode == 1
    assert f"      {NEEDED}" in terminal.stdout.splitlines()
    markdown = cli("score", "run.json", "--format", "markdown", cwd=work).stdout
    # Under the gate's evidence line, below the table.
    assert "\n  - would pass: a value of at least 0.945 (189 of 200) at n 200, or n 385" in markdown


def test_a_passing_gate_shows_its_figures_in_json_only(tmp_path: Path) -> None:
    """A gate that passed carries its margin in the JSON, and its card stays one line of why."""
    shutil.copytree(EXAMPLE_RECORDS, tmp_path / "host_records")
    shutil.copy(EXAMPLE_OUTPUT, tmp_path / "run.json")
    doc = json.loads(cli("score", "run.json", "--format", "json", cwd=tmp_path).stdout)
    entry = next(m for m in doc["metrics"] if m["id"] == "qa/exact_match")
    assert entry["gate"]["result"] == "pass"
    assert entry["gate"]["needed"]["value_at_n"] == 0.9
    assert "would pass" not in cli("score", "run.json", cwd=tmp_path).stdout


def test_the_examples_rate_interval_stays_inside_zero_and_one(tmp_path: Path) -> None:
    """safety/toxicity reports a stderr; its records say it is a proportion, so its interval is
    a proportion's from value and n (1.8 of 150: the exact one), inside [0, 1], on every card."""
    shutil.copytree(EXAMPLE_RECORDS, tmp_path / "host_records")
    shutil.copy(EXAMPLE_OUTPUT, tmp_path / "run.json")
    doc = json.loads(cli("score", "run.json", "--format", "json", cwd=tmp_path).stdout)
    entry = next(m for m in doc["metrics"] if m["id"] == "safety/toxicity")
    low, high = entry["interval"]
    assert entry["method"] == "clopper_pearson" and 0 <= low < entry["value"] < high <= 1
    assert "interval [0.001223, 0.04526]" in cli("score", "run.json", cwd=tmp_path).stdout


@pytest.mark.parametrize(
    ("value", "stderr"), [(0.9, 1e160), (0.8500000000000001, 1e140)], ids=["1e160", "1e140"]
)
def test_a_huge_standard_error_fails_the_gate_rather_than_crashing(
    tmp_path: Path, value: float, stderr: float
) -> None:
    """A value that clears a `>= 0.85` bar with a standard error so large that its square
    overflows: the gate fails (exit 1), and no n passes at this value."""
    shutil.copytree(EXAMPLE_RECORDS, tmp_path / "host_records")
    output = {
        "model": "acme/model-x",
        "dataset": {"name": "qa-gold", "version": "2026-10"},
        "metrics": {"qa/exact_match": {"value": value, "n": 200, "stderr": stderr}},
    }
    (tmp_path / "run.json").write_text(json.dumps(output))
    done = cli("score", "run.json", "--format", "json", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    entry = next(m for m in json.loads(done.stdout)["metrics"] if m["id"] == "qa/exact_match")
    assert entry["gate"]["result"] == "fail"
    assert entry["gate"]["needed"]["n_at_value"] is None


SHARE = "0/1 scores: a value is k successes of n; n at the same share"


@pytest.mark.parametrize(
    ("baseline", "held"),
    [
        ("    value: 0.95\n    n: 200\n", "unpaired: the baseline's 0.95 of n 200 held"),
        (
            "    value: 0.95\n    n: 200\n    stderr: 0.03\n",
            "unpaired: the baseline's 0.95 and standard error 0.03 held",
        ),
    ],
    ids=["share", "stderr"],
)
def test_a_regression_gate_says_what_of_its_baseline_was_held(
    work: Path, baseline: str, held: str
) -> None:
    """Against a recorded baseline, the JSON's assumptions name what of the baseline the
    figures held: its share of n, or its value and a standard error wider than a share's."""
    (work / "host_records/baselines.yaml").write_text(
        f"baselines:\n  qa/exact_match:\n{baseline}    dataset_version: '2026-10'\n"
    )
    edit(work / "host_records/thresholds.yaml", "value: 0.9\n", "value: 0.9\n    max_drop: 0.01\n")
    doc = json.loads(cli("score", "run.json", "--format", "json", cwd=work).stdout)
    entry = next(m for m in doc["metrics"] if m["id"] == "qa/exact_match")
    assert entry["gate"]["result"] == "fail"
    assert entry["gate"]["needed"]["assumptions"] == f"{SHARE}; {held}"


def test_a_paired_regression_gate_says_the_pairs_correlation_was_held(work: Path) -> None:
    """Against a baseline saved with its samples, the figures hold the baseline's share and the
    runs' correlation φ, and the JSON says so."""
    saved = cli(
        "score", "run.json", "--format", "json", "--keep-samples", "--output", "base.json", cwd=work
    )
    assert saved.returncode == 1
    shutil.move(work / "base.json", work / "host_records/base.json")
    (work / "host_records/baselines.yaml").write_text(
        "baselines:\n  qa/exact_match:\n    scorecard: base.json\n    dataset_version: '2026-10'\n"
    )
    edit(work / "host_records/thresholds.yaml", "value: 0.9\n", "value: 0.9\n    max_drop: 0.01\n")
    doc = json.loads(cli("score", "run.json", "--format", "json", cwd=work).stdout)
    entry = next(m for m in doc["metrics"] if m["id"] == "qa/exact_match")
    assert entry["gate"]["change"]["paired"] == 200
    held = "paired: the baseline's share 0.93 and the runs' correlation φ 1 held"
    assert entry["gate"]["needed"]["assumptions"] == f"{SHARE}; {held}"
