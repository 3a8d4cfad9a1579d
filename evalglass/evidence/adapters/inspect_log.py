"""Inspect AI logs (`.eval` archives and `.json` logs): recognised here, read by _inspect_log.

The reader brings zipfile, a JSON streamer and (for zstd members) zstandard; recognising a file
needs none of them, so they load only when an Inspect log is read.
"""

from __future__ import annotations

import re
from pathlib import Path

from evalglass.evidence.adapters._common import BOM_AND_SPACE, ZIP_MAGIC
from evalglass.evidence.format_docs import Counting, FormatDocs, Identity, Runs
from evalglass.evidence.model import Measurement
from evalglass.evidence.registry import Adapter

# How Inspect opens every JSON log it writes, in every release: the log's format version, the
# run's status, then the eval's spec (EvalLog's first three fields, in their order).
_JSON_LOG = re.compile(
    rb'\{\s*"version"\s*:\s*[0-9]+\s*,\s*"status"\s*:\s*"(started|success|cancelled|error)"'
    rb'\s*,\s*"eval"\s*:\s*\{'
)


def sniff(path: Path, head: bytes) -> bool:
    """An Inspect log: a zip archive (a .eval file, or one with Inspect's member names), or a
    JSON log opening as Inspect writes one (version, status, eval), or whose head has status,
    eval_id and task_id."""
    if head.startswith(ZIP_MAGIC):
        return path.suffix.lower() == ".eval" or b"_journal/" in head or b"header.json" in head
    body = head.lstrip(BOM_AND_SPACE)
    return body.startswith(b"{") and (
        _JSON_LOG.match(body) is not None
        or all(key in head for key in (b'"status"', b'"eval_id"', b'"task_id"'))
    )


# logs.json maps each log's file name to its header: `{}` or a first key naming a log.
_INDEX = re.compile(rb'\{\s*(\}|"[^"]*\.(eval|json)"\s*:)')
# Folders where Inspect keeps the state of a running eval, never a finished log.
_WORKING = re.compile(r"\.buffer|.+\.checkpoints")


def not_a_run(path: Path, head: bytes) -> str | None:
    """What Inspect writes beside its logs, none of it a log (its own list_eval_logs passes
    over all of it too)."""
    body = head.lstrip(BOM_AND_SPACE)
    if path.name == "logs.json" and _INDEX.match(body):
        return (
            "Inspect's index of this log folder (logs.json), which repeats the logs' headers; "
            "the logs themselves are read"
        )
    if path.name == "eval-set.json" and b'"eval_set_id"' in head and b'"tasks"' in head:
        return "Inspect's eval-set manifest (eval-set.json): the tasks it ran, not a log"
    if path.name == ".eval-set-id":
        return "Inspect's eval-set id (.eval-set-id), not a log"
    if any(_WORKING.fullmatch(part) for part in path.parent.parts[-3:]):
        return "Inspect's working state of a running eval (.buffer, .checkpoints), not a log"
    return None


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    """The log's measurements, read by _inspect_log, which is imported only here so that
    recognising a file never loads zipfile, the JSON streamer or zstandard."""
    from evalglass.evidence.adapters import _inspect_log

    return _inspect_log.read(path, shown)


DOCS = FormatDocs(
    label="Inspect",
    reads="Inspect AI logs (`.eval`, `.json`, eval-set folders)",
    versions="logs inspect_ai 0.3.285 and 0.3.150 wrote (`.eval` with zstd or deflate members, "
    "and JSON) and 0.3.40 (JSON, no `eval_id`, no `scored_samples`)",
    model="`eval.model`",
    graders="a scorer naming a model (`model_graded_fact`, ...): `results.scores[].params.model` "
    "or `eval.scorers[].options.model`; a `model_graded_*` scorer naming none: the `grader` "
    "model role, else the model under evaluation",
    counting=Counting(
        n="`scored_samples` (samples after epoch reduction; unscored ones excluded); without a "
        "reducer, or without `scored_samples`, the distinct samples with a score",
        missing="samples set out to score − n",
        repeats="epochs reduced by the log's reducer (averaged, without one)",
        groups="`grouped()` metrics: samples whose metadata holds the group; unknown without it",
    ),
    runs=Runs(
        run="one log: `eval.eval_id` and `stats.started_at` (a `.eval` and its `inspect log "
        "convert` copy are one run)",
        complete="`status` is `success`; `started`, `cancelled` and `error` did not complete",
        evaluation="the same `eval.task_id` and model: `inspect eval-retry` (and "
        "`--retry-on-error`) keep the task_id of the run they complete",
        attempts="logs with another `task_id` (every `inspect eval` draws a new one)",
    ),
    identity=Identity(
        name="`eval.dataset.name`",
        version="none (Inspect records no dataset version)",
        sample_key="each id in `eval.dataset.sample_ids` (the samples the run set out to score), "
        "as text",
        no_fingerprint="the log lists no `sample_ids`",
    ),
)


ADAPTER = Adapter(
    name="inspect",
    recognises="an Inspect AI log: a .eval zip archive, or JSON opening with version, status and "
    "eval (or with status, eval_id and task_id)",
    sniff=sniff,
    read=read,
    not_a_run=not_a_run,
    docs=DOCS,
)
