"""An Inspect log as read from disk: the header whole, and each per-sample summary and reduction
cut down, as it is read, to what scoring uses. It reads; what the numbers mean is the adapter's.

A log holds its samples several times over (summaries, full samples, reductions): kept as parsed,
they would take several times the file's size in memory. A part of the wrong shape is kept so that
it fails only if, and where, the adapter reads it, as it did when the log was kept whole.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import IO, Any, cast

import attrs

from evalglass.errors import OutputError
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.adapters._common import ZIP_MAGIC
from evalglass.evidence.adapters._inspect_scores import value_to_float
from evalglass.evidence.adapters._json_stream import JsonStream
from evalglass.evidence.adapters._zip import JsonArchive

_ABSENT = object()  # a summary with no id
_NOT_A_SCORE = object()  # a score that is not an object, so it has no value


@attrs.frozen
class Summary:
    """One (sample, epoch) summary, cut down to what scoring reads from it."""

    id: object  # as written; _ABSENT when there is none
    epoch: object
    scores: dict[str, object] | None  # each score's value; None when the sample cannot be scored
    metadata: dict[str, Any]  # only the keys a clustered stderr or a grouped metric groups by


@attrs.frozen
class Unreadable:
    """What reading a part of the log raised, to be raised where the adapter reads that part."""

    error: Exception


@attrs.frozen
class Reduction:
    """One scorer's epoch-reduced samples, cut down to the value each was given."""

    scorer: object
    reducer: object
    # (sample id, value) per sample; an entry is Unreadable for a sample that is no object.
    values: list[tuple[object, object] | Unreadable] | Unreadable


@attrs.frozen
class Log:
    header: dict[str, Any]
    # One entry per (sample, epoch); one that is not an object is kept as written.
    samples: list[Summary | object] | None
    # Per scorer, the values Inspect fed its metrics.
    reductions: list[Reduction | Unreadable] | None


def load(path: Path, shown: str) -> Log:
    """Read a `.eval` archive or a `.json` log. Raises OutputError for an unreadable file, and
    the shape errors `c.shape_errors` translates for a summary or reduction of the wrong shape."""
    try:
        with path.open("rb") as raw:
            if raw.read(4) == ZIP_MAGIC:
                raw.seek(0)
                return _load_eval(raw, shown)
            if path.suffix.lower() == ".eval":
                raise OutputError(shown, "not an Inspect .eval log: not a zip archive")
            raw.seek(0)
            doc = c.mapping(c.load_json_stream(raw, shown), shown, "log")
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {c.one_line(exc.strerror or exc)}") from exc
    samples = _optional_list(doc, "samples", shown)
    reductions = _optional_list(doc, "reductions", shown)
    keys = _metadata_keys(doc)
    return Log(
        doc,
        None if samples is None else [_summary(sample, keys) for sample in samples],
        None if reductions is None else [_reduction(r, shown) for r in reductions],
    )


def sample_id(sample: Summary | object) -> str:
    """The sample's id as text; KeyError, as for the dictionary it came from, when it has none."""
    if not isinstance(sample, Summary):
        return str(cast(Any, sample)["id"])  # not an object: raises, as it always did
    if sample.id is _ABSENT:
        raise KeyError("id")
    return str(sample.id)


def summary(sample: Summary | object) -> Summary:
    """The sample as a Summary; one that is not an object raises as reading its scores did."""
    if isinstance(sample, Summary):
        return sample
    raise AttributeError(f"{type(sample).__name__!r} object has no attribute 'get'")


def score_value(scores: dict[str, object], name: str, scorer: str) -> float | None:
    """The sample's score for a results entry: under its name, else under its scorer's."""
    value = scores[name] if name in scores else scores.get(scorer, _NOT_A_SCORE)
    if value is _NOT_A_SCORE:
        return None
    if isinstance(value, dict):
        # A scorer returning several values: results name each key as its own "scorer".
        value = value.get(name)
    return value_to_float(value)


def cluster_key(scorer_spec: dict[str, Any]) -> str | None:
    """The metadata key a clustered stderr groups samples by, if the scorer declares one."""
    metrics = scorer_spec.get("metrics")
    for item in metrics if isinstance(metrics, list) else []:
        if isinstance(item, dict) and str(item.get("name", "")).endswith("stderr"):
            options = c.section(item, "options")
            if c.text(options.get("cluster")):
                return str(options["cluster"])
    return None


def _load_eval(raw: IO[bytes], shown: str) -> Log:
    with JsonArchive(raw, shown) as archive:
        names = archive.names
        if "header.json" in names:
            header = c.mapping(archive.load("header.json"), shown, "header.json")
        elif "_journal/start.json" in names:
            # The run was cut off before Inspect wrote its header: only the plan exists.
            start = c.mapping(archive.load("_journal/start.json"), shown, "_journal/start.json")
            header = {**start, "status": "started"}
        else:
            raise OutputError(shown, "not an Inspect .eval log: no header.json in the archive")
        keys = _metadata_keys(header)
        samples: list[Summary | object] | None = None
        if "summaries.json" in names:
            samples = _read_summaries(archive, "summaries.json", keys, shown)
        else:
            # Written incrementally while the run was going; the final summary may never come.
            batches = sorted(
                (int(m.group(1)), name)
                for name in names
                if (m := re.fullmatch(r"_journal/summaries/(\d+)\.json", name))
            )
            if batches:
                samples = []
                for _, name in batches:
                    samples.extend(_read_summaries(archive, name, keys, shown))
        reductions = None
        if "reductions.json" in names:
            reductions = _read_reductions(archive, "reductions.json", shown)
    return Log(header, samples, reductions)


def _read_summaries(
    archive: JsonArchive, name: str, keys: frozenset[str], shown: str
) -> list[Summary | object]:
    with archive.stream(name) as stream:
        if not stream.opens("["):
            return [_summary(sample, keys) for sample in c.sequence(stream.whole(), shown, name)]
        summaries = stream.values(lambda sample: _summary(sample, keys))
        stream.end()
        return summaries


def _read_reductions(archive: JsonArchive, name: str, shown: str) -> list[Reduction | Unreadable]:
    with archive.stream(name) as stream:
        if not stream.opens("["):
            return [_reduction(r, shown) for r in c.sequence(stream.whole(), shown, name)]
        reductions = [_read_reduction(stream, shown) for _ in stream.items()]
        stream.end()
        return reductions


def _read_reduction(stream: JsonStream, shown: str) -> Reduction | Unreadable:
    """One scorer's reduction, its samples cut down one at a time as they are read."""
    if stream.peek() != "{":
        return _reduction(stream.value(), shown)
    fields: dict[str, Any] = {}
    values = None
    for key in stream.members():
        if key == "samples" and stream.peek() == "[":
            values = stream.values(_reduced_value)
        else:
            fields[key] = stream.value()
            values = None if key == "samples" else values
    if values is None:
        return _reduction(fields, shown)
    return Reduction(fields.get("scorer"), fields.get("reducer"), values)


def _reduction(reduction: Any, shown: str) -> Reduction | Unreadable:
    try:
        scorer, reducer = reduction.get("scorer"), reduction.get("reducer")
    except AttributeError as exc:
        return Unreadable(exc)
    try:
        items = c.sequence(reduction.get("samples"), shown, "reductions[].samples")
    except OutputError as exc:
        return Reduction(scorer, reducer, Unreadable(exc))
    return Reduction(scorer, reducer, [_reduced_value(item) for item in items])


def _reduced_value(item: Any) -> tuple[object, object] | Unreadable:
    try:
        return item.get("sample_id"), item.get("value")
    except AttributeError as exc:
        return Unreadable(exc)


def _summary(sample: object, keys: frozenset[str]) -> Summary | object:
    if not isinstance(sample, dict):
        return sample
    scores = sample.get("scores") or {}
    # An errored sample has no score, even where its scores object holds one.
    scorable = not sample.get("error") and isinstance(scores, dict)
    metadata = c.section(sample, "metadata")
    return Summary(
        sample.get("id", _ABSENT),
        sample.get("epoch"),
        {name: _score_of(score) for name, score in scores.items()} if scorable else None,
        {key: metadata[key] for key in keys if key in metadata},
    )


def _score_of(score: object) -> object:
    return score.get("value") if isinstance(score, dict) else _NOT_A_SCORE


def _metadata_keys(header: dict[str, Any]) -> frozenset[str]:
    """The metadata keys any scorer's clustered stderr or grouped metric groups samples by."""
    spec = header.get("eval")
    scorers = spec.get("scorers") if isinstance(spec, dict) else None
    scorers = [s for s in scorers if isinstance(s, dict)] if isinstance(scorers, list) else []
    found = {cluster_key(s) for s in scorers}
    for scorer in scorers:
        metrics = scorer.get("metrics")
        for item in metrics if isinstance(metrics, list) else []:
            if isinstance(item, dict):
                found.add(c.text(c.section(item, "options").get("group_key")))
    results = header.get("results")
    entries = results.get("scores") if isinstance(results, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        metrics = entry.get("metrics") if isinstance(entry, dict) else None
        for body in metrics.values() if isinstance(metrics, dict) else []:
            if isinstance(body, dict):
                found.add(c.text(c.section(body, "params").get("group_key")))
    return frozenset(key for key in found if key is not None)


def _optional_list(doc: dict[str, Any], key: str, shown: str) -> list[Any] | None:
    value = doc.get(key)
    return None if value is None else c.sequence(value, shown, key)
