"""git objects read by their ids and checked against them: one `git cat-file --batch` per reader,
each object's bytes hashed as git hashes them (`<type> <size>\\0<content>`, SHA-1 or SHA-256 by
the id's length) and refused when the hash is not the id asked for. git does not check a loose
object when it reads one, so a rewritten object file would otherwise say anything.

Parsing of commits (their tree and parents) and of trees (their entries) is here too, so that
what a reader walks is only what was checked. Reads git; writes nothing but where told to.
"""

from __future__ import annotations

import hashlib
import os
import re
import selectors
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from typing import IO, BinaryIO, Self

import attrs

from evalglass import _inputs
from evalglass.records import git_process

_HEX = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_ALGORITHM = {40: "sha1", 64: "sha256"}
_CHUNK = 1 << 20
# Modes as a tree object writes them (ls-tree pads the folder's to 040000).
TREE, LINK, GITLINK = "40000", "120000", "160000"


def is_object_id(text: str) -> bool:
    """Whether `text` is a full object id: 40 hex digits (SHA-1) or 64 (SHA-256), lower case."""
    return _HEX.fullmatch(text) is not None


class ObjectError(Exception):
    """An object could not be read, or is not what its id says; `str()` is the message."""


class ObjectMissing(ObjectError):
    """git has no object of that id."""


@attrs.frozen
class TreeEntry:
    """One entry of a tree: its mode as the tree writes it, and its object id."""

    mode: str
    oid: str

    @property
    def is_file(self) -> bool:
        """A regular file (executable or not): never a link, a folder or a submodule."""
        return self.mode.startswith("100")


@attrs.frozen
class CommitObject:
    """What a commit object says of its tree and its parents."""

    tree: str
    parents: tuple[str, ...]


def parse_commit(data: bytes) -> CommitObject:
    """The tree and parents of a commit object's content; ObjectError when it has no tree."""
    tree, parents = None, []
    for line in data.split(b"\n"):
        if not line:
            break  # the headers end at the first empty line
        key, _, value = line.partition(b" ")
        if key == b"tree" and tree is None:
            tree = value.decode("ascii", "replace")
        elif key == b"parent":
            parents.append(value.decode("ascii", "replace"))
    if tree is None or not is_object_id(tree):
        raise ObjectError("is a commit object without a tree")
    return CommitObject(tree=tree, parents=tuple(parents))


def parse_tree(data: bytes, oid_bytes: int) -> dict[str, TreeEntry]:
    """A tree object's entries by name (`<mode> <name>\\0<binary id>`, one after another; names
    that are not UTF-8 kept escaped). ObjectError for a tree that does not parse."""
    entries = {}
    at = 0
    try:
        while at < len(data):
            space = data.index(b" ", at)
            nul = data.index(b"\0", space)
            end = nul + 1 + oid_bytes
            if end > len(data):
                raise ValueError
            name = data[space + 1 : nul].decode("utf-8", "surrogateescape")
            entries[name] = TreeEntry(
                mode=data[at:space].decode("ascii"), oid=data[nul + 1 : end].hex()
            )
            at = end
    except (ValueError, UnicodeDecodeError):
        raise ObjectError("is a tree object that does not parse") from None
    return entries


def object_id(kind: str, data: bytes, length: int = 40) -> str:
    """The id git gives an object of `kind` holding `data`, in the format of ids `length` hex
    digits long."""
    digest = hashlib.new(_ALGORITHM[length])
    digest.update(f"{kind} {len(data)}\0".encode("ascii"))
    digest.update(data)
    return digest.hexdigest()


class ObjectReader:
    """One `git cat-file --batch` in the current directory's repository, started on first use
    and stopped on exit; no read waits longer than `timeout` seconds for git."""

    def __init__(self, timeout: float) -> None:
        """A reader whose git is stopped when it takes longer than `timeout` seconds."""
        self._timeout = timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buffer = bytearray()

    def __enter__(self) -> Self:
        """The reader itself."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop git."""
        self.close()

    def close(self) -> None:
        """Stop git, if it was started, once it has answered what it was asked."""
        self._stop(kill=False)

    def _stop(self, *, kill: bool = True) -> None:
        process, self._process = self._process, None
        self._buffer.clear()
        if process is None:
            return
        if kill:
            process.kill()
        assert process.stdin is not None
        try:
            process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=self._timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def read(self, oid: str, kind: str, cap: _inputs.Cap | None = None) -> bytes:
        """The content of object `oid`, which must be a `kind` ("commit", "tree", "blob") whose
        bytes hash to `oid`; refused past `cap` (from the size git states, before reading it).
        ObjectMissing when git has none; ObjectError for anything else."""
        # Read to the end: a generator left open would stop git when collected.
        ((_, data),) = self.read_many([oid], kind, cap)
        return data

    def read_many(
        self, oids: Iterable[str], kind: str, cap: _inputs.Cap | None = None
    ) -> Iterator[tuple[str, bytes]]:
        """(id, content) of each object as `read` checks it, in order; the requests are written
        while the answers are read, so there is no round trip per object."""
        wanted = list(oids)
        if not wanted:
            return
        for oid in wanted:
            _check_id(oid)
        process = self._start()
        writer = threading.Thread(target=self._request, args=(process, wanted), daemon=True)
        writer.start()
        try:
            for oid in wanted:
                size = self._header(oid, kind)
                if cap is not None:
                    cap.check(size)
                data = self._exactly(size + 1)[:-1]
                _verify(oid, kind, data)
                yield oid, data
        except BaseException:
            # Answers not yet read are still in the pipe: this git cannot be asked again.
            self._stop()
            raise
        finally:
            writer.join(self._timeout)

    def copy(self, oid: str, target: BinaryIO) -> None:
        """Write the blob `oid` to `target` a chunk at a time, hashing it on the way: a large
        file is never held in memory. ObjectError (after `target` got the bytes, which must not
        be used) when they do not hash to `oid`."""
        _check_id(oid)
        process = self._start()
        self._request(process, [oid])
        digest = hashlib.new(_ALGORITHM[len(oid)])
        try:
            size = self._header(oid, "blob")
            digest.update(f"blob {size}\0".encode("ascii"))
            left = size
            while left:
                chunk = self._some(min(left, _CHUNK))
                digest.update(chunk)
                target.write(chunk)
                left -= len(chunk)
            self._exactly(1)
        except BaseException:
            self._stop()
            raise
        if digest.hexdigest() != oid:
            raise ObjectError(_mismatch(oid, digest.hexdigest()))

    def _start(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            # A file, not a pipe: git's few words wait there without anyone reading them.
            self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by _stop
            try:
                self._process = subprocess.Popen(
                    git_process.command(["cat-file", "--batch"]),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=self._stderr,
                    env=git_process.environment(),
                )
            except FileNotFoundError:
                self._stderr.close()
                self._stderr = None
                raise git_process.GitMissing("git is not installed") from None
        return self._process

    def _request(self, process: subprocess.Popen[bytes], oids: list[str]) -> None:
        assert process.stdin is not None
        try:
            process.stdin.write("".join(f"{oid}\n" for oid in oids).encode("ascii"))
            process.stdin.flush()
        except (OSError, ValueError):
            pass  # git stopped: the reading side says why

    def _header(self, oid: str, kind: str) -> int:
        line = self._line()
        parts = line.split(" ")
        if len(parts) == 2 and parts[1] == "missing":
            raise ObjectMissing("git has no such object")
        if len(parts) != 3 or parts[0] != oid or not parts[2].isdigit():
            raise ObjectError("git cat-file gave an answer it should not have")
        if parts[1] != kind:
            raise ObjectError(f"git object {oid} is a {parts[1]}, not a {kind}")
        return int(parts[2])

    def _line(self) -> str:
        while (end := self._buffer.find(b"\n")) < 0:
            self._fill()
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        return line.decode("utf-8", "replace")

    def _exactly(self, size: int) -> bytes:
        parts, left = [], size
        while left:
            chunk = self._some(min(left, _CHUNK))
            parts.append(chunk)
            left -= len(chunk)
        return b"".join(parts)

    def _some(self, most: int) -> bytes:
        """Up to `most` bytes of git's answer (at least one)."""
        if not self._buffer:
            self._fill()
        chunk = bytes(self._buffer[:most])
        del self._buffer[:most]
        return chunk

    def _fill(self) -> None:
        """More of git's answer into the buffer, waiting at most the timeout for it."""
        process = self._process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            deadline = time.monotonic() + self._timeout
            while not selector.select(max(0.0, deadline - time.monotonic())):
                if time.monotonic() >= deadline:
                    raise git_process.GitFailed(f"git did not answer within {self._timeout:g} s")
        chunk = os.read(fd, max(_CHUNK, 1 << 16))
        if not chunk:
            raise git_process.GitFailed(self._why_stopped(process))
        self._buffer += chunk

    def _why_stopped(self, process: subprocess.Popen[bytes]) -> str:
        try:
            code = process.wait(timeout=self._timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait()
        said = ""
        if self._stderr is not None:
            self._stderr.seek(0)
            text = self._stderr.read(4096).decode("utf-8", "replace")
            said = next((line.strip() for line in text.splitlines() if line.strip()), "")
        return f"git cat-file failed: {said or f'exit {code}'}"


def _check_id(oid: str) -> None:
    if not is_object_id(oid):
        raise ObjectError(f"{oid!r} is not a full object id")


def _verify(oid: str, kind: str, data: bytes) -> None:
    found = object_id(kind, data, len(oid))
    if found != oid:
        raise ObjectError(_mismatch(oid, found))


def _mismatch(oid: str, found: str) -> str:
    return (
        f"git object {oid} holds content whose hash is {found}: the object store was changed "
        "after the commit was made (run `git fsck`); nothing read from it is used"
    )
