"""The scorecard JSON contract: what is written reads back the same, and what is not a scorecard
is refused with one line naming the field."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalglass
from evalglass import contract
from evalglass.core.authority import Outcome
from evalglass.core.decision import Result
from evalglass.core.exits import Verdict
from evalglass.core.scorecard import assemble
from evalglass.core.status import Status
from evalglass.core.success import Rule, Source
from evalglass.errors import ContractError
from evalglass.evidence.model import AttemptOutcome, Evidence, Method, MethodBasis
from evalglass.records.model import Approval, Op, SuccessMode
from evalglass.render import Format, render
from evalglass.render.json import to_contract
from evalglass.tiers import Tier
from tests import states
from tests.render_cases import WHEN
from tests.strategies import scorecard_documents

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "run.json"
RECORDS = EXAMPLE.parents[1] / "host_records"


def test_published_vocabularies_are_the_cores() -> None:
    """Each closed vocabulary in the contract is exactly the core enum it publishes."""
    pairs = [
        (contract.VerdictName, Verdict), (contract.OutcomeName, Outcome),
        (contract.ResultName, Result), (contract.OpName, Op), (contract.ApprovalName, Approval),
        (contract.MethodName, Method), (contract.MethodBasisName, MethodBasis),
        (contract.StatusName, Status),
        (contract.ModeName, SuccessMode), (contract.PolicySourceName, Source),
        (contract.RuleName, Rule), (contract.OutcomeOfAttempt, AttemptOutcome),
        (contract.TierName, Tier),
    ]  # fmt: skip
    for literal, enum in pairs:
        assert list(get_args(literal)) == [member.value for member in enum]


@settings(max_examples=200, deadline=None)
@given(doc=scorecard_documents)
def test_any_document_reads_back_as_written(doc: contract.Scorecard) -> None:
    """loads(dumps(doc)) == doc, for every document the contract admits."""
    assert contract.loads(contract.dumps(doc), "card.json") == doc


@settings(max_examples=100, deadline=None)
@given(state=states.states(), keep=st.booleans())
def test_a_real_scorecard_reads_back_as_written(state: states.State, keep: bool) -> None:
    """Every scorecard the core assembles survives the round trip through its JSON."""
    records = states.records(state)
    measurement = states.measurement(state)
    evidence = Evidence(measurements={measurement.id: measurement}, sources=("run.json",))
    doc = to_contract(assemble(records, evidence, evaluated_at=WHEN), keep_samples=keep)
    text = contract.dumps(doc)
    assert contract.loads(text, "card.json") == doc
    assert contract.dumps(contract.loads(text, "card.json")) == text


def test_load_scorecard_reads_what_score_wrote(tmp_path: Path) -> None:
    """evalglass.load_scorecard reads a file `score --format json` wrote, twice in one process."""
    card = evalglass.score([EXAMPLE], RECORDS)
    path = tmp_path / "card.json"
    path.write_text(render(card, Format.JSON))
    for _ in range(2):
        loaded = evalglass.load_scorecard(path)
        assert loaded.verdict == card.verdict.value
        assert [m.id for m in loaded.metrics] == [m.id for m in card.metrics]


def _doc() -> dict[str, object]:
    card = evalglass.score([EXAMPLE], RECORDS)
    return json.loads(contract.dumps(to_contract(card, keep_samples=True)))  # type: ignore[no-any-return]


def _set(doc: dict[str, object], path: tuple[object, ...], value: object) -> dict[str, object]:
    target: object = doc
    for key in path[:-1]:
        target = target[key]  # type: ignore[index]
    target[path[-1]] = value  # type: ignore[index]
    return doc


HOSTILE = {
    "a boolean value": (("metrics", 0, "value"), True, "metrics[0].value: expected a number"),
    "a string n": (("metrics", 0, "n"), "412", "metrics[0].n"),
    "a fractional n": (("metrics", 0, "n"), 4.5, "metrics[0].n"),
    "a negative n": (("metrics", 0, "n"), -1, "metrics[0]: n must not be negative"),
    "samples not a list": (
        ("metrics", 0, "samples"),
        {"id": "a"},
        "metrics[0].samples: expected a list",
    ),
    "level 0": (("metrics", 0, "level"), 0, "metrics[0]: level must lie between 0.5 and 0.999"),
    "level 1": (("metrics", 0, "level"), 1, "metrics[0]: level must lie between 0.5 and 0.999"),
    "level 7.5": (
        ("metrics", 0, "level"),
        7.5,
        "metrics[0]: level must lie between 0.5 and 0.999",
    ),
    "a level whose quantile rounds to 1": (
        ("metrics", 0, "level"),
        0.9999999999999999,
        "metrics[0]: level must lie between 0.5 and 0.999, got 0.9999999999999999",
    ),
    "a level whose critical value is 0": (
        ("metrics", 0, "level"),
        1e-300,
        "metrics[0]: level must lie between 0.5 and 0.999, got 1e-300",
    ),
    "an unknown verdict": (("verdict",), "passed", "verdict"),
    "an interval of three": (("metrics", 0, "interval"), [0, 1, 2], "metrics[0].interval"),
    "metrics not a list": (("metrics",), {}, "metrics: expected a list"),
    "an unknown policy mode": (("policy", "mode"), "most", "policy.mode"),
    "a pass rate above 1": (("policy", "pass_rate"), 1.5, "policy: pass_rate must lie between"),
    "a negative min_gates": (("policy", "min_gates"), -1, "policy: min_gates must not be negative"),
    "a time without a zone": (
        ("evaluated_at",),
        "2026-11-30T12:00:00",
        "evaluated_at: expected a time",
    ),
    "a date for a time": (("evaluated_at",), "2026-11-30", "evaluated_at: expected a time"),
    "a number for a time": (("evaluated_at",), 1764504000, "evaluated_at: expected a time"),
    "an impossible time": (("evaluated_at",), "2026-02-30T12:00:00Z", "evaluated_at: "),
}


def test_a_scorecard_from_before_success_policies_still_reads() -> None:
    """A file with no `policy` (written before evalglass had success policies) loads, policy None;
    every scorecard written now carries it."""
    doc = _doc()
    assert doc["policy"] is not None
    del doc["policy"]
    assert contract.loads(json.dumps(doc), "old.json").policy is None


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_malformed_scorecard_is_refused_naming_the_field(case: str) -> None:
    """Each malformed field is one ContractError line that names it; nothing is half-read."""
    path, value, named = HOSTILE[case]
    text = json.dumps(_set(_doc(), path, value))
    with pytest.raises(ContractError) as error:
        contract.loads(text, "base.json")
    message = str(error.value)
    assert message.startswith("base.json: ") and "\n" not in message
    assert named in message


@pytest.mark.parametrize(
    "text",
    [
        '{"metrics": [], "schema_version": 1, "value": NaN}',
        "[" * 100_000 + "]" * 100_000,
        '{"schema_version": 1, "metrics": [{"n": 1' + "0" * 5000 + "}]}",
        '"\\ud800"',
        "",
        "null",
        '{"schema_version": 2, "metrics": []}',
        '{"schema_version": 1}',
    ],
    ids=[
        "nan",
        "deep",
        "huge integer",
        "lone surrogate",
        "empty",
        "null",
        "version 2",
        "no metrics",
    ],
)
def test_text_that_is_not_a_scorecard_is_one_line(text: str) -> None:
    """Non-JSON, deep, huge or foreign documents are a ContractError, never a crash."""
    with pytest.raises(ContractError) as error:
        contract.loads(text, "base.json")
    assert "\n" not in str(error.value)


def test_a_run_with_checks_reads_back_with_its_attempts_and_tier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`evalglass run`'s JSON: attempts per check, counts.not_run and the tier survive the trip;
    `score` writes no tier and no attempts, and counts the gating checks it did not run."""
    monkeypatch.chdir(RECORDS.parent)
    card = evalglass.run([EXAMPLE], RECORDS, tier="fast", use_cache=False)
    text = render(card, Format.JSON)
    doc = contract.loads(text, "card.json")
    assert contract.dumps(doc) == text
    assert (doc.tier, doc.counts.not_run) == ("fast", 1)
    present = doc.metric("check/eval-output-present")
    assert present is not None and present.attempts is not None
    assert [a.outcome for a in present.attempts] == ["passed"]
    plain = json.loads(render(evalglass.score([EXAMPLE], RECORDS), Format.JSON))
    assert "tier" not in plain and plain["counts"]["not_run"] == 2
    assert all("attempts" not in m for m in plain["metrics"])


def test_a_scorecard_from_before_evaluated_at_still_loads() -> None:
    """A file written before the evaluation time was recorded reads with evaluated_at None."""
    doc = _doc()
    del doc["evaluated_at"]
    assert contract.loads(json.dumps(doc), "old.json").evaluated_at is None


def test_evaluated_at_reads_any_zone_as_utc_and_writes_z() -> None:
    """A time with an offset is the same instant in UTC, and is written back with a Z."""
    doc = _set(_doc(), ("evaluated_at",), "2026-11-30T14:00:00+02:00")
    loaded = contract.loads(json.dumps(doc), "card.json")
    assert loaded.evaluated_at == dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)
    assert '"evaluated_at": "2026-11-30T12:00:00Z",' in contract.dumps(loaded)


def test_a_threshold_says_what_it_was_approved_for_and_until_when() -> None:
    """Each threshold carries the records' approved_for and expires_on; a file written before
    they were recorded still reads (both None), and an expiry that is not a date is refused."""
    from evalglass.records.load import load_records

    thresholds = load_records(RECORDS).thresholds
    doc = _doc()
    shown = {m["id"]: m["threshold"] for m in doc["metrics"] if m["threshold"]}  # type: ignore[attr-defined, index]
    assert shown and set(shown) == set(thresholds)
    for metric, threshold in shown.items():
        approved = thresholds[metric].approved_for
        assert threshold["approved_for"] == (
            None
            if approved is None
            else {
                "dataset_version": approved.dataset_version,
                "fingerprint": approved.fingerprint,
                "judge_model": approved.judge_model,
            }
        )
        expires = thresholds[metric].expires_on
        assert threshold["expires_on"] == (None if expires is None else expires.isoformat())
    assert any(t["approved_for"] for t in shown.values())
    for threshold in shown.values():
        del threshold["approved_for"], threshold["expires_on"]
    old = contract.loads(json.dumps(doc), "old.json")
    assert all(
        (m.threshold.approved_for, m.threshold.expires_on) == (None, None)
        for m in old.metrics
        if m.threshold is not None
    )
    next(iter(shown.values()))["expires_on"] = "next year"
    with pytest.raises(ContractError, match="expires_on must be a date"):
        contract.loads(json.dumps(doc), "base.json")


def test_each_contract_module_holds_one_concept_under_400_lines() -> None:
    """The contract is split by concept, each module small, and `evalglass.contract` is still
    the one public path to all of it."""
    folder = Path(contract.__file__).parent
    sizes = {p.name: len(p.read_text().splitlines()) for p in folder.glob("*.py")}
    assert set(sizes) == {
        "__init__.py",
        "vocabulary.py",
        "metric.py",
        "scorecard.py",
        "converter.py",
        "text.py",
    }
    assert max(sizes.values()) < 400, sizes
    assert all(hasattr(contract, name) for name in contract.__all__)
