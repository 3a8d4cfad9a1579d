"""Host records as committed at a git ref, so a pull request cannot grant itself authority.

The records are the tree at that ref under the path as given, walked object by object from the
commit (rev-parse names it; every commit, tree and blob after it is read by id and checked
against that id, so the bytes are the commit's whatever was written into `.git` since): nothing
in the working tree, a symbolic link least of all, decides which blobs are read. A link or
submodule where records should be is refused, and every git failure is an error; only a path
missing from a tree that was read means "absent". Never writes, never checks anything out.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from typing import BinaryIO

import attrs

from evalglass import _inputs
from evalglass._collector import paused
from evalglass.errors import RecordError
from evalglass.records import git_objects, git_process
from evalglass.records.load import host_records, records_from_text
from evalglass.records.model import HostRecords
from evalglass.records.schema import KINDS

TIMEOUT_SECONDS = 60.0
_TREE, _LINK, _GITLINK = git_objects.TREE, git_objects.LINK, git_objects.GITLINK


def load_records_at(
    ref: str, folder: str | os.PathLike[str], *, at: str | None = None
) -> HostRecords:
    """Load the records folder as committed at `ref` (a branch, tag or commit).

    `folder` is taken lexically relative to the current directory's place in the repository
    (`..` included, links never followed); it need not exist in the working tree. Raises
    RecordError when git, the ref or the folder is missing, when git fails in any way, and when
    the folder or a records file at the ref is a symbolic link or a submodule. `at`: the commit
    `ref` named when the caller pinned it (`commit_of`); messages still name `ref`.
    """
    given = os.fspath(folder)
    repo = _Repo(ref, given, at)
    if not ref:
        raise repo.error("", "an empty git ref names no commit")
    if not given:
        raise repo.error("", "an empty records folder names no folder")
    with repo.objects:
        return _load(repo, given)


def _load(repo: _Repo, given: str) -> HostRecords:
    inside = repo.place(given)
    commit = repo.commit()
    root = repo.tree_of(commit)
    folder_tree = repo.walk(root, inside, folder=True)
    listing = repo.listing(folder_tree, inside)
    prefix = "" if inside == "." else f"{inside}/"

    def read_beside(name: str) -> str | None:
        # `name` is already normalised inside the records folder (baseline_files refuses others).
        entry = repo.find(folder_tree, inside, name)
        path = prefix + name
        return None if entry is None else repo.text(repo.blob_id(entry, path), path)

    def present(name: str) -> str | None:
        entry = repo.find(folder_tree, inside, name)
        if entry is None:
            return "not found next to the records"
        repo.blob_id(entry, prefix + name)  # a link, a folder or a submodule is refused
        return None

    loaded = {}
    with paused():  # as load_records does, across the files
        for kind, spec in KINDS.items():
            entry = listing.get(spec.filename)
            path = prefix + spec.filename
            text = None if entry is None else repo.text(repo.blob_id(entry, path), path)
            loaded[kind] = {} if text is None else records_from_text(kind, text, repo.where(path))
        return host_records(loaded, read_beside, present)


def copy_file_at(
    ref: str,
    folder: str | os.PathLike[str],
    name: str,
    target: BinaryIO,
    *,
    at: str | None = None,
) -> bool:
    """Write the file at `name` (normalised, inside the records folder) as committed at `ref`
    (pinned to the commit `at`, when given) to `target`, streamed; False when the tree has no
    such file. Raises RecordError as load_records_at does (a link or submodule at `name`
    included)."""
    given = os.fspath(folder)
    repo = _Repo(ref, given, at)
    if not ref:
        raise repo.error("", "an empty git ref names no commit")
    with repo.objects:
        inside = repo.place(given)
        folder_tree = repo.walk(repo.tree_of(repo.commit()), inside, folder=True)
        entry = repo.find(folder_tree, inside, name)
        if entry is None:
            return False
        path = ("" if inside == "." else f"{inside}/") + name
        repo.copy_blob(repo.blob_id(entry, path), path, target)
        return True


def repository_path(folder: str | os.PathLike[str]) -> str:
    """The records folder as a path from the top of the repository around the current directory
    (`.` for the top), taken lexically as load_records_at takes it; RecordError outside a git
    repository or for a folder outside it."""
    given = os.fspath(folder)
    if not given:
        raise RecordError("", "an empty records folder names no folder")
    return _Repo("HEAD", given).place(given)


def commit_of(ref: str, folder: str | os.PathLike[str] = "") -> str:
    """The commit `ref` names now, in the repository around the current directory: a caller that
    must keep reading the same records even if the ref later moves reads this commit instead.
    `folder` is only named in messages, as load_records_at names it."""
    repo = _Repo(ref, os.fspath(folder))
    if not ref:
        raise repo.error("", "an empty git ref names no commit")
    return repo.commit()


_Entry = git_objects.TreeEntry


@attrs.frozen
class _Repo:
    """git plumbing for one ref and folder; every failure becomes a one-line RecordError."""

    ref: str
    given: str
    at: str | None = None  # the commit `ref` was pinned to, if it was
    objects: git_objects.ObjectReader = attrs.field(
        factory=lambda: git_objects.ObjectReader(TIMEOUT_SECONDS), eq=False, repr=False
    )

    def where(self, path: str) -> str:
        return _one_line(f"{self.ref}:{path}")

    def error(self, path: str, message: str) -> RecordError:
        return RecordError(self.where(path or self.given), _one_line(message))

    def place(self, given: str) -> str:
        """The folder as a path from the repository's top, lexically; refused if it leaves it."""
        if os.path.isabs(given):
            top = self._git("", "rev-parse", "--show-toplevel").decode("utf-8", "replace").strip()
            inside = os.path.relpath(given, top)
        else:
            prefix = self._git("", "rev-parse", "--show-prefix").decode("utf-8", "replace").strip()
            inside = posixpath.join(prefix, given.replace(os.sep, "/"))
        inside = posixpath.normpath(inside.replace(os.sep, "/"))
        if inside == ".." or inside.startswith("../"):
            raise self.error(given, "the records folder is outside this git repository")
        return inside

    def commit(self) -> str:
        if self.at is not None:
            return self.at
        # --quiet: a ref that names no commit fails without a word, anything else with one.
        found = self._git(
            "",
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            f"{self.ref}^{{commit}}",
            silent_failure=b"",
        )
        if not found.strip():
            raise self.error(
                "",
                f"git ref '{self.ref}' is not in this clone; fetch it first, e.g. "
                f"`git fetch --depth=1 origin {self.ref.removeprefix('origin/')}`",
            )
        return found.decode("ascii").strip()

    def tree_of(self, commit: str) -> str:
        """The commit's tree, from the commit object itself (checked against its id), never
        from a cache of commits."""
        try:
            return git_objects.parse_commit(self._object(commit, "commit", "")).tree
        except git_objects.ObjectError as exc:
            raise self.error("", f"commit {commit}: {exc}") from None

    def listing(self, tree: str, path: str) -> Mapping[str, _Entry]:
        """Every entry of one tree, by name (names that are not UTF-8 kept escaped)."""
        data = self._object(tree, "tree", path)
        try:
            return git_objects.parse_tree(data, len(tree) // 2)
        except git_objects.ObjectError as exc:
            raise self.error(path, f"tree {tree} {exc}") from None

    def walk(self, root: str, path: str, *, folder: bool) -> str:
        """The tree id at `path` under `root`, every step a real folder at the ref."""
        tree = root
        walked = ""
        for part in [] if path == "." else path.split("/"):
            walked = posixpath.join(walked, part)
            entry = self.listing(tree, walked).get(part)
            if entry is None:
                raise self.error(walked, f"there is no folder '{walked}' at {self.ref}")
            tree = self._tree_id(entry, walked)
        return tree

    def find(self, folder_tree: str, inside: str, name: str) -> _Entry | None:
        """The entry at `name` below the records folder; None only when a tree lacks it."""
        *parents, last = name.split("/")
        tree, walked = folder_tree, "" if inside == "." else inside
        for part in parents:
            walked = posixpath.join(walked, part)
            entry = self.listing(tree, walked).get(part)
            if entry is None:
                return None
            tree = self._tree_id(entry, walked)
        return self.listing(tree, walked).get(last)

    def _tree_id(self, entry: _Entry, path: str) -> str:
        if entry.mode == _TREE:
            return entry.oid
        raise self.error(path, f"is {_what(entry)} at {self.ref}, not a folder; {_WHY}")

    def blob_id(self, entry: _Entry, path: str) -> str:
        if entry.mode.startswith("100"):
            return entry.oid
        raise self.error(path, f"is {_what(entry)} at {self.ref}, not a file; {_WHY}")

    def text(self, oid: str, path: str) -> str:
        data = self._object(oid, "blob", path, _inputs.PARSE_BYTES)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            raise RecordError(self.where(path), "is not valid UTF-8", line) from None

    def copy_blob(self, oid: str, path: str, target: BinaryIO) -> None:
        """The blob's bytes written to `target` as git streams them: a large file is never held
        in memory."""
        try:
            self.objects.copy(oid, target)
        except git_process.GitFailed as exc:
            raise self.error(path, exc.reason) from None
        except git_objects.ObjectMissing:
            raise self.error(path, f"git has no object {oid} in this clone") from None
        except git_objects.ObjectError as exc:
            raise self.error(path, str(exc)) from None

    def _object(self, oid: str, kind: str, path: str, cap: _inputs.Cap | None = None) -> bytes:
        """The content of `oid`, checked against it; every failure an error naming `path`."""
        try:
            return self.objects.read(oid, kind, cap)
        except git_process.GitFailed as exc:
            raise self._failed(path, exc) from None
        except git_objects.ObjectMissing:
            raise self.error(path, f"git has no object {oid} in this clone") from None
        except git_objects.ObjectError as exc:
            raise self.error(path, str(exc)) from None
        except _inputs.TooLarge as exc:
            raise self.error(path, str(exc)) from None

    def _git(self, path: str, *args: str, silent_failure: bytes | None = None) -> bytes:
        """git's stdout; anything else git does (an error, a hang, no git at all) raises, except
        a failure git gives no reason for, which returns `silent_failure` when that is set."""
        try:
            return git_process.run(args, timeout=TIMEOUT_SECONDS)
        except git_process.GitFailed as exc:
            if exc.returncode is not None and not exc.said and silent_failure is not None:
                return silent_failure
            raise self._failed(path, exc) from None

    def _failed(self, path: str, exc: git_process.GitFailed) -> RecordError:
        if "dubious ownership" in exc.stderr or "dubious ownership" in exc.reason:
            return self.error(
                path,
                "git refuses this repository for its dubious ownership (owned "
                "by another user); if it is yours, add it to git's "
                "safe.directory",
            )
        if "not a git repository" in exc.stderr:
            return self.error(path, "reading records from a git ref needs a git repository here")
        return self.error(path, exc.reason)


_WHY = "records are read as committed, never through links or other repositories"


def _what(entry: _Entry) -> str:
    if entry.mode == _LINK:
        return "a symbolic link"
    if entry.mode == _GITLINK:
        return "a submodule"
    return "a folder" if entry.mode == _TREE else f"an entry of mode {entry.mode}"


def _one_line(text: str) -> str:
    """Control characters (a newline in a ref or path above all) escaped, so a message stays one
    line and cannot forge a line of output."""
    return "".join(
        ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )
