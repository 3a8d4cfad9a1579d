"""JSON members of a zip archive, streamed, including the zstd members (method 93) that Inspect
writes and Python 3.11's zipfile refuses; sizes and CRCs are checked as zipfile does. The
directory is read by _zip_directory.py and each member decompressed here, so an archive of tens
of thousands of members costs no more than the few read. Archive and decompression errors leave
as `OutputError`; it knows nothing of what the JSON means."""

from __future__ import annotations

import contextlib
import io
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from typing import IO, Any, Self, cast

from evalglass._inputs import ARCHIVE_BYTES, TooLarge
from evalglass.errors import OutputError
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.adapters._common import ZIP_MAGIC
from evalglass.evidence.adapters._json_stream import JsonStream
from evalglass.evidence.adapters._zip_directory import Directory

_ZSTD_METHOD = 93
# Stored, deflate and zstd: what Inspect writes. zipfile's bzip2 and lzma readers decompress a
# whole chunk at once, however far it expands.
_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, _ZSTD_METHOD})


def _decompress_errors() -> tuple[type[Exception], ...]:
    # zstandard is imported only once a zstd member is read: sniffing a file never loads it.
    import zstandard

    return (
        zipfile.BadZipFile,
        zstandard.ZstdError,
        zlib.error,
        EOFError,
        struct.error,  # a directory record cut short
    )


class JsonArchive:
    """An open zip archive whose members are parsed as JSON one at a time, within the caps on
    what the members read may expand to together and what is parsed in one piece."""

    def __init__(self, raw: IO[bytes], shown: str) -> None:
        self._raw, self._shown = raw, shown
        try:
            self._directory = Directory(raw)
        except (zipfile.BadZipFile, EOFError, ValueError, struct.error) as exc:
            raise OutputError(
                shown, f"not a readable zip archive (truncated?): {c.one_line(exc)}"
            ) from exc
        self.names = self._directory.names
        self._expanded = 0

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        """The file is the caller's to close."""

    def load(self, name: str) -> Any:
        """The member parsed whole: it may be no larger than the parse cap."""
        with self._member(name) as (stream, size):
            return c.load_json_stream(stream, self._shown, name, size)

    @contextlib.contextmanager
    def stream(self, name: str) -> Iterator[JsonStream]:
        """The member as a JsonStream, to be read a piece at a time. Its errors, raised while the
        caller reads, leave as `load` would raise them."""
        with self._member(name) as (stream, _), c.json_errors(self._shown, name):
            yield JsonStream(stream)

    @contextlib.contextmanager
    def _member(self, name: str) -> Iterator[tuple[IO[bytes], int]]:
        """The member's bytes as they are decompressed, and the size the archive declares for
        it, which decompressing never goes past."""
        with _decompress_errors_as(self._shown, name):
            info = self._directory.info(name)
        if info.compress_type not in _METHODS:
            raise OutputError(
                self._shown,
                f"{name}: compression method {info.compress_type} is not one "
                "evalglass reads (stored, deflate or zstd)",
            )
        self._expanded += info.file_size
        try:
            ARCHIVE_BYTES.check(self._expanded)
        except TooLarge as exc:
            raise OutputError(self._shown, f"{name}: {exc}") from None
        with _decompress_errors_as(self._shown, name):
            raw: IO[bytes] = _Member(self._raw, info)  # type: ignore[assignment]
        stream = io.BufferedReader(_Translated(raw, self._shown, name), 1 << 16)
        with stream:
            yield stream, info.file_size


@contextlib.contextmanager
def _decompress_errors_as(shown: str, name: str) -> Iterator[None]:
    """An archive or decompression error, as an OutputError naming the member."""
    try:
        yield
    except _decompress_errors() as exc:
        raise OutputError(shown, f"{name}: cannot decompress: {c.one_line(exc)}") from exc


class _Translated(io.RawIOBase):
    """A member's decompressing reader whose errors leave as OutputError where they happen, so
    an error in the code that reads the JSON is never taken for a damaged archive."""

    def __init__(self, inner: IO[bytes], shown: str, name: str) -> None:
        super().__init__()
        self._inner, self._shown, self._name = inner, shown, name

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        with _decompress_errors_as(self._shown, self._name):
            data = self._inner.read(len(view))
        view[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._inner.close()
        super().close()


class _Member(io.RawIOBase):
    """One member, decompressed (zstd, deflate, or stored as it is) as it is read straight from
    the archive file, never past the size the directory declares."""

    def __init__(self, raw: IO[bytes], info: zipfile.ZipInfo) -> None:
        super().__init__()
        if info.flag_bits & 0x1:
            raise zipfile.BadZipFile("encrypted member")
        raw.seek(info.header_offset)
        local = raw.read(30)
        if len(local) != 30 or not local.startswith(ZIP_MAGIC):
            raise zipfile.BadZipFile("bad local file header")
        # The local header's name and extra fields may differ in length from the directory's.
        name_len, extra_len = struct.unpack("<HH", local[26:30])
        raw.seek(info.header_offset + 30 + name_len + extra_len)
        self._source = _Bounded(raw, info.compress_size)
        self._read: Callable[[int], bytes] = self._source.read
        if info.compress_type == _ZSTD_METHOD:
            import zstandard

            # zstandard reads any object with read(); its stubs ask for IO.
            source = cast(IO[bytes], self._source)
            decompressor = zstandard.ZstdDecompressor()
            self._read = decompressor.stream_reader(source, read_across_frames=True).read
        elif info.compress_type == zipfile.ZIP_DEFLATED:
            self._inflate = zlib.decompressobj(-zlib.MAX_WBITS)
            self._read = self._inflated
        self._expected_size, self._expected_crc = info.file_size, info.CRC
        self._size, self._crc = 0, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        data = self._read(len(view))
        if not data:
            if self._size != self._expected_size or self._crc != self._expected_crc:
                raise zipfile.BadZipFile("size or CRC does not match the archive directory")
            return 0
        self._size += len(data)
        if self._size > self._expected_size:
            raise zipfile.BadZipFile("member is longer than the archive directory says")
        self._crc = zlib.crc32(data, self._crc)
        view[: len(data)] = data
        return len(data)

    def _inflated(self, size: int) -> bytes:
        """Up to `size` bytes inflated: never more at once, however far the input expands."""
        while True:
            pending = self._inflate.unconsumed_tail or self._source.read(1 << 16)
            if not pending:
                if not self._inflate.eof:
                    raise EOFError("compressed member ended before its end-of-stream marker")
                return b""
            data = self._inflate.decompress(pending, size)
            if data or self._inflate.eof:
                return data


class _Bounded:
    """The compressed bytes of one member, so the decompressor never reads into the next."""

    def __init__(self, raw: IO[bytes], size: int) -> None:
        self._raw, self._left = raw, size

    def read(self, size: int = -1) -> bytes:
        want = self._left if size < 0 else min(size, self._left)
        data = self._raw.read(want) if want else b""
        self._left -= len(data)
        return data
