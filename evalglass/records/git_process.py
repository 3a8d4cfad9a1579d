"""Running git for the records layer: one environment (messages in the C locale, which callers
match; no password prompt a lazy fetch could wait on; no optional locks; nothing in `.git` that
stands one object or parent for another) and git's failures said one way, for each caller to put
in its own error. Reads nothing by itself.

Code that ran earlier in the same job can write to `.git`: replace refs, `info/grafts` and a
commit-graph would each change what a commit holds or which commits a log lists without moving
any ref, so none of them is read. (Objects themselves are checked against their ids by
`git_objects`.)
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from typing import IO

_ENV = {
    "LC_ALL": "C",
    "LANGUAGE": "C",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_NO_REPLACE_OBJECTS": "1",
    # The null device holds no graft and no one else can write it; a missing path could be made.
    "GIT_GRAFT_FILE": os.devnull,
}
# The commit-graph caches each commit's tree and parents, and can be rewritten consistently;
# git's advice on a graft file would only say that one was read (the empty one above).
_OPTIONS = ("-c", "core.commitGraph=false", "-c", "advice.graftFileDeprecated=false")


def environment() -> dict[str, str]:
    """This process's environment with git's answers made plain and non-interactive, and no
    replace object or graft in effect."""
    return {**os.environ, **_ENV}


def command(args: Sequence[str]) -> list[str]:
    """The argument list that runs git with `args` as every call here runs it."""
    return ["git", *_OPTIONS, *args]


class GitFailed(Exception):
    """git gave no answer; `reason` says why, to follow what was being read."""

    def __init__(
        self, reason: str, *, returncode: int | None = None, stderr: str = "", said: str = ""
    ) -> None:
        """For an exit other than 0: its `returncode`, its `stderr`, and `said`, the first line
        of that stderr ("" when git gave none)."""
        super().__init__(reason)
        self.reason = reason
        self.returncode = returncode
        self.stderr = stderr
        self.said = said


class GitMissing(GitFailed):
    """There is no git to run."""


def run(
    args: Sequence[str],
    *,
    timeout: float,
    cwd: str | os.PathLike[str] | None = None,
    input: bytes | None = None,
    stdout: int | IO[bytes] = subprocess.PIPE,
) -> bytes:
    """git's stdout (b"" when it went to a file). GitMissing without git; GitFailed when git
    does not answer within `timeout` seconds or exits other than 0."""
    try:
        done = subprocess.run(
            command(args), cwd=cwd, input=input, stdout=stdout, stderr=subprocess.PIPE,
            timeout=timeout, check=False, env=environment(),
        )  # fmt: skip
    except FileNotFoundError:
        raise GitMissing("git is not installed") from None
    except subprocess.TimeoutExpired:
        raise GitFailed(f"git did not answer within {timeout:g} s") from None
    if done.returncode != 0:
        stderr = done.stderr.decode("utf-8", "replace")
        said = next((line.strip() for line in stderr.splitlines() if line.strip()), "")
        raise GitFailed(
            f"git {args[0]} failed: {said or f'exit {done.returncode}'}",
            returncode=done.returncode,
            stderr=stderr,
            said=said,
        )
    return done.stdout or b""
