"""Reads a host-records folder into HostRecords: file I/O and translating its failures into errors.

Syntax lives in `_yaml.py` and typing in `schema.py`; nothing here decides what a record means,
and nothing here writes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from evalglass import _inputs
from evalglass._collector import paused
from evalglass._inputs import NotARegularFile
from evalglass.errors import RecordError, RecordErrors
from evalglass.records import cross_file
from evalglass.records._yaml import RawFile, parse_records
from evalglass.records.baseline_files import Present, TextReader, attach_scorecards, check_rows
from evalglass.records.build import build_records
from evalglass.records.judge_evidence import attach_evidence
from evalglass.records.model import HostRecords
from evalglass.records.schema import KINDS, Record


def load_records(folder: str | os.PathLike[str]) -> HostRecords:
    """Load every host-records file in `folder`; a missing file means no records of its kind.

    Messages show the folder as given joined with the file name, so a relative path stays relative.
    Raises RecordError for a missing folder or an unreadable or invalid file.
    """
    where = _folder(folder)
    loaded = {}
    # Paused across the files too: resumed between them, the collector would scan each file's
    # new records once more before the next file.
    with paused():
        for kind, spec in KINDS.items():
            path = os.path.join(where, spec.filename)
            text = _read(path)
            loaded[kind] = {} if text is None else records_from_text(kind, text, path)
        return host_records(
            loaded,
            lambda name: _read(os.path.join(where, name)),
            lambda name: _present(os.path.join(where, name)),
        )


def _folder(folder: str | os.PathLike[str]) -> str:
    where = os.fspath(folder)
    if not os.path.isdir(where):
        problem = "is not a directory" if os.path.exists(where) else "does not exist"
        raise RecordError(
            where,
            f"host records folder {problem}: create one with `evalglass init`, or name yours "
            "with --records DIR",
        )
    return where


def validated_records(folder: str | os.PathLike[str]) -> HostRecords:
    """Load `folder` as load_records does, but name every problem, not the first: each file is
    read, and each of its records typed, on its own, so one run lists them all. The rules between
    files are checked once every file loads. Raises RecordErrors (or RecordError for a missing
    folder)."""
    where = _folder(folder)
    problems: list[RecordError] = []
    loaded: dict[str, dict[str, Record]] = {}
    with paused():
        for kind, spec in KINDS.items():
            path = os.path.join(where, spec.filename)
            loaded[kind] = {}
            try:
                text = _read(path)
                if text is None:
                    continue
                raw = parse_records(
                    text, path=path, kind=kind, noun=spec.noun, kinds=KINDS.keys(),
                    single=spec.single,
                )  # fmt: skip
            except RecordError as exc:
                problems.append(exc)
                continue
            for record_id, entry in raw.records.items():
                one = RawFile(records={record_id: entry}, blocks=raw.blocks)
                try:
                    loaded[kind].update(build_records(kind, one, path))
                except RecordError as exc:
                    problems.append(exc)
        if problems:
            raise RecordErrors(tuple(problems))
        try:
            return host_records(
                loaded,
                lambda name: _read(os.path.join(where, name)),
                lambda name: _present(os.path.join(where, name)),
            )
        except RecordError as exc:
            raise RecordErrors((exc,)) from None


def host_records(
    loaded: Mapping[str, Mapping[str, Record]], read: TextReader, present: Present | None = None
) -> HostRecords:
    """HostRecords from each kind's records (a single-record kind's under its own name, or
    none), with baselines that name a scorecard, and judges that name calibration evidence,
    filled in through `read`; baselines naming a rows file checked to be there by `present`
    (when given). Raises RecordError for a rule between records of different files
    (`cross_file`), once all have loaded."""
    kinds: dict[str, Any] = {}
    for kind, records in loaded.items():
        kinds[kind] = next(iter(records.values()), None) if KINDS[kind].single else records
    kinds["baselines"] = attach_scorecards(kinds["baselines"], read)
    check_rows(kinds["baselines"], present)
    kinds["judges"] = attach_evidence(kinds["judges"], read)
    host = HostRecords(**kinds)
    cross_file.check(host)
    return host


def records_from_text(
    kind: str, text: str, path: str = "<text>", memo: dict[object, Record] | None = None
) -> dict[str, Record]:
    """Parse and type the text of one host-records file of `kind` ("metrics", "thresholds", ...).

    A single-record kind ("success") gives its record keyed by the kind, or nothing for a file
    with no top-level key. `path` is only shown in messages. Raises RecordError for anything the
    schema refuses. `memo` is build_records'.
    """
    spec = KINDS.get(kind)
    if spec is None:
        raise ValueError(f"unknown host-record kind {kind!r}; expected one of {', '.join(KINDS)}")
    # A big file becomes hundreds of thousands of small acyclic objects: the cyclic collector
    # rescans them over and over, a large share of the load time, and frees none.
    with paused():
        raw = parse_records(
            text, path=path, kind=kind, noun=spec.noun, kinds=KINDS.keys(), single=spec.single
        )
        return build_records(kind, raw, path, memo)


def read_text(path: str) -> str | None:
    """A records file's text, or None when there is no such file; RecordError when it cannot be
    read as UTF-8 text."""
    return _read(path)


def _present(path: str) -> str | None:
    """What keeps `path` from being a file to read, None when nothing does."""
    if os.path.isdir(path):
        return "is a directory, not a file"
    return None if os.path.isfile(path) else "not found next to the records"


def _read(path: str) -> str | None:
    """The file's text, or None when there is no such file. Only a regular file is read (a FIFO
    would block the run), and no larger than the parse cap."""
    try:
        data = _inputs.read_regular(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise RecordError(path, "is a broken symbolic link") from None
        return None
    except (IsADirectoryError, NotARegularFile) as exc:
        if os.path.isdir(path):
            raise RecordError(path, "is a directory, not a file") from None
        raise RecordError(path, f"cannot be read: {exc.strerror}") from None
    except OSError as exc:
        raise RecordError(path, f"cannot be read: {exc.strerror or exc}") from exc
    except _inputs.TooLarge as exc:
        raise RecordError(path, str(exc)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        bad = data[exc.start : exc.start + 1].hex()
        raise RecordError(path, f"is not valid UTF-8 (byte 0x{bad})", line) from None
