"""`explain --patch`: the checklist as a diff a person reviews and `git apply`s. Applied and filled
in, it makes the metric gate; applied as it is, it can never make a gate pass."""

from __future__ import annotations

import contextlib
import datetime as dt
import enum
import re
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, example, given, settings

from evalglass.calibration_evidence import CalibrationEvidence, to_json
from evalglass.core.authority import Outcome, resolve
from evalglass.errors import RecordError
from evalglass.evidence.model import Evidence
from evalglass.records.load import load_records
from evalglass.records.model import Calibration, HostRecords
from evalglass.records.schema import KINDS
from evalglass.shell import api
from evalglass.tools.explanation import explain
from evalglass.tools.records_patch import spelling
from tests import states as s
from tests.render_cases import WHEN

ROOT = Path(__file__).resolve().parents[2]
# What a person writes in place of each placeholder, by field.
FILLED = {
    "approved_by": "'@alice'", "approved_on": "2026-11-01", "op": "'>='", "value": "0.5",
    "n": "100", "version": "'2026-10'", "dataset_version": "'2026-10'", "model": "judge/model-z",
    "judge": "judge/model-z", "dataset": "qa-gold", "evidence": "calibration/again.json",
    "judge_model": "judge/model-z", "expires_on": "2099-12-31",
}  # fmt: skip


def write_records(folder: Path, records: HostRecords) -> None:
    """The records as YAML files, with a comment at the top of each to show it survives."""
    folder.mkdir(parents=True, exist_ok=True)
    for kind, spec in KINDS.items():
        found = getattr(records, kind)
        if not found:
            continue
        lines = [f"# {kind}: owned by its reviewers; this comment must survive a patch", f"{kind}:"]
        for record_id, record in found.items():
            lines.append(f"  {spelling(record_id)}:  # why this record exists")
            for field in spec.fields:
                value = getattr(record, field.name)
                if value is None or (not field.required and value == field.default):
                    continue
                if field.nested:
                    lines.append(f"    {field.name}:")
                    lines += [
                        f"      {sub.name}: {spelling(_text(getattr(value, sub.name)))}"
                        for sub in field.fields
                        if getattr(value, sub.name) is not None
                    ]
                    continue
                lines.append(f"    {field.name}: {spelling(_text(value))}")
            lines.append("")
            _write_evidence(folder, record)
        (folder / spec.filename).write_text("\n".join(lines) + "\n")


def _write_evidence(folder: Path, record: object) -> None:
    """The calibration evidence file a judge record names, as the records loaded it (none when
    the loader found none)."""
    found = getattr(record, "evidence_read", None)
    if isinstance(found, CalibrationEvidence):
        path = folder / record.evidence  # type: ignore[attr-defined]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(to_json(found))


def _text(value: object) -> str:
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)


def repo_with(tmp: Path, records: HostRecords) -> Path:
    repo = tmp / "repo"
    write_records(repo / "host_records", records)
    git(repo, "init", "-q")
    return repo


def fill(folder: Path) -> None:
    """Every placeholder replaced with a value a person might choose; for calibration evidence,
    the file a fresh `evalglass calibrate` of the judge wrote, which meets the bar."""
    judges = folder / "judges.yaml"
    if judges.exists() and "evidence: <" in judges.read_text():
        again = folder / FILLED["evidence"]
        again.parent.mkdir(parents=True, exist_ok=True)
        # The judge's model as the records hold it (the fill gives a new judge judge/model-z).
        model = re.search(r"^    model: (\S+)$", judges.read_text(), re.MULTILINE)
        assert model is not None
        again.write_text(to_json(s.evidence_document(model=model.group(1).strip("'"))))
    for path in folder.glob("*.yaml"):
        text = re.sub(
            # A placeholder a baseline copies from the dataset's version comes quoted.
            r"^( *)(\w+): '?<.*>'?$",
            lambda m: f"{m.group(1)}{m.group(2)}: {FILLED[m.group(2)]}",
            path.read_text(),
            flags=re.MULTILINE,
        )
        path.write_text(text)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(state=s.states())
@example(state=s.State(judge=Calibration.CALIBRATED, evidence="below_bar"))
@example(state=s.State(judge=Calibration.CALIBRATED, evidence="missing"))
@example(state=s.State(judge=Calibration.DRIFTED, evidence="other_model"))
@example(state=s.State(judge=Calibration.CALIBRATING, evidence="other_judge"))
def test_the_patch_applied_and_filled_in_lets_the_metric_gate(
    tmp_path_factory: pytest.TempPathFactory, state: s.State
) -> None:
    """git apply, fill every placeholder: the metric can gate (save what only the run can show);
    applied unfilled, any placeholder makes the records refuse to load."""
    tmp = tmp_path_factory.mktemp("patch")
    records, measurement = s.records(state), s.measurement(state)
    repo = repo_with(tmp, records)
    evidence = Evidence(measurements={s.METRIC: measurement}, sources=("run.json",))
    explanation = explain(
        s.METRIC, load_records(repo / "host_records"), evidence, evaluated_at=WHEN
    )
    with contextlib.chdir(repo):
        diff = api.explain_patch(explanation, "host_records")
    if not explanation.checklist.edits:
        assert diff == ""
        return
    (tmp / "edits.patch").write_text(diff)
    applied = git(repo, "apply", "--verbose", str(tmp / "edits.patch"))
    assert applied.returncode == 0, (applied.stderr, diff)
    if "<" in "".join(line for line in diff.splitlines() if line.startswith("+")):
        with pytest.raises(RecordError, match="placeholder"):
            load_records(repo / "host_records")
    fill(repo / "host_records")
    after = resolve(
        s.METRIC, load_records(repo / "host_records"), measurement, evaluated_on=s.TODAY
    )
    if explanation.checklist.outside:
        assert after.outcome is not Outcome.INFORMATIONAL
    else:
        assert after.outcome is Outcome.CAN_GATE, (after, diff)


def test_comments_and_layout_outside_the_edits_survive(tmp_path: Path) -> None:
    """Every line the patch does not change is the file's own, comments included."""
    state = s.State(threshold=None, policy=None)
    repo = repo_with(tmp_path, s.records(state))
    folder = repo / "host_records"
    before = {p.name: p.read_text() for p in folder.glob("*.yaml")}
    with contextlib.chdir(repo):
        explanation = explain(s.METRIC, load_records(folder), Evidence(), evaluated_at=WHEN)
        diff = api.explain_patch(explanation, "host_records")
    removed = [
        line for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")
    ]
    assert removed == []  # only additions: nothing the host wrote is rewritten
    (tmp_path / "p.patch").write_text(diff)
    assert git(repo, "apply", str(tmp_path / "p.patch")).returncode == 0
    for name, text in before.items():
        assert (folder / name).read_text().startswith(text.rstrip("\n"))


def test_cli_prints_the_patch_and_writes_nothing(tmp_path: Path) -> None:
    """`explain --patch` on the bundled example: a diff on stdout, the records untouched; applied
    unfilled, `validate` refuses it with exit 4 naming the placeholder's line."""
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(
        ["cp", "-r", str(ROOT / "host_records"), str(ROOT / "examples"), str(repo)], check=True
    )
    git(repo, "init", "-q")
    before = {p: p.read_bytes() for p in (repo / "host_records").iterdir()}
    run = [sys.executable, "-m", "evalglass"]
    result = subprocess.run(
        [*run, "explain", "qa/refusal_rate", "examples/run.json", "--patch"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("diff --git a/host_records/thresholds.yaml")
    assert {p: p.read_bytes() for p in (repo / "host_records").iterdir()} == before
    (tmp_path / "p.patch").write_text(result.stdout)
    assert git(repo, "apply", str(tmp_path / "p.patch")).returncode == 0
    refused = subprocess.run(
        [*run, "validate"], cwd=repo, capture_output=True, text=True, check=False
    )
    assert refused.returncode == 4
    assert re.fullmatch(
        r"evalglass: host_records/thresholds.yaml:\d+: approved_by: <who "
        r"approved it> is a placeholder: write the value in its place\n",
        refused.stderr,
    )
    fill(repo / "host_records")
    card = api.score([repo / "examples" / "run.json"], repo / "host_records")
    gate = next(m for m in card.metrics if m.id == "qa/refusal_rate")
    assert gate.authority.outcome is Outcome.CAN_GATE


def test_quoting_a_placeholder_does_not_fill_it(tmp_path: Path) -> None:
    """A placeholder put in quotes is still refused: only a real value passes."""
    folder = tmp_path / "host_records"
    folder.mkdir()
    text = (
        "thresholds:\n  m:\n    op: '>='\n    value: 0.5\n    approval: approved\n"
        "    approved_by: '<who approved it>'\n    approved_on: 2026-11-01\n"
    )
    (folder / "thresholds.yaml").write_text(text)
    with pytest.raises(RecordError, match="placeholder"):
        load_records(folder)


def test_a_record_the_file_lacks_is_added_after_the_last(tmp_path: Path) -> None:
    """A new record goes at the end of its file, a blank line apart, in the file's indentation."""
    state = attrs.evolve(s.State(), threshold=None)
    repo = repo_with(tmp_path, s.records(state))
    folder = repo / "host_records"
    (folder / "thresholds.yaml").write_text(
        "# bars\nthresholds:\n    other:\n        op: '>='\n"
        "        value: 0.1\n        approval: proposed\n"
    )
    with contextlib.chdir(repo):
        explanation = explain(s.METRIC, load_records(folder), Evidence(), evaluated_at=WHEN)
        diff = api.explain_patch(explanation, "host_records")
    (tmp_path / "p.patch").write_text(diff)
    assert git(repo, "apply", str(tmp_path / "p.patch")).returncode == 0
    text = (folder / "thresholds.yaml").read_text()
    assert "\n\n    qa/match/accuracy:\n        op: <" in text
