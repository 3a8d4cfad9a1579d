"""The promotion checklist against the resolver: its edits, made in memory, let any metric gate."""

from __future__ import annotations

import attrs
from hypothesis import given
from hypothesis import strategies as st

from evalglass.core.authority import Outcome, resolve
from evalglass.evidence.model import DatasetIdentity, Run
from evalglass.reasons import AuthorityCode as C
from evalglass.records import cross_file
from evalglass.records.load import records_from_text
from evalglass.records.model import (
    Approval,
    Calibration,
    DatasetStatus,
    MetricStatus,
    Op,
    ThresholdRecord,
)
from evalglass.records.rules import cross_field_problem
from evalglass.records.schema import KINDS
from evalglass.tools.checklist import checklist
from evalglass.tools.edits import ORDER, Action, Edit, apply, yaml_text
from tests import states as s


def left_to_the_run(state: s.State) -> list[C]:
    """What no records edit clears, stated from the states: a judged or model-graded metric
    whose run names no model, or is graded by the model it evaluates (the judge, once the edits
    name it, is the run's one grader, else the judge the records hold); a run graded by two
    different models."""
    names_judge = state.metric is not None and state.judge != "none"
    judged = names_judge or state.grader != "none"
    if state.grader == "judge":
        judge_is_gpt41 = True  # the judge recorded, or a new one named for the run's grader
    elif state.grader in ("none", "judge_and_other"):
        # Without one grader to name, the judge is the recorded one, or one the host chooses.
        judge_is_gpt41 = names_judge and isinstance(state.judge, Calibration)
    else:
        judge_is_gpt41 = False  # "other/grader", or the model itself (counted below)
    evaluated_is_gpt41 = state.model in ("same_as_judge", "same_last_segment")
    shared = judged and (
        state.model == "unnamed"
        or state.grader == "self"
        or (evaluated_is_gpt41 and (judge_is_gpt41 or state.grader == "judge_and_other"))
    )
    # Only the run can show it measured the record's data: the checklist never renames a
    # dataset, and a record's fingerprint needs one from the output.
    other_name = state.metric is not None and state.output_dataset == "other_name"
    no_fingerprint = state.dataset is not None and (
        state.output_dataset == "no_fingerprint" or other_name
    )
    return (
        [C.DATASET_MISMATCH] * other_name
        + [C.DATASET_UNVERIFIABLE] * no_fingerprint
        + [C.JUDGE_NOT_INDEPENDENT] * shared
        + [C.JUDGE_MODEL_MISMATCH] * (state.grader == "judge_and_other")
    )


@given(s.states())
def test_the_checklist_makes_every_state_can_gate(state: s.State) -> None:
    """The edits make resolve say can_gate, save what only the run can show: a judge or grader
    independent of the model under evaluation, and one grader."""
    records, measurement = s.records(state), s.measurement(state)
    plan = checklist(s.METRIC, records, measurement, evaluated_on=s.TODAY)
    after = resolve(s.METRIC, apply(records, plan.edits), measurement, evaluated_on=s.TODAY)
    left = left_to_the_run(state)
    if left:
        assert after.outcome is Outcome.BLOCKED
        assert [r.code for r in after.reasons] == left, (plan, after)
        assert [r.code for r in plan.outside] == left
    else:
        assert after.outcome is Outcome.CAN_GATE, (plan, after)
        assert plan.outside == ()


@given(s.states())
def test_without_a_run_only_judge_independence_is_left(state: s.State) -> None:
    """With no eval output, the edits clear everything the records can clear."""
    records = s.records(state)
    plan = checklist(s.METRIC, records, None, evaluated_on=s.TODAY)
    after = resolve(s.METRIC, apply(records, plan.edits), None, evaluated_on=s.TODAY)
    if state.metric is not None and state.judge != "none":
        assert [r.code for r in after.reasons] == [C.JUDGE_NOT_INDEPENDENT]
    else:
        assert after.outcome is Outcome.CAN_GATE


@given(s.states())
def test_the_checklist_is_empty_exactly_when_the_metric_can_gate(state: s.State) -> None:
    """No edit is suggested for a metric that can gate already, and some always is otherwise."""
    records, measurement = s.records(state), s.measurement(state)
    plan = checklist(s.METRIC, records, measurement, evaluated_on=s.TODAY)
    can_gate = (
        resolve(s.METRIC, records, measurement, evaluated_on=s.TODAY).outcome is Outcome.CAN_GATE
    )
    assert (plan.edits == () and plan.outside == ()) is can_gate


@given(s.states())
def test_the_edited_records_need_no_further_edit(state: s.State) -> None:
    """Derivation is idempotent: the checklist of the edited records has no edits."""
    records, measurement = s.records(state), s.measurement(state)
    edited = apply(records, checklist(s.METRIC, records, measurement, evaluated_on=s.TODAY).edits)
    assert checklist(s.METRIC, edited, measurement, evaluated_on=s.TODAY).edits == ()


@given(s.states())
def test_every_edited_record_would_load(state: s.State) -> None:
    """Each record the edits touch keeps the loader's required fields and cross-field rules,
    and the records together keep the rules between files."""
    records, measurement = s.records(state), s.measurement(state)
    plan = checklist(s.METRIC, records, measurement, evaluated_on=s.TODAY)
    edited = apply(records, plan.edits)
    for kind, record_id in {(e.kind, e.record) for e in plan.edits}:
        record = getattr(edited, kind)[record_id]
        fields = {
            f.name: getattr(record, f.name)
            for f in KINDS[kind].fields
            if getattr(record, f.name) is not None
            and getattr(record, f.name) != f.default
            or f.required
        }
        assert cross_field_problem(kind, fields, record_id) is None, (kind, record_id, fields)
    cross_file.check(edited)  # an approval names every part the other records require


@given(s.states())
def test_edits_come_in_file_order_with_the_status_switch_last(state: s.State) -> None:
    """Datasets, policies, judges, baselines, thresholds, then metrics; status is the last edit."""
    plan = checklist(s.METRIC, s.records(state), s.measurement(state), evaluated_on=s.TODAY)
    kinds = [ORDER.index(e.kind) for e in plan.edits]
    assert kinds == sorted(kinds)
    status = [e for e in plan.edits if e.kind == "metrics" and e.field == "status"]
    if status:
        assert plan.edits[-1] == status[0] and status[0].value is MetricStatus.GATING


@given(s.states())
def test_apply_leaves_the_records_it_was_given_alone(state: s.State) -> None:
    """The edited copy is new: the records passed in resolve exactly as before."""
    records, measurement = s.records(state), s.measurement(state)
    before = resolve(s.METRIC, records, measurement, evaluated_on=s.TODAY)
    apply(records, checklist(s.METRIC, records, measurement, evaluated_on=s.TODAY).edits)
    assert resolve(s.METRIC, records, measurement, evaluated_on=s.TODAY) == before


def test_a_calibrating_judge_needs_one_edit() -> None:
    """The example's judged metric: one edit, to judges.yaml, saying what it asserts."""
    state = s.State(judge=Calibration.CALIBRATING)
    plan = checklist(s.METRIC, s.records(state), s.measurement(state), evaluated_on=s.TODAY)
    assert plan.edits == (
        Edit(
            kind="judges",
            record=s.JUDGE,
            field="calibration",
            value=Calibration.CALIBRATED,
            action=Action.EDIT,
            asserts="you have checked this judge's grades against human labels, and they "
            "agree well enough to fail builds on",
        ),
    )
    assert (plan.edits[0].file, plan.edits[0].key, plan.edits[0].text) == (
        "judges.yaml",
        "grader-v2.calibration",
        "calibrated",
    )


def test_a_missing_threshold_asks_for_a_chosen_bar_and_an_approval() -> None:
    """A new threshold record: the direction, bar, approver and date are the host's to choose;
    what it is approved for is the dataset as recorded."""
    plan = checklist(s.METRIC, s.records(s.State(threshold=None)), None, evaluated_on=s.TODAY)
    assert [(e.key, e.text, e.action) for e in plan.edits] == [
        (f"{s.METRIC}.op", "<the direction, quoted: '>=' or '<='>", Action.ADD),
        (f"{s.METRIC}.value", "<the bar>", Action.ADD),
        (f"{s.METRIC}.approval", "approved", Action.ADD),
        (f"{s.METRIC}.approved_by", "<who approved it>", Action.ADD),
        (f"{s.METRIC}.approved_on", "<the date of approval, YYYY-MM-DD>", Action.ADD),
        (
            f"{s.METRIC}.approved_for",
            "dataset_version: '2026-10', fingerprint: 'sha256:9f2c'",
            Action.ADD,
        ),
    ]


def test_a_run_on_another_dataset_version_moves_the_baseline_with_it() -> None:
    """A new version measured: validate it, the required baseline must be on it too, and the
    bar approved again for it, by a person on a date."""
    state = s.State(requires_baseline=True, baseline="comparable", output_dataset="other_version")
    plan = checklist(s.METRIC, s.records(state), s.measurement(state), evaluated_on=s.TODAY)
    assert [(e.file, e.key, e.text) for e in plan.edits] == [
        ("datasets.yaml", "qa-gold.version", "'2026-11'"),
        ("baselines.yaml", f"{s.METRIC}.dataset_version", "'2026-11'"),
        ("thresholds.yaml", f"{s.METRIC}.approved_by", "<who approved it>"),
        ("thresholds.yaml", f"{s.METRIC}.approved_on", "<the date of approval, YYYY-MM-DD>"),
        (
            "thresholds.yaml",
            f"{s.METRIC}.approved_for",
            "dataset_version: '2026-11', fingerprint: 'sha256:9f2c'",
        ),
    ]
    assert [e.asserts for e in plan.edits[1:]] == [
        "the baseline was measured on dataset version '2026-11' (re-measure it if it was not)",
        (
            "who approved the bar again, for what approved_for names now (an approval names a "
            "person)"
        ),
        "when it was approved again",
        (
            "the approver saw dataset version '2026-11' (fingerprint 'sha256:9f2c'): the approval "
            "holds for these and blocks once any of them changes (approval_stale)"
        ),
    ]


def test_an_expired_approval_is_given_again_with_a_new_last_day() -> None:
    """An expired approval: a new approver's word, date and last day, the binding unchanged."""
    state = s.State(approval="expired")
    plan = checklist(s.METRIC, s.records(state), s.measurement(state), evaluated_on=s.TODAY)
    assert [(e.key, e.text) for e in plan.edits] == [
        (f"{s.METRIC}.approved_by", "<who approved it>"),
        (f"{s.METRIC}.approved_on", "<the date of approval, YYYY-MM-DD>"),
        (f"{s.METRIC}.expires_on", "<the new last day, YYYY-MM-DD>"),
    ]
    assert plan.edits[2].asserts == (
        "the approval's new last day (the last one was 2026-11-29); or remove the line for one "
        "that does not expire"
    )


def test_a_judge_approved_on_another_snapshot_is_approved_again_for_the_judge() -> None:
    """approved_for names another snapshot of the judge's model: the new binding names the
    judge's model as judges.yaml records it."""
    state = s.State(judge=Calibration.CALIBRATED, approval="judge_snapshot")
    plan = checklist(s.METRIC, s.records(state), s.measurement(state), evaluated_on=s.TODAY)
    (binding,) = [e for e in plan.edits if e.field == "approved_for"]
    assert dict(binding.value) == {  # type: ignore[call-overload]
        "dataset_version": "2026-10",
        "fingerprint": s.FINGERPRINT,
        "judge_model": s.JUDGE_MODEL,
    }


def test_a_judge_grading_its_own_model_is_outside_the_records() -> None:
    """No status edit makes a model's own grades independent: the checklist says what must."""
    state = s.State(judge=Calibration.CALIBRATED, model="same_as_judge")
    plan = checklist(s.METRIC, s.records(state), s.measurement(state), evaluated_on=s.TODAY)
    assert plan.edits == ()
    assert [(r.code, r.message) for r in plan.outside] == [
        (
            C.JUDGE_NOT_INDEPENDENT,
            (
                "judge 'grader-v2' grades with 'openai/gpt-4.1', the model under evaluation "
                "'OpenAI/GPT-4.1': grade with an independent model (a calibrated judge of another "
                "model, named in metrics.yaml)"
            ),
        ),
    ]


def test_an_unrecorded_metric_takes_its_dataset_from_the_run() -> None:
    """No record: the draft names the dataset the output names, and starts every record it needs."""
    measurement = attrs.evolve(
        s.measurement(s.State()),
        id="new/metric",
        run=Run(
            source="run.json", models=["m"], dataset=DatasetIdentity(name="fresh", version="v1")
        ),
    )
    plan = checklist("new/metric", s.records(s.State()), measurement, evaluated_on=s.TODAY)
    assert [(e.file, e.key, e.text) for e in plan.edits] == [
        ("datasets.yaml", "fresh.status", "validated"),
        ("datasets.yaml", "fresh.version", "v1"),
        ("policies.yaml", "fresh.policy", "permitted"),
        ("thresholds.yaml", "new/metric.op", "<the direction, quoted: '>=' or '<='>"),
        ("thresholds.yaml", "new/metric.value", "<the bar>"),
        ("thresholds.yaml", "new/metric.approval", "approved"),
        ("thresholds.yaml", "new/metric.approved_by", "<who approved it>"),
        ("thresholds.yaml", "new/metric.approved_on", "<the date of approval, YYYY-MM-DD>"),
        ("thresholds.yaml", "new/metric.approved_for", "dataset_version: v1"),
        ("metrics.yaml", "new/metric.dataset", "fresh"),
        ("metrics.yaml", "new/metric.status", "gating"),
    ]


def test_a_proposed_threshold_keeps_its_bar() -> None:
    """Approving an existing bar never touches its op or value."""
    records = s.records(s.State(threshold=Approval.PROPOSED, dataset=DatasetStatus.PROPOSED))
    plan = checklist(s.METRIC, records, None, evaluated_on=s.TODAY)
    assert [e.key for e in plan.edits if e.kind == "thresholds"] == [
        f"{s.METRIC}.approval",
        f"{s.METRIC}.approved_by",
        f"{s.METRIC}.approved_on",
    ]
    edited = apply(records, plan.edits).thresholds[s.METRIC]
    assert isinstance(edited, ThresholdRecord)
    assert (edited.op, edited.value) == (Op.GE, 0.8)


@given(st.text(max_size=12))
def test_yaml_text_reads_back_as_the_same_text(text: str) -> None:
    """Every suggested text value, as written, is plain only when YAML would read it as itself."""
    written = yaml_text(text)
    if written != text:
        assert written.startswith("'") and written.endswith("'")
        assert written[1:-1].replace("''", "'") == text


@given(st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(10**12), 10**12))
def test_yaml_text_writes_a_number_the_loader_reads_back_exactly(number: float) -> None:
    """A suggested number, as written, is the number: two values never read alike, and none is
    rounded to a few digits."""
    text = (
        f"thresholds:\n  m:\n    op: '>='\n    value: {yaml_text(number)}\n    approval: proposed\n"
    )
    read = records_from_text("thresholds", text)["m"]
    assert isinstance(read, ThresholdRecord)
    assert read.value == number


def test_yaml_text_quotes_what_yaml_would_misread() -> None:
    """op is quoted; versions, handles and YAML words are quoted; ids and dates are plain."""
    assert [yaml_text(v) for v in (Op.GE, "2026-10", "@alice", "yes", "qa-gold", True)] == [
        "'>='",
        "'2026-10'",
        "'@alice'",
        "'yes'",
        "qa-gold",
        "yes",
    ]


def test_evidence_short_of_its_bar_asks_for_recalibration() -> None:
    """A calibrated judge whose evidence misses its bar: one edit, pointing `evidence` at a new
    file the person chooses, saying what it must show; in memory, the metric then gates."""
    state = s.State(judge=Calibration.CALIBRATED, evidence="below_bar")
    records, measurement = s.records(state), s.measurement(state)
    plan = checklist(s.METRIC, records, measurement, evaluated_on=s.TODAY)
    assert [(e.file, e.key, e.text, e.action) for e in plan.edits] == [
        (
            "judges.yaml",
            "grader-v2.evidence",
            "<the calibration evidence file, relative to the records folder>",
            Action.EDIT,
        ),
    ]
    assert plan.edits[0].asserts == (
        "you ran `evalglass calibrate --judge grader-v2` on human labels for 'openai/gpt-4.1', "
        "committed the evidence file it wrote beside the records, and its kappa lower bound is "
        "at least 0.6"
    )
    after = resolve(s.METRIC, apply(records, plan.edits), measurement, evaluated_on=s.TODAY)
    assert after.outcome is Outcome.CAN_GATE
    # The records given keep their evidence: the assumed document lives only in the copy.
    assert records.judges[s.JUDGE].evidence_read == s.evidence_document(low=0.55)


def test_a_judge_moved_to_the_runs_grader_is_recalibrated_for_it() -> None:
    """Evidence that holds up the judge's old model: once the checklist moves the judge to the
    model that graded the run, it also asks for evidence measured on that model and for the
    threshold to be approved again for that judge, and then the metric gates."""
    state = s.State(judge=Calibration.CALIBRATED, grader="other", evidence="met")
    records, measurement = s.records(state), s.measurement(state)
    plan = checklist(s.METRIC, records, measurement, evaluated_on=s.TODAY)
    assert [(e.key, e.text) for e in plan.edits] == [
        ("grader-v2.model", "other/grader"),
        ("grader-v2.evidence", "<the calibration evidence file, relative to the records folder>"),
        ("qa/match/accuracy.approved_by", "<who approved it>"),
        ("qa/match/accuracy.approved_on", "<the date of approval, YYYY-MM-DD>"),
        (
            "qa/match/accuracy.approved_for",
            "dataset_version: '2026-10', fingerprint: 'sha256:9f2c', judge_model: other/grader",
        ),
    ]
    assert "on human labels for 'other/grader'" in plan.edits[1].asserts
    after = resolve(s.METRIC, apply(records, plan.edits), measurement, evaluated_on=s.TODAY)
    assert after.outcome is Outcome.CAN_GATE
