"""doctor: every problem in the records, as an error or a warning at its file and line."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalglass.core.decision import clears
from evalglass.core.exits import DOCTOR_CLEAN_EXIT, DOCTOR_ERRORS_EXIT
from evalglass.evidence import stats
from evalglass.evidence.model import Evidence, Interval, Measurement, Run
from evalglass.evidence.read import read_outputs
from evalglass.records.load import load_records
from evalglass.records.model import Op
from evalglass.render import Format
from evalglass.render.diagnosis import render
from evalglass.tools.diagnosis import (
    Diagnosis,
    Finding,
    Problem,
    Severity,
    diagnose,
    min_n_to_clear,
)
from tests.real_outputs import FIXTURES

FIXTURE = Path(__file__).parents[1] / "doctor_records"
TODAY = dt.date(2026, 11, 30)

RECORDS_ONLY = [
    (
        "rec/baselines.yaml:2: warning: baseline 'gone/metric' is used by nothing: metrics.yaml has "
        "no such metric [unused_record]"
    ),
    (
        "rec/datasets.yaml:11: warning: dataset 'unused-set' is used by nothing: no metric names it "
        "[unused_record]"
    ),
    (
        "rec/judges.yaml:5: warning: judge 'spare' is used by nothing: no metric names it "
        "[unused_record]"
    ),
    (
        "rec/metrics.yaml:2: error: metric 'a/gate' names dataset 'qa-gld', which has no record in "
        "datasets.yaml (did you mean 'qa-gold'?) [dangling_reference]"
    ),
    (
        "rec/metrics.yaml:2: error: dataset 'qa-gld' has no policy in policies.yaml, and gating "
        "metric 'a/gate' uses it: it blocks (policy_not_permitted) until data governance sets one "
        "[no_policy]"
    ),
    (
        "rec/metrics.yaml:2: warning: metric 'a/gate': min_samples 10 is below 35, the smallest n at "
        "which even a perfect score's 95% Wilson lower bound clears >= 0.9: a proportion measured on "
        "fewer samples can only fail [min_samples_too_low]"
    ),
    (
        "rec/metrics.yaml:5: error: metric 'b/judged' is configured to gate on judge 'grader', which "
        "is calibrating: it stays informational until the judge is calibrated [uncalibrated_judge]"
    ),
    (
        "rec/metrics.yaml:10: warning: metric 'c/point' gates with decision: point, a low-assurance "
        "rule: it compares the value itself, so sampling noise alone can pass or fail it "
        "[point_decision]"
    ),
    (
        "rec/metrics.yaml:14: warning: metric 'd/info' is informational and would block once "
        "promoted: policy_not_permitted: data policy is restricted for dataset 'restricted-set' "
        "[would_block]"
    ),
    (
        "rec/metrics.yaml:17: error: metric 'e/retired' is authorized to gate and blocked: "
        "dataset_retired: dataset 'retired-set' is retired [blocked_gate]"
    ),
    (
        "rec/policies.yaml:8: warning: policy 'old-set' is used by nothing: no metric names its "
        "dataset [unused_record]"
    ),
    (
        "rec/thresholds.yaml:2: error: threshold 'a/gate' is approved on 2999-01-01, after the "
        "evaluation date (2026-11-30): an approval cannot come from the future [future_approval]"
    ),
    (
        "rec/thresholds.yaml:19: warning: threshold 'c/point' (approved by @alice on 2026-01-01): "
        "its approval's last day is 2026-12-15, in 15 days: approve it again by then, or it stops "
        "gating (approval_expired) [approval_expiring]"
    ),
    (
        "rec/thresholds.yaml:36: warning: threshold 'orphan' is used by nothing: metrics.yaml has no "
        "such metric [unused_record]"
    ),
]


@pytest.fixture
def rec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fixture records as `rec/`, so every finding names a short relative path."""
    shutil.copytree(FIXTURE, tmp_path / "rec")
    monkeypatch.chdir(tmp_path)
    return Path("rec")


def _diagnose(rec: Path, *outputs: str) -> Diagnosis:
    evidence = read_outputs(list(outputs)) if outputs else None
    return diagnose(load_records(rec), evidence, TODAY)


def test_every_problem_in_the_records_in_file_and_line_order(rec: Path) -> None:
    """Records alone: each problem once, sorted by file and line, then the summary line."""
    diagnosis = _diagnose(rec)
    assert render(diagnosis, Format.TERMINAL).splitlines() == [
        *RECORDS_ONLY,
        "4 metrics configured to gate (no outputs given); 5 errors, 9 warnings",
    ]
    assert diagnosis.exit_code == DOCTOR_ERRORS_EXIT


def test_outputs_add_unmeasured_gates_and_unrecorded_metrics(rec: Path) -> None:
    """With outputs, gating metrics nothing measures are errors; measured unrecorded ones warn."""
    diagnosis = _diagnose(rec, "rec/run.json")
    added = [
        f
        for f in diagnosis.findings
        if f.problem in (Problem.UNMEASURED_GATE, Problem.UNRECORDED_METRIC)
    ]
    assert [(f.where, f.severity, f.message) for f in added] == [
        (
            "rec/metrics.yaml:2",
            Severity.ERROR,
            (
                "metric 'a/gate' is configured to gate and no "
                "output given measures it: it blocks this run (value_missing)"
            ),
        ),
        (
            "rec/metrics.yaml:10",
            Severity.ERROR,
            (
                "metric 'c/point' is configured to gate and no "
                "output given measures it: it blocks this run (value_missing)"
            ),
        ),
        (
            "rec/metrics.yaml:17",
            Severity.ERROR,
            (
                "metric 'e/retired' is configured to gate and no "
                "output given measures it: it blocks this run (value_missing)"
            ),
        ),
        (
            "rec/run.json",
            Severity.WARNING,
            (
                "metric 'z/new' is measured and has no record in "
                "metrics.yaml, so it is informational (`evalglass metrics --skeleton` drafts one)"
            ),
        ),
    ]
    assert diagnosis.summary == (
        "4 metrics configured to gate; 3 measured by nothing given; 8 errors, 10 warnings"
    )


def test_an_unmeasured_gate_that_cannot_gate_yet_blocks_only_once_promoted(rec: Path) -> None:
    """A gating-status metric still informational (its judge calibrating) blocks only later."""
    (rec / "run.json").write_text('{"model": "m", "metrics": {"a/gate": 0.5}}')
    diagnosis = _diagnose(rec, "rec/run.json")
    judged = [
        f
        for f in diagnosis.findings
        if f.problem is Problem.UNMEASURED_GATE and f.subject == "b/judged"
    ]
    assert [f.message for f in judged] == [
        (
            "metric 'b/judged' is configured to gate and no output given measures it: once it can "
            "gate, it blocks (value_missing)"
        )
    ]


def test_warnings_alone_exit_clean() -> None:
    """Only warnings: exit 0; one error: exit 1; the codes come from the exit table."""
    warning = Finding(
        problem=Problem.POINT_DECISION, path="m.yaml", line=1, subject="m", message="x"
    )
    error = attrs.evolve(warning, problem=Problem.DANGLING_REFERENCE)
    assert Diagnosis(findings=(warning,), gating=1, unmeasured=None).exit_code == DOCTOR_CLEAN_EXIT
    assert Diagnosis(findings=(warning, error), gating=1, unmeasured=0).exit_code == (
        DOCTOR_ERRORS_EXIT
    )
    assert (DOCTOR_CLEAN_EXIT, DOCTOR_ERRORS_EXIT) == (0, 1)


def test_clean_records_are_clean(tmp_path: Path) -> None:
    """A gate with its dataset, policy, approved threshold and enough samples: no findings."""
    (tmp_path / "metrics.yaml").write_text(
        "metrics:\n  m:\n    status: gating\n    dataset: d\n    min_samples: 100\n"
    )
    (tmp_path / "datasets.yaml").write_text(
        "datasets:\n  d:\n    status: validated\n    version: '1'\n"
    )
    (tmp_path / "policies.yaml").write_text("policies:\n  d:\n    policy: permitted\n")
    (tmp_path / "thresholds.yaml").write_text(
        "thresholds:\n  m:\n    op: '>='\n    value: 0.9\n    approval: approved\n"
        "    approved_by: '@a'\n    approved_on: 2026-01-01\n    approved_for:\n"
        "      dataset_version: '1'\n"
    )
    diagnosis = diagnose(load_records(tmp_path), None, TODAY)
    assert diagnosis.findings == ()
    assert diagnosis.summary == (
        "1 metric configured to gate (no outputs given); 0 errors, 0 warnings"
    )


def test_json_carries_every_finding(rec: Path) -> None:
    """--format json: severity, code, file, line, subject and message per finding, and counts."""
    doc = json.loads(render(_diagnose(rec), Format.JSON))
    assert (doc["schema_version"], doc["exit_code"], doc["errors"], doc["warnings"]) == (1, 1, 5, 9)
    assert doc["findings"][3] == {
        "severity": "error",
        "code": "dangling_reference",
        "file": "rec/metrics.yaml",
        "line": 2,
        "subject": "a/gate",
        "message": "metric 'a/gate' names dataset 'qa-gld', which has no record in datasets.yaml "
        "(did you mean 'qa-gold'?)",
    }
    assert [f"{f['file']}:{f['line']}" for f in doc["findings"]][:2] == [
        "rec/baselines.yaml:2",
        "rec/datasets.yaml:11",
    ]


@pytest.mark.parametrize(
    ("op", "bar", "needed"),
    [
        (Op.GE, 0.85, 22),
        (Op.GE, 0.9, 35),
        (Op.GT, 0.5, 6),
        (Op.LE, 0.05, 73),
        (Op.LT, 0.5, 6),
        (Op.GE, 0.0, 1),
        (Op.GE, 1.0, None),
        (Op.LE, 0.0, None),
        (Op.LE, 1.0, 1),
    ],
)
def test_smallest_n_for_a_perfect_score_to_clear(op: Op, bar: float, needed: int | None) -> None:
    """Known answers: >= 0.85 needs 22 samples at 95% Wilson; > 0.5 needs 6, where the exact
    bound of n of n, 0.025^(1/n), first passes 0.5 (Wilson's 4 of 4 would); >= 1 never clears."""
    assert min_n_to_clear(op, bar) == needed


@given(
    st.floats(min_value=0.001, max_value=0.999),
    st.sampled_from(list(Op)),
    st.sampled_from([0.8, 0.9, 0.95, 0.99]),
)
def test_smallest_n_is_the_first_that_clears(bar: float, op: Op, level: float) -> None:
    """At the n found, a perfect score's bound clears the bar by the gate's own rule (`clears`,
    which a bound within rounding of the bar does not); one fewer does not."""
    n = min_n_to_clear(op, bar, level)
    assert n is not None

    def perfect(k: int) -> Interval:
        return stats.proportion(k if op.higher_is_better else 0, k, level)

    assert clears(perfect(n), op, bar)
    if n > 1:
        assert not clears(perfect(n - 1), op, bar)


@pytest.mark.parametrize(("days", "warned"), [(-1, False), (0, True), (30, True), (31, False)])
def test_an_approval_expiring_within_30_days_is_a_warning(days: int, warned: bool) -> None:
    """From its last day back to 30 days before it, an approval's expiry is a warning at the
    threshold's line; once expired it is no warning but the gate's own reason."""
    from tests import states as s

    records = s.records(s.State())
    last = TODAY + dt.timedelta(days=days)
    threshold = attrs.evolve(records.thresholds[s.METRIC], expires_on=last)
    records = attrs.evolve(records, thresholds={s.METRIC: threshold})
    findings = diagnose(records, None, TODAY).findings
    expiring = [f for f in findings if f.problem is Problem.APPROVAL_EXPIRING]
    assert [f.severity for f in expiring] == ([Severity.WARNING] if warned else [])
    blocked = [f.message for f in findings if f.problem is Problem.BLOCKED_GATE]
    assert bool(blocked) is (days < 0)
    if days < 0:
        assert (
            "approval_expired: the approval by @alice on 2026-11-01 held until 2026-11-29"
            in (blocked[0])
        )


def test_doctor_dates_everything_by_as_of(rec: Path) -> None:
    """`doctor --as-of`: an approval dated 2999-01-01 is from the future on 2026-11-30 and not
    on 2999-01-02, when c/point's approval has long expired (no longer 'expiring')."""
    from tests.cli_runner import cli

    now = cli("doctor", "--records", "rec", "--as-of", "2026-11-30", cwd=Path.cwd()).stdout
    later = cli("doctor", "--records", "rec", "--as-of", "2999-01-02", cwd=Path.cwd()).stdout
    assert "[future_approval]" in now and "[approval_expiring]" in now
    assert "[future_approval]" not in later and "[approval_expiring]" not in later
    assert "approval_expired: the approval by @alice on 2026-01-01 held until 2026-12-15" in later


def test_doctor_knows_checks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A gating check metric with no definition (error), a check no metric record names and an
    empty fast tier (warnings), a run check whose program is not found (error)."""
    from evalglass.shell import api

    monkeypatch.chdir(tmp_path)
    records = tmp_path / "rec"
    records.mkdir()
    (records / "checks.yaml").write_text(
        "checks:\n  lint:\n    run: no-such-linter-evalglass .\n    timeout: 60\n"
        "  card:\n    file_exists: card.md\n"
    )
    (records / "metrics.yaml").write_text(
        "metrics:\n  check/lint:\n    status: gating\n  check/unit-test:\n    status: gating\n"
    )
    (records / "thresholds.yaml").write_text(
        "thresholds:\n  check/lint:\n    op: '>='\n    value: 1\n    approval: proposed\n"
    )
    lines = render(api.doctor([], "rec", as_of=TODAY), Format.TERMINAL).splitlines()
    assert lines == [
        (
            "rec/checks.yaml: warning: no check is in the fast tier: `evalglass run --tier fast` runs "
            "none (give the quick ones tier: fast) [empty_tier]"
        ),
        (
            "rec/checks.yaml:2: error: check 'lint' runs 'no-such-linter-evalglass', which is not on "
            "PATH (nor a file from its cwd): it cannot run (check_could_not_run), and blocks the run "
            "if it gates [executable_not_found]"
        ),
        (
            "rec/checks.yaml:5: warning: check 'card' has no record 'check/card' in metrics.yaml: "
            "`evalglass run` runs it, and it is informational for ever [unrecorded_check]"
        ),
        (
            "rec/metrics.yaml:4: error: metric 'check/unit-test' is configured to gate, and "
            "checks.yaml has no check 'unit-test': it blocks every run [dangling_reference]"
        ),
        (
            "rec/thresholds.yaml:2: warning: threshold 'check/lint' is used by nothing: a check's "
            "definition in checks.yaml is its bar [unused_record]"
        ),
        "2 metrics configured to gate (no outputs given); 2 errors, 3 warnings",
    ]


def test_doctor_names_outputs_that_confirm_on_nothing(rec: Path) -> None:
    """Given outputs of a format that names no task (generic JSON), an output none of whose
    measured metrics has a gating record is named; one with a gating metric is not, whatever
    its ids' first segments."""
    (rec / "run.json").write_text(
        '{"model": "m", "metrics": {"a/gate": 0.9, "z/one": 0.5, "z/two": 0.4}}'
    )
    (rec / "other.json").write_text('{"model": "m", "metrics": {"y/one": 0.5, "y/two": 0.4}}')
    found = [
        f
        for f in _diagnose(rec, "rec/run.json", "rec/other.json").findings
        if f.problem is Problem.CONFIRMS_ON_NOTHING
    ]
    assert [(f.where, f.severity, f.subject, f.message) for f in found] == [
        (
            "rec/other.json",
            Severity.WARNING,
            "rec/other.json",
            (
                "output 'rec/other.json' confirms on nothing: none of its 2 metrics measured "
                "(y/one, y/two) has a gating record in metrics.yaml"
            ),
        ),
    ]


def test_doctor_takes_tasks_from_the_output_not_the_id(rec: Path) -> None:
    """Inspect tasks named as inspect_evals names them (`inspect_evals/TASK`) are one task each,
    never all one task `inspect_evals`: the task is the one the log says it ran."""
    runs = {
        task: Run(source=f"logs/{task.split('/')[-1]}.eval", task=task)
        for task in ("inspect_evals/agent_threat_bench_memory_poison",
                     "inspect_evals/agent_threat_bench_autonomy_hijack")
    }  # fmt: skip
    measured = {
        f"{task}/{scorer}/accuracy": Measurement(
            id=f"{task}/{scorer}/accuracy", run=run, value=0.5, n=10
        )
        for task, run in runs.items()
        for scorer in ("utility", "security")
    }
    gate = "inspect_evals/agent_threat_bench_memory_poison/utility/accuracy"
    (rec / "metrics.yaml").write_text(f"metrics:\n  {gate}:\n    status: gating\n    dataset: d\n")
    found = [
        f
        for f in diagnose(load_records(rec), Evidence(measurements=measured), TODAY).findings
        if f.problem is Problem.CONFIRMS_ON_NOTHING
    ]
    assert [(f.subject, f.message) for f in found] == [
        (
            "inspect_evals/agent_threat_bench_autonomy_hijack",
            (
                "task 'inspect_evals/agent_threat_bench_autonomy_hijack' confirms on nothing: "
                "none of its 2 metrics measured "
                "(inspect_evals/agent_threat_bench_autonomy_hijack/security/accuracy, "
                "inspect_evals/agent_threat_bench_autonomy_hijack/utility/accuracy) has a "
                "gating record in metrics.yaml"
            ),
        ),
    ]


@pytest.mark.parametrize(
    ("run", "tasks"),
    [
        ("inspect/eval-set/logs/json", {"alpha", "beta"}),
        ("lm-eval/results", {"arith_gen", "arith_mc", "arith_suite"}),
    ],
)
def test_the_tasks_of_real_outputs_are_the_ones_they_ran(run: str, tasks: set[str]) -> None:
    """Inspect's eval.task and lm-eval's task (or group) names are each metric's task."""
    evidence = read_outputs([FIXTURES / run])
    assert {m.run.task for m in evidence.measurements.values()} == tasks


def test_a_success_policy_no_run_can_meet_is_an_error(rec: Path) -> None:
    """must_pass ids with no record, not gating or held back by stage 1, and a min_gates above
    the metrics configured to gate: each an error at the policy's line, since every run blocks
    or can never pass."""
    (rec / "success.yaml").write_text(
        "# the release owners\nsuccess:\n  min_gates: 5\n  must_pass:\n    - a/gat\n"
        "    - d/info\n    - b/judged\n    - c/point\n"
    )
    found = [f for f in _diagnose(rec).findings if f.problem is Problem.UNMEETABLE_POLICY]
    assert [(f.where, f.severity, f.message) for f in found] == [
        (
            "rec/success.yaml:2",
            Severity.ERROR,
            (
                "the success policy must pass 'a/gat', which has no record in metrics.yaml (did you "
                "mean 'a/gate'?): every run blocks"
            ),
        ),
        (
            "rec/success.yaml:2",
            Severity.ERROR,
            (
                "the success policy must pass 'b/judged', which cannot gate (judge_uncalibrated): every "
                "run blocks until it can gate"
            ),
        ),
        (
            "rec/success.yaml:2",
            Severity.ERROR,
            (
                "the success policy must pass 'd/info', whose status is informational: it never gates, "
                "so every run blocks"
            ),
        ),
        (
            "rec/success.yaml:2",
            Severity.ERROR,
            (
                "the success policy asks for at least 5 gates, and 4 metrics are configured to gate: "
                "no run can pass"
            ),
        ),
    ]


def test_a_success_policy_the_records_can_meet_adds_nothing(rec: Path) -> None:
    """A must_pass gate that can gate and a min_gates within reach: no policy finding."""
    (rec / "success.yaml").write_text("success:\n  min_gates: 4\n  must_pass:\n    - c/point\n")
    with_policy = _diagnose(rec).findings
    (rec / "success.yaml").unlink()
    assert with_policy == _diagnose(rec).findings


def test_a_judge_whose_evidence_falls_short_is_an_error_at_its_line(rec: Path) -> None:
    """Evidence below the judge's bar: one error at the judge's record naming the number, the
    bar and the metrics it blocks; the blocked metric's own finding does not repeat it."""
    shutil.copy(
        Path(__file__).parents[2] / "examples/calibration/grader-v2.json", rec / "grader-v2.json"
    )
    (rec / "judges.yaml").write_text(
        "judges:\n  grader:\n    model: judge/model-a\n    calibration: calibrating\n"
        "    evidence: grader-v2.json\n    min_agreement:\n      statistic: kappa\n"
        "      lower_bound: 0.75\n"
    )
    found = [f for f in _diagnose(rec).findings if f.problem is Problem.JUDGE_EVIDENCE_INSUFFICIENT]
    assert [(f.where, f.severity, f.message) for f in found] == [
        (
            "rec/judges.yaml:2",
            Severity.ERROR,
            (
                "judge 'grader': calibration evidence 'grader-v2.json' is for judge 'grader-v2', not "
                "'grader': 1 metric using it ('b/judged') would block once calibrated "
                "(judge_evidence_insufficient) until the judge is re-calibrated or `evidence` points "
                "at the right file"
            ),
        ),
    ]
    (rec / "judges.yaml").write_text(
        "judges:\n  grader-v2:\n    model: openai/gpt-4.1\n    calibration: calibrated\n"
        "    evidence: grader-v2.json\n    min_agreement:\n      statistic: kappa\n"
        "      lower_bound: 0.75\n"
    )
    (rec / "metrics.yaml").write_text(
        (rec / "metrics.yaml").read_text().replace("judge: grader\n", "judge: grader-v2\n")
    )
    findings = _diagnose(rec).findings
    found = [f for f in findings if f.problem is Problem.JUDGE_EVIDENCE_INSUFFICIENT]
    assert [f.message.split(": 1 metric")[0] for f in found] == [
        (
            "judge 'grader-v2': calibration evidence 'grader-v2.json': kappa lower bound 0.702 < 0.75 "
            "(value 0.7846, n 285, 95% bootstrap)"
        )
    ]
    assert "blocks (judge_evidence_insufficient)" in found[0].message
    blocked = [
        f.message for f in findings if f.problem is Problem.BLOCKED_GATE and f.subject == "b/judged"
    ]
    # Nothing else blocks it without a run (independence is the run's to show), so it has no
    # blocked_gate finding of its own at all.
    assert blocked == []


def test_a_check_the_success_policy_must_pass_is_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """must_pass naming a gating check: a warning at the policy's line that every `score` (and,
    for a full-tier check, every fast-tier run) is blocked, since the check is not run there."""
    from evalglass.shell import api

    monkeypatch.chdir(tmp_path)
    records = tmp_path / "rec"
    records.mkdir()
    (records / "checks.yaml").write_text(
        "checks:\n  card:\n    file_exists: card.md\n    tier: fast\n"
        "  docs:\n    file_exists: docs.md\n"
    )
    (records / "metrics.yaml").write_text(
        "metrics:\n  check/card:\n    status: gating\n  check/docs:\n    status: gating\n"
    )
    (records / "success.yaml").write_text(
        "success:\n  must_pass:\n    - check/card\n    - check/docs\n"
    )
    found = [
        (f.where, f.severity, f.message)
        for f in api.doctor([], "rec", as_of=TODAY).findings
        if f.problem is Problem.MUST_PASS_CHECK
    ]
    assert found == [
        (
            "rec/success.yaml:1",
            Severity.WARNING,
            (
                "the success policy must pass 'check/card', which only `evalglass run` runs: every "
                "`evalglass score` is blocked, as a check not run cannot show that it passed"
            ),
        ),
        (
            "rec/success.yaml:1",
            Severity.WARNING,
            (
                "the success policy must pass 'check/docs', which only `evalglass run` runs: every "
                "`evalglass score` or `evalglass run --tier fast` is blocked, as a check not run cannot "
                "show that it passed"
            ),
        ),
    ]


def test_a_calibrated_judge_without_outputs_is_no_error(tmp_path: Path) -> None:
    """The bundled records with their judge calibrated: with no outputs, independence is the
    run's to show, not a records problem (doctor exits clean, as a pre-commit hook needs); an
    output graded by the model under test still blocks, at the metric's line."""
    folder = tmp_path / "rec"
    shutil.copytree(Path(__file__).parents[2] / "host_records", folder)
    judges = folder / "judges.yaml"
    judges.write_text(
        judges.read_text().replace("calibration: calibrating", "calibration: calibrated")
    )
    records = load_records(folder)
    alone = diagnose(records, None, TODAY)
    assert [f.problem for f in alone.findings if f.severity is Severity.ERROR] == []
    assert alone.exit_code == DOCTOR_CLEAN_EXIT
    run = tmp_path / "run.json"
    run.write_text(json.dumps({
        "model": "openai/gpt-4.1",
        "metrics": {"qa/helpfulness": {"value": 0.8, "n": 200, "stderr": 0.02}},
    }))  # fmt: skip
    graded = diagnose(records, read_outputs([run]), TODAY)
    blocked = [f for f in graded.findings if f.problem is Problem.BLOCKED_GATE]
    assert [f.subject for f in blocked] == ["qa/helpfulness"]
    assert "judge_not_independent" in blocked[0].message
    assert graded.exit_code == DOCTOR_ERRORS_EXIT


def _one_gate(folder: Path, bar: str, min_samples: int, extra: str = "") -> Path:
    """Records of one approved gating metric `m` on dataset `d` with the bar `bar`."""
    (folder / "metrics.yaml").write_text(
        f"metrics:\n  m:\n    status: gating\n    dataset: d\n    min_samples: {min_samples}\n"
        + extra
    )
    (folder / "datasets.yaml").write_text(
        "datasets:\n  d:\n    status: validated\n    version: '1'\n"
    )
    (folder / "policies.yaml").write_text("policies:\n  d:\n    policy: permitted\n")
    (folder / "thresholds.yaml").write_text(
        f"thresholds:\n  m:\n    op: '>='\n    value: {bar}\n    approval: approved\n"
        "    approved_by: '@a'\n    approved_on: 2026-01-01\n    approved_for:\n"
        "      dataset_version: '1'\n"
    )
    return folder


def _run(folder: Path, scores: list[float]) -> str:
    path = folder / "run.json"
    path.write_text(json.dumps({"metrics": {"m": {"scores": scores}}}))
    return str(path)


def test_a_gate_that_cannot_pass_at_its_measured_n_is_an_error(tmp_path: Path) -> None:
    """>= 0.99 measured on 200 samples: even 200 of 200 has a Wilson lower bound of 0.9812, so
    the gate can only fail; the finding says so and gives the n at which a perfect score passes
    (381, the least n with n/(n + 1.96²) >= 0.99)."""
    folder = _one_gate(tmp_path, "0.99", 100)
    evidence = read_outputs([_run(tmp_path, [1.0] * 200)])
    found = [
        f for f in diagnose(load_records(folder), evidence, TODAY).findings
        if f.problem is Problem.CANNOT_PASS_AT_N
    ]  # fmt: skip
    assert [(f.severity, f.message) for f in found] == [
        (
            Severity.ERROR,
            (
                "metric 'm' cannot pass at n 200, the n it is measured with: even a perfect "
                "score's 95% Wilson lower bound is 0.9812, not >= 0.99; a perfect score passes "
                "from n 381"
            ),
        )
    ]
    assert min_n_to_clear(Op.GE, 0.99) == 381
    # At 381 samples, a perfect score can pass: only min_samples (100 < 381) is still said.
    evidence = read_outputs([_run(tmp_path, [1.0] * 381)])
    problems = [f.problem for f in diagnose(load_records(folder), evidence, TODAY).findings]
    assert problems == [Problem.MIN_SAMPLES_TOO_LOW]


def test_min_samples_advice_uses_the_gates_own_method(tmp_path: Path) -> None:
    """Continuous scores in [0, 1]: a perfect score has no spread, which the gate bounds by
    Hoeffding's interval, so the advice is Hoeffding's n (185 for >= 0.9 at 95%: the least n
    with 1 − √(ln 40 / 2n) >= 0.9), not Wilson's 35."""
    folder = _one_gate(tmp_path, "0.9", 100)
    evidence = read_outputs([_run(tmp_path, [0.5, 0.75] * 100)])
    messages = [
        f.message for f in diagnose(load_records(folder), evidence, TODAY).findings
        if f.problem in (Problem.MIN_SAMPLES_TOO_LOW, Problem.CANNOT_PASS_AT_N)
    ]  # fmt: skip
    assert messages == [
        (
            "metric 'm': min_samples 100 is below 185, the smallest n at which even a perfect "
            "score's 95% Hoeffding lower bound clears >= 0.9: a score measured on fewer samples "
            "can only fail"
        )
    ]


def test_a_unit_scale_is_advised_by_hoeffding_without_outputs(tmp_path: Path) -> None:
    """Records alone: `scale: unit` says the scores are continuous in [0, 1], so the advice is
    Hoeffding's n; without a scale it is a proportion's (Wilson's)."""
    folder = _one_gate(tmp_path, "0.9", 100, "    scale: unit\n")
    messages = [f.message for f in diagnose(load_records(folder), None, TODAY).findings]
    assert messages == [
        (
            "metric 'm': min_samples 100 is below 185, the smallest n at which even a perfect "
            "score's 95% Hoeffding lower bound clears >= 0.9: a score measured on fewer samples "
            "can only fail"
        )
    ]
    folder = _one_gate(tmp_path, "0.9", 100)
    assert diagnose(load_records(folder), None, TODAY).findings == ()
