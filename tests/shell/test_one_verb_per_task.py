"""One way into a run: the Python API keeps one public verb per task, and the command line and
the MCP server reach every scorecard, explanation, diagnosis and records diff through that verb,
so the three cannot drift apart."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evalglass.shell import api
from tests.cli_runner import cli
from tests.mcp_client import example_repo

VERBS = ["score", "run", "explain", "doctor", "diff_records"]


def test_the_api_keeps_one_public_verb_per_task() -> None:
    """Each task has one public function; none has a twin taking inputs resolved elsewhere."""
    assert api.__all__ == [
        "diff_records",
        "doctor",
        "example_paths",
        "explain",
        "explain_patch",
        "history",
        "plan",
        "run",
        "score",
        "trend",
        "validate",
    ]
    for twin in ("scorecard", "checked", "explanation", "records_diff", "diagnosis", "compare"):
        assert not hasattr(api, twin), twin


@pytest.fixture
def heard(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The public verbs called, in order, each still doing its work."""
    called: list[str] = []

    def listening(name: str, verb: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(verb)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            called.append(name)
            return verb(*args, **kwargs)

        return wrapper

    for name in VERBS:
        monkeypatch.setattr(api, name, listening(name, getattr(api, name)))
    return called


COMMANDS = [
    (("score", "run.json"), "score"),
    (("score", "run.json", "--compare", "card.json"), "score"),
    (("run", "run.json", "--no-cache"), "run"),
    (("explain", "qa/exact_match", "run.json"), "explain"),
    (("doctor", "run.json"), "doctor"),
    (("diff", "--base", "HEAD", "run.json"), "diff_records"),
]


def test_every_command_table_row_names_a_verb() -> None:
    """The table below covers every verb that takes a run's inputs."""
    assert {verb for _, verb in COMMANDS} == set(VERBS)


@pytest.mark.parametrize(("args", "verb"), COMMANDS)
def test_each_command_goes_through_its_public_verb(
    tmp_path: Path, heard: list[str], args: tuple[str, ...], verb: str
) -> None:
    """`evalglass score`, `run`, `explain`, `doctor` and `diff` each call the verb a Python
    caller would, once."""
    repo = example_repo(tmp_path)
    saved = cli("score", "run.json", "--format", "json", cwd=repo)
    (repo / "card.json").write_text(saved.stdout)
    heard.clear()
    done = cli(*args, "--as-of", "2026-11-30", cwd=repo)
    assert done.returncode in (0, 1, 3), done.stderr
    assert heard == [verb]


TOOLS = [
    ("score", {"outputs": ["run.json"]}, "score"),
    ("explain", {"metric": "qa/exact_match", "outputs": ["run.json"]}, "explain"),
    ("doctor", {"outputs": ["run.json"]}, "doctor"),
    ("diff", {"base": "HEAD", "outputs": ["run.json"]}, "diff_records"),
    ("metrics", {"outputs": ["run.json"]}, None),
]


@pytest.mark.parametrize(("tool", "arguments", "verb"), TOOLS)
def test_each_mcp_tool_goes_through_its_public_verb(
    tmp_path: Path, heard: list[str], tool: str, arguments: dict[str, Any], verb: str | None
) -> None:
    """The MCP server's score, explain, doctor and diff call the verb a Python caller would,
    with the records it pinned at start; metrics reads outputs only and resolves no run."""
    from evalglass.shell.mcp_tools import TOOLS as SERVED
    from evalglass.shell.mcp_tools import Bounds, call

    assert {name for name, _, _ in TOOLS} == {t.name for t in SERVED}
    repo = example_repo(tmp_path)
    with contextlib.chdir(repo):
        bounds = Bounds.open("host_records", "HEAD")
        call(tool, arguments, bounds)
    assert heard == ([] if verb is None else [verb])
