"""Baselines that name a Parquet rows file, where records and outputs meet: the file is read
(from the records folder, or as committed at --records-ref through a private temporary copy;
a Git LFS pointer as its object from the local LFS store, verified), fills in the baseline's value, n and standard error, and is paired with the current Parquet rows
by sample id inside DuckDB. The records layer only checks the name; the evidence layer reads.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs

from evalglass.errors import OutputError, RecordError
from evalglass.evidence.model import Evidence, Measurement, Method
from evalglass.records.baseline_files import inside_records, rows_error
from evalglass.records.model import BaselineRecord, HostRecords
from evalglass.records.source import RecordsSource

# The methods whose basis holds the scores' own standard error (value ± q·se, or a proportion's
# interval at the effective n that standard error gives): a baseline's rows give it for these.
_SYMMETRIC = (
    Method.NORMAL, Method.STUDENT_T, Method.CLUSTERED, Method.EFFECTIVE_N,
    Method.CLUSTERED_EFFECTIVE_N,
)  # fmt: skip


def attach(
    host: HostRecords, evidence: Evidence, source: RecordsSource
) -> tuple[HostRecords, Evidence]:
    """The records with every baseline naming a rows file filled in from it, and the evidence
    with each current Parquet metric paired with its baseline's rows. Unchanged when no baseline
    names one. RecordError at the baseline's line for a file that is missing, is not Parquet or
    cannot be read (DuckDB missing included). The file comes from where the records did (the
    pinned commit, with a ref); the current Parquet files are those the evidence was read
    from."""
    named = {metric: b for metric, b in host.baselines.items() if b.rows is not None}
    if not named:
        return host, evidence
    # DuckDB and the readers load only for a baseline that names rows.
    from evalglass.evidence import aggregate
    from evalglass.evidence.adapters import parquet

    current = [(f.path, f.shown) for f in evidence.found if f.format == parquet.ADAPTER.name]
    label = aggregate.joined(tuple(shown for _, shown in current))
    by_file: dict[str, list[str]] = {}
    for metric, b in sorted(named.items()):
        name = inside_records(b.rows or "")
        if name is None:  # the loader refuses it first; kept so nothing outside is ever read
            raise rows_error(b, metric, "is outside the records folder")
        by_file.setdefault(name, []).append(metric)
    baselines = dict(host.baselines)
    measurements = dict(evidence.measurements)
    for name, metrics in by_file.items():
        paired = [m for m in metrics if _from(measurements.get(m), label)]
        first = named[metrics[0]]
        fail = functools.partial(rows_error, first, metrics[0])
        with _located(name, source, fail) as path:
            with path.open("rb") as head:
                if not parquet.sniff(path, head.read(len(parquet.MAGIC))):
                    raise rows_error(first, metrics[0], "is not a Parquet file")
            try:
                found, sums = parquet.with_baseline((path, name), current, paired)
            except OutputError as exc:
                raise rows_error(first, metrics[0], f"cannot be read: {exc.message}") from None
        measured = {m.id: m for m in aggregate.measurements(found, (name,))}
        for metric in metrics:
            baselines[metric] = _filled(named[metric], metric, measured.get(metric))
            if metric in sums:
                measurements[metric] = attrs.evolve(measurements[metric], paired=sums[metric])
    return (
        attrs.evolve(host, baselines=baselines),
        attrs.evolve(evidence, measurements=measurements),
    )


def _from(measurement: Measurement | None, label: str) -> bool:
    """Whether the current measurement is the Parquet files' (so it can pair in DuckDB)."""
    return bool(label) and measurement is not None and measurement.run.source == label


def _filled(b: BaselineRecord, metric: str, m: Measurement | None) -> BaselineRecord:
    """The baseline's numbers as scoring its file gives them; its standard error where the
    interval is value ± q·se, as a saved scorecard of the same file would give it."""
    if m is None:
        raise rows_error(b, metric, f"has no metric '{metric}'")
    if m.value is None or not math.isfinite(m.value) or not m.n:
        raise rows_error(b, metric, f"has no finite value and n for '{metric}'")
    stderr = None
    if m.interval is not None and m.interval.method in _SYMMETRIC:
        # Imported here with the readers: the statistics are evidence's, loaded on this path only.
        from evalglass.evidence import stats

        stderr = stats.standard_error(m.interval)
    return attrs.evolve(b, value=m.value, n=m.n, stderr=stderr)


@contextlib.contextmanager
def _located(
    name: str, source: RecordsSource, fail: Callable[[str], RecordError]
) -> Iterator[Path]:
    """The rows file as a local path while it is read: the file in the records folder, or its
    blob at `records_ref` copied to a private folder removed after. A Git LFS pointer in its
    place is read as its object, verified and copied from the local LFS store to that folder.
    RecordError (from `fail`) when there is no file, or no object to read for a pointer."""
    import tempfile

    from evalglass.records import lfs

    with tempfile.TemporaryDirectory(prefix="evalglass-baseline-") as private:
        if source.ref is None:
            path = Path(source.folder) / name
            if not path.is_file():
                raise fail("not found next to the records")
            where: Path | None = path.parent  # the repository holding the file holds its object
        else:
            from evalglass.records.gitref import copy_file_at

            path = Path(private) / "committed"
            with path.open("wb") as target:
                if not copy_file_at(source.ref, source.folder, name, target, at=source.commit):
                    raise fail("not found next to the records")
            where = None  # the repository gitref read it from, around the current directory
        pointer = lfs.pointer_in(path)
        if pointer is None:
            yield path
            return
        copy = Path(private) / "baseline.parquet"
        with copy.open("wb") as target:
            problem = lfs.copy_object(pointer, where, target, source.ref)
        if problem is not None:
            raise fail(problem)
        yield copy
