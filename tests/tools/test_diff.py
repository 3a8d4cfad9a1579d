"""The authority diff: every change a reviewer must see, and which ones loosen gating."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import subprocess
from pathlib import Path

import attrs
import pytest

from evalglass.evidence.model import Evidence
from evalglass.records.model import (
    Approval,
    Calibration,
    CheckRecord,
    Decision,
    HostRecords,
    MetricRecord,
    MetricStatus,
    Op,
    Scale,
    SuccessMode,
    SuccessPolicy,
    ThresholdRecord,
)
from evalglass.tiers import Tier
from evalglass.tools import records_diff
from evalglass.tools.records_diff import Kind, RecordsDiff
from tests import states as s
from tests.cli_runner import cli
from tests.shell.test_cli import EXAMPLE_OUTPUT, EXAMPLE_RECORDS


def diff(
    base: HostRecords, head: HostRecords, evidence: Evidence | None = None, **names: str
) -> RecordsDiff:
    """The diff as of the states' evaluation date."""
    return records_diff.diff(base, head, evidence, evaluated_on=s.TODAY, **names)


def threshold(op: Op, value: float, by: str = "@alice") -> ThresholdRecord:
    return ThresholdRecord(
        op=op,
        value=value,
        approval=Approval.APPROVED,
        approved_by=by,
        approved_on=dt.date(2026, 11, 1),
        approved_for=s.approved_for(s.State(), names_judge=False),
    )


def loosens(old: tuple[Op, float], new: tuple[Op, float]) -> bool:
    """Independent statement: does `new` admit some value that `old` rejected?"""

    def admits(rule: tuple[Op, float], x: float) -> bool:
        return rule[0].holds(x, rule[1])

    probes = [v + d for v in (0.5, 0.6) for d in (-1e-9, 0, 1e-9)]
    return any(admits(new, x) and not admits(old, x) for x in probes)


RULES = [(op, v) for op in Op for v in (0.5, 0.6)]


@pytest.mark.parametrize(
    ("old", "new"), [p for p in itertools.product(RULES, RULES) if p[0] != p[1]]
)
def test_threshold_direction_table(old, new) -> None:
    """Every pair of rules: loosened exactly when the new rule admits a value the old rejected."""
    base = attrs.evolve(s.records(s.State()), thresholds={s.METRIC: threshold(*old)})
    head = attrs.evolve(base, thresholds={s.METRIC: threshold(*new)})
    kinds = {c.kind for c in diff(base, head).changes}
    want = Kind.THRESHOLD_LOOSENED if loosens(old, new) else Kind.THRESHOLD_TIGHTENED
    assert want in kinds
    assert kinds & {Kind.THRESHOLD_LOOSENED, Kind.THRESHOLD_TIGHTENED} == {want}


def test_gain_without_new_approval_is_loosening() -> None:
    """A metric promoted by a calibration edit alone gains authority with no new approval."""
    base = s.records(s.State(judge=Calibration.CALIBRATING))
    head = s.records(s.State(judge=Calibration.CALIBRATED))
    result = diff(base, head, None)
    gains = [c for c in result.changes if c.kind is Kind.GAINS_AUTHORITY]
    assert len(gains) == 1 and gains[0].unapproved
    assert gains[0] in result.loosening
    assert [c.kind for c in result.changes][1:] == [Kind.RECORD_CHANGED]


def test_gain_with_a_new_approval_is_not_loosening() -> None:
    """Approving a proposed threshold in the same change is a reviewed gain, not loosening."""
    base = s.records(s.State(threshold=Approval.PROPOSED))
    head = s.records(s.State())
    result = diff(base, head)
    assert [c.kind for c in result.changes] == [Kind.GAINS_AUTHORITY, Kind.APPROVAL_CHANGED]
    assert result.loosening == ()


def test_demotion_and_record_removal_are_shown() -> None:
    """Removing a policy demotes the metric to blocked and shows the removed record."""
    base = s.records(s.State())
    head = attrs.evolve(base, policies={})
    kinds = [c.kind for c in diff(base, head).changes]
    assert kinds == [Kind.LOSES_AUTHORITY, Kind.RECORD_REMOVED]


def test_no_change_no_rows() -> None:
    """Identical records: no changes at all."""
    records = s.records(s.State())
    assert diff(records, records).changes == ()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository whose main commit holds the example records."""

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    (tmp_path / "host_records").mkdir()
    for f in EXAMPLE_RECORDS.iterdir():
        (tmp_path / "host_records" / f.name).write_bytes(f.read_bytes())
    (tmp_path / "run.json").write_bytes(EXAMPLE_OUTPUT.read_bytes())
    git("add", ".")
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    return tmp_path


def test_diff_cli_flags_a_loosened_threshold(repo: Path) -> None:
    """`diff --fail-on-loosen` exits 1 for a lowered >= bound and says which."""
    path = repo / "host_records/thresholds.yaml"
    path.write_text(path.read_text().replace("value: 0.85", "value: 0.8"))
    result = cli("diff", "--base", "main", "run.json", cwd=repo)
    assert result.returncode == 0
    assert "threshold_loosened" in result.stdout and "qa/exact_match" in result.stdout
    assert cli("diff", "--base", "main", "--fail-on-loosen", cwd=repo).returncode == 1


def test_diff_cli_flags_a_widened_regression_allowance(repo: Path) -> None:
    """A larger allowed drop lets a regression through that was stopped: --fail-on-loosen
    exits 1, even beside a raised absolute bar; removing the allowance is a loosening too."""
    path = repo / "host_records/thresholds.yaml"
    original = path.read_text()
    path.write_text(original.replace("    value: 0.85\n", "    value: 0.85\n    max_drop: 0.02\n"))
    subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "drop"],
        cwd=repo,
        check=True,
        capture_output=True,
    )
    path.write_text(original.replace("    value: 0.85\n", "    value: 0.9\n    max_drop: 0.2\n"))
    widened = cli("diff", "--base", "main", "--fail-on-loosen", cwd=repo)
    assert widened.returncode == 1, widened.stdout + widened.stderr
    assert "threshold_loosened" in widened.stdout
    assert ">= 0.85 and max drop 0.02 (approved) → >= 0.9 and max drop 0.2 (approved)" in (
        widened.stdout
    )
    path.write_text(original)  # the allowance removed
    assert cli("diff", "--base", "main", "--fail-on-loosen", cwd=repo).returncode == 1


def test_records_ref_ignores_working_tree_edits(repo: Path) -> None:
    """A pull request's own edits cannot grant authority when records come from the base ref."""
    path = repo / "host_records/judges.yaml"
    path.write_text(path.read_text().replace("calibrating", "calibrated"))
    trusted = cli("score", "run.json", "--records-ref", "main", cwd=repo)
    edited = cli("score", "run.json", cwd=repo)
    assert trusted.stdout.startswith("PASS — 1 gate enforced")
    assert edited.stdout.startswith("PASS — 2 gates enforced")


def test_missing_ref_says_how_to_fetch(repo: Path) -> None:
    """A ref the clone lacks is an input error (exit 4) that says how to fetch it."""
    result = cli("score", "run.json", "--records-ref", "origin/main", cwd=repo)
    assert result.returncode == 4
    assert "git fetch --depth=1 origin main" in result.stderr
    assert len(result.stderr.splitlines()) == 1


# Every threshold bar of one direction: absolute value, allowed drop and allowed relative drop,
# each present or not (at least one present), under each op of that direction.
def _bars(ops: tuple[Op, ...]) -> list[ThresholdRecord]:
    bars = []
    for op, value, drop, relative in itertools.product(
        ops, (None, 0.5, 0.6), (None, 0.02, 0.05), (None, 0.1, 0.2)
    ):
        if value is None and drop is None and relative is None:
            continue
        bars.append(
            ThresholdRecord(
                op=op,
                value=value,
                max_drop=drop,
                max_relative_drop=relative,
                approval=Approval.APPROVED,
                approved_by="@alice",
                approved_on=dt.date(2026, 11, 1),
            )
        )
    return bars


def admits(bar: ThresholdRecord, x: float, drop: float, relative: float) -> bool:
    """Independent statement of a bar: the value passes its rule and the regression (a drop for
    >=, a rise for <=) is within each allowance given."""
    return (
        (bar.value is None or bar.op.holds(x, bar.value))
        and (bar.max_drop is None or drop <= bar.max_drop)
        and (bar.max_relative_drop is None or relative <= bar.max_relative_drop)
    )


_PROBES = list(
    itertools.product(
        [v + d for v in (0.5, 0.55, 0.6) for d in (-1e-9, 0, 1e-9)],
        [v + d for v in (0.0, 0.02, 0.035, 0.05, 0.09) for d in (-1e-9, 0, 1e-9)],
        [v + d for v in (0.0, 0.1, 0.15, 0.2, 0.3) for d in (-1e-9, 0, 1e-9)],
    )
)


@pytest.mark.parametrize("ops", [(Op.GE, Op.GT), (Op.LE, Op.LT)], ids=["higher", "lower"])
def test_threshold_bar_table(ops: tuple[Op, ...]) -> None:
    """Every pair of bars of one direction, regression allowances included: loosened exactly when
    the new bar admits something the old rejected (whatever it tightens elsewhere), tightened
    when only the reverse holds, and any other edit still shown as a change."""
    bars = _bars(ops)
    base = s.records(s.State())
    # Each bar's admitted probes once, as a bit set: the pairs below compare them many times.
    admitted = [sum(1 << i for i, p in enumerate(_PROBES) if admits(bar, *p)) for bar in bars]
    verdicts = {}
    for (old, old_admits), (new, new_admits) in itertools.product(
        zip(bars, admitted, strict=True), repeat=2
    ):
        if old == new:
            continue
        changes = diff(
            attrs.evolve(base, thresholds={s.METRIC: old}),
            attrs.evolve(base, thresholds={s.METRIC: new}),
        ).changes
        # What the edit does to authority (a regression bar needs a baseline) is tested above.
        kinds = [c.kind for c in changes if c.file == "thresholds.yaml"]
        looser = bool(new_admits & ~old_admits)  # a probe the new bar admits, the old did not
        tighter = bool(old_admits & ~new_admits)
        want = (
            Kind.THRESHOLD_LOOSENED
            if looser
            else Kind.THRESHOLD_TIGHTENED
            if tighter
            else Kind.RECORD_CHANGED
        )
        assert kinds == [want], (old, new, kinds)
        verdicts[want] = verdicts.get(want, 0) + 1
    # The table reaches every outcome, so no branch of it is vacuous.
    assert set(verdicts) == {Kind.THRESHOLD_LOOSENED, Kind.THRESHOLD_TIGHTENED, Kind.RECORD_CHANGED}


def test_warn_bound_edit_is_shown_and_does_not_loosen() -> None:
    """Moving the warn bound changes no pass or fail: shown as a change, not a loosening."""
    old = threshold(Op.GE, 0.8)
    new = attrs.evolve(old, warn_value=0.9)
    base = attrs.evolve(s.records(s.State()), thresholds={s.METRIC: old})
    result = diff(base, attrs.evolve(base, thresholds={s.METRIC: new}))
    assert [(c.kind, c.detail) for c in result.changes] == [
        (Kind.RECORD_CHANGED, "warn_value: None → 0.9")
    ]
    assert result.loosening == ()


# Every metrics.yaml field that changes what a gate lets through, over values on both sides of
# the defaults, and a semantic statement of what a record admits, written apart from the code.
_METRIC_FIELDS = {
    "min_samples": (1, 10, 100),
    "decision": (Decision.BOUND, Decision.POINT),
    "interval_level": (0.8, 0.95, 0.99),
    "max_missing_fraction": (0.0, 0.05, 0.2),
    "requires_baseline": (False, True),
}
_Z = {0.8: 1.2816, 0.95: 1.96, 0.99: 2.5758}
# (n, fraction of samples missing, a baseline exists, value, standard error), against a bar 0.8.
_RUNS = list(
    itertools.product(
        (1, 5, 10, 50, 100, 500),
        (0.0, 0.03, 0.1, 0.5),
        (False, True),
        (0.79, 0.85),
        (0.01, 0.02, 0.03, 0.05),
    )
)


def admits_run(record: MetricRecord, run: tuple[int, float, bool, float, float]) -> bool:
    """Would a gate under this record pass this run? Enough samples, few enough missing, a
    baseline when one is required, and the compared number (the value for a point decision,
    the lower end of the interval at the record's level for a bound) clears 0.8."""
    n, missing, has_baseline, value, se = run
    compared = (
        value if record.decision is Decision.POINT else value - _Z[record.interval_level] * se
    )
    return (
        n >= record.min_samples
        and missing <= record.max_missing_fraction
        and (has_baseline or not record.requires_baseline)
        and compared >= 0.8
    )


def _metric_records() -> list[MetricRecord]:
    return [
        MetricRecord(
            status=MetricStatus.GATING, dataset=s.DATASET, **dict(zip(_METRIC_FIELDS, values))
        )
        for values in itertools.product(*_METRIC_FIELDS.values())
    ]


_AUTHORITY_KINDS = {Kind.GAINS_AUTHORITY, Kind.LOSES_AUTHORITY}


def test_metric_field_direction_table() -> None:
    """Every pair of metric records over the fields that decide what passes: loosened exactly
    when the new record lets through a run the old one stopped (whatever it tightens elsewhere),
    tightened when only the reverse holds, a plain change when no run moves; a loosening
    counts for --fail-on-loosen."""
    records = _metric_records()
    base = s.records(s.State())
    # Each record's passing runs once, as a bit set: the pairs below compare them many times.
    passing = [sum(1 << i for i, r in enumerate(_RUNS) if admits_run(rec, r)) for rec in records]
    seen: dict[Kind, int] = {}
    for (old, old_passes), (new, new_passes) in itertools.product(
        zip(records, passing, strict=True), repeat=2
    ):
        if old == new:
            continue
        result = diff(
            attrs.evolve(base, metrics={s.METRIC: old}), attrs.evolve(base, metrics={s.METRIC: new})
        )
        rows = [c for c in result.changes if c.kind not in _AUTHORITY_KINDS]
        looser = bool(new_passes & ~old_passes)  # a run the new record passes, the old did not
        tighter = bool(old_passes & ~new_passes)
        want = [Kind.METRIC_LOOSENED] if looser else [Kind.METRIC_TIGHTENED] if tighter else []
        # Between two point rules the interval level compares nothing: a plain change.
        if (
            Decision.POINT is old.decision is new.decision
            and old.interval_level != new.interval_level
        ):
            want.append(Kind.RECORD_CHANGED)
        assert want, (old, new)
        assert [(c.kind, c.file) for c in rows] == [(k, "metrics.yaml") for k in want], (old, new)
        assert bool(result.loosening) is looser
        for kind in want:
            seen[kind] = seen.get(kind, 0) + 1
    assert set(seen) == {Kind.METRIC_LOOSENED, Kind.METRIC_TIGHTENED, Kind.RECORD_CHANGED}


@pytest.mark.parametrize(
    ("field", "old", "new", "kind"),
    [
        ("min_samples", 100, 10, Kind.METRIC_LOOSENED),
        ("min_samples", 10, 100, Kind.METRIC_TIGHTENED),
        ("decision", Decision.BOUND, Decision.POINT, Kind.METRIC_LOOSENED),
        ("decision", Decision.POINT, Decision.BOUND, Kind.METRIC_TIGHTENED),
        ("interval_level", 0.95, 0.8, Kind.METRIC_LOOSENED),
        ("interval_level", 0.8, 0.95, Kind.METRIC_TIGHTENED),
        ("max_missing_fraction", 0.0, 0.1, Kind.METRIC_LOOSENED),
        ("max_missing_fraction", 0.1, 0.0, Kind.METRIC_TIGHTENED),
        ("requires_baseline", True, False, Kind.METRIC_LOOSENED),
        ("requires_baseline", False, True, Kind.METRIC_TIGHTENED),
        ("scale", None, Scale.PROPORTION, Kind.METRIC_LOOSENED),
        ("scale", Scale.UNIT, Scale.PROPORTION, Kind.METRIC_LOOSENED),
        ("scale", Scale.PROPORTION, None, Kind.METRIC_TIGHTENED),
    ],
)
def test_each_metric_field_move_names_the_field(field: str, old, new, kind: Kind) -> None:
    """One field moved: one row of its kind, saying which field moved from what to what; the
    same edit beside a status change still loosens, and the status change is shown apart."""
    record = MetricRecord(status=MetricStatus.GATING, dataset=s.DATASET)
    base = attrs.evolve(
        s.records(s.State()), metrics={s.METRIC: attrs.evolve(record, **{field: old})}
    )
    moved = attrs.evolve(base.metrics[s.METRIC], **{field: new})

    def shown(value: object) -> str:
        return value.value if isinstance(value, Decision | Scale) else str(value)

    detail = f"{field}: {shown(old)} → {shown(new)}"
    changes = diff(base, attrs.evolve(base, metrics={s.METRIC: moved})).changes
    rows = [(c.kind, c.detail) for c in changes if c.kind not in _AUTHORITY_KINDS]
    assert rows == [(kind, detail)]
    both = attrs.evolve(moved, status=MetricStatus.INFORMATIONAL)
    result = diff(base, attrs.evolve(base, metrics={s.METRIC: both}))
    rows = [(c.kind, c.detail) for c in result.changes if c.kind not in _AUTHORITY_KINDS]
    assert rows == [(kind, detail), (Kind.RECORD_CHANGED, "status: gating → informational")]
    assert any(c.kind is Kind.METRIC_LOOSENED for c in result.loosening) is (
        kind is Kind.METRIC_LOOSENED
    )


@pytest.mark.parametrize(
    ("old", "new", "loosens"),
    [
        ("    min_samples: 100\n", "    min_samples: 10\n", True),
        ("    min_samples: 100\n", "    min_samples: 100\n    decision: point\n", True),
        ("    min_samples: 100\n", "    min_samples: 100\n    interval_level: 0.8\n", True),
        ("    min_samples: 100\n", "    min_samples: 100\n    max_missing_fraction: 0.2\n", True),
        ("    min_samples: 100\n", "    min_samples: 500\n", False),
        ("    min_samples: 100\n", "    min_samples: 100\n    interval_level: 0.99\n", False),
    ],
)
def test_diff_cli_flags_a_loosened_metric_record(
    repo: Path, old: str, new: str, loosens: bool
) -> None:
    """`diff --fail-on-loosen` in a real repository: a metrics.yaml edit that weakens a gate
    exits 1 and names the field; one that strengthens it exits 0 and says so."""
    path = repo / "host_records/metrics.yaml"
    text = path.read_text()
    assert text.count(old) >= 1
    path.write_text(text.replace(old, new, 1))
    result = cli("diff", "--base", "main", "--fail-on-loosen", cwd=repo)
    assert result.returncode == (1 if loosens else 0), result.stdout + result.stderr
    assert ("metric_loosened" if loosens else "metric_tightened") in result.stdout
    assert "qa/exact_match" in result.stdout


def test_diff_cli_flags_a_dropped_baseline_requirement(repo: Path) -> None:
    """requires_baseline removed from a metric record is a loosening the diff refuses."""
    path = repo / "host_records/metrics.yaml"
    path.write_text(
        path.read_text().replace(
            "    min_samples: 100\n", "    min_samples: 100\n    requires_baseline: yes\n", 1
        )
    )
    subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "req"],
        cwd=repo,
        check=True,
        capture_output=True,
    )
    path.write_text(path.read_text().replace("    requires_baseline: yes\n", "", 1))
    result = cli("diff", "--base", "main", "--fail-on-loosen", cwd=repo)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "requires_baseline: True → False" in result.stdout


# --- approvals: made stale, expiring, loosened --------------------------------------------------


def _with_threshold(records: HostRecords, **fields: object) -> HostRecords:
    threshold = attrs.evolve(records.thresholds[s.METRIC], **fields)
    return attrs.evolve(records, thresholds={s.METRIC: threshold})


def test_a_dataset_bump_lists_the_approval_it_makes_stale() -> None:
    """A new dataset version in datasets.yaml, with the threshold untouched: the approval is
    listed as made stale, naming the dimension and both values; a change that leaves an already
    stale approval stale does not list it again."""
    base = s.records(s.State())
    head = attrs.evolve(
        base, datasets={s.DATASET: attrs.evolve(base.datasets[s.DATASET], version="2026-11")}
    )
    stale = [c for c in diff(base, head).changes if c.kind is Kind.APPROVAL_STALE]
    assert [(c.file, c.id, c.detail) for c in stale] == [
        (
            "thresholds.yaml",
            s.METRIC,
            (
                "approved by @alice on 2026-11-01 no longer describes the records: dataset version: "
                "approved '2026-10', dataset 'qa-gold' is at '2026-11'"
            ),
        ),
    ]
    assert stale[0] not in diff(base, head).loosening
    again = attrs.evolve(head, policies={})
    assert [c for c in diff(head, again).changes if c.kind is Kind.APPROVAL_STALE] == []


@pytest.mark.parametrize(
    ("days", "listed"),
    [
        (-3, "its approval expired: its last day was 2026-11-27, 3 days before 2026-11-30"),
        (0, "its approval's last day is today, 2026-11-30"),
        (1, "its approval's last day is 2026-12-01, in 1 day"),
        (30, "its approval's last day is 2026-12-30, in 30 days"),
        (31, None),
    ],
)
def test_approvals_expiring_within_30_days_are_listed(days: int, listed: str | None) -> None:
    """An approved threshold at head whose expires_on is within 30 days of the evaluation date
    (or past) is listed with its last day, whatever the change touched; beyond 30 days, not."""
    records = _with_threshold(s.records(s.State()), expires_on=s.TODAY + dt.timedelta(days=days))
    found = [c.detail for c in diff(records, records).changes if c.kind is Kind.APPROVAL_EXPIRING]
    want = [] if listed is None else [f"approved by @alice on 2026-11-01: {listed}"]
    assert found == want


def _loosened(old: ThresholdRecord, new: ThresholdRecord) -> list[str]:
    base = _with_threshold(s.records(s.State()))
    before = attrs.evolve(base, thresholds={s.METRIC: old})
    after = attrs.evolve(base, thresholds={s.METRIC: new})
    result = diff(before, after)
    found = [c for c in result.changes if c.kind is Kind.APPROVAL_LOOSENED]
    assert all(c in result.loosening for c in found)
    return [c.detail for c in found]


BOUND = s.approved_for(s.State(), names_judge=True)
# The approved threshold the approval tests start from, bound to a judge as well.
APPROVED = attrs.evolve(threshold(Op.GE, 0.8), approved_for=BOUND)
REMOVED = (
    "approved_for removed (was dataset_version '2026-10', fingerprint 'sha256:9f2c', "
    "judge_model 'openai:gpt-4.1')"
)


@pytest.mark.parametrize(
    ("change", "new_approval", "loosens"),
    [
        ({"approved_for": None}, False, REMOVED),
        ({"approved_for": None}, True, REMOVED),
        (
            {"approved_for": attrs.evolve(BOUND, fingerprint=None)},
            True,
            "approved_for.fingerprint: 'sha256:9f2c' → none (removed: it now vouches for any)",
        ),
        (
            {"approved_for": attrs.evolve(BOUND, judge_model=None)},
            False,
            "approved_for.judge_model: 'openai:gpt-4.1' → none (removed: it now vouches for any)",
        ),
        (
            {"approved_for": attrs.evolve(BOUND, dataset_version="2026-11")},
            False,
            (
                "approved_for.dataset_version: '2026-10' → '2026-11' without a new approval (approved_by "
                "and approved_on unchanged)"
            ),
        ),
        ({"approved_for": attrs.evolve(BOUND, dataset_version="2026-11")}, True, None),
        (
            {"expires_on": dt.date(2027, 6, 1)},
            False,
            (
                "expires_on: 2027-05-01 → 2027-06-01 without a new approval (approved_by and approved_on "
                "unchanged)"
            ),
        ),
        (
            {"expires_on": None},
            False,
            (
                "expires_on: 2027-05-01 → none (never expires) without a new approval (approved_by and "
                "approved_on unchanged)"
            ),
        ),
        ({"expires_on": dt.date(2027, 6, 1)}, True, None),
        ({"expires_on": dt.date(2027, 4, 1)}, False, None),
        (
            {"approved_for": attrs.evolve(BOUND, fingerprint="sha256:0000")},
            False,
            (
                "approved_for.fingerprint: 'sha256:9f2c' → 'sha256:0000' without a new approval "
                "(approved_by and approved_on unchanged)"
            ),
        ),
    ],
)
def test_removing_or_widening_an_approval_loosens(
    change: dict, new_approval: bool, loosens: str | None
) -> None:
    """--fail-on-loosen refuses approved_for removed or a part removed (with or without a new
    approval), and, without a new approval, approved_for moved or expires_on removed or moved
    later; a new approval may move them, and an earlier last day tightens."""
    old = attrs.evolve(APPROVED, expires_on=dt.date(2027, 5, 1))
    new = attrs.evolve(old, **change)
    if new_approval:
        new = attrs.evolve(new, approved_by="@bob", approved_on=dt.date(2026, 11, 20))
    assert _loosened(old, new) == ([] if loosens is None else [loosens])


def test_a_proposed_threshold_loosens_no_approval() -> None:
    """Taking approved_for off a threshold that is now only proposed grants nothing: the
    approval change is shown, no approval_loosened."""
    proposed = attrs.evolve(APPROVED, approval=Approval.PROPOSED, approved_for=None)
    assert _loosened(APPROVED, proposed) == []


def test_diff_cli_lists_expiring_approvals_as_of_a_date(repo: Path) -> None:
    """`diff --as-of`: the same records list an expiry within 30 days of that date, not of
    another; a re-binding without a new approval fails --fail-on-loosen."""
    path = repo / "host_records/thresholds.yaml"
    path.write_text(
        path.read_text().replace(
            "      dataset_version: '2026-10'\n\n  qa/helpfulness",
            "      dataset_version: '2026-10'\n    expires_on: 2027-05-01\n\n  qa/helpfulness",
        )
    )
    soon = cli("diff", "--base", "main", "--as-of", "2027-04-15", cwd=repo)
    assert soon.returncode == 0, soon.stderr
    assert "approval_expiring" in soon.stdout
    assert "its approval's last day is 2027-05-01, in 16 days" in soon.stdout
    later = cli("diff", "--base", "main", "--as-of", "2027-03-01", cwd=repo)
    assert "approval_expiring" not in later.stdout
    path.write_text(
        path.read_text().replace(
            "      dataset_version: '2026-10'\n    expires_on",
            "      dataset_version: '2026-11'\n    expires_on",
        )
    )
    moved = cli("diff", "--base", "main", "--fail-on-loosen", "--as-of", "2026-11-30", cwd=repo)
    assert moved.returncode == 1
    assert "approval_loosened" in moved.stdout


def _checked(status: MetricStatus, check: CheckRecord | None) -> HostRecords:
    return HostRecords(
        metrics={"check/unit": MetricRecord(status=status)},
        checks={} if check is None else {"unit": check},
    )


UNIT = CheckRecord(run="pytest -q", timeout=600)


def test_promoting_a_check_is_its_own_approval() -> None:
    """A check has no threshold to approve: its promotion to gating is not loosening."""
    result = diff(_checked(MetricStatus.INFORMATIONAL, UNIT), _checked(MetricStatus.GATING, UNIT))
    assert [(c.kind, c.unapproved) for c in result.changes] == [
        (Kind.GAINS_AUTHORITY, False),
        (Kind.RECORD_CHANGED, False),
    ]
    assert result.loosening == ()


@pytest.mark.parametrize(
    "edited",
    [
        attrs.evolve(UNIT, run="true"),
        attrs.evolve(UNIT, expect_exit=1),
        attrs.evolve(UNIT, timeout=60),
        attrs.evolve(UNIT, tier=Tier.FAST),
    ],
)
def test_editing_a_gating_checks_definition_is_loosening(edited: CheckRecord) -> None:
    """Any edit to the definition of a check that gates may weaken it: `check_changed`, refused
    by --fail-on-loosen; the same edit to an informational check is a plain change."""
    gating = diff(_checked(MetricStatus.GATING, UNIT), _checked(MetricStatus.GATING, edited))
    assert [c.kind for c in gating.changes] == [Kind.CHECK_CHANGED]
    assert gating.loosening == gating.changes
    info = diff(
        _checked(MetricStatus.INFORMATIONAL, UNIT), _checked(MetricStatus.INFORMATIONAL, edited)
    )
    assert [c.kind for c in info.changes] == [Kind.RECORD_CHANGED]
    assert info.loosening == ()


def test_removing_a_gating_checks_definition_blocks_and_is_shown() -> None:
    """Its metric turns blocked (dangling), and the removed record is listed."""
    result = diff(_checked(MetricStatus.GATING, UNIT), _checked(MetricStatus.GATING, None))
    assert [(c.kind, c.file) for c in result.changes] == [
        (Kind.LOSES_AUTHORITY, "metrics.yaml"),
        (Kind.RECORD_REMOVED, "checks.yaml"),
    ]


_POLICIES = [
    SuccessPolicy(
        min_gates=gates,
        mode=SuccessMode.ALL if rate is None else SuccessMode.PERCENTAGE,
        min_pass_rate=rate,
        must_pass=must,
        max_attempts=attempts,
    )
    for gates in (0, 1, 2)
    for rate in (None, 0.9, 0.5)
    for must in ((), ("a",), ("a", "b"), ("b", "a"))
    for attempts in (1, 2, 3)
]
# A run, as a success policy sees it: how many gates were enforced and how many of them passed,
# which of the ids a policy can name were enforced and passed, and the latest attempt any
# passing gate needed. A run where nothing gated is among them.
_POLICY_RUNS = [(0, 0, frozenset(), 1)] + [
    (gates, passed, frozenset(named), attempt)
    for gates in (1, 2, 3, 10)
    for passed in range(gates + 1)
    for named in ((), ("a",), ("b",), ("a", "b"))
    for attempt in (1, 2, 3)
    if len(named) <= passed  # a must_pass id that passed is one of the gates that passed
]


def _passes(policy: SuccessPolicy, run: tuple[int, int, frozenset[str], int]) -> bool:
    """Whether the build goes on (exit 0), by DESIGN.md's success policy written out for the
    runs above: enough gates enforced (a run where nothing gated goes on only when none is
    required, as informational), the share that must pass passing (all of them, for mode
    all), every must_pass id enforced and passed, and no gate passing on a later attempt than
    max_attempts."""
    gates, passed, named, attempt = run
    if gates == 0:
        return policy.min_gates == 0 and not policy.must_pass
    share = 1.0 if policy.mode is SuccessMode.ALL else policy.min_pass_rate
    return (
        gates >= policy.min_gates
        and passed / gates >= share
        and set(policy.must_pass) <= named
        and attempt <= policy.max_attempts
    )


def test_success_policy_direction_table() -> None:
    """Every pair of success policies over the fields that decide a run: loosened exactly when
    the new policy passes a run the old one failed, tightened when only the reverse holds, a
    plain change when no run moves (must_pass reordered); a loosening counts for
    --fail-on-loosen. No success.yaml is the default policy."""
    wrong = []
    passing = {p: frozenset(r for r in _POLICY_RUNS if _passes(p, r)) for p in _POLICIES}
    for old, new in itertools.product(_POLICIES, repeat=2):
        base = HostRecords(success=old)
        head = HostRecords(success=new)
        result = diff(base, head)
        lets, stops = bool(passing[new] - passing[old]), bool(passing[old] - passing[new])
        if old == new:
            want = []
        elif lets:
            want = [Kind.SUCCESS_LOOSENED]
        else:
            want = [Kind.SUCCESS_TIGHTENED] if stops else [Kind.RECORD_CHANGED]
        got = [c.kind for c in result.changes]
        if got != want or (bool(result.loosening) != lets):
            wrong.append((old, new, got, want))
    assert not wrong, f"{len(wrong)} pairs disagree, first: {wrong[0]}"
    unbounded = diff(HostRecords(), HostRecords(success=SuccessPolicy(max_attempts=3)))
    assert [(c.kind, c.file, c.detail) for c in unbounded.changes] == [
        (Kind.SUCCESS_LOOSENED, "success.yaml", "max_attempts: 2 → 3")
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("  mode: all\n", "  mode: all\n  max_attempts: 5\n"),
        ("  must_pass:\n    - qa/exact_match\n", ""),
        ("  mode: all\n", "  mode: percentage\n  min_pass_rate: 0.8\n"),
    ],
    ids=["more attempts", "must_pass dropped", "a share of the gates"],
)
def test_diff_cli_flags_a_loosened_success_policy(repo: Path, old: str, new: str) -> None:
    """An edit to success.yaml that lets a run pass that the old policy failed is shown as
    success_loosened and fails `diff --fail-on-loosen`; putting it back is no change."""
    path = repo / "host_records/success.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    result = cli("diff", "--base", "main", "--format", "json", cwd=repo)
    doc = json.loads(result.stdout)
    assert [(c["kind"], c["file"]) for c in doc["changes"]] == [
        ("success_loosened", "success.yaml")
    ]
    assert cli("diff", "--base", "main", "--fail-on-loosen", cwd=repo).returncode == 1
    path.write_text(text)
    assert cli("diff", "--base", "main", "--fail-on-loosen", cwd=repo).returncode == 0
