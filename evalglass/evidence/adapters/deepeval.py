"""DeepEval test-run files (`test_run_<ts>.json`) as Measurements, one per metric name. The mean
is computed from DeepEval's score list and checked against the test cases; errored measurements
are missing, never passes; no field grants authority."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from evalglass.errors import OutputError
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.model import DatasetIdentity, Measurement, Run, Sample
from evalglass.evidence.registry import Adapter
from evalglass.reasons import Reason

_CASE_LISTS = ("testCases", "conversationalTestCases")


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    doc = c.mapping(c.load_json_file(path, shown), shown, "test run")
    with c.shape_errors(shown):
        return tuple(_measurements(doc, path, shown))


@attrs.frozen
class _Case:
    """One test case's outcome for one metric: a score, or an error with none."""

    id: str
    score: float | None
    judge: str | None


def _measurements(doc: dict[str, Any], path: Path, shown: str) -> Iterator[Measurement]:
    cases = _cases(doc, shown)
    reported: dict[str, dict[str, Any]] = {}
    for entry in doc.get("metricsScores") or []:
        entry = c.mapping(entry, shown, "metricsScores[]")
        name = c.text(entry.get("metric"))
        if name is None:
            raise OutputError(shown, "metricsScores[]: expected a metric name")
        reported[name] = entry
    hyper = c.section(doc, "hyperparameters")
    run = Run(
        source=shown,
        models=[c.text(hyper.get("model"))],
        dataset=_dataset(doc, hyper),
        started=_file_time(path),
    )
    for name in sorted(set(reported) | set(cases)):
        yield _measurement(name, reported.get(name), cases.get(name), run, shown)


def _measurement(
    name: str,
    entry: dict[str, Any] | None,
    cases: list[_Case] | None,
    run: Run,
    shown: str,
) -> Measurement:
    scored = [case for case in cases or [] if case.score is not None]
    samples = tuple(Sample(id=case.id, score=case.score or 0.0) for case in scored)
    from_cases = [s.score for s in samples]
    if entry is not None:
        # The metric's own list, with errored measurements already dropped from it.
        raw = c.sequence(entry.get("scores"), shown, f"metricsScores[{name}].scores")
        listed = [c.number(s, shown, f"metricsScores[{name}].scores[]") for s in raw]
        scores = [s for s in listed if s is not None]
        errors = c.integer(entry.get("errors"))
    else:
        scores, errors = from_cases, None
    errored = sum(case.score is None for case in cases or [])
    value = c.mean(scores)
    findings: tuple[Reason, ...] = ()
    if cases is not None and entry is not None:
        findings = (
            c.mismatch(
                value, c.mean(from_cases), f"the mean of its {len(from_cases)} test-case scores"
            )
            + c.count_mismatch(len(scores), len(from_cases), "scores")
            + c.count_mismatch(errors, errored, "errored measurements")
        )
    return Measurement(
        id=name,
        # Every grader any test case names for this metric, not just the first.
        run=attrs.evolve(run, graders=[case.judge for case in cases or []]),
        value=value,
        n=len(scores),
        interval=c.interval(value, from_cases or scores, None),
        samples=samples if cases is not None else None,
        missing=errored if cases is not None else (errors or 0),
        findings=findings,
    )


def _cases(doc: dict[str, Any], shown: str) -> dict[str, list[_Case]]:
    """Per metric name, every test case that ran it (conversational ones included)."""
    by_metric: dict[str, list[_Case]] = {}
    for key in _CASE_LISTS:
        for position, case in enumerate(doc.get(key) or []):
            case = c.mapping(case, shown, f"{key}[{position}]")
            order = c.integer(case.get("order"))
            case_id = c.text(case.get("name")) or f"#{position if order is None else order}"
            for data in case.get("metricsData") or []:
                data = c.mapping(data, shown, f"{key}[{position}].metricsData[]")
                name = c.text(data.get("name"))
                if name is None:
                    raise OutputError(shown, f"{key}[{position}].metricsData[]: expected a name")
                where = f"{key}[{position}].metricsData[{name}].score"
                # On an error DeepEval writes "error" and leaves "score" out: it is missing.
                score = None if data.get("error") else c.number(data.get("score"), shown, where)
                by_metric.setdefault(name, []).append(
                    _Case(case_id, score, c.text(data.get("evaluationModel")))
                )
    return by_metric


def _dataset(doc: dict[str, Any], hyper: dict[str, Any]) -> DatasetIdentity:
    cases = sum(len(doc.get(key) or []) for key in _CASE_LISTS)
    return DatasetIdentity(
        # A Confident AI dataset names itself; otherwise only what the user logged, if anything.
        name=c.text(doc.get("datasetAlias"))
        or c.text(doc.get("datasetId"))
        or c.text(hyper.get("dataset")),
        version=c.text(doc.get("datasetVersion")),
        samples=cases or None,
    )


def _file_time(path: Path) -> str | None:
    # DeepEval records no start time; the file name carries when the run was saved (local time).
    found = re.search(r"(\d{4})(\d\d)(\d\d)_(\d\d)(\d\d)(\d\d)$", path.stem)
    if not found:
        return None
    y, mo, d, h, mi, s = found.groups()
    return c.iso_time(f"{y}-{mo}-{d}T{h}:{mi}:{s}")


def sniff(path: Path, head: bytes) -> bool:
    body = head.lstrip(c.BOM_AND_SPACE)
    return (
        body.startswith(b"{")
        and b'"testCases"' in head
        and any(key in head for key in (b'"testFile"', b'"metricsData"', b'"metricsScores"'))
    )


ADAPTER = Adapter(
    name="deepeval",
    recognises="a DeepEval test run: JSON with testCases and metricsData or metricsScores",
    sniff=sniff,
    read=read,
)
