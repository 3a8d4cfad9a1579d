"""Every Eval Ever (EEE) aggregate files, schemas 0.2.x and 0.3.0, with the instance-level rows
beside them: one measurement per `evaluation_results[]` entry. The dataset's size
(`source_data.samples_number`) is never read as n, and nothing in the file grants authority."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from evalglass.errors import OutputError
from evalglass.evidence import progress
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.format_docs import Counting, FormatDocs, Identity, Runs
from evalglass.evidence.model import DatasetIdentity, Measurement, Run
from evalglass.evidence.registry import Adapter

# The schema versions read: 0.2.x (0.2.0 to 0.2.2 as written) and 0.3.0.
_VERSIONS = re.compile(r"0\.(2\.\d+|3\.0)")


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    """One measurement per evaluation result, n counted from the evaluated samples. OutputError
    for a file that is not an EEE aggregate of a version read, or an unreadable rows file."""
    doc = c.mapping(c.load_json_file(path, shown), shown, "EEE file")
    version = doc.get("schema_version")
    if not isinstance(version, str) or not _VERSIONS.fullmatch(version):
        raise OutputError(
            shown,
            f"schema_version: Every Eval Ever {c.shown_value(version)} is not read "
            "(0.2.x and 0.3.0 are)",
        )
    results = c.sequence(doc.get("evaluation_results"), shown, "evaluation_results")
    entries = [c.mapping(e, shown, f"evaluation_results[{i}]") for i, e in enumerate(results)]
    ids = _metric_ids(entries, shown)
    rows = _rows_beside(doc, path, shown)
    model = c.section(doc, "model_info")
    run = Run(
        source=shown,
        models=[c.text(model.get("id")) or c.text(model.get("name"))],
        identity=_identity(doc),
    )
    return tuple(
        _measurement(metric_id, entry, i, doc, run, rows, shown)
        for i, (metric_id, entry) in enumerate(zip(ids, entries, strict=True))
    )


def _identity(doc: dict[str, Any]) -> str | None:
    evaluation = c.text(doc.get("evaluation_id"))
    return f"eee:{evaluation}" if evaluation else None


def _metric_ids(entries: list[dict[str, Any]], shown: str) -> list[str]:
    """Each entry's id, `EVALUATION_NAME/RESULT`: RESULT is the entry's `evaluation_result_id`
    (0.3.0: unique within the file, e.g. Inspect's `choice:accuracy`, lm-eval's `acc`), else
    its `metric_name`, else its `metric_id`; a 0.2.x entry naming none of them is its
    `evaluation_name`, with `/evaluation_description` where several entries share that name."""
    names = [_name(e, shown, i) for i, e in enumerate(entries)]
    shared = {n for n in names if names.count(n) > 1}
    ids: list[str] = []
    for i, (entry, name) in enumerate(zip(entries, names, strict=True)):
        config = c.section(entry, "metric_config")
        result = (
            c.text(entry.get("evaluation_result_id"))
            or c.text(config.get("metric_name"))
            or c.text(config.get("metric_id"))
        )
        if result is None and name in shared:
            result = c.text(config.get("evaluation_description"))
        ids.append(name if result is None else f"{name}/{result}")
        if ids[-1] in ids[:-1]:
            first = ids.index(ids[-1])
            raise OutputError(
                shown,
                f"evaluation_results[{i}]: metric '{ids[-1]}' is also evaluation_results"
                f"[{first}]; one file measures each metric once",
            )
    return ids


def _name(entry: dict[str, Any], shown: str, i: int) -> str:
    name = c.text(entry.get("evaluation_name"))
    if name is None:
        raise OutputError(shown, f"evaluation_results[{i}].evaluation_name: expected text")
    return name


def _measurement(
    metric_id: str,
    entry: dict[str, Any],
    index: int,
    doc: dict[str, Any],
    run: Run,
    rows: _Rows,
    shown: str,
) -> Measurement:
    where = f"evaluation_results[{index}]"
    details = c.mapping(entry.get("score_details"), shown, f"{where}.score_details")
    value = c.number(details.get("score"), shown, f"{where}.score_details.score")
    uncertainty = c.section(details, "uncertainty")
    stderr_block = c.section(uncertainty, "standard_error")
    stderr = c.number(stderr_block.get("value"), shown, f"{where}...standard_error.value")
    source = c.section(entry, "source_data")
    listed = _sample_ids(source)
    evaluated = rows.samples_of(entry) or listed
    judges = c.section(c.section(entry, "metric_config"), "llm_scoring").get("judges")
    started = entry.get("evaluation_timestamp") or doc.get("evaluation_timestamp")
    return Measurement(
        id=metric_id,
        run=attrs.evolve(
            run,
            dataset=_dataset(source, evaluated),
            graders=list(_graders(judges)),
            started=_time(started),
        ),
        value=value,
        n=len(evaluated) if evaluated else None,
        interval=c.interval(value, None, stderr),
    )


def _sample_ids(source: dict[str, Any]) -> set[str]:
    """The evaluated samples' ids a source lists (`sample_ids`, or 0.2.x's comma-joined text in
    `additional_details.sample_ids`)."""
    ids = source.get("sample_ids")
    if isinstance(ids, list):
        return {str(i) for i in ids if isinstance(i, str | int) and not isinstance(i, bool)}
    joined = c.text(c.section(source, "additional_details").get("sample_ids"))
    return set(joined.split(",")) if joined else set()


def _dataset(source: dict[str, Any], ids: set[str]) -> DatasetIdentity:
    # Hashing is reading's: recognising a file never loads it.
    from evalglass.evidence.fingerprint import fingerprint

    urls = source.get("url")
    url = urls[0] if isinstance(urls, list) and urls else None
    return DatasetIdentity(
        name=c.text(source.get("dataset_name")),
        location=c.text(source.get("hf_repo")) or c.text(url),
        # The dataset's size, not the samples evaluated: never n.
        samples=c.count(source.get("samples_number")),
        fingerprint=fingerprint(ids),
    )


def _graders(judges: object) -> Iterator[str | None]:
    for judge in judges if isinstance(judges, list) else []:
        info = c.section(judge, "model_info") if isinstance(judge, dict) else {}
        yield c.text(info.get("id")) or c.text(info.get("name"))


def _time(value: object) -> str | None:
    # EEE writes Unix seconds as text ("1761001924.0"); some files an ISO 8601 time.
    if isinstance(value, str):
        try:
            return c.iso_time(float(value))
        except ValueError:
            return c.iso_time(value)
    return c.iso_time(value)


@attrs.frozen
class _Rows:
    """The instance-level rows beside the file: the sample ids of each key the rows name (an
    `evaluation_result_id` or `evaluation_name`), every sample id, and the file's own keys."""

    by_key: dict[str, set[str]]
    all_samples: set[str]
    result_keys: frozenset[str] = frozenset()

    def samples_of(self, entry: dict[str, Any]) -> set[str]:
        """The distinct samples behind one result: its rows, or every row when the rows name no
        result of the file (0.2.x's Inspect rows name the dataset instead), each run's result
        being computed over the run's samples."""
        for key in (
            c.text(entry.get("evaluation_result_id")),
            c.text(entry.get("evaluation_name")),
        ):
            if key is not None and key in self.by_key:
                return self.by_key[key]
        if not set(self.by_key) & self.result_keys:
            return self.all_samples
        return set()


_ELSEWHERE = re.compile(r"[/\\\x00]")


def _rows_beside(doc: dict[str, Any], path: Path, shown: str) -> _Rows:
    """The rows file the aggregate names (`detailed_evaluation_results.file_path`, looked for
    beside it under its own name: a file names a file beside it, never one elsewhere), else
    0.3.0's `<name>_samples.jsonl` beside it."""
    keys = {
        k
        for e in doc.get("evaluation_results") or []
        if isinstance(e, dict)
        for k in (c.text(e.get("evaluation_result_id")), c.text(e.get("evaluation_name")))
        if k is not None
    }
    named = c.text(c.section(doc, "detailed_evaluation_results").get("file_path"))
    candidates = [os.path.basename(named.replace("\\", "/"))] if named else []
    candidates.append(f"{path.stem}_samples.jsonl")
    for name in candidates:
        if not name or name in (".", "..") or _ELSEWHERE.search(name):
            continue
        sibling = path.with_name(name)
        if sibling.is_file() and sibling != path:
            rows = _read_rows(sibling, os.path.join(os.path.dirname(shown), name), shown)
            return attrs.evolve(rows, result_keys=frozenset(keys))
    return _Rows({}, set())


def _read_rows(path: Path, shown: str, aggregate: str) -> _Rows:
    kept = c.SampleBudget(aggregate)
    by_key: dict[str, set[str]] = {}
    every: set[str] = set()
    try:
        with progress.open_binary(path) as stream:
            for number, row in c.json_objects(stream, shown, "expected an object per line"):
                sample = row.get("sample_id")
                if not isinstance(sample, str | int) or isinstance(sample, bool):
                    raise OutputError(shown, "sample_id: expected text or a number", number)
                # Epochs and filters write a sample more than once: n counts it once.
                sample_id = str(sample)
                if sample_id not in every:
                    kept.add(c.Cost.KEY)
                every.add(sample_id)
                key = c.text(row.get("evaluation_result_id")) or c.text(row.get("evaluation_name"))
                if key is not None:
                    by_key.setdefault(key, set()).add(sample_id)
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {c.one_line(exc.strerror or exc)}") from exc
    return _Rows(by_key, every)


_MARKS = (b'"retrieved_timestamp"', b'"source_metadata"', b'"model_info"', b'"evaluation_results"')


def sniff(path: Path, head: bytes) -> bool:
    """A .json object whose head has EEE's `schema_version` and `evaluation_id` and one more of
    its required keys."""
    body = head.lstrip(c.BOM_AND_SPACE)
    return (
        path.suffix.lower() == ".json"
        and body.startswith(b"{")
        and b'"schema_version"' in head
        and b'"evaluation_id"' in head
        and any(mark in head for mark in _MARKS)
    )


DOCS = FormatDocs(
    label="Every Eval Ever",
    reads="Every Eval Ever files (schemas 0.2.x and 0.3.0)",
    versions="schema versions 0.2.x and 0.3.0; another is refused, naming it",
    model="`model_info.id`, else `model_info.name`",
    graders="every `metric_config.llm_scoring.judges[].model_info.id`",
    counting=Counting(
        n="distinct sample ids of the result's instance-level rows, else of "
        "`source_data.sample_ids`, else unknown (never `samples_number`, the dataset's size)",
        missing="0",
        repeats="rows of one sample (epochs, filters) count once",
        groups="none",
    ),
    runs=Runs(
        run="one `evaluation_id` (two files of one id are one run, read once)",
        complete="always: EEE records no run status (convert finished runs only)",
        evaluation="none",
        attempts="files of one metric with other `evaluation_id`s, ordered by "
        "`evaluation_timestamp`",
    ),
    identity=Identity(
        name="`source_data.dataset_name`",
        version="none (EEE records no dataset version)",
        sample_key="each sample id the metric counts in n (its rows' `sample_id`, else "
        "`source_data.sample_ids`), as text",
        no_fingerprint="no rows and no `sample_ids`",
    ),
)


ADAPTER = Adapter(
    name="eee",
    recognises="Every Eval Ever: a .json object with schema_version, evaluation_id, model_info",
    sniff=sniff,
    read=read,
    docs=DOCS,
)
