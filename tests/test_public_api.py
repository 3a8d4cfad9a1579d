"""The public surface users depend on: a change here must show up as a visible diff."""

from __future__ import annotations

import evalglass
from evalglass.core.authority import Outcome
from evalglass.core.decision import Result
from evalglass.core.exits import Verdict
from evalglass.reasons import AuthorityCode, GateCode, ValidityCode


def test_all_is_pinned_and_importable() -> None:
    """__all__ is sorted, pinned, and every name in it resolves."""
    assert evalglass.__all__ == [
        "Authority",
        "EvalglassError",
        "Evidence",
        "GateResult",
        "HostRecords",
        "Measurement",
        "MetricCard",
        "Outcome",
        "OutputError",
        "RecordError",
        "Result",
        "Scorecard",
        "Verdict",
        "__version__",
        "assemble",
        "decide",
        "diff_records",
        "doctor",
        "explain",
        "history",
        "load_records",
        "load_scorecard",
        "plan",
        "read_outputs",
        "resolve",
        "run",
        "score",
        "trend",
        "validate",
    ]
    assert set(evalglass.__all__) == set(evalglass._HOMES) | {"__version__"}
    for name in evalglass.__all__:
        assert getattr(evalglass, name) is not None


def test_vocabularies_are_pinned() -> None:
    """Outcomes, gate results, verdicts and reason codes are exactly the documented values."""
    assert [o.value for o in Outcome] == ["informational", "blocked", "can_gate"]
    assert [r.value for r in Result] == ["pass", "warn", "fail", "unsound", "not_enforced"]
    assert [v.value for v in Verdict] == ["fail", "blocked", "pass", "informational"]
    assert [c.value for c in AuthorityCode] == [
        "no_record",
        "metric_not_gating",
        "threshold_missing",
        "threshold_proposed",
        "dataset_proposed",
        "judge_uncalibrated",
        "dangling_reference",
        "policy_not_permitted",
        "dataset_retired",
        "dataset_mismatch",
        "dataset_unverifiable",
        "judge_drifted",
        "judge_retired",
        "judge_evidence_insufficient",
        "judge_not_independent",
        "judge_model_mismatch",
        "baseline_missing",
        "baseline_not_comparable",
        "approval_stale",
        "approval_expired",
    ]
    assert [c.value for c in ValidityCode] == [
        "value_missing",
        "value_not_finite",
        "too_few_samples",
        "interval_unavailable",
        "too_many_missing",
        "value_mismatch",
        "run_incomplete",
        "check_could_not_run",
    ]
    assert [c.value for c in GateCode] == ["passed_on_retry", "too_many_attempts", "not_run"]


_TWICE = """
import datetime as dt, os, subprocess, sys
import evalglass as e
records, output = "host_records", "examples/run.json"
for _ in range(2):
    card = e.score([output], records)
    assert e.explain("qa/exact_match", [output], records).card.id == "qa/exact_match"
    assert e.doctor([output], records).exit_code in (0, 1)
    assert e.validate(records) > 0
    assert e.run([output], records, use_cache=False).scope.tier is not None
    host = e.load_records(records)
    evidence = e.read_outputs([output])
    assert e.assemble(host, evidence, evaluated_at=card.evaluated_at).verdict is card.verdict
    m = evidence.measurements["qa/exact_match"]
    authority = e.resolve("qa/exact_match", host, m, evaluated_on=card.evaluated_at.date())
    assert isinstance(authority, e.Authority)
    assert e.diff_records("HEAD", records).base == "HEAD"
    path = sys.argv[1]
    from evalglass.render import Format, render
    open(path, "w").write(render(card, Format.JSON))
    assert e.load_scorecard(path).verdict == card.verdict.value
    assert [s.id for s in e.trend([path, path]).series] == [m.id for m in card.metrics]
    for name in e.__all__:
        value = getattr(e, name)
        assert not isinstance(value, type(os)), f"evalglass.{name} is a module"
print("ok")
"""


def test_every_exported_callable_works_twice_in_one_process(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Calling each API function twice in a fresh process: no name is shadowed by a submodule."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, "-c", _TWICE, str(tmp_path / "card.json")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok\n"
