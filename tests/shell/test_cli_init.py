"""`evalglass init`: a new records folder of commented starter files that load as written, the
next three commands, and never a change to an existing folder."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

from tests.cli_runner import cli
from tests.real_outputs import FIXTURES, RUNS

ROOT = Path(__file__).resolve().parents[2]
FILES = ["datasets.yaml", "metrics.yaml", "policies.yaml", "thresholds.yaml"]


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """An empty project with one eval output in logs/."""
    (tmp_path / "logs").mkdir()
    shutil.copy(ROOT / "examples" / "run.json", tmp_path / "logs" / "run.json")
    return tmp_path


def _next_commands(stdout: str) -> list[list[str]]:
    lines = stdout.splitlines()
    assert lines[1] == "next:"
    return [shlex.split(line.strip())[1:] for line in lines[2:]]


def test_init_from_outputs_writes_a_record_per_metric_that_validates(work: Path) -> None:
    """Each metric the output yields gets a metric record and a proposed threshold; the files
    load (`validate`), are commented, and the three commands printed run as printed."""
    result = cli("init", "logs/", cwd=work)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(
        "created host_records/: metrics.yaml, thresholds.yaml, datasets.yaml, policies.yaml "
        "(5 metrics, all informational; nothing gates until a person promotes it)\n"
    )
    records = work / "host_records"
    assert sorted(p.name for p in records.iterdir()) == FILES
    for name in FILES:
        assert (records / name).read_text().startswith("# Written by `evalglass init`.")
    metrics = (records / "metrics.yaml").read_text()
    for metric in ("qa/exact_match", "qa/helpfulness", "latency/p95_seconds"):
        assert f"  '{metric}':\n    status: informational\n" in metrics
    # The example names two datasets, qa-gold and (for safety/toxicity) toxic-prompts.
    assert "\n  'toxic-prompts':\n" in (records / "datasets.yaml").read_text()
    assert cli("validate", cwd=work).stdout == "ok: 12 records in host_records\n"
    commands = _next_commands(result.stdout)
    assert commands == [["validate"], ["score", "logs"], ["explain", "latency/p95_seconds", "logs"]]
    for argv in commands:
        assert cli(*argv, cwd=work).returncode == 0, argv


def test_init_without_outputs_writes_files_of_comments_that_load(work: Path) -> None:
    """No outputs: every file is comments only (an example of each record), `validate` loads
    zero records, and the next commands name the outputs still to come."""
    result = cli("init", cwd=work)
    assert result.returncode == 0
    records = work / "host_records"
    for name in FILES:
        lines = (records / name).read_text().splitlines()
        assert lines and all(line.startswith("#") for line in lines), name
    assert cli("validate", cwd=work).stdout == "ok: 0 records in host_records\n"
    assert _next_commands(result.stdout) == [
        ["validate"],
        ["metrics", "OUTPUTS"],
        ["score", "OUTPUTS"],
    ]


def test_init_into_another_folder_names_it_in_every_next_command(work: Path) -> None:
    """`--records gate_records` creates that folder, and the commands printed pass it on."""
    result = cli("init", "logs/", "--records", "gate_records", cwd=work)
    assert result.returncode == 0
    assert (work / "gate_records" / "metrics.yaml").is_file()
    for argv in _next_commands(result.stdout):
        assert argv[-2:] == ["--records", "gate_records"]
        assert cli(*argv, cwd=work).returncode == 0, argv


@pytest.mark.parametrize("existing", ["folder", "empty folder", "file"])
def test_init_refuses_an_existing_records_folder(work: Path, existing: str) -> None:
    """A records folder (even an empty one) or a file in its place: exit 4, one line, and it is
    left exactly as it was."""
    target = work / "host_records"
    if existing == "file":
        target.write_text("mine\n")
    else:
        target.mkdir()
        if existing == "folder":
            (target / "metrics.yaml").write_text("metrics:\n")
    before = sorted(p.name for p in target.iterdir()) if target.is_dir() else target.read_text()
    result = cli("init", "logs/", cwd=work)
    assert result.returncode == 4 and result.stdout == ""
    assert result.stderr == (
        "evalglass: host_records: already exists: evalglass init never changes a records "
        "folder; edit its files, or give --records a new folder\n"
    )
    after = sorted(p.name for p in target.iterdir()) if target.is_dir() else target.read_text()
    assert after == before


@pytest.mark.parametrize("run", RUNS)
def test_init_on_a_real_output_leaves_doctor_clean(tmp_path: Path, run: str) -> None:
    """Right after `init`, `doctor` on the same output exits 0 with no error (the pre-commit hook
    passes the first commit): every dataset a metric names has a record."""
    source = FIXTURES / run
    if source.is_dir():
        shutil.copytree(source, tmp_path / "logs")
    else:
        (tmp_path / "logs").mkdir()
        shutil.copy(source, tmp_path / "logs" / source.name)
    assert cli("init", "logs", cwd=tmp_path).returncode == 0
    doctor = cli("doctor", "logs", cwd=tmp_path)
    assert doctor.returncode == 0, doctor.stdout
    assert ": error: " not in doctor.stdout
    assert "; 0 errors, " in doctor.stdout.splitlines()[-1]


def _named_datasets(metrics_yaml: str) -> dict[str, str]:
    """metric id -> the dataset its record names, from init's metrics.yaml."""
    found = re.findall(r"^  '([^']+)':\n    status: informational\n    dataset: '([^']+)'$",
                       metrics_yaml, re.MULTILINE)  # fmt: skip
    return dict(found)


@pytest.mark.parametrize(
    ("run", "datasets"),
    [
        ("inspect/eval-set/logs/eval", {"alpha", "beta"}),
        ("lm-eval/results", {"tasks/arith_gen.jsonl", "tasks/arith_mc.jsonl", "arith_suite"}),
        # promptfoo names no dataset: both providers ran the same tests, one made-up id for them.
        ("promptfoo/results/results.json", {"data-3dfa6f66"}),
    ],
)
def test_init_names_the_datasets_the_outputs_name(
    tmp_path: Path, run: str, datasets: set[str]
) -> None:
    """A metric's record names the dataset its output names (never a promptfoo provider), and
    datasets.yaml has a record, pinned by the output's fingerprint, for each."""
    source = FIXTURES / run
    (tmp_path / "logs").mkdir()
    target = tmp_path / "logs" / source.name
    (shutil.copytree if source.is_dir() else shutil.copy)(source, target)
    assert cli("init", "logs", cwd=tmp_path).returncode == 0
    records = tmp_path / "host_records"
    named = _named_datasets((records / "metrics.yaml").read_text())
    assert set(named.values()) == datasets
    listed = json.loads(cli("metrics", "logs", "--format", "json", cwd=tmp_path).stdout)
    assert set(named) == {m["id"] for m in listed["metrics"]}
    text = (records / "datasets.yaml").read_text()
    for name in datasets:
        assert f"\n  '{name}':\n    status: proposed\n" in text
    for shown in listed["datasets"]:
        if shown["name"] in datasets:
            assert f"    fingerprint: '{shown['fingerprint']}'" in text


def test_init_leaves_out_what_validate_would_refuse_and_says_so(tmp_path: Path) -> None:
    """An output with a metric id "" and values NaN, Infinity and -Infinity: the empty id gets
    no record and the non-finite values no threshold, each said in a `left out:` line; the
    folder validates, and `init`'s next commands run on it."""
    (tmp_path / "run.json").write_text(
        '{"model": "m", "metrics": {"": 0.5, "a/nan": NaN, "a/inf": Infinity, '
        '"a/neg": -Infinity, "a/ok": 0.7}}'
    )
    result = cli("init", "run.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert [line for line in result.stdout.splitlines() if line.startswith("left out:")] == [
        "left out: a metric with an empty id (in 'run.json'): a record needs an id",
        *(
            f"left out: the threshold of 'a/{name}': its value {value} is not a finite number "
            "to start a bar from; write one by hand"
            for name, value in (("inf", "inf"), ("nan", "nan"), ("neg", "-inf"))
        ),
    ]
    validated = cli("validate", cwd=tmp_path)
    assert (validated.returncode, validated.stdout) == (0, "ok: 6 records in host_records\n")
    thresholds = (tmp_path / "host_records" / "thresholds.yaml").read_text()
    assert "'a/ok':" in thresholds and "nan" not in thresholds and "inf" not in thresholds
