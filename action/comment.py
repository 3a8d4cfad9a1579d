"""The action's comment step: create, or update in place, the one pull-request comment that starts
with evalglass's hidden marker, through the `gh` command. A comment is a courtesy, never a gate:
every failure here (no `gh`, a fork's read-only token, the API down) is a warning, and the step
still succeeds, so the gate step's exit code stays evalglass's own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import _runner as runner

MARKER = "<!-- evalglass-scorecard -->"
# Who the workflow's own GITHUB_TOKEN writes as: an app installation token, which cannot ask
# GET /user who it is.
ACTIONS_BOT = "github-actions[bot]"
TIMEOUT = 120  # seconds for one `gh api` call


class CommentError(Exception):
    """The comment could not be read or written: reported as a warning."""


def gh(*args: str, body: str | None = None) -> str:
    """One `gh api` call, its answer on stdout. GH_HOST follows the server this run is on."""
    env = None
    server = urlparse(runner.env("GITHUB_SERVER_URL")).hostname
    if server and server != "github.com" and not runner.env("GH_HOST"):
        env = {**os.environ, "GH_HOST": server}
    try:
        result = subprocess.run(
            ["gh", "api", *args],
            input=body,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            env=env,
            check=False,
        )
    except FileNotFoundError:
        raise CommentError("the gh command is not on PATH") from None
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CommentError(f"gh api {args[-1]}: {exc}") from None
    if result.returncode != 0:
        reason = (result.stderr.strip() or result.stdout.strip() or "no message").splitlines()[0]
        raise CommentError(f"gh api {' '.join(args)} exited {result.returncode}: {reason}")
    return result.stdout


def pages(text: str) -> list[Any]:
    """`gh api --paginate` prints one JSON array per page, back to back: decode them all."""
    decoder, items, at = json.JSONDecoder(), [], 0
    while at < len(text):
        if text[at].isspace():
            at += 1
            continue
        page, at = decoder.raw_decode(text, at)
        items.extend(page if isinstance(page, list) else [page])
    return items


def sticky(comments: list[Any], login: str) -> int | None:
    """The id of the first comment that is ours: written by `login` (the token's own user) and
    starting with the marker. A comment anyone else wrote is never taken over, whatever it says:
    the marker alone is text any commenter can paste."""
    for item in comments:
        if not isinstance(item, dict):
            continue
        author = (
            (item.get("user") or {}).get("login") if isinstance(item.get("user"), dict) else None
        )
        if author == login and str(item.get("body", "")).lstrip().startswith(MARKER):
            return int(item["id"])
    return None


def token_login() -> str:
    """The login the token writes comments as: GET /user for a person's or a bot user's token;
    an app installation token (the workflow's GITHUB_TOKEN) cannot ask, and writes as
    github-actions[bot]."""
    try:
        answer = json.loads(gh("user"))
    except (CommentError, ValueError):
        return ACTIONS_BOT
    login = answer.get("login") if isinstance(answer, dict) else None
    return login if isinstance(login, str) and login else ACTIONS_BOT


def pull_request() -> int | None:
    """The pull request's number, from the event that started the run; None on other events."""
    path = runner.env("GITHUB_EVENT_PATH")
    if not path:
        return None
    event = json.loads(Path(path).read_text(encoding="utf-8"))
    number = (event.get("pull_request") or {}).get("number")
    return number if isinstance(number, int) else None


def post(repository: str, number: int, body: str) -> str:
    """Update the sticky comment if there is one, else create it. Returns what was done."""
    try:
        comments = pages(gh("--paginate", f"repos/{repository}/issues/{number}/comments"))
    except ValueError as exc:
        raise CommentError(f"could not read the pull request's comments: {exc}") from None
    payload = json.dumps({"body": body})
    existing = sticky(comments, token_login())
    if existing is not None:
        gh(
            "--method",
            "PATCH",
            f"repos/{repository}/issues/comments/{existing}",
            "--input",
            "-",
            body=payload,
        )
        return f"updated comment {existing}"
    gh(
        "--method",
        "POST",
        f"repos/{repository}/issues/{number}/comments",
        "--input",
        "-",
        body=payload,
    )
    return "created the comment"


def body_or_unfinished(path: str) -> str:
    """The body the scoring step wrote; when it wrote none (it, or a step before it, failed), a
    body saying the run did not finish, so an older run's result is not left standing."""
    if path and Path(path).is_file():
        return Path(path).read_text(encoding="utf-8")
    server = runner.env("GITHUB_SERVER_URL").rstrip("/") or "https://github.com"
    repository, run_id = runner.env("GITHUB_REPOSITORY"), runner.env("GITHUB_RUN_ID")
    where = "this run's log"
    if repository and run_id.isdigit():
        where = f"[this run's log]({server}/{repository}/actions/runs/{run_id})"
    return (
        f"{MARKER}\n**evalglass check: did not finish** — a step of the evalglass action failed "
        f"before it scored, so there is no result for this commit: see {where}.\n"
    )


def main() -> int:
    """Post or update the sticky comment when the `comment` input is true and the run is a pull
    request. Exits 0 whatever becomes of the comment (a failure is a warning, never a gate); 2
    only when `comment` is neither true nor false."""
    try:
        wanted = runner.flag("INPUT_COMMENT")
    except runner.InputError as error:
        return runner.stop_on_bad_input(error)
    if not wanted:
        print("comment: false: no pull-request comment")
        return 0
    # Any failure from here on is reported and swallowed: a comment never decides the gate.
    try:
        number = pull_request()
        if number is None:
            print("not a pull request: no comment (the scorecard is in the job summary)")
            return 0
        body = body_or_unfinished(runner.env("COMMENT_BODY"))
        done = post(runner.env("GITHUB_REPOSITORY"), number, body)
        print(f"pull request #{number}: {done}")
    except Exception as exc:  # noqa: BLE001
        runner.command(
            "warning",
            f"the scorecard comment was not posted ({exc}). A pull request "
            "from a fork gets a read-only token; the scorecard is in the job summary.",
            title="evalglass comment",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
