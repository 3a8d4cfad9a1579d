"""The public surface users depend on: a change here must show up as a visible diff."""

from __future__ import annotations

import evalglass
from evalglass.core.authority import Outcome
from evalglass.core.decision import Result
from evalglass.core.exits import Verdict
from evalglass.reasons import AuthorityCode, ValidityCode


def test_all_is_pinned_and_importable() -> None:
    """__all__ is sorted, pinned, and every name in it resolves."""
    assert evalglass.__all__ == [
        "Authority", "EvalglassError", "Evidence", "GateResult", "HostRecords", "Measurement",
        "MetricCard", "Outcome", "OutputError", "RecordError", "Result", "Scorecard", "Verdict",
        "__version__", "assemble", "decide", "diff_records", "doctor", "explain", "load_records", "load_scorecard",
        "read_outputs", "resolve", "score", "validate",
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
        "no_record", "metric_not_gating", "threshold_missing", "threshold_proposed",
        "dataset_proposed", "judge_uncalibrated", "dangling_reference", "policy_not_permitted",
        "dataset_retired", "dataset_mismatch", "judge_drifted", "judge_retired",
        "judge_not_independent", "baseline_missing", "baseline_not_comparable",
    ]
    assert [c.value for c in ValidityCode] == [
        "value_missing", "value_not_finite", "too_few_samples", "interval_unavailable",
        "too_many_missing", "value_mismatch",
    ]
