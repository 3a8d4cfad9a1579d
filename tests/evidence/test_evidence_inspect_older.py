"""Inspect logs of older releases and rarer shapes (tests/fixtures/inspect/older-shapes,
README.txt there): recognised by how Inspect opens every JSON log, n counting distinct samples
with a score, whatever the shape of the score or the epochs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalglass.evidence.adapters import inspect_log
from evalglass.evidence.model import Measurement
from evalglass.evidence.read import read_outputs
from evalglass.reasons import ValidityCode
from tests.evidence_files import FIXTURES, claims

LOGS = FIXTURES / "inspect/older-shapes/logs"
LEGACY = next((LOGS / "legacy-0.3.40").glob("*.json"))
UNREDUCED = sorted((LOGS / "no-reducer").iterdir())
DICT_SCORES = sorted((LOGS / "dict-scores").iterdir()) + sorted(
    (LOGS / "dict-scores-0.3.40").iterdir()
)


def read(path: Path) -> dict[str, Measurement]:
    return {m.id: m for m in inspect_log.read(path, str(path))}


def entry(path: Path, name: str) -> dict:
    return next(e for e in json.loads(path.read_text())["results"]["scores"] if e["name"] == name)


def test_a_json_log_without_eval_id_is_recognised() -> None:
    """0.3.40 wrote no eval_id: the log is claimed as Inspect's from how it opens, and reads as
    Inspect summarised it (accuracy 0.375 over its 16 samples)."""
    doc = json.loads(LEGACY.read_text())
    assert "eval_id" not in doc["eval"]
    assert claims("inspect", LEGACY) == (True, None)
    got = read_outputs([LEGACY.parent]).measurements["lookup/includes/accuracy"]
    assert (got.value, got.n, got.missing) == (
        entry(LEGACY, "includes")["metrics"]["accuracy"]["value"],
        doc["results"]["total_samples"],
        0,
    )


@pytest.mark.parametrize("path", UNREDUCED, ids=lambda p: p.suffix)
def test_unreduced_epochs_count_each_sample_once(path: Path) -> None:
    """--no-epochs-reducer: 32 scored epochs of 16 samples are n 16, each sample's two epochs
    averaged for the interval, with the value Inspect computed over all 32 and no finding."""
    got = read(path)["lookup/includes/accuracy"]
    assert (got.value, got.n, got.missing, got.findings) == (0.375, 16, 0, ())
    assert got.reduction is not None and (got.reduction.least, got.reduction.most) == (2, 2)
    assert got.interval is not None and got.samples is not None and len(got.samples) == 32


@pytest.mark.parametrize("path", DICT_SCORES, ids=lambda p: p.parent.name + p.suffix)
def test_a_custom_metric_over_dict_scores_counts_the_scored_samples(path: Path) -> None:
    """Problem Correctness and the scorer's own metric over the dict-valued scores both count
    the 20 samples Inspect scored, none missing, with Inspect's values."""
    got = read(path)
    custom = got["subproblems/subproblem_scorer/sub_problem_correctness"]
    problem = got["subproblems/Problem Correctness/mean"]
    assert (custom.value, custom.n, custom.missing) == (0.36, 20, 0)
    assert (problem.value, problem.n, problem.missing) == (0.1, 20, 0)
    assert all(f.code is not ValidityCode.VALUE_MISMATCH for f in custom.findings)
