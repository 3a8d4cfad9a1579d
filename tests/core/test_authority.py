"""The authority table, walked exhaustively against an expectation written from DESIGN.md."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable, Iterator

import attrs
import pytest
from hypothesis import given, settings

from evalglass.core.authority import Outcome, resolve
from evalglass.core.scorecard import assemble
from evalglass.evidence.model import Evidence, Measurement, Run
from evalglass.reasons import AuthorityCode as C
from evalglass.records.model import (
    Approval,
    ApprovedFor,
    Calibration,
    CheckRecord,
    DatasetStatus,
    HostRecords,
    MetricRecord,
    MetricStatus,
    Policy,
)
from tests import states as s
from tests.core.test_model_names import SAME_AS_JUDGE

STAGE1_ORDER = [
    C.METRIC_NOT_GATING,
    C.THRESHOLD_MISSING,
    C.THRESHOLD_PROPOSED,
    C.DATASET_PROPOSED,
    C.JUDGE_UNCALIBRATED,
]
# Stage 2 in DESIGN.md's order, in runs of rows the records alone decide, split by the rows the
# output takes part in (its dataset version, its models and graders).
BY_RECORDS_FIRST = [C.DANGLING_REFERENCE, C.POLICY_NOT_PERMITTED, C.DATASET_RETIRED]
BY_RECORDS_THEN = [C.JUDGE_DRIFTED, C.JUDGE_RETIRED, C.JUDGE_EVIDENCE_INSUFFICIENT]
BY_RECORDS_LAST = [
    C.BASELINE_MISSING,
    C.BASELINE_NOT_COMPARABLE,
    C.APPROVAL_STALE,
    C.APPROVAL_EXPIRED,
]
STAGE2_ORDER = [
    *BY_RECORDS_FIRST,
    C.DATASET_MISMATCH,
    C.DATASET_UNVERIFIABLE,
    *BY_RECORDS_THEN,
    C.JUDGE_NOT_INDEPENDENT,
    C.JUDGE_MODEL_MISMATCH,
    *BY_RECORDS_LAST,
]


Expected = tuple[Outcome, list[C], list[C]]


def expectation(st: s.State) -> Callable[[str, str, str], Expected]:
    """DESIGN.md's two tables, read row by row, independently of the resolver's code: for the
    record states of `st`, the answer for any output states (model, output dataset, grader).
    The rows the records alone decide are read once, as the walk crosses them with every output
    state."""
    if st.metric is None:
        return lambda model, output_dataset, grader: (Outcome.INFORMATIONAL, [C.NO_RECORD], [])
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
    # An approval (or a proposal: what approving it as written would raise) is compared with
    # the dataset record, when there is one, and with the judge: the judge record's model when
    # there is one (a dated snapshot is another judge), or no judge when the metric names none.
    # A missing record is dangling, not different.
    bound = st.threshold is not None
    stale = bound and (
        (st.dataset is not None and st.approval in ("other_version", "other_fingerprint"))
        or (st.approval == "judge_snapshot" and st.judge != "dangling")
    )
    by_records = {
        C.DANGLING_REFERENCE: st.dataset is None or st.judge == "dangling",
        C.POLICY_NOT_PERMITTED: st.policy not in (Policy.PERMITTED, Policy.REDACTED),
        C.DATASET_RETIRED: st.dataset is DatasetStatus.RETIRED,
        C.JUDGE_DRIFTED: st.judge is Calibration.DRIFTED,
        C.JUDGE_RETIRED: st.judge is Calibration.RETIRED,
        # A judge whose record names calibration evidence is held to it, whatever its
        # calibration: the file must be there, for this judge and its model, and its kappa lower
        # bound must reach the record's bar.
        C.JUDGE_EVIDENCE_INSUFFICIENT: judged
        and st.evidence in ("missing", "other_judge", "other_model", "below_bar"),
        C.BASELINE_MISSING: st.requires_baseline and st.baseline is None,
        C.BASELINE_NOT_COMPARABLE: st.requires_baseline
        and st.baseline is not None
        and (st.dataset is None or not baseline_comparable),
        # The last day the approval holds is its expires_on: the day after, it has expired.
        C.APPROVAL_STALE: stale,
        C.APPROVAL_EXPIRED: bound and st.approval == "expired",
    }
    failed1 = [c for c in STAGE1_ORDER if stage1[c]]
    before = [c for c in BY_RECORDS_FIRST if by_records[c]]
    middle = [c for c in BY_RECORDS_THEN if by_records[c]]
    after = [c for c in BY_RECORDS_LAST if by_records[c]]
    has_dataset = st.dataset is not None

    def answer(model: str, output_dataset: str, grader: str) -> Expected:
        # Graders the output names: the judge's model (spelled another way), another model,
        # both, or the model under evaluation under a dated name. Against the model under
        # evaluation a grader is compared loosely (any spelling of one model is that model);
        # against the judge the records name, strictly (a dated snapshot is another grader).
        graded = grader != "none"
        judge_is_evaluated = model in ("same_as_judge", "same_last_segment")
        self_graded = grader == "self" or (
            grader in ("judge", "judge_and_other") and judge_is_evaluated
        )
        failed2 = before.copy()
        # Another version of the record's dataset, or another dataset altogether, is not what
        # was validated; the record pins a fingerprint, so an output yielding none cannot show
        # it measured that content.
        if has_dataset and output_dataset in ("other_version", "other_name"):
            failed2.append(C.DATASET_MISMATCH)
        if has_dataset and output_dataset in ("other_name", "no_fingerprint"):
            failed2.append(C.DATASET_UNVERIFIABLE)
        failed2 += middle
        if (judged and model != "other") or (graded and (model == "unnamed" or self_graded)):
            failed2.append(C.JUDGE_NOT_INDEPENDENT)
        if graded and (st.judge == "none" or (judged and grader != "judge")):
            failed2.append(C.JUDGE_MODEL_MISMATCH)
        failed2 += after
        if failed1:
            return Outcome.INFORMATIONAL, failed1, failed2
        if failed2:
            return Outcome.BLOCKED, failed2, []
        return Outcome.CAN_GATE, [], []

    return answer


# The judge crossed with the evidence its record names: every evidence state for a calibrated
# judge, and a failing one for each other calibration (it is held to it too). Evidence is read
# only through a judge's record, and the states that fail it fail it alike, as those that hold.
JUDGE_EVIDENCE = [
    *((judge, "none") for judge in s.JUDGE_STATES),
    *((Calibration.CALIBRATED, e) for e in s.EVIDENCE_STATES if e != "none"),
    *((c, "below_bar") for c in Calibration if c is not Calibration.CALIBRATED),
]

_RECORD_DIMS = (
    s.METRIC_STATES,
    (False, True),
    s.THRESHOLD_STATES,
    s.DATASET_STATES,
    JUDGE_EVIDENCE,
    s.POLICY_STATES,
    s.BASELINE_STATES,
)
_RUNS = list(itertools.product(s.MODEL_STATES, s.OUTPUT_DATASET_STATES, ("none",)))
# The walks below cross a dimension with the whole product where it can meet the others, and
# otherwise only each way the resolver reads it, the way DESIGN.md's table reads it:
# - a metric status is read one of three ways: no record, gating, or not gating. The first
#   walk crosses every record state with every run naming no grader for one status of each
#   way; every other status that is not gating is crossed with every record state and one run.
# - a policy is read one of three ways: missing, permitted (or redacted), or not;
# - the judge's evidence one of two: it holds (met) or it falls short (every failing state
#   fails it alike, and fails it for every calibration: below_bar stands for them);
# - an output's dataset meets graders nowhere: the one that matches, and the one that is
#   another dataset altogether (both dataset reasons), stand for the rest beside graders.
# Graders are crossed with every record state read those ways, and every run; the approvals
# that are not current (compared with the records only) with every record state read those
# ways, and two runs, one sound and one not. The property test at the end of this table draws
# states from the whole space, so a way that was not one fails there too.
_METRIC_WAYS = (None, MetricStatus.GATING, MetricStatus.INFORMATIONAL)
_POLICY_WAYS = (None, Policy.PERMITTED, Policy.FORBIDDEN)
_JUDGE_EVIDENCE_WAYS = [
    *((judge, "none") for judge in s.JUDGE_STATES),
    (Calibration.CALIBRATED, "met"),
    (Calibration.CALIBRATED, "below_bar"),
    (Calibration.UNCALIBRATED, "below_bar"),
]
_GRADED_RUNS = list(
    itertools.product(
        s.MODEL_STATES, ("matches", "other_name"), [g for g in s.GRADER_STATES if g != "none"]
    )
)
_APPROVAL_MOVES = tuple(a for a in s.APPROVAL_STATES if a != "current")
_APPROVAL_RUNS = [("other", "matches", "none"), ("unnamed", "other_version", "none")]
_READ_WAYS = (
    (False, True),
    s.THRESHOLD_STATES,
    s.DATASET_STATES,
    _JUDGE_EVIDENCE_WAYS,
    _POLICY_WAYS,
    s.BASELINE_STATES,
)


def walks(
    metric: MetricStatus | None = None,
) -> Iterator[tuple[tuple[object, ...], list[tuple[object, ...]]]]:
    """The table for one metric state, as (record states, the output states crossed with them)
    pairs. Over every metric state, the whole table."""
    rest = _RECORD_DIMS[1:]
    if metric not in _METRIC_WAYS:
        for combo in itertools.product((metric,), *rest):
            yield (*combo, "current"), _RUNS[:1]
        return
    for combo in itertools.product((metric,), *rest):
        yield (*combo, "current"), _RUNS
    for combo in itertools.product((metric,), *_READ_WAYS):
        yield (*combo, "current"), _GRADED_RUNS
    for combo in itertools.product((metric,), *_READ_WAYS, _APPROVAL_MOVES):
        yield combo, _APPROVAL_RUNS


def every_walk() -> Iterator[tuple[tuple[object, ...], list[tuple[object, ...]]]]:
    for metric in s.METRIC_STATES:
        yield from walks(metric)


def state(on_records: tuple[object, ...], on_run: tuple[object, ...]) -> s.State:
    """The State for a walk's record states (the judge paired with its evidence, the approval
    last) and output states."""
    (
        metric,
        requires_baseline,
        threshold,
        dataset,
        (judge, evidence),
        policy,
        baseline,
        approval,
    ) = on_records
    return s.State(
        metric,
        requires_baseline,
        threshold,
        dataset,
        judge,
        policy,
        baseline,
        *on_run,
        evidence=evidence,
        approval=approval,
    )


def test_the_walk_is_the_whole_table() -> None:
    """The walks cover, for one metric status of each way, each record state crossed with each
    output state naming no grader, each record state read the resolver's ways crossed with each
    grader and with each approval that is not current; and each other status with each record
    state."""
    records = 1
    for dim in _RECORD_DIMS[1:]:
        records *= len(dim)
    read = 1
    for dim in _READ_WAYS:
        read *= len(dim)
    ways = len(_METRIC_WAYS)
    want = (
        ways * records * len(_RUNS)
        + ways * read * len(_GRADED_RUNS)
        + ways * read * len(_APPROVAL_MOVES) * len(_APPROVAL_RUNS)
        + (len(s.METRIC_STATES) - ways) * records
    )
    walked = [(on_records, tuple(on_runs)) for on_records, on_runs in every_walk()]
    assert len(set(walked)) == len(walked)
    assert sum(len(on_runs) for _, on_runs in walked) == want
    # Every state of every dimension is walked.
    for i, dim in enumerate((*_RECORD_DIMS, s.APPROVAL_STATES)):
        assert {on_records[i] for on_records, _ in walked} == set(dim)
    runs = {on_run for _, on_runs in walked for on_run in on_runs}
    assert {m for m, _, _ in runs} == set(s.MODEL_STATES)
    assert {d for _, d, _ in runs} == set(s.OUTPUT_DATASET_STATES)
    assert {g for _, _, g in runs} == set(s.GRADER_STATES)


@pytest.mark.parametrize("metric", s.METRIC_STATES, ids=str)
def test_whole_authority_table(metric: MetricStatus | None) -> None:
    """Every combination of record and output states resolves to DESIGN.md's outcome, reasons
    and notes (one metric record state at a time, so the table's parts can run in parallel)."""
    wrong = []
    runs: dict[tuple[object, ...], Measurement] = {}
    for on_records, on_runs in walks(metric):
        records = s.records(state(on_records, on_runs[0]))
        want_for = expectation(state(on_records, on_runs[0]))
        for on_run in on_runs:
            if on_run not in runs:
                runs[on_run] = s.measurement(state(on_records, on_run))
            got = resolve(s.METRIC, records, runs[on_run], evaluated_on=s.TODAY)
            want = want_for(*on_run)
            if (
                got.outcome is not want[0]
                or [r.code for r in got.reasons] != want[1]
                or [r.code for r in got.notes] != want[2]
            ):
                have = (got.outcome, [r.code for r in got.reasons], [r.code for r in got.notes])
                wrong.append((state(on_records, on_run), have, want))
    assert not wrong, f"{len(wrong)} states disagree, first: {wrong[0]}"


@settings(max_examples=1000)
@given(s.states())
def test_any_state_of_the_whole_space_resolves_as_the_table_says(st: s.State) -> None:
    """States drawn from the whole product, the ways the walks do not cross included (another
    status that is not gating with a grader, a redacted policy with an expired approval): the
    resolver reads each dimension only the ways the walks say."""
    got = resolve(s.METRIC, s.records(st), s.measurement(st), evaluated_on=s.TODAY)
    want = expectation(st)(st.model, st.output_dataset, st.grader)
    have = (got.outcome, [r.code for r in got.reasons], [r.code for r in got.notes])
    assert have == want


def test_every_outcome_and_code_is_reached() -> None:
    """The walk really covers the table: each outcome and each reason code occurs."""
    outcomes, codes = set(), set()
    for on_records, on_runs in itertools.islice(every_walk(), 0, None, 7):
        answer = expectation(state(on_records, on_runs[0]))
        for on_run in on_runs:
            outcome, reasons, notes = answer(*on_run)
            outcomes.add(outcome)
            codes.update(reasons, notes)
    assert outcomes == set(Outcome)
    assert codes == set(C)


def test_no_record_is_the_only_reason() -> None:
    """A metric without a record is informational with exactly one reason, and no notes."""
    got = resolve("unknown/metric", HostRecords(), None, evaluated_on=s.TODAY)
    assert got.outcome is Outcome.INFORMATIONAL
    assert [r.code for r in got.reasons] == [C.NO_RECORD]
    assert got.notes == ()


def test_unmeasured_judged_metric_cannot_show_independence() -> None:
    """With no output at all, a judged metric cannot show its judge is independent."""
    st = s.State(judge=Calibration.CALIBRATED)
    got = resolve(s.METRIC, s.records(st), None, evaluated_on=s.TODAY)
    assert got.outcome is Outcome.BLOCKED
    assert [r.code for r in got.reasons] == [C.JUDGE_NOT_INDEPENDENT]


def test_fully_authorized_metric_can_gate() -> None:
    """All records in order: can_gate, with no reasons and no notes."""
    st = s.State(judge=Calibration.CALIBRATED, requires_baseline=True, baseline="comparable")
    got = resolve(s.METRIC, s.records(st), s.measurement(st), evaluated_on=s.TODAY)
    assert (got.outcome, got.reasons, got.notes) == (Outcome.CAN_GATE, (), ())


@pytest.mark.parametrize("spelled", SAME_AS_JUDGE)
def test_a_judge_spelled_another_way_is_not_independent(spelled: str) -> None:
    """Against judge `openai/gpt-4.1`, a run of the same model under any reported spelling is
    blocked, whether the spelling names the model under evaluation or the output's grader."""
    st = s.State(judge=Calibration.CALIBRATED)
    records, measurement = s.records(st), s.measurement(st)
    as_model = attrs.evolve(measurement, run=attrs.evolve(measurement.run, models=[spelled]))
    got = resolve(s.METRIC, records, as_model, evaluated_on=s.TODAY)
    assert [r.code for r in got.reasons] == [C.JUDGE_NOT_INDEPENDENT]
    as_grader = attrs.evolve(
        measurement, run=attrs.evolve(measurement.run, models=[spelled], graders=[s.JUDGE_MODEL])
    )
    got = resolve(s.METRIC, records, as_grader, evaluated_on=s.TODAY)
    assert got.outcome is Outcome.BLOCKED
    assert C.JUDGE_NOT_INDEPENDENT in [r.code for r in got.reasons]


def test_several_models_under_evaluation_are_each_compared() -> None:
    """An output naming two models under evaluation: a judge that is either one is blocked."""
    st = s.State(judge=Calibration.CALIBRATED)
    measurement = s.measurement(st)
    run = attrs.evolve(measurement.run, models=["echo", "openai:gpt-4.1"])
    got = resolve(s.METRIC, s.records(st), attrs.evolve(measurement, run=run), evaluated_on=s.TODAY)
    assert [r.code for r in got.reasons] == [C.JUDGE_NOT_INDEPENDENT]
    assert "'openai:gpt-4.1'" in got.reasons[0].message


def test_a_grader_that_is_another_snapshot_of_the_judge_is_a_mismatch() -> None:
    """The judge calibrated on `openai/gpt-4.1` does not vouch for a dated snapshot's grades."""
    st = s.State(judge=Calibration.CALIBRATED)
    measurement = s.measurement(st)
    run = attrs.evolve(measurement.run, graders=["openai/gpt-4.1-2025-04-14"])
    got = resolve(s.METRIC, s.records(st), attrs.evolve(measurement, run=run), evaluated_on=s.TODAY)
    assert [(r.code, r.message) for r in got.reasons] == [
        (
            C.JUDGE_MODEL_MISMATCH,
            (
                "the output says 'openai/gpt-4.1-2025-04-14' graded it, not judge 'grader-v2' "
                "('openai/gpt-4.1')"
            ),
        ),
    ]


def test_an_informational_metric_notes_its_grader_problems() -> None:
    """Not yet gating: a self-graded run with no judge named is noted, not blocked."""
    st = s.State(metric=MetricStatus.INFORMATIONAL, grader="self")
    got = resolve(s.METRIC, s.records(st), s.measurement(st), evaluated_on=s.TODAY)
    assert got.outcome is Outcome.INFORMATIONAL
    assert [r.code for r in got.notes] == [C.JUDGE_NOT_INDEPENDENT, C.JUDGE_MODEL_MISMATCH]


def test_a_stale_approval_names_every_differing_dimension_with_both_values() -> None:
    """Version, fingerprint and judge model all moved: one approval_stale reason naming each,
    the approved value beside today's."""
    st = s.State(judge=Calibration.CALIBRATED)
    records = s.records(st)
    threshold = attrs.evolve(
        records.thresholds[s.METRIC],
        approved_for=ApprovedFor(
            dataset_version="2026-09", fingerprint="sha256:0000", judge_model="openai/gpt-4.1-mini"
        ),
    )
    records = attrs.evolve(records, thresholds={s.METRIC: threshold})
    got = resolve(s.METRIC, records, s.measurement(st), evaluated_on=s.TODAY)
    assert [(r.code, r.message) for r in got.reasons] == [
        (
            C.APPROVAL_STALE,
            (
                "the approval by @alice on 2026-11-01: dataset version: approved '2026-09', dataset "
                "'qa-gold' is at '2026-10'; dataset fingerprint: approved 'sha256:0000', dataset "
                "'qa-gold' has 'sha256:9f2c'; judge model: approved 'openai/gpt-4.1-mini', judge "
                "'grader-v2' grades with 'openai/gpt-4.1'"
            ),
        ),
    ]


def test_an_approval_that_names_nothing_is_stale() -> None:
    """An approved threshold without approved_for (the loader refuses one; an in-memory record
    can lack it) cannot show what it was approved for: blocked, never granted."""
    st = s.State()
    records = s.records(st)
    threshold = attrs.evolve(records.thresholds[s.METRIC], approved_for=None)
    records = attrs.evolve(records, thresholds={s.METRIC: threshold})
    got = resolve(s.METRIC, records, s.measurement(st), evaluated_on=s.TODAY)
    assert [(r.code, r.message) for r in got.reasons] == [
        (
            C.APPROVAL_STALE,
            (
                "the approval by @alice on 2026-11-01: it names nothing it was "
                "approved for (approved_for)"
            ),
        ),
    ]
    proposed = attrs.evolve(threshold, approval=Approval.PROPOSED)
    records = attrs.evolve(records, thresholds={s.METRIC: proposed})
    got = resolve(s.METRIC, records, s.measurement(st), evaluated_on=s.TODAY)
    assert ([r.code for r in got.reasons], got.notes) == ([C.THRESHOLD_PROPOSED], ())


@pytest.mark.parametrize(("days", "expired"), [(-400, True), (-1, True), (0, False), (1, False)])
def test_an_approval_holds_through_its_last_day(days: int, expired: bool) -> None:
    """expires_on is the last day the approval holds: expired from the day after, never on it."""
    st = s.State()
    records = s.records(st)
    last = s.TODAY + dt.timedelta(days=days)
    threshold = attrs.evolve(
        records.thresholds[s.METRIC], expires_on=last, approved_on=min(last, dt.date(2026, 11, 1))
    )
    records = attrs.evolve(records, thresholds={s.METRIC: threshold})
    got = resolve(s.METRIC, records, s.measurement(st), evaluated_on=s.TODAY)
    if expired:
        assert [(r.code, r.message) for r in got.reasons] == [
            (
                C.APPROVAL_EXPIRED,
                (
                    f"the approval by @alice on {threshold.approved_on} held until {last} (expires_on); "
                    "the evaluation date is 2026-11-30"
                ),
            ),
        ]
    else:
        assert got.outcome is Outcome.CAN_GATE


def test_the_evaluation_date_is_the_utc_date_of_the_evaluation_time() -> None:
    """Evaluated late on the last day in New York, it is already the next day in UTC: the
    scorecard's approval has expired."""
    st = s.State()
    records = s.records(st)
    threshold = attrs.evolve(records.thresholds[s.METRIC], expires_on=dt.date(2026, 11, 30))
    records = attrs.evolve(records, thresholds={s.METRIC: threshold})
    evidence = Evidence(measurements={s.METRIC: s.measurement(st)})
    new_york = dt.timezone(dt.timedelta(hours=-5))
    late = dt.datetime(2026, 11, 30, 20, 0, tzinfo=new_york)  # 01:00 UTC on 1 December
    (card,) = assemble(records, evidence, evaluated_at=late).metrics
    assert [r.code for r in card.authority.reasons] == [C.APPROVAL_EXPIRED]
    (card,) = assemble(records, evidence, evaluated_at=dt.date(2026, 11, 30)).metrics
    assert card.authority.outcome is Outcome.CAN_GATE


@pytest.mark.parametrize(
    ("approved", "stale"),
    [
        ("openai/gpt-4.1", False),
        ("openai:gpt-4.1", False),
        ("OpenAI/GPT-4.1", False),
        ("openai/gpt-4.1-2025-04-14", True),
        ("gpt-4.1@2025", True),
        ("openai/gpt-4.1-mini", True),
    ],
)
def test_an_approved_judge_model_is_matched_strictly(approved: str, stale: bool) -> None:
    """The approved judge model is compared by the grader rule: another spelling of the judge's
    model is the same judge, another snapshot or size is another."""
    st = s.State(judge=Calibration.CALIBRATED)
    records = s.records(st)
    bound = attrs.evolve(records.thresholds[s.METRIC].approved_for, judge_model=approved)
    threshold = attrs.evolve(records.thresholds[s.METRIC], approved_for=bound)
    records = attrs.evolve(records, thresholds={s.METRIC: threshold})
    got = resolve(s.METRIC, records, s.measurement(st), evaluated_on=s.TODAY)
    assert [r.code for r in got.reasons] == ([C.APPROVAL_STALE] if stale else [])


# A check's metric: authorized by its status alone, sound when checks.yaml defines it. Whatever
# else the records hold under its id (a threshold, here) and whatever the check found, nothing
# else counts.
CHECK_METRIC = "check/unit-tests"
CHECK_STATES = list(
    itertools.product(s.METRIC_STATES, (True, False), s.THRESHOLD_STATES, (None, 1.0, 0.0))
)


def _check_world(
    status: MetricStatus | None, defined: bool, threshold: Approval | None, value: float | None
) -> tuple[HostRecords, Measurement | None]:
    base = s.records(s.State(metric=status, threshold=threshold), metric_id=CHECK_METRIC)
    metrics = {CHECK_METRIC: MetricRecord(status=status)} if status is not None else {}
    checks = {"unit-tests": CheckRecord(run="pytest", timeout=60)} if defined else {}
    records = attrs.evolve(base, metrics=metrics, checks=checks)
    measurement = None
    if value is not None:
        measurement = Measurement(
            id=CHECK_METRIC, run=Run(source="checks.yaml:2"), value=value, n=1
        )
    return records, measurement


def expected_for_check(
    status: MetricStatus | None, defined: bool
) -> tuple[Outcome, list[C], list[C]]:
    """DESIGN.md's rule for check metrics, stated apart from the resolver's code."""
    if status is None:
        return Outcome.INFORMATIONAL, [C.NO_RECORD], []
    stage1 = [] if status is MetricStatus.GATING else [C.METRIC_NOT_GATING]
    stage2 = [] if defined else [C.DANGLING_REFERENCE]
    if stage1:
        return Outcome.INFORMATIONAL, stage1, stage2
    if stage2:
        return Outcome.BLOCKED, stage2, []
    return Outcome.CAN_GATE, [], []


def test_whole_authority_table_for_check_metrics() -> None:
    """Every state of a check's metric record, its definition, a stray threshold and the check's
    result resolves as the check rule says: no threshold, dataset or policy is asked for."""
    wrong = []
    for status, defined, threshold, value in CHECK_STATES:
        records, measurement = _check_world(status, defined, threshold, value)
        got = resolve(CHECK_METRIC, records, measurement, evaluated_on=s.TODAY)
        have = (got.outcome, [r.code for r in got.reasons], [r.code for r in got.notes])
        want = expected_for_check(status, defined)
        if have != want:
            wrong.append(((status, defined, threshold, value), have, want))
    assert not wrong, f"{len(wrong)} states disagree, first: {wrong[0]}"
    assert {expected_for_check(st, d)[0] for st, d, _, _ in CHECK_STATES} == set(Outcome)


def test_a_gating_check_without_a_definition_names_what_is_missing() -> None:
    """Blocked `dangling_reference`, naming the check checks.yaml lacks."""
    records, _ = _check_world(MetricStatus.GATING, False, None, None)
    got = resolve(CHECK_METRIC, records, None, evaluated_on=s.TODAY)
    assert got.reasons[0].message == "no check 'unit-tests' in checks.yaml"


EVIDENCE = "judge 'grader-v2': calibration evidence 'calibration/grader-v2.json'"


@pytest.mark.parametrize(
    ("evidence", "message"),
    [
        ("missing", f"{EVIDENCE} is not there: no such file next to the records"),
        ("other_judge", f"{EVIDENCE} is for judge 'grader-v1', not 'grader-v2'"),
        (
            "other_model",
            (
                f"{EVIDENCE} is for model 'anthropic/claude-3-opus'; judge 'grader-v2' "
                "grades with 'openai/gpt-4.1'"
            ),
        ),
        (
            "below_bar",
            (f"{EVIDENCE}: kappa lower bound 0.55 < 0.6 (value 0.7846, n 285, 95% bootstrap)"),
        ),
    ],
)
def test_a_judge_is_held_to_its_calibration_evidence(evidence: str, message: str) -> None:
    """Each way evidence falls short blocks, naming the file and, for a bar, the number and the
    bar."""
    st = s.State(judge=Calibration.CALIBRATED, evidence=evidence)
    got = resolve(s.METRIC, s.records(st), s.measurement(st), evaluated_on=s.TODAY)
    assert got.outcome is Outcome.BLOCKED
    assert [(r.code, r.message) for r in got.reasons] == [(C.JUDGE_EVIDENCE_INSUFFICIENT, message)]


def test_evidence_that_holds_up_lets_the_judge_gate() -> None:
    """Evidence for this judge and model, above its bar or held to none: can_gate."""
    for evidence in ("met", "no_bar"):
        st = s.State(judge=Calibration.CALIBRATED, evidence=evidence)
        got = resolve(s.METRIC, s.records(st), s.measurement(st), evaluated_on=s.TODAY)
        assert got.outcome is Outcome.CAN_GATE


def test_a_judge_not_yet_calibrated_shows_its_evidence_as_a_note() -> None:
    """Calibrating, with evidence short of its bar: informational, and the note says it would
    block once the judge is called calibrated."""
    st = s.State(judge=Calibration.CALIBRATING, evidence="below_bar")
    got = resolve(s.METRIC, s.records(st), s.measurement(st), evaluated_on=s.TODAY)
    assert got.outcome is Outcome.INFORMATIONAL
    assert [r.code for r in got.notes] == [C.JUDGE_EVIDENCE_INSUFFICIENT]


def test_evidence_never_read_or_never_named_fails_closed() -> None:
    """Records built in memory: a judge naming evidence nobody read, or a bar with no evidence
    file (which the loader refuses), is blocked, never trusted."""
    records = s.records(s.State(judge=Calibration.CALIBRATED, evidence="met"))
    judge = records.judges[s.JUDGE]
    for changed, said in (
        (attrs.evolve(judge, evidence_read=None), f"{EVIDENCE} was not read"),
        (
            attrs.evolve(judge, evidence=None, evidence_read=None),
            "judge 'grader-v2' has a min_agreement but names no calibration evidence",
        ),
        (
            attrs.evolve(judge, evidence_read=s.evidence_document(model=None)),
            f"{EVIDENCE} names no judge model, so it cannot be shown to be for 'openai/gpt-4.1'",
        ),
    ):
        edited = attrs.evolve(records, judges={s.JUDGE: changed})
        got = resolve(
            s.METRIC,
            edited,
            s.measurement(s.State(judge=Calibration.CALIBRATED)),
            evaluated_on=s.TODAY,
        )
        assert [(r.code, r.message) for r in got.reasons] == [(C.JUDGE_EVIDENCE_INSUFFICIENT, said)]


@pytest.mark.parametrize(
    ("model", "holds"),
    [
        ("openai:gpt-4.1", True),
        ("OpenAI/GPT-4.1", True),
        ("azure/gpt-4.1", True),
        ("openai/gpt-4.1-2025-04-14", False),
        ("gpt-4.1@2025", False),
        ("openai/gpt-4.1-mini", False),
        ("\u200b", False),
    ],
)
def test_evidence_is_held_to_the_judge_model_by_the_grader_rule(model: str, holds: bool) -> None:
    """Evidence written for another spelling of the judge's model holds it up; evidence for
    another snapshot or size of it, or for a name that folds to nothing, does not."""
    records = s.records(s.State(judge=Calibration.CALIBRATED, evidence="met"))
    judge = attrs.evolve(records.judges[s.JUDGE], evidence_read=s.evidence_document(model=model))
    edited = attrs.evolve(records, judges={s.JUDGE: judge})
    got = resolve(
        s.METRIC, edited, s.measurement(s.State(judge=Calibration.CALIBRATED)), evaluated_on=s.TODAY
    )
    assert [r.code for r in got.reasons] == ([] if holds else [C.JUDGE_EVIDENCE_INSUFFICIENT])
