"""The archive directory evalglass reads itself names the members zipfile names, each with the
same method, flags, CRC, sizes and offset, whatever the archive's shape; what it cannot read is
refused as zipfile refuses it."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from evalglass.evidence.adapters._zip_directory import Directory

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _described(directory: Directory, archive: zipfile.ZipFile) -> None:
    assert directory.names == set(archive.namelist())
    for name in archive.namelist():
        ours, theirs = directory.info(name), archive.getinfo(name)
        fields = ("flag_bits", "compress_type", "CRC", "compress_size", "file_size")
        assert [getattr(ours, f) for f in fields] == [getattr(theirs, f) for f in fields]
        assert ours.header_offset == theirs.header_offset


@pytest.mark.parametrize(
    "path", sorted(FIXTURES.rglob("*.eval")), ids=lambda p: str(p.relative_to(FIXTURES))
)
def test_every_fixture_log_is_described_as_zipfile_describes_it(path: Path) -> None:
    """Every real Inspect log among the fixtures: the same members, each described alike."""
    with path.open("rb") as raw, zipfile.ZipFile(path) as archive:
        _described(Directory(raw), archive)


def _written(comment: bytes = b"", zip64: bool = False, stub: bytes = b"") -> bytes:
    buffer = io.BytesIO()
    buffer.write(stub)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.comment = comment
        for i in range(300):
            with archive.open(f"samples/{i}_é.json", "w", force_zip64=zip64) as member:
                member.write(b'{"id": %d}' % i)
        archive.writestr("header.json", b"{}", zipfile.ZIP_STORED)
    return buffer.getvalue()


@pytest.mark.parametrize(
    "data",
    [
        _written(),
        _written(comment=b"made by hand " * 100),
        _written(zip64=True),
        _written(stub=b"#!/bin/sh\nexit 0\n" * 10),
    ],
    ids=["plain", "comment", "zip64", "prepended"],
)
def test_archives_of_every_shape_are_described_as_zipfile_describes_them(data: bytes) -> None:
    """A comment after the end record, zip64 records, data before the archive, names in UTF-8:
    the same members, each described alike."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        _described(Directory(io.BytesIO(data)), archive)


@pytest.mark.parametrize("cut", [0, 10, 200, -30, -5])
def test_a_cut_archive_is_refused(cut: int) -> None:
    """An archive cut short at its end, or that is not one, is a BadZipFile, as zipfile has it;
    one cut at its start too, where zipfile lists it and fails on its members' offsets."""
    data = _written()
    damaged = (data[cut:] if cut >= 0 else data[:cut]) if cut else b"not a zip archive at all"
    with pytest.raises(zipfile.BadZipFile):
        Directory(io.BytesIO(damaged))
    if cut <= 0:
        with pytest.raises(zipfile.BadZipFile):
            zipfile.ZipFile(io.BytesIO(damaged))
