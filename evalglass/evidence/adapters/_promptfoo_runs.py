"""Whether a promptfoo export holds the whole of its run. An eval paused with Ctrl-C writes no
`-o` file, and `promptfoo export eval ID` then holds the rows run so far with nothing marking the
eval paused: the export's own config says how many rows a complete run has. It counts; what the
rows score is the adapter's.
"""

from __future__ import annotations

from typing import Any

import attrs

from evalglass.evidence.adapters import _common as c
from evalglass.reasons import Reason, ValidityCode

# A var given as a file reference may be a glob that promptfoo expands into several tests.
_FILE_REFERENCE = "file://"


@attrs.frozen
class Plan:
    """What a complete run of the export's config has: each test once per column, repeated."""

    tests: int
    repeat: int | None  # runtimeOptions.repeat; None when the export does not say


def planned(config: dict[str, Any], repeat: int | None) -> Plan | None:
    """The tests a complete run has, from the export's inline `config.tests`; None when the
    config does not show them (tests loaded from a file or a generator, scenarios, or vars
    promptfoo expands into several tests: a list, or a file reference)."""
    tests = config.get("tests")
    if not isinstance(tests, list) or not tests or config.get("scenarios"):
        return None
    default_vars = c.section(c.section(config, "defaultTest"), "vars")
    for test in tests:
        if not isinstance(test, dict):
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
