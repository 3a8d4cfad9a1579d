"""promptfoo evals paused with Ctrl-C, resumed (`--resume`) and retried (`--retry-errors`) by
promptfoo 0.123.1 itself (tests/fixtures/promptfoo-interrupted). Expected numbers come from
promptfoo's own summary in each file (stats, prompts[].metrics, config.tests)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evalglass.evidence.adapters import promptfoo
from evalglass.evidence.model import Measurement
from evalglass.reasons import ValidityCode
from tests.evidence_files import FIXTURES

RUNS = FIXTURES / "promptfoo-interrupted/results"
EARLIER = FIXTURES / "promptfoo"


def read(path: Path) -> dict[str, Measurement]:
    return {m.id: m for m in promptfoo.read(path, str(path))}


def export(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text())
    return doc


@pytest.mark.parametrize("case", ["one-provider", "two-providers"])
def test_a_paused_evals_export_is_incomplete_with_the_unrun_tests_missing(case: str) -> None:
    """`promptfoo export eval ID` of an eval paused with Ctrl-C holds the rows run so far and
    nothing marking it paused: against its config.tests x columns x repeat it is run_incomplete,
    and each column's tests never run are missing."""
    path = RUNS / case / "paused/export.json"
    doc = export(path)
    tests = len(doc["config"]["tests"])
    columns = doc["results"]["prompts"]
    rows = doc["results"]["results"]
    expected = tests * len(columns) * doc["runtimeOptions"]["repeat"]
    assert len(rows) < expected
    m = read(path)
    for column in columns:
        metrics = column["metrics"]
        ran = metrics["testPassCount"] + metrics["testFailCount"] + metrics["testErrorCount"]
        for name in ("pass_rate", "correct"):
            got = m[f"{column['provider']}/{column['label']}/{name}"]
            assert [r.code for r in got.findings] == [ValidityCode.RUN_INCOMPLETE]
            assert f"holds {len(rows)} of the {expected} result rows" in got.findings[0].message
            assert (got.n, got.missing) == (ran, tests - ran)
            assert got.value == metrics["testPassCount"] / ran


@pytest.mark.parametrize(
    "path",
    [
        RUNS / "one-provider/resumed/results.json",
        RUNS / "two-providers/errors/results.json",
        RUNS / "two-providers/retried/results.json",
        *sorted(EARLIER.rglob("results.json")),
    ],
    ids=lambda p: str(p.relative_to(FIXTURES)),
)
def test_a_run_holding_every_planned_row_is_complete(path: Path) -> None:
    """A finished eval (errors included) holds a row per test, column and repeat: no finding of
    incompleteness, nothing added to missing."""
    for m in read(path).values():
        assert ValidityCode.RUN_INCOMPLETE not in {r.code for r in m.findings}, m.id


GATE = """\
metrics:
  slow-calc/sum/pass_rate:
    status: gating
    dataset: arith
    min_samples: 5
thresholds:
  slow-calc/sum/pass_rate:
    op: '>='
    value: 0.3
    approval: approved
    approved_by: '@alice'
    approved_on: 2026-11-01
    approved_for:
      dataset_version: '1'
datasets:
  arith:
    status: validated
    version: '1'
policies:
  arith:
    policy: permitted
"""


def host_records(tmp_path: Path) -> Path:
    folder = tmp_path / "host_records"
    folder.mkdir()
    for part in _sections(GATE):
        name = part.split(":", 1)[0]
        (folder / f"{name}.yaml").write_text(part)
    return folder


def _sections(text: str) -> list[str]:
    """Each top-level key of the records text, as the text of its own file."""
    parts: list[str] = []
    for line in text.splitlines(keepends=True):
        if not line.startswith(" "):
            parts.append("")
        parts[-1] += line
    return parts


def test_a_paused_eval_cannot_pass_its_gate(tmp_path: Path) -> None:
    """End to end: the paused export's pass rate (6 of 8 run; Wilson lower bound 0.41) clears
    its bar of 0.3, but the run stopped at 8 of 12 rows, so the gate is unsound and the run
    blocked (exit 3), never a pass."""
    from tests.cli_runner import cli

    path = RUNS / "one-provider/paused/export.json"
    result = cli(
        "score", str(path), "--records", str(host_records(tmp_path)), "--format", "json",
        cwd=tmp_path,
    )  # fmt: skip
    card = next(m for m in json.loads(result.stdout)["metrics"] if m["id"] == GATE_ID)
    assert card["gate"]["result"] == "unsound"
    assert "run_incomplete" in [r["code"] for r in card["validity"]["reasons"]]
    assert result.returncode == 3


GATE_ID = "slow-calc/sum/pass_rate"
