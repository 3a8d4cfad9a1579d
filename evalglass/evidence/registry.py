"""The formats evalglass reads: one registry of adapters, each declared by its own module under
evidence/adapters/ as `ADAPTER` and listed once in FORMATS below. Adding a format is adding that
module, its line in FORMATS, and its tests.

Recognising a file must stay cheap: an adapter module imports only what its sniffer needs at the
top, and its reading machinery (archives, decompressors) inside `read`.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from evalglass.evidence.model import Measurement

# How many bytes of a file's start a sniffer sees: of its structure, in a JSON file, whose long
# strings are cut short first (evidence/head.py), so no mark is pushed out of sight by text.
HEAD = 4096

# Every format by name (`--input-format`), with the module under adapters/ declaring it, in the
# order files are offered to them: a framework's own format before the generic ones it resembles,
# and generic JSON, which claims any JSON object, last. Read without importing an adapter, so
# `--help` can list the names for nothing.
FORMATS: tuple[tuple[str, str], ...] = (
    ("deepeval", "deepeval"),
    ("inspect", "inspect_log"),
    ("lm-eval", "lmeval"),
    ("promptfoo", "promptfoo"),
    ("aggregates", "aggregates"),
    ("judgments", "judgments"),
    ("parquet", "parquet"),
    ("rows", "rows"),
    ("generic", "generic"),
)


def _holds_runs(path: Path, head: bytes) -> str | None:
    return None


@attrs.frozen(kw_only=True)
class Adapter:
    """One eval-output format: its name (`--input-format`), how it is recognised, how it is read."""

    name: str
    # What `sniff` looks for, in words: told to a user whose file no format claimed.
    recognises: str
    # Whether this file is this format, from its path and head (evidence/head.py); never raises.
    sniff: Callable[[Path, bytes], bool]
    # The file's measurements; OutputError for anything in the file it cannot use.
    read: Callable[[Path, str], tuple[Measurement, ...]]
    # The framework's own files that hold no run (an index, a cache, a report with too little in
    # it): what the file is, said to the user when it is skipped; None for any other file.
    # Asked before any format sniffs, from the same path and head; never raises.
    not_a_run: Callable[[Path, bytes], str | None] = _holds_runs
    # For formats whose files given together are parts of one dataset (aggregate partials, a
    # folder of Parquet files): reads them all at once, instead of `read` file by file.
    read_together: Callable[[Sequence[tuple[Path, str]]], tuple[Measurement, ...]] | None = None


@functools.cache
def adapters() -> tuple[Adapter, ...]:
    """Every adapter, in the order files are offered to them (FORMATS)."""
    package = "evalglass.evidence.adapters"
    return tuple(importlib.import_module(f"{package}.{module}").ADAPTER for _, module in FORMATS)


def names() -> tuple[str, ...]:
    """Every format's name, in the order files are offered to them: the choices of
    `--input-format`."""
    return tuple(name for name, _ in FORMATS)


def by_name(name: str) -> Adapter | None:
    """The adapter `--input-format NAME` selects, or None when no format has that name."""
    return next((a for a in adapters() if a.name == name), None)


def detect(path: Path, head: bytes) -> Adapter | None:
    """The first adapter that claims the file, or None."""
    return next((a for a in adapters() if a.sniff(path, head)), None)


def not_a_run(path: Path, head: bytes) -> str | None:
    """Why a framework's own file holds no run to read, or None when no format says so."""
    return next((why for a in adapters() if (why := a.not_a_run(path, head))), None)
