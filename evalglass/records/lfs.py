"""Git LFS pointers standing in for a file beside the records: recognising one (pure), and
copying its object out of the records' repository's local LFS store, verified. Never runs
git-lfs and never touches the network: an object this clone lacks is refused, not downloaded.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import BinaryIO

import attrs

from evalglass.records import git_process

# A pointer is smaller than this, by the spec and by git-lfs's own cut-off.
LIMIT = 1024
# The spec's version, and the two earlier ones git-lfs still reads as the same format.
VERSIONS = frozenset(
    {
        "https://git-lfs.github.com/spec/v1",
        "https://hawser.github.com/spec/v1",
        "http://git-media.io/v/2",
    }
)
_KEY = re.compile(r"[a-z0-9.-]+")
_OID = re.compile(r"sha256:([0-9a-f]{64})")
_SIZE = re.compile(r"0|[1-9][0-9]*")
_CHUNK = 1 << 20
TIMEOUT_SECONDS = 60.0


@attrs.frozen
class Pointer:
    """What a pointer file says: the object's sha256 (hex) and size, and its other keys."""

    oid: str
    size: int
    version: str = "https://git-lfs.github.com/spec/v1"
    others: tuple[tuple[str, str], ...] = ()  # keys besides version, oid and size, in order

    @property
    def extensions(self) -> tuple[str, ...]:
        """The LFS extensions the file went through: its object is their output, not the file."""
        return tuple(key for key, _ in self.others if key.startswith("ext-"))


def parse(data: bytes) -> Pointer | None:
    """The pointer `data` is, or None when it is not one. Only the spec's one encoding of a
    pointer is one (UTF-8, `key value` lines each ending in a newline, `version` first and the
    other keys sorted, a sha256 oid and a decimal size); anything else is the file's content,
    as git-lfs leaves a file it cannot read as a pointer."""
    if not data or len(data) >= LIMIT or not data.endswith(b"\n"):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    pairs = []
    for line in text[:-1].split("\n"):
        key, _, value = line.partition(" ")
        if not _KEY.fullmatch(key) or not value or value[0] == " " or "\r" in value:
            return None
        pairs.append((key, value))
    (first, version), *rest = pairs
    keys = [key for key, _ in rest]
    if first != "version" or version not in VERSIONS or keys != sorted(set(keys) - {first}):
        return None
    fields = dict(rest)
    oid = _OID.fullmatch(fields.get("oid", ""))
    size = fields.get("size", "")
    if oid is None or not _SIZE.fullmatch(size):
        return None
    others = tuple((k, v) for k, v in rest if k not in ("oid", "size"))
    return Pointer(oid=oid.group(1), size=int(size), version=version, others=others)


def pointer_in(path: Path) -> Pointer | None:
    """The pointer the file at `path` is, or None: only its first bytes are read."""
    with path.open("rb") as file:
        return parse(file.read(LIMIT))


def copy_object(
    pointer: Pointer, where: Path | None, target: BinaryIO, ref: str | None = None
) -> str | None:
    """Copy the object `pointer` names from the local LFS store of the repository around `where`
    (None: the current directory) to `target`, streamed, checking its sha256 and size on the way.
    None when copied and verified; otherwise what is wrong, said after the file's name, with
    what to run (`ref`: the git ref the pointer was read at, None for the working tree). After a
    refusal `target` holds bytes that must not be read."""
    if pointer.extensions:
        return (
            f"is a Git LFS pointer through the LFS extension(s) {', '.join(pointer.extensions)}, "
            "whose object is not the file; evalglass runs no extension"
        )
    store = _store(where)
    if not isinstance(store, Path):
        return store
    oid = pointer.oid
    path = store / "objects" / oid[0:2] / oid[2:4] / oid
    digest = hashlib.sha256()
    copied = 0
    try:
        with path.open("rb") as source:
            # One byte past the size is enough to know the object is not the pointer's.
            while copied <= pointer.size and (chunk := source.read(_CHUNK)):
                digest.update(chunk)
                target.write(chunk)
                copied += len(chunk)
    except FileNotFoundError:
        fetch = "git lfs pull" if ref is None else f"git lfs fetch origin {ref}"
        return (
            f"is a Git LFS pointer whose object this clone does not have (sha256:{oid[:12]}…); "
            f"run `{fetch}` (evalglass reads only the local LFS store)"
        )
    except OSError as exc:
        return f"is a Git LFS pointer whose object cannot be read: {exc.strerror or exc}"
    if copied != pointer.size or digest.hexdigest() != oid:
        check, fetch = (
            ("git lfs fsck", "git lfs pull")
            if ref is None
            else (f"git lfs fsck {ref}", f"git lfs fetch origin {ref}")
        )
        return (
            f"is a Git LFS pointer whose object in the local LFS store is corrupt (not the "
            f"{pointer.size} bytes of sha256:{oid[:12]}… it names); `{check}` moves it aside, "
            f"then run `{fetch}`"
        )
    return None


def _store(where: Path | None) -> Path | str:
    """The local LFS store (`lfs` in git's common directory, or `lfs.storage`, taken from there
    when relative, as git-lfs takes it), or what keeps it from being found."""
    common = _git(where, "rev-parse", "--git-common-dir")
    if not isinstance(common, bytes):
        return common
    if not common.strip():
        return (
            "is a Git LFS pointer, and the records folder is in no git repository whose LFS "
            "store could hold its object"
        )
    base = Path(where or ".") / os.fsdecode(common.rstrip(b"\n"))
    # Exit 1 without a word: the key is not set.
    storage = _git(where, "config", "--get", "lfs.storage", unset=True)
    if not isinstance(storage, bytes):
        return storage
    named = os.fsdecode(storage.rstrip(b"\n"))
    return base / named if named else base / "lfs"


def _git(where: Path | None, *args: str, unset: bool = False) -> bytes | str:
    """git's stdout in `where`; b"" outside a git repository (and, with `unset`, for a failure git
    gives no reason for: a config key not set); otherwise what went wrong, said after the file's
    name."""
    try:
        return git_process.run(args, timeout=TIMEOUT_SECONDS, cwd=where)
    except git_process.GitMissing:
        return "is a Git LFS pointer, and reading its object from the LFS store needs git"
    except git_process.GitFailed as exc:
        silent = exc.returncode is not None and not exc.said
        if "not a git repository" in exc.stderr or (silent and unset):
            return b""
        return f"is a Git LFS pointer, and {exc.reason}"
