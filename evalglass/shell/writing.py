"""Writing outputs: atomically, never over something the user gave us, never through a link.

What happens to a target depends on what is there, decided before any work (`check`) and again
when writing, since it may have changed meanwhile:

- nothing: a new regular file, readable as the umask allows (0644 under the usual 022);
- a regular file: replaced atomically, keeping its permission bits; a reader never sees half a
  file, and a run that fails leaves the old one as it was;
- a character device or a FIFO (`/dev/null`, `/dev/stdout` to a terminal or a pipe): written
  through, never replaced;
- a symbolic link to anything else, a directory, a socket or a block device: refused. A link in
  the working tree may have been put there by the very change under test, to aim the write at a
  file outside it; name the link's target instead.

Host records and eval outputs are never written, wherever the path or its links lead. Several
targets are staged first (each in a temporary file beside it) and put in place only once all
are ready, so a failure before the first is put in place changes nothing.
"""

from __future__ import annotations

import enum
import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

from evalglass.errors import WriteError


class WriteKind(enum.Enum):
    """What writing a target does, from what is at its path."""

    NEW = "new"  # created
    REPLACE = "replace"  # a regular file, replaced atomically
    THROUGH = "through"  # a character device or FIFO, written to in place


def check(target: Path, records: Path, inputs: Iterable[Path]) -> str | None:
    """Why `target` must not be written, or None. Checked before any work is done."""
    reason = protected(target, records, inputs)
    if reason is not None:
        return reason
    try:
        _kind(target)
    except _Refused as exc:
        return str(exc)
    return None


def protected(target: Path, records: Path, inputs: Iterable[Path]) -> str | None:
    """Why nothing may be written at or under `target` (a file, or a folder such as the check
    cache), wherever its links lead: the records folder and the eval outputs; else None."""
    where = target.resolve()
    if where.is_relative_to(records.resolve()):
        return f"{target} is inside the host-records folder {records}; evalglass never writes there"
    for given in inputs:
        source = given.resolve()
        if where == source or (given.is_dir() and where.is_relative_to(source)):
            return f"{target} would overwrite the eval output {given}"
    return None


class _Refused(Exception):
    """What is at a target may not be written; the message names it."""


def _kind(target: Path) -> WriteKind:
    try:
        link = os.lstat(target)
    except FileNotFoundError:
        parent = target.parent
        if not parent.is_dir():
            raise _Refused(f"{target}: the folder {parent} does not exist") from None
        return WriteKind.NEW
    except OSError as exc:  # too long a name, a loop of links, no permission
        shown = os.fspath(target)
        shown = shown if len(shown) <= 120 else shown[:119] + "…"
        raise _Refused(f"{shown}: {exc.strerror or exc}") from None
    mode = link.st_mode
    if stat.S_ISLNK(mode):
        try:
            mode = os.stat(target).st_mode
        except OSError:
            mode = 0
        if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
            raise _Refused(
                f"{target} is a symbolic link; evalglass does not write through links "
                "(name the file it points to)"
            )
    if stat.S_ISREG(mode):
        return WriteKind.REPLACE
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return WriteKind.THROUGH
    what = (
        "a directory"
        if stat.S_ISDIR(mode)
        else "neither a regular file, a FIFO nor a character device"
    )
    raise _Refused(f"{target} is {what}; evalglass writes only files")


@attrs.define
class _Staged:
    target: Path
    text: str
    kind: WriteKind
    temp: Path | None = None


def write_all(outputs: Sequence[tuple[Path, str]]) -> None:
    """Write each (target, text): every replaced or new file staged in a temporary file beside
    it first, then devices and FIFOs written, then the files put in place. Raises WriteError."""
    staged = [_Staged(target, text, _checked(target)) for target, text in outputs]
    try:
        for item in staged:
            if item.kind is not WriteKind.THROUGH:
                item.temp = _stage(item.target, item.text, item.kind)
        for item in staged:
            if item.kind is WriteKind.THROUGH:
                _write_through(item.target, item.text, append=False)
        for item in staged:
            if item.temp is not None:
                try:
                    os.replace(item.temp, item.target)
                except OSError as exc:
                    raise _failed(item.target, exc) from exc
                item.temp = None
    finally:
        for item in staged:
            if item.temp is not None:
                item.temp.unlink(missing_ok=True)


# Not following a link planted at the name, not inherited, bytes as given: Windows has only the
# last (O_BINARY), POSIX only the first two.
_PORTABLE = sum(getattr(os, name, 0) for name in ("O_NOFOLLOW", "O_CLOEXEC", "O_BINARY"))
_NO_TTY = getattr(os, "O_NOCTTY", 0)
# A device or FIFO is written where its name points (/dev/stdout is a link): no O_NOFOLLOW.
_THROUGH = sum(getattr(os, name, 0) for name in ("O_CLOEXEC", "O_BINARY"))


def append(target: Path, text: str) -> None:
    """Append `text` to `target` (a file others append to as well, like a CI job summary):
    created if absent, written through if a device or FIFO, refused as `check` refuses."""
    kind = _checked(target)
    if kind is WriteKind.THROUGH:
        _write_through(target, text, append=True)
        return
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _PORTABLE
    try:
        fd = os.open(target, flags, 0o666)
    except OSError as exc:
        raise _failed(target, exc) from exc
    try:
        _write(fd, target, text)
    finally:
        os.close(fd)


def _checked(target: Path) -> WriteKind:
    try:
        return _kind(target)
    except _Refused as exc:
        raise WriteError(str(target), str(exc).removeprefix(f"{target} ")) from None


def _stage(target: Path, text: str, kind: WriteKind) -> Path:
    """`text` in a new temporary file beside `target`, synced, with the mode the target has (or,
    for a new file, what the umask allows of 0666)."""
    # Only a run that writes a file pays for secrets (and the hmac and hashlib it loads).
    import secrets

    directory = target.parent if str(target.parent) else Path(".")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _PORTABLE
    for _ in range(100):
        temp = directory / f".{target.name}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(temp, flags, 0o666)
            break
        except FileExistsError:
            continue
        except OSError as exc:
            raise _failed(target, exc) from exc
    else:  # pragma: no cover - a hundred random names taken
        raise WriteError(str(target), "cannot create a temporary file beside it")
    try:
        if kind is WriteKind.REPLACE and hasattr(os, "fchmod"):
            os.fchmod(fd, stat.S_IMODE(os.stat(target).st_mode))
        _write(fd, target, text)
        os.fsync(fd)
    except BaseException as exc:
        os.close(fd)
        temp.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _failed(target, exc) from exc
        raise
    os.close(fd)
    return temp


def _write_through(target: Path, text: str, append: bool) -> None:
    """Write to the device or FIFO at `target` in place. What is opened is checked again, so a
    regular file put there meanwhile is refused rather than written over."""
    flags = os.O_WRONLY | _NO_TTY | _THROUGH | (os.O_APPEND if append else 0)
    try:
        fd = os.open(target, flags)
    except OSError as exc:
        raise _failed(target, exc) from exc
    try:
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
            raise WriteError(str(target), "changed while evalglass ran; not written")
        _write(fd, target, text)
    finally:
        os.close(fd)


def _write(fd: int, target: Path, text: str) -> None:
    data = memoryview(text.encode("utf-8"))
    try:
        while data:
            data = data[os.write(fd, data) :]
    except OSError as exc:
        raise _failed(target, exc) from exc


def _failed(target: Path, exc: OSError) -> WriteError:
    return WriteError(str(target), f"cannot be written: {exc.strerror or exc}")
