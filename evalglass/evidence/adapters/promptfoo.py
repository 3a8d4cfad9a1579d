"""promptfoo's exports (`-o results.json`, `.yaml`, `.xml`, `.jsonl`) as Measurements, per
prompt x provider column. promptfoo stores sums and counts: rates and means are derived and
checked against the rows; a test run several times (`--repeat N`) counts once, its repeats
averaged; provider errors are missing, never failures; no field grants authority."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from evalglass.errors import OutputError
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.format_docs import Counting, FormatDocs, Identity, Runs
from evalglass.evidence.model import Measurement, Run
from evalglass.evidence.registry import Adapter

if TYPE_CHECKING:
    from evalglass.evidence.adapters._promptfoo_cases import Cases

# Recognising an export needs the patterns below alone: the modules that read one (its files,
# runs, cases and graders) are imported by the functions that read, so that scoring another
# format never loads them.

_PASS_RATE = "pass_rate"


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    """One measurement per prompt x provider column of a promptfoo export (JSON, YAML, XML, or
    .jsonl result rows). OutputError for an export that does not hold what promptfoo writes; YAML
    needs the `yaml` extra."""
    from evalglass.evidence.adapters import _promptfoo_files as files

    doc = files.load(path, shown)
    if files.ROWS_ONLY in doc:
        return tuple(_rows_only(doc[files.ROWS_ONLY], shown))
    return tuple(_measurements(doc, shown))


def _measurements(doc: dict[str, Any], shown: str) -> Iterator[Measurement]:
    from evalglass.evidence.adapters import _promptfoo_runs as runs

    results = c.mapping(doc.get("results"), shown, "results")
    version = c.integer(results.get("version"))
    if version is None or version < 3:
        raise OutputError(shown, runs.older_export(results.get("version")))
    columns = [
        c.mapping(column, shown, "results.prompts[]")
        for column in c.sequence(results.get("prompts"), shown, "results.prompts")
    ]
    rows = [
        c.mapping(row, shown, "results.results[]")
        for row in c.sequence(results.get("results"), shown, "results.results")
    ]
    # Each row becomes a Sample in every column metric it feeds.
    c.SampleBudget(shown).add(c.Cost.SCORE, len(rows))
    by_column: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        by_column.setdefault(_column_of(row, columns, shown), []).append(row)
    started = c.iso_time(results.get("timestamp")) or c.iso_time(
        c.section(doc, "metadata").get("evaluationCreatedAt")
    )
    repeat = c.integer(c.section(doc, "runtimeOptions").get("repeat"))
    measured = _columns(columns, by_column, c.section(doc, "config"), started, repeat, shown)
    # Every file of one evalId holds that eval as it stood when written: a paused eval's export
    # holds part of what its resumed output holds, and an eval retried holds fewer errors. The
    # id is also how `promptfoo view` lists the eval.
    eval_id = c.text(doc.get("evalId"))
    whole = None if eval_id is None else f"promptfoo-eval:{eval_id}"
    extent = (len(rows), sum(not runs.is_error(row) for row in rows))
    for m in measured:
        run = attrs.evolve(m.run, whole=whole, extent=extent, viewer_id=eval_id)
        yield attrs.evolve(m, run=run)


def _rows_only(lines: list[Any], shown: str) -> Iterator[Measurement]:
    """`-o results.jsonl`: the rows alone, so the columns and every sum come from them."""
    from evalglass.evidence.adapters import _promptfoo_runs as runs
    from evalglass.evidence.adapters._promptfoo_cases import columns_of_rows

    rows = [c.mapping(row, shown, "result row") for row in lines]
    c.SampleBudget(shown).add(c.Cost.SCORE, len(rows))
    if not rows:
        raise OutputError(shown, "no result rows")
    extent = (len(rows), sum(not runs.is_error(row) for row in rows))
    for m in _columns(*columns_of_rows(rows, shown), {}, None, None, shown):
        yield attrs.evolve(m, run=attrs.evolve(m.run, extent=extent))


def _columns(
    columns: list[dict[str, Any]],
    by_column: dict[int, list[dict[str, Any]]],
    config: dict[str, Any],
    started: str | None,
    repeat: int | None,
    shown: str,
) -> Iterator[Measurement]:
    from evalglass.evidence.adapters import _promptfoo_graders as graded_by
    from evalglass.evidence.adapters import _promptfoo_runs as runs
    from evalglass.evidence.adapters._promptfoo_cases import (
        case_dataset,
        cases_of,
        column_models,
        content_keys,
        run_identity,
    )

    rows = [row for column_rows in by_column.values() for row in column_rows]
    cases = cases_of(by_column)
    identity = run_identity(rows)
    dataset = case_dataset(config, cases, content_keys(rows))
    # Without rows, a count of rows is a count of tests only when nothing was repeated.
    once = repeat == 1
    # A paused eval's export holds the rows run so far, and nothing else says it stopped.
    incomplete, unrun = runs.shortfall(
        runs.planned(config, repeat),
        [len({cases.of[id(row)] for row in by_column.get(i, [])}) for i in range(len(columns))],
        [len(by_column.get(i, [])) for i in range(len(columns))],
    )
    names: list[tuple[str, str]] = []
    for index, column in enumerate(columns):
        provider, label = c.text(column.get("provider")), c.text(column.get("label"))
        if provider is None or label is None:
            raise OutputError(shown, f"results.prompts[{index}]: expected a provider and a label")
        names.append((provider, label))
    for index in runs.once_each(columns, by_column, shown):
        column, (provider, label) = columns[index], names[index]
        column_rows = by_column.get(index, [])
        whole = runs.Stopped(incomplete, unrun[index])
        run = Run(
            source=shown,
            models=column_models(column_rows, config, provider),
            dataset=dataset,
            graders=graded_by.graders(column_rows, None, config),
            started=started,
            identity=identity,
        )
        metrics = c.section(column, "metrics")
        yield whole.of(
            _pass_rate(
                f"{provider}/{label}/{_PASS_RATE}", metrics, column_rows, cases, run, once, shown
            )
        )
        named = c.section(metrics, "namedScores") if metrics else _row_metrics(column_rows)
        for name in named:
            metric_run = attrs.evolve(run, graders=graded_by.graders(column_rows, name, config))
            yield whole.of(
                _named(
                    f"{provider}/{label}/{name}", name, metrics, column_rows, cases, metric_run,
                    once, shown,
                )
            )  # fmt: skip


def _row_metrics(rows: list[dict[str, Any]]) -> dict[str, None]:
    """The named metrics the rows were scored on, in the order first met."""
    return {name: None for row in rows for name in c.section(row, "namedScores")}


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
    raise OutputError(
        shown, f"result row {c.shown_value(row.get('id'))} belongs to no prompt column"
    )


def _pass_rate(
    metric_id: str,
    metrics: dict[str, Any],
    rows: list[dict[str, Any]],
    cases: Cases,
    run: Run,
    once: bool,
    shown: str,
) -> Measurement:
    from evalglass.evidence.adapters import _promptfoo_runs as runs
    from evalglass.evidence.adapters._promptfoo_cases import scored as score_cases

    graded = [row for row in rows if not runs.is_error(row)]
    scored = score_cases(
        [(row, 1.0 if row.get("success") is True else 0.0) for row in graded], cases
    )
    row_scores = [s.score for s in scored.samples]
    counted_pass = sum(score == 1.0 for score in row_scores)
    passed = c.count(metrics.get("testPassCount"))
    failed = c.count(metrics.get("testFailCount"))
    errors = c.count(metrics.get("testErrorCount"))
    if passed is None or failed is None:
        passed, failed = counted_pass, len(row_scores) - counted_pass
    reported = passed / (passed + failed) if passed + failed else None
    findings = (
        c.mismatch(
            reported, c.mean(row_scores), f"the pass rate of its {len(row_scores)} graded rows"
        )
        + c.count_mismatch(passed, counted_pass, "passing rows")
        + c.count_mismatch(errors, len(rows) - len(graded), "error rows")
    )
    if not rows:
        # A summary alone: its counts are of rows, which are tests only when none repeated.
        # A pass rate is a share of the tests: Wilson's from the counts.
        n = passed + failed if once else None
        return Measurement(
            id=metric_id, run=run, value=reported, n=n,
            interval=c.interval(reported, None, None, n=n, rate=True),
            missing=(errors or 0) if once else 0, findings=findings,
        )  # fmt: skip
    means = scored.means
    value = reported if scored.balanced else c.mean(means)
    return Measurement(
        id=metric_id,
        run=run,
        value=value,
        n=len(means),
        interval=c.interval(value, means, None),
        samples=scored.samples,
        missing=len({cases.of[id(row)] for row in rows} - set(scored.per_case)),
        findings=findings,
        reduction=scored.reduction,
    )


def _named(
    metric_id: str,
    name: str,
    metrics: dict[str, Any],
    rows: list[dict[str, Any]],
    cases: Cases,
    run: Run,
    once: bool,
    shown: str,
) -> Measurement:
    from evalglass.evidence.adapters import _promptfoo_graders as graded_by
    from evalglass.evidence.adapters import _promptfoo_runs as runs
    from evalglass.evidence.adapters._promptfoo_cases import sample_label
    from evalglass.evidence.adapters._promptfoo_cases import scored as score_cases

    where = f"namedScores.{name}"
    summary = c.section(metrics, "namedScores")
    total = c.number(summary[name], shown, where) if name in summary else None
    count = c.count(c.section(metrics, "namedScoresCount").get(name))
    # The column sums weight x score; its mean divides by the summed weights, as promptfoo's
    # own viewer does (by the assertion count only in exports that predate the weights).
    weights = c.number(c.section(metrics, "namedScoreWeights").get(name), shown, where)
    reported = _ratio(total, weights if weights is not None else count)
    errors = sum(runs.is_error(row) for row in rows)
    if total is not None and count is None and weights is None:
        # A derived metric: promptfoo stores its computed value, with no rows behind it.
        return Measurement(id=metric_id, run=run, value=total, n=None, missing=errors)
    if not rows:
        return Measurement(id=metric_id, run=run, value=reported, n=count if once else None)
    graded: list[tuple[dict[str, Any], float]] = []
    case_weight: dict[str, float] = {}
    weighted, weight_sum, assertions = 0.0, 0.0, 0
    for row in rows:
        scores = c.section(row, "namedScores")
        if runs.is_error(row) or name not in scores:
            continue
        score = c.number(scores[name], shown, f"row {sample_label(row)} {where}")
        if score is None:
            continue
        contributing = graded_by.contributing(row, name)
        # A row's named score is already the weighted mean of its assertions for the metric.
        row_weight = c.number(
            c.section(c.section(row, "gradingResult"), "namedScoreWeights").get(name), shown, where
        )
        row_weight = float(contributing) if row_weight is None else row_weight
        graded.append((row, score))
        case_weight.setdefault(cases.of[id(row)], row_weight)
        weighted, weight_sum = weighted + score * row_weight, weight_sum + row_weight
        assertions += contributing
    scored = score_cases(graded, cases)
    means = scored.means
    recomputed = _ratio(weighted, weight_sum)
    if scored.balanced:
        value = reported if reported is not None else recomputed
    else:
        # Cases repeated unequally: each case counts once, weighted as its assertions are.
        value = _ratio(
            sum(m * case_weight[k] for k, m in zip(scored.per_case, means, strict=True)),
            sum(case_weight[k] for k in scored.per_case),
        )
    return Measurement(
        id=metric_id,
        run=run,
        value=value,
        n=len(means),
        interval=c.interval(value, means, None),
        samples=scored.samples,
        missing=len(
            {cases.of[id(row)] for row in rows if runs.is_error(row)} - set(scored.per_case)
        ),
        findings=c.mismatch(reported, recomputed, f"the mean over its {len(graded)} graded rows")
        + c.count_mismatch(count, assertions, "scored assertions"),
        reduction=scored.reduction,
    )


def _ratio(total: float | None, count: float | None) -> float | None:
    return None if total is None or not count else total / count


# The first line of `-o results.jsonl` is one result row; two of these keys mark it as promptfoo's.
_ROW_KEYS = (b'"gradingResult"', b'"namedScores"', b'"promptIdx"', b'"testIdx"', b'"testCase"')
_XML_ROOT = re.compile(rb"(<\?xml[^>]*\?>\s*)?<promptfoo>")
_YAML_KEYS = (re.compile(rb"^evalId:", re.MULTILINE), re.compile(rb"^results:", re.MULTILINE))
# Exports before version 3 may have no evalId (promptfoo 0.24 wrote {results, config,
# shareableUrl}; later ones none in YAML): a summary `results` first, opening with its own keys.
_OLDER_KEYS = rb"(version|timestamp|results|stats|table)"
_OLDER_JSON = re.compile(rb'\{\s*"results"\s*:\s*\{\s*"' + _OLDER_KEYS + rb'"\s*:')
_OLDER_YAML = re.compile(rb"results:[ \t]*\r?\n[ \t]+" + _OLDER_KEYS + rb":")


def sniff(path: Path, head: bytes) -> bool:
    """A promptfoo export by its form: .jsonl result rows, YAML or JSON with evalId and results,
    or its XML."""
    body = head.lstrip(c.BOM_AND_SPACE)
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        first = body.split(b"\n", 1)[0]
        return first.startswith(b"{") and sum(key in first for key in _ROW_KEYS) >= 2
    if suffix in (".yaml", ".yml"):
        return all(key.search(body) for key in _YAML_KEYS) or bool(_OLDER_YAML.match(body))
    if body.startswith(b"<"):
        return bool(_XML_ROOT.match(body)) and b"<evalId>" in head
    return (b'"evalId"' in head and b'"results"' in head and body.startswith(b"{")) or bool(
        _OLDER_JSON.match(body)
    )


def not_a_run(path: Path, head: bytes) -> str | None:
    """promptfoo's JUnit report: pass or fail per row, and too little else to read a run from."""
    body = head.lstrip(c.BOM_AND_SPACE)
    if body.startswith(b"<") and b"<testsuites" in head and b'name="promptfoo"' in head:
        return (
            "promptfoo's JUnit report: pass or fail per row, with no prompt label, no scores "
            "and nothing that tells a test's repeats apart; read the run from promptfoo's "
            "-o results.json (or .yaml, .jsonl, .xml)"
        )
    return None


DOCS = FormatDocs(
    label="promptfoo",
    reads="promptfoo exports (`-o results.json`, `.jsonl`, `.xml`, and `.yaml` with the `yaml` "
    "extra)",
    versions="export version 3 (promptfoo 0.92 and later; the fixtures: 0.121.20 and 0.123.1); "
    "versions 1 and 2 are refused, naming the version",
    model="in the metric id (the provider column)",
    graders="each model-graded assertion's `provider`, else the test's or `defaultTest`'s "
    "`options.provider`; else `unknown grader`",
    counting=Counting(
        n="distinct tests per column",
        missing="tests whose every row errored, and tests of `config.tests` never run",
        repeats="rows of one test (same `testCase`) averaged",
        groups="none",
    ),
    runs=Runs(
        run="one `evalId` (its exports are one run; of several files of one `evalId`, the most "
        'complete is read, see "Finding the outputs")',
        complete="it holds a row for every test of its inline `config.tests` in every column, "
        "`runtimeOptions.repeat` times: an eval paused with Ctrl-C writes no `-o` file, and "
        "`promptfoo export eval ID` then holds the rows run so far with nothing else saying so",
        evaluation="none",
        attempts="exports of one column with another `evalId`",
    ),
    identity=Identity(
        name="none",
        version="none",
        sample_key="each row's `testCase`: canonical JSON (sorted keys, compact) of "
        '`{"description", "vars"}`; repeats share it',
        no_fingerprint="a row without `testCase`",
    ),
)


ADAPTER = Adapter(
    name="promptfoo",
    recognises="a promptfoo export: JSON or YAML with evalId and results, its XML, "
    "or .jsonl result rows",
    sniff=sniff,
    read=read,
    not_a_run=not_a_run,
    docs=DOCS,
)
