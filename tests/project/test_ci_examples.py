"""The CI recipes in docs stay valid: YAML that parses, and evalglass commands the CLI accepts."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import strictyaml
import typer

from evalglass.shell.cli import app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {
    "github": ROOT / "examples/ci/github-workflow.yml",
    "gitlab": ROOT / "examples/ci/gitlab-ci.yml",
}


def scripts(name: str) -> list[str]:
    doc = strictyaml.dirty_load(EXAMPLES[name].read_text(), allow_flow_style=True).data
    if name == "github":
        return [
            step["run"] for job in doc["jobs"].values() for step in job["steps"] if "run" in step
        ]
    return [line for job in doc.values() for line in job["script"]]


def evalglass_commands(script: str) -> list[list[str]]:
    commands = []
    for line in script.splitlines():
        line = re.sub(r"\$\{\{[^}]*\}\}", "X", line.strip())
        line = re.sub(r"\$[A-Z_]+", "X", line)
        if not line.startswith("evalglass "):
            continue
        words = shlex.split(line.split(" #")[0])
        for stop in (">", ">>", "|", "&&", ";"):
            if stop in words:
                words = words[: words.index(stop)]
        commands.append(words[1:])
    return commands


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_recipe_commands_parse_with_the_real_cli(name: str) -> None:
    """Every evalglass command in the recipe is a real command with real options."""
    commands = [c for s in scripts(name) for c in evalglass_commands(s)]
    assert {c[0] for c in commands} == {"score", "diff"}
    group = typer.main.get_command(app)
    for words in commands:
        command = group.commands[words[0]]
        command.make_context(words[0], list(words[1:]))  # raises on an unknown option


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_docs_show_the_tested_recipe(name: str) -> None:
    """docs/ci.md embeds exactly the recipe files the test checks."""
    assert EXAMPLES[name].read_text() in (ROOT / "docs/ci.md").read_text()


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", *args],
        cwd=cwd, check=True, capture_output=True,
    )  # fmt: skip


def test_gitlab_job_writes_every_report_on_a_loosening_merge_request(tmp_path: Path) -> None:
    """The GitLab job's script lines, run as GitLab runs them (one bash under `set -eo pipefail`,
    so a failing line stops the job), on a merge request that loosens a threshold: the JUnit
    report and every scorecard are written, and the job fails with the diff's code (1), the
    score having passed. The records are the base commit's, by id, though the merge request's
    own code pointed the target branch at itself."""
    origin, work = tmp_path / "origin.git", tmp_path / "work"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True)
    work.mkdir()
    shutil.copytree(ROOT / "host_records", work / "host_records")
    _git(work, "init", "-q", "-b", "main")
    _git(work, "add", ".")
    _git(work, "commit", "-qm", "records")
    _git(work, "remote", "add", "origin", str(origin))
    _git(work, "push", "-q", "origin", "main")
    base = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=work, capture_output=True, text=True, check=True
    ).stdout.strip()
    _git(work, "checkout", "-q", "-b", "loosen")
    thresholds = work / "host_records" / "thresholds.yaml"
    thresholds.write_text(thresholds.read_text().replace("value: 0.85", "value: 0.8", 1))
    _git(work, "commit", "-qam", "loosen")
    # Stand-ins for the lines that install evalglass and run the evals: this interpreter's
    # evalglass is on PATH, and `inspect eval` leaves the bundled example run in logs/.
    stubs = tmp_path / "bin"
    stubs.mkdir()
    (stubs / "pip").write_text("#!/bin/sh\nexit 0\n")
    # The merge request's own eval code also points the target branch's name at its own
    # commit: the job reads the base commit by id, so that changes nothing.
    (stubs / "inspect").write_text(
        f"#!/bin/sh\nmkdir -p logs && cp '{ROOT / 'examples' / 'run.json'}' logs/\n"
        "git push -q -f origin HEAD:main && git fetch -q origin main\n"
    )
    for stub in stubs.iterdir():
        stub.chmod(0o755)
    lines = scripts("gitlab")
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", "\n".join(lines)],
        cwd=work,
        env={
            "PATH": f"{stubs}:{Path(sys.executable).parent}:/usr/bin:/bin",
            "HOME": str(tmp_path),
            "CI_MERGE_REQUEST_DIFF_BASE_SHA": base,
        },
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "evalglass score exit 0, diff exit 1" in done.stdout
    for name in ("evalglass.xml", "scorecard.md", "scorecard.json", "scorecard.html"):
        assert (work / name).is_file(), name
    assert "threshold\\_loosened" in (work / "records-diff.md").read_text()
    report = (work / "evalglass.xml").read_text()
    assert report.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')
    doc = strictyaml.dirty_load(EXAMPLES["gitlab"].read_text(), allow_flow_style=True).data
    [job] = doc.values()
    assert job["artifacts"]["when"] == "always"
    assert job["artifacts"]["reports"]["junit"] == "evalglass.xml"
    assert set(job["artifacts"]["paths"]) == {
        "scorecard.md", "scorecard.json", "scorecard.html", "records-diff.md",
    }  # fmt: skip


def _step(name: str) -> str:
    doc = strictyaml.dirty_load(EXAMPLES["github"].read_text(), allow_flow_style=True).data
    steps = [step for job in doc["jobs"].values() for step in job["steps"]]
    [found] = [step for step in steps if step.get("name") == name]
    return str(found["run"])


def test_manual_workflow_comment_opens_with_the_loosening_and_links_artifacts(
    tmp_path: Path,
) -> None:
    """The manual workflow's diff and comment steps, run as the runner runs them, on a pull
    request that loosens a threshold: the comment's first line after the marker says the job
    fails for the loosening, and it ends linking to the run's artifacts; with no comment body
    (an earlier step failed) it says the run did not finish."""
    origin, work = tmp_path / "origin.git", tmp_path / "work"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True)
    work.mkdir()
    shutil.copytree(ROOT / "host_records", work / "host_records")
    (work / "logs").mkdir()
    shutil.copy(ROOT / "examples" / "run.json", work / "logs" / "run.json")
    _git(work, "init", "-q", "-b", "main")
    _git(work, "add", ".")
    _git(work, "commit", "-qm", "records")
    _git(work, "remote", "add", "origin", str(origin))
    _git(work, "push", "-q", "origin", "main")
    _git(work, "fetch", "-q", "origin")
    thresholds = work / "host_records" / "thresholds.yaml"
    thresholds.write_text(thresholds.read_text().replace("value: 0.85", "value: 0.8", 1))
    (work / "scorecard.md").write_text("<!-- evalglass-scorecard -->\n**PASS — 1 gate**\n")
    stubs = tmp_path / "bin"
    stubs.mkdir()
    (stubs / "gh").write_text(f'#!/bin/sh\necho "$@" >> "{tmp_path}/gh.log"\n')
    (stubs / "gh").chmod(0o755)
    env = {
        "PATH": f"{stubs}:{Path(sys.executable).parent}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        # The diff step compares with the pinned base commit, as the workflow passes it.
        "BASE_SHA": subprocess.run(
            ["git", "rev-parse", "origin/main"],
            cwd=work,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip(),
        "GITHUB_OUTPUT": str(tmp_path / "output"),
        "GITHUB_REPOSITORY": "acme/evals",
        "PR": "7",
        "RUN_URL": "https://github.com/acme/evals/actions/runs/42",
    }

    def step(name: str) -> None:
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", _step(name)],
            cwd=work, env=env, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr

    step("Show what this pull request changes in who may gate")
    step("Post or update the one sticky comment")
    lines = (work / "comment.md").read_text().splitlines()
    assert lines[:2] == [
        "<!-- evalglass-scorecard -->",
        (
            "**FAIL: the host records loosen a gate without a new approval (fail-on-loosen).** "
            "The score alone:"
        ),
    ]
    assert lines[3] == "**PASS — 1 gate**"
    assert lines[-1] == (
        "The HTML, JSON and JUnit scorecards are this run's artifact `evalglass`: "
        "[artifacts](https://github.com/acme/evals/actions/runs/42#artifacts)."
    )
    assert "pr comment 7 --body-file comment.md" in (tmp_path / "gh.log").read_text()
    (work / "comment.md").unlink()
    step("Post or update the one sticky comment")
    assert (work / "comment.md").read_text().splitlines()[1] == (
        "**evalglass did not finish**: no result for this commit."
    )
