"""promptfoo's `-o results.json` export as Measurements, per prompt x provider column. promptfoo
stores sums and counts: rates and means are derived and checked against the rows; provider
errors are missing, never failures; no field grants authority."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from evalglass.errors import OutputError
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.model import DatasetIdentity, Measurement, Run, Sample
from evalglass.evidence.registry import Adapter

_PASS_RATE = "pass_rate"
_ERROR = 2  # ResultFailureReason.ERROR: the provider or the eval failed; nothing was graded
# Assertion types graded by a model, whose grader is the judge of the metric they feed.
_MODEL_GRADED = frozenset(
    {
        "llm-rubric",
        "model-graded-closedqa",
        "model-graded-factuality",
        "factuality",
        "answer-relevance",
        "context-faithfulness",
        "context-recall",
        "context-relevance",
        "conversation-relevance",
        "g-eval",
        "search-rubric",
        "select-best",
        "similar",
        "classifier",
        "moderation",
    }
)


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    doc = c.mapping(c.load_json_file(path, shown), shown, "results file")
    with c.shape_errors(shown):
        return tuple(_measurements(doc, shown))


def _measurements(doc: dict[str, Any], shown: str) -> Iterator[Measurement]:
    results = c.mapping(doc.get("results"), shown, "results")
    version = c.integer(results.get("version"))
    if version is None or version < 3:
        raise OutputError(
            shown, f"results version {results.get('version')!r}: only version 3 exports are read"
        )
    columns = [
        c.mapping(column, shown, "results.prompts[]")
        for column in c.sequence(results.get("prompts"), shown, "results.prompts")
    ]
    rows = [
        c.mapping(row, shown, "results.results[]")
        for row in c.sequence(results.get("results"), shown, "results.results")
    ]
    config = c.section(doc, "config")
    by_column: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        by_column.setdefault(_column_of(row, columns, shown), []).append(row)
    started = c.iso_time(results.get("timestamp")) or c.iso_time(
        c.section(doc, "metadata").get("evaluationCreatedAt")
    )
    dataset = _dataset(config, rows)
    for index, column in enumerate(columns):
        provider, label = c.text(column.get("provider")), c.text(column.get("label"))
        if provider is None or label is None:
            raise OutputError(shown, f"results.prompts[{index}]: expected a provider and a label")
        column_rows = by_column.get(index, [])
        run = Run(
            source=shown,
            models=_models(column_rows, config, provider),
            dataset=dataset,
            graders=_graders(column_rows, None, config),
            started=started,
        )
        metrics = c.section(column, "metrics")
        yield _pass_rate(f"{provider}/{label}/{_PASS_RATE}", metrics, column_rows, run, shown)
        for name in c.section(metrics, "namedScores"):
            metric_run = attrs.evolve(run, graders=_graders(column_rows, name, config))
            yield _named(
                f"{provider}/{label}/{name}", name, metrics, column_rows, metric_run, shown
            )


def _column_of(row: dict[str, Any], columns: list[dict[str, Any]], shown: str) -> int:
    index = c.integer(row.get("promptIdx"))
    if index is not None and 0 <= index < len(columns):
        return index
    # Older exports have no promptIdx: the column is the prompt id and provider together.
    provider = c.section(row, "provider")
    for i, column in enumerate(columns):
        if column.get("id") == row.get("promptId") and column.get("provider") in (
            provider.get("label"),
            provider.get("id"),
        ):
            return i
    raise OutputError(shown, f"result row {row.get('id')!r} belongs to no prompt column")


def _is_error(row: dict[str, Any]) -> bool:
    reason = row.get("failureReason")
    if reason is not None:
        return bool(reason == _ERROR)
    # Without failureReason, an ungraded row with an error is a provider error.
    return bool(row.get("error")) and row.get("gradingResult") is None


def _pass_rate(
    metric_id: str, metrics: dict[str, Any], rows: list[dict[str, Any]], run: Run, shown: str
) -> Measurement:
    graded = [row for row in rows if not _is_error(row)]
    samples = tuple(
        Sample(id=_sample_id(row), score=1.0 if row.get("success") is True else 0.0)
        for row in graded
    )
    passed = c.integer(metrics.get("testPassCount"))
    failed = c.integer(metrics.get("testFailCount"))
    errors = c.integer(metrics.get("testErrorCount"))
    counted_pass = sum(s.score == 1.0 for s in samples)
    if passed is None or failed is None:
        passed, failed = counted_pass, len(samples) - counted_pass
    n = passed + failed
    value = passed / n if n else None
    scores = [s.score for s in samples]
    findings = (
        c.mismatch(value, c.mean(scores), f"the pass rate of its {len(scores)} graded rows")
        + c.count_mismatch(passed, counted_pass, "passing rows")
        + c.count_mismatch(errors, len(rows) - len(graded), "error rows")
    )
    return Measurement(
        id=metric_id,
        run=run,
        value=value,
        n=n,
        interval=c.interval(value, scores, None),
        samples=samples if rows else None,
        missing=errors if errors is not None else len(rows) - len(graded),
        findings=findings,
    )


def _named(
    metric_id: str,
    name: str,
    metrics: dict[str, Any],
    rows: list[dict[str, Any]],
    run: Run,
    shown: str,
) -> Measurement:
    where = f"namedScores.{name}"
    total = c.number(c.section(metrics, "namedScores")[name], shown, where)
    count = c.integer(c.section(metrics, "namedScoresCount").get(name))
    # The column sums weight x score; its mean divides by the summed weights, as promptfoo's
    # own viewer does (by the assertion count only in exports that predate the weights).
    weights = c.number(c.section(metrics, "namedScoreWeights").get(name), shown, where)
    value = _ratio(total, weights if weights is not None else count)
    errors = sum(_is_error(row) for row in rows)
    if count is None and weights is None:
        # A derived metric: promptfoo stores its computed value, with no rows behind it.
        return Measurement(id=metric_id, run=run, value=total, n=None, missing=errors)
    if not rows:
        return Measurement(id=metric_id, run=run, value=value, n=count)
    samples, weighted, weight_sum, assertions = [], 0.0, 0.0, 0
    for row in rows:
        scores = c.section(row, "namedScores")
        if _is_error(row) or name not in scores:
            continue
        score = c.number(scores[name], shown, f"row {_sample_id(row)} {where}")
        if score is None:
            continue
        contributing = _contributing(row, name)
        # A row's named score is already the weighted mean of its assertions for the metric.
        row_weight = c.number(
            c.section(c.section(row, "gradingResult"), "namedScoreWeights").get(name), shown, where
        )
        row_weight = float(contributing) if row_weight is None else row_weight
        samples.append(Sample(id=_sample_id(row), score=score))
        weighted, weight_sum = weighted + score * row_weight, weight_sum + row_weight
        assertions += contributing
    scores_only = [s.score for s in samples]
    return Measurement(
        id=metric_id,
        run=run,
        value=value,
        n=len(samples),
        interval=c.interval(value, scores_only, None),
        samples=tuple(samples),
        missing=errors,
        findings=c.mismatch(
            value, _ratio(weighted, weight_sum), f"the mean over its {len(samples)} graded rows"
        )
        + c.count_mismatch(count, assertions, "scored assertions"),
    )


def _ratio(total: float | None, count: float | None) -> float | None:
    return None if total is None or not count else total / count


def _contributing(row: dict[str, Any], name: str) -> int:
    components = c.section(row, "gradingResult").get("componentResults") or []
    found = sum(
        1
        for comp in components
        if isinstance(comp, dict) and c.section(comp, "assertion").get("metric") == name
    )
    return found or 1


def _sample_id(row: dict[str, Any]) -> str:
    index = c.integer(row.get("testIdx"))
    return str(index) if index is not None else str(row.get("id"))


def _models(rows: list[dict[str, Any]], config: dict[str, Any], column_provider: str) -> list[str]:
    """The provider every row of a column names: one model normally; a column whose rows name
    several is several models, never the first row's alone."""
    named = []
    for row in rows:
        provider = row.get("provider")
        name = c.text(provider) or c.text(c.section(row, "provider").get("id"))
        if name:
            named.append(name)
    if named:
        return named
    for provider in config.get("providers") or []:
        if isinstance(provider, dict) and column_provider in (
            provider.get("label"),
            provider.get("id"),
        ):
            return [c.text(provider.get("id")) or column_provider]
    return [column_provider]


def _graders(rows: list[dict[str, Any]], metric: str | None, config: dict[str, Any]) -> list[str]:
    """The grader(s) of the model-graded assertions behind a metric, row by row, as the file
    records them (an assertion's own provider, else its test's, else the default test's)."""
    default = c.section(c.section(config, "defaultTest"), "options").get("provider")
    graders: list[str] = []
    for row in rows:
        test_grader = c.section(c.section(row, "testCase"), "options").get("provider")
        for comp in c.section(row, "gradingResult").get("componentResults") or []:
            assertion = c.section(comp, "assertion") if isinstance(comp, dict) else {}
            kind = str(assertion.get("type", "")).removeprefix("not-")
            if kind not in _MODEL_GRADED or (metric and assertion.get("metric") != metric):
                continue
            for source in (assertion.get("provider"), test_grader, default):
                names = _provider_names(source)
                if names:
                    graders.extend(names)
                    break
    return graders


def _provider_names(value: object) -> list[str]:
    if isinstance(value, str) and value.strip():
        return [value]
    if isinstance(value, dict):
        # A grader that is also a configured provider is written {providerId, label, delay}.
        for key in ("id", "providerId", "label"):
            if c.text(value.get(key)):
                return [value[key]]
        # options.provider may name one grader per task: {text: ..., embedding: ...}.
        return [
            n
            for key in ("text", "embedding", "classification")
            for n in _provider_names(value.get(key))
        ]
    return []


def _dataset(config: dict[str, Any], rows: list[dict[str, Any]]) -> DatasetIdentity:
    tests = config.get("tests")
    if isinstance(tests, str):
        location: str | None = tests
    elif isinstance(tests, list) and tests and all(isinstance(t, str) for t in tests):
        location = ", ".join(tests)
    else:
        location = None  # inline tests: the config is the dataset
    indices = {c.integer(row.get("testIdx")) for row in rows} - {None}
    return DatasetIdentity(location=location, samples=len(indices) if indices else None)


def sniff(path: Path, head: bytes) -> bool:
    body = head.lstrip(c.BOM_AND_SPACE)
    return body.startswith(b"{") and b'"evalId"' in head and b'"results"' in head


ADAPTER = Adapter(
    name="promptfoo",
    recognises="a promptfoo export: JSON with evalId and results",
    sniff=sniff,
    read=read,
)
