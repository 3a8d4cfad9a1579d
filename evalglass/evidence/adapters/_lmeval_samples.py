"""An lm-eval samples file (`samples_<task>_<ts>.jsonl`, written with `--log_samples`): each
document's score per metric and filter, and every document's `doc_hash`. Read only through the
results file beside it, which names the task's metrics.

Since lm-eval 0.4.7 each line names its `filter` and its `metrics`; before, a line holds its
metrics' scores as keys of its own, with no filter: which metrics they are is read from the
results, and the filter too when the task has one (with several, a line's filter cannot be told,
so the task's per-document scores are not read; its hashes still are).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from evalglass.errors import OutputError
from evalglass.evidence import progress
from evalglass.evidence.adapters import _common as c

PerDoc = dict[str, float | None]  # doc_id -> score (None: not a number, e.g. a BLEU tuple)

_ELSEWHERE = re.compile(r"[/\\\x00]")


@attrs.frozen
class Samples:
    """What a task's samples file holds: per metric and filter, each document's score; and
    every document's doc_hash."""

    scores: dict[tuple[str, str], PerDoc]
    doc_hashes: set[str]


def beside(
    path: Path,
    shown: str,
    task: str,
    kept: c.SampleBudget,
    written: Sequence[tuple[str, str]],
) -> Samples:
    """Per-document scores from the samples_<task>_<ts>.jsonl beside the results, if it is
    there; `written` is each (metric, filter) the results give the task."""
    stamp = path.stem.rpartition("_")[2]
    name = f"samples_{task}_{stamp}.jsonl"
    # A task name comes from the file: it names a file beside it, never one elsewhere.
    if not written or "_" not in path.stem or _ELSEWHERE.search(task) or task in (".", ".."):
        return Samples({}, set())
    sibling = path.with_name(name)
    if not sibling.is_file():
        return Samples({}, set())
    sibling_shown = os.path.join(os.path.dirname(shown), sibling.name)
    try:
        with progress.open_binary(sibling) as stream:
            return _read(stream, sibling_shown, kept, written)
    except OSError as exc:
        raise OutputError(sibling_shown, f"cannot read: {c.one_line(exc.strerror or exc)}") from exc


def _read(
    stream: Any, shown: str, kept: c.SampleBudget, written: Sequence[tuple[str, str]]
) -> Samples:
    found: dict[tuple[str, str], PerDoc] = {}
    hashes: set[str] = set()
    unhashed = False
    filters = {flt for _, flt in written}
    # A line of lm-eval before 0.4.7 has no filter: it is the task's one filter, if it has one.
    only_filter = next(iter(filters)) if len(filters) == 1 else None
    for number, entry in c.json_objects(stream, shown, "expected an object with a 'metrics' list"):
        doc_id = entry.get("doc_id")
        if not isinstance(doc_id, int | str) or isinstance(doc_id, bool):
            raise OutputError(shown, "expected a 'doc_id'", number)
        doc_hash = c.text(entry.get("doc_hash"))
        if doc_hash is None:
            unhashed = True
        else:
            hashes.add(doc_hash)
        listed = entry.get("metrics")
        if "metrics" not in entry:
            listed = [metric for metric, _ in written if metric in entry]
            if not listed:
                raise OutputError(shown, "expected a 'metrics' list or the task's scores", number)
            if only_filter is None:
                continue  # a line of one of several filters, which it does not name
            flt = only_filter
        elif not isinstance(listed, list):
            raise OutputError(shown, "expected an object with a 'metrics' list", number)
        else:
            # One line per document per filter: the filter is part of the key.
            raw_filter = entry.get("filter")
            flt = raw_filter if isinstance(raw_filter, str) else "none"
        for metric in listed:
            if not isinstance(metric, str):
                continue  # no results key names it
            kept.add(c.Cost.SCORE)
            value: Any = entry.get(metric)
            scores = found.setdefault((metric, flt), {})
            scores[str(doc_id)] = c.to_float(value) if c.is_number(value) else None
    # A document without its hash leaves the set short: no fingerprint rather than a wrong one.
    return Samples(found, set() if unhashed else hashes)
