"""Host records as they stood at each commit that changed them, for `evalglass history`.

One `git log` lists the commits; each one's records, and its first parent's, are loaded from the
committed tree as `gitref` loads a ref (nothing from the working tree, no links followed), every
object read through one `git cat-file --batch`, every identical folder or file parsed once.
Reads git; writes nothing; decides nothing.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator, Mapping
from typing import IO, Self

import attrs

from evalglass._collector import paused
from evalglass.errors import RecordError
from evalglass.records import git_process
from evalglass.records.baseline_files import inside_records
from evalglass.records.gitref import repository_path
from evalglass.records.load import host_records, records_from_text
from evalglass.records.model import HostRecords
from evalglass.records.schema import KINDS, Record

TIMEOUT_SECONDS = 120.0
_TREE, _LINK, _GITLINK = "40000", "120000", "160000"  # modes as a tree object writes them
_FIELDS = ("%H", "%P", "%an", "%ae", "%aI", "%s")


@attrs.frozen(kw_only=True)
class Commit:
    """One commit that changed the records folder: who, when, and its message."""

    id: str
    parents: tuple[str, ...]
    author: str
    email: str
    date: str  # the author's time, ISO 8601 with its offset, as git records it
    subject: str


# The records at a commit, or why they do not load there.
Loaded = HostRecords | RecordError


@attrs.frozen
class Revision:
    """A commit, the records at its first parent (none before a root commit), and its own."""

    commit: Commit
    before: Loaded
    after: Loaded


def revisions(folder: str | os.PathLike[str], since: str | None = None) -> list[Revision]:
    """Every commit reachable from HEAD (after `since`, when given) that changed a file under the
    records folder, oldest first, with the records before and after it. RecordError outside a
    git repository, for a repository without commits, or for a `since` that names no commit."""
    given = os.fspath(folder)
    _check_repository(given)
    inside = repository_path(given)
    if "\n" in inside:
        raise RecordError(
            given, "a records folder whose path holds a line break cannot be read from git"
        )
    commits = _log(given, inside, since)
    with paused(), _Objects(given) as objects:
        loader = _Loader(objects, inside, oid_bytes=len(commits[0].id) // 2 if commits else 20)
        loader.prefetch([c.id for c in commits] + [c.parents[0] for c in commits if c.parents])
        return [
            Revision(
                commit,
                loader.at(commit.parents[0]) if commit.parents else HostRecords(),
                loader.at(commit.id),
            )
            for commit in commits
        ]


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


def _log(given: str, inside: str, since: str | None) -> list[Commit]:
    try:
        _git(given, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    except RecordError:
        raise RecordError(given, "the repository has no commits yet") from None
    span = "HEAD"
    if since is not None:
        if not since or since.startswith("-"):
            raise RecordError(given, f"--since {since!r} names no commit")
        try:
            _git(
                given, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{since}^{{commit}}"
            )
        except RecordError:
            raise RecordError(given, f"--since: git ref '{since}' is not in this clone") from None
        span = f"{since}..HEAD"
    if inside == ".":
        paths = [f":(top,literal){spec.filename}" for spec in KINDS.values()]
    else:
        paths = [f":(top,literal){inside}"]
    out = _git(
        given,
        "log",
        "--reverse",
        "--format=%x1e" + "%x1f".join(_FIELDS),
        "--end-of-options",
        span,
        "--",
        *paths,
    )
    commits = []
    for block in out.split("\x1e")[1:]:
        sha, parents, author, email, date, subject = block.rstrip("\n").split("\x1f", 5)
        commits.append(
            Commit(
                id=sha,
                parents=tuple(parents.split()),
                author=author,
                email=email,
                date=date,
                subject=subject,
            )
        )
    return commits


_BATCH = 2_000  # requests per `git cat-file --batch` run: bounds what one answer holds in memory


def _batch(where: str, specs: list[str]) -> Iterator[tuple[str, tuple[str, str, bytes] | None]]:
    """(spec, (object id, type, content) or None when git has no such object) for each spec, read
    by `git cat-file --batch` runs given every request at once: no round trip per object."""
    for start in range(0, len(specs), _BATCH):
        chunk = specs[start : start + _BATCH]
        request = "".join(f"{spec}\n" for spec in chunk).encode("utf-8", "surrogateescape")
        try:
            out = git_process.run(["cat-file", "--batch"], timeout=TIMEOUT_SECONDS, input=request)
        except git_process.GitFailed as exc:
            raise RecordError(where, exc.reason) from None
        at = 0
        for spec in chunk:
            end = out.index(b"\n", at)
            header = out[at:end].decode("utf-8", "replace")
            at = end + 1
            if header.endswith((" missing", " ambiguous")):
                yield spec, None
                continue
            oid, kind, size = header.rsplit(" ", 2)
            yield spec, (oid, kind, out[at : at + int(size)])
            at += int(size) + 1


class _Objects:
    """One `git cat-file --batch` answering object requests one at a time, for the few reads
    nothing could ask for in advance."""

    def __init__(self, where: str) -> None:
        self._where = where
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Self:
        return self

    def _start(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            try:
                self._process = subprocess.Popen(
                    ["git", "cat-file", "--batch"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    env=git_process.environment(),
                )
            except FileNotFoundError as exc:
                raise RecordError(self._where, "git is not installed") from exc
        return self._process

    def __exit__(self, *exc: object) -> None:
        process = self._process
        if process is not None:
            assert process.stdin is not None
            process.stdin.close()
            try:
                process.wait(timeout=TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def read(self, spec: str) -> tuple[str, str, bytes] | None:
        """(object id, type, content) of `spec` (an object id or `commit:path`); None when git
        has no such object."""
        process = self._start()
        stdin, stdout = process.stdin, process.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(spec.encode("utf-8", "surrogateescape") + b"\n")
            stdin.flush()
        except OSError as exc:
            raise RecordError(self._where, f"git cat-file stopped answering ({exc})") from None
        header = stdout.readline().decode("utf-8", "replace").split()
        if len(header) == 2 and header[1] in ("missing", "ambiguous"):
            return None
        if len(header) != 3 or not header[2].isdigit():
            raise RecordError(self._where, "git cat-file gave an answer it should not have")
        return header[0], header[1], _exactly(stdout, int(header[2]) + 1)[:-1]


def _exactly(stream: IO[bytes], size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = stream.read(left)
        if not chunk:
            raise RecordError("git", "git cat-file stopped in the middle of an object")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


@attrs.frozen
class _Entry:
    mode: str
    oid: str


class _Loader:
    """Records by commit, cached by the folder's tree id and each file's blob id."""

    def __init__(self, objects: _Objects, inside: str, oid_bytes: int) -> None:
        self._objects = objects
        self._inside = inside
        self._prefix = "" if inside == "." else f"{inside}/"
        self._oid_bytes = oid_bytes
        self._by_folder: dict[str, Loaded] = {}
        self._by_blob: dict[tuple[str, str], Mapping[str, Record] | RecordError] = {}
        self._trees: dict[str, Mapping[str, _Entry]] = {}
        self._folders: dict[str, tuple[str, str, bytes] | None] = {}  # by spec
        self._blobs: dict[str, bytes] = {}
        # Typed records by their text and lines: one edit leaves most of a file's records as
        # they were, and those are not typed again.
        self._memo: dict[object, Record] = {}

    def _spec(self, commit: str) -> str:
        return f"{commit}^{{tree}}" if self._inside == "." else f"{commit}:{self._inside}"

    def prefetch(self, commits: list[str]) -> None:
        """Read the records folder of every commit, and every records file in them, in two
        batches."""
        specs = list(dict.fromkeys(self._spec(c) for c in commits))
        self._folders.update(_batch(self._inside, specs))
        wanted = set()
        for found in self._folders.values():
            if found is None or found[1] != "tree":
                continue
            listing = self._trees.setdefault(found[0], self._parse_tree(found[2]))
            for spec in KINDS.values():
                entry = listing.get(spec.filename)
                if entry is not None and entry.mode.startswith("100"):
                    wanted.add(entry.oid)
        for oid, blob in _batch(self._inside, sorted(wanted)):
            if blob is not None:
                self._blobs[oid] = blob[2]

    def at(self, commit: str) -> Loaded:
        spec = self._spec(commit)
        found = self._folders[spec] if spec in self._folders else self._objects.read(spec)
        if found is None:
            return HostRecords()  # no records folder at that commit: no records
        oid, kind, data = found
        if kind != "tree":
            return RecordError(
                self._inside,
                f"is a {_noun(kind)}, not a folder; records are read "
                "as committed, never through links",
            )
        if oid not in self._by_folder:
            self._trees.setdefault(oid, self._parse_tree(data))
            self._by_folder[oid] = self._load(oid)
        return self._by_folder[oid]

    def _load(self, folder: str) -> Loaded:
        listing = self._trees[folder]
        loaded: dict[str, Mapping[str, Record]] = {}
        for kind, spec in KINDS.items():
            entry = listing.get(spec.filename)
            if entry is None:
                loaded[kind] = {}
                continue
            records = self._records(kind, entry, self._prefix + spec.filename)
            if isinstance(records, RecordError):
                return records
            loaded[kind] = records
        try:
            host = host_records(loaded, lambda name: self._beside(folder, name))
            return self._with_rows_objects(folder, host)
        except RecordError as exc:
            return exc

    def _with_rows_objects(self, folder: str, host: HostRecords) -> HostRecords:
        """Each baseline naming a rows file, with that file's object id at this commit (None
        when the commit lacks it): which rows a baseline compares with is part of its record."""
        baselines = dict(host.baselines)
        for metric, b in host.baselines.items():
            name = inside_records(b.rows) if b.rows is not None else None
            if name is not None:
                entry = self._entry(folder, name)
                baselines[metric] = attrs.evolve(b, rows_object=entry.oid if entry else None)
        return attrs.evolve(host, baselines=baselines)

    def _records(self, kind: str, entry: _Entry, path: str) -> Mapping[str, Record] | RecordError:
        if not entry.mode.startswith("100"):
            return RecordError(
                path,
                f"is {_what(entry.mode)}, not a file; records are read as "
                "committed, never through links or other repositories",
            )
        key = (kind, entry.oid)
        if key not in self._by_blob:
            try:
                self._by_blob[key] = records_from_text(
                    kind, self._text(entry.oid, path), path, self._memo
                )
            except RecordError as exc:
                self._by_blob[key] = exc
        return self._by_blob[key]

    def _beside(self, folder: str, name: str) -> str | None:
        """A file below the records folder (a baseline's saved scorecard), or None."""
        entry = self._entry(folder, name)
        return None if entry is None else self._text(entry.oid, self._prefix + name)

    def _entry(self, folder: str, name: str) -> _Entry | None:
        """The tree entry of a file below the records folder, or None. RecordError for a link or
        another repository at `name` or in its path."""
        *parents, last = name.split("/")
        tree = folder
        for part in parents:
            entry = self._trees[tree].get(part)
            if entry is None:
                return None
            if entry.mode != _TREE:
                raise RecordError(self._prefix + name, f"has {_what(entry.mode)} in its path")
            tree = self._tree(entry.oid)
        entry = self._trees[tree].get(last)
        if entry is None:
            return None
        if not entry.mode.startswith("100"):
            raise RecordError(self._prefix + name, f"is {_what(entry.mode)}, not a file")
        return entry

    def _tree(self, oid: str) -> str:
        if oid not in self._trees:
            found = self._objects.read(oid)
            if found is None or found[1] != "tree":
                raise RecordError(oid, "git has no such tree")
            self._trees[oid] = self._parse_tree(found[2])
        return oid

    def _text(self, oid: str, path: str) -> str:
        data = self._blobs.get(oid)
        if data is None:
            found = self._objects.read(oid)
            if found is None:
                raise RecordError(path, "git has no such file")
            data = found[2]
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            raise RecordError(path, "is not valid UTF-8", line) from None

    def _parse_tree(self, data: bytes) -> Mapping[str, _Entry]:
        return dict(_tree_entries(data, self._oid_bytes))


def _tree_entries(data: bytes, oid_bytes: int) -> Iterator[tuple[str, _Entry]]:
    """A tree object's entries: `<mode> <name>\\0<binary object id>`, one after another."""
    at = 0
    while at < len(data):
        space = data.index(b" ", at)
        nul = data.index(b"\0", space)
        mode = data[at:space].decode("ascii")
        name = data[space + 1 : nul].decode("utf-8", "surrogateescape")
        oid = data[nul + 1 : nul + 1 + oid_bytes].hex()
        yield name, _Entry(mode=mode, oid=oid)
        at = nul + 1 + oid_bytes


def _what(mode: str) -> str:
    if mode == _LINK:
        return "a symbolic link"
    if mode == _GITLINK:
        return "a submodule"
    return "a folder" if mode == _TREE else f"an entry of mode {mode}"


def _noun(kind: str) -> str:
    return "file or symbolic link" if kind == "blob" else kind
