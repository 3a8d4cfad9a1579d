"""The CI recipes in docs stay valid: YAML that parses, and evalglass commands the CLI accepts."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import strictyaml
import typer

from evalglass.shell.cli import app

ROOT = Path(__file__).resolve().parents[1]
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
