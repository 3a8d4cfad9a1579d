"""Find and read eval outputs: files and folders in, one Evidence out.

Formats are detected from each file's name and first bytes (`input_format` overrides). When two
runs measure the same metric, the newest by the run's own start time decides and the others are
kept as earlier attempts, so a retry can never hide a failure; runs with no start time cannot be
ordered, and measuring one metric twice is then an input error.
"""

from __future__ import annotations

import datetime as dt
import glob
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs

from evalglass.errors import OutputError
from evalglass.evidence import progress
from evalglass.evidence.model import EarlierAttempt, Evidence, Measurement
from evalglass.evidence.registry import HEAD, Adapter, adapters, by_name, detect, names


def read_outputs(
    paths: Sequence[str | os.PathLike[str]], input_format: str | None = None
) -> Evidence:
    """Read every output named (folders: every recognised file below them) into one Evidence."""
    if input_format is not None and by_name(input_format) is None:
        raise ValueError(f"unknown input format {input_format!r}; known: {', '.join(names())}")
    measurements: dict[str, Measurement] = {}
    sources: list[str] = []
    seen: set[Path] = set()
    together: dict[str, tuple[Adapter, list[tuple[Path, str]]]] = {}
    for path, shown, adapter in _expand(paths, input_format):
        resolved = path.resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        sources.append(shown)
        if adapter.read_together is not None:
            together.setdefault(adapter.name, (adapter, []))[1].append((path, shown))
            continue
        with progress.reading(shown):
            found = adapter.read(path, shown)
        for measurement in found:
            _merge(measurements, measurement)
    # Files of such a format given in one run are one dataset: merged before any statistic.
    for adapter, files in together.values():
        assert adapter.read_together is not None
        shown = files[0][1] if len(files) == 1 else f"{len(files)} {adapter.name} files"
        with progress.reading(shown):
            found = adapter.read_together(files)
        for measurement in found:
            _merge(measurements, measurement)
    return Evidence(measurements=measurements, sources=tuple(sources))


def _expand(
    paths: Sequence[str | os.PathLike[str]], input_format: str | None
) -> Iterator[tuple[Path, str, Adapter]]:
    for given in paths:
        path, shown = Path(given), os.fspath(given)
        if path.is_dir():
            found = 0
            for child in sorted(p for p in path.rglob("*") if p.is_file()):
                adapter = _detect(child, input_format)
                if adapter is not None:
                    found += 1
                    yield child, os.path.join(shown, os.path.relpath(child, path)), adapter
            if not found:
                raise OutputError(shown, "no recognised eval output in this folder")
        elif path.is_file():
            adapter = _detect(path, input_format)
            if adapter is None:
                tried = "; ".join(f"{a.name}: {a.recognises}" for a in adapters())
                raise OutputError(
                    shown,
                    f"not a recognised eval output (tried {tried}); "
                    "name the format with --input-format",
                )
            yield path, shown, adapter
        elif path.exists():
            raise OutputError(shown, "not a regular file or folder")
        elif any(c in shown for c in "*?[") and glob.glob(shown):
            # A quoted pattern (`'scores/*.parquet'`): the shell left it for us to expand.
            yield from _expand(sorted(glob.glob(shown)), input_format)
        else:
            raise OutputError(shown, "no such file or folder")


def _detect(path: Path, input_format: str | None) -> Adapter | None:
    if input_format is not None:
        return by_name(input_format)
    try:
        with path.open("rb") as stream:
            head = stream.read(HEAD)
    except OSError as exc:
        raise OutputError(os.fspath(path), f"cannot read: {exc.strerror or exc}") from exc
    return detect(path, head)


def _merge(measurements: dict[str, Measurement], new: Measurement) -> None:
    old = measurements.get(new.id)
    if old is None:
        measurements[new.id] = new
        return
    old_start, new_start = _started(old), _started(new)
    if old_start is None or new_start is None:
        raise OutputError(
            new.run.source,
            f"metric '{new.id}' is also measured by {old.run.source}; "
            "give one output per metric (runs without a start time cannot be ordered)",
        )
    newer, older = (new, old) if new_start > old_start else (old, new)
    attempts = older.earlier + newer.earlier + (_attempt(older),)
    measurements[new.id] = attrs.evolve(
        newer, earlier=tuple(sorted(attempts, key=lambda a: (a.started or "", a.source)))
    )


def _attempt(m: Measurement) -> EarlierAttempt:
    return EarlierAttempt(source=m.run.source, started=m.run.started, value=m.value, n=m.n)


def _started(m: Measurement) -> dt.datetime | None:
    if m.run.started is None:
        return None
    try:
        moment = dt.datetime.fromisoformat(m.run.started)
    except ValueError:
        return None
    # Naive times are taken as UTC so they can be ordered against aware ones.
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)
