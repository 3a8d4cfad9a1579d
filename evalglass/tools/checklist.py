"""The host edits that would let one metric gate, in the order to make them, and what each asserts.

Pure: derived from the records and the run's identity, applied only to an in-memory copy. It never
writes and never grants: a person makes each edit in a reviewed change, and vouches for it.
"""

from __future__ import annotations

import datetime as dt
import enum
import re
from typing import Any

import attrs

from evalglass.calibration_evidence import CalibrationEvidence, Estimate, InputFile, Items, Scale
from evalglass.core.authority import evidence_shortfall
from evalglass.core.model_names import grader_key, same_grader, same_model
from evalglass.core.numbers import fmt
from evalglass.evidence.model import Measurement, Run
from evalglass.reasons import AuthorityCode as C
from evalglass.reasons import Reason
from evalglass.records.model import (
    Approval,
    Calibration,
    DatasetStatus,
    HostRecords,
    JudgeRecord,
    MetricStatus,
    Op,
    Policy,
    check_name,
)
from evalglass.records.schema import KINDS

# Foundations first, each file to its own owners; the metric's own status is the last switch.
ORDER = ("datasets", "policies", "judges", "baselines", "thresholds", "checks", "metrics")
_PERMITTED = (Policy.PERMITTED, Policy.REDACTED)
_PLAIN_TEXT = re.compile(r"[A-Za-z_][A-Za-z0-9_./-]*")
_YAML_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "y", "n", "null"})


class Action(enum.Enum):
    """Whether an edit changes a field of a record that exists or starts a record."""

    EDIT = "edit"  # a field of a record that exists
    ADD = "add"  # a field of a record that does not exist yet


@attrs.frozen(kw_only=True)
class Edit:
    """One field to write in one records file. When `choose` is set, the person picks the value
    (`value` is only a stand-in, so the edited copy can be resolved). `assumes` are fields the
    in-memory copy also takes for what the edit asserts but YAML does not hold: the content of
    the calibration evidence file the person points to."""

    kind: str
    record: str
    field: str
    value: object
    action: Action
    asserts: str
    choose: str | None = None
    assumes: tuple[tuple[str, object], ...] = ()

    @property
    def file(self) -> str:
        """The records file the edit goes in."""
        return KINDS[self.kind].filename

    @property
    def key(self) -> str:
        """`record.field`, as the checklist names the edit."""
        return f"{self.record}.{self.field}"

    @property
    def text(self) -> str:
        """The value as it would be written in YAML, or what to choose in angle brackets."""
        return f"<{self.choose}>" if self.choose else yaml_text(self.value)


@attrs.frozen
class Checklist:
    """The edits, in order; `outside` is what no records edit clears: the run must show it."""

    edits: tuple[Edit, ...] = ()
    outside: tuple[Reason, ...] = ()


def yaml_text(value: object) -> str:
    """A value as a host would write it: quoted wherever plain YAML would misread it."""
    if isinstance(value, Op):
        return f"'{value.value}'"
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, int | float):
        return fmt(value)
    text = str(value)
    if _PLAIN_TEXT.fullmatch(text) and text.lower() not in _YAML_WORDS:
        return text
    return "'" + text.replace("'", "''") + "'"


def checklist(metric_id: str, records: HostRecords, measurement: Measurement | None) -> Checklist:
    """Every edit that makes `resolve` say can_gate for this metric, for this run's identity."""
    plan = _Plan(records)
    metric = records.metrics.get(metric_id)
    name = check_name(metric_id)
    if name is not None:
        return _check(plan, metric_id, name)
    seen = measurement.run.dataset if measurement is not None else None
    if metric is not None and metric.dataset is not None:
        dataset_id = metric.dataset
    elif seen is not None and seen.name:
        dataset_id = seen.name
    else:
        dataset_id = "<dataset>"
    version = plan.dataset(dataset_id, measurement)
    policy = records.policies.get(dataset_id)
    if policy is None or policy.policy not in _PERMITTED:
        plan.put(
            "policies",
            dataset_id,
            "policy",
            Policy.PERMITTED,
            "data governance allows results on this data to decide a release",
        )
    outside, judge_model = plan.judge(metric_id, measurement)
    threshold = records.thresholds.get(metric_id)
    requires = metric is not None and metric.requires_baseline
    if requires or (threshold is not None and threshold.regression):
        plan.baseline(metric_id, dataset_id, version, judge_model)
    plan.threshold(metric_id)
    if metric is None:
        plan.put(
            "metrics",
            metric_id,
            "dataset",
            dataset_id,
            "this metric is measured on this dataset",
            choose="the dataset id it is measured on" if dataset_id.startswith("<") else None,
        )
    if metric is None or metric.status is not MetricStatus.GATING:
        plan.put(
            "metrics",
            metric_id,
            "status",
            MetricStatus.GATING,
            "the eval leads want this metric to fail builds (the last switch, once the rest holds)",
        )
    # Stable: within one file, edits keep the order they were made in.
    edits = sorted(plan.edits, key=lambda e: ORDER.index(e.kind))
    return Checklist(tuple(edits), outside)


def _check(plan: _Plan, metric_id: str, name: str) -> Checklist:
    """A check's metric: its definition (its bar) and its status; no threshold, no dataset."""
    if name not in plan.records.checks:
        plan.put(
            "checks",
            name,
            "run",
            "<command>",
            "this command exits 0 exactly when what it checks holds (or write shell, "
            "file_exists or regex instead of run)",
            choose="the command it runs",
        )
        plan.put(
            "checks",
            name,
            "timeout",
            600,
            "how many seconds it may run before it is killed",
            choose="seconds",
        )
    metric = plan.records.metrics.get(metric_id)
    if metric is None or metric.status is not MetricStatus.GATING:
        plan.put(
            "metrics",
            metric_id,
            "status",
            MetricStatus.GATING,
            "the eval leads want this check to fail builds (the last switch, once it is defined)",
        )
    return Checklist(tuple(sorted(plan.edits, key=lambda e: ORDER.index(e.kind))))


@attrs.define
class _Plan:
    """Collects the edits for one metric while the derivation walks the records."""

    records: HostRecords
    edits: list[Edit] = attrs.Factory(list)

    def put(
        self,
        kind: str,
        record: str,
        field: str,
        value: object,
        asserts: str,
        choose: str | None = None,
        assumes: tuple[tuple[str, object], ...] = (),
    ) -> None:
        exists = record in getattr(self.records, kind)
        action = Action.EDIT if exists else Action.ADD
        self.edits.append(
            Edit(
                kind=kind,
                record=record,
                field=field,
                value=value,
                action=action,
                asserts=asserts,
                choose=choose,
                assumes=assumes,
            )
        )

    def dataset(self, dataset_id: str, measurement: Measurement | None) -> str:
        """The dataset edits; returns the version the dataset record will validate."""
        dataset = self.records.datasets.get(dataset_id)
        seen = measurement.run.dataset if measurement is not None else None
        # Authority compares a version only when the output names this dataset, or names none.
        seen_version = None
        if seen is not None and seen.name in (None, dataset_id):
            seen_version = seen.version
        checked = "you have checked this data (labels, coverage, leakage) and it is fit to gate on"
        if dataset is None:
            self.put("datasets", dataset_id, "status", DatasetStatus.VALIDATED, checked)
            if seen_version is not None:
                self.put(
                    "datasets",
                    dataset_id,
                    "version",
                    seen_version,
                    "the version you checked is the one this run was measured on",
                )
                return seen_version
            self.put(
                "datasets",
                dataset_id,
                "version",
                "<version>",
                "this is the version you checked",
                choose="the version you checked",
            )
            return "<version>"
        if dataset.status is not DatasetStatus.VALIDATED:
            again = " (again: it was retired)" if dataset.status is DatasetStatus.RETIRED else ""
            self.put("datasets", dataset_id, "status", DatasetStatus.VALIDATED, checked + again)
        version = dataset.version
        if seen_version is not None and seen_version != dataset.version:
            self.put(
                "datasets",
                dataset_id,
                "version",
                seen_version,
                f"you have checked version {yaml_text(seen_version)}, the one this run was "
                "measured on",
            )
            version = seen_version
        if (
            seen is not None
            and seen.fingerprint is not None
            and dataset.fingerprint is not None
            and seen.fingerprint != dataset.fingerprint
        ):
            self.put(
                "datasets",
                dataset_id,
                "fingerprint",
                seen.fingerprint,
                "the data you checked has this content hash, the one this run used",
            )
        return version

    def judge(
        self, metric_id: str, measurement: Measurement | None
    ) -> tuple[tuple[Reason, ...], str | None]:
        """The judge edits; returns what only the run can show, and the judge model after them."""
        metric = self.records.metrics.get(metric_id)
        run = measurement.run if measurement is not None else None
        graders = _distinct(run.graders) if run is not None else []
        judge_id = metric.judge if metric is not None else None
        if judge_id is None and not graders:
            return (), None
        outside = []
        if len(graders) > 1:
            named = "the one metrics.yaml names" if judge_id else "then name it in metrics.yaml"
            outside.append(
                Reason(
                    C.JUDGE_MODEL_MISMATCH,
                    (
                        f"the run was graded by several models ({', '.join(graders)}): re-run the grading "
                        f"with one judge, {named}"
                    ),
                )
            )
        grader = graders[0] if len(graders) == 1 else None
        if judge_id is None and grader is None:
            # Which of the graders is to be the judge is for the re-run to settle.
            independent = _independence(None, None, run)
            return ((independent,) if independent else ()) + tuple(outside), None
        if judge_id is None:
            assert grader is not None
            judge_id = self._judge_id(grader)
            self.put(
                "metrics",
                metric_id,
                "judge",
                judge_id,
                f"this metric is model-graded, by judge '{judge_id}' (an id you may rename)",
            )
        judge = self.records.judges.get(judge_id)
        if judge is None:
            model = grader or "<judge model>"
            self.put(
                "judges",
                judge_id,
                "model",
                model,
                "this is the grading model, and it is not the model under evaluation",
                choose=None if grader else "the grading model",
            )
        elif grader is not None and not same_grader(grader, judge.model):
            model = grader
            self.put(
                "judges",
                judge_id,
                "model",
                grader,
                f"judge '{judge_id}' grades with {yaml_text(grader)}, the model that graded "
                "this run, and its calibration was measured with that model (if not, re-run "
                f"the grading with {yaml_text(judge.model)} instead)",
            )
        else:
            model = judge.model
        if judge is None or judge.calibration is not Calibration.CALIBRATED:
            self.put(
                "judges",
                judge_id,
                "calibration",
                Calibration.CALIBRATED,
                "you have checked this judge's grades against human labels, and they agree "
                "well enough to fail builds on",
            )
        if judge is not None:
            # Held to the model it will grade with once the edits above are made.
            self.evidence(
                judge_id, attrs.evolve(judge, calibration=Calibration.CALIBRATED, model=model)
            )
        independent = _independence(judge_id, model, run)
        # In the resolver's order: independence first.
        return ((independent,) if independent else ()) + tuple(outside), model

    def _judge_id(self, grader: str) -> str:
        """The recorded judge that grades with `grader`, else a new id named after it."""
        for judge_id, judge in self.records.judges.items():
            if same_grader(judge.model, grader):
                return judge_id
        base = grader_key(grader) or "judge"
        candidates = [base, *(f"{base}-{n}" for n in range(2, len(self.records.judges) + 3))]
        return next(c for c in candidates if c not in self.records.judges)

    def evidence(self, judge_id: str, judge: JudgeRecord) -> None:
        """Re-calibrate, or point `evidence` at the right file, when the evidence the judge's
        record names does not hold it up."""
        if not evidence_shortfall(judge_id, judge):
            return
        bar = judge.min_agreement
        shows = (
            f"its {bar.statistic.value} lower bound is at least {fmt(bar.lower_bound)}"
            if bar is not None
            else "it is for this judge and model"
        )
        self.put(
            "judges",
            judge_id,
            "evidence",
            judge.evidence or f"calibration/{judge_id}.json",
            f"you ran `evalglass calibrate --judge {judge_id}` on human labels for "
            f"'{judge.model}', committed the evidence file it wrote beside the records, and "
            f"{shows}",
            choose="the calibration evidence file, relative to the records folder",
            assumes=(("evidence_read", _assumed_evidence(judge_id, judge)),),
        )

    def baseline(
        self, metric_id: str, dataset_id: str, version: str, judge_model: str | None
    ) -> None:
        baseline = self.records.baselines.get(metric_id)
        dataset = self.records.datasets.get(dataset_id)
        fingerprint = dataset.fingerprint if dataset is not None else None
        on_version = f"the baseline was measured on dataset version {yaml_text(version)}"
        if baseline is None:
            self.put(
                "baselines",
                metric_id,
                "value",
                0.0,
                "the approved earlier measurement this metric is compared with",
                choose="the baseline's value",
            )
            self.put(
                "baselines",
                metric_id,
                "n",
                1,
                "the baseline's sample count",
                choose="the baseline's sample count",
            )
            self.put(
                "baselines",
                metric_id,
                "dataset_version",
                version,
                on_version,
                choose="the version in datasets.yaml" if version.startswith("<") else None,
            )
        elif baseline.dataset_version != version:
            self.put(
                "baselines",
                metric_id,
                "dataset_version",
                version,
                on_version + " (re-measure it if it was not)",
            )
        if (
            baseline is not None
            and baseline.fingerprint is not None
            and fingerprint is not None
            and baseline.fingerprint != fingerprint
        ):
            self.put(
                "baselines",
                metric_id,
                "fingerprint",
                fingerprint,
                "the baseline was measured on the data with this content hash (re-measure "
                "it if not)",
            )
        if judge_model is not None and (baseline is None or baseline.judge != judge_model):
            self.put(
                "baselines",
                metric_id,
                "judge",
                judge_model,
                f"the baseline was graded by judge model {yaml_text(judge_model)} (re-grade "
                "it if not)",
                choose="the grading model" if judge_model.startswith("<") else None,
            )

    def threshold(self, metric_id: str) -> None:
        threshold = self.records.thresholds.get(metric_id)
        if threshold is None:
            self.put(
                "thresholds",
                metric_id,
                "op",
                Op.GE,
                "which direction is better: '>=' or '>' when higher is, '<=' or '<' when lower is",
                choose="the direction, quoted: '>=' or '<='",
            )
            self.put(
                "thresholds",
                metric_id,
                "value",
                0.0,
                "the bar the metric must clear",
                choose="the bar",
            )
        if threshold is None or threshold.approval is not Approval.APPROVED:
            self.put(
                "thresholds",
                metric_id,
                "approval",
                Approval.APPROVED,
                "the threshold's owner agrees this bar may fail builds",
            )
        if threshold is None or threshold.approved_by is None:
            self.put(
                "thresholds",
                metric_id,
                "approved_by",
                "<approver>",
                "who approved the bar (an approval names a person)",
                choose="who approved it",
            )
        if threshold is None or threshold.approved_on is None:
            self.put(
                "thresholds",
                metric_id,
                "approved_on",
                dt.date(1970, 1, 1),
                "when it was approved",
                choose="the date of approval, YYYY-MM-DD",
            )


def _assumed_evidence(judge_id: str, judge: JudgeRecord) -> CalibrationEvidence:
    """Evidence that just meets the judge's bar: what the edit asserts the new file shows, for
    the in-memory copy only. It is never written and never read from anywhere."""
    bar = judge.min_agreement
    statistics = (
        {}
        if bar is None
        else {bar.statistic.value: Estimate(bar.lower_bound, bar.lower_bound, bar.lower_bound, 0)}
    )
    nothing = InputFile(path="<assumed>", sha256="<assumed>")
    return CalibrationEvidence(
        judge=judge_id,
        judge_model=judge.model,
        scale=Scale.BINARY,
        categories=(),
        raters=(),
        statistics=statistics,
        confusion=None,
        items=Items(
            matched=0, judged_only=0, labelled_only=0, judge_blank=0, human_blank=0, no_consensus=0
        ),
        level=0.95,
        resamples=0,
        seed=0,
        judgments=nothing,
        labels=nothing,
        evalglass_version="<assumed>",
        date="<assumed>",
    )


def _distinct(graders: tuple[str, ...]) -> list[str]:
    """One name per grader, where spellings of the same grader count once."""
    kept: list[str] = []
    for grader in graders:
        if not any(same_grader(grader, k) for k in kept):
            kept.append(grader)
    return kept


def _independence(judge_id: str | None, model: str | None, run: Run | None) -> Reason | None:
    """What no records edit clears: a run naming no model, or graded by the model it grades."""
    models = run.models if run is not None else ()
    if not models:
        who = f"judge '{judge_id}'" if judge_id else "its grader"
        return Reason(
            C.JUDGE_NOT_INDEPENDENT,
            (
                f"an eval output must name the model under evaluation, so {who} can be shown not "
                "to be it"
            ),
        )
    for evaluated in models:
        if model is not None and same_model(model, evaluated):
            return Reason(
                C.JUDGE_NOT_INDEPENDENT,
                (
                    f"judge '{judge_id}' grades with '{model}', the model under evaluation "
                    f"'{evaluated}': grade with an independent model (a calibrated judge of another "
                    "model, named in metrics.yaml)"
                ),
            )
    for grader in run.graders if run is not None else ():
        for evaluated in models:
            if same_model(grader, evaluated):
                return Reason(
                    C.JUDGE_NOT_INDEPENDENT,
                    (
                        f"the run was graded by '{grader}', the model under evaluation "
                        f"'{evaluated}': re-run the grading with an independent judge"
                    ),
                )
    return None


def apply(records: HostRecords, edits: tuple[Edit, ...]) -> HostRecords:
    """A copy of `records` with the edits made: in memory only, for a hypothetical resolve."""
    grouped: dict[tuple[str, str], dict[str, object]] = {}
    for edit in edits:
        fields = grouped.setdefault((edit.kind, edit.record), {})
        fields[edit.field] = edit.value
        fields.update(edit.assumes)
    # Only the kinds edited are copied: the others (and the success policy) carry over as they are.
    kinds: dict[str, Any] = {kind: dict(getattr(records, kind)) for kind, _ in grouped}
    for (kind, record_id), fields in grouped.items():
        existing = kinds[kind].get(record_id)
        if existing is None:
            kinds[kind][record_id] = KINDS[kind].record(**fields)  # type: ignore[arg-type]
        else:
            kinds[kind][record_id] = attrs.evolve(existing, **fields)
    return attrs.evolve(records, **kinds)
