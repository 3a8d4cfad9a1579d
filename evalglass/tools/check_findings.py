"""What doctor says about host checks, and about a run's tasks that nothing gates on. Pure: it reads
loaded records and what the caller found on this machine (executables not on PATH); it runs
nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from evalglass.evidence.model import Measurement
from evalglass.metric_ids import check_metric, check_name
from evalglass.numbers import plural
from evalglass.records.model import HostRecords, MetricStatus
from evalglass.tiers import Tier
from evalglass.tools.findings import Finding, Problem, at


def check_findings(
    records: HostRecords, measured: Mapping[str, Measurement] | None, unfound: Mapping[str, str]
) -> Iterator[Finding]:
    """Checks no metric record names, an empty fast tier, executables not found, checks the
    success policy must pass, and (given outputs) tasks whose metrics have no gating record."""
    yield from _checks(records, unfound)
    yield from _must_pass(records)
    if measured is not None:
        yield from _confirms_on_nothing(records, measured)


def _checks(records: HostRecords, unfound: Mapping[str, str]) -> Iterator[Finding]:
    for name, check in records.checks.items():
        metric_id = check_metric(name)
        if metric_id not in records.metrics:
            yield at(
                check.origin,
                Problem.UNRECORDED_CHECK,
                metric_id,
                f"check '{name}' has no record '{metric_id}' in metrics.yaml: `evalglass run` "
                "runs it, and it is informational for ever",
            )
        executable = unfound.get(name)
        if executable is not None:
            yield at(
                check.origin,
                Problem.EXECUTABLE_NOT_FOUND,
                metric_id,
                f"check '{name}' runs '{executable}', which is not on PATH (nor a file from "
                "its cwd): it cannot run (check_could_not_run), and blocks the run if it "
                "gates",
            )
    if records.checks and not any(c.tier is Tier.FAST for c in records.checks.values()):
        first = next(iter(records.checks.values()))
        yield Finding(
            problem=Problem.EMPTY_TIER,
            path=first.origin.path,
            line=None,
            subject="fast",
            message="no check is in the fast tier: `evalglass run --tier fast` runs "
            "none (give the quick ones tier: fast)",
        )


def _must_pass(records: HostRecords) -> Iterator[Finding]:
    """A check the success policy must pass blocks every run that does not start it: it cannot
    show that it passed. Meant, when the checks are run by `evalglass run`; worth saying."""
    policy = records.success
    if policy is None:
        return
    for metric_id in policy.must_pass:
        check = records.checks.get(check_name(metric_id) or "")
        metric = records.metrics.get(metric_id)
        if check is None or metric is None or metric.status is not MetricStatus.GATING:
            continue  # not a check, or one that cannot gate: unmeetable_policy says so
        fast = "" if check.tier is Tier.FAST else " or `evalglass run --tier fast`"
        yield at(
            policy.origin,
            Problem.MUST_PASS_CHECK,
            metric_id,
            f"the success policy must pass '{metric_id}', which only `evalglass run` runs: "
            f"every `evalglass score`{fast} is blocked, as a check not run cannot show "
            "that it passed",
        )


def unit_of(measurement: Measurement) -> str:
    """What a metric was measured as part of, as its output says: `task 'gsm8k'` when the output
    names the task (Inspect, lm-eval), else `output 'results.json'` (one promptfoo eval, one
    DeepEval test run). Never read from the id: an Inspect task may hold a `/`."""
    task = measurement.run.task
    return f"task '{task}'" if task is not None else f"output '{measurement.run.source}'"


def _confirms_on_nothing(
    records: HostRecords, measured: Mapping[str, Measurement]
) -> Iterator[Finding]:
    """A task whose measured metrics have no gating record: the run confirms nothing about it."""
    units: dict[str, list[str]] = {}
    for metric_id, measurement in measured.items():
        units.setdefault(unit_of(measurement), []).append(metric_id)
    gating = {i for i, m in records.metrics.items() if m.status is MetricStatus.GATING}
    for unit, ids in units.items():
        if gating.isdisjoint(ids):
            listed = ", ".join(sorted(ids))
            first = measured[ids[0]].run
            yield Finding(
                problem=Problem.CONFIRMS_ON_NOTHING,
                path=first.source,
                line=None,
                subject=first.task or first.source,
                message=f"{unit} confirms on nothing: none of its "
                f"{plural(len(ids), 'metric')} measured ({listed}) has a gating "
                "record in metrics.yaml",
            )
