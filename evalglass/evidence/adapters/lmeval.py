"""lm-evaluation-harness `results_<ts>.json` (v0.3, and 0.4 on), with its
`samples_<task>_<ts>.jsonl`, as Measurements. It never claims a samples file on its own and
never reads a field as permission to gate."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from evalglass.errors import OutputError
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.format_docs import Counting, FormatDocs, Identity, Runs
from evalglass.evidence.model import DatasetIdentity, Measurement, Run, Sample
from evalglass.evidence.registry import Adapter

if TYPE_CHECKING:
    from evalglass.evidence.adapters import _lmeval_samples as samples_file

# Built-in metrics lm-eval averages over documents when a task's metric_list does not say; each
# document scores 0 or 1, so averaged they are rates by construction (a share of the documents).
_MEAN_BY_DEFAULT = frozenset({"acc", "acc_norm", "acc_mutual_info", "exact_match"})
# lm-eval writes this where it could not compute a number (typically a stderr).
_NOT_AVAILABLE = "N/A"
# `--predict_only` (or a task with no metric) writes `"bypass,<filter>": 999`: a placeholder
# for a metric lm-eval never computed, never a score.
_BYPASS = "bypass"
# Hugging Face's packaged builders: a dataset_path naming the loader of local data_files, not
# a dataset. The files name the dataset.
_LOADERS = frozenset({"json", "csv", "parquet", "text", "arrow", "pandas"})


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    """One measurement per task and metric of a results file, with per-sample scores from the
    samples files beside it where there are any. OutputError for a file that is not a results
    object, or a samples file that cannot be read."""
    doc = c.mapping(c.load_json_file(path, shown), shown, "results file")
    return tuple(_measurements(doc, path, shown))


def _measurements(doc: dict[str, Any], path: Path, shown: str) -> Iterator[Measurement]:
    # The samples file's reader is reading's: recognising a file never loads it.
    from evalglass.evidence.adapters import _lmeval_samples as samples_file

    results = c.mapping(doc.get("results"), shown, "results")
    groups = c.section(doc, "groups")
    subtasks = c.section(doc, "group_subtasks")
    # A bare task is listed in group_subtasks with no subtasks; only a real group has some.
    group_names = set(groups) | {name for name, tasks in subtasks.items() if tasks}
    run = Run(
        source=shown,
        models=[_model(doc)],
        started=c.iso_time(doc.get("date")) or _stamp_time(path),
    )
    kept = c.SampleBudget(shown)
    bypassed = False
    found = 0
    # lm-eval v0.3 (2021-2023) keys a task's metrics bare (`acc`, `acc_stderr`), with no filter,
    # and lists each task's version beside its results.
    legacy = "versions" in doc and "configs" not in doc
    for task, row in results.items():
        row = c.mapping(groups.get(task, row), shown, f"results.{task}")
        keys = _metric_keys(row, legacy)
        bypassed = bypassed or any(metric == _BYPASS for _, metric, _ in keys)
        metrics = [
            (key, metric, flt)
            for key, metric, flt in keys
            if not metric.endswith("_stderr") and metric != _BYPASS
        ]
        found += len(metrics)
        if task in group_names:
            group_run = attrs.evolve(run, task=task)
            for key, metric, flt in metrics:
                yield _group_measurement(task, row, key, metric, flt, group_run, shown)
            continue
        written = [(metric, flt) for _, metric, flt in metrics]
        samples = samples_file.beside(path, shown, task, kept, written)
        task_run = attrs.evolve(run, task=task, dataset=_dataset(doc, task, samples.doc_hashes))
        per_doc = samples.scores
        for key, metric, flt in metrics:
            mean = _aggregation(doc, task, metric) == "mean"
            scores = per_doc.get((metric, flt)) if mean else None
            rate = mean and metric in _MEAN_BY_DEFAULT
            yield _task_measurement(
                task, row, key, metric, flt, task_run, scores, shown, _documents(doc, task, row),
                rate,
            )  # fmt: skip
    if bypassed and not found:
        raise OutputError(
            shown,
            "a predict-only run (lm-eval --predict_only): it computed no metric, only "
            "placeholders ('bypass'), so it measures nothing to gate",
        )


def _task_measurement(
    task: str,
    row: dict[str, Any],
    key: str,
    metric: str,
    flt: str,
    run: Run,
    per_doc: samples_file.PerDoc | None,
    shown: str,
    documents: int | None,
    rate: bool,
) -> Measurement:
    value = _value(row[key], shown, f"results.{task}.{key}")
    spread = f"{metric}_stderr,{flt}" if "," in key else f"{metric}_stderr"
    stderr = _value(row.get(spread), shown, f"results.{task}.{spread}")
    numeric = {doc_id: v for doc_id, v in (per_doc or {}).items() if v is not None}
    if not numeric or len(numeric) != len(per_doc or {}):
        # No samples file, or per-document values that are not scores (e.g. BLEU pairs).
        return Measurement(
            id=_metric_id(task, metric, flt),
            run=run,
            value=value,
            n=documents,
            interval=c.interval(value, None, stderr, n=documents, rate=rate),
            findings=c.out_of_range(value, rate),
        )
    scores = list(numeric.values())
    return Measurement(
        id=_metric_id(task, metric, flt),
        run=run,
        value=value,
        n=len(scores),
        interval=c.interval(value, scores, stderr),
        samples=tuple(Sample(id=doc_id, score=score) for doc_id, score in numeric.items()),
        findings=c.mismatch(
            value, c.mean(scores), f"the mean of its {len(scores)} per-document scores"
        )
        + c.count_mismatch(documents, len(scores), "documents"),
    )


def _group_measurement(
    group: str, row: dict[str, Any], key: str, metric: str, flt: str, run: Run, shown: str
) -> Measurement:
    # A group's value is lm-eval's weighted aggregate of its subtasks; it lists no samples.
    value = _value(row[key], shown, f"groups.{group}.{key}")
    stderr = _value(row.get(f"{metric}_stderr,{flt}"), shown, f"groups.{group}.{metric}_stderr")
    n = c.count(c.section(row, "sample_count").get(key))
    # A group's rate, weighted by its subtasks' sizes, is a share of all their documents.
    rate = metric in _MEAN_BY_DEFAULT
    return Measurement(
        id=_metric_id(group, metric, flt),
        run=run,
        value=value,
        n=n,
        interval=c.interval(value, None, stderr, n=n, rate=rate),
        findings=c.out_of_range(value, rate),
    )


def _metric_keys(row: dict[str, Any], legacy: bool) -> list[tuple[str, str, str]]:
    """Each (key, metric, filter) of a task's row: `metric,filter` keys, and in a v0.3 file the
    bare metric keys with the filter `none`."""
    keys = [(key, *key.split(",", 1)) for key in row if "," in key]
    if legacy and not keys:
        keys = [(key, key, "none") for key in row if c.is_number(row[key])]
    return [(key, metric, flt) for key, metric, flt in keys]


def _documents(doc: dict[str, Any], task: str, row: dict[str, Any]) -> int | None:
    """How many documents the task ran: `sample_len` (lm-eval 0.4.12 on), else the effective
    count of `n-samples` (0.4.0 on: fewer than the original under `--limit`); None in a v0.3
    file, which records no count."""
    written = c.count(row.get("sample_len"))
    if written is not None:
        return written
    return c.count(c.section(c.section(doc, "n-samples"), task).get("effective"))


def _metric_id(task: str, metric: str, flt: str) -> str:
    return f"{task}/{metric}" if flt == "none" else f"{task}/{metric},{flt}"


def _value(raw: object, shown: str, where: str) -> float | None:
    return None if raw == _NOT_AVAILABLE else c.number(raw, shown, where)


def _aggregation(doc: dict[str, Any], task: str, metric: str) -> str | None:
    """How lm-eval aggregates this metric's per-document values; only "mean" can be recomputed."""
    config = c.section(c.section(doc, "configs"), task)
    listed = config.get("metric_list")
    for item in listed if isinstance(listed, list) else []:
        if isinstance(item, dict) and item.get("metric") == metric:
            aggregation = item.get("aggregation")
            return aggregation if isinstance(aggregation, str) else None
    return "mean" if metric in _MEAN_BY_DEFAULT else None


def _model(doc: dict[str, Any]) -> str | None:
    config = c.section(doc, "config")
    args = config.get("model_args")
    if isinstance(args, dict):
        from_args = c.text(args.get("pretrained")) or c.text(args.get("model"))
    elif isinstance(args, str):
        # Older releases keep the command line's "pretrained=...,dtype=..." string.
        found = re.search(r"(?:^|,)\s*(?:pretrained|model)=([^,]+)", args)
        from_args = found.group(1).strip() if found else None
    else:
        from_args = None
    return c.text(doc.get("model_name")) or from_args or c.text(config.get("model"))


def _dataset(doc: dict[str, Any], task: str, doc_hashes: set[str]) -> DatasetIdentity:
    from evalglass.evidence.fingerprint import fingerprint

    config = c.section(c.section(doc, "configs"), task)
    path, name = c.text(config.get("dataset_path")), c.text(config.get("dataset_name"))
    kwargs = c.section(config, "dataset_kwargs")
    files = kwargs.get("data_files")
    split = c.text(config.get("test_split")) or c.text(config.get("validation_split"))
    if isinstance(files, dict):
        files = files.get(split) if split is not None else None
    location = c.text(files)
    if path in _LOADERS and location is not None:
        named: str | None = location
    else:
        named = f"{path}/{name}" if path and name else path
    return DatasetIdentity(
        # Named even without a dataset_path (after the task), so an output never passes for
        # some other dataset the host validated by naming none.
        name=named or task,
        # The dataset's own revision, when the task pins one; the task's version (`versions`)
        # is the task config's, not the data's.
        version=c.text(kwargs.get("revision")),
        location=location,
        samples=c.count(c.section(c.section(doc, "n-samples"), task).get("original")),
        # Over every document's doc_hash in the samples file (--log_samples); task_hashes is
        # lm-eval's own digest of them, by another rule than every other format's.
        fingerprint=fingerprint(doc_hashes),
    )


def _stamp_time(path: Path) -> str | None:
    # results_2026-11-29T22-44-33.541250.json: lm-eval's own timestamp, with "-" for ":".
    found = re.search(r"_(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d(?:\.\d+)?)$", path.stem)
    return c.iso_time(f"{found.group(1)}:{found.group(2)}:{found.group(3)}") if found else None


_RESULTS_FIRST = re.compile(rb'\{\s*"results"\s*:\s*\{')
_METRIC_KEY = re.compile(rb'"[^",]+,[^",]+"\s*:')
# v0.3: the first task's first key is a bare metric with its number.
_LEGACY_FIRST = re.compile(rb'\{\s*"results"\s*:\s*\{\s*"[^"]+"\s*:\s*\{\s*"[^",]+"\s*:\s*-?[0-9]')


def sniff(path: Path, head: bytes) -> bool:
    """A JSON object that opens with `results` keyed by task, with an alias or a metric key in
    the head, or (v0.3) a first task whose first key is a metric's number, with a stderr or the
    tasks' versions in the head; a samples file alone is never claimed."""
    body = head.lstrip(c.BOM_AND_SPACE)
    return bool(_RESULTS_FIRST.match(body)) and (
        b'"alias"' in head
        or _METRIC_KEY.search(head) is not None
        or (
            _LEGACY_FIRST.match(body) is not None and (b'"versions"' in head or b'_stderr"' in head)
        )
    )


DOCS = FormatDocs(
    label="lm-eval",
    reads="lm-evaluation-harness results",
    versions="v0.3 (no count of documents: n unknown), 0.4.0 to 0.4.11 (`n-samples`), 0.4.12 "
    "and later (`sample_len`)",
    model="`model_name`, else `pretrained=`, else `config.model`",
    graders="none (lm-eval metrics are computed, not graded)",
    counting=Counting(
        n="documents per metric and filter",
        missing="0",
        repeats="none in the file (a task's `repeats` are reduced inside each document's line)",
        groups="a group's own `sample_count`",
    ),
    runs=Runs(
        run="one `results_<timestamp>.json`",
        complete="always: lm-eval writes results only for a finished run (`--limit` is a chosen "
        "sample count, not a stopped run)",
        evaluation="none",
        attempts="results files of one model and task",
    ),
    identity=Identity(
        name="`dataset_path[/dataset_name]`, the data files for a file loader, else the task",
        version="`dataset_kwargs.revision`",
        sample_key="each document's `doc_hash` in the task's samples file",
        no_fingerprint="no samples file (`--log_samples` not given), or a line without `doc_hash`",
    ),
)


ADAPTER = Adapter(
    name="lm-eval",
    recognises='lm-evaluation-harness results: JSON opening with "results" keyed by task',
    sniff=sniff,
    read=read,
    docs=DOCS,
)
