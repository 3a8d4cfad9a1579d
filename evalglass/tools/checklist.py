"""The host edits that would let one metric gate, in the order to make them, and what each asserts.

Pure: derived from the records and the run's identity, applied only to an in-memory copy. It never
writes and never grants: a person makes each edit in a reviewed change, and vouches for it.
"""

from __future__ import annotations

import datetime as dt
import types
from collections.abc import Mapping

import attrs

from evalglass.calibration_evidence import CalibrationEvidence, Estimate, InputFile, Items, Scale
from evalglass.core.judge_checks import evidence_shortfall
from evalglass.core.model_names import grader_key, same_grader, same_model
from evalglass.core.numbers import fmt
from evalglass.evidence.model import UNKNOWN_GRADER, DatasetIdentity, Measurement, Run
from evalglass.metric_ids import check_name
from evalglass.reasons import AuthorityCode as C
from evalglass.reasons import Reason
from evalglass.records.model import (
    Approval,
    ApprovedFor,
    Calibration,
    DatasetStatus,
    HostRecords,
    JudgeRecord,
    MetricStatus,
    Op,
    Policy,
    ThresholdRecord,
)
from evalglass.tools.edits import ORDER, Action, Checklist, Edit, yaml_text

_PERMITTED = (Policy.PERMITTED, Policy.REDACTED)
# An approval's last day when a re-approval's own is still to be chosen: it holds in memory.
_OPEN_END = dt.date.max


def checklist(
    metric_id: str,
    records: HostRecords,
    measurement: Measurement | None,
    *,
    evaluated_on: dt.date,
) -> Checklist:
    """Every edit that makes `resolve` say can_gate for this metric, for this run's identity, on
    the evaluation date."""
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
    version, fingerprint = plan.dataset(dataset_id, measurement)
    policy = records.policies.get(dataset_id)
    if policy is None or policy.policy not in _PERMITTED:
        plan.put(
            "policies",
            dataset_id,
            "policy",
            Policy.PERMITTED,
            "data governance allows results on this data to decide a release",
        )
    judged, judge_model = plan.judge(metric_id, measurement)
    outside = _dataset_outside(dataset_id, records, measurement) + judged
    threshold = records.thresholds.get(metric_id)
    requires = metric is not None and metric.requires_baseline
    if requires or (threshold is not None and threshold.regression):
        plan.baseline(metric_id, _Binding(version, fingerprint, judge_model))
    plan.threshold(metric_id)
    plan.approval(metric_id, _Binding(version, fingerprint, judge_model), evaluated_on)
    if metric is None:
        plan.put(
            "metrics",
            metric_id,
            "dataset",
            dataset_id,
            "this metric is measured on this dataset",
            choose="the dataset id it is measured on" if dataset_id.startswith("<") else None,
        )
    _promote(plan, metric_id, "this metric", "once the rest holds")
    # Stable: within one file, edits keep the order they were made in.
    edits = sorted(plan.edits, key=lambda e: ORDER.index(e.kind))
    return Checklist(tuple(edits), outside)


def _dataset_outside(
    dataset_id: str, records: HostRecords, measurement: Measurement | None
) -> tuple[Reason, ...]:
    """What no records edit can vouch for about the data: an output naming another dataset
    (only a person who knows both are the same data may add the name to the record's `names`),
    and an output yielding no fingerprint for a record that pins one."""
    seen = measurement.run.dataset if measurement is not None else None
    if measurement is None:
        return ()
    dataset = records.datasets.get(dataset_id)
    names = (dataset_id, *(dataset.names if dataset is not None else ()))
    outside = []
    if seen is not None and seen.name is not None and seen.name not in names:
        outside.append(
            Reason(
                C.DATASET_MISMATCH,
                (
                    f"the run was measured on dataset '{seen.name}': re-run it on "
                    f"'{dataset_id}', or, if they are the same data, add '{seen.name}' to "
                    f"names: of '{dataset_id}' in datasets.yaml"
                ),
            )
        )
    if (
        dataset is not None
        and dataset.fingerprint is not None
        and (seen is None or seen.fingerprint is None)
    ):
        outside.append(
            Reason(
                C.DATASET_UNVERIFIABLE,
                (
                    f"the run yields no dataset fingerprint to check against '{dataset_id}''s: "
                    "re-run it so its output records its samples (docs/formats.md)"
                ),
            )
        )
    return tuple(outside)


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
    _promote(plan, metric_id, "this check", "once it is defined")
    return Checklist(tuple(sorted(plan.edits, key=lambda e: ORDER.index(e.kind))))


def _promote(plan: _Plan, metric_id: str, what: str, when: str) -> None:
    """The last switch, when the metric is not gating yet: its status set to gating."""
    metric = plan.records.metrics.get(metric_id)
    if metric is None or metric.status is not MetricStatus.GATING:
        plan.put(
            "metrics",
            metric_id,
            "status",
            MetricStatus.GATING,
            f"the eval leads want {what} to fail builds (the last switch, {when})",
        )


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

    def dataset(
        self, dataset_id: str, measurement: Measurement | None
    ) -> tuple[str | None, str | None]:
        """The dataset edits; returns the version and fingerprint the dataset record will hold
        (at least one of them)."""
        dataset = self.records.datasets.get(dataset_id)
        seen = measurement.run.dataset if measurement is not None else None
        # Authority compares a version only when the output names this dataset, or names none.
        seen_version = None
        known = (None, dataset_id, *(dataset.names if dataset is not None else ()))
        if seen is not None and seen.name in known:
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
                return seen_version, None
            # The output names no version (Inspect never does): its fingerprint pins the data.
            return self._pin(dataset_id, seen)
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
        fingerprint = dataset.fingerprint
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
            fingerprint = seen.fingerprint
        if version is None and fingerprint is None:
            # A proposed record may pin nothing yet; a validated one pins what was checked.
            return self._pin(dataset_id, seen)
        return version, fingerprint

    def _pin(
        self, dataset_id: str, seen: DatasetIdentity | None
    ) -> tuple[str | None, str | None]:
        """The edit that pins a dataset the output names no version of: its fingerprint where
        the output has one, else a version for the person to write."""
        if seen is not None and seen.fingerprint is not None:
            self.put(
                "datasets",
                dataset_id,
                "fingerprint",
                seen.fingerprint,
                "the data you checked is the data this run measured: these samples, by "
                "the fingerprint `evalglass metrics` prints",
            )
            return None, seen.fingerprint
        self.put(
            "datasets",
            dataset_id,
            "version",
            "<version>",
            "this is the version you checked",
            choose="the version you checked",
        )
        return "<version>", None

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
        if UNKNOWN_GRADER in graders:
            # No record names a grader the run does not name: only a re-run can.
            graders.remove(UNKNOWN_GRADER)
            outside.append(
                Reason(
                    C.JUDGE_NOT_INDEPENDENT,
                    "the run does not name the model that graded it (the tool's default "
                    "grader): name the grader in the eval's config (promptfoo: "
                    "defaultTest.options.provider) and re-run",
                )
            )
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

    def baseline(self, metric_id: str, data: _Binding) -> None:
        """The baseline edits, for the dataset version and fingerprint (and the judge model) the
        records will hold once the other edits are made."""
        version, fingerprint, judge_model = data.version, data.fingerprint, data.judge_model
        baseline = self.records.baselines.get(metric_id)
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
        on_version = f"the baseline was measured on dataset version {yaml_text(version)}"
        if version is not None and baseline is None:
            self.put(
                "baselines",
                metric_id,
                "dataset_version",
                version,
                on_version,
                choose="the version in datasets.yaml" if version.startswith("<") else None,
            )
        elif version is not None and baseline is not None and baseline.dataset_version != version:
            self.put(
                "baselines",
                metric_id,
                "dataset_version",
                version,
                on_version + " (re-measure it if it was not)",
            )
        # Data pinned by fingerprint alone is named by it; otherwise a fingerprint the baseline
        # gives must be the dataset's.
        given = baseline is not None and baseline.fingerprint is not None
        if (
            fingerprint is not None
            and (version is None or given)
            and (baseline is None or baseline.fingerprint != fingerprint)
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

    def approval(self, metric_id: str, binding: _Binding, evaluated_on: dt.date) -> None:
        """The approval edits: approved, by whom and when, for the data and judge the records
        will name, and not expired. An approval that no longer holds is given anew: a new
        approver's word and date, never the old ones moved onto new data."""
        threshold = self.records.thresholds.get(metric_id)
        approved = threshold is not None and threshold.approval is Approval.APPROVED
        bound = threshold is not None and binding.describes(threshold.approved_for)
        expired = threshold is not None and _expired(threshold, evaluated_on)
        if approved and bound and not expired:
            return
        again = approved  # approved once, for other data or until a day now past
        if not approved:
            self.put(
                "thresholds",
                metric_id,
                "approval",
                Approval.APPROVED,
                "the threshold's owner agrees this bar may fail builds",
            )
        if again:
            # The earlier approver vouched for other data, or until a day now past: their name
            # and date must not carry over to what they never saw.
            self.put(
                "thresholds",
                metric_id,
                "approved_by",
                "<approver>",
                "who approved the bar again, for what approved_for names now (an approval "
                "names a person)",
                choose="who approved it",
            )
            self.put(
                "thresholds",
                metric_id,
                "approved_on",
                dt.date(1970, 1, 1),
                "when it was approved again",
                choose="the date of approval, YYYY-MM-DD",
            )
        if threshold is None or (threshold.approved_by is None and not again):
            self.put(
                "thresholds",
                metric_id,
                "approved_by",
                "<approver>",
                "who approved the bar (an approval names a person)",
                choose="who approved it",
            )
        if threshold is None or (threshold.approved_on is None and not again):
            self.put(
                "thresholds",
                metric_id,
                "approved_on",
                dt.date(1970, 1, 1),
                "when it was approved",
                choose="the date of approval, YYYY-MM-DD",
            )
        if not bound:
            self.put(
                "thresholds",
                metric_id,
                "approved_for",
                binding.mapping(),
                f"the approver saw {binding.said()}: the approval holds for these and "
                "blocks once any of them changes (approval_stale)",
            )
        if expired:
            assert threshold is not None and threshold.expires_on is not None
            self.put(
                "thresholds",
                metric_id,
                "expires_on",
                _OPEN_END,
                f"the approval's new last day (the last one was {threshold.expires_on}); "
                "or remove the line for one that does not expire",
                choose="the new last day, YYYY-MM-DD",
            )


@attrs.frozen
class _Binding:
    """What an approval must be for once the other edits are made: the dataset version and
    fingerprint, and the judge model (None: not model-graded)."""

    version: str | None
    fingerprint: str | None
    judge_model: str | None

    def describes(self, approved: ApprovedFor | None) -> bool:
        """Whether `approved` is for this, as the resolver compares (the judge strictly)."""
        if approved is None:
            return False
        if (approved.dataset_version, approved.fingerprint) != (self.version, self.fingerprint):
            return False
        if approved.judge_model is None or self.judge_model is None:
            return approved.judge_model == self.judge_model
        return same_grader(approved.judge_model, self.judge_model)

    def mapping(self) -> Mapping[str, str]:
        parts = {
            "dataset_version": self.version,
            "fingerprint": self.fingerprint,
            "judge_model": self.judge_model,
        }
        return types.MappingProxyType({k: v for k, v in parts.items() if v is not None})

    def said(self) -> str:
        if self.version is None:
            said = f"dataset fingerprint {yaml_text(self.fingerprint)}"
        else:
            said = f"dataset version {yaml_text(self.version)}"
            if self.fingerprint is not None:
                said += f" (fingerprint {yaml_text(self.fingerprint)})"
        if self.judge_model is not None:
            said += f" graded by judge model {yaml_text(self.judge_model)}"
        return said


def _expired(threshold: ThresholdRecord, evaluated_on: dt.date) -> bool:
    return threshold.expires_on is not None and evaluated_on > threshold.expires_on


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
