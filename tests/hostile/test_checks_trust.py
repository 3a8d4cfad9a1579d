"""Host checks run commands: only those of the trusted records, only under `evalglass run`; and
the cache of their passes is trusted, so what it holds is shown as cached, naming its commit."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from evalglass import __version__
from evalglass.evidence.model import Attempt, AttemptOutcome
from evalglass.records.load import load_records
from evalglass.tools.checks import cache
from tests.hostile.harness import run
from tests.shell.test_cli import EXAMPLE_OUTPUT

BASE_CHECKS = "checks:\n  unit:\n    shell: 'touch ran-base'\n    timeout: 30\n"
# What a pull request's branch makes of checks.yaml: its own command, and a new check.
PR_CHECKS = (
    "checks:\n  unit:\n    shell: 'touch ran-edited'\n    timeout: 30\n"
    "  added:\n    shell: 'touch ran-added'\n    timeout: 30\n"
)
METRICS = "metrics:\n  check/unit:\n    status: gating\n  check/added:\n    status: gating\n"


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@e", *args], cwd=root, check=True,
        capture_output=True,
    )  # fmt: skip


@pytest.fixture
def pull_request(tmp_path: Path) -> Path:
    """A repository whose main holds one check, checked out at a branch that edits its command
    and adds another: the tree a pull request's CI job runs in."""
    root = tmp_path / "repo"
    (root / "host_records").mkdir(parents=True)
    shutil.copy(EXAMPLE_OUTPUT, root / "run.json")
    (root / ".gitignore").write_text("ran-*\n")
    (root / "host_records" / "checks.yaml").write_text(BASE_CHECKS)
    (root / "host_records" / "metrics.yaml").write_text(METRICS)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-qm", "base")
    git(root, "checkout", "-q", "-b", "pr")
    (root / "host_records" / "checks.yaml").write_text(PR_CHECKS)
    git(root, "commit", "-qam", "edit the checks")
    return root


def ran(root: Path) -> list[str]:
    return sorted(p.name for p in root.glob("ran-*"))


def test_with_records_ref_only_the_trusted_commands_run(pull_request: Path) -> None:
    """`run --records-ref main` runs main's command; the branch's edited and added commands
    never start."""
    result = run("run", "run.json", "--records-ref", "main", "--no-cache", cwd=pull_request)
    assert result.returncode in (0, 3), result.stderr
    assert ran(pull_request) == ["ran-base"]


def test_without_records_ref_the_working_trees_commands_run(pull_request: Path) -> None:
    """The contrast the advice rests on: read from the working tree, the branch's commands run."""
    result = run("run", "run.json", "--no-cache", cwd=pull_request)
    assert result.returncode in (0, 3), result.stderr
    assert ran(pull_request) == ["ran-added", "ran-edited"]


@pytest.mark.parametrize(
    "args",
    [
        ("score", "run.json"),
        ("doctor", "run.json"),
        ("explain", "check/unit", "run.json"),
        ("diff", "--base", "main", "run.json"),
    ],
    ids=["score", "doctor", "explain", "diff"],
)
def test_only_run_starts_a_checks_process(pull_request: Path, args: tuple[str, ...]) -> None:
    """`score`, `doctor`, `explain` and `diff` read the checks and start none of them."""
    result = run(*args, cwd=pull_request)
    assert result.returncode in (0, 1, 3), result.stderr
    assert ran(pull_request) == []


def test_a_pass_written_into_the_cache_folder_is_taken_and_shown_as_cached(
    tmp_path: Path,
) -> None:
    """The cache folder is trusted: an entry someone wrote there for a check that fails live is
    read as its pass. Every format shows it as cached, with the commit the entry names, never as
    a live run; `--no-cache` runs the check and fails."""
    root = tmp_path / "repo"
    (root / "host_records").mkdir(parents=True)
    shutil.copy(EXAMPLE_OUTPUT, root / "run.json")
    (root / "host_records" / "checks.yaml").write_text(
        "checks:\n  unit:\n    run: 'false'\n    timeout: 30\n"
    )
    (root / "host_records" / "metrics.yaml").write_text(
        "metrics:\n  check/unit:\n    status: gating\n"
    )
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-qm", "x")
    check = load_records(root / "host_records").checks["unit"]
    state = cache.repo_state(root)
    assert state is not None
    forged = "f" * 40
    cache.Store(tmp_path / "cache").put(
        cache.key(check, __version__, state),
        Attempt(outcome=AttemptOutcome.PASSED, command="false", found="exit 0", exit_code=0),
        forged,
    )
    args = ("run", "run.json", "--format", "json", "--cache-dir", str(tmp_path / "cache"))
    taken = run(*args, cwd=root)
    assert taken.returncode == 0, taken.stderr
    card = next(m for m in json.loads(taken.stdout)["metrics"] if m["id"] == "check/unit")
    assert card["gate"]["result"] == "pass"
    assert card["attempts"][0]["cached"]["commit"] == forged
    for shown in ("terminal", "markdown", "html", "junit", "github"):
        text = run(*args[:2], "--format", shown, *args[4:], cwd=root).stdout
        assert forged[:12] in text, shown
    live = run("run", "run.json", "--no-cache", cwd=root)
    assert live.returncode == 1, live.stderr
