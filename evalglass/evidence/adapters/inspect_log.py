"""Inspect AI logs (`.eval` archives and `.json` logs): recognised here, read by _inspect_log.

The reader brings zipfile, a JSON streamer and (for zstd members) zstandard; recognising a file
needs none of them, so they load only when an Inspect log is read.
"""

from __future__ import annotations

from pathlib import Path

from evalglass.evidence.adapters._common import BOM_AND_SPACE, ZIP_MAGIC
from evalglass.evidence.model import Measurement
from evalglass.evidence.registry import Adapter


def sniff(path: Path, head: bytes) -> bool:
    if head.startswith(ZIP_MAGIC):
        return path.suffix.lower() == ".eval" or b"_journal/" in head or b"header.json" in head
    body = head.lstrip(BOM_AND_SPACE)
    return body.startswith(b"{") and all(
        key in head for key in (b'"status"', b'"eval_id"', b'"task_id"')
    )


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    from evalglass.evidence.adapters import _inspect_log

    return _inspect_log.read(path, shown)


ADAPTER = Adapter(
    name="inspect",
    recognises="an Inspect AI log: a .eval zip archive, or JSON with status, eval_id and task_id",
    sniff=sniff,
    read=read,
)
