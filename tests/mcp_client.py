"""Drives `evalglass mcp` with the MCP SDK's own client, as an agent's host does: the installed
command in a subprocess over stdio, a session, tool calls, and what the server said on stderr.
A test of what the tools answer may instead run the same command in this process, its server
speaking over the SDK's in-memory streams (`stdio=False`): there a subprocess proves no more and
costs the SDK's import, most of a second, each time."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import anyio
import attrs
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import TextContent, Tool

from tests.cli_runner import cli
from tests.shell.test_cli import EVALGLASS, EXAMPLE_OUTPUT, EXAMPLE_RECORDS

T = TypeVar("T")
Call = tuple[str, dict[str, Any]]
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]


@attrs.frozen
class Answer:
    """One tool call's result: the error flag, its one text block, and its structured content
    (None when the server sent none)."""

    is_error: bool
    text: str
    structured: dict[str, Any] | None = None


def drive(
    cwd: Path,
    args: Sequence[str],
    script: Callable[[ClientSession], Awaitable[T]],
    *,
    stdio: bool = True,
) -> T:
    """Start `evalglass mcp ARGS` in `cwd`, initialise a session, run `script` on it, stop. What
    the server writes on stderr is appended to mcp-stderr.log beside `cwd`."""
    home = cwd.parent / "mcp-home"  # the server's HOME, apart, so a test can see it unwritten
    home.mkdir(exist_ok=True)
    if not stdio:
        return _drive_in_process(cwd, args, script, home)

    async def main() -> T:
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


def _drive_in_process(
    cwd: Path, args: Sequence[str], script: Callable[[ClientSession], Awaitable[T]], home: Path
) -> T:
    """`evalglass mcp ARGS` through the CLI in this process (its options, working directory and
    records checked at start as ever), with the server it would serve over stdio answering over
    in-memory streams instead."""
    from mcp.shared.memory import create_client_server_memory_streams

    from evalglass.shell import mcp_server

    done: list[T] = []

    def serve(bounds: Any) -> None:
        app = mcp_server.server(bounds)

        async def main() -> None:
            async with (
                create_client_server_memory_streams() as (client, server),
                anyio.create_task_group() as group,
            ):
                group.start_soon(app.run, *server, app.create_initialization_options())
                async with ClientSession(*client) as session:
                    await session.initialize()
                    done.append(await script(session))
                group.cancel_scope.cancel()

        anyio.run(main)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mcp_server, "serve", serve)
        result = cli("mcp", *args, cwd=cwd, env={"HOME": str(home)})
    with (cwd.parent / "mcp-stderr.log").open("a", encoding="utf-8") as log:
        log.write(result.stderr)
    assert result.returncode == 0 and done, result.stderr
    return done[0]


async def answer(session: ClientSession, name: str, arguments: dict[str, Any]) -> Answer:
    result = await session.call_tool(name, arguments)
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent)
    return Answer(result.is_error, result.content[0].text, result.structured_content)


def calls(
    cwd: Path,
    args: Sequence[str],
    todo: Sequence[Call],
    between: Callable[[int], None] | None = None,
    *,
    stdio: bool = True,
) -> list[Answer]:
    """Each call in one session, in order; `between(i)` runs (in this process) before call i."""

    async def script(session: ClientSession) -> list[Answer]:
        answers = []
        for i, (name, arguments) in enumerate(todo):
            if between is not None:
                between(i)
            answers.append(await answer(session, name, arguments))
        return answers

    return drive(cwd, args, script, stdio=stdio)


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
