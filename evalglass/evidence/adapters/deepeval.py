"""DeepEval test-run files (`test_run_<ts>.json`, `.deepeval/.latest_test_run.json`) as
Measurements, one per metric name. The mean is computed from DeepEval's score list and checked
against the test cases; a case run several times (`-r N`) counts once, its repeats averaged;
errored measurements are missing, never passes; no field grants authority."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from evalglass.errors import OutputError
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.format_docs import Counting, FormatDocs, Identity, Runs
from evalglass.evidence.model import DatasetIdentity, Measurement, Reduction, Run, Sample
from evalglass.evidence.registry import Adapter
from evalglass.reasons import Reason

_CASE_LISTS = ("testCases", "conversationalTestCases")
# Where .deepeval/.latest_test_run.json keeps the run (the other copies hold it unwrapped).
_WRAPPED = "testRunData"
# What a test case was asked, as opposed to what the app answered and how it scored: repeats
# of one case (`deepeval test run -r N`) share these and differ in the rest.
_INPUTS = (
    "input", "expectedOutput", "context", "retrievalContext", "expectedTools", "metadata",
    "additionalMetadata", "tags", "scenario", "expectedOutcome", "chatbotRole", "userDescription",
)  # fmt: skip
# pytest-repeat's suffix on a test id: `test_x[case-01-2-3]`, `test_x[2-3]` (repeat 2 of 3).
_REPEAT_SUFFIX = re.compile(r"(?:-|\[)([0-9]{1,9})-([0-9]{1,9})\]$")
_REDUCER = "mean"
_RUN_KEYS = ("testFile", "runDuration", *_CASE_LISTS)


def read(path: Path, shown: str) -> tuple[Measurement, ...]:
    """One measurement per metric of a DeepEval test run, bare or wrapped. OutputError for a file
    that is not a test run; an aggregate that disagrees with the test cases is a finding that
    makes the value unsound, not an error."""
    doc = c.mapping(c.load_json_file(path, shown), shown, "test run")
    if _WRAPPED in doc:
        doc = c.mapping(doc[_WRAPPED], shown, _WRAPPED)
    return tuple(_measurements(doc, path, shown))


@attrs.frozen
class _Case:
    """One test case's outcome for one metric: a score, or an error with none."""

    id: str
    key: str  # the same for every repeat of the case
    score: float | None
    judge: str | None


def _measurements(doc: dict[str, Any], path: Path, shown: str) -> Iterator[Measurement]:
    cases, distinct, contents = _cases(doc, shown)
    reported: dict[str, dict[str, Any]] = {}
    for entry in c.optional_list(doc, "metricsScores", shown, "metricsScores"):
        entry = c.mapping(entry, shown, "metricsScores[]")
        name = c.text(entry.get("metric"))
        if name is None:
            raise OutputError(shown, "metricsScores[]: expected a metric name")
        reported[name] = entry
    hyper = c.section(doc, "hyperparameters")
    run = Run(
        source=shown,
        models=[c.text(hyper.get("model"))],
        dataset=_dataset(doc, hyper, distinct, contents),
        started=_file_time(path),
        sequence=_file_sequence(path),
        # Its copies in .deepeval/ (wrapped or not) and a saved test_run_*.json are one run:
        # the same cases, answered and timed alike.
        identity="deepeval:" + _digest([doc.get(key) for key in _RUN_KEYS]),
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
    by_case: dict[str, list[_Case]] = {}
    for case in cases or []:
        by_case.setdefault(case.key, []).append(case)
    scored = {key: [x.score for x in runs if x.score is not None] for key, runs in by_case.items()}
    per_case = [c.mean(scores) or 0.0 for scores in scored.values() if scores]
    samples = tuple(
        Sample(id=_case_name(runs), score=x.score, epoch=k if len(runs) > 1 else None)
        for runs in by_case.values()
        for k, x in enumerate(runs, start=1)
        if x.score is not None
    )
    from_cases = [s.score for s in samples]
    if entry is not None:
        # The metric's own list, with errored measurements already dropped from it.
        raw = c.sequence(entry.get("scores"), shown, f"metricsScores[{name}].scores")
        listed = [c.number(s, shown, f"metricsScores[{name}].scores[]") for s in raw]
        scores = [s for s in listed if s is not None]
        errors = c.count(entry.get("errors"))
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
    # Every grader any test case names for this metric, not just the first.
    graders = [case.judge for case in cases or []]
    if cases is None:
        return Measurement(
            id=name,
            run=attrs.evolve(run, graders=graders),
            value=value,
            n=len(scores),
            interval=c.interval(value, scores, None),
            missing=errors or 0,
            findings=findings,
        )
    counts = [len(s) for s in scored.values() if s]
    if counts and min(counts) != max(counts):
        # Cases repeated unequally: DeepEval's mean weights a case by its repeats; n counts
        # each case once, and so does the value.
        value = c.mean(per_case)
    return Measurement(
        id=name,
        run=attrs.evolve(run, graders=graders),
        value=value,
        n=len(per_case),
        interval=c.interval(value, per_case, None),
        samples=samples,
        missing=sum(not s for s in scored.values()),
        findings=findings,
        reduction=Reduction(reducer=_REDUCER, least=min(counts), most=max(counts))
        if counts and max(counts) > 1
        else None,
    )


def _cases(doc: dict[str, Any], shown: str) -> tuple[dict[str, list[_Case]], int, set[str]]:
    """Per metric name, every test case that ran it (conversational ones included); how many
    distinct cases the run had, each repeat of a case counted once; and each case's content key
    (what it asked: the fingerprint's keys)."""
    by_metric: dict[str, list[_Case]] = {}
    identities: set[str] = set()
    contents: set[str] = set()
    kept = c.SampleBudget(shown)
    for kind in _CASE_LISTS:
        for position, case in enumerate(c.optional_list(doc, kind, shown, kind)):
            key = f"{kind}[{position}]"
            case = c.mapping(case, shown, key)
            order = c.integer(case.get("order"))
            named = c.text(case.get("name"))
            case_id = named or f"#{position if order is None else order}"
            # A case is its name (less a repeat suffix) and what it asked, never its position.
            identity = _digest([kind, named and _base_name(named), *(case.get(k) for k in _INPUTS)])
            identities.add(identity)
            contents.add(_content(kind, case))
            listed = c.optional_list(case, "metricsData", shown, f"{key}.metricsData")
            kept.add(c.Cost.SCORE, len(listed) or 1)
            for data in listed:
                data = c.mapping(data, shown, f"{key}.metricsData[]")
                name = c.text(data.get("name"))
                if name is None:
                    raise OutputError(shown, f"{key}.metricsData[]: expected a name")
                where = f"{key}.metricsData[{name}].score"
                # On an error DeepEval writes "error" and leaves "score" out: it is missing.
                score = None if data.get("error") else c.number(data.get("score"), shown, where)
                by_metric.setdefault(name, []).append(
                    _Case(case_id, identity, score, c.text(data.get("evaluationModel")))
                )
    return by_metric, len(identities), contents


def _content(kind: str, case: dict[str, Any]) -> str:
    """A test case's fingerprint key: what it asked, as canonical JSON of the fields of _INPUTS
    it has (not null), and the list it is in (a conversational case is another kind)."""
    from evalglass.evidence.fingerprint import canonical

    asked = {key: case[key] for key in _INPUTS if case.get(key) is not None}
    return canonical([kind, asked])


def _case_name(runs: list[_Case]) -> str:
    """The name a case's repeats share: pytest-repeat's suffix dropped only when it differs."""
    names = {run.id for run in runs}
    if len(names) == 1:
        return runs[0].id
    bases = {_base_name(name) for name in names}
    return bases.pop() if len(bases) == 1 else runs[0].id


def _base_name(name: str) -> str:
    """A test case's name without pytest-repeat's `-i-N` suffix: what its repeats share."""
    found = _REPEAT_SUFFIX.search(name)
    if found is None or not 1 <= int(found.group(1)) <= int(found.group(2)):
        return name
    closing = "]" if name[found.start()] == "-" else ""
    return name[: found.start()] + closing


def _digest(value: object) -> str:
    # Hashing is reading's: recognising a file imports neither hashlib nor the fingerprints.
    import hashlib

    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _dataset(
    doc: dict[str, Any], hyper: dict[str, Any], cases: int, contents: set[str]
) -> DatasetIdentity:
    from evalglass.evidence.fingerprint import fingerprint

    return DatasetIdentity(
        # A Confident AI dataset names itself; otherwise only what the user logged, if anything.
        name=c.text(doc.get("datasetAlias"))
        or c.text(doc.get("datasetId"))
        or c.text(hyper.get("dataset")),
        version=c.text(doc.get("datasetVersion")),
        samples=cases or None,
        fingerprint=fingerprint(contents),
    )


# test_run_<YYYYMMDD_HHMMSS>.json, and _2, _3, ... for later runs saved in the same second.
_SAVED = re.compile(r"(\d{4})(\d\d)(\d\d)_(\d\d)(\d\d)(\d\d)(?:_([2-9]|[1-9][0-9]{1,8}))?$")


def _file_time(path: Path) -> str | None:
    # DeepEval records no start time; the file name carries when the run was saved (local time).
    found = _SAVED.search(path.stem)
    if not found:
        return None
    y, mo, d, h, mi, s, _ = found.groups()
    return c.iso_time(f"{y}-{mo}-{d}T{h}:{mi}:{s}")


def _file_sequence(path: Path) -> int:
    """Where DeepEval put the run among those saved in its second: the first has no suffix
    (1), the next `_2`, and so on."""
    found = _SAVED.search(path.stem)
    return int(found.group(7)) if found and found.group(7) else 1


def sniff(path: Path, head: bytes) -> bool:
    """A JSON object with DeepEval's `testCases` and its test file or metrics keys within the
    head."""
    body = head.lstrip(c.BOM_AND_SPACE)
    return (
        body.startswith(b"{")
        and b'"testCases"' in head
        and any(key in head for key in (b'"testFile"', b'"metricsData"', b'"metricsScores"'))
    )


_SQLITE = b"SQLite format 3\x00"


# Where DeepEval keeps the test run while `deepeval test run` is under way, case by case.
_IN_PROGRESS = ".temp_test_run_data.json"


def not_a_run(path: Path, head: bytes) -> str | None:
    """DeepEval's cache, the run link it writes in place of results once logged in, the test
    run it keeps while one is under way, and its SQLite store.

    The store is refused, not read: an SQLite file is a program for the SQLite engine as much
    as data (its schema can hold triggers and views), reading an untrusted one safely needs
    SQLite's defensive mode, which Python 3.11's sqlite3 cannot turn on, and DeepEval writes
    the same run as JSON by default."""
    if head.startswith(_SQLITE) and (path.name == "deepeval.db" or b"test_runs" in head):
        return (
            "DeepEval's SQLite store (DEEPEVAL_LOCAL_STORE=sqlite), which evalglass does not "
            "read: run with DEEPEVAL_LOCAL_STORE=json (the default) and DEEPEVAL_RESULTS_FOLDER "
            "set, and give the test_run_*.json it writes"
        )
    body = head.lstrip(c.BOM_AND_SPACE)
    if not body.startswith(b"{"):
        return None
    if path.name == _IN_PROGRESS:
        return (
            "DeepEval's working copy of a test run under way (.temp_test_run_data.json): "
            "DeepEval computed no result for it; the finished run is .latest_test_run.json "
            "or the test_run_*.json in DEEPEVAL_RESULTS_FOLDER"
        )
    if b'"test_cases_lookup_map"' in head:
        return "DeepEval's metric cache (.deepeval-cache.json): cached scores, not a test run"
    if re.match(rb'\{\s*"testRunLink"\s*:', body) and b'"testCases"' not in head:
        return "DeepEval's link to a test run on Confident AI: the file holds no results"
    return None


DOCS = FormatDocs(
    label="DeepEval",
    reads="DeepEval test runs (and its `.deepeval/` folder)",
    versions="test runs DeepEval 4.3.1 wrote (the fixtures)",
    model="`hyperparameters.model`",
    graders="every `metricsData[].evaluationModel` of the metric (LLM metrics only)",
    counting=Counting(
        n="distinct test cases per metric",
        missing="cases whose every measurement errored",
        repeats="cases with the same name (less pytest-repeat's suffix) and inputs averaged",
        groups="none",
    ),
    runs=Runs(
        run="one test run (its copies in `.deepeval/` are one run)",
        complete="always: DeepEval saves a test run when it ends",
        evaluation="none",
        attempts="test runs of one metric",
    ),
    identity=Identity(
        name="`datasetAlias`, `datasetId`, or the `dataset` hyperparameter",
        version="`datasetVersion`",
        sample_key="each test case's canonical JSON of `[list, {field: value}]` over the fields it "
        "asked (`input`, `expectedOutput`, `context`, `retrievalContext`, `expectedTools`, "
        "`metadata`, `additionalMetadata`, `tags`, `scenario`, `expectedOutcome`, `chatbotRole`, "
        "`userDescription`, those not null), `list` being `testCases` or "
        "`conversationalTestCases`; repeats share it",
        no_fingerprint="no test case",
    ),
)


ADAPTER = Adapter(
    name="deepeval",
    recognises="a DeepEval test run: JSON with testCases and metricsData or metricsScores",
    sniff=sniff,
    read=read,
    not_a_run=not_a_run,
    docs=DOCS,
)
