"""The verdict and the exit code: the whole precedence table, and what each verdict means."""

from __future__ import annotations

import itertools

import pytest

from evalglass.core.authority import Authority, Outcome
from evalglass.core.decision import GateResult, Result
from evalglass.core.exits import Verdict, exit_code
from evalglass.core.scorecard import MetricCard, policy_outcome
from evalglass.core.validity import Validity
from tests.render_cases import WHEN

# Every (authority, gate) pair a metric can end in.
KINDS = {
    "informational": (Outcome.INFORMATIONAL, Result.NOT_ENFORCED),
    "blocked": (Outcome.BLOCKED, Result.NOT_ENFORCED),
    "pass": (Outcome.CAN_GATE, Result.PASS),
    "warn": (Outcome.CAN_GATE, Result.WARN),
    "fail": (Outcome.CAN_GATE, Result.FAIL),
    "unsound": (Outcome.CAN_GATE, Result.UNSOUND),
}


def card(kind: str, i: int) -> MetricCard:
    outcome, result = KINDS[kind]
    return MetricCard(
        id=f"{kind}/{i}",
        measurement=None,
        validity=Validity(True),
        authority=Authority(outcome),
        threshold=None,
        gate=GateResult(result),
    )


def expected_verdict(kinds: set[str]) -> Verdict:
    """DESIGN.md: fail > blocked > pass > informational."""
    if "fail" in kinds:
        return Verdict.FAIL
    if "blocked" in kinds or "unsound" in kinds:
        return Verdict.BLOCKED
    if "pass" in kinds or "warn" in kinds:  # a warning passes: shown, exit unchanged
        return Verdict.PASS
    return Verdict.INFORMATIONAL


SUBSETS = [set(c) for r in range(len(KINDS) + 1) for c in itertools.combinations(KINDS, r)]


@pytest.mark.parametrize("kinds", SUBSETS, ids=lambda k: "+".join(sorted(k)) or "empty")
def test_verdict_precedence(kinds: set[str]) -> None:
    """Every mix of metric outcomes gives the verdict of the precedence table."""
    cards = tuple(card(k, i) for i, k in enumerate(sorted(kinds)))
    assert policy_outcome(cards, None).verdict is expected_verdict(kinds)


@pytest.mark.parametrize(
    ("verdict", "require_gate", "code"),
    [
        (Verdict.PASS, False, 0),
        (Verdict.PASS, True, 0),
        (Verdict.FAIL, False, 1),
        (Verdict.FAIL, True, 1),
        (Verdict.BLOCKED, False, 3),
        (Verdict.BLOCKED, True, 3),
        (Verdict.INFORMATIONAL, False, 0),
        (Verdict.INFORMATIONAL, True, 5),
    ],
)
def test_exit_code_table(verdict: Verdict, require_gate: bool, code: int) -> None:
    """The exit code is a function of the verdict and --require-gate alone."""
    assert exit_code(verdict, require_gate) == code


def test_a_run_with_nothing_enforced_is_never_pass() -> None:
    """Only informational metrics, or none at all: the verdict is informational, not pass."""
    assert policy_outcome((), None).verdict is Verdict.INFORMATIONAL
    assert policy_outcome((card("informational", 0),), None).verdict is Verdict.INFORMATIONAL


@pytest.mark.parametrize(
    ("named", "shown"),
    [
        ((("acme/x",), ("acme/x",)), "acme/x"),
        ((("acme/x", "acme/y"),), None),
        ((("acme/x",), ("acme/y",)), None),
        (((),), None),
    ],
)
def test_the_scorecard_names_a_model_only_when_there_is_one(named, shown) -> None:
    """One model across every output is named; several in one output, or across outputs, or
    none, is not (each metric still names its own)."""
    from evalglass.core.scorecard import assemble
    from evalglass.evidence.model import Evidence, Measurement, Run
    from evalglass.records.model import HostRecords

    measurements = {
        f"m{i}": Measurement(id=f"m{i}", run=Run(source="o.json", models=models), value=0.5, n=10)
        for i, models in enumerate(named)
    }
    card = assemble(HostRecords(), Evidence(measurements=measurements), evaluated_at=WHEN)
    assert card.model == shown
    assert card.metrics[0].measurement.run.model == (", ".join(named[0]) or None)


def test_assemble_makes_the_whole_scorecard_naming_what_it_read() -> None:
    """`assemble` alone makes the scorecard: the records folder, the ref and commit it was read
    at, and each metric beside an earlier scorecard are set there, never on a finished card;
    they change nothing it decides."""
    import datetime as dt
    from pathlib import Path

    import attrs

    from evalglass import contract
    from evalglass.core.comparison import Earlier
    from evalglass.core.scorecard import RecordsAt, assemble
    from evalglass.evidence.read import read_outputs
    from evalglass.records.load import load_records
    from evalglass.render import Format, render

    root = Path(__file__).resolve().parents[2]
    records = load_records(root / "host_records")
    evidence = read_outputs([root / "examples" / "run.json"])
    plain = assemble(records, evidence, evaluated_at=WHEN)
    saved = contract.loads(render(plain, Format.JSON), "base.json")
    at = RecordsAt("origin/main", "1f" * 20)
    later = WHEN + dt.timedelta(days=1)
    earlier = Earlier(scorecard=saved, source="base.json", base_committed_at=later)
    card = assemble(
        records, evidence, evaluated_at=WHEN, records_folder="host_records", records_at=at,
        earlier=earlier,
    )  # fmt: skip
    assert (card.records_folder, card.records_at) == ("host_records", at)
    assert card.comparison is not None
    assert (card.comparison.source, card.comparison.stale) == ("base.json", True)
    measured = [m for m in card.metrics if m.measurement is not None]
    assert [c.id for c in card.comparison.metrics] == [m.id for m in measured]
    for m in measured:
        assert card.comparison.of(m.id).earlier == saved.metric(m.id).value
    assert attrs.evolve(card, records_folder=None, records_at=None, comparison=None) == plain
