"""The records at each commit of a window, for `git_history.py`: each commit object, the trees
down to the records folder and its records files read in a few batches through one `git
cat-file --batch`, checked against their ids, every identical folder or file parsed once and the
last few kept. Reads git objects; writes nothing; decides nothing.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

import attrs

from evalglass import _inputs
from evalglass.errors import HistoryError, RecordError
from evalglass.records import git_objects, git_process
from evalglass.records.baseline_files import inside_records
from evalglass.records.load import host_records, records_from_text
from evalglass.records.model import HostRecords
from evalglass.records.schema import KINDS, Record

_TREE, _LINK, _GITLINK = git_objects.TREE, git_objects.LINK, git_objects.GITLINK
_KEPT = 256  # folders, files and trees kept parsed: enough for a parent to find its child's
_MEMO = 5_000  # typed records kept for reuse (a few versions of every file), then started afresh


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
class Cut:
    """The records before a commit whose parents this clone does not have (a shallow clone):
    unknown, so nothing the commit holds is shown as its change."""

    parents: tuple[str, ...]


@attrs.frozen
class Revision:
    """A commit, the records at its first parent (none before a root commit, Cut where the
    clone's history stops), and its own."""

    commit: Commit
    before: Loaded | Cut
    after: Loaded


K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class _Kept(Generic[K, V]):
    """The last few values by key: what the next commits are likely to ask for again."""

    def __init__(self) -> None:
        self._size = _KEPT
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self._size:
            self._items.popitem(last=False)
        return value


_Entry = git_objects.TreeEntry
_Listing = Mapping[str, _Entry]


class Loader:
    """Records by commit, a window of commits at a time: each commit object, the trees down to
    the records folder and its records files read in a few batches, checked against their ids;
    the last few folders, files and trees kept parsed."""

    def __init__(self, objects: git_objects.ObjectReader, inside: str) -> None:
        """A loader of the records folder at `inside` (repository-relative), through `objects`."""
        self._objects = objects
        self._oid_bytes = 20
        self._inside = inside
        self._parts = [] if inside == "." else inside.split("/")
        self._prefix = "" if inside == "." else f"{inside}/"
        self._by_folder: _Kept[str, Loaded] = _Kept()
        self._by_blob: _Kept[tuple[str, str], Mapping[str, Record] | RecordError] = _Kept()
        self._trees: _Kept[str, _Listing] = _Kept()
        self._blobs: dict[str, bytes] = {}  # this window's records files, by id
        self._window: dict[str, _Listing] = {}  # this window's trees, by id, whatever is kept
        # Typed records by their text and lines: one edit leaves most of a file's records as
        # they were, and those are not typed again. Started afresh past _MEMO entries.
        self._memo: dict[object, Record] = {}

    def revisions(self, window: list[Commit]) -> Iterator[Revision]:
        """Each commit of the window with the records before and after it."""
        if not window:
            return
        self._oid_bytes = len(window[0].id) // 2
        ids = [c.id for c in window] + [c.parents[0] for c in window if c.parents]
        commits = dict(self._read_many(list(dict.fromkeys(ids)), "commit", "", _commit_object))
        folders = self._folders({oid: c.tree for oid, c in commits.items()})
        self._fetch_files(folders)
        for commit in window:
            after = self._at(commit.id, folders[commit.id])
            before: Loaded | Cut
            if commit.parents:
                before = self._at(commit.parents[0], folders[commit.parents[0]])
            elif commits[commit.id].parents:
                before = Cut(commits[commit.id].parents)  # this clone stops here
            else:
                before = HostRecords()
            yield Revision(commit, before, after)
        self._blobs.clear()
        self._window.clear()
        if len(self._memo) > _MEMO:
            self._memo.clear()

    def _read_many(
        self, oids: list[str], kind: str, path: str, parse: Callable[[bytes], T]
    ) -> Iterator[tuple[str, T]]:
        """(id, parse(content)) for each id, every failure a RecordError naming `path`."""
        where = path or self._inside
        try:
            for oid, data in self._objects.read_many(oids, kind):
                try:
                    yield oid, parse(data)
                except git_objects.ObjectError as exc:
                    raise HistoryError(where, f"git object {oid} {exc}") from None
        except git_process.GitFailed as exc:
            raise HistoryError(where, exc.reason) from None
        except git_objects.ObjectMissing:
            raise HistoryError(where, "git has no such object in this clone") from None
        except git_objects.ObjectError as exc:
            raise HistoryError(where, str(exc)) from None

    def _listings(self, oids: list[str], path: str) -> None:
        """Each tree of `oids` parsed into this window's, read in one batch if not kept."""
        missing = []
        for oid in dict.fromkeys(oids):
            kept = self._window.get(oid)
            kept = self._trees.get(oid) if kept is None else kept
            if kept is None:
                missing.append(oid)
            else:
                self._window[oid] = kept
        for oid, listing in self._read_many(missing, "tree", path, self._parse_tree):
            self._window[oid] = self._trees.put(oid, listing)

    def _folders(self, roots: dict[str, str]) -> dict[str, str | _Entry | None]:
        """Each commit's records folder: its tree id, the entry that stands there instead (a
        link, a file), or None when the commit has none; walked level by level, each level's
        trees read in one batch."""
        at: dict[str, str | _Entry | None] = dict(roots)
        walked = ""
        for part in self._parts:
            trees = [oid for oid in at.values() if isinstance(oid, str)]
            self._listings(trees, walked)
            walked = f"{walked}/{part}" if walked else part
            for commit, oid in at.items():
                if isinstance(oid, str):
                    entry = self._window[oid].get(part)
                    at[commit] = entry.oid if entry and entry.mode == _TREE else entry
        self._listings([oid for oid in at.values() if isinstance(oid, str)], self._inside)
        return at

    def _fetch_files(self, folders: Mapping[str, str | _Entry | None]) -> None:
        """Read this window's records files that are not parsed already, in one batch; one
        that is missing is left to be read (and found missing) alone."""
        wanted: dict[str, str] = {}  # id: where it is, for a message
        for commit, folder in folders.items():
            if not isinstance(folder, str) or self._by_folder.get(folder) is not None:
                continue
            listing = self._window[folder]
            for kind, spec in KINDS.items():
                entry = listing.get(spec.filename)
                if entry and entry.is_file and self._by_blob.get((kind, entry.oid)) is None:
                    wanted.setdefault(entry.oid, f"{self._prefix}{spec.filename} at {commit[:12]}")
        try:
            for oid, data in self._objects.read_many(sorted(wanted), "blob", _inputs.PARSE_BYTES):
                self._blobs[oid] = data
        except git_objects.ObjectMissing:
            return
        except _inputs.TooLarge as exc:
            raise HistoryError(self._failed(wanted), str(exc)) from None
        except git_process.GitFailed as exc:
            raise HistoryError(self._failed(wanted), exc.reason) from None
        except git_objects.ObjectError as exc:
            raise HistoryError(self._failed(wanted), str(exc)) from None

    def _failed(self, wanted: dict[str, str]) -> str:
        """Where the first file of `wanted` not read is: the one that failed."""
        unread = (where for oid, where in sorted(wanted.items()) if oid not in self._blobs)
        return next(unread, self._inside)

    def _at(self, commit: str, folder: str | _Entry | None) -> Loaded:
        if folder is None:
            return HostRecords()  # no records folder at that commit: no records
        if not isinstance(folder, str):
            return RecordError(
                self._inside,
                f"is {_what(folder.mode)}, not a folder; records are read "
                "as committed, never through links",
            )
        loaded = self._by_folder.get(folder)
        if loaded is None:
            loaded = self._by_folder.put(folder, self._load(folder))
        return loaded

    def _load(self, folder: str) -> Loaded:
        listing = self._listing(folder)
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
        except HistoryError:
            raise
        except RecordError as exc:
            return _bare(exc)

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
        if not entry.is_file:
            return RecordError(
                path,
                f"is {_what(entry.mode)}, not a file; records are read as "
                "committed, never through links or other repositories",
            )
        key = (kind, entry.oid)
        found = self._by_blob.get(key)
        if found is None:
            try:
                found = records_from_text(kind, self._text(entry.oid, path), path, self._memo)
            except HistoryError:
                raise
            except RecordError as exc:
                found = _bare(exc)
            self._by_blob.put(key, found)
        return found

    def _beside(self, folder: str, name: str) -> str | None:
        """A file below the records folder (a baseline's saved scorecard), or None."""
        entry = self._entry(folder, name)
        return None if entry is None else self._text(entry.oid, self._prefix + name)

    def _entry(self, folder: str, name: str) -> _Entry | None:
        """The tree entry of a file below the records folder, or None. RecordError for a link or
        another repository at `name` or in its path."""
        *parents, last = name.split("/")
        listing = self._listing(folder)
        for part in parents:
            entry = listing.get(part)
            if entry is None:
                return None
            if entry.mode != _TREE:
                raise RecordError(self._prefix + name, f"has {_what(entry.mode)} in its path")
            listing = self._listing(entry.oid, self._prefix + name)
        entry = listing.get(last)
        if entry is None:
            return None
        if not entry.is_file:
            raise RecordError(self._prefix + name, f"is {_what(entry.mode)}, not a file")
        return entry

    def _listing(self, oid: str, path: str = "") -> _Listing:
        listing = self._window.get(oid)
        listing = self._trees.get(oid) if listing is None else listing
        if listing is None:
            ((_, listing),) = self._read_many([oid], "tree", path, self._parse_tree)
            self._trees.put(oid, listing)
        return listing

    def _text(self, oid: str, path: str) -> str:
        data = self._blobs.get(oid)
        if data is None:
            try:
                data = self._objects.read(oid, "blob", _inputs.PARSE_BYTES)
            except _inputs.TooLarge as exc:
                raise HistoryError(path, str(exc)) from None
            except git_objects.ObjectMissing:
                raise RecordError(path, "git has no such file in this clone") from None
            except git_objects.ObjectError as exc:
                raise HistoryError(path, str(exc)) from None
            except git_process.GitFailed as exc:
                raise HistoryError(path, exc.reason) from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            raise RecordError(path, "is not valid UTF-8", line) from None

    def _parse_tree(self, data: bytes) -> _Listing:
        return git_objects.parse_tree(data, self._oid_bytes)


def _bare(error: RecordError) -> RecordError:
    """The error without its traceback or the exception it replaced: a kept error would keep
    every frame it was raised through, and with them the window of commits being read."""
    error.__traceback__ = error.__context__ = error.__cause__ = None
    return error


def _commit_object(data: bytes) -> git_objects.CommitObject:
    return git_objects.parse_commit(data)


def _what(mode: str) -> str:
    if mode == _LINK:
        return "a symbolic link"
    if mode == _GITLINK:
        return "a submodule"
    if mode.startswith("100"):
        return "a file"
    return "a folder" if mode == _TREE else f"an entry of mode {mode}"
