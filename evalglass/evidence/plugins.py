"""Readers other packages add: a package declares a `Reader` under the entry-point group
`evalglass.formats`, and its files are read like a built-in format's.

A plugin is code a team installed, but what it returns is untrusted evidence like any eval
output: each measurement is copied field by field into a fresh one, so nothing but what an
output may say (values, counts, scores, model, dataset, graders) passes, and a plugin that fails
(at import, recognising or reading) is one input error naming it. Entry points are looked up
only when a file reaches the plugins or a format is named: importlib.metadata walks every
installed package.
"""

from __future__ import annotations

import functools
import math
import os
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from evalglass.errors import PluginError
from evalglass.evidence.format_docs import FormatDocs
from evalglass.evidence.model import DatasetIdentity, Interval, Measurement, Method, Run, Sample
from evalglass.reasons import Reason, ValidityCode

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from evalglass.evidence.registry import Adapter

GROUP = "evalglass.formats"

# A format name as `--input-format` takes it.
_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,63}")


@attrs.frozen(kw_only=True)
class Reader:
    """What a plugin's entry point names: how its files are recognised and read.

    `sniff(path, head)` says whether a file is this format, from its path and first 4096 bytes;
    `read(path, shown)` returns the file's measurements (`shown` is the path as the user gave
    it, for messages). Raise `evalglass.OutputError(shown, message)` for a file it cannot use.
    `docs` is what its numbers mean, as the built-in formats declare theirs
    (`evalglass.evidence.format_docs`), for the plugin's own docs.
    """

    recognises: str
    sniff: Callable[[Path, bytes], bool]
    read: Callable[[Path, str], Iterable[Measurement]]
    docs: FormatDocs | None = None


@functools.cache
def declared() -> tuple[EntryPoint, ...]:
    """Every entry point of the group, by name (one per name: the first by package and value)."""
    if not _maybe_declared():
        return ()
    from importlib.metadata import entry_points

    found: dict[str, EntryPoint] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda p: (p.name, p.value)):
        found.setdefault(point.name, point)
    return tuple(found.values())


def _maybe_declared() -> bool:
    """Whether some installed package may declare a reader: the group's name in an
    `entry_points.txt` on the path. Importing importlib.metadata costs more than scoring a small
    file, so it is imported only when this finds one; anything it cannot look into (a zip on the
    path) counts as a maybe."""
    for entry in sys.path:
        folder = entry or "."
        if os.path.isfile(folder):
            return True
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                listed = os.path.join(folder, name, "entry_points.txt")
            elif name.endswith(".egg"):
                listed = os.path.join(folder, name, "EGG-INFO", "entry_points.txt")
            else:
                continue
            try:
                with open(listed, encoding="utf-8", errors="replace") as stream:
                    if GROUP in stream.read():
                        return True
            except OSError:
                continue
    return False


def names() -> tuple[str, ...]:
    """The formats plugins declare, sorted; importing none of them."""
    return tuple(point.name for point in declared())


def _label(point: EntryPoint) -> str:
    dist = point.dist
    package = f"{dist.name} {dist.version}" if dist is not None else "an unknown package"
    return f"plugin format '{point.name}' ({package}, {point.value})"


@functools.cache
def adapter(name: str, builtin: frozenset[str]) -> Adapter:
    """The plugin declaring format `name`, imported now, as an Adapter whose every call is
    guarded. PluginError when it cannot be imported, is no Reader, or takes a built-in's name."""
    from evalglass.evidence.registry import Adapter

    point = next(p for p in declared() if p.name == name)
    label = _label(point)
    if name in builtin or not _NAME.fullmatch(name):
        why = "a built-in format's name" if name in builtin else "not a format name"
        raise PluginError(label, f"cannot be used: '{name}' is {why}")
    try:
        reader = point.load()
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a plugin may raise anything
        raise PluginError(label, f"failed to load: {_said(exc)}") from None
    if not isinstance(reader, Reader):
        raise PluginError(label, f"names {type(reader).__name__}, not an evalglass.Reader")
    return Adapter(
        name=name,
        recognises=f"{_text(reader.recognises, 200)} (from {label})",
        sniff=functools.partial(_sniff, reader, label),
        read=functools.partial(_read, reader, label),
        docs=reader.docs if isinstance(reader.docs, FormatDocs) else None,
    )


def _sniff(reader: Reader, label: str, path: Path, head: bytes) -> bool:
    try:
        return reader.sniff(path, head) is True
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a plugin may raise anything
        raise PluginError(str(path), f"{label} failed recognising it: {_said(exc)}") from None


def _read(reader: Reader, label: str, path: Path, shown: str) -> tuple[Measurement, ...]:
    from evalglass.errors import OutputError

    try:
        found = tuple(reader.read(path, shown))
    except PluginError:
        raise
    except OutputError as exc:
        # The plugin's own words about the file, said as its own.
        raise PluginError(shown, f"{label}: {_text(exc.message, 300)}", exc.line) from None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a plugin may raise anything
        raise PluginError(shown, f"{label} failed reading it: {_said(exc)}") from None
    return tuple(_untrusted(m, label, shown) for m in found)


def _said(exc: BaseException) -> str:
    return _text(f"{type(exc).__name__}: {exc}", 300)


def _text(value: object, limit: int) -> str:
    shown = " ".join(str(value).split())
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _untrusted(m: object, label: str, shown: str) -> Measurement:
    """A fresh Measurement of what `m` may say, the source being the file read: never its
    attempts, earlier runs, pairings or run identity, which only evalglass itself records."""

    def bad(what: str) -> PluginError:
        return PluginError(shown, f"{label} returned {what}")

    if type(m) is not Measurement:
        raise bad(f"{type(m).__name__}, not an evalglass.Measurement")
    if not isinstance(m.id, str) or not m.id.strip():
        raise bad("a measurement without an id")
    where = f"measurement '{_text(m.id, 80)}'"
    if type(m.run) is not Run:
        raise bad(f"{where} without an evalglass.Run")
    samples = _samples(m.samples, bad, where)
    interval = _interval(m.interval, bad, where)
    if interval is None and samples:
        from evalglass.evidence import stats

        scores = [s.score for s in samples]
        interval = stats.interval_for_scores(scores) if all(map(math.isfinite, scores)) else None
    return Measurement(
        id=m.id,
        run=Run(
            source=shown,
            models=_strings(m.run.models, bad, f"{where}: models"),
            dataset=_dataset(m.run.dataset, bad, where),
            graders=_strings(m.run.graders, bad, f"{where}: graders"),
            status=_optional(m.run.status, bad, f"{where}: status"),
            started=_optional(m.run.started, bad, f"{where}: started"),
        ),
        value=_value(m.value, bad, where),
        n=_count(m.n, bad, f"{where}: n"),
        interval=interval,
        samples=samples,
        missing=_count(m.missing, bad, f"{where}: missing") or 0,
        findings=_findings(m.findings, bad, where),
    )


_Bad = Callable[[str], PluginError]


def _value(value: Any, bad: _Bad, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise bad(f"{where} with a value that is not a number")
    return float(value)


def _count(value: Any, bad: _Bad, where: str) -> int | None:
    if value is None:
        return None
    if type(value) is not int or value < 0:
        raise bad(f"{where} that is not a whole number >= 0")
    return value


def _optional(value: Any, bad: _Bad, where: str) -> str | None:
    if value is not None and type(value) is not str:
        raise bad(f"{where} that is not text")
    return value


def _strings(values: Any, bad: _Bad, where: str) -> tuple[str, ...]:
    if not isinstance(values, tuple) or any(type(v) is not str for v in values):
        raise bad(f"{where} that are not text")
    return tuple(values)


def _dataset(value: Any, bad: _Bad, where: str) -> DatasetIdentity | None:
    if value is None:
        return None
    if type(value) is not DatasetIdentity:
        raise bad(f"{where} with a dataset that is no evalglass.DatasetIdentity")
    return DatasetIdentity(
        name=_optional(value.name, bad, f"{where}: dataset name"),
        version=_optional(value.version, bad, f"{where}: dataset version"),
        location=_optional(value.location, bad, f"{where}: dataset location"),
        samples=_count(value.samples, bad, f"{where}: dataset samples"),
        fingerprint=_optional(value.fingerprint, bad, f"{where}: dataset fingerprint"),
    )


def _samples(value: Any, bad: _Bad, where: str) -> tuple[Sample, ...] | None:
    if value is None:
        return None
    if not isinstance(value, tuple) or any(type(s) is not Sample for s in value):
        raise bad(f"{where} with samples that are not a tuple of evalglass.Sample")
    return tuple(
        Sample(
            id=_optional(s.id, bad, f"{where}: sample id") or "",
            score=_value(s.score, bad, f"{where}: sample") or 0.0,
            epoch=_count(s.epoch, bad, f"{where}: sample epoch"),
            cluster=_optional(s.cluster, bad, f"{where}: sample cluster"),
        )
        for s in value
    )


def _interval(value: Any, bad: _Bad, where: str) -> Interval | None:
    if value is None:
        return None
    if type(value) is not Interval or type(value.method) is not Method:
        raise bad(f"{where} with an interval that is no evalglass.Interval")
    low, high, level = (
        _value(x, bad, f"{where}: interval") for x in (value.low, value.high, value.level)
    )
    assert low is not None and high is not None and level is not None
    if not (math.isfinite(low) and math.isfinite(high) and low <= high and 0 < level < 1):
        raise bad(
            f"{where} with an interval that is not finite bounds low <= high at a level in (0, 1)"
        )
    # Its basis is not kept: a bound evalglass recomputes at another level must be its own.
    return Interval(low, high, level, value.method)


def _findings(value: Any, bad: _Bad, where: str) -> tuple[Reason, ...]:
    if not isinstance(value, tuple) or any(
        type(r) is not Reason or type(r.code) is not ValidityCode for r in value
    ):
        raise bad(f"{where} with findings that are not validity reasons")
    # A finding can only take soundness away; its words are kept as given.
    return tuple(Reason(r.code, _text(r.message, 300)) for r in value)
