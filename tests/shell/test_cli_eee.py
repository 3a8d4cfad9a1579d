"""Every Eval Ever files gate end to end: the installed `evalglass` command in a subprocess, on
the EEE fixtures, with host records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EEE = ROOT / "tests" / "fixtures" / "eee"
EVALGLASS = Path(sys.executable).parent / "evalglass"


def records(folder: Path, metric: str, dataset: str, min_samples: int, bar: float) -> Path:
    """Host records authorizing `metric` to gate at `>= bar` on a validated `dataset`."""
    folder.mkdir()
    (folder / "metrics.yaml").write_text(
        f"metrics:\n  {metric}:\n    status: gating\n    dataset: {dataset}\n"
        f"    min_samples: {min_samples}\n"
    )
    (folder / "thresholds.yaml").write_text(
        f"thresholds:\n  {metric}:\n    op: '>='\n    value: {bar}\n    approval: approved\n"
        "    approved_by: '@alice'\n    approved_on: 2026-11-01\n"
        "    approved_for:\n      dataset_version: '1'\n"
    )
    (folder / "datasets.yaml").write_text(
        f"datasets:\n  {dataset}:\n    status: validated\n    version: '1'\n"
    )
    (folder / "policies.yaml").write_text(f"policies:\n  {dataset}:\n    policy: permitted\n")
    return folder


def score(output: Path, folder: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(EVALGLASS), "score", str(output), "--records", str(folder), "--format", "json"],
        cwd=cwd, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1"},
        timeout=120, check=False,
    )  # fmt: skip


def test_a_converted_lm_eval_metric_gates_and_passes(tmp_path: Path) -> None:
    """lm-eval's acc as EEE's converter wrote it: n 20 from its rows, a normal interval from
    its standard error, and the gate passes on the lower bound."""
    folder = records(tmp_path / "host_records", "arith_mc/acc", "arith_mc", 10, 0.1)
    result = score(EEE / "converted" / "lm-eval" / "arith_mc", folder, tmp_path)
    assert result.returncode == 0, result.stderr
    card = json.loads(result.stdout)
    (metric,) = [m for m in card["metrics"] if m["id"] == "arith_mc/acc"]
    assert (card["verdict"], card["model"]) == ("pass", "offline/dummy-lm")
    assert (metric["value"], metric["n"], metric["method"]) == (0.4, 20, "normal")
    assert metric["gate"]["result"] == "pass"


def test_the_datasets_size_never_clears_min_samples(tmp_path: Path) -> None:
    """The ARC-Easy conversion lists 2376 as the dataset's size for 3 samples evaluated: with
    min_samples 100 the gate is unsound (too_few_samples) and the run is blocked, exit 3."""
    folder = records(tmp_path / "host_records", "arc_easy/choice:accuracy", "ai2_arc", 100, 0.1)
    result = score(EEE / "converted" / "inspect" / "ai2_arc", folder, tmp_path)
    assert result.returncode == 3, result.stderr
    card = json.loads(result.stdout)
    (metric,) = [m for m in card["metrics"] if m["id"] == "arc_easy/choice:accuracy"]
    assert metric["n"] == 3
    assert metric["gate"]["result"] == "unsound"
    assert [r["code"] for r in metric["gate"]["reasons"]] == ["too_few_samples"]
