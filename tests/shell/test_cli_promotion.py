"""End to end: explain, doctor, validate and schema through the CLI (in this process:
tests/cli_runner.py), and the pre-commit hook that runs validate."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import strictyaml  # type: ignore[import-untyped]

from evalglass.records.json_schema import json_schema, json_schemas
from tests.cli_runner import cli
from tests.shell.test_cli import EXAMPLE_OUTPUT, EXAMPLE_RECORDS, ROOT, edit


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A copy of the bundled example, so a test may edit records freely."""
    shutil.copytree(EXAMPLE_RECORDS, tmp_path / "host_records")
    shutil.copy(EXAMPLE_OUTPUT, tmp_path / "run.json")
    return tmp_path


APPROVED_NO_DATE = (
    "thresholds:\n  qa/exact_match:\n    op: '>='\n    value: 0.85\n    approval: approved\n"
    "    approved_by: '@alice'\n"
)


def test_explain_shows_the_checklist_and_the_hypothetical(work: Path) -> None:
    """explain: exit 0, the plain reason, the edit and what it asserts, the labelled what-if."""
    result = cli("explain", "qa/helpfulness", "run.json", cwd=work)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "qa/helpfulness: informational: shown, never enforced"
    assert "  1. judges.yaml: grader-v2.calibration: calibrated" in lines
    assert (
        "Hypothetical: if every edit above were made (in memory only; nothing was written)"
    ) in lines
    assert "  gate: pass: lower bound 0.7688 >= 0.75 (value 0.81, n 200, 95% normal)" in lines


def test_explain_in_markdown(work: Path) -> None:
    """--format markdown: a bold headline and the ordered edit table."""
    result = cli("explain", "qa/refusal_rate", "run.json", "--format", "markdown", cwd=work)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("**`qa/refusal_rate`: informational: shown, never enforced**\n")
    assert "| 1 | `thresholds.yaml` | `qa/refusal_rate.approval` | `approved` |" in result.stdout
    assert "- gate: fail: upper bound 0.06415 is not &lt;= 0.05" in result.stdout


def test_explain_unknown_metric_is_one_line_exit_4(work: Path) -> None:
    """An id neither recorded nor measured: exit 4, one line with a did-you-mean, no stdout."""
    result = cli("explain", "qa/exact-match", "run.json", cwd=work)
    assert result.returncode == 4
    assert result.stderr.splitlines() == [
        (
            "evalglass: qa/exact-match: no such metric in metrics.yaml or the outputs given "
            "(did you mean 'qa/exact_match'?)"
        )
    ]
    assert result.stdout == ""


def test_explain_and_doctor_refuse_formats_they_lack(work: Path) -> None:
    """explain renders terminal, markdown or json, doctor terminal or json, metrics terminal or
    json: others are usage errors."""
    assert cli("explain", "qa/helpfulness", "--format", "junit", cwd=work).returncode == 2
    assert cli("doctor", "--format", "markdown", cwd=work).returncode == 2
    assert cli("metrics", "run.json", "--format", "html", cwd=work).returncode == 2
    assert cli("metrics", "run.json", "--skeleton", "--format", "json", cwd=work).returncode == 2


def test_doctor_exits_1_on_an_error_and_0_on_warnings_alone(work: Path) -> None:
    """The example gates on a calibrating judge (an error); calibrated, only warnings remain
    (a metric with no record, a min_samples too low, one that would block once promoted)."""
    result = cli("doctor", "run.json", cwd=work)
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == (
        "5 metrics configured to gate; 0 measured by nothing given; 1 error, 3 warnings"
    )
    assert (
        "host_records/metrics.yaml:9: error: metric 'qa/helpfulness' is configured to gate on "
        "judge 'grader-v2', which is calibrating: it stays informational until the judge is "
        "calibrated [uncalibrated_judge]"
    ) in result.stdout.splitlines()
    edit(work / "host_records/judges.yaml", "calibration: calibrating", "calibration: calibrated")
    result = cli("doctor", "run.json", "--format", "json", cwd=work)
    assert result.returncode == 0
    doc = json.loads(result.stdout)
    assert (doc["errors"], doc["warnings"], doc["exit_code"]) == (0, 3, 0)


def test_doctor_reports_a_load_error_as_one_line_exit_4(work: Path) -> None:
    """An approved threshold without its date is a load error: exit 4, one line, like score."""
    (work / "host_records/thresholds.yaml").write_text(APPROVED_NO_DATE)
    result = cli("doctor", cwd=work)
    assert result.returncode == 4
    assert result.stderr.splitlines() == [
        (
            "evalglass: host_records/thresholds.yaml:2: threshold 'qa/exact_match' is approved but "
            "is missing required field 'approved_on'"
        )
    ]
    assert result.stdout == ""


def test_validate_counts_the_records(work: Path) -> None:
    """validate: schema only, `ok: N records in DIR`, exit 0."""
    result = cli("validate", cwd=work)
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        "ok: 17 records in host_records\n",
        "",
    )


def test_validate_counts_checks_and_the_success_policy(work: Path) -> None:
    """validate: each check is a record, and so is the success policy when success.yaml has one
    (the example's two check metrics and two checks, here replaced by two others)."""
    (work / "host_records/checks.yaml").write_text(
        "checks:\n  unit-tests:\n    run: pytest -q\n    timeout: 600\n"
        "  model-card:\n    file_exists: docs/model_card.md\n"
    )
    (work / "host_records/success.yaml").write_text("success:\n  min_gates: 1\n")
    result = cli("validate", cwd=work)
    assert (result.returncode, result.stdout) == (0, "ok: 17 records in host_records\n")
    (work / "host_records/success.yaml").write_text("success:\n  mode: percentage\n")
    refused = cli("validate", cwd=work)
    assert refused.returncode == 4
    assert refused.stderr.splitlines() == [
        (
            "evalglass: host_records/success.yaml:1: the success policy is in percentage mode but is "
            "missing required field 'min_pass_rate'"
        )
    ]


def test_validate_refuses_a_bad_file_in_one_line(work: Path) -> None:
    """validate on two bad records: the loader's line for each, then the count, exit 4,
    nothing on stdout."""
    edit(work / "host_records/datasets.yaml", "status: validated", "status: validatd")
    result = cli("validate", "--records", "host_records", cwd=work)
    assert result.returncode == 4
    assert result.stderr.splitlines() == [
        (
            f"evalglass: host_records/datasets.yaml:{line}: status: 'validatd' is not one of "
            "proposed, validated, retired (did you mean 'validated'?)"
        )
        for line in (4, 8)
    ] + ["evalglass: 2 errors in host_records"]
    assert result.stdout == ""


def test_schema_prints_every_file_or_one(work: Path) -> None:
    """schema: all eight keyed by file name; with KIND (or KIND.yaml), that one; else exit 2."""
    every = cli("schema", cwd=work)
    assert every.returncode == 0 and json.loads(every.stdout) == json_schemas()
    assert {"checks.yaml", "success.yaml"} <= json.loads(every.stdout).keys()
    assert json.loads(cli("schema", "success", cwd=work).stdout) == json_schema("success")
    one = cli("schema", "thresholds", cwd=work)
    assert json.loads(one.stdout) == json_schema("thresholds")
    assert json.loads(cli("schema", "metrics.yaml", cwd=work).stdout) == json_schema("metrics")
    bad = cli("schema", "metric", cwd=work)
    assert bad.returncode == 2 and "expected one of metrics, thresholds" in bad.stderr


def _selected(hook: dict[str, str], changed: str) -> bool:
    """Whether pre-commit runs `hook` for a commit changing `changed`: always_run, or the file
    matches `files` (default: every file) and not `exclude`, as pre-commit decides."""
    if hook.get("always_run") == "true":
        return True
    return bool(re.search(hook.get("files", ""), changed)) and not (
        "exclude" in hook and re.search(hook["exclude"], changed)
    )


def test_pre_commit_hooks_run_validate_and_doctor_on_any_records_folder() -> None:
    """.pre-commit-hooks.yaml: evalglass-validate and evalglass-doctor run the commands with no
    file names, and run for a change to a records folder wherever it is (`--records
    gate_records`), not only under host_records/."""
    hooks = strictyaml.load((ROOT / ".pre-commit-hooks.yaml").read_text()).data
    assert [
        {k: hook[k] for k in ("id", "entry", "language", "pass_filenames")} for hook in hooks
    ] == [
        {"id": "evalglass-validate", "entry": "evalglass validate", "language": "python",
         "pass_filenames": "false"},
        {"id": "evalglass-doctor", "entry": "evalglass doctor", "language": "python",
         "pass_filenames": "false"},
    ]  # fmt: skip
    for hook in hooks:
        for changed in ("host_records/metrics.yaml", "gate_records/thresholds.yaml",
                        "service/records/checks.yaml", "gate_records/base.parquet"):  # fmt: skip
            assert _selected(hook, changed), (hook["id"], changed)


def test_a_dataset_bump_blocks_the_gate_until_it_is_approved_again(work: Path) -> None:
    """The data team bumps qa-gold: the exact-match gate is blocked (approval_stale, exit 3)
    naming the version approved and the one recorded; explain's patch, filled in with who
    approved it again and when, clears it (PASS, exit 0)."""
    data = work / "host_records" / "datasets.yaml"
    data.write_text(data.read_text().replace("version: '2026-10'", "version: '2026-11'", 1))
    run_json = work / "run.json"
    run_json.write_text(run_json.read_text().replace('"2026-10"', '"2026-11"'))
    blocked = cli("score", "run.json", "--as-of", "2026-11-30", cwd=work)
    assert blocked.returncode == 3, blocked.stdout + blocked.stderr
    assert (
        "      approval_stale: the approval by @alice on 2026-11-01: dataset version: "
        "approved '2026-10', dataset 'qa-gold' is at '2026-11'"
    ) in blocked.stdout.splitlines()
    patch = cli(
        "explain", "qa/exact_match", "run.json", "--patch", "--as-of", "2026-11-30", cwd=work
    )
    assert patch.returncode == 0, patch.stderr
    assert [
        line
        for line in patch.stdout.splitlines()
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ] == [
        "-    approved_by: '@alice'",
        "-    approved_on: 2026-11-01",
        "+    approved_by: <who approved it>",
        "+    approved_on: <the date of approval, YYYY-MM-DD>",
        "-      dataset_version: '2026-10'",
        "+      dataset_version: 2026-11",
    ]
    edit(
        work / "host_records" / "thresholds.yaml",
        (
            "    approved_by: '@alice'\n    approved_on: 2026-11-01\n    approved_for:\n"
            "      dataset_version: '2026-10'\n\n  qa/helpfulness"
        ),
        (
            "    approved_by: '@bob'\n    approved_on: 2026-11-20\n    approved_for:\n"
            "      dataset_version: '2026-11'\n\n  qa/helpfulness"
        ),
    )
    cleared = cli("score", "run.json", "--as-of", "2026-11-30", cwd=work)
    assert cleared.returncode == 0, cleared.stdout
    assert cleared.stdout.startswith("PASS — 1 gate enforced")


def test_an_expired_approval_blocks_from_the_day_after_its_last(work: Path) -> None:
    """expires_on is the last day: on it the gate passes, the day after it is blocked
    (approval_expired, exit 3); the evaluation date comes from --as-of."""
    edit(
        work / "host_records" / "thresholds.yaml",
        "      dataset_version: '2026-10'\n\n  qa/helpfulness",
        "      dataset_version: '2026-10'\n    expires_on: 2027-05-01\n\n  qa/helpfulness",
    )
    assert cli("score", "run.json", "--as-of", "2027-05-01", cwd=work).returncode == 0
    after = cli("score", "run.json", "--as-of", "2027-05-02T00:30:00Z", cwd=work)
    assert after.returncode == 3
    assert (
        "      approval_expired: the approval by @alice on 2026-11-01 held until 2027-05-01 "
        "(expires_on); the evaluation date is 2027-05-02"
    ) in after.stdout.splitlines()
