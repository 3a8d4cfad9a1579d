"""`evalglass COMMAND` builds only that command before running it; what a user sees is what the
whole application shows: the same output, help and exit code, and a mistyped command is still
answered with the commands it may mean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


# The whole application, every command built, run as the console script runs `main`.
_WHOLE = "from evalglass.shell.cli import app; app(prog_name='evalglass')"


def _console(*args: str, whole: bool = False) -> subprocess.CompletedProcess[str]:
    start = ["-c", _WHOLE] if whole else ["-m", "evalglass"]
    return subprocess.run(
        [sys.executable, *start, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "COLUMNS": "80"},
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    "args",
    [
        ("score", "examples/run.json", "--records", "host_records"),
        ("score", "examples/run.json", "--records", "host_records", "--format", "markdown"),
        ("score", "--help"),
        ("doctor", "--records", "host_records"),
    ],
    ids=["score", "markdown", "help", "doctor"],
)
def test_a_command_run_alone_shows_what_the_whole_app_shows(args: tuple[str, ...]) -> None:
    """The command line's output and exit code equal the whole application's for the same
    arguments."""
    alone = _console(*args)
    whole = _console(*args, whole=True)
    assert (alone.stdout, alone.stderr, alone.returncode) == (
        whole.stdout,
        whole.stderr,
        whole.returncode,
    )


def test_a_mistyped_command_is_still_answered_with_the_commands_it_may_mean() -> None:
    """`evalglass scor` exits 2 naming `score`: the whole app, every command, answers it."""
    result = _console("scor")
    assert result.returncode == 2
    assert "No such command 'scor'. Did you mean 'score'" in result.stderr
