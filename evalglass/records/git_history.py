"""Host records as they stood at each commit that changed them, for `evalglass history`.

One `git log` lists the commits, read as it streams, its fields NUL-separated (no commit text can
hold a NUL, so none can forge a field or a commit); each one's records, and its first parent's,
are loaded from the committed tree as `gitref` loads a ref (nothing from the working tree, no
links followed, every object checked against its id), a window of commits at a time through one
`git cat-file --batch`, every identical folder or file parsed once. Memory does not grow with
the number of commits. Reads git; writes nothing; decides nothing. The log is read here; the
records at each commit by `history_loader.py`.
"""

from __future__ import annotations

import gc
import os
import re
import subprocess
from collections.abc import Iterator

from evalglass._collector import paused
from evalglass.errors import RecordError
from evalglass.records import git_objects, git_process
from evalglass.records.gitref import repository_path
from evalglass.records.history_loader import Commit, Cut, Loaded, Loader, Revision
from evalglass.records.schema import KINDS

TIMEOUT_SECONDS = 120.0
_FIELDS = ("%H", "%P", "%an", "%ae", "%aI", "%s")
_WINDOW = 500  # commits whose objects are asked for at once: no round trip per object
_HEXES = re.compile(r"(?:[0-9a-f]{40}|[0-9a-f]{64})(?: (?:[0-9a-f]{40}|[0-9a-f]{64}))*")
_ISO = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}(?:Z|[+-][0-9]{2}:[0-9]{2})")

__all__ = ["Commit", "Cut", "Loaded", "Revision", "revisions"]


def revisions(folder: str | os.PathLike[str], since: str | None = None) -> Iterator[Revision]:
    """Every commit reachable from HEAD (after `since`, when given) that changed a file under the
    records folder, oldest first, with the records before and after it, as they are read.
    RecordError outside a git repository, for a repository without commits, for a `since` that
    names no commit, for an object that is not what its id says, and for a records file past
    the parse cap."""
    given = os.fspath(folder)
    _check_repository(given)
    inside = repository_path(given)
    if "\n" in inside:
        raise RecordError(
            given, "a records folder whose path holds a line break cannot be read from git"
        )
    span = _span(given, since)
    return _revisions(given, inside, span)


def _revisions(given: str, inside: str, span: str) -> Iterator[Revision]:
    with paused(), git_objects.ObjectReader(TIMEOUT_SECONDS) as objects:
        loader = Loader(objects, inside)
        window: list[Commit] = []
        for commit in _log(given, inside, span):
            window.append(commit)
            if len(window) == _WINDOW:
                yield from loader.revisions(window)
                window = []
                # The collector is paused for speed; what a window left in cycles (an error and
                # its traceback) is freed here, the window's objects only, or it would pile up.
                gc.collect(1)
        yield from loader.revisions(window)


def _git(where: str, *args: str) -> str:
    try:
        return git_process.run(args, timeout=TIMEOUT_SECONDS).decode("utf-8", "replace")
    except git_process.GitFailed as exc:
        raise RecordError(where, exc.reason) from None


def _check_repository(given: str) -> None:
    try:
        _git(given, "rev-parse", "--git-dir")
    except RecordError as exc:
        if "not a git repository" in exc.message:
            raise RecordError(
                given,
                "the history of the records is read from git, and this is not a git repository",
            ) from None
        raise


def _span(given: str, since: str | None) -> str:
    try:
        _git(given, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    except RecordError:
        raise RecordError(given, "the repository has no commits yet") from None
    if since is None:
        return "HEAD"
    if not since or since.startswith("-"):
        raise RecordError(given, f"--since {since!r} names no commit")
    try:
        _git(given, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{since}^{{commit}}")
    except RecordError:
        raise RecordError(given, f"--since: git ref '{since}' is not in this clone") from None
    return f"{since}..HEAD"


def _log(given: str, inside: str, span: str) -> Iterator[Commit]:
    """The commits `git log` lists, oldest first, read as git writes them."""
    if inside == ".":
        paths = [f":(top,literal){spec.filename}" for spec in KINDS.values()]
    else:
        paths = [f":(top,literal){inside}"]
    args = ["log", "-z", "--reverse", "--format=" + "%x00".join(_FIELDS), "--end-of-options",
            span, "--", *paths]  # fmt: skip
    try:
        process = subprocess.Popen(
            git_process.command(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=git_process.environment(),
        )  # fmt: skip
    except FileNotFoundError:
        raise RecordError(given, "git is not installed") from None
    assert process.stdout is not None and process.stderr is not None
    try:
        fields: list[bytes] = []
        rest = b""
        while chunk := process.stdout.read(1 << 16):
            *done, rest = (rest + chunk).split(b"\0")
            for field in done:
                fields.append(field)
                if len(fields) == len(_FIELDS):
                    yield _commit(given, fields)
                    fields = []
        if rest:
            fields.append(rest)
        if fields and fields != [b""]:
            if len(fields) == len(_FIELDS):
                yield _commit(given, fields)
            else:
                raise RecordError(given, "git log gave an answer that does not parse")
        said = process.stderr.read().decode("utf-8", "replace").strip()
        if process.wait() != 0:
            raise RecordError(given, f"git log failed: {said.splitlines()[0] if said else ''}")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
        process.stderr.close()


def _commit(given: str, fields: list[bytes]) -> Commit:
    """One commit from its six fields; refused unless the id, parents and date are what git
    writes there, so a field that slipped is never read as another."""
    sha, parents, author, email, date, subject = (f.decode("utf-8", "replace") for f in fields)
    sha = sha.lstrip("\n")  # git ends each commit's record with a newline before the NUL
    if not git_objects.is_object_id(sha) or not (parents == "" or _HEXES.fullmatch(parents)):
        raise RecordError(given, "git log gave an answer that does not parse")
    if not _ISO.fullmatch(date):
        raise RecordError(given, f"git log gave commit {sha} a date that does not parse")
    return Commit(
        id=sha, parents=tuple(parents.split()), author=author, email=email, date=date,
        subject=subject,
    )  # fmt: skip
