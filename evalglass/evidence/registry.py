"""The formats evalglass reads: one registry of adapters, each declared by its own module under
evidence/adapters/ as `ADAPTER` and listed once in FRAMEWORKS or GENERIC below, and the formats
installed packages add (evidence/plugins.py), offered files between the two. Adding a format is
adding that module, its line here, its fixture and its tests; its `docs` (format_docs.py) write
its rows of docs/formats.md's tables, and the tests find its fixture folder by its name.

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
    from evalglass.evidence.format_docs import FormatDocs
    from evalglass.evidence.model import Measurement

# How many bytes of a file's start a sniffer sees: of its structure, in a JSON file, whose long
# strings are cut short first (evidence/head.py), so no mark is pushed out of sight by text.
HEAD = 4096

# Every built-in format by name (`--input-format`), with the module under adapters/ declaring
# it, in the order files are offered to them: the frameworks' own formats, then the formats
# plugins add, then the generic ones a framework's file may resemble, generic JSON (which claims
# any JSON object with "metrics") last. Read without importing an adapter, so `--help` can list
# the names for nothing.
FRAMEWORKS: tuple[tuple[str, str], ...] = (
    ("deepeval", "deepeval"),
    ("inspect", "inspect_log"),
    ("lm-eval", "lmeval"),
    ("promptfoo", "promptfoo"),
    ("eee", "eee"),
)
GENERIC: tuple[tuple[str, str], ...] = (
    ("aggregates", "aggregates"),
    ("judgments", "judgments"),
    ("parquet", "parquet"),
    ("rows", "rows"),
    ("generic", "generic"),
)
FORMATS = FRAMEWORKS + GENERIC


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
    # What its numbers mean, in the words of docs/formats.md's tables: every built-in format
    # declares it (scripts/docs.py writes the tables from it); a plugin may.
    docs: FormatDocs | None = None


def _built(table: tuple[tuple[str, str], ...]) -> tuple[Adapter, ...]:
    package = "evalglass.evidence.adapters"
    return tuple(importlib.import_module(f"{package}.{module}").ADAPTER for _, module in table)


@functools.cache
def builtin() -> tuple[Adapter, ...]:
    """Every built-in adapter, in the order files are offered to them (FORMATS)."""
    return _built(FORMATS)


def adapters() -> tuple[Adapter, ...]:
    """Every adapter, plugins' included (imported now), in the order files are offered to them."""
    return _frameworks() + _plugins() + _generic()


@functools.cache
def _frameworks() -> tuple[Adapter, ...]:
    return builtin()[: len(FRAMEWORKS)]


@functools.cache
def _generic() -> tuple[Adapter, ...]:
    return builtin()[len(FRAMEWORKS) :]


def _plugins() -> tuple[Adapter, ...]:
    from evalglass.evidence import plugins

    return tuple(plugins.adapter(name, _BUILTIN_NAMES) for name in plugins.names())


_BUILTIN_NAMES = frozenset(name for name, _ in FORMATS)


def names() -> tuple[str, ...]:
    """Every format's name, in the order files are offered to them, plugins' included (none of
    them imported): the choices of `--input-format`."""
    from evalglass.evidence import plugins

    added = tuple(n for n in plugins.names() if n not in _BUILTIN_NAMES)
    return tuple(n for n, _ in FRAMEWORKS) + added + tuple(n for n, _ in GENERIC)


def by_name(name: str) -> Adapter | None:
    """The adapter `--input-format NAME` selects, or None when no format has that name; a
    plugin's is imported only when it is the one named."""
    from evalglass.evidence import plugins

    found = next((a for a in builtin() if a.name == name), None)
    if found is None and name in plugins.names():
        return plugins.adapter(name, _BUILTIN_NAMES)
    return found


def detect(path: Path, head: bytes) -> Adapter | None:
    """The first adapter that claims the file, or None. Plugins are looked for only when no
    framework's own format claims it."""
    for group in (_frameworks, _plugins, _generic):
        found = next((a for a in group() if a.sniff(path, head)), None)
        if found is not None:
            return found
    return None


def not_a_run(path: Path, head: bytes) -> str | None:
    """Why a framework's own file holds no run to read, or None when no format says so."""
    return next((why for a in builtin() if (why := a.not_a_run(path, head))), None)
