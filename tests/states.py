"""One metric's whole world as a small tuple of states, and the records and output it stands for.

Shared by the exhaustive authority table and the property tests, so both walk the same space.
"""

from __future__ import annotations

import datetime as dt
import functools

import attrs
from hypothesis import strategies as st

from evalglass.calibration_evidence import (
    CalibrationEvidence,
    Estimate,
    InputFile,
    Items,
    LabelScale,
)
from evalglass.evidence.model import DatasetIdentity, Measurement, Run
from evalglass.records.model import (
    Approval,
    ApprovedFor,
    BaselineRecord,
    Calibration,
    DatasetRecord,
    DatasetStatus,
    HostRecords,
    JudgeRecord,
    JudgeStatistic,
    MetricRecord,
    MetricStatus,
    MinAgreement,
    Op,
    Policy,
    PolicyRecord,
    ThresholdRecord,
    UnreadableEvidence,
)

METRIC = "qa/match/accuracy"
DATASET = "qa-gold"
JUDGE = "grader-v2"
JUDGE_MODEL = "openai/gpt-4.1"
FINGERPRINT = "sha256:9f2c"
# The evaluation date every state is resolved on (the date of render_cases.WHEN).
TODAY = dt.date(2026, 11, 30)

METRIC_STATES = (None, *MetricStatus)
THRESHOLD_STATES = (None, *Approval)
DATASET_STATES = (None, *DatasetStatus)
JUDGE_STATES = ("none", "dangling", *Calibration)  # "none": the metric names no judge
POLICY_STATES = (None, *Policy)
BASELINE_STATES = (None, "comparable", "other_version", "other_judge")
MODEL_STATES = ("other", "same_as_judge", "same_last_segment", "unnamed")
# What the output says of its dataset: the record's name, version and fingerprint; another
# version; another dataset altogether (qa-silver at 1999, no fingerprint); the record's dataset
# with no fingerprint to check the record's against.
OUTPUT_DATASET_STATES = ("matches", "other_version", "other_name", "no_fingerprint")
# The calibration evidence a judge record names: none; a file that meets a kappa bar of 0.6, or
# that is held to no bar; a file that is missing, for another judge id, for another model, or
# whose kappa lower bound (0.55) is below the bar.
EVIDENCE_STATES = ("none", "met", "no_bar", "missing", "other_judge", "other_model", "below_bar")
EVIDENCE_PATH = "calibration/grader-v2.json"
BAR = 0.6
# Who the output says graded the metric: nobody (not model-graded, or not recorded), the judge
# (spelled as promptfoo does), another model, both, or the model under evaluation itself.
GRADER_STATES = ("none", "judge", "other", "judge_and_other", "self")
# What the threshold's approved_for and expires_on say: the dataset and judge the records name
# (the judge spelled another way), another dataset version or fingerprint, another snapshot of
# the judge model, or an approval whose last day is today or was yesterday.
APPROVAL_STATES = (
    "current",
    "other_version",
    "other_fingerprint",
    "judge_snapshot",
    "expires_today",
    "expired",
)


@attrs.frozen
class State:
    metric: MetricStatus | None = MetricStatus.GATING
    requires_baseline: bool = False
    threshold: Approval | None = Approval.APPROVED
    dataset: DatasetStatus | None = DatasetStatus.VALIDATED
    judge: str | Calibration = "none"
    policy: Policy | None = Policy.PERMITTED
    baseline: str | None = None
    model: str = "other"
    output_dataset: str = "matches"
    grader: str = "none"
    evidence: str = "none"
    approval: str = "current"


def records(state: State, metric_id: str = METRIC) -> HostRecords:
    names_judge = state.judge != "none"
    metrics = {}
    if state.metric is not None:
        metrics[metric_id] = _metric(state.metric, names_judge, state.requires_baseline)
    thresholds = {}
    if state.threshold is not None:
        thresholds[metric_id] = _threshold(state.threshold, state.approval, names_judge)
    datasets = {}
    if state.dataset is not None:
        datasets[DATASET] = _dataset(state.dataset)
    judges = {}
    if isinstance(state.judge, Calibration):
        judges[JUDGE] = judge_record(state.judge, state.evidence)
    policies = {}
    if state.policy is not None:
        policies[DATASET] = _policy(state.policy)
    baselines = {}
    if state.baseline is not None:
        baselines[metric_id] = _baseline(state.baseline, names_judge)
    return HostRecords(
        metrics=metrics,
        thresholds=thresholds,
        datasets=datasets,
        judges=judges,
        policies=policies,
        baselines=baselines,
    )


# Each record below is built once for its states (they are frozen): the exhaustive table builds
# records for hundreds of thousands of states from a few dozen distinct parts.


@functools.cache
def _metric(status: MetricStatus, names_judge: bool, requires_baseline: bool) -> MetricRecord:
    return MetricRecord(
        status=status,
        dataset=DATASET,
        judge=JUDGE if names_judge else None,
        requires_baseline=requires_baseline,
    )


@functools.cache
def _threshold(approval: Approval, approval_state: str, names_judge: bool) -> ThresholdRecord:
    approved = approval is Approval.APPROVED
    return ThresholdRecord(
        op=Op.GE,
        value=0.8,
        approval=approval,
        approved_by="@alice" if approved else None,
        approved_on=dt.date(2026, 11, 1) if approved else None,
        # A proposed threshold says what it is for too: its notes show what approving it as
        # written would raise.
        approved_for=approved_for(State(approval=approval_state), names_judge),
        expires_on={"expires_today": TODAY, "expired": TODAY - dt.timedelta(days=1)}.get(
            approval_state
        ),
    )


@functools.cache
def _dataset(status: DatasetStatus) -> DatasetRecord:
    return DatasetRecord(status=status, version="2026-10", fingerprint=FINGERPRINT)


@functools.cache
def _policy(policy: Policy) -> PolicyRecord:
    return PolicyRecord(policy=policy)


@functools.cache
def _baseline(baseline: str, names_judge: bool) -> BaselineRecord:
    return BaselineRecord(
        value=0.9,
        n=400,
        dataset_version="2025-01" if baseline == "other_version" else "2026-10",
        judge=("other/grader" if baseline == "other_judge" else JUDGE_MODEL)
        if names_judge
        else None,
    )


def approved_for(state: State, names_judge: bool) -> ApprovedFor:
    """The approved_for the approval state stands for."""
    judge_model = "openai:gpt-4.1" if names_judge else None  # the judge, spelled as promptfoo does
    if state.approval == "judge_snapshot":
        judge_model = "openai/gpt-4.1-2025-04-14"
    return ApprovedFor(
        dataset_version="2025-09" if state.approval == "other_version" else "2026-10",
        fingerprint="sha256:0000" if state.approval == "other_fingerprint" else FINGERPRINT,
        judge_model=judge_model,
    )


def evidence_document(
    judge: str = JUDGE, model: str | None = JUDGE_MODEL, low: float = 0.702
) -> CalibrationEvidence:
    """Calibration evidence as `evalglass calibrate` writes it, with kappa's lower bound `low`."""
    kappa = Estimate(value=0.7846, low=low, high=0.8532, n=285)
    return CalibrationEvidence(
        judge=judge,
        judge_model=model,
        scale=LabelScale.BINARY,
        categories=("fail", "pass"),
        raters=("ana", "ben", "chloe"),
        statistics={"kappa": kappa},
        confusion=((86, 19), (9, 171)),
        items=Items(
            matched=300,
            judged_only=0,
            labelled_only=0,
            judge_blank=0,
            human_blank=0,
            no_consensus=15,
        ),
        level=0.95,
        resamples=2000,
        seed=20240611,
        judgments=InputFile("j.jsonl", "0" * 64),
        labels=InputFile("l.csv", "1" * 64),
        evalglass_version="0.1.0",
        date="2026-11-30",
    )


@functools.cache
def judge_record(calibration: Calibration, evidence: str = "none") -> JudgeRecord:
    """The judge's record, naming calibration evidence in the given state (loaded, as the
    records loader fills it in)."""
    if evidence == "none":
        return JudgeRecord(model=JUDGE_MODEL, calibration=calibration)
    read = {
        "met": evidence_document(),
        "no_bar": evidence_document(),
        "missing": UnreadableEvidence("is not there: no such file next to the records"),
        "other_judge": evidence_document(judge="grader-v1"),
        "other_model": evidence_document(model="anthropic/claude-3-opus"),
        "below_bar": evidence_document(low=0.55),
    }[evidence]
    bar = (
        None
        if evidence == "no_bar"
        else MinAgreement(statistic=JudgeStatistic.KAPPA, lower_bound=BAR)
    )
    return JudgeRecord(
        model=JUDGE_MODEL,
        calibration=calibration,
        evidence=EVIDENCE_PATH,
        min_agreement=bar,
        evidence_read=read,
    )


def measurement(
    state: State, value: float = 0.9, n: int = 500, metric_id: str = METRIC
) -> Measurement:
    model = {
        "other": "acme/model-x",
        "same_as_judge": "OpenAI/GPT-4.1",
        "same_last_segment": "azure/gpt-4.1",
        "unnamed": None,
    }[state.model]
    dataset = {
        "matches": DatasetIdentity(name=DATASET, version="2026-10", fingerprint=FINGERPRINT),
        "other_version": DatasetIdentity(name=DATASET, version="2026-11", fingerprint=FINGERPRINT),
        "other_name": DatasetIdentity(name="qa-silver", version="1999"),
        "no_fingerprint": DatasetIdentity(name=DATASET, version="2026-10"),
    }[state.output_dataset]
    # The model grading itself, under a dated spelling (the model the run would name, if none).
    itself = f"{model or 'acme/model-x'}-2025-04-14"
    graders = {
        "none": (),
        "judge": ("openai:gpt-4.1",),
        "other": ("other/grader",),
        "judge_and_other": (JUDGE_MODEL, "other/grader"),
        "self": (itself,),
    }[state.grader]
    run = Run(
        source="run.json",
        models=[model],
        graders=graders,
        dataset=dataset,
    )
    return Measurement(id=metric_id, run=run, value=value, n=n)


def states() -> st.SearchStrategy[State]:
    """Any one metric's world, drawn from the same space the exhaustive table walks."""
    return st.builds(
        State,
        metric=st.sampled_from(METRIC_STATES),
        requires_baseline=st.booleans(),
        threshold=st.sampled_from(THRESHOLD_STATES),
        dataset=st.sampled_from(DATASET_STATES),
        judge=st.sampled_from(JUDGE_STATES),
        policy=st.sampled_from(POLICY_STATES),
        baseline=st.sampled_from(BASELINE_STATES),
        model=st.sampled_from(MODEL_STATES),
        output_dataset=st.sampled_from(OUTPUT_DATASET_STATES),
        grader=st.sampled_from(GRADER_STATES),
        evidence=st.sampled_from(EVIDENCE_STATES),
        approval=st.sampled_from(APPROVAL_STATES),
    )


_GOOD_POLICIES = (Policy.PERMITTED, Policy.REDACTED)

# For each field: from a state, the states of that field that are strictly worse for gating.
WORSE = {
    "metric": lambda st: (
        [x for x in METRIC_STATES if x is not MetricStatus.GATING]
        if st.metric is MetricStatus.GATING
        else [None]
    ),
    "requires_baseline": lambda st: [True] if not st.requires_baseline else [],
    "threshold": lambda st: {
        Approval.APPROVED: [Approval.PROPOSED, None],
        Approval.PROPOSED: [None],
    }.get(st.threshold, []),
    "dataset": lambda st: (
        [DatasetStatus.PROPOSED, DatasetStatus.RETIRED, None]
        if st.dataset is DatasetStatus.VALIDATED
        else ([None] if st.dataset is not None else [])
    ),
    # Naming a judge is worse only for a run that names no grader: a model-graded run's metric
    # must name its judge.
    "judge": lambda st: (
        ([x for x in JUDGE_STATES if x != "none"] if st.grader == "none" else [])
        if st.judge == "none"
        else (
            [x for x in JUDGE_STATES if x not in ("none", Calibration.CALIBRATED)]
            if st.judge is Calibration.CALIBRATED
            else []
        )
    ),
    "policy": lambda st: (
        [None, Policy.RESTRICTED, Policy.FORBIDDEN, Policy.UNKNOWN]
        if st.policy in _GOOD_POLICIES
        else []
    ),
    "baseline": lambda st: {"comparable": ["other_version", "other_judge", None]}.get(
        st.baseline, [None] if st.baseline else []
    ),
    "model": lambda st: (
        ["same_as_judge", "same_last_segment", "unnamed"] if st.model == "other" else []
    ),
    "output_dataset": lambda st: {
        "matches": ["other_version", "other_name", "no_fingerprint"],
        "other_version": ["other_name"],
        "no_fingerprint": ["other_name"],
    }.get(st.output_dataset, []),
    # Graded by the judge is no better than by another model, unless the judge is the model
    # under evaluation: then another grader drops the self-grading.
    "grader": lambda st: {
        "none": ["judge", "other", "judge_and_other", "self"],
        "judge": ["judge_and_other", "self"]
        + ([] if st.model in ("same_as_judge", "same_last_segment") else ["other"]),
        "other": ["judge_and_other", "self"],
        "judge_and_other": ["self"],
    }.get(st.grader, []),
    "evidence": lambda st: {
        "none": list(EVIDENCE_STATES[1:]),
        "met": ["missing", "other_judge", "other_model", "below_bar"],
        "no_bar": ["missing", "other_judge", "other_model", "below_bar"],
    }.get(st.evidence, []),
    "approval": lambda st: {
        "current": [a for a in APPROVAL_STATES if a != "current"],
        "expires_today": ["expired"],
    }.get(st.approval, []),
}
