"""A judge's verdicts as evidence: JSON Lines, one row per sample a judge graded against a
standard, `{"standard", "judge_model", "builder_model", "passed", "score", "sample_id",
"evidence"}` (`score` optional). Each standard yields `judge/STANDARD/pass_rate` (a Wilson
interval over the per-sample passes) and, where rows carry scores, `judge/STANDARD/score`.

Who graded and who was graded are read per metric, for the resolver to compare: one row graded
by the model it grades blocks the whole metric there (`judge_not_independent`), never averaged
away. A standard's rows grade one builder model; a sample graded twice is an input error.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from evalglass.errors import OutputError
from evalglass.evidence import stats
from evalglass.evidence.adapters._common import is_number, json_objects, one_line
from evalglass.evidence.format_docs import NO_DATASET, ONE_FILE_RUNS, Counting, FormatDocs
from evalglass.evidence.model import Measurement, Run, Sample
from evalglass.evidence.registry import Adapter

_KEYS = (b'"standard"', b'"judge_model"', b'"passed"')


@attrs.define
class _Standard:
    """One standard's rows, as read: per sample its pass and score, and who graded whom."""

    passes: dict[str, bool] = attrs.Factory(dict)
    scores: dict[str, float] = attrs.Factory(dict)
    judges: set[str] = attrs.Factory(set)
    builders: set[str] = attrs.Factory(set)


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    """Each standard's measurements, sorted by standard, with who graded and who was graded for
    the resolver to compare. OutputError naming the line for a malformed row or a sample graded
    twice for one standard, and for a file with no rows."""
    standards: dict[str, _Standard] = {}
    for line, row in _rows(path, shown):
        standard = _text(row, "standard", shown, line)
        judge = _text(row, "judge_model", shown, line)
        builder = _text(row, "builder_model", shown, line)
        sample = _sample_id(row, shown, line)
        passed = row.get("passed")
        if not isinstance(passed, bool):
            raise OutputError(shown, "passed: expected true or false", line)
        evidence = row.get("evidence")
        if evidence is not None and not isinstance(evidence, str):
            raise OutputError(shown, "evidence: expected a string", line)
        graded = standards.setdefault(standard, _Standard())
        if sample in graded.passes:
            raise OutputError(
                shown, f"sample_id {sample!r} is graded twice for standard '{standard}'", line
            )
        graded.passes[sample] = passed
        score = row.get("score")
        if score is not None:
            if not is_number(score) or not math.isfinite(score):
                raise OutputError(shown, "score: expected a finite number or null", line)
            graded.scores[sample] = float(score)
        graded.judges.add(judge)
        graded.builders.add(builder)
    if not standards:
        raise OutputError(shown, "no judgment rows")
    return tuple(
        m for name in sorted(standards) for m in _measurements(name, standards[name], shown)
    )


def _measurements(name: str, graded: _Standard, shown: str) -> Iterator[Measurement]:
    if len(graded.builders) > 1:
        raise OutputError(
            shown,
            f"standard '{name}' grades several builder models "
            f"({', '.join(sorted(graded.builders))}): give one file per model under test",
        )
    run = _run(shown, graded)
    n = len(graded.passes)
    passes = sum(graded.passes.values())
    yield Measurement(
        id=f"judge/{name}/pass_rate",
        run=run,
        value=passes / n,
        n=n,
        interval=stats.proportion(passes, n),
        samples=tuple(Sample(id=s, score=float(p)) for s, p in graded.passes.items()),
    )
    if graded.scores:
        scores = list(graded.scores.values())
        yield Measurement(
            id=f"judge/{name}/score",
            run=run,
            value=math.fsum(scores) / len(scores),
            n=len(scores),
            interval=stats.interval_for_scores(scores),
            samples=tuple(Sample(id=s, score=v) for s, v in graded.scores.items()),
            # A judged sample without a score is missing from the score, not a zero.
            missing=n - len(scores),
        )


def _run(shown: str, graded: _Standard) -> Run:
    """The model under evaluation, and every model that graded one of its rows: the resolver
    holds each grader to independence from it, and to the judge the records name."""
    return Run(source=shown, models=tuple(graded.builders), graders=tuple(graded.judges))


def _rows(path: Path, shown: str) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        with path.open("rb") as stream:
            yield from json_objects(stream, shown)
    except OSError as exc:
        raise OutputError(shown, f"cannot read: {one_line(exc.strerror or exc)}") from exc


def _text(row: dict[str, Any], key: str, shown: str, line: int) -> str:
    value = row.get(key)
    if not isinstance(value, str) or not value.strip():
        raise OutputError(shown, f"{key}: expected a non-empty string", line)
    return value


def _sample_id(row: dict[str, Any], shown: str, line: int) -> str:
    value = row.get("sample_id")
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str) or not value:
        raise OutputError(shown, "sample_id: expected a non-empty string or an integer", line)
    return value


def sniff(path: Path, head: bytes) -> bool:
    """A .jsonl file whose first row is an object with every key a judgment row needs."""
    first = head.lstrip(b"\xef\xbb\xbf \t\r\n").split(b"\n", 1)[0]
    return (
        path.suffix.lower() == ".jsonl"
        and first.startswith(b"{")
        and all(k in first for k in _KEYS)
    )


DOCS = FormatDocs(
    label="judgments",
    versions="one set of columns, with no version field",
    model="`builder_model`",
    graders="every `judge_model`",
    counting=Counting(
        n="samples graded per standard",
        missing="rows without a score (for `score` only)",
        repeats="a sample graded twice is an input error",
        groups="none",
    ),
    runs=ONE_FILE_RUNS,
    identity=NO_DATASET,
)


ADAPTER = Adapter(
    name="judgments",
    recognises='judgments: .jsonl rows with "standard", "judge_model", "builder_model" and '
    '"passed"',
    sniff=sniff,
    read=read,
    docs=DOCS,
)
