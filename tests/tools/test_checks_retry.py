"""One recorded retry: a failed gating check runs exactly once more, live; both attempts are kept,
and passing only on the retry is a warning, never a plain pass."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path

import attrs
import pytest

from evalglass.core.authority import Authority, Outcome
from evalglass.core.decision import Result
from evalglass.core.exits import Verdict
from evalglass.core.scope import Scope
from evalglass.evidence.model import Attempt, AttemptOutcome
from evalglass.reasons import GateCode, ValidityCode
from evalglass.records.load import load_records
from evalglass.render import Format, render
from evalglass.shell import api
from evalglass.tiers import Tier
from evalglass.tools.checks.cache import Store
from evalglass.tools.checks.results import should_retry
from evalglass.tools.checks.session import Settings, run_checks

# Fails the first time it runs in a folder, passes every time after.
FLAKY = "test -f seen || { touch seen; echo flaked >&2; exit 1; }"


def _attempt(outcome: AttemptOutcome) -> Attempt:
    return Attempt(outcome=outcome, command="x", found="y")


@pytest.mark.parametrize("outcome", list(AttemptOutcome))
@pytest.mark.parametrize("authority", list(Outcome))
def test_the_retry_rule_whole_table(outcome: AttemptOutcome, authority: Outcome) -> None:
    """Retried iff the first attempt failed and the check may gate; never a second retry."""
    first = (_attempt(outcome),)
    retried = should_retry(first, Authority(authority))
    assert retried is (outcome is AttemptOutcome.FAILED and authority is Outcome.CAN_GATE)
    assert not should_retry(first * 2, Authority(authority))


def _folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check: str, status: str) -> Path:
    monkeypatch.chdir(tmp_path)
    records = tmp_path / "host_records"
    records.mkdir()
    (records / "checks.yaml").write_text(f"checks:\n  c:\n{check}")
    (records / "metrics.yaml").write_text(f"metrics:\n  check/c:\n    status: {status}\n")
    return records


def test_passing_on_the_retry_is_a_warning_with_both_attempts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failed, then passed once more: warn `passed_on_retry`, exit 0, both attempts in the JSON."""
    records = _folder(tmp_path, monkeypatch, f"    shell: '{FLAKY}'\n    timeout: 10\n", "gating")
    card = api.run([], records, use_cache=False)
    (metric,) = card.metrics
    assert metric.gate.result is Result.WARN
    assert [r.code for r in metric.gate.reasons] == [GateCode.PASSED_ON_RETRY]
    assert (card.verdict, card.exit_code, card.counts.warned) == (Verdict.PASS, 0, 1)
    doc = json.loads(render(card, Format.JSON))["metrics"][0]
    assert [(a["outcome"], a["exit_code"]) for a in doc["attempts"]] == [
        ("failed", 1),
        ("passed", 0),
    ]
    assert doc["attempts"][0]["stderr"] == "flaked\n"
    assert doc["gate"]["reasons"][0]["code"] == "passed_on_retry"


def test_failing_twice_fails_the_gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A gating check that fails its retry too fails the run, with both attempts."""
    records = _folder(tmp_path, monkeypatch, "    run: 'false'\n    timeout: 10\n", "gating")
    card = api.run([], records, use_cache=False)
    (metric,) = card.metrics
    assert metric.gate.result is Result.FAIL
    assert metric.measurement is not None and len(metric.measurement.attempts) == 2
    assert (card.verdict, card.exit_code) == (Verdict.FAIL, 1)


def test_an_informational_check_is_not_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its failure blocks nothing, so it runs once and is shown, never enforced."""
    records = _folder(tmp_path, monkeypatch, "    run: 'false'\n    timeout: 10\n", "informational")
    card = api.run([], records, use_cache=False)
    (metric,) = card.metrics
    assert metric.measurement is not None and len(metric.measurement.attempts) == 1
    assert metric.gate.result is Result.NOT_ENFORCED
    assert card.verdict is Verdict.INFORMATIONAL


def test_a_check_that_could_not_run_blocks_and_is_not_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Could not run: unsound `check_could_not_run`, verdict blocked (exit 3), one attempt."""
    records = _folder(
        tmp_path, monkeypatch, "    run: no-such-program-evalglass\n    timeout: 10\n", "gating"
    )
    card = api.run([], records, use_cache=False)
    (metric,) = card.metrics
    assert metric.gate.result is Result.UNSOUND
    assert [r.code for r in metric.gate.reasons] == [ValidityCode.CHECK_COULD_NOT_RUN]
    assert metric.measurement is not None and len(metric.measurement.attempts) == 1
    assert metric.measurement.value is None
    assert (card.verdict, card.exit_code) == (Verdict.BLOCKED, 3)


@attrs.frozen
class _Watched(Store):
    """A cache that remembers which keys were asked for."""

    asked: list[str] = attrs.field(factory=list)

    def get(self, cache_key: str) -> Attempt | None:
        self.asked.append(cache_key)
        return super().get(cache_key)


def test_the_retry_never_reads_the_cache_and_its_pass_is_not_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The retry is live; a pass on the retry is not recorded, so the next run starts live and
    is seen to flake again (in a git repository, where passes are cached)."""
    records = _folder(tmp_path, monkeypatch, f"    shell: '{FLAKY}'\n    timeout: 10\n", "gating")
    (tmp_path / ".gitignore").write_text("seen\ncache/\n")
    for args in (
        ["init", "-q"],
        ["add", "."],
        ["-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "x"],
    ):
        subprocess.run(["git", *args], cwd=tmp_path, check=True)
    store = _Watched(tmp_path / "cache")
    host = load_records(records)
    evidence = run_checks(
        host, Settings(scope=Scope(Tier.FULL), evaluated_on=dt.date(2026, 12, 1), store=store)
    )
    attempts = evidence.measurements["check/c"].attempts
    assert [a.outcome for a in attempts] == [AttemptOutcome.FAILED, AttemptOutcome.PASSED]
    assert len(store.asked) == 1  # the first attempt only
    assert not list((tmp_path / "cache").rglob("*.json"))
    (tmp_path / "seen").unlink()
    again = run_checks(
        host, Settings(scope=Scope(Tier.FULL), evaluated_on=dt.date(2026, 12, 1), store=store)
    )
    assert [a.cached for a in again.measurements["check/c"].attempts] == [None, None]
