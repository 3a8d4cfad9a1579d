"""The authority table, walked exhaustively against an expectation written from DESIGN.md."""

from __future__ import annotations

import itertools

import attrs
import pytest

from evalglass.core.authority import Outcome, resolve, same_model
from evalglass.reasons import AuthorityCode as C
from evalglass.records.model import (
    Approval,
    Calibration,
    DatasetStatus,
    HostRecords,
    MetricStatus,
    Policy,
)
from tests import states as s

STAGE1_ORDER = [
    C.METRIC_NOT_GATING,
    C.THRESHOLD_MISSING,
    C.THRESHOLD_PROPOSED,
    C.DATASET_PROPOSED,
    C.JUDGE_UNCALIBRATED,
]
STAGE2_ORDER = [
    C.DANGLING_REFERENCE,
    C.POLICY_NOT_PERMITTED,
    C.DATASET_RETIRED,
    C.DATASET_MISMATCH,
    C.JUDGE_DRIFTED,
    C.JUDGE_RETIRED,
    C.JUDGE_EVIDENCE_INSUFFICIENT,
    C.JUDGE_NOT_INDEPENDENT,
    C.BASELINE_MISSING,
    C.BASELINE_NOT_COMPARABLE,
]


def expected(st: s.State) -> tuple[Outcome, list[C], list[C]]:
    """DESIGN.md's two tables, read row by row, independently of the resolver's code."""
    if st.metric is None:
        return Outcome.INFORMATIONAL, [C.NO_RECORD], []
    stage1 = {
        C.METRIC_NOT_GATING: st.metric is not MetricStatus.GATING,
        C.THRESHOLD_MISSING: st.threshold is None,
        C.THRESHOLD_PROPOSED: st.threshold is Approval.PROPOSED,
        C.DATASET_PROPOSED: st.dataset is DatasetStatus.PROPOSED,
        C.JUDGE_UNCALIBRATED: st.judge in (Calibration.UNCALIBRATED, Calibration.CALIBRATING),
    }
    judged = isinstance(st.judge, Calibration)
    # A baseline names its judge model only when the metric has a judge; with the judge's record
    # missing, that model cannot be matched, so the baseline cannot be shown comparable.
    baseline_comparable = (st.baseline == "comparable" and st.judge != "dangling") or (
        st.baseline == "other_judge" and st.judge == "none"
    )
    stage2 = {
        C.DANGLING_REFERENCE: st.dataset is None or st.judge == "dangling",
        C.POLICY_NOT_PERMITTED: st.policy not in (Policy.PERMITTED, Policy.REDACTED),
        C.DATASET_RETIRED: st.dataset is DatasetStatus.RETIRED,
        C.DATASET_MISMATCH: st.dataset is not None and st.output_dataset == "other_version",
        C.JUDGE_DRIFTED: st.judge is Calibration.DRIFTED,
        C.JUDGE_RETIRED: st.judge is Calibration.RETIRED,
        # A judge whose record names calibration evidence is held to it, whatever its
        # calibration: the file must be there, for this judge and its model, and its kappa lower
        # bound must reach the record's bar.
        C.JUDGE_EVIDENCE_INSUFFICIENT: judged
        and st.evidence in ("missing", "other_judge", "other_model", "below_bar"),
        C.JUDGE_NOT_INDEPENDENT: judged and st.model != "other",
        C.BASELINE_MISSING: st.requires_baseline and st.baseline is None,
        C.BASELINE_NOT_COMPARABLE: st.requires_baseline
        and st.baseline is not None
        and (st.dataset is None or not baseline_comparable),
    }
    failed1 = [c for c in STAGE1_ORDER if stage1[c]]
    failed2 = [c for c in STAGE2_ORDER if stage2[c]]
    if failed1:
        return Outcome.INFORMATIONAL, failed1, failed2
    if failed2:
        return Outcome.BLOCKED, failed2, []
    return Outcome.CAN_GATE, [], []


# The judge crossed with the evidence its record names: every evidence state for a calibrated
# judge, and a failing one for each other calibration (it is held to it too).
JUDGE_EVIDENCE = [
    *((judge, "none") for judge in s.JUDGE_STATES),
    *((Calibration.CALIBRATED, e) for e in s.EVIDENCE_STATES if e != "none"),
    *((c, "below_bar") for c in Calibration if c is not Calibration.CALIBRATED),
]

ALL_STATES = [
    s.State(metric, requires_baseline, threshold, dataset, judge, policy, baseline, model,
            output_dataset, evidence)
    for (metric, requires_baseline, threshold, dataset, (judge, evidence), policy, baseline, model,
         output_dataset) in itertools.product(
        s.METRIC_STATES,
        (False, True),
        s.THRESHOLD_STATES,
        s.DATASET_STATES,
        JUDGE_EVIDENCE,
        s.POLICY_STATES,
        s.BASELINE_STATES,
        s.MODEL_STATES,
        s.OUTPUT_DATASET_STATES,
    )
]


def test_whole_authority_table() -> None:
    """Every combination of record states resolves to DESIGN.md's outcome, reasons and notes."""
    wrong = []
    for st in ALL_STATES:
        got = resolve(s.METRIC, s.records(st), s.measurement(st))
        want = expected(st)
        have = (got.outcome, [r.code for r in got.reasons], [r.code for r in got.notes])
        if have != want:
            wrong.append((st, have, want))
    assert len(ALL_STATES) > 400_000
    assert not wrong, f"{len(wrong)} states disagree, first: {wrong[0]}"


def test_every_outcome_and_code_is_reached() -> None:
    """The walk really covers the table: each outcome and each reason code occurs."""
    outcomes, codes = set(), set()
    for st in ALL_STATES[::7]:
        outcome, reasons, notes = expected(st)
        outcomes.add(outcome)
        codes.update(reasons, notes)
    assert outcomes == set(Outcome)
    assert codes == set(C)


def test_no_record_is_the_only_reason() -> None:
    """A metric without a record is informational with exactly one reason, and no notes."""
    got = resolve("unknown/metric", HostRecords(), None)
    assert got.outcome is Outcome.INFORMATIONAL
    assert [r.code for r in got.reasons] == [C.NO_RECORD]
    assert got.notes == ()


def test_unmeasured_judged_metric_cannot_show_independence() -> None:
    """With no output at all, a judged metric cannot show its judge is independent."""
    st = s.State(judge=Calibration.CALIBRATED)
    got = resolve(s.METRIC, s.records(st), None)
    assert got.outcome is Outcome.BLOCKED
    assert [r.code for r in got.reasons] == [C.JUDGE_NOT_INDEPENDENT]


def test_fully_authorized_metric_can_gate() -> None:
    """All records in order: can_gate, with no reasons and no notes."""
    st = s.State(judge=Calibration.CALIBRATED, requires_baseline=True, baseline="comparable")
    got = resolve(s.METRIC, s.records(st), s.measurement(st))
    assert (got.outcome, got.reasons, got.notes) == (Outcome.CAN_GATE, (), ())


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("openai/gpt-4.1", "gpt-4.1", True),
        ("openai/gpt-4.1", "OPENAI/GPT-4.1", True),
        ("openai/gpt-4.1", "azure/gpt-4.1", True),
        ("openai/gpt-4.1", "openai/gpt-4.1-mini", False),
        ("anthropic/claude", "openai/gpt-4.1", False),
    ],
)
def test_judge_identity_rule(a: str, b: str, same: bool) -> None:
    """Same name ignoring case, or same last path segment, counts as the same model."""
    assert same_model(a, b) is same
    assert same_model(b, a) is same


EVIDENCE = "judge 'grader-v2': calibration evidence 'calibration/grader-v2.json'"


@pytest.mark.parametrize(
    ("evidence", "message"),
    [
        ("missing", f"{EVIDENCE} is not there: no such file next to the records"),
        ("other_judge", f"{EVIDENCE} is for judge 'grader-v1', not 'grader-v2'"),
        ("other_model", (f"{EVIDENCE} is for model 'anthropic/claude-3-opus'; judge 'grader-v2' "
                         "grades with 'openai/gpt-4.1'")),
        ("below_bar", (f"{EVIDENCE}: kappa lower bound 0.55 < 0.6 (value 0.7846, n 285, 95% "
                       "bootstrap)")),
    ],
)
def test_a_judge_is_held_to_its_calibration_evidence(evidence: str, message: str) -> None:
    """Each way evidence falls short blocks, naming the file and, for a bar, the number and the
    bar."""
    st = s.State(judge=Calibration.CALIBRATED, evidence=evidence)
    got = resolve(s.METRIC, s.records(st), s.measurement(st))
    assert got.outcome is Outcome.BLOCKED
    assert [(r.code, r.message) for r in got.reasons] == [(C.JUDGE_EVIDENCE_INSUFFICIENT, message)]


def test_evidence_that_holds_up_lets_the_judge_gate() -> None:
    """Evidence for this judge and model, above its bar or held to none: can_gate."""
    for evidence in ("met", "no_bar"):
        st = s.State(judge=Calibration.CALIBRATED, evidence=evidence)
        assert resolve(s.METRIC, s.records(st), s.measurement(st)).outcome is Outcome.CAN_GATE


def test_a_judge_not_yet_calibrated_shows_its_evidence_as_a_note() -> None:
    """Calibrating, with evidence short of its bar: informational, and the note says it would
    block once the judge is called calibrated."""
    st = s.State(judge=Calibration.CALIBRATING, evidence="below_bar")
    got = resolve(s.METRIC, s.records(st), s.measurement(st))
    assert got.outcome is Outcome.INFORMATIONAL
    assert [r.code for r in got.notes] == [C.JUDGE_EVIDENCE_INSUFFICIENT]


def test_evidence_never_read_or_never_named_fails_closed() -> None:
    """Records built in memory: a judge naming evidence nobody read, or a bar with no evidence
    file (which the loader refuses), is blocked, never trusted."""
    records = s.records(s.State(judge=Calibration.CALIBRATED, evidence="met"))
    judge = records.judges[s.JUDGE]
    for changed, said in (
        (attrs.evolve(judge, evidence_read=None), f"{EVIDENCE} was not read"),
        (attrs.evolve(judge, evidence=None, evidence_read=None),
         "judge 'grader-v2' has a min_agreement but names no calibration evidence"),
        (attrs.evolve(judge, evidence_read=s.evidence_document(model=None)),
         f"{EVIDENCE} names no judge model, so it cannot be shown to be for 'openai/gpt-4.1'"),
    ):
        edited = attrs.evolve(records, judges={s.JUDGE: changed})
        got = resolve(s.METRIC, edited, s.measurement(s.State(judge=Calibration.CALIBRATED)))
        assert [(r.code, r.message) for r in got.reasons] == [
            (C.JUDGE_EVIDENCE_INSUFFICIENT, said)
        ]
