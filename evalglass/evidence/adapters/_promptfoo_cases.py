"""Which promptfoo result rows are one run, one column and one test case, and a metric's
scores case by case.

promptfoo writes each repeat of a test (`--repeat N`) as a row of its own, with no repeat index
and a `testIdx` that counts tests, repeats and variable combinations together: the rows of one
case share its `testCase`. It groups rows; it never decides what a metric's value is.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import attrs

from evalglass.errors import OutputError
from evalglass.evidence.adapters import _common as c
from evalglass.evidence.fingerprint import canonical, fingerprint
from evalglass.evidence.model import DatasetIdentity, Reduction, Sample

REDUCER = "mean"


@attrs.frozen
class Cases:
    """Which test case each row is: repeats of a test share its testCase, never its testIdx
    (a running count over tests, repeats and variable combinations)."""

    of: dict[int, str]  # id(row) -> the case's id within its column
    distinct: int  # cases in the whole run


def cases_of(by_column: dict[int, list[dict[str, Any]]]) -> Cases:
    """Each row's case: its testCase (else its vars and description), numbered within its
    column in the order of the tests (so a run without repeats keeps promptfoo's testIdx)."""
    of: dict[int, str] = {}
    keys: set[str] = set()
    for rows in by_column.values():
        first: dict[str, tuple[int, int]] = {}
        row_keys = []
        for position, row in enumerate(rows):
            key = _case_key(row)
            keys.add(key)
            row_keys.append(key)
            index = c.integer(row.get("testIdx"))
            at = (index if index is not None else position, position)
            first[key] = min(first.get(key, at), at)
        rank = {key: str(n) for n, key in enumerate(sorted(first, key=first.__getitem__))}
        for row, key in zip(rows, row_keys, strict=True):
            of[id(row)] = rank[key]
    return Cases(of, len(keys))


def content_keys(rows: list[dict[str, Any]]) -> set[str] | None:
    """Each test case's fingerprint key: canonical JSON of its testCase's description and vars
    (the data it feeds the prompt; its asserts are the eval's, not the dataset's). None when a
    row has no testCase to take them from."""
    keys = set()
    for row in rows:
        test = row.get("testCase")
        if not isinstance(test, dict):
            return None
        keys.add(canonical({"description": test.get("description"), "vars": test.get("vars")}))
    return keys


def _case_key(row: dict[str, Any]) -> str:
    test = row.get("testCase")
    if not isinstance(test, dict):
        test = {"vars": row.get("vars"), "description": row.get("description")}
        if test["vars"] is None and test["description"] is None:
            test = {"testIdx": row.get("testIdx"), "id": row.get("id")}
    text = json.dumps(test, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@attrs.frozen
class Scored:
    """A column's scores for one metric, row by row and case by case."""

    samples: tuple[Sample, ...]  # one per scored row, epoch = its repeat when repeated
    per_case: dict[str, list[float]]

    @property
    def means(self) -> list[float]:
        return [c.mean(scores) or 0.0 for scores in self.per_case.values()]

    @property
    def balanced(self) -> bool:
        return len({len(scores) for scores in self.per_case.values()}) <= 1

    @property
    def reduction(self) -> Reduction | None:
        counts = [len(scores) for scores in self.per_case.values()]
        if not counts or max(counts) == 1:
            return None
        return Reduction(reducer=REDUCER, least=min(counts), most=max(counts))


def scored(rows: list[tuple[dict[str, Any], float]], cases: Cases) -> Scored:
    per_case: dict[str, list[float]] = {}
    for row, score in sorted(rows, key=lambda pair: _order(pair[0])):
        per_case.setdefault(cases.of[id(row)], []).append(score)
    samples = tuple(
        Sample(id=case, score=score, epoch=k if len(scores) > 1 else None)
        for case, scores in per_case.items()
        for k, score in enumerate(scores, start=1)
    )
    return Scored(samples, per_case)


def _order(row: dict[str, Any]) -> int:
    index = c.integer(row.get("testIdx"))
    return -1 if index is None else index


def run_identity(rows: list[dict[str, Any]]) -> str | None:
    """Row ids are promptfoo's per-result uuids: the same set is the same run, however written."""
    ids = [i for row in rows if isinstance(i := row.get("id"), str) and i]
    if not rows or len(ids) != len(rows):
        return None
    digest = hashlib.sha256("\n".join(sorted(ids)).encode("utf-8", "surrogatepass"))
    return "promptfoo:" + digest.hexdigest()


def columns_of_rows(
    rows: list[dict[str, Any]], shown: str
) -> tuple[list[dict[str, Any]], dict[int, list[dict[str, Any]]]]:
    """The prompt x provider columns rows name, for an export that has no summary of them."""
    columns: list[dict[str, Any]] = []
    by_column: dict[int, list[dict[str, Any]]] = {}
    seen: dict[object, int] = {}
    for row in rows:
        provider = row.get("provider")
        names = c.section(row, "provider")
        index = c.integer(row.get("promptIdx"))
        # As text: a prompt id or provider from the file may be a list or an object.
        key = (
            index
            if index is not None
            else json.dumps([row.get("promptId"), provider], sort_keys=True, default=str)
        )
        if key not in seen:
            label = c.text(c.section(row, "prompt").get("label"))
            name = c.text(provider) or c.text(names.get("label")) or c.text(names.get("id"))
            if label is None or name is None:
                raise OutputError(
                    shown, f"result row {c.shown_value(row.get('id'))}: no prompt label or provider"
                )
            seen[key] = len(columns)
            columns.append({"provider": name, "label": label})
        by_column.setdefault(seen[key], []).append(row)
    return columns, by_column


def column_models(
    rows: list[dict[str, Any]], config: dict[str, Any], column_provider: str
) -> list[str]:
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
    providers = config.get("providers")
    for provider in providers if isinstance(providers, list) else []:
        if isinstance(provider, dict) and column_provider in (
            provider.get("label"),
            provider.get("id"),
        ):
            return [c.text(provider.get("id")) or column_provider]
    return [column_provider]


def case_dataset(config: dict[str, Any], cases: Cases, keys: set[str] | None) -> DatasetIdentity:
    """The tests' file (when the config names one), how many test cases, and their fingerprint."""
    tests = config.get("tests")
    if isinstance(tests, str):
        location: str | None = tests
    elif isinstance(tests, list) and tests and all(isinstance(t, str) for t in tests):
        location = ", ".join(tests)
    else:
        location = None  # inline tests: the config is the dataset
    return DatasetIdentity(
        location=location,
        samples=cases.distinct or None,
        fingerprint=fingerprint(keys) if keys is not None else None,
    )


def sample_label(row: dict[str, Any]) -> str:
    """How a row is named in a message: its `testIdx`, else its `id`, else its id's kind."""
    index = c.integer(row.get("testIdx"))
    if index is not None:
        return str(index)
    given = row.get("id")
    return str(given) if isinstance(given, str | int | float) else c.kind(given)
