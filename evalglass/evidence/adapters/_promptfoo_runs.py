"""Whether a promptfoo export holds its run whole and once. An eval paused with Ctrl-C writes no
`-o` file, and `promptfoo export eval ID` then holds the rows run so far with nothing marking the
eval paused: the export's own config says how many rows a complete run has. A resumed or retried
eval writes its columns twice; an export older than version 3 cannot say which test a row is.
It counts and refuses; what the rows score is the adapter's.
"""

from __future__ import annotations

from typing import Any

import attrs

from evalglass.errors import OutputError
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.model import Measurement
from evalglass.reasons import Reason, ValidityCode

# A test naming these runs against only the providers or prompts it names.
_SOME_COLUMNS = frozenset({"providers", "prompts"})
# A var given as a file reference may be a glob that promptfoo expands into several tests.
_FILE_REFERENCE = "file://"


@attrs.frozen
class Plan:
    """What a complete run of the export's config has: each test once per column, repeated."""

    tests: int
    repeat: int | None  # runtimeOptions.repeat; None when the export does not say


def planned(config: dict[str, Any], repeat: int | None) -> Plan | None:
    """The tests a complete run has, from the export's inline `config.tests`; None when the
    config does not show them (tests loaded from a file or a generator, scenarios, vars
    promptfoo expands into several tests: a list, or a file reference), or a test runs in only
    some columns (its own `providers` or `prompts`)."""
    tests = config.get("tests")
    if not isinstance(tests, list) or not tests or config.get("scenarios"):
        return None
    default_vars = c.section(c.section(config, "defaultTest"), "vars")
    for test in tests:
        if not isinstance(test, dict) or test.keys() & _SOME_COLUMNS:
            return None
        test_vars = test.get("vars", {})
        if not isinstance(test_vars, dict):
            return None
        for value in (*test_vars.values(), *default_vars.values()):
            if isinstance(value, list) or (
                isinstance(value, str) and value.startswith(_FILE_REFERENCE)
            ):
                return None
    return Plan(tests=len(tests), repeat=repeat if repeat is not None and repeat > 0 else None)


def shortfall(
    plan: Plan | None, tests_run: list[int], rows_run: list[int]
) -> tuple[tuple[Reason, ...], list[int]]:
    """Why the run is incomplete (nothing when it is whole, or when its plan is unknown), and
    per column the tests it never ran. `tests_run` and `rows_run` are per column: the distinct
    tests with a row, and the rows."""
    if plan is None:
        return (), [0] * len(tests_run)
    unrun = [max(0, plan.tests - ran) for ran in tests_run]
    repeat = plan.repeat or 1
    expected = plan.tests * repeat * len(rows_run)
    held = sum(rows_run)
    if not any(unrun) and (plan.repeat is None or held >= expected):
        return (), unrun
    columns = len(rows_run)
    asked = f"{plan.tests} tests in config.tests x {columns} column{'s' * (columns != 1)}"
    asked += f" x repeat {plan.repeat}" if plan.repeat is not None else ""
    message = (
        f"the export holds {held} of the {expected} result rows a complete run has ({asked}): "
        "the eval was paused or stopped before its end, or run on part of its tests "
        "(--filter-first-n, --filter-pattern), which the export does not record"
    )
    return (Reason(ValidityCode.RUN_INCOMPLETE, message),), unrun


@attrs.frozen
class Stopped:
    """What a run that stopped before its end does to each of its metrics: it cannot gate, and
    the tests it never ran are missing."""

    incomplete: tuple[Reason, ...]
    unrun: int

    def of(self, m: Measurement) -> Measurement:
        if not self.incomplete and not self.unrun:
            return m
        return attrs.evolve(
            m, missing=m.missing + self.unrun, findings=self.incomplete + m.findings
        )


def once_each(
    columns: list[dict[str, Any]], by_column: dict[int, list[dict[str, Any]]], shown: str
) -> list[int]:
    """The index of each column to read: a resumed or retried eval writes every column twice
    (with rows of its own); a column written again with the same counts, each agreeing with its
    rows, is read once. OutputError naming them when a copy's counts disagree with its rows or
    with the other copy's, since which holds the column cannot then be told."""
    first: dict[tuple[object, object], int] = {}
    read: list[int] = []
    for index, column in enumerate(columns):
        key = (column.get("provider"), column.get("label"))
        if key not in first:
            first[key] = index
            read.append(index)
            continue
        copies = (first[key], index)
        for i in copies:
            wrong = _disagreement(columns[i], by_column.get(i, []))
            if wrong is not None:
                raise OutputError(shown, _twice(copies, key, f"results.prompts[{i}].{wrong}"))
        counts = [_counts(columns[i]) for i in copies]
        if counts[0] != counts[1]:
            raise OutputError(
                shown,
                _twice(copies, key, f"their counts differ ({counts[0]} and {counts[1]})"),
            )
    return read


_COUNTS = ("testPassCount", "testFailCount", "testErrorCount")


def _counts(column: dict[str, Any]) -> tuple[object, ...]:
    metrics = c.section(column, "metrics")
    return tuple(metrics.get(k) for k in _COUNTS)


def _disagreement(column: dict[str, Any], rows: list[dict[str, Any]]) -> str | None:
    """The first of a column's counts its rows do not give, with both numbers; None when all
    agree (a count the column does not hold is not compared)."""
    errors = sum(is_error(row) for row in rows)
    passes = sum(row.get("success") is True and not is_error(row) for row in rows)
    counted = dict(zip(_COUNTS, (passes, len(rows) - errors - passes, errors), strict=True))
    metrics = c.section(column, "metrics")
    for key in _COUNTS:
        stated = c.count(metrics.get(key))
        if stated is not None and stated != counted[key]:
            return f"metrics.{key} {stated}, while its rows give {counted[key]}"
    return None


def _twice(copies: tuple[int, int], key: tuple[object, object], why: str) -> str:
    provider, label = key
    return (
        f"results.prompts[{copies[0]}] and results.prompts[{copies[1]}] are both column "
        f"{c.one_line(provider, 60)}/{c.one_line(label, 60)}, written twice as a resumed or "
        f"retried eval (--resume, --retry-errors) writes them, and {why}: which copy holds "
        "the column cannot be told; run the eval afresh (promptfoo eval -o results.json)"
    )


# ResultFailureReason.ERROR: the provider or the eval failed; nothing was graded.
_ERROR = 2


def is_error(row: dict[str, Any]) -> bool:
    """A row promptfoo could not grade: a provider or eval error, never a failure."""
    reason = row.get("failureReason")
    if reason is not None:
        return bool(reason == _ERROR)
    # Without failureReason, an ungraded row with an error is a provider error.
    return bool(row.get("error")) and row.get("gradingResult") is None


def older_export(version: object) -> str:
    """Why an export older than version 3 is not read, and what to run instead."""
    which = "with no version" if version is None else f"version {c.shown_value(version)}"
    return (
        f"a promptfoo export {which} (results.version; promptfoo 0.91 and earlier): its rows "
        "name no test, no column and no row id, so a test run twice cannot be told from two "
        "tests, nor n, the number of distinct tests, counted; evalglass reads version 3: run "
        "the eval again with promptfoo 0.92 or later (promptfoo eval -c CONFIG -o results.json)"
    )
