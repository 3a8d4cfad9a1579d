"""The authority table, walked exhaustively against an expectation written from DESIGN.md."""

from __future__ import annotations

import itertools

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


ALL_STATES = [
    s.State(*combo)
    for combo in itertools.product(
        s.METRIC_STATES,
        (False, True),
        s.THRESHOLD_STATES,
        s.DATASET_STATES,
        s.JUDGE_STATES,
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
    assert len(ALL_STATES) > 100_000
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
