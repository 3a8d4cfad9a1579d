"""Calibration evidence a judge record names: read from beside the records (working tree or git
ref) into the record, and what the resolver makes of it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from evalglass.calibration_evidence import CalibrationEvidence, read_evidence
from evalglass.core.authority import Outcome, resolve
from evalglass.errors import RecordError
from evalglass.reasons import AuthorityCode as C
from evalglass.records.gitref import load_records_at
from evalglass.records.load import load_records
from evalglass.records.model import Calibration, JudgeRecord, UnreadableEvidence
from tests import states as s

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "calibration" / "grader-v2.json"  # kappa lower bound 0.702
JUDGES = """\
judges:
  grader-v2:
    model: openai/gpt-4.1
    calibration: calibrated
    evidence: {path}
    min_agreement:
      statistic: kappa
      lower_bound: {bar}
"""
METRICS = "metrics:\n  qa/match/accuracy:\n    status: gating\n    dataset: qa-gold\n    judge: grader-v2\n"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A records folder with the example's evidence under calibration/, as `host_records`."""
    monkeypatch.chdir(tmp_path)
    records = tmp_path / "host_records"
    (records / "calibration").mkdir(parents=True)
    shutil.copy(EXAMPLE, records / "calibration" / "grader-v2.json")
    (records / "metrics.yaml").write_text(METRICS)
    return records


def judges(folder: Path, path: str = "calibration/grader-v2.json", bar: float = 0.6) -> None:
    (folder / "judges.yaml").write_text(JUDGES.format(path=path, bar=bar))


def judge(folder: Path | str = "host_records") -> JudgeRecord:
    return load_records(folder).judges["grader-v2"]


def test_the_named_file_is_read_into_the_judge_record(folder: Path) -> None:
    """The document the judge's record names is on the record, as calibrate wrote it."""
    judges(folder)
    found = judge().evidence_read
    assert isinstance(found, CalibrationEvidence)
    assert found == read_evidence(str(EXAMPLE))


def test_a_missing_or_malformed_file_is_recorded_not_refused(folder: Path) -> None:
    """No such file, or a file that is not calibration evidence: the records load, and the
    record says why the evidence cannot be used."""
    judges(folder, "calibration/none.json")
    assert judge().evidence_read == UnreadableEvidence(
        "is not there: no such file next to the records"
    )
    (folder / "calibration" / "bad.json").write_text('{"schema_version": 1,\n  "kind": 3}')
    judges(folder, "calibration/bad.json")
    problem = judge().evidence_read
    assert isinstance(problem, UnreadableEvidence)
    assert problem.problem.startswith("is not calibration evidence: not an evalglass calibration")
    (folder / "calibration" / "bad.json").write_text("{not json")
    problem = judge().evidence_read
    assert isinstance(problem, UnreadableEvidence)
    assert problem.problem.startswith("is not calibration evidence: not valid JSON")
    (folder / "calibration" / "dir.json").mkdir()
    judges(folder, "calibration/dir.json")
    assert judge().evidence_read == UnreadableEvidence("cannot be read: is a directory, not a file")


@pytest.mark.parametrize(
    "path",
    [
        "../grader-v2.json",
        "/etc/passwd",
        "calibration/../../x.json",
        "C:/x.json",
        "calibration\\x.json",
    ],
)
def test_a_file_outside_the_records_folder_is_refused(folder: Path, path: str) -> None:
    """Evidence lives beside the records: any path that leaves the folder is a load error naming
    the judge's line."""
    judges(folder, path)
    with pytest.raises(RecordError) as error:
        load_records("host_records")
    assert str(error.value).startswith("host_records/judges.yaml:2: judge 'grader-v2': evidence ")
    assert "outside the records folder" in str(error.value)


def test_evidence_is_read_at_a_git_ref_as_committed(folder: Path) -> None:
    """At a ref, the evidence is the committed file: editing or deleting it in the working tree
    changes nothing, and a file never committed is missing there."""
    judges(folder)

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.email=t@t", "-c", "user.name=t", *args],
            cwd=folder.parent,
            check=True,
            capture_output=True,
        )

    git("init", "-q", "-b", "main")
    git("add", ".")
    git("commit", "-qm", "records")
    committed = load_records_at("main", "host_records").judges["grader-v2"].evidence_read
    assert committed == read_evidence(str(EXAMPLE))
    doc = json.loads(EXAMPLE.read_text())
    doc["statistics"]["kappa"]["interval"] = [0.9, 0.95]
    (folder / "calibration" / "grader-v2.json").write_text(json.dumps(doc))
    assert load_records_at("main", "host_records").judges["grader-v2"].evidence_read == committed
    assert judge().evidence_read != committed  # the working tree reads the edit
    judges(folder, "calibration/new.json")
    (folder / "calibration" / "new.json").write_text(EXAMPLE.read_text())
    git("add", "host_records/judges.yaml")
    git("commit", "-qm", "point at a file left uncommitted")
    assert load_records_at("main", "host_records").judges["grader-v2"].evidence_read == (
        UnreadableEvidence("is not there: no such file next to the records")
    )


@pytest.mark.parametrize(
    ("bar", "outcome", "message"),
    [
        (0.7, Outcome.CAN_GATE, None),
        (
            0.71,
            Outcome.BLOCKED,
            (
                "judge 'grader-v2': calibration evidence 'calibration/grader-v2.json': kappa lower bound "
                "0.702 < 0.71 (value 0.7846, n 285, 95% bootstrap)"
            ),
        ),
    ],
)
def test_the_example_evidence_against_a_bar(
    folder: Path, bar: float, outcome: Outcome, message: str | None
) -> None:
    """Loaded from disk: the lower bound 0.702 meets 0.7 and misses 0.71, with the number and
    the bar in the reason."""
    judges(folder, bar=bar)
    state = s.State(judge=Calibration.CALIBRATED)
    records = attrs.evolve(s.records(state), judges=load_records("host_records").judges)
    got = resolve(s.METRIC, records, s.measurement(state), evaluated_on=s.TODAY)
    assert got.outcome is outcome
    if message is not None:
        assert [(r.code, r.message) for r in got.reasons] == [
            (C.JUDGE_EVIDENCE_INSUFFICIENT, message)
        ]


@pytest.mark.parametrize(
    ("bar", "code", "first"),
    [
        ("0.6", 0, "PASS — 2 gates enforced, all passed"),
        ("0.75", 3, "BLOCKED — we cannot say: 1 gate blocked or unsound; 1 passed"),
    ],
)
def test_score_holds_the_example_judge_to_its_evidence(
    tmp_path: Path, bar: str, code: int, first: str
) -> None:
    """The real CLI on the bundled example, its judge called calibrated on the example's
    evidence: a bar the lower bound (0.702) meets lets its metric gate, one it misses blocks."""
    records = tmp_path / "host_records"
    shutil.copytree(ROOT / "host_records", records)
    (records / "calibration").mkdir()
    shutil.copy(EXAMPLE, records / "calibration" / "grader-v2.json")
    (records / "judges.yaml").write_text(JUDGES.format(path="calibration/grader-v2.json", bar=bar))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "evalglass",
            "score",
            "--records",
            str(records),
            str(ROOT / "examples" / "run.json"),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == code, result.stderr
    assert result.stdout.startswith(first)
    if code:
        assert "judge_evidence_insufficient: judge 'grader-v2': calibration evidence " in (
            result.stdout
        )
        assert "kappa lower bound 0.702 < 0.75" in result.stdout
