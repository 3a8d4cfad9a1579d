"""An Inspect log as read from disk: the header whole, and each per-sample summary and reduction
checked and cut down, as it is read, to what scoring uses. It reads; what the numbers mean is the
adapter's.

A log holds its samples several times over (summaries, full samples, reductions): kept as parsed,
they would take several times the file's size in memory. Both forms of a log, the `.eval` archive
and the `.json` document, are read a piece at a time by the same code, so they give the same
result, or the same error; a part of the wrong shape is an OutputError naming it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import attrs

from evalglass.errors import OutputError
from evalglass.evidence import progress
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.adapters._common import ZIP_MAGIC
from evalglass.evidence.adapters._inspect_scores import value_to_float
from evalglass.evidence.adapters._json_stream import JsonStream
from evalglass.evidence.adapters._zip import JsonArchive

_NOT_A_SCORE = object()  # a score that is not an object, so it has no value
_ABSENT = object()  # no score under that name
# A sample's id: text or a number (not a boolean); built once, as it is checked per sample.
_ID = str | int | float
_SUMMARY_COST, _REDUCED_COST = c.Cost.SUMMARY, c.Cost.REDUCED
# How errors name the reductions in both forms of a log (the archive's member is reductions.json).
_REDUCTIONS = "reductions"


@attrs.frozen
class Summary:
    """One (sample, epoch) summary, cut down to what scoring reads from it."""

    id: str
    epoch: int | None
    scores: dict[str, object] | None  # each score's value; None when the sample cannot be scored
    metadata: dict[str, Any]  # only the keys a clustered stderr or a grouped metric groups by


@attrs.frozen
class Reduction:
    """One scorer's epoch-reduced samples, cut down to the value each was given."""

    scorer: object
    reducer: object
    values: list[tuple[object, object]]  # (sample id, value) per sample


@attrs.frozen
class Log:
    header: dict[str, Any]
    samples: list[Summary] | None  # one entry per (sample, epoch)
    reductions: list[Reduction] | None  # per scorer, the values Inspect fed its metrics


def load(path: Path, shown: str) -> Log:
    """Read a `.eval` archive or a `.json` log; OutputError for anything it cannot use."""
    try:
        with progress.open_binary(path) as raw:
            if raw.read(4) == ZIP_MAGIC:
                raw.seek(0)
                return _load_eval(raw, shown)
            if path.suffix.lower() == ".eval":
                raise OutputError(shown, "not an Inspect .eval log: not a zip archive")
            raw.seek(0)
            with c.json_errors(shown):
                return _load_json(raw, shown)
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {c.one_line(exc.strerror or exc)}") from exc


def score_values(summaries: list[Summary], name: str, scorer: str) -> list[float | None]:
    """Each summary's score for a results entry, under its name, else under its scorer's, as
    Inspect's value_to_float reads it: None where there is none (an errored sample, an unscored
    one (NaN), a value that is no number). One loop for every summary: it runs per scorer."""
    values: list[float | None] = []
    add, isnan = values.append, math.isnan
    for summary in summaries:
        scores = summary.scores
        if scores is None:
            add(None)
            continue
        # (A score under the name that is no object is that, not a reason to look further.)
        value = scores.get(name, _ABSENT)
        if value is _ABSENT:
            value = scores.get(scorer, _NOT_A_SCORE)
        if type(value) is float:
            add(None if isnan(value) else value)
            continue
        if value is _NOT_A_SCORE:
            add(None)
            continue
        if isinstance(value, dict):
            # A scorer returning several values: results name each key as its own "scorer".
            value = value.get(name)
        number = value_to_float(value)
        add(None if number is None or isnan(number) else number)
    return values


def has_score(scores: dict[str, object], name: str, scorer: str) -> bool:
    """Whether the sample has a score for a results entry (under its name, else its scorer's),
    of any value but an unscored one (NaN)."""
    value = scores[name] if name in scores else scores.get(scorer, _NOT_A_SCORE)
    if value is _NOT_A_SCORE or value is None:
        return False
    return not (isinstance(value, float) and math.isnan(value))


def cluster_key(scorer_spec: dict[str, Any]) -> str | None:
    """The metadata key a clustered stderr groups samples by, if the scorer declares one."""
    metrics = scorer_spec.get("metrics")
    for item in metrics if isinstance(metrics, list) else []:
        if isinstance(item, dict) and str(item.get("name", "")).endswith("stderr"):
            found = c.text(c.section(item, "options").get("cluster"))
            if found is not None:
                return found
    return None


class _Parts:
    """Turns each summary and reduction into what is kept of it, as it is read, and counts them
    against the cap on per-sample entries."""

    def __init__(self, shown: str) -> None:
        self.shown = shown
        self.kept = c.SampleBudget(shown)
        # Metadata keys a clustered stderr groups by; None until the header is known (then every
        # key is kept).
        self.keys: frozenset[str] | None = None

    def fail(self, where: str, problem: str) -> OutputError:
        return OutputError(self.shown, f"{where}: {problem}")

    def summaries(self, member: str) -> Callable[[object], Summary]:
        count = 0

        def convert(sample: object) -> Summary:
            nonlocal count
            count += 1
            return self.summary(sample, member, count)

        return convert

    def summary(self, sample: object, member: str, count: int) -> Summary:
        """One summary cut down; `member` and `count` place it in an error (said only then:
        this runs once per sample)."""
        if not isinstance(sample, dict):
            raise self.fail(
                f"{member}: sample {count}", f"expected an object, got {c.kind(sample)}"
            )
        sample_id = sample.get("id")
        if type(sample_id) is not str and (
            not isinstance(sample_id, _ID) or isinstance(sample_id, bool)
        ):
            raise self.fail(
                f"{member}: sample {count}",
                f"id: expected a string or a number, got {c.kind(sample_id)}",
            )
        self.kept.add(_SUMMARY_COST)
        scores = sample.get("scores") or {}
        metadata = sample.get("metadata")
        if not isinstance(metadata, dict):
            metadata = {}
        epoch = sample.get("epoch")
        return Summary(
            str(sample_id),
            epoch if isinstance(epoch, int) and not isinstance(epoch, bool) else None,
            # An errored sample has no score, even where its scores object holds one.
            None
            if sample.get("error") or not isinstance(scores, dict)
            else {
                name: score.get("value") if isinstance(score, dict) else _NOT_A_SCORE
                for name, score in scores.items()
            },
            metadata if self.keys is None else {k: metadata[k] for k in self.keys if k in metadata},
        )

    def reduction(self, reduction: object, index: int) -> Reduction:
        where = f"{_REDUCTIONS}: reduction {index}"
        if not isinstance(reduction, dict):
            raise self.fail(where, f"expected an object, got {c.kind(reduction)}")
        samples = reduction.get("samples")
        if not isinstance(samples, list):
            raise self.fail(f"{where}: samples", f"expected a list, got {c.kind(samples)}")
        values = self.reduced_values(where)
        return Reduction(
            reduction.get("scorer"), reduction.get("reducer"), [values(s) for s in samples]
        )

    def reduced_values(self, where: str) -> Callable[[object], tuple[object, object]]:
        count = 0

        def convert(item: object) -> tuple[object, object]:
            nonlocal count
            count += 1
            if not isinstance(item, dict):
                raise self.fail(
                    f"{where}: sample {count}", f"expected an object, got {c.kind(item)}"
                )
            self.kept.add(_REDUCED_COST)
            return item.get("sample_id"), item.get("value")

        return convert

    def streamed_reduction(self, stream: JsonStream, index: int) -> Reduction:
        """One scorer's reduction, its samples cut down one at a time as they are read."""
        if stream.peek() != "{":
            return self.reduction(stream.value(), index)
        fields: dict[str, Any] = {}
        values: list[tuple[object, object]] | None = None
        for key in stream.members():
            if key == "samples" and stream.peek() == "[":
                values = stream.values(self.reduced_values(f"{_REDUCTIONS}: reduction {index}"))
                fields[key] = []
            else:
                fields[key] = stream.value()
                values = None if key == "samples" else values
        if values is None:
            return self.reduction(fields, index)
        return Reduction(fields.get("scorer"), fields.get("reducer"), values)

    def header_read(self, header: dict[str, Any]) -> None:
        self.keys = _metadata_keys(header)


def _load_eval(raw: IO[bytes], shown: str) -> Log:
    parts = _Parts(shown)
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
        parts.header_read(header)
        samples: list[Summary] | None = None
        if "summaries.json" in names:
            samples = _read_summaries(archive, "summaries.json", parts)
        else:
            # Written incrementally while the run was going; the final summary may never come.
            batches = sorted(
                (int(m.group(1)), name)
                for name in names
                if (m := re.fullmatch(r"_journal/summaries/([0-9]{1,9})\.json", name))
            )
            if batches:
                samples = []
                for _, name in batches:
                    samples.extend(_read_summaries(archive, name, parts))
        reductions = None
        if "reductions.json" in names:
            with archive.stream("reductions.json") as stream:
                reductions = _read_reductions(stream, parts)
                stream.end()
    return Log(header, samples, reductions)


def _read_summaries(archive: JsonArchive, name: str, parts: _Parts) -> list[Summary]:
    with archive.stream(name) as stream:
        convert = parts.summaries(name)
        if not stream.opens("["):
            return [convert(sample) for sample in c.sequence(stream.whole(), parts.shown, name)]
        summaries = stream.values(convert)
        stream.end()
        return summaries


def _read_reductions(stream: JsonStream, parts: _Parts) -> list[Reduction]:
    if stream.peek() != "[":
        listed = c.sequence(stream.value(), parts.shown, _REDUCTIONS)
        return [parts.reduction(r, i) for i, r in enumerate(listed, 1)]
    return [parts.streamed_reduction(stream, i) for i, _ in enumerate(stream.items(), 1)]


def _load_json(raw: IO[bytes], shown: str) -> Log:
    """A `.json` log, its samples and reductions read one at a time like the archive's."""
    parts = _Parts(shown)
    stream = JsonStream(raw)
    if not stream.opens("{"):
        # Not UTF-8 without a BOM, or not an object: read whole, as json.load would.
        doc = c.mapping(stream.whole(), shown, "log")
        parts.header_read(doc)
        samples = doc.pop("samples", None)
        reductions = doc.pop("reductions", None)
        return Log(
            doc,
            None
            if samples is None
            else [
                parts.summary(s, "samples", i)
                for i, s in enumerate(c.sequence(samples, shown, "samples"), 1)
            ],
            None
            if reductions is None
            else [
                parts.reduction(r, i)
                for i, r in enumerate(c.sequence(reductions, shown, _REDUCTIONS), 1)
            ],
        )
    header: dict[str, Any] = {}
    summaries: list[Summary] | None = None
    reduced: list[Reduction] | None = None
    for key in stream.members():
        if key == "samples":
            header.pop(key, None)
            if stream.peek() == "[":
                summaries = stream.values(parts.summaries("samples"))
            else:
                raw_samples = stream.value()
                summaries = (
                    None
                    if raw_samples is None
                    else [
                        parts.summary(s, "samples", i)
                        for i, s in enumerate(c.sequence(raw_samples, shown, "samples"), 1)
                    ]
                )
        elif key == _REDUCTIONS:
            reduced = (
                None
                if stream.peek() == "n" and stream.value() is None
                else (_read_reductions(stream, parts))
            )
        else:
            header[key] = stream.value()
            if key == "eval":
                parts.header_read(header)
    stream.end()
    return Log(header, summaries, reduced)


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
