"""`init` then `explain --patch`: on the records `init` wrote for a real output, every patch
`explain` prints for every metric applies with `git apply`, and the records it leaves load once
its placeholders are filled in (until then `validate` names each placeholder at its own line)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.cli_runner import cli
from tests.real_outputs import FIXTURES, RUNS

# What a person writes in place of each placeholder, by field.
FILLED = {
    "approved_by": "'@alice'", "approved_on": "2026-11-01", "version": "'2026-10'",
    "dataset_version": "'2026-10'", "model": "judge/model-z", "judge": "judge-z",
    "value": "0.5", "n": "100", "op": "'>='",
}  # fmt: skip
_PLACEHOLDER = re.compile(r"^( *)(\w+): <.*>$", re.MULTILINE)
_REFUSED = re.compile(r"evalglass: (host_records/\w+\.yaml):(\d+): (\w+): <.*> is a placeholder")


def git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`git ARGS` in `repo`, its output captured."""
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)


def initialised(tmp_path: Path, run: str) -> Path:
    """A git repository holding the output in logs/ and the records `init` wrote, committed."""
    source = FIXTURES / run
    logs = tmp_path / "logs"
    if source.is_dir():
        shutil.copytree(source, logs)
    else:
        logs.mkdir()
        shutil.copy(source, logs / source.name)
    made = cli("init", "logs", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    committed = git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
    assert committed.returncode == 0, committed.stderr
    return tmp_path


def fill(folder: Path) -> None:
    """Every placeholder replaced with a value a person might choose."""
    for path in folder.glob("*.yaml"):
        text = _PLACEHOLDER.sub(
            lambda m: f"{m.group(1)}{m.group(2)}: {FILLED[m.group(2)]}", path.read_text()
        )
        path.write_text(text)


@pytest.mark.parametrize("run", RUNS)
def test_every_patch_applies_to_inits_records_and_loads_once_filled(
    tmp_path: Path, run: str
) -> None:
    """For each metric: the patch applies; `validate` then refuses only placeholders, each at the
    line that holds it; filled in, the records load."""
    repo = initialised(tmp_path, run)
    listed = cli("metrics", "logs", "--format", "json", cwd=repo)
    metrics = [m["id"] for m in json.loads(listed.stdout)["metrics"]]
    assert metrics
    for metric in metrics:
        printed = cli("explain", metric, "logs", "--patch", cwd=repo)
        assert printed.returncode == 0, (metric, printed.stderr)
        (tmp_path / "edits.patch").write_text(printed.stdout)
        applied = git(repo, "apply", str(tmp_path / "edits.patch"))
        assert applied.returncode == 0, (metric, applied.stderr, printed.stdout)
        checked = cli("validate", cwd=repo)
        if checked.returncode != 0:
            assert checked.returncode == 4
            refused = [line for line in checked.stderr.splitlines() if "placeholder" in line]
            assert refused, checked.stderr
            for line in refused:
                found = _REFUSED.match(line)
                assert found is not None, line
                path, number, field = found.groups()
                held = (repo / path).read_text().split("\n")[int(number) - 1]
                assert held.lstrip().startswith(f"{field}: <"), (line, held)
        fill(repo / "host_records")
        filled = cli("validate", cwd=repo)
        assert filled.returncode == 0, (metric, filled.stderr, printed.stdout)
        git(repo, "checkout", "-q", "--", ".")
