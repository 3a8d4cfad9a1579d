"""A closed stdout is normal in a pipe (`evalglass score logs/ | head -1`): the command stops
writing quietly and exits with its own code, not as an internal error."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run_into_closed_pipe(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run `evalglass ARGS` with stdout a pipe whose reading end is already closed, as after
    `head -1` has read its line, so the first write fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, "-m", "evalglass", *args],
            check=False,
            cwd=cwd,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            env={**os.environ, "NO_COLOR": "1"},
        )
    finally:
        os.close(write)


@pytest.fixture
def failing_records(tmp_path: Path) -> Path:
    """The bundled example with its gate's bar raised above the measured value: a fail, exit 1."""
    records = tmp_path / "host_records"
    shutil.copytree(ROOT / "host_records", records)
    path = records / "thresholds.yaml"
    path.write_text(path.read_text().replace("value: 0.85", "value: 0.99", 1))
    return records


@pytest.mark.parametrize("fmt", ["terminal", "json", "markdown"])
def test_score_into_a_closed_pipe_exits_with_the_verdicts_code(
    failing_records: Path, fmt: str
) -> None:
    """The verdict is fail (exit 1) whether or not anyone read the scorecard; nothing on stderr."""
    result = _run_into_closed_pipe(
        ["score", "--records", str(failing_records), str(ROOT / "examples/run.json"),
         "--format", fmt],
        cwd=ROOT,
    )  # fmt: skip
    assert (result.returncode, result.stderr) == (1, "")


@pytest.mark.parametrize(
    "args",
    [["demo"], ["--version"], ["validate", "--records", "host_records"],
     ["doctor", "--records", "host_records"], ["metrics", "examples/run.json"]],
)  # fmt: skip
def test_other_commands_into_a_closed_pipe_exit_quietly(args: list[str]) -> None:
    """Every command that prints to stdout drops the rest quietly and keeps the exit code it has
    when its output is read to the end."""
    read_through = subprocess.run(
        [sys.executable, "-m", "evalglass", *args], check=False, cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120,
    )  # fmt: skip
    result = _run_into_closed_pipe(args, cwd=ROOT)
    assert result.returncode == read_through.returncode
    assert "BrokenPipe" not in result.stderr and "internal error" not in result.stderr
