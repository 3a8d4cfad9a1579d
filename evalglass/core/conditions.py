"""The authority conditions, each declared once: its reason code, its stage, its place in the
order, the check, and the words people read about it.

`resolve` runs the checks in this order; the glossary `explain` and `doctor` quote, and the
reason table in docs/authority.md, are read from the same rows. Adding a condition is a row here,
the record field it reads, and a state in the exhaustive table (tests/core/test_authority.py), whose
expectation is written from DESIGN.md, not from these rows.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Callable

import attrs

from evalglass.calibration_evidence import CalibrationEvidence
from evalglass.core.agreement import check_agreement
from evalglass.core.dataset_check import names_other
from evalglass.core.model_names import same_grader, same_model
from evalglass.evidence.model import UNKNOWN_GRADER, DatasetIdentity, Measurement
from evalglass.reasons import AuthorityCode as C
from evalglass.records.model import (
    Approval,
    Calibration,
    DatasetRecord,
    DatasetStatus,
    HostRecords,
    JudgeRecord,
    MetricRecord,
    MetricStatus,
    Policy,
    ThresholdRecord,
    UnreadableEvidence,
)


class Stage(enum.Enum):
    """Stage 1 asks whether the records authorize the metric to gate (failing: informational);
    stage 2 whether the evidence is sound enough to let it (failing: blocked)."""

    AUTHORIZED = 1
    SOUND = 2


@attrs.frozen
class Situation:
    """What a condition reads: one metric's records, the run that measured it (None: no output
    measures it) and the evaluation date; the records the metric names, looked up once (`of`)."""

    metric_id: str
    metric: MetricRecord
    records: HostRecords
    measurement: Measurement | None
    evaluated_on: dt.date
    # The dataset and judge records the metric names, if they exist; its threshold, if any.
    dataset: DatasetRecord | None
    judge: JudgeRecord | None
    threshold: ThresholdRecord | None
    # The dataset the output says it was measured on.
    seen: DatasetIdentity | None

    @classmethod
    def of(
        cls,
        metric_id: str,
        metric: MetricRecord,
        records: HostRecords,
        measurement: Measurement | None,
        evaluated_on: dt.date,
    ) -> Situation:
        """The situation of `metric_id`, with the records it names looked up."""
        name = metric.judge
        return cls(
            metric_id,
            metric,
            records,
            measurement,
            evaluated_on,
            records.dataset_of(metric),
            records.judges.get(name) if name is not None else None,
            records.thresholds.get(metric_id),
            measurement.run.dataset if measurement is not None else None,
        )


@attrs.frozen
class Condition:
    """One row of the authority table. `failed` says why the condition does not hold ("" when it
    holds); `holds_when` is the docs' wording of the condition, `plain` the glossary's of what
    failing it means and who can change it. `about_run`: without a run the condition cannot be
    shown to hold, which is the run's to show, not a problem in the records (doctor leaves it to
    the run)."""

    code: C
    stage: Stage
    holds_when: str
    plain: str
    failed: Callable[[Situation], str]
    about_run: bool = False


def _listed(names: tuple[str, ...]) -> str:
    return ", ".join(f"'{n}'" for n in names)


def _named(value: str | None) -> str:
    return "none" if value is None else f"'{value}'"


# Stage 1.


def _not_gating(s: Situation) -> str:
    status = s.metric.status
    return "" if status is MetricStatus.GATING else f"metric status is {status.value}"


def _threshold_missing(s: Situation) -> str:
    return "no threshold in thresholds.yaml" if s.threshold is None else ""


def _threshold_proposed(s: Situation) -> str:
    proposed = s.threshold is not None and s.threshold.approval is not Approval.APPROVED
    return "threshold is proposed, not approved" if proposed else ""


def _dataset_proposed(s: Situation) -> str:
    proposed = s.dataset is not None and s.dataset.status is DatasetStatus.PROPOSED
    return f"dataset '{s.metric.dataset}' is proposed" if proposed else ""


def _judge_uncalibrated(s: Situation) -> str:
    judge = s.judge
    if judge is None or judge.calibration not in (
        Calibration.UNCALIBRATED,
        Calibration.CALIBRATING,
    ):
        return ""
    return f"judge '{s.metric.judge}' is {judge.calibration.value}"


# Stage 2.


def _dangling(s: Situation) -> str:
    # Only a record built in code can name no dataset (the loader refuses it): nothing to find.
    dangling = [f"dataset '{s.metric.dataset or ''}'"] if s.dataset is None else []
    if s.metric.judge is not None and s.judge is None:
        dangling.append(f"judge '{s.metric.judge}'")
    return f"no record for {' or '.join(dangling)}" if dangling else ""


_PERMITTED = frozenset({Policy.PERMITTED, Policy.REDACTED})


def _policy(s: Situation) -> str:
    # Looked up by the id the metric names, record or not: a typo rarely has a policy either.
    policy = s.records.policies.get(s.metric.dataset or "")
    if policy is not None and policy.policy in _PERMITTED:
        return ""
    said = "no data policy" if policy is None else f"data policy is {policy.policy.value}"
    return f"{said} for dataset '{s.metric.dataset}'"


def _dataset_retired(s: Situation) -> str:
    retired = s.dataset is not None and s.dataset.status is DatasetStatus.RETIRED
    return f"dataset '{s.metric.dataset}' is retired" if retired else ""


def _dataset_mismatch(s: Situation) -> str:
    """An output naming a dataset names the record's when it names its id or one of the names
    the record declares; any other name is another dataset, whatever its version. A version is
    compared when the name is the record's (or there is none); a fingerprint whatever the name."""
    dataset, seen, dataset_id = s.dataset, s.seen, s.metric.dataset or ""
    if dataset is None or seen is None:
        return ""
    differs = []
    if names_other(dataset_id, dataset, seen):
        also = f" (nor any of its names: {_listed(dataset.names)})" if dataset.names else ""
        differs.append(
            f"the output names dataset '{seen.name}', not the record's '{dataset_id}'{also}"
        )
    elif seen.version is not None and dataset.version is not None and seen.version != dataset.version:
        differs.append(
            f"measured on dataset version '{seen.version}', record validates '{dataset.version}'"
        )
    printed = seen.fingerprint
    if dataset.fingerprint is not None and printed is not None and printed != dataset.fingerprint:
        differs.append(
            f"measured on dataset fingerprint '{printed}', record has '{dataset.fingerprint}'"
        )
    return "; ".join(differs)


def _dataset_unverifiable(s: Situation) -> str:
    dataset = s.dataset
    if dataset is None or s.measurement is None or dataset.fingerprint is None:
        return ""
    if s.seen is not None and s.seen.fingerprint is not None:
        return ""
    return (
        f"dataset '{s.metric.dataset}' pins fingerprint '{dataset.fingerprint}', and the "
        "output yields none to check it against"
    )


def _judge_drifted(s: Situation) -> str:
    drifted = s.judge is not None and s.judge.calibration is Calibration.DRIFTED
    return f"judge '{s.metric.judge}' has drifted" if drifted else ""


def _judge_retired(s: Situation) -> str:
    retired = s.judge is not None and s.judge.calibration is Calibration.RETIRED
    return f"judge '{s.metric.judge}' is retired" if retired else ""


def _judge_evidence(s: Situation) -> str:
    if s.judge is None or s.metric.judge is None:
        return ""
    return evidence_shortfall(s.metric.judge, s.judge)


def _not_independent(s: Situation) -> str:
    """The judge the records name and every grader the output names are compared with every
    model the output says it evaluated; an output that names no model cannot show
    independence."""
    run = s.measurement.run if s.measurement is not None else None
    models = run.models if run is not None else ()
    graders = run.graders if run is not None else ()
    judge = s.judge
    if judge is None and not graders:
        return ""
    if not models:
        who = "judge" if judge is not None else "grader"
        return f"the eval output names no model, so the {who} cannot be shown independent"
    said = []
    if judge is not None:
        said += [
            f"judge model '{judge.model}' is the model under evaluation '{m}'"
            for m in models
            if same_model(judge.model, m)
        ][:1]
    if UNKNOWN_GRADER in graders:
        # A grader nobody named could be the model under evaluation itself.
        said.append(
            "the output says a model graded it without naming which (the tool's default "
            "grader), so the grading cannot be shown independent"
        )
    said += [
        f"the output says '{g}', the model under evaluation '{m}', graded it"
        for g in graders
        if g != UNKNOWN_GRADER
        for m in models
        if same_model(g, m)
    ][:1]
    return "; ".join(said)


def _judge_model_mismatch(s: Situation) -> str:
    graders = s.measurement.run.graders if s.measurement is not None else ()
    if not graders:
        return ""
    if s.metric.judge is None:
        return (
            f"the output says {_listed(graders)} graded it, and metrics.yaml names no judge: "
            "a model-graded metric must name its judge"
        )
    judge = s.judge
    if judge is None:
        return ""
    # Stricter than independence: another snapshot or size of the judge is another grader.
    others = tuple(g for g in graders if not same_grader(g, judge.model))
    if not others:
        return ""
    return (
        f"the output says {_listed(others)} graded it, not judge '{s.metric.judge}' "
        f"('{judge.model}')"
    )


def _baseline_needed(s: Situation) -> bool:
    # A regression gate compares with the baseline, so it needs one as much as a record that asks.
    return s.metric.requires_baseline or (s.threshold is not None and s.threshold.regression)


def _baseline_missing(s: Situation) -> str:
    if not _baseline_needed(s) or s.metric_id in s.records.baselines:
        return ""
    return "a baseline is required and baselines.yaml has none"


def _baseline_not_comparable(s: Situation) -> str:
    """Each differing dimension is named."""
    baseline = s.records.baselines.get(s.metric_id)
    if not _baseline_needed(s) or baseline is None:
        return ""
    dataset = s.dataset
    differs = []
    if dataset is None:
        differs.append(
            f"dataset version: baseline {_named(baseline.dataset_version)}, no dataset record"
        )
    else:
        if baseline.dataset_version != dataset.version:
            differs.append(
                f"dataset version: baseline {_named(baseline.dataset_version)}, "
                f"dataset {_named(dataset.version)}"
            )
        # Data pinned by fingerprint alone is the same data only by the same fingerprint.
        both = baseline.fingerprint is not None and dataset.fingerprint is not None
        if (both or dataset.version is None) and baseline.fingerprint != dataset.fingerprint:
            differs.append(
                f"dataset fingerprint: baseline {_named(baseline.fingerprint)}, "
                f"dataset {_named(dataset.fingerprint)}"
            )
    if s.metric.judge is not None:
        judge = s.judge
        # Exact, unlike independence: a loose match here would let a different grader through.
        if judge is None or baseline.judge != judge.model:
            have = "no judge record" if judge is None else f"judge '{judge.model}'"
            differs.append(f"judge model: baseline '{baseline.judge or 'not named'}', {have}")
    return "; ".join(differs)


def _approval_stale(s: Situation) -> str:
    """A proposed threshold is held to what it says it is for, so that its notes show what
    approving it as written would raise."""
    threshold = s.threshold
    if threshold is None:
        return ""
    stale = approval_differences(threshold, s.metric, s.records)
    approved = threshold.approval is Approval.APPROVED
    if not stale or not (approved or threshold.approved_for is not None):
        return ""
    return f"{_approval_said(threshold)}: {stale}"


def _approval_expired(s: Situation) -> str:
    threshold = s.threshold
    if threshold is None or threshold.expires_on is None:
        return ""
    if s.evaluated_on <= threshold.expires_on:
        return ""
    return (
        f"{_approval_said(threshold)} held until {threshold.expires_on.isoformat()} "
        f"(expires_on); the evaluation date is {s.evaluated_on.isoformat()}"
    )


def approval_differences(
    threshold: ThresholdRecord, metric: MetricRecord, records: HostRecords
) -> str:
    """Every dimension on which the threshold's approved_for differs from today's dataset and
    judge records, each with both values; "" when none does. A missing record a metric names is
    dangling, not different: there is nothing to compare with."""
    approved = threshold.approved_for
    if approved is None:
        return "it names nothing it was approved for (approved_for)"
    differs = []
    dataset = records.dataset_of(metric)
    if dataset is not None:
        if approved.dataset_version != dataset.version:
            differs.append(
                f"dataset version: approved {_named(approved.dataset_version)}, dataset "
                f"'{metric.dataset}' is at {_named(dataset.version)}"
            )
        if approved.fingerprint != dataset.fingerprint:
            differs.append(
                f"dataset fingerprint: approved {_named(approved.fingerprint)}, "
                f"dataset '{metric.dataset}' has {_named(dataset.fingerprint)}"
            )
    judge = records.judges.get(metric.judge) if metric.judge is not None else None
    if metric.judge is None and approved.judge_model is not None:
        differs.append(
            f"judge model: approved '{approved.judge_model}', metrics.yaml names no judge"
        )
    elif judge is not None and (
        approved.judge_model is None or not same_grader(approved.judge_model, judge.model)
    ):
        # Strict: a judge approved on one snapshot does not vouch for another.
        differs.append(
            f"judge model: approved {_named(approved.judge_model)}, judge "
            f"'{metric.judge}' grades with '{judge.model}'"
        )
    return "; ".join(differs)


def _approval_said(threshold: ThresholdRecord) -> str:
    if threshold.approval is not Approval.APPROVED:
        return "the proposed approval"
    by = f" by {threshold.approved_by}" if threshold.approved_by else ""
    on = f" on {threshold.approved_on.isoformat()}" if threshold.approved_on else ""
    return f"the approval{by}{on}"


def evidence_shortfall(judge_id: str, judge: JudgeRecord) -> str:
    """Why the calibration evidence a judge's record names does not hold it up ("" when it
    does, or when the record names no evidence and no min_agreement).

    The evidence must have been read, be for this judge and its model, and, given a
    min_agreement, show the statistic's lower interval bound at or above it. Checked whatever
    the judge's calibration: a judge not yet calibrated shows it as a note (what would block
    once it is), and a drifted or retired one is blocked for this as well."""
    if judge.evidence is None:
        # The loader refuses this; a record built in memory must not slip through.
        return (
            ""
            if judge.min_agreement is None
            else (f"judge '{judge_id}' has a min_agreement but names no calibration evidence")
        )
    where = f"judge '{judge_id}': calibration evidence '{judge.evidence}'"
    found = judge.evidence_read
    if found is None:
        return f"{where} was not read"
    if isinstance(found, UnreadableEvidence):
        return f"{where} {found.problem}"
    return _evidence_mismatch(where, judge_id, judge, found)


def _evidence_mismatch(
    where: str, judge_id: str, judge: JudgeRecord, found: CalibrationEvidence
) -> str:
    if found.judge != judge_id:
        return f"{where} is for judge '{found.judge}', not '{judge_id}'"
    if found.judge_model is None:
        return f"{where} names no judge model, so it cannot be shown to be for '{judge.model}'"
    # Strict, as for the grader: evidence for another snapshot or size of the model is not
    # evidence for the judge that grades now.
    if not same_grader(found.judge_model, judge.model):
        return (
            f"{where} is for model '{found.judge_model}'; judge '{judge_id}' grades with "
            f"'{judge.model}'"
        )
    bar = judge.min_agreement
    if bar is None:
        return ""
    check = check_agreement(found, bar.statistic.value, bar.lower_bound)
    return "" if check.met else f"{where}: {check.message}"


def _never(s: Situation) -> str:
    # no_record is decided before any row runs: a metric without a record has no Situation.
    return ""


_1, _2 = Stage.AUTHORIZED, Stage.SOUND

CONDITIONS: tuple[Condition, ...] = (
    Condition(
        C.NO_RECORD,
        _1,
        "the metric has a record in metrics.yaml (if not, this is its only reason)",
        (
            "metrics.yaml does not mention this metric, so nobody has decided what it is for. "
            "It is shown and never enforced until it has a record."
        ),
        _never,
    ),
    Condition(
        C.METRIC_NOT_GATING,
        _1,
        "its status is `gating`",
        (
            "Its status in metrics.yaml is not `gating`: the eval leads have not asked for it to "
            "fail builds. Only `gating` metrics may."
        ),
        _not_gating,
    ),
    Condition(
        C.THRESHOLD_MISSING,
        _1,
        "a threshold exists in thresholds.yaml",
        "thresholds.yaml has no bar for it, so there is nothing to compare its value with.",
        _threshold_missing,
    ),
    Condition(
        C.THRESHOLD_PROPOSED,
        _1,
        "the threshold's approval is `approved`",
        (
            "Its threshold is only proposed. A bar may fail builds once its owner approves it "
            "(approval: approved, with approved_by and approved_on)."
        ),
        _threshold_proposed,
    ),
    Condition(
        C.DATASET_PROPOSED,
        _1,
        "its dataset's status is not `proposed`",
        (
            "Its dataset is only proposed: nobody has yet checked that the data (labels, "
            "coverage, leakage) is fit to decide a release on."
        ),
        _dataset_proposed,
    ),
    Condition(
        C.JUDGE_UNCALIBRATED,
        _1,
        "its judge, if it names one, is not `uncalibrated` or `calibrating`",
        (
            "It is graded by a model judge whose grades have not (yet) been checked against "
            "human labels. An unchecked grader cannot fail a build."
        ),
        _judge_uncalibrated,
    ),
    Condition(
        C.DANGLING_REFERENCE,
        _2,
        "every record the metric names (dataset, judge) exists",
        (
            "The metric names a dataset or judge that has no record (or, for a check's metric, "
            "checks.yaml has no check of its name), usually a typo in an id. A missing record is "
            "not 'proposed': an authorized metric blocks on it."
        ),
        _dangling,
    ),
    Condition(
        C.POLICY_NOT_PERMITTED,
        _2,
        (
            "the data policy for its dataset id is `permitted` or `redacted` (a missing policy "
            "counts as not)"
        ),
        (
            "Data governance has not permitted results on this dataset to decide a release "
            "(policies.yaml: permitted or redacted). A dataset with no policy counts as not."
        ),
        _policy,
    ),
    Condition(
        C.DATASET_RETIRED,
        _2,
        "its dataset's status is not `retired`",
        (
            "Its dataset is retired. An authorized metric on retired data blocks rather than "
            "quietly passing or turning informational."
        ),
        _dataset_retired,
    ),
    Condition(
        C.DATASET_MISMATCH,
        _2,
        (
            "the output was measured on the validated dataset: the dataset it names (if any) is "
            "the record's id or one of its `names`; its version (when it names this dataset, or "
            "names none, and the record has one) and its fingerprint (when it yields one and the "
            "record has one) equal the record's. An output that names no version passes this "
            "row, and the scorecard says the dataset was not verified unless the fingerprint the "
            "record pins matched"
        ),
        (
            "The eval output says it ran on another dataset (a name that is neither the "
            "record's id nor one of its names:), or on another version or content (fingerprint) "
            "of it, than the one validated in datasets.yaml, so the number is not about the "
            "checked data."
        ),
        _dataset_mismatch,
    ),
    Condition(
        C.DATASET_UNVERIFIABLE,
        _2,
        (
            "a dataset record that pins a `fingerprint` is checked against one: the output "
            "yields a fingerprint (docs/formats.md says what each format needs)"
        ),
        (
            "The dataset record pins a fingerprint, and the eval output records nothing it can "
            "be computed from (docs/formats.md says what each format needs), so it cannot show "
            "it measured that data. Re-run so the output records its samples."
        ),
        _dataset_unverifiable,
    ),
    Condition(
        C.JUDGE_DRIFTED,
        _2,
        "the judge is not `drifted`",
        (
            "Its judge was calibrated once but no longer agrees with human labels. Its grades "
            "cannot decide anything until it is recalibrated."
        ),
        _judge_drifted,
    ),
    Condition(
        C.JUDGE_RETIRED,
        _2,
        "the judge is not `retired`",
        "Its judge is retired: its grades no longer decide anything.",
        _judge_retired,
    ),
    Condition(
        C.JUDGE_EVIDENCE_INSUFFICIENT,
        _2,
        (
            "the calibration evidence the judge's record names (`evidence`) holds it up: the "
            "file is there and is calibration evidence, for this judge id and for its model (by "
            "the stricter [grader rule](#model-names): evidence for another snapshot or size of "
            "the model does not count), and, with `min_agreement`, the statistic's lower "
            "interval bound is at least the bar (the message names both numbers)"
        ),
        (
            "The judge's record points to calibration evidence (a file `evalglass calibrate` "
            "wrote) and holds it to that: the file is missing or unreadable, is for another "
            "judge or model, or its agreement with human labels falls short of the record's "
            "min_agreement (the lower end of the interval, not the value). Re-calibrate, or "
            "point `evidence` at the right file."
        ),
        _judge_evidence,
    ),
    Condition(
        C.JUDGE_NOT_INDEPENDENT,
        _2,
        (
            "the grading is independent: neither the judge the metric names nor any grader the "
            "output names is a model under evaluation (by the [model-name rule](#model-names) "
            "below); an output that names no model cannot show independence, when the metric "
            "names a judge or the output names a grader"
        ),
        (
            "The judge, or a grader the output names, is (or cannot be shown not to be) the "
            "model under evaluation, however its name is spelled. A model grading itself is "
            "not independent evidence; the output must name its model."
        ),
        _not_independent,
        about_run=True,
    ),
    Condition(
        C.JUDGE_MODEL_MISMATCH,
        _2,
        (
            "judgments were graded by the judge the records name: every grader the output names "
            "for the metric is the judge's `model` (by the stricter [grader "
            "rule](#model-names)); an output that names a grader for a metric whose record names "
            "no judge fails too, since a model-graded metric must name its judge"
        ),
        (
            "The output says its judgments were graded by another model than the judge the "
            "records name (or by several, one of them another), or by a model while "
            "metrics.yaml names no judge. The calibration vouches for the judge, not for that "
            "grader: re-grade with the judge, or record the grader as the judge."
        ),
        _judge_model_mismatch,
    ),
    Condition(
        C.BASELINE_MISSING,
        _2,
        "a required baseline (`requires_baseline: yes`, or a regression threshold) exists in "
        "baselines.yaml",
        "The metric is compared with an approved baseline, and baselines.yaml has none.",
        _baseline_missing,
    ),
    Condition(
        C.BASELINE_NOT_COMPARABLE,
        _2,
        (
            "a required baseline is comparable: its `dataset_version` equals the dataset "
            "record's `version` (both absent for data pinned by fingerprint alone), its "
            "`fingerprint` the record's when both have one or the record has no version, and "
            "its `judge`, when both it and the metric's judge exist, equals the judge record's "
            "`model` exactly"
        ),
        (
            "The baseline was measured on other data or graded by another judge than today's "
            "records describe, so a comparison with it would not mean anything."
        ),
        _baseline_not_comparable,
    ),
    Condition(
        C.APPROVAL_STALE,
        _2,
        (
            "the approval still describes what is measured: the threshold's `approved_for` "
            "names the dataset record's `version` and `fingerprint` (when the dataset record "
            "exists) and, when the judge record exists, its `model` by the strict [grader "
            "rule](#model-names) (another snapshot is another judge), or no judge when the "
            "metric names none; an approved threshold without `approved_for` describes nothing"
        ),
        (
            "The threshold's approval was given for other data or another grader than the "
            "records now name: its approved_for names another dataset version or fingerprint, "
            "or another judge model (another snapshot counts), than datasets.yaml and judges.yaml "
            "hold today. The approver vouched for what they saw; the bar's owner must approve it "
            "again for what is there now."
        ),
        _approval_stale,
    ),
    Condition(
        C.APPROVAL_EXPIRED,
        _2,
        (
            "the approval has not expired: the evaluation date (the UTC date of `--as-of`, "
            "default now) is not after the threshold's `expires_on`"
        ),
        (
            "The threshold's approval held until its expires_on date, and the evaluation date is "
            "later. The bar's owner must approve it again (a new approved_on, and a new "
            "expires_on or none)."
        ),
        _approval_expired,
    ),
)

# The rows each stage runs, in order (no_record is decided before either).
AUTHORIZING = tuple(c for c in CONDITIONS if c.stage is _1 and c.code is not C.NO_RECORD)
SOUNDNESS = tuple(c for c in CONDITIONS if c.stage is _2)
BY_CODE = {c.code: c for c in CONDITIONS}
