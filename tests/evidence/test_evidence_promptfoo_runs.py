"""promptfoo evals paused with Ctrl-C, resumed (`--resume`) and retried (`--retry-errors`) by
promptfoo 0.123.1 itself (tests/fixtures/promptfoo-interrupted). Expected numbers come from
promptfoo's own summary in each file (stats, prompts[].metrics, config.tests)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evalglass.errors import OutputError
from evalglass.evidence.adapters import _promptfoo_runs as runs
from evalglass.evidence.adapters import promptfoo
from evalglass.evidence.model import Measurement
from evalglass.evidence.read import read_outputs
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


@pytest.mark.parametrize(
    ("part", "whole"),
    [
        ("one-provider/paused/export.json", "one-provider/resumed/results.json"),
        ("two-providers/errors/results.json", "two-providers/retried/results.json"),
    ],
)
@pytest.mark.parametrize("reverse", [False, True])
def test_the_most_complete_file_of_an_eval_decides(part: str, whole: str, reverse: bool) -> None:
    """A paused eval's export beside its resumed output, or an eval's errors beside its
    --retry-errors output (one evalId, rewritten in place): in either order the file holding
    more of the eval is read, with promptfoo's own numbers, and the other is skipped saying so."""
    paths = [RUNS / part, RUNS / whole]
    evidence = read_outputs(paths[::-1] if reverse else paths)
    doc = export(RUNS / whole)
    for column in doc["results"]["prompts"]:
        metrics = column["metrics"]
        got = evidence.measurements[f"{column['provider']}/{column['label']}/pass_rate"]
        graded = metrics["testPassCount"] + metrics["testFailCount"]
        assert (got.value, got.n, got.missing) == (metrics["testPassCount"] / graded, graded, 0)
        assert got.run.source == str(RUNS / whole)
        assert (got.findings, got.earlier) == ((), ())
    assert [s.source for s in evidence.skipped] == [str(RUNS / part)]
    assert evidence.skipped[0].reason.startswith(f"part of the run read from {RUNS / whole}")


def test_columns_written_twice_with_sums_their_rows_contradict_are_an_input_error() -> None:
    """A resumed eval with two providers writes every column twice; calc-b's copies claim 11
    passes of 16 where their rows hold 8 of 12: an input error naming both copies and the field,
    never the first copy read quietly."""
    path = RUNS / "two-providers/resumed/results.json"
    doc = export(path)
    copies = doc["results"]["prompts"][2:]
    assert [c["provider"] for c in copies] == ["calc-b", "calc-b"]
    passes = sum(r["success"] for r in doc["results"]["results"] if r["promptIdx"] == 2)
    with pytest.raises(OutputError) as caught:
        promptfoo.read(path, "resumed.json")
    message = str(caught.value)
    assert message.startswith("resumed.json: results.prompts[2] and results.prompts[3]")
    stated = copies[0]["metrics"]["testPassCount"]
    assert f"results.prompts[2].metrics.testPassCount {stated}, while its rows give {passes}" in (
        message
    )
    assert "\n" not in message


def test_columns_written_twice_that_agree_with_their_rows_are_read_once() -> None:
    """--retry-errors also writes every column twice, but here each copy's counts are its rows'
    and the two copies agree: each column is one metric, with promptfoo's numbers."""
    path = RUNS / "two-providers/retried/results.json"
    ids = [m.id for m in promptfoo.read(path, str(path))]
    assert sorted(ids) == sorted(set(ids))
    assert len(ids) == 4


def test_the_skipped_part_of_an_eval_is_said_on_stderr(tmp_path: Path) -> None:
    """End to end: `evalglass metrics` given the resumed output first and the paused export
    second reads the resumed one and says, on stderr, that the paused export was skipped."""
    from tests.cli_runner import cli

    whole, part = (
        RUNS / "one-provider/resumed/results.json",
        RUNS / "one-provider/paused/export.json",
    )
    result = cli("metrics", str(whole), str(part), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"evalglass: skipped {part}: part of the run read from {whole}" in result.stderr


TEST = {"description": "t", "vars": {"a": 1}}


@pytest.mark.parametrize(
    ("config", "tests"),
    [
        ({"tests": [TEST, TEST]}, 2),
        ({"tests": "tests.csv"}, None),
        ({"tests": ["file://a.yaml"]}, None),
        ({"tests": []}, None),
        ({}, None),
        ({"tests": [TEST], "scenarios": [{"config": []}]}, None),
        ({"tests": [{"vars": {"a": [1, 2]}}]}, None),
        ({"tests": [{"vars": {"a": "file://data/*.txt"}}]}, None),
        ({"tests": [TEST], "defaultTest": {"vars": {"b": [1, 2]}}}, None),
        ({"tests": [{**TEST, "providers": ["calc-a"]}]}, None),
        ({"tests": [{**TEST, "prompts": ["sum"]}]}, None),
        ({"tests": [{"vars": "not a mapping"}]}, None),
    ],
)
def test_the_planned_tests_are_counted_only_where_the_config_lists_them(
    config: dict[str, Any], tests: int | None
) -> None:
    """A complete run's tests come from inline config.tests alone: anything promptfoo expands or
    narrows at run time (files, scenarios, list or file vars, per-test providers or prompts)
    leaves the count unknown, and completeness unchecked, rather than guessed."""
    plan = runs.planned(config, 1)
    assert (plan.tests if plan else None) == tests
