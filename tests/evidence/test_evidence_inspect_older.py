"""Inspect logs of older releases and rarer shapes (tests/fixtures/inspect/older-shapes,
README.txt there): recognised by how Inspect opens every JSON log, n counting distinct samples
with a score, whatever the shape of the score or the epochs."""

from __future__ import annotations

import json
from pathlib import Path

from evalglass.evidence.adapters import inspect_log
from evalglass.evidence.model import Measurement
from evalglass.evidence.read import read_outputs
from tests.evidence_files import FIXTURES, claims

LOGS = FIXTURES / "inspect/older-shapes/logs"
LEGACY = next((LOGS / "legacy-0.3.40").glob("*.json"))


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
