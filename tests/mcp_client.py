"""Drives `evalglass mcp` over stdio with the MCP SDK's own client, as an agent's host does: the
installed command in a subprocess, a session, tool calls, and what the server said on stderr."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import anyio
import attrs
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import TextContent, Tool

from tests.test_cli import EVALGLASS, EXAMPLE_OUTPUT, EXAMPLE_RECORDS

T = TypeVar("T")
Call = tuple[str, dict[str, Any]]
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]


@attrs.frozen
class Answer:
    """One tool call's result: the error flag and its one text block."""

    is_error: bool
    text: str


def drive(cwd: Path, args: Sequence[str], script: Callable[[ClientSession], Awaitable[T]]) -> T:
    """Start `evalglass mcp ARGS` in `cwd`, initialise a session, run `script` on it, stop. What
    the server writes on stderr is appended to mcp-stderr.log beside `cwd`."""

    async def main() -> T:
        home = cwd.parent / "mcp-home"  # the server's HOME, apart, so a test can see it unwritten
        home.mkdir(exist_ok=True)
        params = StdioServerParameters(
            command=str(EVALGLASS),
            args=["mcp", *args],
            cwd=cwd,
            env={"NO_COLOR": "1", "HOME": str(home)},
        )
        with (cwd.parent / "mcp-stderr.log").open("a", encoding="utf-8") as log:
            async with (
                stdio_client(params, errlog=log) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return await script(session)

    return anyio.run(main)


async def answer(session: ClientSession, name: str, arguments: dict[str, Any]) -> Answer:
    result = await session.call_tool(name, arguments)
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent)
    return Answer(result.is_error, result.content[0].text)


def calls(
    cwd: Path,
    args: Sequence[str],
    todo: Sequence[Call],
    between: Callable[[int], None] | None = None,
) -> list[Answer]:
    """Each call in one session, in order; `between(i)` runs (in this process) before call i."""

    async def script(session: ClientSession) -> list[Answer]:
        answers = []
        for i, (name, arguments) in enumerate(todo):
            if between is not None:
                between(i)
            answers.append(await answer(session, name, arguments))
        return answers

    return drive(cwd, args, script)


def tools(cwd: Path, args: Sequence[str] = ()) -> list[Tool]:
    async def script(session: ClientSession) -> list[Tool]:
        return (await session.list_tools()).tools

    return drive(cwd, args, script)


def example_repo(tmp_path: Path) -> Path:
    """The bundled example committed in a git repository (for diff and --records-ref)."""
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLE_RECORDS, repo / "host_records")
    shutil.copy(EXAMPLE_OUTPUT, repo / "run.json")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    commit(repo, "records")
    return repo


def commit(repo: Path, message: str) -> None:
    subprocess.run([*GIT, "-C", str(repo), "add", "-A"], check=True)
    subprocess.run([*GIT, "-C", str(repo), "commit", "-q", "-m", message], check=True)
