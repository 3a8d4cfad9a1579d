"""The generic JSON format: a model name and metrics as numbers, summaries or per-sample scores,
with the dataset of the file or, where a metric names its own, of that metric.

It reads values only; any other field (`authority`, `status`, ...) is ignored, so an output can
never promote itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path

import attrs

from evalglass.errors import OutputError
from evalglass.evidence import stats
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.format_docs import (
    ONE_FILE_RUNS,
    WRITERS_FINGERPRINT,
    Counting,
    FormatDocs,
    Identity,
)
from evalglass.evidence.model import DatasetIdentity, Measurement, Run, Sample
from evalglass.evidence.registry import Adapter
from evalglass.reasons import Reason, ValidityCode


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    """The generic format's metrics, one measurement each, with the model and dataset the file
    names (an entry's own `dataset` replaces the file's for that metric); every other field is
    ignored. OutputError for a file that is not a JSON object with a `metrics` object, or an
    entry that is not a number, a summary or per-sample scores."""
    doc = c.load_json_file(path, shown)
    if not isinstance(doc, dict) or not isinstance(doc.get("metrics"), dict):
        raise OutputError(shown, "expected a JSON object with a 'metrics' object")
    run = Run(
        source=shown,
        models=[_optional_str(doc, "model", shown)],
        dataset=_dataset(doc.get("dataset"), shown, "dataset"),
    )
    kept = c.SampleBudget(shown)
    return tuple(
        _measurement(metric_id, entry, run, shown, kept)
        for metric_id, entry in doc["metrics"].items()
    )


def _measurement(
    metric_id: str, entry: object, run: Run, shown: str, kept: c.SampleBudget
) -> Measurement:
    where = f"metrics.{metric_id}"
    if entry is None or c.is_number(entry):
        value = None if entry is None else c.to_float(entry)  # type: ignore[arg-type]
        return Measurement(id=metric_id, run=run, value=value, n=None)
    if not isinstance(entry, dict):
        raise OutputError(shown, f"{where}: expected a number or an object, got {c.kind(entry)}")
    missing = _count(entry, "missing", where, shown) or 0
    # One file may hold metrics of several datasets (a QA set and a safety set): a metric that
    # names its own is about that one. null names none of its own, so the file's still holds.
    own = _dataset(entry.get("dataset"), shown, f"{where}.dataset")
    if own is not None:
        run = attrs.evolve(run, dataset=own)
    if "scores" in entry:
        return _from_scores(metric_id, entry, run, missing, where, shown, kept)
    value = c.number(entry.get("value"), shown, f"{where}.value")
    n = _count(entry, "n", where, shown)
    stderr = c.number(entry.get("stderr"), shown, f"{where}.stderr")
    if stderr is not None and stderr < 0:
        raise OutputError(shown, f"{where}.stderr: must not be negative, got {stderr}")
    # A stderr that is the binomial one of a share of n makes it a proportion (Wilson's).
    interval = c.interval(value, None, stderr, n=n)
    return Measurement(id=metric_id, run=run, value=value, n=n, interval=interval, missing=missing)


def _from_scores(
    metric_id: str,
    entry: Mapping[str, object],
    run: Run,
    missing: int,
    where: str,
    shown: str,
    kept: c.SampleBudget,
) -> Measurement:
    scores = entry["scores"]
    if not isinstance(scores, list) or not all(c.is_number(s) for s in scores):
        raise OutputError(shown, f"{where}.scores: expected a list of numbers")
    kept.add(c.Cost.SCORE, len(scores))
    values = [c.to_float(s) for s in scores]
    samples = tuple(Sample(id=str(i), score=s) for i, s in enumerate(values))
    if not values:
        return Measurement(id=metric_id, run=run, value=None, n=0, samples=(), missing=missing)
    mean = stats.mean(values)
    reported = c.number(entry.get("value"), shown, f"{where}.value")
    findings: tuple[Reason, ...] = ()
    if (
        reported is not None
        and math.isfinite(mean)
        and not math.isclose(reported, mean, rel_tol=1e-9, abs_tol=1e-9)
    ):
        findings = (
            Reason(
                ValidityCode.VALUE_MISMATCH,
                f"reported value {reported} differs from the mean of its scores {mean}",
            ),
        )
    finite = all(math.isfinite(v) for v in values)
    return Measurement(
        id=metric_id,
        run=run,
        value=mean if reported is None else reported,
        n=len(values),
        interval=stats.interval_for_scores(values) if finite else None,
        samples=samples,
        missing=missing,
        findings=findings,
    )


def _dataset(raw: object, shown: str, where: str) -> DatasetIdentity | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise OutputError(shown, f"{where}: expected an object, got {c.kind(raw)}")
    return DatasetIdentity(
        name=_optional_str(raw, "name", shown, f"{where}."),
        version=_optional_str(raw, "version", shown, f"{where}."),
        fingerprint=_optional_str(raw, "fingerprint", shown, f"{where}."),
    )


def _optional_str(doc: Mapping[str, object], key: str, shown: str, within: str = "") -> str | None:
    value = doc.get(key)
    if value is None or isinstance(value, str):
        return value
    raise OutputError(shown, f"{within}{key}: expected a string, got {c.kind(value)}")


def _count(entry: Mapping[str, object], key: str, where: str, shown: str) -> int | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise OutputError(
            shown, f"{where}.{key}: expected a whole number >= 0, got {c.shown_value(value)}"
        )
    return value


def sniff(path: Path, head: bytes) -> bool:
    """A .json file holding an object with a `metrics` key within the head."""
    text = head.lstrip()
    return path.suffix.lower() == ".json" and text.startswith(b"{") and b'"metrics"' in head


DOCS = FormatDocs(
    label="generic JSON",
    versions="one shape, with no version field",
    model="`model`",
    graders="none named: the judge the metric's record names",
    counting=Counting(
        n="`n` as given, else unknown",
        missing="`missing` as given",
        repeats="the harness's own (give n of distinct samples)",
        groups="none",
    ),
    runs=ONE_FILE_RUNS,
    identity=Identity(
        name="`dataset.name` (the metric's own `dataset`, else the file's)",
        version="`dataset.version`",
        sample_key=WRITERS_FINGERPRINT,
        no_fingerprint="no `dataset.fingerprint`",
    ),
)


ADAPTER = Adapter(
    name="generic",
    recognises='the generic format: a .json object with "metrics"',
    sniff=sniff,
    read=read,
    docs=DOCS,
)
