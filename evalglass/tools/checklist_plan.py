"""The edits of a checklist as it is derived: each field to write (`EditPlan.put`), and the edits
of the dataset, baseline, threshold and approval a metric needs to gate; what an approval must
be for once they are made (`Binding`). Pure: it reads the records, and writes only its list.
"""

from __future__ import annotations

import datetime as dt
import types
from collections.abc import Mapping

import attrs

from evalglass.core.model_names import same_grader
from evalglass.evidence.model import DatasetIdentity, Measurement
from evalglass.records.model import (
    Approval,
    ApprovedFor,
    DatasetStatus,
    HostRecords,
    Op,
    ThresholdRecord,
)
from evalglass.records.schema import KINDS, Role
from evalglass.tools.edits import Action, Edit, yaml_text

# A last day still to be chosen (a re-approval's, a renewed record's): it holds in memory.
OPEN_END = dt.date.max
_THRESHOLDS = KINDS["thresholds"]


@attrs.define
class EditPlan:
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
        """One field to write: an edit of a record that exists, else an addition."""
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

    def _pin(self, dataset_id: str, seen: DatasetIdentity | None) -> tuple[str | None, str | None]:
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

    def baseline(self, metric_id: str, data: Binding) -> None:
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
        """A missing threshold's direction and bar, for the person to choose."""
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

    def approval(self, metric_id: str, binding: Binding, evaluated_on: dt.date) -> None:
        """The approval edits: approved, by whom and when, for the data and judge the records
        will name, and not expired. An approval that no longer holds is given anew: a new
        approver's word and date, never the old ones moved onto new data."""
        threshold = self.records.thresholds.get(metric_id)
        approved = threshold is not None and threshold.approval is Approval.APPROVED
        bound = threshold is not None and binding.describes(threshold.approved_for)
        expired = () if threshold is None else _expired(threshold, evaluated_on)
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
        for name, last in expired:
            self.put(
                "thresholds",
                metric_id,
                name,
                OPEN_END,
                f"the approval's new last day (the last one was {last}); "
                "or remove the line for one that does not expire",
                choose="the new last day, YYYY-MM-DD",
            )


@attrs.frozen
class Binding:
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
        """The approved_for block to write: the parts known."""
        parts = {
            "dataset_version": self.version,
            "fingerprint": self.fingerprint,
            "judge_model": self.judge_model,
        }
        return types.MappingProxyType({k: v for k, v in parts.items() if v is not None})

    def said(self) -> str:
        """What the approver saw, in words."""
        if self.version is None:
            said = f"dataset fingerprint {yaml_text(self.fingerprint)}"
        else:
            said = f"dataset version {yaml_text(self.version)}"
            if self.fingerprint is not None:
                said += f" (fingerprint {yaml_text(self.fingerprint)})"
        if self.judge_model is not None:
            said += f" graded by judge model {yaml_text(self.judge_model)}"
        return said


def _expired(threshold: ThresholdRecord, evaluated_on: dt.date) -> tuple[tuple[str, dt.date], ...]:
    """(field, last day) for each of the approval's dates that expire and have passed."""
    return tuple(
        (field.name, getattr(threshold, field.name))
        for field in _THRESHOLDS.having(Role.EXPIRES)
        if getattr(threshold, field.name) is not None
        and evaluated_on > getattr(threshold, field.name)
    )
