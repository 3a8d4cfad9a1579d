"""End to end: `evalglass calibrate` on the committed example: the installed command in a
subprocess for the worked example and the missing extra, in this process (tests/cli_runner.py)
for the rest."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_runner import Result, cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "calibration"
EVALGLASS = Path(sys.executable).parent / "evalglass"


def calibrate(*args: str, cwd: Path) -> Result:
    return cli("calibrate", *args, cwd=cwd)


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    return subprocess.run(
        [str(EVALGLASS), "calibrate", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """The example inputs and the bundled host records, in a scratch folder."""
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    shutil.copytree(ROOT / "host_records", tmp_path / "host_records")
    return tmp_path


def test_example_evidence_is_what_the_command_writes(work: Path) -> None:
    """The committed worked example (docs/calibration.md) is reproduced by the real command,
    and the judge's model comes from judges.yaml."""
    result = run(
        "judgments.jsonl", "labels.csv", "--judge", "grader-v2", "--out", "new.json", cwd=work
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == (
        "judge grader-v2 (openai/gpt-4.1) against 3 human raters, binary scale"
    )
    assert result.stderr == "evidence written to new.json\n"
    written = json.loads((work / "new.json").read_text())
    committed = json.loads((EXAMPLE / "grader-v2.json").read_text())
    for doc in (written, committed):
        del doc["date"], doc["evalglass_version"], doc["inputs"]
    assert written == committed


# The later sample, held against the committed evidence.
LATER_AGAINST_RECORDED = (
    "later-judgments.jsonl",
    "later-labels.csv",
    "--judge",
    "grader-v2",
    "--against",
    "grader-v2.json",
)


def test_drift_against_recorded_evidence_is_reported(work: Path) -> None:
    """The later sample, compared with the committed evidence, shows suspected drift; the JSON
    report carries it and still reads as evidence."""
    result = calibrate(*LATER_AGAINST_RECORDED, cwd=work)
    assert result.returncode == 0, result.stderr
    assert "kappa" in result.stdout
    assert "suspected drift in kappa, ac1, percent_agreement, alpha" in result.stdout
    result = calibrate(*LATER_AGAINST_RECORDED, "--format", "json", cwd=work)
    report = json.loads(result.stdout)
    assert report["drift"]["suspected"] == ["kappa", "ac1", "percent_agreement", "alpha"]
    assert report["drift"]["changes"]["kappa"]["interval"][1] < 0


def test_markdown_summary(work: Path) -> None:
    """--format markdown gives a table a pull request can show."""
    result = calibrate(
        "judgments.jsonl", "labels.csv", "--judge", "grader-v2", "--format", "markdown", cwd=work
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("### Calibration: judge grader-v2")
    assert "| `kappa` | 0.7846 |" in result.stdout


def test_duplicate_id_exits_4_naming_the_line(work: Path) -> None:
    """A sample judged twice: one line on stderr with file and line, nothing on stdout."""
    with (work / "judgments.jsonl").open("a") as stream:
        stream.write('{"sample_id": "q0002", "label": "fail"}\n')
    result = calibrate(
        "judgments.jsonl", "labels.csv", "--judge", "grader-v2", "--out", "e.json", cwd=work
    )
    assert result.returncode == 4
    assert result.stdout == ""
    assert result.stderr == (
        "evalglass: judgments.jsonl:301: sample_id 'q0002' repeats line 2 "
        "(several labels per item need a 'rater' field)\n"
    )
    assert not (work / "e.json").exists()


def test_no_common_items_exits_4(work: Path) -> None:
    """Judgments and labels for different items: exit 4, one line."""
    result = calibrate("judgments.jsonl", "later-labels.csv", "--judge", "grader-v2", cwd=work)
    assert result.returncode == 4
    assert result.stderr.startswith("evalglass: judgments.jsonl: no sample_id is in both")
    assert result.stderr.count("\n") == 1


def test_out_inside_the_records_folder_is_refused(work: Path) -> None:
    """The evidence is never written into host records (a usage error, exit 2)."""
    result = calibrate(
        "judgments.jsonl",
        "labels.csv",
        "--judge",
        "grader-v2",
        "--out",
        "host_records/calibration.json",
        cwd=work,
    )
    assert result.returncode == 2
    assert "inside the host-records folder" in result.stderr
    assert not (work / "host_records" / "calibration.json").exists()


def test_unreadable_recorded_evidence_exits_4(work: Path) -> None:
    """--against a file that is not evidence: exit 4 naming it, before any work."""
    (work / "bad.json").write_text('{"schema_version": 1}')
    result = calibrate(
        "judgments.jsonl", "labels.csv", "--judge", "grader-v2", "--against", "bad.json", cwd=work
    )
    assert result.returncode == 4
    assert result.stderr.startswith("evalglass: bad.json: not an evalglass calibration evidence")


def test_without_numpy_the_command_names_the_extra(work: Path) -> None:
    """Without the `calibrate` extra: exit 4 and the one line that says what to install."""
    code = (
        "import sys; sys.modules['numpy'] = None; sys.argv = ['evalglass', 'calibrate', "
        "'judgments.jsonl', 'labels.csv', '--judge', 'g']; "
        "from evalglass.__main__ import main; main()"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 4
    assert result.stderr == (
        "evalglass: numpy: not installed; evalglass calibrate needs it: "
        "pip install 'numpy>=1.26' (evalglass's 'calibrate' extra)\n"
    )


def test_judge_model_option_and_missing_records(tmp_path: Path) -> None:
    """--judge-model wins; with no records folder the model is simply unknown."""
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    result = calibrate(
        "judgments.jsonl",
        "labels.csv",
        "--judge",
        "g",
        "--resamples",
        "50",
        "--format",
        "json",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["judge_model"] is None
    result = calibrate(
        "judgments.jsonl",
        "labels.csv",
        "--judge",
        "g",
        "--judge-model",
        "acme/j",
        "--resamples",
        "50",
        "--format",
        "json",
        cwd=tmp_path,
    )
    assert json.loads(result.stdout)["judge_model"] == "acme/j"
