"""End to end on real files: the installed `evalglass` command in a subprocess where the process
is what a test shows (the README's commands, exit codes, one-line errors with no traceback, the
environment), and in this process (tests/cli_runner.py) where a subprocess would prove no more."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_runner import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_RECORDS = ROOT / "host_records"
EXAMPLE_OUTPUT = ROOT / "examples" / "run.json"
EVALGLASS = Path(sys.executable).parent / "evalglass"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    return subprocess.run(
        [str(EVALGLASS), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A copy of the bundled example, so a test may edit records freely."""
    shutil.copytree(EXAMPLE_RECORDS, tmp_path / "host_records")
    shutil.copy(EXAMPLE_OUTPUT, tmp_path / "run.json")
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_example_passes_with_one_gate(work: Path) -> None:
    """The bundled example: one gate enforced and passed, the rest informational, its two gating
    checks not run (score starts no process), exit 0, under the example's success policy, which
    the verdict line names."""
    result = run("score", "run.json", cwd=work)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == (
        "PASS — 1 gate enforced, all passed; 4 informational; 2 gating checks not run; "
        "success policy: success.yaml"
    )
    assert result.stdout.splitlines()[3:5] == [
        "records: host_records",
        (
            "success policy (success.yaml): every gate must pass, at least 1 gate, must pass: "
            "qa/exact_match"
        ),
    ]
    assert "would block once promoted: policy_not_permitted" in result.stdout


def test_demo_runs_from_the_installed_package(tmp_path: Path) -> None:
    """`evalglass demo` works from any folder: templates and example ship in the package."""
    result = run("demo", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("PASS — 1 gate enforced")


def test_failing_gate_exits_1(work: Path) -> None:
    """A can_gate metric whose bound misses the threshold fails the build."""
    edit(work / "host_records/thresholds.yaml", "value: 0.85", "value: 0.95")
    result = run("score", "run.json", cwd=work)
    assert result.returncode == 1
    assert result.stdout.startswith("FAIL — 1 of 1 enforced gate failed")
    assert "lower bound 0.8859 is not >= 0.95" in result.stdout


def test_blocked_gate_exits_3(work: Path) -> None:
    """An authorized metric on a retired dataset is blocked: 'we cannot say' fails CI with 3."""
    edit(
        work / "host_records/datasets.yaml",
        "status: validated\n    version: '2026-10'",
        "status: retired\n    version: '2026-10'",
    )
    result = run("score", "run.json", "--format", "json", cwd=work)
    assert result.returncode == 3
    doc = json.loads(result.stdout)
    assert doc["verdict"] == "blocked" and doc["exit_code"] == 3
    card = next(m for m in doc["metrics"] if m["id"] == "qa/exact_match")
    assert card["authority"]["outcome"] == "blocked"
    assert [r["code"] for r in card["authority"]["reasons"]] == ["dataset_retired"]


def test_deleting_thresholds_takes_the_pass_back(work: Path) -> None:
    """No memory between runs: without thresholds.yaml nothing gates, and it says so first. The
    example's success policy names qa/exact_match, so that is blocked; without the policy, it
    is informational."""
    assert cli("score", "run.json", cwd=work).returncode == 0
    (work / "host_records/thresholds.yaml").unlink()
    result = cli("score", "run.json", cwd=work)
    assert result.returncode == 3
    assert result.stdout.startswith(
        "BLOCKED — we cannot say: must-pass qa/exact_match informational (success.yaml)"
    )
    (work / "host_records/success.yaml").unlink()
    result = cli("score", "run.json", cwd=work)
    assert result.returncode == 0
    assert result.stdout.startswith("NO ACTIVE GATE — nothing was enforced")
    assert cli("score", "run.json", "--require-gate", cwd=work).returncode == 5


def test_the_success_policy_asks_for_gates_itself(work: Path) -> None:
    """min_gates is the host's own --require-gate: too few gates exit 5 without the flag, and
    the first line says what the policy asked for."""
    (work / "host_records/success.yaml").write_text("success:\n  min_gates: 2\n")
    result = cli("score", "run.json", cwd=work)
    assert result.returncode == 5
    assert result.stdout.splitlines()[0] == (
        "TOO FEW GATES — 1 gate enforced, 1 passed; success.yaml asks for at least 2 gates; "
        "4 informational; 2 gating checks not run"
    )
    card = json.loads(cli("score", "run.json", "--format", "json", cwd=work).stdout)
    assert (card["verdict"], card["exit_code"]) == ("informational", 5)
    assert card["policy"] == {
        "source": "success.yaml",
        "mode": "all",
        "min_gates": 2,
        "min_pass_rate": None,
        "must_pass": [],
        "max_attempts": 2,
        "decided_by": "min_gates",
        "enforced": 1,
        "passed": 1,
        "pass_rate": 1.0,
        "tolerated": [],
        "unmet": [],
    }


def test_a_percentage_policy_lists_what_it_tolerated(work: Path) -> None:
    """In percentage mode a failing gate below the bar's share passes the run, and is named in
    the verdict line and the JSON, never hidden."""
    # Approved, the refusal-rate bar fails: its upper bound 0.0535 is above 0.05.
    edit(
        work / "host_records/thresholds.yaml",
        "approval: proposed",
        "approval: approved\n    approved_by: '@bob'\n    approved_on: 2026-11-02\n"
        "    approved_for:\n      dataset_version: '2026-10'",
    )
    (work / "host_records/success.yaml").write_text(
        "success:\n  mode: percentage\n  min_pass_rate: 0.5\n"
    )
    result = cli("score", "run.json", cwd=work)
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[0] == (
        "PASS — 1 of 2 gates passed (50%, at least the 50% success.yaml asks for); tolerated: "
        "qa/refusal_rate (fail); 3 informational; 2 gating checks not run"
    )
    card = json.loads(cli("score", "run.json", "--format", "json", cwd=work).stdout)
    assert card["policy"]["tolerated"] == [{"id": "qa/refusal_rate", "status": "fail"}]
    (work / "host_records/success.yaml").write_text(
        "success:\n  mode: percentage\n  min_pass_rate: 0.5\n  must_pass:\n    - qa/refusal_rate\n"
    )
    result = cli("score", "run.json", cwd=work)
    assert result.returncode == 1
    assert result.stdout.startswith("FAIL — must-pass qa/refusal_rate fail (success.yaml)")


def test_non_finite_value_is_unsound(work: Path) -> None:
    """Python-written NaN is read, and a gate on it is unsound (blocked), never a pass."""
    (work / "run.json").write_text('{"model": "m", "metrics": {"qa/exact_match": NaN}}')
    result = cli("score", "run.json", "--format", "json", cwd=work)
    assert result.returncode == 3
    card = next(m for m in json.loads(result.stdout)["metrics"] if m["id"] == "qa/exact_match")
    assert card["gate"]["result"] == "unsound"
    assert "value_not_finite" in [r["code"] for r in card["gate"]["reasons"]]


def test_json_is_byte_identical_across_runs(work: Path) -> None:
    """The same inputs, evaluated as of the same time, give the same bytes."""
    args = ("score", "run.json", "--format", "json", "--as-of", "2026-11-30")
    first = cli(*args, cwd=work).stdout
    second = cli(*args, cwd=work).stdout
    assert first == second and json.loads(first)["schema_version"] == 1
    assert json.loads(first)["evaluated_at"] == "2026-11-30T00:00:00Z"


def test_evaluated_at_defaults_to_now_in_utc(work: Path) -> None:
    """Without --as-of, the JSON records the clock's time in UTC, to the second."""
    import datetime as dt

    before = dt.datetime.now(dt.UTC).replace(microsecond=0)
    doc = json.loads(cli("score", "run.json", "--format", "json", cwd=work).stdout)
    after = dt.datetime.now(dt.UTC)
    assert doc["evaluated_at"].endswith("Z") and len(doc["evaluated_at"]) == 20
    assert before <= dt.datetime.fromisoformat(doc["evaluated_at"]) <= after


@pytest.mark.parametrize("bad", ["yesterday", "2026-13-01", "2026-02-30", "30/11/2026", ""])
def test_bad_as_of_is_a_one_line_usage_error(work: Path, bad: str) -> None:
    """A malformed or impossible --as-of exits 2 with one line naming the option, nothing else."""
    result = cli("score", "run.json", "--as-of", bad, cwd=work)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("evalglass: --as-of ")


def test_markdown_scorecard(work: Path) -> None:
    """The Markdown scorecard opens with the verdict and tables the deciding gate."""
    result = cli("score", "run.json", "--format", "markdown", cwd=work)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert (
        lines[0] == "<!-- evalglass-scorecard -->"
    )  # hidden: what a workflow finds its comment by
    assert lines[1] == (
        "**PASS — 1 gate enforced, all passed; 4 informational; 2 gating checks not run; "
        "success policy: success.yaml**"
    )
    assert any(line.startswith("| **PASS** | `qa/exact_match` |") for line in lines)


def test_output_file_is_written_and_records_are_refused(work: Path) -> None:
    """--output writes the scorecard; a path inside the records folder is refused (exit 2)."""
    result = cli("score", "run.json", "--format", "json", "--output", "card.json", cwd=work)
    assert result.returncode == 0 and result.stdout == ""
    assert json.loads((work / "card.json").read_text())["verdict"] == "pass"
    before = sorted(p.name for p in (work / "host_records").iterdir())
    result = cli("score", "run.json", "--output", "host_records/card.md", cwd=work)
    assert result.returncode == 2
    assert "never writes" in result.stderr
    assert sorted(p.name for p in (work / "host_records").iterdir()) == before


def test_output_never_overwrites_an_eval_output(work: Path) -> None:
    """Writing the scorecard over the eval output it read is refused."""
    original = (work / "run.json").read_bytes()
    result = cli("score", "run.json", "--output", "run.json", cwd=work)
    assert result.returncode == 2
    assert (work / "run.json").read_bytes() == original


INPUT_ERRORS = [
    (
        "datasets.yaml",
        "datasets:\n  qa-gold:\n    status: validatd\n    version: '2026-10'\n",
        (
            "evalglass: host_records/datasets.yaml:3: status: 'validatd' is not one of proposed, "
            "validated, retired (did you mean 'validated'?)"
        ),
    ),
    (
        "thresholds.yaml",
        "thresholds:\n  qa/exact_match:\n    op: >=\n    value: 0.85\n    approval: proposed\n",
        "evalglass: host_records/thresholds.yaml:3: op: '>=' must be quoted (write op: '>=')",
    ),
    (
        "metrics.yaml",
        "metrics:\n  a: {status: gating}\n",
        (
            "evalglass: host_records/metrics.yaml:2: metric 'a': flow style is not allowed: "
            "write one 'key: value' per line"
        ),
    ),
    (
        "metrics.yaml",
        "metrics:\n  a:\n    status: gating\n    dataset: d\n    dataset: e\n",
        (
            "evalglass: host_records/metrics.yaml:5: duplicate field 'dataset' in metric 'a' "
            "(first on line 4)"
        ),
    ),
    (
        "metrics.yaml",
        "metrics:\n  a:\n    status: gating\n    dataset: d\n    min_samples: many\n",
        "evalglass: host_records/metrics.yaml:5: min_samples: 'many' is not an integer",
    ),
    (
        "thresholds.yaml",
        "thresholds:\n  a:\n    op: '>='\n    value: 0.8\n    approval: approved\n",
        (
            "evalglass: host_records/thresholds.yaml:2: threshold 'a' is approved but is missing "
            "required field 'approved_by'"
        ),
    ),
]


@pytest.mark.parametrize(("name", "text", "message"), INPUT_ERRORS)
def test_record_errors_are_one_line_exit_4(work: Path, name: str, text: str, message: str) -> None:
    """A bad record: exit 4, one line naming file and line, nothing on stdout, no traceback."""
    (work / "host_records" / name).write_text(text)
    result = run("score", "run.json", "--output", "card.json", cwd=work)
    assert result.returncode == 4
    assert result.stderr.splitlines() == [message]
    assert result.stdout == ""
    assert not (work / "card.json").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"metrics": {"a": 0.9', "evalglass: bad.json:1: not valid JSON: Expecting"),
        ("", "evalglass: bad.json: not a recognised eval output"),
        (
            '{"metrics": {"a": "high"}}',
            "evalglass: bad.json: metrics.a: expected a number or an object",
        ),
        (
            '{"metrics": {"a": {"scores": [1, "x"]}}}',
            "evalglass: bad.json: metrics.a.scores: expected a list of numbers",
        ),
        (
            '{"metrics": {"a": {"value": 1, "n": -3}}}',
            "evalglass: bad.json: metrics.a.n: expected a whole number >= 0",
        ),
        ('{"model": 3, "metrics": {}}', "evalglass: bad.json: model: expected a string"),
    ],
)
def test_output_errors_are_one_line_exit_4(work: Path, content: str, message: str) -> None:
    """A malformed eval output: exit 4 and one line naming the file."""
    (work / "bad.json").write_text(content)
    result = cli("score", "bad.json", cwd=work)
    assert result.returncode == 4
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(message)
    assert result.stdout == ""


def test_metric_measured_twice_names_both_files(work: Path) -> None:
    """Two outputs measuring one metric (with no run times to order them) is an input error."""
    shutil.copy(work / "run.json", work / "again.json")
    result = cli("score", "run.json", "again.json", cwd=work)
    assert result.returncode == 4
    assert "again.json" in result.stderr and "run.json" in result.stderr
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("score", "missing.json"), "evalglass: missing.json: no such file or folder"),
        (("score", "run.json", "--records", "nowhere"), "evalglass: nowhere"),
    ],
)
def test_missing_inputs_exit_4(work: Path, args: tuple[str, ...], message: str) -> None:
    """A missing output or records folder is an input error, never an empty pass."""
    result = run(*args, cwd=work)
    assert result.returncode == 4
    assert result.stderr.startswith(message)


def test_usage_errors_exit_2(work: Path) -> None:
    """A bad command line exits 2."""
    assert run("score", "run.json", "--format", "yaml", cwd=work).returncode == 2
    assert run("frobnicate", cwd=work).returncode == 2


def test_version_and_module_entry_point(work: Path) -> None:
    """`evalglass --version` and `python -m evalglass --version` print the same version."""
    from evalglass import __version__

    assert run("--version", cwd=work).stdout == f"evalglass {__version__}\n"
    module = subprocess.run(
        [sys.executable, "-m", "evalglass", "--version"],
        capture_output=True,
        text=True,
        cwd=work,
        check=False,
    )
    assert module.stdout == f"evalglass {__version__}\n"


def test_write_several_formats_while_the_terminal_shows_the_scorecard(work: Path) -> None:
    """--write writes each format atomically; stdout still has the scorecard; exit unchanged."""
    (work / "out").mkdir()
    result = cli(
        "score",
        "run.json",
        "--write",
        "markdown=out/card.md",
        "--write",
        "json=card.json",
        "--write",
        "junit=card.xml",
        cwd=work,
    )
    assert result.returncode == 0
    assert result.stdout.startswith("PASS — 1 gate enforced")
    assert json.loads((work / "card.json").read_text())["verdict"] == "pass"
    assert "qa/exact_match" in (work / "out/card.md").read_text()
    assert (work / "card.xml").read_text().startswith("<?xml")
    assert not [p for p in work.rglob(".*.tmp")]  # no temporary file left behind


def test_bad_write_is_a_usage_error_before_any_work(work: Path) -> None:
    """A malformed --write, or two writes to one file, exit 2 and write nothing."""
    assert cli("score", "run.json", "--write", "yaml=x.yaml", cwd=work).returncode == 2
    result = cli(
        "score", "run.json", "--write", "json=a.json", "--write", "markdown=a.json", cwd=work
    )
    assert result.returncode == 2
    assert not (work / "a.json").exists()


def test_github_format_appends_to_the_step_summary(work: Path) -> None:
    """With --format github, annotations go to stdout and the Markdown is appended to the summary."""
    summary = work / "summary.md"
    summary.write_text("earlier step\n")
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "GITHUB_STEP_SUMMARY": str(summary)}
    result = subprocess.run(
        [str(EVALGLASS), "score", "run.json", "--format", "github"],
        cwd=work,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0
    assert result.stdout.startswith("::notice")
    text = summary.read_text()
    assert text.startswith("earlier step\n") and "qa/exact_match" in text


def test_keep_samples_makes_a_paired_baseline(work: Path) -> None:
    """A scorecard saved with --keep-samples serves as a baseline, and the gate compares paired."""
    result = cli(
        "score", "run.json", "--format", "json", "--keep-samples", "--output", "base.json", cwd=work
    )
    assert result.returncode == 0
    shutil.move(work / "base.json", work / "host_records/base.json")
    (work / "host_records/baselines.yaml").write_text(
        "baselines:\n  qa/exact_match:\n    scorecard: base.json\n    dataset_version: '2026-10'\n"
    )
    edit(
        work / "host_records/thresholds.yaml",
        "    value: 0.85\n",
        "    value: 0.85\n    max_drop: 0.02\n",
    )
    doc = json.loads(cli("score", "run.json", "--format", "json", cwd=work).stdout)
    card = next(m for m in doc["metrics"] if m["id"] == "qa/exact_match")
    assert card["gate"]["result"] == "pass"
    assert card["gate"]["change"]["paired"] == 200
    assert card["gate"]["change"]["method"] == "newcombe"
