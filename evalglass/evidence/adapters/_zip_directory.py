"""A zip archive's central directory, read in one piece and walked once: each member's name and
where its record lies, the rest of the record parsed only for the members opened.

An Inspect `.eval` log holds a member per sample, tens of thousands of them, and its reader opens
three: zipfile builds a ZipInfo for every member (its extras and its timestamps decoded), several
times the time of this walk. Anything in the directory it cannot make sense of is a
`zipfile.BadZipFile`, for the caller to name."""

from __future__ import annotations

import struct
import zipfile
from typing import IO

_END = b"PK\x05\x06"
_END_SIZE = 22
_LOCATOR = b"PK\x06\x07"
_LOCATOR_SIZE = 20
_END64 = b"PK\x06\x06"
_END64_SIZE = 56
_CENTRAL = b"PK\x01\x02"
_CENTRAL_SIZE = 46
# Each record's signature, flags and the lengths of its name, extra field and comment.
_LENGTHS = struct.Struct("<4s4xH18xHHH")
# The whole fixed part of a record.
_RECORD = struct.Struct("<4s4xHH4xIIIHHH2x2x4xI")
_UTF8 = 0x800
_ZIP64_EXTRA = 0x0001
_UNKNOWN32 = 0xFFFFFFFF


class Directory:
    """The members of an archive by name (the last of a repeated name, as zipfile keeps it)."""

    def __init__(self, raw: IO[bytes]) -> None:
        self._data = _central(raw)
        self._at: dict[str, int] = {}
        position, lengths = 0, _LENGTHS.unpack_from
        while position < len(self._data):
            signature, flags, name, extra, comment = lengths(self._data, position)
            if signature != _CENTRAL:
                raise zipfile.BadZipFile("bad magic number for central directory")
            start = position + _CENTRAL_SIZE
            encoded = self._data[start : start + name]
            # ASCII reads the same in UTF-8 and cp437, and its decoder is the fast one.
            text = encoded.decode(
                "ascii" if encoded.isascii() else "utf-8" if flags & _UTF8 else "cp437"
            )
            # zipfile cuts a name at a NUL, which some archivers pad names with.
            self._at[text.split("\x00", 1)[0] if "\x00" in text else text] = position
            position = start + name + extra + comment
        self.names = frozenset(self._at)

    def info(self, name: str) -> zipfile.ZipInfo:
        """The member's record, as zipfile would describe it; KeyError for no such member."""
        position = self._at[name]
        (_, flags, method, crc, compressed, size, name_len, extra_len, _, offset) = (
            _RECORD.unpack_from(self._data, position)
        )
        start = position + _CENTRAL_SIZE + name_len
        extra = self._data[start : start + extra_len]
        size, compressed, offset = _zip64(extra, size, compressed, offset)
        info = zipfile.ZipInfo(name)
        info.flag_bits, info.compress_type, info.CRC = flags, method, crc
        info.compress_size, info.file_size, info.header_offset = compressed, size, offset
        return info


def _central(raw: IO[bytes]) -> bytes:
    """The bytes of the central directory."""
    size = raw.seek(0, 2)
    # The end record is last but for a comment, which archives seldom have: its bytes (and the
    # zip64 locator's before them) first, the longest comment's worth only when not there.
    for most in (_LOCATOR_SIZE + _END_SIZE, _LOCATOR_SIZE + _END_SIZE + 0xFFFF):
        tail_size = min(size, most)
        raw.seek(size - tail_size)
        tail = raw.read(tail_size)
        at = tail.rfind(_END, 0, len(tail) - _END_SIZE + len(_END))
        if at >= 0:
            break
    else:
        raise zipfile.BadZipFile("file is not a zip file")
    length, offset = struct.unpack_from("<12xII", tail, at)
    end = size - tail_size + at
    locator = tail[at - _LOCATOR_SIZE : at] if at >= _LOCATOR_SIZE else b""
    if locator.startswith(_LOCATOR):
        (where,) = struct.unpack_from("<8xQ", locator)
        raw.seek(where)
        record = raw.read(_END64_SIZE)
        if len(record) != _END64_SIZE or not record.startswith(_END64):
            raise zipfile.BadZipFile("corrupt zip64 end of central directory record")
        length, offset = struct.unpack_from("<40xQQ", record)
        end = where
    # Data before the archive (a self-extracting stub) moves every offset by as much.
    shift = end - length - offset
    if shift < 0:
        raise zipfile.BadZipFile("bad offset for central directory")
    raw.seek(offset + shift)
    data = raw.read(length)
    if len(data) != length:
        raise zipfile.BadZipFile("truncated central directory")
    return data


def _zip64(extra: bytes, size: int, compressed: int, offset: int) -> tuple[int, int, int]:
    """The sizes and offset, from the zip64 extra field where the record says 0xFFFFFFFF."""
    position = 0
    while position + 4 <= len(extra):
        kind, length = struct.unpack_from("<HH", extra, position)
        body = extra[position + 4 : position + 4 + length]
        if kind == _ZIP64_EXTRA:
            values = iter(struct.unpack_from(f"<{len(body) // 8}Q", body))
            try:
                size = next(values) if size == _UNKNOWN32 else size
                compressed = next(values) if compressed == _UNKNOWN32 else compressed
                offset = next(values) if offset == _UNKNOWN32 else offset
            except StopIteration:
                raise zipfile.BadZipFile("corrupt zip64 extra field") from None
            break
        position += 4 + length
    return size, compressed, offset
