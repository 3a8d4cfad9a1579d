"""Each command's `--help` ends with examples that work as written, and shell completion is on."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from evalglass.shell.cli import EXAMPLES, app
from tests.cli_runner import cli

GROUP = typer.main.get_command(app)
CONTEXT = GROUP.context_class(GROUP, info_name="evalglass")
NAMES = sorted(GROUP.list_commands(CONTEXT))  # type: ignore[attr-defined]


def test_every_command_has_examples() -> None:
    """The examples table covers exactly the commands the CLI has."""
    assert set(EXAMPLES) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_help_ends_with_two_or_three_examples_that_parse(name: str, tmp_path: Path) -> None:
    """`evalglass NAME --help` ends with an "Examples:" block of 2 or 3 commands, each of which
    the command line accepts."""
    result = cli(name, "--help", cwd=tmp_path)
    assert result.returncode == 0
    tail = result.stdout.rstrip("\n").split("\n  Examples:\n\n", 1)[1].splitlines()
    lines = [line.strip() for line in tail]
    assert 2 <= len(lines) <= 3 and lines == list(EXAMPLES[name])
    command = GROUP.get_command(CONTEXT, name)  # type: ignore[attr-defined]
    for line in lines:
        argv = shlex.split(line)
        assert argv[:2] == ["evalglass", name]
        command.make_context(name, argv[2:], parent=CONTEXT)


def test_shell_completion_is_offered(tmp_path: Path) -> None:
    """In bash, `evalglass --show-completion` prints bash's completion script for the
    `evalglass` command, and `--help` lists both completion options.

    typer finds the shell from the processes above the command, so the command runs as a child
    of bash, as a user's would: not of whatever started the tests (a compound command, so that
    bash does not exec it in its own place)."""
    command = f"{shlex.quote(sys.executable)} -m evalglass --show-completion; exit $?"
    shown = subprocess.run(
        ["bash", "-c", command],
        check=False,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert "_evalglass_completion" in shown.stdout
    assert "complete -o default -F _evalglass_completion evalglass" in shown.stdout
    listed = cli("--help", cwd=tmp_path).stdout
    assert "--install-completion" in listed and "--show-completion" in listed
