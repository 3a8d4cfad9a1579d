"""Every host-record field the schema declares is handled by each tool that reads the declaration:
diff weighs its change, doctor warns before a date of it expires, explain renews such a date, and
docs/host-records.md documents it. The expectations are written from the docs (which change of a
field lets more runs through), not from the declaration, so the declaration cannot test itself;
a field added to the schema fails here until each tool handles it and its case is written.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import attrs
import pytest

from evalglass.core.authority import Outcome, resolve
from evalglass.records.model import (
    Approval,
    Calibration,
    CheckRecord,
    DatasetStatus,
    Decision,
    HostRecords,
    JudgeStatistic,
    MetricRecord,
    MetricStatus,
    MinAgreement,
    Op,
    Policy,
    Scale,
    SuccessMode,
    SuccessPolicy,
)
from evalglass.records.schema import KINDS, Role
from evalglass.tiers import Tier
from evalglass.tools.checklist import checklist
from evalglass.tools.diagnosis import diagnose
from evalglass.tools.edits import apply
from evalglass.tools.findings import Severity
from evalglass.tools.records_diff import Kind, diff
from tests import states as s

ROOT = Path(__file__).resolve().parents[2]
CHECK = "unit-tests"
LATER = dt.date(2027, 6, 1)


def _declared() -> set[tuple[str, str]]:
    """(kind, field) for every declared field, `parent.sub` for a block's sub-fields."""
    found = set()
    for spec in KINDS.values():
        for field in spec.fields:
            found.add((spec.kind, field.name))
            found.update((spec.kind, f"{field.name}.{sub.name}") for sub in field.fields)
    return found


@attrs.frozen
class Case:
    """Moving the field from `a` to `b`: `looser` when that lets more runs through, and `back`
    when moving it from b to a does too; a move neither way loosens is still shown."""

    a: Any
    b: Any
    looser: bool
    back: bool = False


# From docs/host-records.md, docs/promoting-a-gate.md and DESIGN.md: which change loosens.
CASES: dict[tuple[str, str], Case] = {
    ("metrics", "status"): Case(MetricStatus.GATING, MetricStatus.INFORMATIONAL, False),
    ("metrics", "dataset"): Case(s.DATASET, "qa-other", False),
    ("metrics", "judge"): Case(s.JUDGE, None, False),
    ("metrics", "requires_baseline"): Case(True, False, True),
    ("metrics", "min_samples"): Case(100, 10, True),
    ("metrics", "decision"): Case(Decision.BOUND, Decision.POINT, True),
    ("metrics", "max_missing_fraction"): Case(0.0, 0.1, True),
    ("metrics", "interval_level"): Case(0.95, 0.9, True),
    ("metrics", "scale"): Case(None, Scale.PROPORTION, True),
    ("thresholds", "op"): Case(Op.GT, Op.GE, True),
    ("thresholds", "value"): Case(0.85, 0.8, True),
    ("thresholds", "max_drop"): Case(0.02, 0.05, True),
    ("thresholds", "max_relative_drop"): Case(0.02, 0.05, True),
    ("thresholds", "warn_value"): Case(0.9, 0.85, False),
    ("thresholds", "approval"): Case(Approval.APPROVED, Approval.PROPOSED, False),
    ("thresholds", "approved_by"): Case("@alice", "@bob", False),
    ("thresholds", "approved_on"): Case(dt.date(2026, 11, 1), dt.date(2026, 11, 2), False),
    ("thresholds", "approved_for"): Case(s.approved_for(s.State(), True), None, True),
    # A part removed vouches for any value of it; one written in without a new approval claims
    # the approver saw what they were never asked about.
    ("thresholds", "approved_for.dataset_version"): Case("2026-10", None, True, back=True),
    ("thresholds", "approved_for.fingerprint"): Case(s.FINGERPRINT, None, True, back=True),
    ("thresholds", "approved_for.judge_model"): Case("openai:gpt-4.1", None, True, back=True),
    ("thresholds", "expires_on"): Case(dt.date(2027, 5, 1), LATER, True),
    ("datasets", "status"): Case(DatasetStatus.VALIDATED, DatasetStatus.RETIRED, False),
    ("datasets", "version"): Case("2026-10", "2026-11", False),
    ("datasets", "fingerprint"): Case(s.FINGERPRINT, "sha256:0000", False),
    ("datasets", "names"): Case((), ("qa/gold",), False),
    ("judges", "model"): Case(s.JUDGE_MODEL, "other/grader", False),
    ("judges", "calibration"): Case(Calibration.CALIBRATED, Calibration.DRIFTED, False),
    ("judges", "evidence"): Case(s.EVIDENCE_PATH, "calibration/other.json", False),
    ("judges", "min_agreement"): Case(
        None, MinAgreement(statistic=JudgeStatistic.KAPPA, lower_bound=0.6), False
    ),
    ("judges", "min_agreement.statistic"): Case(JudgeStatistic.KAPPA, JudgeStatistic.AC1, False),
    ("judges", "min_agreement.lower_bound"): Case(0.6, 0.5, False),
    ("policies", "policy"): Case(Policy.PERMITTED, Policy.RESTRICTED, False),
    ("baselines", "value"): Case(0.9, 0.85, True),
    ("baselines", "n"): Case(400, 300, False),
    ("baselines", "stderr"): Case(0.01, 0.02, False),
    ("baselines", "dataset_version"): Case("2026-10", "2025-01", False),
    ("baselines", "fingerprint"): Case(None, s.FINGERPRINT, False),
    ("baselines", "judge"): Case(s.JUDGE_MODEL, "other/grader", False),
    ("baselines", "scorecard"): Case(None, "saved.json", False),
    ("baselines", "rows"): Case(None, "rows.parquet", False),
    # A gating check's definition is its bar: any edit may let more through.
    ("checks", "run"): Case("pytest -q", "true", True, back=True),
    ("checks", "shell"): Case(None, "make test", True, back=True),
    ("checks", "file_exists"): Case(None, "docs/card.md", True, back=True),
    ("checks", "regex"): Case(None, "qa-gold", True, back=True),
    ("checks", "in_file"): Case(None, "docs/card.md", True, back=True),
    ("checks", "non_empty"): Case(False, True, True, back=True),
    ("checks", "timeout"): Case(600, 60, True, back=True),
    ("checks", "cwd"): Case(None, "sub", True, back=True),
    ("checks", "expect_exit"): Case(0, 1, True, back=True),
    ("checks", "tier"): Case(Tier.FULL, Tier.FAST, True, back=True),
    ("checks", "cache"): Case(True, False, True, back=True),
    ("success", "min_gates"): Case(2, 1, True),
    ("success", "mode"): Case(SuccessMode.ALL, SuccessMode.PERCENTAGE, True),
    ("success", "min_pass_rate"): Case(0.95, 0.9, True),
    ("success", "must_pass"): Case((s.METRIC, "check/unit-tests"), (s.METRIC,), True),
    ("success", "max_attempts"): Case(1, 2, True),
}
# Dates that say when something happened, not when it ends: nothing expires by them.
DATES_THAT_DO_NOT_EXPIRE = {("thresholds", "approved_on")}


def test_every_declared_field_has_a_case() -> None:
    """The table of cases covers exactly the declared fields: a new field needs its case."""
    assert set(CASES) == _declared()


def _world() -> HostRecords:
    """A metric that can gate on a judge, a regression bar and a baseline; a gating check; a
    success policy; every record present for a field to be changed in."""
    records = s.records(s.State(judge=Calibration.CALIBRATED, evidence="met", baseline="comparable",
                                grader="judge"))  # fmt: skip
    threshold = attrs.evolve(records.thresholds[s.METRIC], max_drop=0.05)
    return attrs.evolve(
        records,
        metrics={**records.metrics, f"check/{CHECK}": MetricRecord(status=MetricStatus.GATING)},
        thresholds={s.METRIC: threshold},
        checks={CHECK: CheckRecord(run="pytest -q", timeout=600)},
        success=SuccessPolicy(mode=SuccessMode.PERCENTAGE, min_pass_rate=0.95),
    )


def _record_id(kind: str) -> str:
    return {"datasets": s.DATASET, "policies": s.DATASET, "judges": s.JUDGE, "checks": CHECK,
            "success": "success"}.get(kind, s.METRIC)  # fmt: skip


def _with(records: HostRecords, kind: str, name: str, value: object) -> HostRecords:
    """`records` with one field of the kind's record set to `value`."""
    record_id = _record_id(kind)
    record = records.success if kind == "success" else getattr(records, kind)[record_id]
    assert record is not None
    parent, _, sub = name.partition(".")
    if sub:
        block = getattr(record, parent)
        value = attrs.evolve(block, **{sub: value})
    record = attrs.evolve(record, **{parent: value})
    if kind == "success":
        return attrs.evolve(records, success=record)
    return attrs.evolve(records, **{kind: {**getattr(records, kind), record_id: record}})


def _rows(kind: str, name: str, a: object, b: object) -> tuple[set[Kind], bool]:
    """The sorts of the rows diff shows in the field's own file when it moves from a to b, and
    whether any of them is loosening."""
    world = _world()
    base, head = _with(world, kind, name, a), _with(world, kind, name, b)
    found = diff(base, head, evaluated_on=s.TODAY)
    file = KINDS[kind].filename
    # What the change does to authority is the resolver's: its rows are not the field's own.
    authority = (Kind.GAINS_AUTHORITY, Kind.LOSES_AUTHORITY)
    own = [
        c for c in found.changes
        if c.file == file and c.id == _record_id(kind) and c.kind not in authority
    ]  # fmt: skip
    loose = [c for c in found.loosening if c in own]
    return {c.kind for c in own}, bool(loose)


@pytest.mark.parametrize(("kind", "name"), sorted(CASES))
def test_diff_weighs_every_declared_field(kind: str, name: str) -> None:
    """A field's change is shown in its file, and is loosening (refused by --fail-on-loosen)
    exactly in the direction the docs say lets more runs through."""
    case = CASES[kind, name]
    shown, loose = _rows(kind, name, case.a, case.b)
    back, loose_back = _rows(kind, name, case.b, case.a)
    assert shown and back, "diff shows no change"
    assert loose is case.looser
    assert loose_back is case.back


def _expiring_fields() -> list[tuple[str, str]]:
    return sorted((spec.kind, f.name) for spec in KINDS.values() for f in spec.having(Role.EXPIRES))


def test_every_date_either_expires_or_is_known_not_to() -> None:
    """Each date field is declared to expire (doctor and explain read it), or is a date of
    record that nothing expires by."""
    dates = {(spec.kind, f.name) for spec in KINDS.values() for f in spec.fields
             if f.type is dt.date}  # fmt: skip
    assert dates == set(_expiring_fields()) | DATES_THAT_DO_NOT_EXPIRE


@pytest.mark.parametrize(("kind", "name"), _expiring_fields())
@pytest.mark.parametrize(("days", "warned"), [(0, True), (10, True), (30, True), (31, False)])
def test_doctor_warns_before_every_declared_expiry(
    kind: str, name: str, days: int, warned: bool
) -> None:
    """A record whose declared last day is within 30 days of the evaluation date is a warning
    naming the reason code it will raise; later than that, nothing."""
    records = _with(_world(), kind, name, s.TODAY + dt.timedelta(days=days))
    code = KINDS[kind].field(name).expired
    assert code is not None
    found = [
        f for f in diagnose(records, None, s.TODAY).findings
        if f.subject == _record_id(kind) and f"({code.value})" in f.message
    ]  # fmt: skip
    assert bool(found) is warned
    assert all(f.severity is Severity.WARNING for f in found)


@pytest.mark.parametrize(("kind", "name"), _expiring_fields())
def test_diff_lists_every_declared_expiry(kind: str, name: str) -> None:
    """diff lists a record at head whose declared last day is near, in its file."""
    records = _with(_world(), kind, name, s.TODAY + dt.timedelta(days=3))
    rows = diff(records, records, evaluated_on=s.TODAY).changes
    assert [c.kind for c in rows if c.file == KINDS[kind].filename] in (
        [Kind.APPROVAL_EXPIRING],
        [Kind.RECORD_EXPIRING],
    )


@pytest.mark.parametrize(("kind", "name"), _expiring_fields())
def test_explain_renews_every_declared_expiry(kind: str, name: str) -> None:
    """A metric whose records hold a declared date now past gets an edit of that date, and the
    edited records let it gate."""
    records = _with(s.records(s.State()), kind, name, s.TODAY - dt.timedelta(days=1))
    measurement = s.measurement(s.State())
    assert resolve(s.METRIC, records, measurement, evaluated_on=s.TODAY).outcome is not (
        Outcome.CAN_GATE
    )
    plan = checklist(s.METRIC, records, measurement, evaluated_on=s.TODAY)
    assert (kind, _record_id(kind), name) in {(e.kind, e.record, e.field) for e in plan.edits}
    edited = apply(records, plan.edits)
    assert resolve(s.METRIC, edited, measurement, evaluated_on=s.TODAY).outcome is (
        Outcome.CAN_GATE
    )


def _documented(kind: str) -> dict[str, str]:
    """Each row of the field tables under `## KIND.yaml`: its first cell, and its meaning."""
    text = (ROOT / "docs" / "host-records.md").read_text(encoding="utf-8")
    section = text.split(f"\n## {KINDS[kind].filename}\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and cells[0] not in ("field", "sub-field"):
            rows[cells[0]] = cells[3]
    return rows


@pytest.mark.parametrize(("kind", "name"), sorted(CASES))
def test_docs_document_every_declared_field(kind: str, name: str) -> None:
    """docs/host-records.md has a row for each field and sub-field, with its declared meaning."""
    parent, _, sub = name.partition(".")
    field = KINDS[kind].field(parent)
    if sub:
        (field,) = (f for f in field.fields if f.name == sub)
    assert _documented(kind).get(sub or parent) == field.doc.meaning
