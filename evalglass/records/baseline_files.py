"""Baselines that point to a file beside the records. A saved scorecard JSON: read the metric's
numbers (and per-sample scores, when it was saved with --keep-samples) into the baseline record.
A Parquet rows file (`rows`): only checked to be there; the shell reads it, since rows are eval
output and the records layer reads none.

The file is an approved artifact beside the records, reviewed like them; it is never "the last
run". It is read through the scorecard contract, and through a callable, so the same code serves
the working tree and a git ref. A path that leaves the records folder is refused in both.
"""

from __future__ import annotations

import math
import posixpath
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import attrs

from evalglass.errors import ContractError, RecordError
from evalglass.records.model import BaselineRecord

if TYPE_CHECKING:
    from evalglass import contract

TextReader = Callable[[str], "str | None"]
# What keeps a name inside the records folder from being a regular file to read (None: nothing
# does); a rows file is not text, so it is checked, not read.
Present = Callable[[str], "str | None"]


def attach_scorecards(
    baselines: Mapping[str, BaselineRecord], read: TextReader
) -> dict[str, BaselineRecord]:
    """Every baseline, with those naming a scorecard filled in from it."""
    cache: dict[str, contract.Scorecard] = {}
    return {
        metric_id: _filled(metric_id, b, read, cache) if b.scorecard else b
        for metric_id, b in baselines.items()
    }


def check_rows(baselines: Mapping[str, BaselineRecord], present: Present | None) -> None:
    """Refuse a baseline whose rows file leaves the records folder or, given `present`, is not
    there. RecordError naming the baseline's line."""
    for metric_id, b in baselines.items():
        if b.rows is None:
            continue
        name = inside_records(b.rows)
        if name is None:
            raise rows_error(
                b,
                metric_id,
                "is outside the records folder; a baseline file lives beside the records",
            )
        problem = present(name) if present is not None else None
        if problem:
            raise rows_error(b, metric_id, problem)


def rows_error(b: BaselineRecord, metric_id: str, message: str) -> RecordError:
    """A one-line error about a baseline's rows file, at the baseline's line."""
    return RecordError(
        b.origin.path, f"baseline '{metric_id}': rows '{b.rows}' {message}", b.origin.line
    )


def inside_records(name: str) -> str | None:
    """`name` as a normalised path relative to the records folder, or None when it would leave
    it (absolute, `..`, or a drive) — the records folder is the only place a baseline may be."""
    if not name or name.startswith(("/", "\\")) or "\\" in name or ":" in name.split("/")[0]:
        return None
    normal = posixpath.normpath(name)
    if normal == ".." or normal.startswith("../") or normal == ".":
        return None
    return normal


def _filled(
    metric_id: str, b: BaselineRecord, read: TextReader, cache: dict[str, contract.Scorecard]
) -> BaselineRecord:
    # The contract (cattrs, orjson) loads only for records that name a saved scorecard.
    from evalglass import contract

    assert b.scorecard is not None
    path, line = b.origin.path, b.origin.line

    def fail(message: str) -> RecordError:
        return RecordError(
            path, f"baseline '{metric_id}': scorecard '{b.scorecard}' {message}", line
        )

    name = inside_records(b.scorecard)
    if name is None:
        raise fail("is outside the records folder; a baseline file lives beside the records")
    if name not in cache:
        text = read(name)
        if text is None:
            raise fail("not found next to the records")
        try:
            cache[name] = contract.loads(text, name)
        except ContractError as exc:
            raise fail(exc.message) from None
    entry = cache[name].metric(metric_id)
    if entry is None:
        raise fail(f"has no metric '{metric_id}'")
    if entry.value is None or entry.n is None or entry.n < 1:
        raise fail(f"has no finite value and n for '{metric_id}'")
    return attrs.evolve(
        b, value=entry.value, n=entry.n, saved=entry, sample_scores=_scores(entry, fail)
    )


def _scores(
    entry: contract.Metric, fail: Callable[[str], RecordError]
) -> Mapping[str, float] | None:
    """One score per sample id, its epochs averaged, as the current run's are for pairing."""
    if not entry.samples:
        return None
    seen: set[tuple[str, int | None]] = set()
    by_id: dict[str, list[float]] = {}
    for sample in entry.samples:
        key = (sample.id, sample.epoch)
        if key in seen:
            # Collapsing duplicates would silently change the paired comparison.
            raise fail(
                f"repeats sample id '{sample.id}'"
                + (f" epoch {sample.epoch}" if sample.epoch else "")
            )
        seen.add(key)
        if sample.score is None:
            raise fail("has a non-finite sample score")
        by_id.setdefault(sample.id, []).append(sample.score)
    return {k: _mean(v) for k, v in by_id.items()}


def _mean(values: list[float]) -> float:
    # Finite scores whose sum passes the largest float still have a finite mean.
    try:
        return math.fsum(values) / len(values)
    except OverflowError:
        return math.fsum(v / len(values) for v in values)
