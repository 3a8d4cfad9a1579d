"""Bombs, built in a temporary folder at test time (none is committed): archives whose members
expand far past their size, documents that are mostly nothing, and many tiny samples."""

from __future__ import annotations

import json
import os
import struct
import zlib
from pathlib import Path

ZSTD = 93


def zip_archive(path: Path, members: dict[str, tuple[bytes, int, int, int]]) -> Path:
    """A zip written by hand: name -> (compressed bytes, method, expanded size, CRC). What the
    directory declares is taken as given, so a member may claim any size."""
    local, central, offset = bytearray(), bytearray(), 0
    for name, (data, method, size, crc) in members.items():
        encoded = name.encode()
        header = struct.pack(
            "<4sHHHHHIIIHH",
            b"PK\x03\x04",
            20,
            0,
            method,
            0,
            0,
            crc,
            len(data),
            size,
            len(encoded),
            0,
        )
        central += struct.pack(
            "<4sHHHHHHIIIHHHHHII",
            b"PK\x01\x02",
            20,
            20,
            0,
            method,
            0,
            0,
            crc,
            len(data),
            size,
            len(encoded),
            0,
            0,
            0,
            0,
            0,
            offset,
        )
        central += encoded
        local += header + encoded + data
        offset += len(header) + len(encoded) + len(data)
    end = struct.pack(
        "<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(members), len(members), len(central), len(local), 0
    )
    path.write_bytes(bytes(local) + bytes(central) + end)
    return path


def zstd_member(text: bytes, repeats: int = 1) -> tuple[bytes, int, int, int]:
    """`text` compressed as one zstd frame, repeated: it expands to len(text) * repeats."""
    import zstandard

    frame = zstandard.ZstdCompressor(level=3).compress(text)
    crc = 0
    for _ in range(repeats):
        crc = zlib.crc32(text, crc)
    return frame * repeats, ZSTD, len(text) * repeats, crc


def deflate_member(text: bytes) -> tuple[bytes, int, int, int]:
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = squeezer.compress(text) + squeezer.flush()
    return data, 8, len(text), zlib.crc32(text)


HEADER = {
    "version": 2,
    "status": "success",
    "eval": {
        "task": "bomb",
        "model": "m",
        "dataset": {"name": "d"},
        "scorers": [{"name": "match", "metrics": [{"name": "accuracy"}]}],
    },
    "results": {
        "scores": [{"name": "match", "scorer": "match", "metrics": {"accuracy": {"value": 1.0}}}]
    },
}


def expanding_header(path: Path, expanded: int) -> Path:
    """An .eval whose header.json expands to `expanded` bytes of spaces around a real header:
    about a hundred kilobytes on disk for 3 GiB. Its CRC is left unset: no reader gets that far
    (it runs out of memory first, or refuses the size the archive declares)."""
    import zstandard

    chunk = 64 << 20
    body = json.dumps(HEADER).encode()
    repeats = max(1, expanded // chunk)
    squeezer = zstandard.ZstdCompressor(level=3)
    data = squeezer.compress(b" " * chunk) * repeats + squeezer.compress(body)
    return zip_archive(path, {"header.json": (data, ZSTD, chunk * repeats + len(body), 0)})


def many_summaries(path: Path, count: int) -> Path:
    """An .eval whose summaries.json lists `count` tiny summaries (a scored sample each)."""
    one = b'{"id":1,"epoch":1,"scores":{"match":{"value":1}}},'
    text = b"[" + one * (count - 1) + one[:-1] + b"]"
    return zip_archive(
        path,
        {
            "header.json": deflate_member(json.dumps(HEADER).encode()),
            "summaries.json": zstd_member(text),
        },
    )


def many_reductions(path: Path, count: int) -> Path:
    """An .eval whose reductions.json reduces `count` tiny samples for its scorer."""
    one = b'{"value":1},'
    text = b'[{"scorer":"match","samples":[' + one * (count - 1) + one[:-1] + b"]}]"
    return zip_archive(
        path,
        {
            "header.json": deflate_member(json.dumps(HEADER).encode()),
            "reductions.json": zstd_member(text),
        },
    )


def sparse_json(path: Path, size: int) -> Path:
    """A generic output that is `size` bytes, nearly all of them a hole (no disk used)."""
    with path.open("wb") as stream:
        stream.write(b'{"metrics": {"a": 1}, "pad": "')
        stream.truncate(size)
    return path


def dense_json(path: Path, values: int) -> Path:
    """A generic output holding `values` empty objects: 3 bytes of text, ~70 of memory each."""
    with path.open("wb") as stream:
        stream.write(b'{"metrics": {"a": 1}, "pad": [')
        stream.write(b"{}," * (values - 1) + b"{}]}")
    return path


def retries(path: Path, count: int) -> Path:
    """One Inspect JSON log listing the same metric `count` times (each a retry to merge)."""
    entry = {"name": "match", "scorer": "match", "metrics": {"accuracy": {"value": 1.0}}}
    doc = {
        "eval_id": "e",
        "task_id": "t",
        **HEADER,
        "results": {"scores": [entry] * count},
        "stats": {"started_at": "2026-01-01T00:00:00+00:00"},
    }
    path.write_text(json.dumps(doc))
    return path


def peak_megabytes() -> float:
    """This process's children's peak resident memory, in MB."""
    import resource

    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


__all__ = ["os"]
