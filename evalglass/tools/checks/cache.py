"""The cache of passes of run and shell checks: a pass is reused only while nothing it could have
seen in its git repository has changed. The key (`key`) is pure; reading the repository's state
(`repo_state`) and the entries (`Store`) is I/O. A corrupt entry is a miss, never an error.

The key covers the check's definition, the evalglass version, the HEAD commit of the repository
holding the check's cwd, where in it the cwd is, and the content on disk of every file that differs
from HEAD (tracked files compared by their raw bytes whatever the index or git's filters claim,
and untracked files git does not ignore). It cannot cover ignored files, the
network, the clock, environment variables or tools outside the repository (docs/checks.md).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import stat
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
    if head is None:
        return None
    with tempfile.TemporaryDirectory(prefix="evalglass-index-") as scratch:
        # What is on disk against HEAD, through an index of our own read from HEAD: the
        # repository's index may mark files assume-unchanged or skip-worktree, or hold stat data
        # that matches an edited file, and git status believes it. A fresh index has no flags
        # and no stat data, so git compares every tracked file's content.
        index = {"GIT_INDEX_FILE": os.path.join(scratch, "index")}
        if _git(root, "read-tree", head.decode().strip(), env=index) is None:
            return None
        status = _git(
            root, "status", "--porcelain=v1", "-z", "--untracked-files=all",
            "--ignore-submodules=none", env=index,
        )  # fmt: skip
        raw = _raw_differences(root, head.decode().strip())
    if status is None or raw is None:
        return None
    changes = _changes(root, status, raw)
    if changes is None:
        return None
    where = os.path.relpath(cwd.resolve(), root.resolve())
    return RepoState(head=head.decode().strip(), where=where, changes=changes)


def _raw_differences(root: Path, head: str) -> list[bytes] | None:
    """Every tracked regular file whose bytes on disk are not HEAD's blob, byte for byte.

    git status compares a file through its filters (`.gitattributes` `text=auto`, `eol`,
    `core.autocrlf`): `good\\r\\n` on disk is `good\\n` to it, and a check that compares bytes
    sees the difference. So the blob id of each file's raw bytes is compared with HEAD's."""
    listing = _git(root, "ls-tree", "-r", "-z", "--full-tree", head)
    if listing is None:
        return None
    algorithm = "sha1" if len(head) == 40 else "sha256"
    differ = []
    for entry in listing.split(b"\0"):
        meta, _, path = entry.partition(b"\t")
        fields = meta.split()
        if len(fields) != 3 or fields[0] not in (b"100644", b"100755"):
            continue  # links, submodules and trees: git status reads those as they are
        full = root / os.fsdecode(path)
        try:
            if not stat.S_ISREG(os.lstat(full).st_mode):
                continue  # gone or replaced: git status names it
        except OSError:
            continue
        blob = _blob_id(full, algorithm)
        if blob is None:
            return None
        if blob != fields[2].decode():
            differ.append(path)
    return differ


def _blob_id(path: Path, algorithm: str) -> str | None:
    """The git blob id of a regular file's bytes as they are, read in chunks."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as stream:
        size = os.fstat(stream.fileno()).st_size
        digest = hashlib.new(algorithm, b"blob %d\0" % size)
        try:
            while chunk := stream.read(1 << 20):
                digest.update(chunk)
        except OSError:
            return None
    return digest.hexdigest()


def _changes(root: Path, status: bytes, raw: list[bytes]) -> str | None:
    """A digest of git's status and the content of every path it names or whose bytes differ
    from HEAD's, as the check sees it.

    Status alone would miss an edit to an already modified file; its content would not."""
    digest = hashlib.sha256(status)
    for path in sorted({*_paths(status), *raw}):
        full = root / os.fsdecode(path)
        try:
            mode = os.lstat(full).st_mode
        except FileNotFoundError:
            mode = None
        except OSError:
            return None
        if mode is None:
            content = b"absent"
        elif stat.S_ISLNK(mode):
            content = b"link:" + os.fsencode(os.readlink(full))
        elif stat.S_ISDIR(mode):
            return None  # a submodule with changes: its content is beyond this digest
        elif stat.S_ISREG(mode):
            hashed = _file_digest(full)
            if hashed is None:
                return None
            content = hashed
        else:
            return None  # a FIFO, a socket or a device: no content to stand for
        digest.update(path + b"\0" + content + b"\0")
    return digest.hexdigest()


def _file_digest(path: Path) -> bytes | None:
    """sha256 of a regular file's content, read in chunks (an untracked file may be larger
    than memory), opened without blocking and without following a link placed meanwhile."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            return None
        try:
            return hashlib.file_digest(stream, "sha256").digest()
        except OSError:
            return None


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


def _git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> bytes | None:
    # The records layer's environment (no optional lock: looking takes none; no replace object
    # or graft), and `env` on top.
    full_env = {**git_process.environment(), **(env or {})}
    # Settings under which git answers from something other than the files themselves: a
    # filesystem monitor's word, the untracked cache, sparse-checkout patterns.
    settings = ("core.fsmonitor=false", "core.untrackedCache=false", "core.sparseCheckout=false")
    try:
        result = subprocess.run(
            git_process.command([*(f for s in settings for f in ("-c", s)), "-C", str(cwd), *args]),
            capture_output=True, timeout=_GIT_TIMEOUT, env=full_env, check=False,
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
        # Entries recorded before stdout was kept have none.
        stdout = doc.get("stdout", "")
        if type(stdout) is not str:
            return None
        return Attempt(
            outcome=AttemptOutcome.PASSED,
            command=command,
            found=found,
            exit_code=exit_code,
            duration=duration,
            stderr=stderr,
            stdout=stdout,
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
            "stdout": attempt.stdout,
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
