"""Find and read eval outputs: files and folders in, one Evidence out.

Formats are detected from each file's name and head (`input_format` overrides). A file a
framework writes beside its runs (an index, a cache) and a second copy of a run already read are
skipped, each with the reason, never counted. When two runs measure the same metric, the newest
by the run's own start time decides and the others are kept as earlier attempts, so a retry can
never hide a failure; runs with no start time cannot be ordered, and measuring one metric twice
is then an input error. An output that reports a `check/` metric is refused: only `evalglass
run` says whether a host check passed.
"""

from __future__ import annotations

import datetime as dt
import glob
import math
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from evalglass._inputs import open_regular
from evalglass.errors import OutputError
from evalglass.evidence import model_choice, progress
from evalglass.evidence._unclaimed import declined
from evalglass.evidence.head import read_head
from evalglass.evidence.model import EarlierAttempt, Evidence, Found, Measurement, Skipped
from evalglass.evidence.registry import Adapter, by_name, detect, names, not_a_run
from evalglass.metric_ids import CHECK_PREFIX
from evalglass.reasons import ValidityCode


@attrs.frozen
class _Reading:
    """One file's measurements (or one dataset's, read together), and where it came in the order
    the files were found."""

    order: int
    sources: tuple[str, ...]  # one file, or the parts of a dataset read together
    measurements: tuple[Measurement, ...]

    @property
    def identity(self) -> frozenset[str]:
        return frozenset(m.run.identity for m in self.measurements if m.run.identity)

    @property
    def marks(self) -> frozenset[str]:
        """What says another file holds this run, or part of it: its identity and its whole."""
        return self.identity | {m.run.whole for m in self.measurements if m.run.whole}

    @property
    def extent(self) -> tuple[int, int] | None:
        """How much of its run the file holds, where the format says (the same for every
        measurement of one file)."""
        return max((m.run.extent for m in self.measurements if m.run.extent), default=None)

    @property
    def ordered(self) -> bool:
        return all(m.run.started is not None for m in self.measurements)


def read_outputs(
    paths: Sequence[str | os.PathLike[str]],
    input_format: str | None = None,
    model: str | None = None,
) -> Evidence:
    """Read every output named (folders: every recognised file below them) into one Evidence.
    With `model`, only that model's measurements are read and the outputs of others skipped;
    without it, outputs measuring one metric for several models are an input error."""
    if input_format is not None and by_name(input_format) is None:
        raise ValueError(f"unknown input format {input_format!r}; known: {', '.join(names())}")
    readings: list[_Reading] = []
    skipped: list[tuple[int, Skipped]] = []
    seen: set[Path] = set()
    together: dict[str, tuple[Adapter, int, list[tuple[Path, str]]]] = {}
    recognised: list[Found] = []
    for order, (path, shown, found) in enumerate(_expand(paths, input_format)):
        resolved = path.resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        if isinstance(found, Skipped):
            skipped.append((order, found))
            continue
        recognised.append(Found(path, shown, found.name))
        if found.read_together is not None:
            together.setdefault(found.name, (found, order, []))[2].append((path, shown))
            continue
        with progress.reading(shown):
            read = _nested(shown, found.read, path, shown)
        readings.append(_reading(found, order, (shown,), read))
    # Files of such a format given in one run are one dataset: merged before any statistic.
    for adapter, order, files in together.values():
        assert adapter.read_together is not None
        shown_all = tuple(shown for _, shown in files)
        label = shown_all[0] if len(files) == 1 else f"{len(files)} {adapter.name} files"
        with progress.reading(label):
            read = _nested(shown_all[0], adapter.read_together, files)
        readings.append(_reading(adapter, order, shown_all, read))
    kept = _distinct_runs(sorted(readings, key=lambda r: r.order), skipped)
    if paths and not kept:
        given = os.fspath(paths[0])
        raise OutputError(given, _nothing_read(given, [s for _, s in sorted(skipped, key=_first)]))
    chosen, other_models = model_choice.choose(
        [m for reading in kept for m in reading.measurements], model
    )
    skipped += [(_order(kept, s.source), s) for s in other_models]
    passed_over = {s.source for s in other_models}
    return Evidence(
        measurements=merge(chosen),
        sources=tuple(source for r in kept for source in r.sources if source not in passed_over),
        skipped=tuple(s for _, s in sorted(skipped, key=_first)),
        found=tuple(recognised),
    )


def _nested(
    shown: str, read: Callable[..., tuple[Measurement, ...]], *args: Any
) -> tuple[Measurement, ...]:
    """What an adapter read; JSON nested nearly as deep as the parser allows leaves no room for
    walking it, and that is the file's doing."""
    try:
        return read(*args)
    except RecursionError as exc:
        raise OutputError(shown, "nested too deeply to read") from exc


def merge(measurements: Iterable[Measurement]) -> dict[str, Measurement]:
    """One measurement per metric id: when several runs measured it, the newest by its own start
    time (the first of equals) with the others as its earlier attempts. OutputError when runs
    without a start time measured the same metric."""
    merged: dict[str, _Merged] = {}
    for measurement in measurements:
        if measurement.id.startswith(CHECK_PREFIX):
            raise OutputError(
                measurement.run.source,
                f"reports metric '{measurement.id}': ids starting with '{CHECK_PREFIX}' are the "
                "host's own checks, which only `evalglass run` runs; an eval output cannot "
                "report one",
            )
        found = merged.get(measurement.id)
        if found is None:
            merged[measurement.id] = _Merged(measurement)
        else:
            found.add(measurement)
    return {metric_id: m.result() for metric_id, m in merged.items()}


def _reading(
    adapter: Adapter, order: int, sources: tuple[str, ...], measurements: tuple[Measurement, ...]
) -> _Reading:
    if not measurements:
        # An empty table would read as "nothing to gate" when the file was misread.
        raise OutputError(sources[0], f"read as {adapter.name} output, but it holds no metric")
    return _Reading(order, sources, measurements)


def _first(pair: tuple[int, Skipped]) -> int:
    return pair[0]


def _order(readings: list[_Reading], source: str) -> int:
    return next(r.order for r in readings if source in r.sources)


def _distinct_runs(readings: list[_Reading], skipped: list[tuple[int, Skipped]]) -> list[_Reading]:
    """One reading per run: a run written to several files (promptfoo's -o a.json b.yaml,
    DeepEval's two .deepeval/ copies) is read from the first file that can be ordered in time.
    A file of the same run holding other scores (Inspect's `inspect score --output-file`, a
    re-scoring) is no copy: the metrics only it holds are read from it."""
    kept: list[_Reading] = []
    marks = {id(r): r.marks for r in readings}
    for reading in _most_complete(readings, marks, skipped):
        mine = marks[id(reading)]
        twin = next((k for k in kept if mine & marks[id(k)]), None)
        if twin is None:
            kept.append(reading)
            continue
        rescored = _rescored(twin, reading)
        if rescored is not None:
            marks[id(rescored)] = rescored.marks
            kept.append(rescored)
            continue
        if reading.ordered and not twin.ordered:
            kept[kept.index(twin)] = reading
            twin, reading = reading, twin
        why = f"the same run as {twin.sources[0]}"
        skipped += [(reading.order, Skipped(source, why)) for source in reading.sources]
    return sorted(kept, key=lambda r: r.order)


def _most_complete(
    readings: list[_Reading], marks: dict[int, frozenset[str]], skipped: list[tuple[int, Skipped]]
) -> list[_Reading]:
    """The readings left once every file holding less of a run than another file of it (a
    paused eval's export beside its resumed output, an eval's errors before they were retried)
    is skipped, saying which file holds more: the most complete file decides, never the order
    the files were given in."""
    groups: list[list[_Reading]] = []
    for reading in readings:
        joined = [g for g in groups if any(marks[id(reading)] & marks[id(r)] for r in g)]
        merged = [r for g in joined for r in g] + [reading]
        groups = [g for g in groups if not any(g is j for j in joined)] + [merged]
    left: list[_Reading] = []
    for group in groups:
        most = max((r.extent for r in group if r.extent is not None), default=None)
        best = min((r for r in group if r.extent == most), key=lambda r: r.order, default=None)
        for reading in group:
            if most is None or best is None or reading.extent is None or reading.extent >= most:
                left.append(reading)
                continue
            rows, held = reading.extent
            why = (
                f"part of the run read from {best.sources[0]}, which holds more of it "
                f"({most[0]} rows, {most[1]} with a result; this file {rows}, {held})"
            )
            skipped += [(reading.order, Skipped(source, why)) for source in reading.sources]
    return sorted(left, key=lambda r: r.order)


def _rescored(first: _Reading, other: _Reading) -> _Reading | None:
    """`other`'s metrics that `first`, a file of the same run, does not hold; None when it holds
    nothing new (a copy). The same metric with another number in each is a re-scoring neither
    file dates, so which is current cannot be told: an input error naming both, never the file
    order deciding."""
    held = {m.id: m for m in first.measurements}
    new = []
    for m in other.measurements:
        was = held.get(m.id)
        if was is None:
            new.append(m)
        elif (was.value, was.n) != (m.value, m.n) and not _both_nan(was.value, m.value):
            raise OutputError(
                other.sources[0],
                f"metric '{m.id}' reads {m.value} (n {m.n}) here and {was.value} (n {was.n}) "
                f"in {first.sources[0]}, a file of the same run: it was scored again, and which "
                "scoring is current cannot be told; give one of the two",
            )
    if not new:
        return None
    return attrs.evolve(other, measurements=tuple(new))


def _both_nan(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and math.isnan(a) and math.isnan(b)


def _nothing_read(given: str, skipped: list[Skipped]) -> str:
    if not skipped:
        return "no recognised eval output"
    if len(skipped) == 1 and skipped[0].source == given:
        return f"holds no run to read: {skipped[0].reason}"
    first = skipped[0]
    more = f" (and {len(skipped) - 1} more)" if len(skipped) > 1 else ""
    return f"no run to read: skipped {first.source}: {first.reason}{more}"


def pattern_matches(given: str | os.PathLike[str]) -> list[str] | None:
    """The paths a quoted glob pattern (`'scores/*.parquet'`, left by the shell for us) names,
    sorted; None when `given` is a path that exists, has no pattern characters, or matches
    nothing. The one rule by which outputs are expanded, so whoever confines the paths an
    output list names (the MCP server) checks the very paths read."""
    shown = os.fspath(given)
    if not any(c in shown for c in "*?[") or _mode(Path(given), shown) is not None:
        return None
    return sorted(glob.glob(shown)) or None


def _mode(path: Path, shown: str) -> int | None:
    """What is at `path` (its stat mode, links followed), None when nothing is; a path the OS
    cannot look up (too long, a loop of links, no permission) is the input's error."""
    try:
        return os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {exc.strerror or exc}") from None


def _expand(
    paths: Sequence[str | os.PathLike[str]], input_format: str | None
) -> Iterator[tuple[Path, str, Adapter | Skipped]]:
    for given in paths:
        path, shown = Path(given), os.fspath(given)
        mode = _mode(path, shown)
        if mode is not None and stat.S_ISDIR(mode):
            found = 0
            for child in sorted(p for p in path.rglob("*") if p.is_file()):
                child_shown = os.path.join(shown, os.path.relpath(child, path))
                what = _detect(child, child_shown, input_format)
                if what is not None:
                    found += 1
                    yield child, child_shown, what
            if not found:
                raise OutputError(shown, "no recognised eval output in this folder")
        elif mode is not None and stat.S_ISREG(mode):
            what = _detect(path, shown, input_format)
            if what is None:
                raise OutputError(shown, declined(path, _head(path, shown)))
            yield path, shown, what
        elif mode is not None:
            raise OutputError(shown, "not a regular file or folder")
        elif (matches := pattern_matches(given)) is not None:
            yield from _expand(matches, input_format)
        else:
            raise OutputError(shown, "no such file or folder")


def _detect(path: Path, shown: str, input_format: str | None) -> Adapter | Skipped | None:
    head = _head(path, shown)
    # A framework's index or cache is never a run, whatever format it is read as.
    why = not_a_run(path, head)
    if why is not None:
        return Skipped(shown, why)
    if input_format is not None:
        return by_name(input_format)
    return detect(path, head)


def _head(path: Path, shown: str) -> bytes:
    try:
        with open_regular(path) as stream:
            return read_head(stream)
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {exc.strerror or exc}") from exc


class _Merged:
    """Every measurement of one metric id so far: the newest by start time (the first of equals)
    decides, and the others are kept as earlier attempts. Each one added costs the same, however
    many came before it."""

    def __init__(self, first: Measurement) -> None:
        self.newest, self.started = first, _started(first)
        self.earlier: list[EarlierAttempt] = list(first.earlier)

    def add(self, new: Measurement) -> None:
        new_start = _started(new)
        if self.started is None or new_start is None:
            raise OutputError(
                new.run.source,
                f"metric '{new.id}' is also measured by {self.newest.run.source}; "
                "give one output per metric (runs without a start time cannot be ordered)",
            )
        self.earlier.extend(new.earlier)
        if (new_start, new.run.sequence) > (self.started, self.newest.run.sequence):
            self.earlier.append(_attempt(self.newest))
            self.newest, self.started = new, new_start
        else:
            self.earlier.append(_attempt(new))

    def result(self) -> Measurement:
        # A stopped run that the newest completed (Inspect's eval-retry) is that one evaluation,
        # not an earlier attempt of it.
        evaluation = self.newest.run.evaluation
        earlier = [
            a
            for a in self.earlier
            if a.complete or evaluation is None or a.evaluation != evaluation
        ]
        if not earlier:
            return attrs.evolve(self.newest, earlier=())
        ordered = sorted(earlier, key=lambda a: (a.started or "", a.source))
        return attrs.evolve(self.newest, earlier=tuple(ordered))


def _attempt(m: Measurement) -> EarlierAttempt:
    return EarlierAttempt(
        source=m.run.source,
        started=m.run.started,
        value=m.value,
        n=m.n,
        evaluation=m.run.evaluation,
        complete=not any(f.code is ValidityCode.RUN_INCOMPLETE for f in m.findings),
        interval=m.interval,
        missing=m.missing,
        findings=m.findings,
    )


def _started(m: Measurement) -> dt.datetime | None:
    if m.run.started is None:
        return None
    try:
        moment = dt.datetime.fromisoformat(m.run.started)
    except ValueError:
        return None
    # Naive times are taken as UTC so they can be ordered against aware ones.
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)
