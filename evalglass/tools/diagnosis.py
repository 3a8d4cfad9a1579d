"""Every problem in the host records (and, given outputs, between them and the run), each an error
or a warning at a file and line. Pure: doctor reads loaded values; it never writes and never grants.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping

import attrs

from evalglass.core.authority import Outcome, resolve
from evalglass.core.conditions import BY_CODE
from evalglass.core.exits import DOCTOR_CLEAN_EXIT, DOCTOR_ERRORS_EXIT
from evalglass.core.judge_checks import evidence_shortfall
from evalglass.core.numbers import fmt, interval_label, plural
from evalglass.core.perfect import (
    PerfectBound,
    least_perfect_n,
    perfect_bound,
    perfect_interval,
)
from evalglass.core.scale import in_scale
from evalglass.core.scorecard import at_level
from evalglass.evidence import stats
from evalglass.evidence.model import Evidence, Measurement
from evalglass.metric_ids import check_name
from evalglass.reasons import AuthorityCode as C
from evalglass.reasons import Reason
from evalglass.records.model import (
    Approval,
    Calibration,
    Decision,
    HostRecords,
    MetricRecord,
    MetricStatus,
    Op,
    Origin,
)
from evalglass.tools import approval_review
from evalglass.tools.check_findings import check_findings
from evalglass.tools.codeowners import Ownership, is_owner
from evalglass.tools.findings import ORDER as _ORDER
from evalglass.tools.findings import Finding, Problem, Severity
from evalglass.tools.findings import at as _at
from evalglass.tools.findings import hint as _hint

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
        *_gates(records, measured, evaluated_on),
        *_thresholds(records, evaluated_on),
        *_approvers(records, ownership),
        *_unused(records),
        *_would_block(records, measured, evaluated_on),
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


def _gates(
    records: HostRecords, measured: Mapping[str, Measurement] | None, evaluated_on: dt.date
) -> Iterator[Finding]:
    """Problems of the metrics configured to gate (status gating)."""
    unpolicied: dict[str, list[str]] = {}
    for metric_id, metric in records.metrics.items():
        if metric.status is not MetricStatus.GATING:
            continue
        measurement = None if measured is None else measured.get(metric_id)
        authority = resolve(metric_id, records, measurement, evaluated_on=evaluated_on)
        if check_name(metric_id) is not None:
            # No output measures a check, and its definition is its bar: blocked is all to say.
            if authority.outcome is Outcome.BLOCKED:
                yield from _blocked(metric_id, metric, authority.reasons, records)
            continue
        if measured is not None and measurement is None:
            effect = (
                "once it can gate, it blocks"
                if authority.outcome is Outcome.INFORMATIONAL
                else "it blocks this run"
            )
            yield _at(
                metric.origin,
                Problem.UNMEASURED_GATE,
                metric_id,
                f"metric '{metric_id}' is configured to gate and no output given measures "
                f"it: {effect} (value_missing)",
            )
        if metric.dataset is not None and metric.dataset not in records.policies:
            unpolicied.setdefault(metric.dataset, []).append(metric_id)
        judge = records.judges.get(metric.judge) if metric.judge is not None else None
        if judge is not None and judge.calibration in (
            Calibration.UNCALIBRATED,
            Calibration.CALIBRATING,
        ):
            yield _at(
                metric.origin,
                Problem.UNCALIBRATED_JUDGE,
                metric_id,
                f"metric '{metric_id}' is configured to gate on judge '{metric.judge}', "
                f"which is {judge.calibration.value}: it stays informational until the "
                "judge is calibrated",
            )
        if authority.outcome is Outcome.BLOCKED:
            reasons = (
                authority.reasons if measurement is not None else _of_records(authority.reasons)
            )
            yield from _blocked(metric_id, metric, reasons, records)
        yield from _assurance(metric_id, metric, records, measurement)
    for dataset_id, users in unpolicied.items():
        dataset = records.datasets.get(dataset_id)
        origin = dataset.origin if dataset is not None else records.metrics[users[0]].origin
        names = ", ".join(f"'{u}'" for u in users)
        who = (
            f"metric {names} uses it: it blocks"
            if len(users) == 1
            else (f"metrics {names} use it: they block")
        )
        yield _at(
            origin,
            Problem.NO_POLICY,
            dataset_id,
            f"dataset '{dataset_id}' has no policy in policies.yaml, and gating {who} "
            "(policy_not_permitted) until data governance sets one",
        )


def _of_records(reasons: tuple[Reason, ...]) -> tuple[Reason, ...]:
    """The reasons that are the records' doing. Without a run, a condition about the run (a
    judged metric "cannot be shown independent") is for the run to show, not a problem in the
    records."""
    return tuple(r for r in reasons if not (r.code in BY_CODE and BY_CODE[r.code].about_run))


def _blocked(
    metric_id: str, metric: MetricRecord, reasons: tuple[Reason, ...], records: HostRecords
) -> Iterator[Finding]:
    """An authorized metric that blocks, for reasons no other finding already names."""
    named = {C.DANGLING_REFERENCE, C.JUDGE_EVIDENCE_INSUFFICIENT}  # the judge's own finding
    if metric.dataset not in records.policies:
        named.add(C.POLICY_NOT_PERMITTED)
    rest = [r for r in reasons if r.code not in named]
    if rest:
        why = "; ".join(f"{r.code.value}: {r.message}" for r in rest)
        yield _at(
            metric.origin,
            Problem.BLOCKED_GATE,
            metric_id,
            f"metric '{metric_id}' is authorized to gate and blocked: {why}",
        )


def _assurance(
    metric_id: str, metric: MetricRecord, records: HostRecords, measurement: Measurement | None
) -> Iterator[Finding]:
    """Gates that cannot tell much: a point rule, too few samples for a perfect score's bound to
    clear, or a measured n at which even a perfect score fails. A perfect score is bounded by the
    gate's own method (the measured interval's, else the records' scale's)."""
    if metric.decision is Decision.POINT:
        yield _at(
            metric.origin,
            Problem.POINT_DECISION,
            metric_id,
            f"metric '{metric_id}' gates with decision: point, a low-assurance rule: it "
            "compares the value itself, so sampling noise alone can pass or fail it",
        )
        return
    threshold = records.thresholds.get(metric_id)
    bar = None if threshold is None else threshold.value
    if threshold is None or bar is None or not 0 <= bar <= 1:
        return  # only a bar inside [0, 1] can be a proportion's
    level = metric.interval_level
    interval = None
    if measurement is not None:
        kept = in_scale(at_level(measurement, level), metric.scale, level)
        interval = kept.interval
        if interval is None:
            return  # no method to bound a perfect score by: validity says the rest
    kind = perfect_bound(interval, metric.scale)
    if kind is None:
        return
    op = threshold.op
    needed = least_perfect_n(kind, op, bar, level)
    # Named as the bound that decides at that n: a small n's proportion is bounded exactly.
    at_needed = None
    if needed is not None and kind is PerfectBound.WILSON:
        at_needed = perfect_interval(kind, op, needed, level)
    label = f"{level * 100:g}% {kind.value}" if at_needed is None else interval_label(at_needed)
    rule = f"even a perfect score's {label} {'lower' if op.higher_is_better else 'upper'} bound"
    what = "a proportion" if kind is PerfectBound.WILSON else "a score"
    if needed is None:
        yield _at(
            metric.origin,
            Problem.MIN_SAMPLES_TOO_LOW,
            metric_id,
            f"metric '{metric_id}': no n is enough: {rule} never clears "
            f"{op.value} {bar:g}, so {what} can only fail this gate",
        )
        return
    if metric.min_samples < needed:
        yield _at(
            metric.origin,
            Problem.MIN_SAMPLES_TOO_LOW,
            metric_id,
            f"metric '{metric_id}': min_samples {metric.min_samples} is below {needed}, "
            f"the smallest n at which {rule} clears {op.value} {bar:g}: {what} "
            "measured on fewer samples can only fail",
        )
    n = None if measurement is None else measurement.n
    if n is not None and metric.min_samples <= n < needed:
        perfect = perfect_interval(kind, op, n, level)
        assert perfect is not None  # n >= needed's floor of 2 for Hoeffding, or Wilson
        end = perfect.low if op.higher_is_better else perfect.high
        yield _at(
            metric.origin,
            Problem.CANNOT_PASS_AT_N,
            metric_id,
            f"metric '{metric_id}' cannot pass at n {n}, the n it is measured with: {rule} "
            f"is {fmt(end, bar)}, not {op.value} {bar:g}; a perfect score passes from n {needed}",
        )


def min_n_to_clear(op: Op, bar: float, level: float = stats.DEFAULT_LEVEL) -> int | None:
    """The smallest n at which a perfect proportion (all ones for `>=`/`>`, all zeros for
    `<=`/`<`) has a Wilson bound that clears `bar`; None when no n does."""
    return least_perfect_n(PerfectBound.WILSON, op, bar, level)


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
    # An expired one is already a reason (approval_expired) wherever it decides anything.
    for metric_id, when, days in approval_review.expiring(records, evaluated_on):
        if days >= 0:
            threshold = records.thresholds[metric_id]
            yield _at(
                threshold.origin,
                Problem.APPROVAL_EXPIRING,
                metric_id,
                f"threshold '{metric_id}' ({approval_review.approval_text(threshold)}): "
                f"{when}: approve it again by then, or it stops gating (approval_expired)",
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


def _would_block(
    records: HostRecords, measured: Mapping[str, Measurement] | None, evaluated_on: dt.date
) -> Iterator[Finding]:
    for metric_id, metric in records.metrics.items():
        if metric.status is MetricStatus.RETIRED:
            continue
        measurement = None if measured is None else measured.get(metric_id)
        notes = resolve(metric_id, records, measurement, evaluated_on=evaluated_on).notes
        if measurement is None:
            notes = _of_records(notes)
        if notes:
            why = "; ".join(f"{n.code.value}: {n.message}" for n in notes)
            yield _at(
                metric.origin,
                Problem.WOULD_BLOCK,
                metric_id,
                f"metric '{metric_id}' is informational and would block once promoted: {why}",
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
