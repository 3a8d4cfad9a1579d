"""`evalglass validate` names every problem in one run, and refuses every placeholder evalglass
writes until a person replaces it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli_runner import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A copy of the bundled example's records and output."""
    shutil.copytree(ROOT / "host_records", tmp_path / "host_records")
    shutil.copy(ROOT / "examples" / "run.json", tmp_path / "run.json")
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_every_error_in_every_file_is_named_at_once(work: Path) -> None:
    """Three mistakes in two files: all three lines, in file order, then a count; exit 4."""
    records = work / "host_records"
    _edit(records / "metrics.yaml", "status: gating", "status: gateing")
    _edit(records / "metrics.yaml", "judge: grader-v2\n    min_samples: 100",
          "judge: grader-v2\n    min_samples: many")  # fmt: skip
    _edit(records / "thresholds.yaml", "value: 0.85", "value: high")
    result = cli("validate", cwd=work)
    assert result.returncode == 4 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 4, result.stderr
    assert lines[0].startswith("evalglass: host_records/metrics.yaml:") and "gateing" in lines[0]
    assert lines[1].startswith("evalglass: host_records/metrics.yaml:") and "many" in lines[1]
    assert lines[2].startswith("evalglass: host_records/thresholds.yaml:") and "high" in lines[2]
    assert lines[3] == "evalglass: 3 errors in host_records"


def test_a_file_that_does_not_parse_does_not_hide_the_others(work: Path) -> None:
    """A syntax error in one file is named beside a typing error in another; a single error is
    its one line alone."""
    records = work / "host_records"
    (records / "datasets.yaml").write_text("datasets:\n  qa-gold\n", encoding="utf-8")
    _edit(records / "thresholds.yaml", "value: 0.85", "value: high")
    lines = cli("validate", cwd=work).stderr.splitlines()
    assert [line.split(":")[1] for line in lines[:-1]] == [
        " host_records/thresholds.yaml",
        " host_records/datasets.yaml",
    ] or [line.split(":", 2)[1] for line in lines[:-1]] == [
        " host_records/datasets.yaml",
        " host_records/thresholds.yaml",
    ]
    assert lines[-1] == "evalglass: 2 errors in host_records"
    (records / "datasets.yaml").unlink()
    assert len(cli("validate", cwd=work).stderr.splitlines()) == 1


def test_the_skeleton_does_not_validate_until_its_placeholders_are_replaced(work: Path) -> None:
    """`metrics --skeleton` drafts every metric with a placeholder dataset: `validate` refuses
    each one (exit 4) until a person names the dataset, then loads it."""
    skeleton = cli("metrics", "run.json", "--skeleton", cwd=work)
    assert skeleton.returncode == 0
    drafted = work / "drafted"
    drafted.mkdir()
    (drafted / "metrics.yaml").write_text(skeleton.stdout, encoding="utf-8")
    refused = cli("validate", "--records", "drafted", cwd=work)
    assert refused.returncode == 4
    placeholders = skeleton.stdout.count("dataset: '<dataset id>'")
    assert placeholders == 5
    assert refused.stderr.count("is a placeholder: write the value in its place") == placeholders
    explained = cli("explain", "qa/exact_match", "run.json", "--records", "drafted", cwd=work)
    assert explained.returncode == 4 and "TODO.status" not in explained.stdout
    filled = skeleton.stdout.replace("'<dataset id>'", "qa-gold")
    (drafted / "metrics.yaml").write_text(filled, encoding="utf-8")
    assert cli("validate", "--records", "drafted", cwd=work).stdout == "ok: 5 records in drafted\n"


def test_an_old_skeletons_todo_is_refused_too(work: Path) -> None:
    """`dataset: TODO`, what earlier drafts hold, is a placeholder, not a dataset id."""
    _edit(work / "host_records" / "metrics.yaml", "dataset: qa-gold", "dataset: TODO")
    result = cli("validate", cwd=work)
    assert result.returncode == 4
    assert "dataset: 'TODO' is a placeholder" in result.stderr


def test_a_missing_folder_says_what_to_do(tmp_path: Path) -> None:
    """No records folder: one line naming `evalglass init` and `--records DIR`, exit 4."""
    result = cli("validate", cwd=tmp_path)
    assert result.returncode == 4
    assert "evalglass init" in result.stderr and "--records DIR" in result.stderr
