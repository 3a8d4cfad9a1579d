"""The calibration evidence document: what `evalglass calibrate` measured, as JSON a host can
commit beside its records, and the scale it was measured on. Writes and reads it (from text, so a
caller may read it at a git ref); it needs no numpy and decides nothing about authority.

It sits at the bottom of the package, as the scorecard contract does, because three layers meet
in it: the calibrate tool writes it, the records loader reads the file a judge record names, and
the core holds a judge to what it says.
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Mapping
from typing import Any

import attrs

from evalglass._inputs import TooLarge, read_regular
from evalglass.errors import CalibrationError


class LabelScale(enum.Enum):
    """How labels relate: unordered categories, ordered categories, or numbers on a line."""

    BINARY = "binary"
    NOMINAL = "nominal"
    ORDINAL = "ordinal"
    INTERVAL = "interval"

    @property
    def categorical(self) -> bool:
        """Whether labels are categories (binary, nominal, ordinal), counted in a confusion
        table; False for interval labels, which are numbers."""
        return self is not LabelScale.INTERVAL


SCHEMA_VERSION = 1
KIND = "evalglass calibration evidence"
INTERVAL_METHOD = "percentile bootstrap, items resampled"
# A JSON report of a run with --against carries its drift comparison under this key; the
# document itself is the rest, so such a report still reads as evidence.
REPORT_ONLY_KEYS = frozenset({"drift"})
_KEYS = (
    "schema_version",
    "kind",
    "judge",
    "judge_model",
    "scale",
    "categories",
    "raters",
    "level",
    "interval_method",
    "resamples",
    "seed",
    "items",
    "statistics",
    "confusion",
    "inputs",
    "evalglass_version",
    "date",
)


@attrs.frozen
class Estimate:
    """One statistic: its value on the data, its interval (None when it could not be made) and
    the items it was computed on. Undefined resamples are counted, never silently dropped."""

    value: float | None
    low: float | None
    high: float | None
    n: int
    undefined_resamples: int = 0


@attrs.frozen(kw_only=True)
class Items:
    """How the two files' items met (see ratings.Coverage), and items without a consensus."""

    matched: int
    judged_only: int
    labelled_only: int
    judge_blank: int
    human_blank: int
    no_consensus: int


@attrs.frozen
class InputFile:
    """A file the evidence was computed from, as given, and the sha256 of its bytes: what lets a
    reviewer tell which judgments and labels the evidence describes."""

    path: str
    sha256: str


@attrs.frozen(kw_only=True)
class CalibrationEvidence:
    """What one `evalglass calibrate` run measured for a judge: the agreement statistics with
    their intervals, how the items matched, and what reproduces it (the inputs' hashes, level,
    resamples, seed, version and date)."""

    judge: str
    judge_model: str | None
    scale: LabelScale
    categories: tuple[str, ...]
    raters: tuple[str, ...]
    statistics: Mapping[str, Estimate]
    # Rows: the judge's label; columns: the humans' consensus; in `categories` order.
    confusion: tuple[tuple[int, ...], ...] | None
    items: Items
    level: float
    resamples: int
    seed: int
    judgments: InputFile
    labels: InputFile
    evalglass_version: str
    date: str


def to_document(evidence: CalibrationEvidence) -> dict[str, Any]:
    """The JSON object, keys in a fixed order, so the same inputs give the same bytes."""
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": KIND,
        "judge": evidence.judge,
        "judge_model": evidence.judge_model,
        "scale": evidence.scale.value,
        "categories": list(evidence.categories),
        "raters": list(evidence.raters),
        "level": evidence.level,
        "interval_method": INTERVAL_METHOD,
        "resamples": evidence.resamples,
        "seed": evidence.seed,
        "items": attrs.asdict(evidence.items),
        "statistics": {
            name: {
                "value": e.value,
                "interval": None if e.low is None or e.high is None else [e.low, e.high],
                "n": e.n,
                "undefined_resamples": e.undefined_resamples,
            }
            for name, e in evidence.statistics.items()
        },
        "confusion": None if evidence.confusion is None else [list(r) for r in evidence.confusion],
        "inputs": {
            "judgments": attrs.asdict(evidence.judgments),
            "labels": attrs.asdict(evidence.labels),
        },
        "evalglass_version": evidence.evalglass_version,
        "date": evidence.date,
    }


def to_json(evidence: CalibrationEvidence, extra: Mapping[str, Any] | None = None) -> str:
    """The document as indented JSON text, `extra` keys (a report's `drift`) added last. A number
    that is not finite raises ValueError rather than writing JSON that no reader accepts."""
    document = to_document(evidence)
    document.update(extra or {})
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def evidence_from_text(text: str, where: str) -> CalibrationEvidence:
    """Parse and check an evidence document. `where` names it in messages (a path, or
    `ref:path`). Raises CalibrationError naming the field for anything malformed."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CalibrationError(
            where, f"not valid JSON: {exc.msg} (column {exc.colno})", exc.lineno
        ) from None
    except ValueError:  # an integer past Python's digit limit
        raise CalibrationError(where, "not valid JSON: a number with too many digits") from None
    except RecursionError:
        raise CalibrationError(where, "not valid JSON: nested too deeply to read") from None
    return _Reader(where).document(doc)


def read_evidence(path: str) -> CalibrationEvidence:
    """Read an evidence file from disk; CalibrationError when it is missing or malformed."""
    try:
        data = read_regular(path)
    except FileNotFoundError:
        raise CalibrationError(path, "calibration evidence file does not exist") from None
    except OSError as exc:
        raise CalibrationError(path, f"cannot be read: {exc.strerror or exc}") from None
    except TooLarge as exc:
        raise CalibrationError(path, str(exc)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise CalibrationError(path, "cannot be read: not UTF-8 text") from None
    return evidence_from_text(text, path)


class _Reader:
    """Checks one document field by field; every complaint names the field."""

    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, field: str, expected: str, got: object) -> CalibrationError:
        shown = json.dumps(got)[:60] if not isinstance(got, dict) else "an object"
        return CalibrationError(self.where, f"{field}: expected {expected}, got {shown}")

    def document(self, doc: object) -> CalibrationEvidence:
        obj = self.mapping(doc, "the document")
        if obj.get("schema_version") != SCHEMA_VERSION or obj.get("kind") != KIND:
            raise CalibrationError(
                self.where,
                f"not an evalglass calibration evidence file (schema_version "
                f"{SCHEMA_VERSION}, kind '{KIND}')",
            )
        known = {*_KEYS, *REPORT_ONLY_KEYS}
        unknown = sorted(set(obj) - known)
        if unknown:
            raise CalibrationError(self.where, f"{unknown[0]}: not a field of calibration evidence")
        scale_text = self.string(obj, "scale")
        try:
            scale = LabelScale(scale_text)
        except ValueError:
            raise self.fail(
                "scale", "one of " + ", ".join(s.value for s in LabelScale), scale_text
            ) from None
        items = self.mapping(obj.get("items"), "items")
        inputs = self.mapping(obj.get("inputs"), "inputs")
        return CalibrationEvidence(
            judge=self.string(obj, "judge"),
            judge_model=self.string(obj, "judge_model", optional=True),
            scale=scale,
            categories=self.strings(obj, "categories"),
            raters=self.strings(obj, "raters"),
            statistics=self.statistics(obj.get("statistics")),
            confusion=self.confusion(obj.get("confusion")),
            items=Items(
                **{f.name: self.count(items, f.name, "items.") for f in attrs.fields(Items)}
            ),
            level=self.fraction(obj.get("level"), "level"),
            resamples=self.count(obj, "resamples"),
            seed=self.count(obj, "seed"),
            judgments=self.input_file(inputs, "judgments"),
            labels=self.input_file(inputs, "labels"),
            evalglass_version=self.string(obj, "evalglass_version"),
            date=self.string(obj, "date"),
        )

    def mapping(self, value: object, field: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(field, "an object", value)
        return value

    def string(
        self, obj: dict[str, Any], field: str, *, optional: bool = False, prefix: str = ""
    ) -> Any:
        value = obj.get(field)
        if optional and value is None:
            return None
        if not isinstance(value, str) or not value:
            raise self.fail(prefix + field, "a non-empty string", value)
        return value

    def strings(self, obj: dict[str, Any], field: str) -> tuple[str, ...]:
        value = obj.get(field)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(field, "a list of strings", value)
        return tuple(value)

    def count(self, obj: dict[str, Any], field: str, prefix: str = "") -> int:
        value = obj.get(field)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.fail(prefix + field, "a whole number >= 0", value)
        return value

    def number(self, value: object, field: str, *, optional: bool = True) -> float | None:
        if value is None and optional:
            return None
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
        ):
            raise self.fail(field, "a finite number" + (" or null" if optional else ""), value)
        return float(value)

    def fraction(self, value: object, field: str) -> float:
        number = self.number(value, field, optional=False)
        assert number is not None
        if not 0 < number < 1:
            raise self.fail(field, "a number between 0 and 1", value)
        return number

    def statistics(self, value: object) -> dict[str, Estimate]:
        found: dict[str, Estimate] = {}
        for name, entry in self.mapping(value, "statistics").items():
            field = f"statistics.{name}"
            entry = self.mapping(entry, field)
            interval = entry.get("interval")
            if interval is None:
                low = high = None
            elif isinstance(interval, list) and len(interval) == 2:
                low = self.number(interval[0], f"{field}.interval", optional=False)
                high = self.number(interval[1], f"{field}.interval", optional=False)
                assert low is not None and high is not None
                if low > high:
                    raise self.fail(f"{field}.interval", "[low, high] with low <= high", interval)
            else:
                raise self.fail(f"{field}.interval", "[low, high] or null", interval)
            found[name] = Estimate(
                value=self.number(entry.get("value"), f"{field}.value"),
                low=low,
                high=high,
                n=self.count(entry, "n", f"{field}."),
                undefined_resamples=self.count(entry, "undefined_resamples", f"{field}."),
            )
        return found

    def confusion(self, value: object) -> tuple[tuple[int, ...], ...] | None:
        if value is None:
            return None
        rows = value if isinstance(value, list) else None
        if rows is None or not all(
            isinstance(r, list)
            and len(r) == len(rows)
            and all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in r)
            for r in rows
        ):
            raise self.fail("confusion", "a square table of counts or null", value)
        return tuple(tuple(r) for r in rows)

    def input_file(self, inputs: dict[str, Any], name: str) -> InputFile:
        entry = self.mapping(inputs.get(name), f"inputs.{name}")
        return InputFile(
            path=self.string(entry, "path", prefix=f"inputs.{name}."),
            sha256=self.string(entry, "sha256", prefix=f"inputs.{name}."),
        )
