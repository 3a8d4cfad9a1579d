"""Which records folder a command uses when none is named: `./host_records`, else the nearest one
above, up to the repository's top, named on stderr; never one above a folder outside a
repository."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from evalglass.shell.commands.options import found_records
from tests.cli_runner import cli

ROOT = Path(__file__).resolve().parents[2]
NOTE = "evalglass: records: ../../host_records (the nearest host_records/ above)\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository with host_records/ at its top, committed, and an output two folders
    down."""
    root = tmp_path / "project"
    shutil.copytree(ROOT / "host_records", root / "host_records")
    (root / "evals" / "qa").mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "run.json", root / "evals" / "qa" / "run.json")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run([*git, "-C", str(root), "add", "."], check=True)
    subprocess.run([*git, "-C", str(root), "commit", "-qm", "records"], check=True)
    return root


def test_a_subfolder_of_the_repository_uses_the_records_at_its_top(project: Path) -> None:
    """From evals/qa/, `score` and `validate` use ../../host_records and say so on stderr."""
    here = project / "evals" / "qa"
    scored = cli("score", "run.json", cwd=here)
    assert scored.returncode == 0, scored.stderr
    assert scored.stdout.startswith("PASS — 1 gate enforced")
    assert scored.stderr == NOTE
    checked = cli("validate", cwd=here)
    assert checked.stdout == "ok: 17 records in ../../host_records\n"
    at_ref = cli("score", "run.json", "--records-ref", "HEAD", cwd=here)
    assert at_ref.returncode == 0, at_ref.stderr


def test_the_scorecard_names_the_records_folder_it_used(project: Path) -> None:
    """Found above or named, read from the working tree or at a ref: the JSON scorecard, the
    terminal card and the pull-request comment name the folder the records came from."""
    here = project / "evals" / "qa"
    found = json.loads(cli("score", "run.json", "--format", "json", cwd=here).stdout)
    assert (found["records_folder"], found["records_at"]) == ("../../host_records", None)
    assert "\nrecords: ../../host_records\n" in cli("score", "run.json", cwd=here).stdout
    comment = cli("score", "run.json", "--format", "markdown", cwd=here).stdout
    assert "\nRecords: `../../host_records`\n" in comment
    named = cli(
        "score",
        "evals/qa/run.json",
        "--records",
        "host_records",
        "--format",
        "json",
        "--records-ref",
        "HEAD",
        cwd=project,
    )
    card = json.loads(named.stdout)
    assert card["records_folder"] == "host_records"
    assert card["records_at"]["ref"] == "HEAD" and len(card["records_at"]["commit"]) == 40


def test_the_records_here_come_first_and_a_named_folder_is_never_looked_for(
    project: Path,
) -> None:
    """`./host_records` wins over one above, silently; `--records DIR` is used as given."""
    here = project / "evals" / "qa"
    (here / "host_records").mkdir()
    local = cli("validate", cwd=here)
    assert (local.stdout, local.stderr) == ("ok: 0 records in host_records\n", "")
    named = cli("validate", "--records", "elsewhere", cwd=here)
    assert named.returncode == 4 and "elsewhere: host records folder does not exist" in named.stderr


def test_outside_a_repository_only_the_folder_here_counts(tmp_path: Path) -> None:
    """No .git above: a host_records/ in a parent folder is not taken (it could be anyone's)."""
    shutil.copytree(ROOT / "host_records", tmp_path / "host_records")
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert found_records(tmp_path / "a" / "b") == Path("host_records")
    result = cli("validate", cwd=tmp_path / "a" / "b")
    assert result.returncode == 4
    assert "create one with `evalglass init`, or name yours with --records DIR" in result.stderr


def test_the_search_stops_at_the_repositorys_top(tmp_path: Path) -> None:
    """A host_records/ above the repository's top is outside it, and is not taken."""
    shutil.copytree(ROOT / "host_records", tmp_path / "host_records")
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "sub").mkdir()
    assert found_records(repo / "sub") == Path("host_records")
    (repo / "host_records").mkdir()
    assert found_records(repo / "sub") == Path("../host_records")
