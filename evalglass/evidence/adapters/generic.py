"""The generic JSON format: a model name and metrics as numbers, summaries or per-sample scores.

It reads values only; any other field (`authority`, `status`, ...) is ignored, so an output can
never promote itself.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from evalglass.errors import OutputError
from evalglass.evidence import progress, stats
from evalglass.evidence.model import DatasetIdentity, Measurement, Run, Sample
from evalglass.evidence.registry import Adapter
from evalglass.reasons import Reason, ValidityCode


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    doc = load_json(path, shown)
    if not isinstance(doc, dict) or not isinstance(doc.get("metrics"), dict):
        raise OutputError(shown, "expected a JSON object with a 'metrics' object")
    run = Run(
        source=shown,
        model=_optional_str(doc, "model", shown),
        dataset=_dataset(doc.get("dataset"), shown),
    )
    return tuple(
        _measurement(str(metric_id), entry, run, shown)
        for metric_id, entry in doc["metrics"].items()
    )


def load_json(path: Path, shown: str) -> Any:
    """Parse a whole JSON file; Python-written NaN and Infinity are accepted (and judged later)."""
    try:
        with progress.open_binary(path) as stream:
            return json.load(stream)
    except json.JSONDecodeError as exc:
        raise OutputError(shown, f"not valid JSON: {exc.msg} (column {exc.colno})", exc.lineno) from exc
    except UnicodeDecodeError as exc:
        raise OutputError(shown, "not valid JSON: the file is not UTF-8 text") from exc
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {exc.strerror or exc}") from exc


def _measurement(metric_id: str, entry: object, run: Run, shown: str) -> Measurement:
    where = f"metrics.{metric_id}"
    if entry is None or _is_number(entry):
        value = None if entry is None else float(entry)  # type: ignore[arg-type]
        return Measurement(id=metric_id, run=run, value=value, n=None)
    if not isinstance(entry, dict):
        raise OutputError(shown, f"{where}: expected a number or an object, got {_kind(entry)}")
    missing = _count(entry, "missing", where, shown) or 0
    if "scores" in entry:
        return _from_scores(metric_id, entry, run, missing, where, shown)
    value = _number(entry, "value", where, shown)
    n = _count(entry, "n", where, shown)
    stderr = _number(entry, "stderr", where, shown)
    interval = None
    if value is not None and stderr is not None and math.isfinite(value) and math.isfinite(stderr):
        if stderr < 0:
            raise OutputError(shown, f"{where}.stderr: must not be negative, got {stderr}")
        interval = stats.normal(value, stderr)
    return Measurement(id=metric_id, run=run, value=value, n=n, interval=interval, missing=missing)


def _from_scores(
    metric_id: str, entry: Mapping[str, object], run: Run, missing: int, where: str, shown: str
) -> Measurement:
    scores = entry["scores"]
    if not isinstance(scores, list) or not all(_is_number(s) for s in scores):
        raise OutputError(shown, f"{where}.scores: expected a list of numbers")
    values = [float(s) for s in scores]
    samples = tuple(Sample(id=str(i), score=s) for i, s in enumerate(values))
    if not values:
        return Measurement(id=metric_id, run=run, value=None, n=0, samples=(), missing=missing)
    mean = math.fsum(values) / len(values)
    reported = _number(entry, "value", where, shown)
    findings: tuple[Reason, ...] = ()
    if reported is not None and not math.isclose(reported, mean, rel_tol=1e-9, abs_tol=1e-9):
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


def _dataset(raw: object, shown: str) -> DatasetIdentity | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise OutputError(shown, f"dataset: expected an object, got {_kind(raw)}")
    return DatasetIdentity(
        name=_optional_str(raw, "name", shown),
        version=_optional_str(raw, "version", shown),
        fingerprint=_optional_str(raw, "fingerprint", shown),
    )


def _optional_str(doc: Mapping[str, object], key: str, shown: str) -> str | None:
    value = doc.get(key)
    if value is None or isinstance(value, str):
        return value
    raise OutputError(shown, f"{key}: expected a string, got {_kind(value)}")


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number(entry: Mapping[str, object], key: str, where: str, shown: str) -> float | None:
    value = entry.get(key)
    if value is None:
        return None
    if not _is_number(value):
        raise OutputError(shown, f"{where}.{key}: expected a number, got {_kind(value)}")
    return float(value)  # type: ignore[arg-type]


def _count(entry: Mapping[str, object], key: str, where: str, shown: str) -> int | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise OutputError(shown, f"{where}.{key}: expected a whole number >= 0, got {value!r}")
    return value


def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), type(value).__name__
    )


def sniff(path: Path, head: bytes) -> bool:
    text = head.lstrip()
    return path.suffix.lower() == ".json" and text.startswith(b"{") and b'"metrics"' in head


ADAPTER = Adapter(
    name="generic",
    recognises='the generic format: a .json object with "metrics"',
    sniff=sniff,
    read=read,
    rank=2,
)
