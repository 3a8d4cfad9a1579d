"""Every problem in the host records (and, given outputs, between them and the run), each an error
or a warning at a file and line. Pure: doctor reads loaded values; it never writes and never grants.
The findings about the metrics configured to gate are `gate_findings.py`'s, about checks
`check_findings.py`'s.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping

import attrs

from evalglass.core.authority import Outcome, resolve
from evalglass.core.exits import DOCTOR_CLEAN_EXIT, DOCTOR_ERRORS_EXIT
from evalglass.core.judge_checks import evidence_shortfall
from evalglass.evidence.model import Evidence, Measurement
from evalglass.metric_ids import check_name
from evalglass.numbers import plural
from evalglass.records.model import (
    Approval,
    Calibration,
    HostRecords,
    MetricStatus,
    Origin,
)
from evalglass.records.schema import KINDS
from evalglass.tools import approval_review
from evalglass.tools.check_findings import check_findings
from evalglass.tools.codeowners import Ownership, is_owner
from evalglass.tools.expiry import expiring
from evalglass.tools.findings import ORDER as _ORDER
from evalglass.tools.findings import Finding, Problem, Severity
from evalglass.tools.findings import at as _at
from evalglass.tools.findings import hint as _hint
from evalglass.tools.gate_findings import gate_findings, min_n_to_clear, would_block

__all__ = ["Diagnosis", "Finding", "Problem", "Severity", "diagnose", "min_n_to_clear"]


@attrs.frozen(kw_only=True)
class Diagnosis:
    """What doctor found: every finding, and the counts its summary line and exit code are made
    from."""

    findings: tuple[Finding, ...]
    gating: int  # metrics whose status is gating
    unmeasured: int | None  # of those, measured by no output given; None when none was given

    @property
    def errors(self) -> int:
        """Findings that block or mislead a gate as the records stand; any one makes doctor exit
        1."""
        return sum(f.severity is Severity.ERROR for f in self.findings)

    @property
    def warnings(self) -> int:
        """Findings worth a look that leave doctor's exit code at 0."""
        return len(self.findings) - self.errors

    @property
    def exit_code(self) -> int:
        """1 when there is any error, else 0: warnings alone never fail doctor."""
        return DOCTOR_ERRORS_EXIT if self.errors else DOCTOR_CLEAN_EXIT

    @property
    def summary(self) -> str:
        """`3 metrics configured to gate; 1 measured by nothing given; 1 error, 2 warnings`."""
        given = (
            " (no outputs given)"
            if self.unmeasured is None
            else (f"; {self.unmeasured} measured by nothing given")
        )
        counts = f"{plural(self.errors, 'error')}, {plural(self.warnings, 'warning')}"
        return f"{plural(self.gating, 'metric')} configured to gate{given}; {counts}"


def diagnose(
    records: HostRecords,
    evidence: Evidence | None,
    evaluated_on: dt.date,
    ownership: Ownership | None = None,
    unfound: Mapping[str, str] | None = None,
) -> Diagnosis:
    """Every problem as of the evaluation date, sorted by file and line; `evidence` is None when
    no outputs were given, `ownership` when no CODEOWNERS file was found. `unfound` names, by
    check, the executable a run check names that was not found (the caller looked: doctor itself
    touches nothing)."""
    measured = evidence.measurements if evidence is not None else None
    findings = [
        *_references(records),
        *_judge_evidence(records),
        *gate_findings(records, measured, evaluated_on),
        *_thresholds(records, evaluated_on),
        *_approvers(records, ownership),
        *_unused(records),
        *would_block(records, measured, evaluated_on),
        *_unrecorded(records, measured),
        *_success(records, evaluated_on),
        *check_findings(records, measured, unfound or {}),
    ]
    findings.sort(key=lambda f: (f.path, f.line or 0, _ORDER.index(f.problem), f.subject))
    gating = [i for i, m in records.metrics.items() if m.status is MetricStatus.GATING]
    # No output measures a check: `evalglass run` does.
    unmeasured = (
        None
        if measured is None
        else sum(i not in measured and check_name(i) is None for i in gating)
    )
    return Diagnosis(findings=tuple(findings), gating=len(gating), unmeasured=unmeasured)


def _references(records: HostRecords) -> Iterator[Finding]:
    for metric_id, metric in records.metrics.items():
        name = check_name(metric_id)
        if name is not None:
            if metric.status is MetricStatus.GATING and name not in records.checks:
                yield _at(
                    metric.origin,
                    Problem.DANGLING_REFERENCE,
                    metric_id,
                    f"metric '{metric_id}' is configured to gate, and checks.yaml has no "
                    f"check '{name}'{_hint(name, records.checks)}: it blocks every run",
                )
            continue
        if metric.dataset is not None and metric.dataset not in records.datasets:
            yield _at(
                metric.origin,
                Problem.DANGLING_REFERENCE,
                metric_id,
                f"metric '{metric_id}' names dataset '{metric.dataset}', which has no record "
                f"in datasets.yaml{_hint(metric.dataset, records.datasets)}",
            )
        if metric.judge is not None and metric.judge not in records.judges:
            yield _at(
                metric.origin,
                Problem.DANGLING_REFERENCE,
                metric_id,
                f"metric '{metric_id}' names judge '{metric.judge}', which has no record in "
                f"judges.yaml{_hint(metric.judge, records.judges)}",
            )


def _judge_evidence(records: HostRecords) -> Iterator[Finding]:
    """A judge some metric uses whose calibration evidence does not hold it up: said once, at
    the judge's line, for every metric that uses it."""
    users: dict[str, list[str]] = {}
    for metric_id, metric in records.metrics.items():
        if metric.judge is not None and metric.status is not MetricStatus.RETIRED:
            users.setdefault(metric.judge, []).append(metric_id)
    for judge_id, judge in records.judges.items():
        shortfall = evidence_shortfall(judge_id, judge) if judge_id in users else ""
        if not shortfall:
            continue
        names = ", ".join(f"'{u}'" for u in users[judge_id])
        pending = judge.calibration in (Calibration.UNCALIBRATED, Calibration.CALIBRATING)
        effect = "would block once calibrated" if pending else "blocks"
        yield _at(
            judge.origin,
            Problem.JUDGE_EVIDENCE_INSUFFICIENT,
            judge_id,
            f"{shortfall}: {plural(len(users[judge_id]), 'metric')} using it ({names}) "
            f"{effect} (judge_evidence_insufficient) until the judge is re-calibrated or "
            "`evidence` points at the right file",
        )


def _thresholds(records: HostRecords, evaluated_on: dt.date) -> Iterator[Finding]:
    for metric_id, threshold in records.thresholds.items():
        approved_on = threshold.approved_on
        if threshold.approval is Approval.APPROVED and approved_on and approved_on > evaluated_on:
            yield _at(
                threshold.origin,
                Problem.FUTURE_APPROVAL,
                metric_id,
                f"threshold '{metric_id}' is approved on {approved_on.isoformat()}, after "
                f"the evaluation date ({evaluated_on.isoformat()}): an approval cannot "
                "come from the future",
            )
    yield from _expiring(records, evaluated_on)


def _expiring(records: HostRecords, evaluated_on: dt.date) -> Iterator[Finding]:
    """Every record whose last day (its approval's, or its own) is within the notice: an expired
    one is already a reason (its field's code) wherever it decides anything."""
    for due in expiring(records, evaluated_on):
        if due.days < 0:
            continue
        spec = KINDS[due.kind]
        record = getattr(records, due.kind)[due.record_id]
        if due.approval:
            yield _at(
                record.origin,
                Problem.APPROVAL_EXPIRING,
                due.record_id,
                f"{spec.noun} '{due.record_id}' ({approval_review.approval_text(record)}): "
                f"{due.when}: approve it again by then, or it stops gating ({due.code.value})",
            )
        else:
            yield _at(
                record.origin,
                Problem.RECORD_EXPIRING,
                due.record_id,
                f"{spec.noun} '{due.record_id}': {due.when}: review it and set a later "
                f"{due.field} by then, or what it decides stops gating ({due.code.value})",
            )


def _approvers(records: HostRecords, ownership: Ownership | None) -> Iterator[Finding]:
    """Approvals given by someone CODEOWNERS does not name as an owner of thresholds.yaml."""
    if ownership is None:
        return
    rule = ownership.rule
    for metric_id, threshold in records.thresholds.items():
        who = threshold.approved_by
        if threshold.approval is not Approval.APPROVED or who is None:
            continue
        if rule is None:
            said = f"no line of {ownership.codeowners} matches {ownership.path}"
        elif is_owner(who, rule.owners):
            continue
        else:
            owners = ", ".join(rule.owners) or "no one: the line leaves it unowned"
            teams = (
                f" (a team's members cannot be checked here: confirm {who} is one)"
                if any("/" in o for o in rule.owners)
                else ""
            )
            said = f"{ownership.codeowners}:{rule.line} ('{rule.text}') names {owners}{teams}"
        yield _at(
            threshold.origin,
            Problem.APPROVER_NOT_OWNER,
            metric_id,
            f"threshold '{metric_id}' is approved by '{who}', who is not named as an owner "
            f"of thresholds.yaml in CODEOWNERS: {said}",
        )


def _unused(records: HostRecords) -> Iterator[Finding]:
    """Records no metric reaches: usually a renamed metric or a typo on one side."""
    datasets = {m.dataset for m in records.metrics.values() if m.dataset is not None}
    judges = {m.judge for m in records.metrics.values() if m.judge is not None}
    # A check's definition is its bar: nothing reads a threshold or a baseline for its metric.
    compared = {i for i in records.metrics if check_name(i) is None}
    kinds: list[tuple[str, Mapping[str, object], set[str], str]] = [
        ("dataset", records.datasets, datasets, "no metric names it"),
        ("judge", records.judges, judges, "no metric names it"),
        ("policy", records.policies, datasets, "no metric names its dataset"),
        ("baseline", records.baselines, compared, "metrics.yaml has no such metric"),
        ("threshold", records.thresholds, compared, "metrics.yaml has no such metric"),
    ]
    for noun, found, used, why in kinds:
        for record_id, record in found.items():
            if record_id not in used:
                origin: Origin = record.origin  # type: ignore[attr-defined]
                by_metric = noun in ("baseline", "threshold")
                said = why + (_hint(record_id, records.metrics) if by_metric else "")
                if by_metric and check_name(record_id) is not None:
                    said = "a check's definition in checks.yaml is its bar"
                yield _at(
                    origin,
                    Problem.UNUSED_RECORD,
                    record_id,
                    f"{noun} '{record_id}' is used by nothing: {said}",
                )


def _success(records: HostRecords, evaluated_on: dt.date) -> Iterator[Finding]:
    """A success policy no run can meet: a must_pass id that cannot gate (no record, not gating,
    or held back by stage 1), or more gates asked for than metrics are configured to gate."""
    policy = records.success
    if policy is None:
        return
    every_run = "every run blocks until it can gate"
    for metric_id in policy.must_pass:
        metric = records.metrics.get(metric_id)
        if metric is None:
            why = (
                f"which has no record in metrics.yaml{_hint(metric_id, records.metrics)}: "
                "every run blocks"
            )
        elif metric.status is not MetricStatus.GATING:
            why = f"whose status is {metric.status.value}: it never gates, so every run blocks"
        else:
            authority = resolve(metric_id, records, None, evaluated_on=evaluated_on)
            if authority.outcome is not Outcome.INFORMATIONAL:
                continue
            codes = ", ".join(r.code.value for r in authority.reasons)
            why = f"which cannot gate ({codes}): {every_run}"
        yield _at(
            policy.origin,
            Problem.UNMEETABLE_POLICY,
            metric_id,
            f"the success policy must pass '{metric_id}', {why}",
        )
    gating = sum(m.status is MetricStatus.GATING for m in records.metrics.values())
    if policy.min_gates > gating:
        yield _at(
            policy.origin,
            Problem.UNMEETABLE_POLICY,
            "min_gates",
            f"the success policy asks for at least {plural(policy.min_gates, 'gate')}, and "
            f"{plural(gating, 'metric')} {'is' if gating == 1 else 'are'} configured to "
            "gate: no run can pass",
        )


def _unrecorded(
    records: HostRecords, measured: Mapping[str, Measurement] | None
) -> Iterator[Finding]:
    for metric_id, measurement in (measured or {}).items():
        if metric_id not in records.metrics:
            yield Finding(
                problem=Problem.UNRECORDED_METRIC,
                path=measurement.run.source,
                line=None,
                subject=metric_id,
                message=f"metric '{metric_id}' is measured and has no record in "
                "metrics.yaml, so it is informational (`evalglass metrics --skeleton` "
                "drafts one)",
            )
