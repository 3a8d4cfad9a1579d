"""The cache of passes of run and shell checks: a pass is reused only while nothing it could have
seen in its git repository has changed. The key (`key`) is pure; reading the repository's state
(`repo_state`) and the entries (`Store`) is I/O. A corrupt entry is a miss, never an error.

The key covers the check's definition, the evalglass version, the HEAD commit of the repository
holding the check's cwd, where in it the cwd is, and the content of every uncommitted change
(staged, unstaged and untracked files git does not ignore). It cannot cover ignored files, the
network, the clock, environment variables or tools outside the repository (docs/checks.md).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import subprocess
import tempfile
from pathlib import Path

import attrs

from evalglass.evidence.model import Attempt, AttemptOutcome, CachedPass
from evalglass.records import git_process
from evalglass.records.model import CheckKind, CheckRecord

_GIT_TIMEOUT = 60  # seconds; a repository that takes longer is not cached
_SCHEMA = 1


@attrs.frozen(kw_only=True)
class RepoState:
    """What a check could see of its git repository: HEAD, where its cwd is, and a digest of
    every uncommitted change by content."""

    head: str
    where: str  # the cwd relative to the repository's top
    changes: str  # sha256 of the uncommitted changes


def cacheable(check: CheckRecord) -> bool:
    """Only run and shell checks, and only when the record allows it; files are looked at."""
    return check.kind in (CheckKind.RUN, CheckKind.SHELL) and check.cache


def key(check: CheckRecord, version: str, state: RepoState) -> str:
    """The cache key: sha256 over everything a cached pass stands for."""
    covered = {
        "kind": check.kind.value,
        "command": check.target,
        "cwd": check.cwd,
        "timeout": check.timeout,
        "expect_exit": check.expect_exit,
        "evalglass": version,
        "head": state.head,
        "where": state.where,
        "changes": state.changes,
    }
    return hashlib.sha256(json.dumps(covered, sort_keys=True).encode()).hexdigest()


def repo_state(cwd: Path) -> RepoState | None:
    """The state of the git repository holding `cwd`; None outside one (or without git, before
    a first commit, or with changes inside a submodule): then nothing is cached."""
    top = _git(cwd, "rev-parse", "--show-toplevel")
    if top is None:
        return None
    root = Path(top.decode().strip())
    head = _git(root, "rev-parse", "--verify", "--quiet", "HEAD")
    status = _git(
        root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=none"
    )
    if head is None or status is None:
        return None
    changes = _changes(root, status)
    if changes is None:
        return None
    where = os.path.relpath(cwd.resolve(), root.resolve())
    return RepoState(head=head.decode().strip(), where=where, changes=changes)


def _changes(root: Path, status: bytes) -> str | None:
    """A digest of git's status and the content of every path it names, as the check sees it.

    Status alone would miss an edit to an already modified file; its content would not."""
    digest = hashlib.sha256(status)
    for path in sorted(set(_paths(status))):
        full = root / os.fsdecode(path)
        if full.is_symlink():
            content = b"link:" + os.fsencode(os.readlink(full))
        elif full.is_dir():
            return None  # a submodule with changes: its content is beyond this digest
        elif full.is_file():
            try:
                content = hashlib.sha256(full.read_bytes()).digest()
            except OSError:
                return None
        else:
            content = b"absent"
        digest.update(path + b"\0" + content + b"\0")
    return digest.hexdigest()


def _paths(status: bytes) -> list[bytes]:
    """Every path `git status --porcelain=v1 -z` names (a rename names two)."""
    entries = status.split(b"\0")
    paths = []
    index = 0
    while index < len(entries):
        entry = entries[index]
        index += 1
        if len(entry) < 4:
            continue
        paths.append(entry[3:])
        if entry[0:1] in (b"R", b"C"):
            paths.append(entries[index])
            index += 1
    return paths


def _git(cwd: Path, *args: str) -> bytes | None:
    # The records layer's environment: no optional (index) lock, no replace object or graft.
    env = git_process.environment()
    try:
        result = subprocess.run(
            git_process.command(["-C", str(cwd), *args]), capture_output=True,
            timeout=_GIT_TIMEOUT, env=env, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout if result.returncode == 0 else None


def default_folder() -> Path:
    """`$XDG_CACHE_HOME/evalglass`, or `~/.cache/evalglass`."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "evalglass"


@attrs.frozen
class Store:
    """Cached passes, one JSON file per key under `folder`/checks."""

    folder: Path

    def _path(self, cache_key: str) -> Path:
        return self.folder / "checks" / f"{cache_key}.json"

    def get(self, cache_key: str) -> Attempt | None:
        """The pass recorded under this key, marked cached; None for a miss or a corrupt entry."""
        try:
            doc = json.loads(self._path(cache_key).read_bytes())
            if doc["schema"] != _SCHEMA or doc["key"] != cache_key:
                return None
            exit_code, duration = doc["exit_code"], doc["duration"]
            texts = [doc[name] for name in ("command", "found", "stderr", "commit", "recorded")]
            if not (
                type(exit_code) is int
                and type(duration) is float
                and all(type(t) is str for t in texts)
            ):
                return None
        except (OSError, ValueError, TypeError, KeyError):
            return None
        command, found, stderr, commit, recorded = texts
        return Attempt(
            outcome=AttemptOutcome.PASSED,
            command=command,
            found=found,
            exit_code=exit_code,
            duration=duration,
            stderr=stderr,
            cached=CachedPass(commit=commit, recorded=recorded),
        )

    def put(self, cache_key: str, attempt: Attempt, commit: str) -> None:
        """Record a live pass, atomically; a cache that cannot be written is no cache."""
        if attempt.outcome is not AttemptOutcome.PASSED or attempt.cached is not None:
            return
        doc = {
            "schema": _SCHEMA, "key": cache_key, "commit": commit,
            "recorded": dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat(),
            "command": attempt.command, "found": attempt.found, "exit_code": attempt.exit_code,
            "duration": float(attempt.duration or 0.0), "stderr": attempt.stderr,
        }  # fmt: skip
        path = self._path(cache_key)
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as stream:
                    json.dump(doc, stream)
                os.replace(temporary, path)
            except OSError:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
